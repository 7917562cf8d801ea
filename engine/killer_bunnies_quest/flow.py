"""How the game moves on by itself between the players' decisions: the frames on the
stack are worked off (a card's primitives applied, an attack's deaths, the draws of a
replacement card, the end of a turn), until the game waits for a decision or a die.

The turn (KBQ-TURN-1..3, ruling R-KBQ-7): the active player flips (or plays a Special from
hand); the card is resolved; a flipped card's slot is refilled by sliding the bottom card
up, drawing back to five and laying a new bottom card; a Special from hand is simply
replaced. The turn is then over, unless a Bunny Triplet allows a second card (KBQ-TRIP-1..4).
At its end (``TurnEnd``): the feed demands due at that moment (KBQ-FEED-3), then the active
player's roaming cards attack (KBQ-ROAM-2), then the next player's turn begins (KBQ-TURN-2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.killer import feeding, piles
from engine.killer_bunnies_quest import leaving, roam, table
from engine.killer_bunnies_quest.catalogue import DECKS as _DECKS
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    Choice,
    Ctx,
    Draws,
    Frame,
    Hold,
    QuestState,
    RollCard,
    TurnEnd,
)
from engine.killer_bunnies_quest.unknowns import HIDDEN, shown, unknown_joins
from engine.rules import Effect

Step = Callable[[QuestState, Any, list[Effect]], bool]
STEPS: dict[type, Step] = {}
"""Frame type -> how it moves on by itself (True) or that it waits (False)."""


def step(kind: type) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        STEPS[kind] = fn
        return fn
    return register


def advance(state: QuestState, out: list[Effect]) -> None:
    """Work the stack off until it waits for somebody or a die (or the game is over)."""
    stack = state.stack
    while stack and not state.over:
        top = stack[-1]
        if not STEPS[type(top)](state, top, out):
            return
        stack = state.stack  # a step may put a new list in its place


def waits(state: QuestState) -> Frame | None:
    return state.stack[-1] if state.stack else None


# -- a card's primitives ---------------------------------------------------------------------------




def finish_card(state: QuestState, ctx: Any, out: list[Effect]) -> None:
    """A card is done: to the discard pile unless it stays in play, then the turn goes on."""
    if not ctx.keep:
        table.to_discard(state, [ctx.card], out)
    after_card(state, ctx.origin, ctx.by, ctx.card, out)


def after_card(state: QuestState, origin: str, seat: int, card: int, out: list[Effect]) -> None:
    """What follows a card leaving play (played, discarded or saved) by its origin."""
    if state.over:
        return
    if origin == "run":
        state.seats[seat].run.top = state.seats[seat].run.bottom
        state.seats[seat].run.bottom = None
        out.append(Effect("KBQ-TURN-3", "slid", {"seat": seat}))
        if not _plain_draw(state, seat, "KBQ-TURN-3", out):
            table.draw_cards(state, seat, 1, "bottom")
            return
        state.phase = "bottom"
    elif origin == "hand":
        if (_DECKS.get(state.deck) or table.deck(state)).type[card] == "very_special":
            # not the turn's card, and replaced at once (KBQ-VSP-2)
            if not _plain_draw(state, seat, "KBQ-VSP-2", out):
                table.draw_cards(state, seat, 1, "none", rule="KBQ-VSP-2")
        elif not _plain_draw(state, seat, "KBQ-TURN-3", out):
            table.draw_cards(state, seat, 1, "card_done")
        else:
            card_done(state, out)


def _plain_draw(state: QuestState, seat: int, rule: str, out: list[Effect]) -> bool:
    """The one-card draw done at once when the top card goes to the hand (no Dolla, no
    misfortune, no reshuffle owed): what the Draws step would do, without the frame."""
    draw = state.draw
    if not draw or state.partial or \
            (_DECKS.get(state.deck) or table.deck(state)).type[draw[-1]] in _NOT_PLAIN:
        return False  # the table form draws by event (unknowns, R-KBQ-40)
    card = draw.pop()
    state.seats[seat].hand.append(card)
    out.append(Effect(rule, "drew", {"seat": seat, "card": card}))
    return True


_NOT_PLAIN = frozenset({"money", "play_immediately"})


def card_done(state: QuestState, out: list[Effect]) -> None:
    """The turn's card is played and replaced: a second card with a triplet, else the end."""
    seat = state.active
    assert seat is not None
    state.cards_played += 1
    state.flipped = None
    # The triplet is checked now, after the first card and its replacement (KBQ-TRIP-2,
    # KBQ-TRIP-4: a triplet made by the first card counts, one broken by the draw does not);
    # never a third card (KBQ-TRIP-3).
    if state.cards_played == 1:
        if table.has_triplet(state, seat):
            state.second = True
            state.phase = "turn"
            rule = "KBQ-TRIP-1" if state.triplet_at_start else "KBQ-TRIP-2"
            out.append(Effect(rule, "second_card", {"seat": seat}))
            return
        state.ended = [seat, "KBQ-TRIP-1"]
        if state.triplet_at_start:
            state.ended = [seat, "KBQ-TRIP-4"]
            out.append(Effect("KBQ-TRIP-4", "triplet_lost", {"seat": seat}))
    elif state.cards_played == 2:
        state.ended = [seat, "KBQ-TRIP-3"]
        out.append(Effect("KBQ-TRIP-3", "two_cards_played", {"seat": seat}))
    begin_turn_end(state, out)


# -- draws -----------------------------------------------------------------------------------------


@step(Draws)
def _draws(state: QuestState, frame: Draws, out: list[Effect]) -> bool:
    while frame.count > 0:
        if not state.draw:
            if reshuffle_owed(state):
                return False  # the reshuffle is owed (chance)
            out.append(Effect("KBQ-SHUF-1", "no_cards_left", {"seat": frame.seat}))
            frame.count = 0
            break
        if state.partial:
            return False  # the table form: a draw event says the card (R-KBQ-40)
        if drawn(state, frame, piles.draw(state.draw), out):
            return True  # a choice is owed on top; the draws go on afterwards
    state.stack.pop()
    then = frame.then
    if then == "bottom":
        state.phase = "bottom"
    elif then == "card_done":
        card_done(state, out)
    return True


def drawn(state: QuestState, frame: Draws, card: int, out: list[Effect]) -> bool:
    """One card off the draw pile for ``frame``'s seat: a Dolla face up (and he draws
    again, KBQ-DRAW-1), a Play Immediately card played at once (KBQ-PI-1), any other to the
    hand (:data:`HIDDEN`: the table form's unseen card). True when a choice is now owed."""
    d = _DECKS.get(state.deck) or table.deck(state)
    seat = state.seats[frame.seat]
    kind = d.type[card] if card != HIDDEN else "hand"
    if kind == "money":
        seat.money.append(card)
        out.append(Effect("KBQ-DRAW-1", "dolla_drawn", {"seat": frame.seat, "card": card}))
        return False
    if kind == "play_immediately":
        if frame.unused_misfortune:
            table.to_discard(state, [card], out)
            out.append(Effect("KBQ-JOIN-1", "misfortune_unused", {"seat": frame.seat,
                                                                  "card": card}))
            return False
        return misfortune(state, frame.seat, card, out)
    seat.hand.append(card)
    if card == HIDDEN:
        unknown_joins(state, frame.seat)
        out.append(Effect(frame.rule, "drew", {"seat": frame.seat, "card": shown(card)}))
    else:
        out.append(Effect(frame.rule, "drew", {"seat": frame.seat, "card": card}))
    frame.count -= 1
    return False


def dealt(state: QuestState, seat: int, card: int, out: list[Effect]) -> bool:
    """One card of the deal for ``seat`` (KBQ-SET-2): a Dolla goes face up and a Play
    Immediately card is discarded (no bunny is in the circle), each to be replaced; any
    other goes to the hand (:data:`HIDDEN`: the table form's unseen card). True then."""
    kind = (_DECKS.get(state.deck) or table.deck(state)).type[card] if card != HIDDEN else "hand"
    if kind == "money":
        state.seats[seat].money.append(card)
        out.append(Effect("KBQ-FACE-1", "dolla_drawn", {"seat": seat, "card": card}))
        return False
    if kind == "play_immediately":
        table.to_discard(state, [card], out)
        out.append(Effect("KBQ-SET-2", "misfortune_unused", {"seat": seat, "card": card}))
        return False
    state.seats[seat].hand.append(card)
    out.append(Effect("KBQ-SET-2", "dealt", {"seat": seat, "card": shown(card)}))
    return True


def reshuffle_owed(state: QuestState) -> bool:
    """The draw pile is empty and the discard pile has large cards to shuffle into a new
    one (KBQ-SHUF-1); a leaver's unseen cards there are large ones."""
    large = (_DECKS.get(state.deck) or table.deck(state)).large
    return any(c in large or c == HIDDEN for c in state.discard)


def reshuffle(state: QuestState, order: list[int] | None, out: list[Effect]) -> None:
    """The discard pile's large cards become the new draw pile (KBQ-SHUF-1); in the table
    form they go back to the pool, their order unknown."""
    d = table.deck(state)
    gone = [c for c in state.discard if c in d.large or c == HIDDEN]
    state.discard = [c for c in state.discard if c not in d.large and c != HIDDEN]
    if order is None:
        state.pool.update(c for c in gone if c != HIDDEN)
        state.draw = [HIDDEN] * len(gone)
    else:
        state.draw = list(reversed(order))
    out.append(Effect("KBQ-SHUF-1", "reshuffled", {"cards": len(gone)}))


# -- waiting frames --------------------------------------------------------------------------------


@step(RollCard)
def _waits(state: QuestState, frame: Any, out: list[Effect]) -> bool:
    return False


STEPS[Choice] = _waits
STEPS[Hold] = _waits  # released by the next event that is not an answer (waiting.release)


@step(AttackFrame)
def _attack(state: QuestState, frame: AttackFrame, out: list[Effect]) -> bool:
    from engine.killer_bunnies_quest.combat import attack_step

    return attack_step(state, frame, out)


# -- the end of a turn -----------------------------------------------------------------------------


def begin_turn_end(state: QuestState, out: list[Effect]) -> None:
    seat = state.active
    assert seat is not None
    turn = state.seats[seat].turns
    launched = [r.card for r in state.roamers if r.launcher == seat] if state.roamers else []
    if not launched and not (state.demands and feeding.falling_due(state.demands, seat, turn)):
        next_turn(state, out)  # nothing falls due and nothing roams: the TurnEnd step's end
        return
    state.stack.append(TurnEnd(seat=seat, turn=turn, roamers=launched))
    state.phase = "turn_end"


@step(TurnEnd)
def _turn_end(state: QuestState, frame: TurnEnd, out: list[Effect]) -> bool:
    from engine.killer_bunnies_quest.combat import roaming_attack

    if not frame.deadlines_done:
        frame.deadlines_done = True
        for demand in feeding.falling_due(state.demands, frame.seat, frame.turn):
            if demand.bunny in state.circle:
                out.append(Effect("KBQ-FEED-3", "starved", {"bunny": demand.bunny,
                                                            "demand": demand.card}))
                leaving.kill(state, demand.bunny, "hunger", "KBQ-FEED-3", out, by=demand.placed_by)
        return True
    while frame.roamers:
        card = frame.roamers.pop(0)
        r = roam.find(state, card)
        if r is not None and roam.attacks_now(r, frame.turn):
            roaming_attack(state, r, out)
            return True
    state.stack.pop()
    next_turn(state, out)
    return True


def next_turn(state: QuestState, out: list[Effect]) -> None:
    """The next player in the game begins his turn (KBQ-TURN-2); a lost turn passes at once
    (KBQ-TURN-5)."""
    ending = state.active
    assert ending is not None
    state.coupon = []
    state.used_weapons = []
    state.cards_played = 0
    state.second = False
    state.flipped = None
    seat = table.next_seat(state, ending)
    start_turn(state, seat, out)


def start_turn(state: QuestState, seat: int, out: list[Effect]) -> None:
    state.active = seat
    state.turn += 1
    state.seats[seat].turns += 1
    if state.seats[seat].gifts:  # only gifts since his last turn began count (KBQ-LEAVE-2)
        state.seats[seat].gifts = []
    turns = state.seats[seat].turns
    if turns > state.round:
        state.round = turns
    state.phase = "turn"
    state.triplet_at_start = table.has_triplet(state, seat)
    out.append(Effect("KBQ-TURN-2", "turn_began", {"seat": seat, "turn": state.turn,
                                                   "round": state.round}))
    if state.seats[seat].lose_turns > 0:
        state.seats[seat].lose_turns -= 1
        state.ended = [seat, "KBQ-TURN-5"]
        out.append(Effect("KBQ-TURN-5", "turn_lost", {"seat": seat}))
        begin_turn_end(state, out)


# -- a Play Immediately card drawn ---------------------------------------------------------------


def misfortune_targets(state: QuestState, seat: int) -> tuple[list[int], str]:
    """The bunnies a Terrible Misfortune drawn by ``seat`` may hit, and the rule that says
    so: his own unprotected ones, else an opponent's (KBQ-PI-1, KBQ-PI-2)."""
    own = [b for b in state.circle.owned_by(seat) if not table.shielded(state, b, "misfortune")]
    if own:
        return own, "KBQ-PI-1"
    others = [b for b in state.circle.order if state.circle.owner(b) != seat
              and not table.shielded(state, b, "misfortune")]
    return others, "KBQ-PI-2"

def misfortune(state: QuestState, seat: int, card: int, out: list[Effect]) -> bool:
    """A Play Immediately card was drawn. True when a choice is now owed (pushed on top)."""
    targets, rule = misfortune_targets(state, seat)
    out.append(Effect(table.card_rule(state, card), "misfortune_drawn", {"seat": seat, "card": card}))
    if not targets:
        table.to_discard(state, [card], out)
        out.append(Effect("KBQ-PI-3", "misfortune_unused", {"seat": seat, "card": card}))
        return False
    ctx = Ctx(card=card, by=seat, origin="draw")
    if len(targets) == 1:
        table.to_discard(state, [card], out)
        leaving.kill(state, targets[0], "misfortune", rule, out)
        return False
    state.stack.append(Choice(ctx=ctx, seat=seat, kind="misfortune", options=targets))
    return True
