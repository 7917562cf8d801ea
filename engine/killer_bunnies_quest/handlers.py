"""One handler per event type: every guard first (a refused event changes nothing), then
the change, then the game moves on by itself (``flow.advance``).

Guards cite the rule they enforce. Generic ones: nothing happens after the end (KBQ-END-4);
a seat acts only when the game waits for it, or with a Very Special card (KBQ-TURN-4).
"""

from __future__ import annotations

from typing import Any

from engine.hidden import undetermined
from engine.killer import dice, feeding, piles, rolls, trading
from engine.killer.catalogue import effects as fx
from engine.killer.refusal import Refusal
from engine.killer_bunnies_quest import auction as auctions
from engine.killer_bunnies_quest import drawing, flow, leaving, table, waiting
from engine.killer_bunnies_quest.cards import (
    HOOK_ROLLED,
    answerable,
    check_card_play,
    rolled,
    settle_demands,
    take_carrots,
    take_supply,
    upkeep_settle,
)
from engine.killer_bunnies_quest.catalogue import DECKS as _DECKS
from engine.killer_bunnies_quest.combat import roll as attack_roll
from engine.killer_bunnies_quest.events import (
    Bid,
    Bottom,
    Buy,
    Choose,
    Discard,
    Draw,
    EndTurn,
    Feed,
    Flip,
    Join,
    Leave,
    Pass,
    Play,
    Reshuffle,
    Reveal,
    Roll,
    Runs,
    Save,
    Setup,
    Stake,
    Starve,
    Trade,
)
from engine.killer_bunnies_quest.numbers import DEAL, HAND
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    AuctionFrame,
    Choice,
    Ctx,
    Deal,
    Effects,
    QuestState,
    RollCard,
    RollOffFrame,
)
from engine.killer_bunnies_quest.table import card_rule
from engine.killer_bunnies_quest.unknowns import (
    HIDDEN,
    come_to_light,
    hand_card,
    held_a_weapon,
    may_hold,
    name,
    refuse_unseen,
    shown,
    take_from_hand,
    take_unseen,
    unknown_joins,
    unseen,
)
from engine.record import Event
from engine.rules import Effect, RuleViolation
from engine.wording import cards_said

refuse = table.refuse


def _over(state: QuestState) -> None:
    """Nothing happens after the end (KBQ-END-4). The hot handlers test ``state.over`` (and
    ``e.actor`` for :func:`_seat`) themselves and call these only to refuse."""
    if state.over:
        refuse("KBQ-END-4", "the game is over")


def _seat(event: Event) -> int:
    if event.actor is None:
        refuse("KBQ-TURN-4", f"a {event.__struct_config__.tag} is a player's action: "
                     "name the seat")
    return event.actor


def _owes(state: QuestState, seat: int, *kinds: str) -> str:
    """``seat`` must owe one of ``kinds`` now (KBQ-TURN-4)."""
    phase = state.phase
    if state.active == seat and phase in kinds and not state.stack and not state.over:
        # the common case, as waiting.awaited reads it: the active player at his stage
        for st in state.seats:
            if st.present and not st.laid:
                break
        else:
            return phase
    owed = waiting.awaited(state)
    kind = owed.decisions.get(seat)
    if kind in kinds:
        return kind
    why = _why_not(state, seat, kinds) or _owes_else(state, seat, kind)
    if why is not None:
        refuse(why[0], why[1], seat=seat)
    if owed.chance is not None:
        refuse("KBQ-TURN-4", f"the game waits for chance ({owed.chance}), not for "
                     f"seat {seat}", waiting_for=owed.chance)
    who = ", ".join(f"seat {s} ({k})" for s, k in sorted(owed.decisions.items())) or "nobody"
    refuse("KBQ-TURN-4", f"seat {seat} is not the one the game waits for now: {who}",
                 seat=seat, waiting_for={str(s): k for s, k in owed.decisions.items()})


_ENDED = {
    "KBQ-TRIP-1": "his turn is over: a second card needs a Bunny Triplet (and one declined is gone)",
    "KBQ-TRIP-4": "his turn is over: the triplet he began it with was broken before a second card",
    "KBQ-TRIP-3": "he has played two cards this turn: never a third",
    "KBQ-TURN-5": "he has lost this turn: he does nothing in it",
}


def _why_not(state: QuestState, seat: int, kinds: tuple[str, ...]) -> tuple[str, str] | None:
    """The rule that forbids the seat's action more precisely than the turn order does
    (KBQ-TURN-4, the catch-all), or None: a card of his turn when his turn's cards are over
    (the triplet rules, a lost turn), a second card while the flipped one waits (KBQ-TURN-1),
    anything of the turn before the new bottom run card is down (KBQ-TURN-3)."""
    if "turn" not in kinds and "flipped" not in kinds:
        return None
    if state.active == seat and not state.stack:
        if state.phase == "flipped" and "turn" in kinds:
            return "KBQ-TURN-1", (f"seat {seat} has flipped his top run card: it is played, "
                                  "discarded or saved before any other card")
        if state.phase == "bottom":
            return "KBQ-TURN-3", (f"seat {seat} lays his new bottom run card before the turn "
                                  "goes on")
    ended = state.ended
    if "turn" in kinds and ended and ended[0] == seat:
        own_end = state.active == seat and state.phase == "turn_end"
        next_start = (state.active != seat and state.phase == "turn" and state.cards_played == 0
                      and state.flipped is None)
        if own_end or next_start:
            return ended[1], f"seat {seat}: {_ENDED[ended[1]]}"
    return None


_OWED: dict[str, tuple[str | None, str]] = {
    "turn": ("KBQ-TURN-1", "his turn's card"),
    "flipped": ("KBQ-TURN-1", "a play, discard or save of his flipped card"),
    "bottom": ("KBQ-TURN-3", "his new bottom run card"),
    "runs": ("KBQ-SET-2", "his two run cards"),
    "feed_now": ("KBQ-FEED-6", "a feed at once, or to let the bunny starve"),
    "bid": (None, "a bid or a pass"),
    "carrot": (None, "the carrots to take"),
    "revive": (None, "the bunnies to revive"),
    "clovers": (None, "where the clovers go"),
    "misfortune": (None, "the bunny the misfortune takes"),
    "return": (None, "where the returning bunny goes"),
    "exchange": (None, "the weapons to exchange"),
    "upkeep": (None, "the carrots to keep fresh"),
    "stake": (None, "what to stake"),
}
"""Each decision the game may wait for from a seat: the rule that asks it (None: the rule of
the card being resolved) and what it is, in words."""


def _owes_else(state: QuestState, seat: int, owed: str | None) -> tuple[str, str] | None:
    """The seat is waited for, but for another decision: the rule that asks for that one
    refuses the action (not the turn order, which the seat is not breaking)."""
    if owed is None or owed not in _OWED:
        return None
    rule, what = _OWED[owed]
    if rule is None:
        top = state.stack[-1] if state.stack else None
        ctx = getattr(top, "ctx", None)
        rule = card_rule(state, ctx.card) if ctx is not None else "KBQ-TURN-4"
    return rule, f"seat {seat} owes {what} now, before anything else"


def _chance(state: QuestState, event: Event, kind: str) -> Any:
    owed = waiting.awaited(state)
    if event.actor is not None:
        refuse("KBQ-DICE-1" if kind == "roll" else "KBQ-SET-1",
                     f"a {kind} is recorded by the table (actor null)")
    if owed.chance != kind:
        refuse("KBQ-DICE-1" if kind == "roll" else "KBQ-TURN-4",
                     f"the game does not wait for a {kind} now", waiting_for=owed.chance)
    return owed


def _done(state: QuestState, out: list[Effect]) -> tuple[Effect, ...]:
    if state.stack:  # an empty stack has nothing to work off (flow.advance)
        flow.advance(state, out)
    return tuple(out)


# -- set-up ----------------------------------------------------------------------------------------


def setup(state: QuestState, e: Setup) -> tuple[Effect, ...]:
    _over(state)
    if state.phase != "setup" or e.actor is not None:
        refuse("KBQ-SET-1", "the set-up is recorded once, by the table, before anything")
    d = table.deck(state)
    opts = state.opts
    if not 0 <= e.first < state.n or not state.seats[e.first].present:
        refuse("KBQ-SET-1", f"seat {e.first} cannot play first", first=e.first)
    piles_of = _setup_piles(d)
    choose = piles_of["choose"]
    if len(e.removed) != opts.remove_choose_a_carrot or any(c not in choose for c in e.removed) \
            or len(set(e.removed)) != len(e.removed):
        refuse("KBQ-LEN-2", f"{opts.remove_choose_a_carrot} single Choose A Carrot cards "
                     "are left out by the house rule", removed=e.removed)
    expected_draw = [c for c in piles_of["draw"] if c not in e.removed]
    market = piles_of["carrot"]
    gifts = e.gifts or [[] for _ in range(state.n)]
    given = [c for g in gifts for c in g]
    if len(gifts) != state.n or any(len(g) != (opts.starting_carrots if state.seats[s].present
                                               else 0) for s, g in enumerate(gifts)) \
            or any(c not in market for c in given) or len(set(given)) != len(given):
        refuse("KBQ-LEN-1", f"each player starts with {opts.starting_carrots} different "
                     "carrots from the market", gifts=e.gifts)
    table_form = e.draw is None
    orders = (e.draw, e.cabbage, e.water, e.carrots)
    if (table_form and any(o is not None for o in orders)) or \
            (not table_form and any(o is None for o in orders)):
        refuse("KBQ-SET-1", "a set-up names the order of every pile (the draw pile, the small "
                            "Cabbage, Water and carrot decks) or of none (a game recorded at the "
                            "table, R-KBQ-40)")
    if table_form:
        refuse_unseen(state, "the set-up")
        return _table_setup(state, e, expected_draw, piles_of, market, gifts, given)
    state.partial = False
    assert e.draw is not None and e.cabbage is not None and e.water is not None \
        and e.carrots is not None
    try:
        for order, cards, what in ((e.draw, expected_draw, "draw pile"),
                                   (e.cabbage, piles_of["cabbage"], "cabbage deck"),
                                   (e.water, piles_of["water"], "water deck"),
                                   (e.carrots, piles_of["magic_carrot"], "small carrot deck")):
            # the piles are listed ascending: a shuffle of them sorts back to the same list
            if sorted(order) != cards:
                piles.check_order(order, cards, what)
    except Refusal as r:
        table.refuse("KBQ-SET-1", r.message, **r.facts)
    out = _set_up(state, e, market, gifts, given)
    state.draw = list(reversed(e.draw))
    state.cabbage_deck = list(reversed(e.cabbage))
    state.water_deck = list(reversed(e.water))
    state.magic_deck = list(e.carrots)
    # The deal: seven cards each, one at a time clockwise from the first player (R-KBQ-5).
    order = table.clockwise_from(state, e.first)
    for _ in range(DEAL):
        for seat in order:
            _deal_one(state, seat, out)
    return tuple(out)


def _table_setup(state: QuestState, e: Setup, draw: list[int], piles_of: dict[str, list[int]],
                 market: list[int], gifts: list[list[int]], given: list[int]) -> tuple[Effect, ...]:
    """The table form (R-KBQ-40): every pile face down and unknown, every card of the game in
    the pool; the deal is the first ``draw`` events."""
    out = _set_up(state, e, market, gifts, given)
    state.partial = True
    state.pool = {*draw, *piles_of["cabbage"], *piles_of["water"], *piles_of["magic_carrot"]}
    state.draw = [HIDDEN] * len(draw)
    state.cabbage_deck = [HIDDEN] * len(piles_of["cabbage"])
    state.water_deck = [HIDDEN] * len(piles_of["water"])
    state.magic_deck = [HIDDEN] * len(piles_of["magic_carrot"])
    state.stack.append(Deal(order=table.clockwise_from(state, e.first)))
    return tuple(out)


def _set_up(state: QuestState, e: Setup, market: list[int], gifts: list[list[int]],
            given: list[int]) -> list[Effect]:
    """What both forms of the set-up do: the first player, the market, the house rules."""
    out: list[Effect] = []
    state.first = e.first
    state.market.carrots = [c for c in market if c not in given]  # KBQ-SET-3
    for s, g in enumerate(gifts):
        state.seats[s].carrots.extend(g)
    state.phase = "runs"
    out.append(Effect("KBQ-SET-1", "set_up", {"first": e.first, "players": len(table.present(state))}))
    out.append(Effect("KBQ-SET-3", "market_stocked", {"carrots": len(state.market.carrots)}))
    out.append(Effect("KBQ-MKT-2", "market_open", {"cabbage": state.market.prices.cabbage,
                                                   "water": state.market.prices.water,
                                                   "carrot": state.market.prices.carrot}))
    if given:
        out.append(Effect("KBQ-LEN-1", "carrots_given", {"gifts": gifts}))
    if e.removed:
        out.append(Effect("KBQ-LEN-2", "cards_left_out", {"cards": list(e.removed)}))
    return out


def _setup_piles(d: Any) -> dict[str, list[int]]:
    """The piles of a set-up (draw pile, small decks, market carrots), each ascending, and
    the single Choose A Carrot cards the house rule may leave out (KBQ-LEN-2): read once per
    deck and kept on it (read, never changed: a deck's cards are fixed)."""
    if not d.piles:
        cat = d.catalogue
        d.piles.update({
            "choose": [n for n in cat.numbers() if "choose-a-carrot" in d.card(n).tags
                       and _takes(d, n) == 1],
            "draw": cat.draw_pile(), "carrot": cat.numbers("carrot"),
            "cabbage": cat.numbers("cabbage"), "water": cat.numbers("water"),
            "magic_carrot": cat.numbers("magic_carrot")})
    piles_of: dict[str, list[int]] = d.piles
    return piles_of


def _takes(d: Any, number: int) -> int:
    return int(d.effects(number)[0].carrots_taken())


def _deal_one(state: QuestState, seat: int, out: list[Effect]) -> None:
    """One card of the deal: Dolla go face up and are replaced (KBQ-DRAW-1); a Play
    Immediately card is discarded and replaced, for no bunny is in the circle (KBQ-SET-2)."""
    while state.draw:
        if flow.dealt(state, seat, state.draw.pop(), out):
            return


def runs(state: QuestState, e: Runs) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "runs")
    hand = state.seats[seat].hand
    named = [c for c in (e.top, e.bottom) if isinstance(c, int)]
    if len(named) < 2:
        refuse_unseen(state, "the run cards")
    if len(set(named)) != len(named) or any(not may_hold(state, seat, c) for c in named) \
            or len(hand) < 2:
        refuse("KBQ-SET-2", f"the two run cards are two different cards of seat {seat}'s "
                     "hand", seat=seat)
    st = state.seats[seat]
    st.run.top, st.run.bottom = (_from_hand(state, seat, c) for c in (e.top, e.bottom))
    st.laid = True
    out = [Effect("KBQ-SET-2", "runs_laid", {"seat": seat})]
    if state.active is None and all(s.laid for s in state.seats if s.present):
        flow.start_turn(state, state.first, out)
    return _done(state, out)


def _from_hand(state: QuestState, seat: int, card: int | str) -> int:
    """A card put face down from the hand: named (it comes to light if it was unknown) or
    unseen (R-KBQ-42)."""
    if isinstance(card, int):
        take_from_hand(state, seat, card)
        return card
    return take_unseen(state, seat)  # any of its cards may be the one gone


# -- the turn's card -------------------------------------------------------------------------------


def flip(state: QuestState, e: Flip) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "turn")
    run = state.seats[seat].run
    if run.top is None:
        refuse("KBQ-RUN-1", f"seat {seat} has no top run card to flip", seat=seat)
    if run.top == HIDDEN:
        if e.card is None:
            refuse("REC-UNK-3", f"seat {seat}'s top run card is turned up for the whole table: "
                                "the record names it", seat=seat)
        if e.card not in table.deck(state).type or not hand_card(state, e.card):
            refuse("KBQ-RUN-1", f"{name(state, e.card)} cannot lie face down in a run position",
                   card=e.card)
        come_to_light(state, e.card, f"in seat {seat}'s top run position")
        run.top = e.card
    elif e.card is not None and e.card != run.top:
        refuse("REC-UNK-2", f"seat {seat}'s top run card is {name(state, run.top)}, not "
                            f"{name(state, e.card)}", card=e.card)
    card = run.top
    run.top = None
    state.flipped = card
    state.phase = "flipped"
    return (Effect("KBQ-RUN-1", "flipped", {"seat": seat, "card": card}),)


def where(state: QuestState, seat: int, card: int) -> str | None:
    st = state.seats[seat]
    if state.flipped == card and state.active == seat:
        return "run"
    if card in st.hand or may_hold(state, seat, card):
        return "hand"
    if card in st.saved:
        return "saved"
    return None


def check_source(state: QuestState, e: Play) -> str:
    """The guards of a play that do not depend on its choices: the card is the seat's to
    play here and now. Returns where it comes from (``run``, ``hand``, ``saved``).

    The guards that depend only on what everybody sees (whose turn it is, the card's type,
    the cards face up) come first; only then is the hand looked at, so that a refusal says
    nothing about a hand beyond "he has no such card to play"."""
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    d = _DECKS.get(state.deck) or table.deck(state)
    if e.card not in d.catalogue.by_number:
        refuse("KBQ-TURN-1", f"there is no card {e.card} in this game", card=e.card)
    kind = d.type[e.card]
    st = state.seats[seat]
    flipped = state.flipped == e.card and state.active == seat
    saved = e.card in st.saved
    if e.card in state.circle:
        refuse("KBQ-POS-2", f"bunny {e.card} is in the Bunny Circle already: a bunny there "
                     "is never repositioned", card=e.card)
    # A card under a bunny is in nobody's hand, run or saved cards: looked for only then.
    if not flipped and not saved and e.card not in st.hand \
            and any(e.card in sp.under for sp in state.circle.spaces.values()):
        refuse("KBQ-MOD-2", f"card {e.card} lies under a bunny: a modifier once placed "
                     "never moves", card=e.card)
    if not flipped and not saved:
        if kind in ("run", "roaming_red_run"):
            refuse("KBQ-RUN-1", f"card {e.card} is a {kind.replace('_', ' ')} card: it is "
                         "played only when flipped from the top run position", card=e.card)
        if kind not in ("special", "very_special"):
            refuse("KBQ-TURN-1", f"card {e.card} is a {kind.replace('_', ' ')} card, never "
                         "played as a card", card=e.card)
    if flipped:
        origin = "run"
        _owes(state, seat, "flipped")
    elif kind == "very_special":
        if not waiting.may_answer(state, seat):
            refuse("KBQ-VSP-1", f"seat {seat} plays a Very Special card during a turn, "
                         "when the game waits for nothing else from him", card=e.card)
        origin = "saved" if saved else "hand"
    elif saved:
        origin = "saved"
        if not _saved_answer(state, seat, e) and not waiting.own_turn_stage(state, seat):
            if state.active == seat:
                refuse("KBQ-ORDER-2", f"seat {seat} plays saved Specials between the steps "
                             "of his turn, not while a card is being resolved", card=e.card)
            refuse("KBQ-SPC-5", f"seat {seat} plays saved Special cards only during his "
                         "own turn", card=e.card)
    else:
        origin = "hand"
        owed = waiting.awaited(state).decisions.get(seat)
        if owed != "turn":
            if state.active == seat and owed in ("flipped", "bottom"):
                refuse("KBQ-SPC-2", "a Special from hand is the turn's card, played instead "
                             "of flipping, not after", card=e.card)
            refuse("KBQ-SPC-5", f"seat {seat} plays Special cards only during his own turn",
                         card=e.card)
    if origin == "hand" and e.card not in st.hand and not may_hold(state, seat, e.card):
        refuse("KBQ-TURN-1", f"seat {seat} has no card {e.card} to play", card=e.card)
    table.check_box(state, seat, e.card)
    return origin


def check_choices(state: QuestState, e: Play, origin: str) -> Ctx:
    """The guards of a play's choices (where it goes, whom it names...), once the card is
    known to be the seat's to play (:func:`check_source`)."""
    ctx = Ctx(card=e.card, by=e.actor, origin=origin, host=e.on, player=e.player, at=e.at,  # type: ignore[arg-type]  # actor: a seat here
              carrots=list(e.carrots), number=e.number, stakes=list(e.stakes),
              sources=list(e.sources), weapon=e.weapon, roamer=e.roamer)
    check_card_play(state, ctx, e)
    return ctx


def check_play(state: QuestState, e: Play) -> tuple[Ctx, str]:
    """Every guard of a play (the handler's and the legal actions' one check)."""
    origin = check_source(state, e)
    return check_choices(state, e, origin), origin


def play(state: QuestState, e: Play) -> tuple[Effect, ...]:
    ctx, origin = check_play(state, e)
    seat = ctx.by
    d = _DECKS.get(state.deck) or table.deck(state)
    kind = d.type[e.card]
    out: list[Effect] = []
    st = state.seats[seat]
    if origin == "run":
        state.flipped = None
        state.phase = "resolving"
    elif origin == "hand":
        take_from_hand(state, seat, e.card)
        if kind == "special":
            state.phase = "resolving"
    else:
        st.saved.remove(e.card)
    out.append(Effect(card_rule(state, e.card), "card_played", {"seat": seat, "card": e.card,
                                                                "from": origin}))
    out.extend(_play_notes(state, seat, e.card, origin, kind))
    state.stack.append(Effects(ctx=ctx, todo=list(d.effects(e.card))))
    return _done(state, out)


def _play_notes(state: QuestState, seat: int, card: int, origin: str, kind: str) -> list[Effect]:
    """What allowed the play, for the record's readers (an explain shows them)."""
    d = _DECKS.get(state.deck) or table.deck(state)
    notes: list[Effect] = []
    if origin == "hand" and kind == "special":
        notes.append(Effect("KBQ-SPC-2", "special_from_hand", {"seat": seat, "card": card}))
    if kind == "very_special" and seat != state.active:
        notes.append(Effect("KBQ-VSP-1", "played_off_turn", {"seat": seat, "card": card}))
    if origin == "saved" and kind == "special" and seat == state.active:
        rule = "KBQ-ORDER-2" if state.phase in ("flipped", "bottom") else "KBQ-SPC-5"
        notes.append(Effect(rule, "saved_card_used", {"seat": seat, "card": card}))
    if d.pink[card] and not d.aggressive[card]:
        notes.append(Effect("KBQ-AGG-1", "not_aggressive", {"card": card}))
    if d.aggressive[card] and any(x.owner == seat for x in state.demands):
        notes.append(Effect("KBQ-FEED-4", "aggressive_while_hungry", {"seat": seat}))
    return notes


def _saved_answer(state: QuestState, seat: int, e: Play) -> bool:
    """A saved Bug Off or Noah's Flood answering the card aimed at its holder, on any turn
    (their card text: "a saved Special, used immediately": docs/card-facts.md §1.7 R-Q24)."""
    d = _DECKS.get(state.deck) or table.deck(state)
    for effect in fx.every(d.effects(e.card), fx.Cancel):
        if effect.only_own and answerable(state, seat, effect, e.card) is not None:
            return True
    return False


def discard(state: QuestState, e: Discard) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    d = _DECKS.get(state.deck) or table.deck(state)
    origin = where(state, seat, e.card)
    out: list[Effect] = []
    if origin == "saved":
        if not d.card(e.card).keep_needs_bunny or not waiting.own_turn_stage(state, seat):
            refuse("KBQ-SPC-1", f"seat {seat} cannot throw away his saved card {e.card}: only the "
                         "Minilith is thrown away, during its owner's own turn", card=e.card)
        state.seats[seat].saved.remove(e.card)
        table.to_discard(state, [e.card], out)
        out.append(Effect(card_rule(state, e.card), "saved_card_given_up", {"seat": seat,
                                                                            "card": e.card}))
        return _done(state, out)
    if origin == "run":
        _owes(state, seat, "flipped")
        _check_forced_play(state, seat, e.card)
        state.flipped = None
    elif origin == "hand":
        _owes(state, seat, "turn")
        if d.type[e.card] != "special":
            refuse("KBQ-SPC-3", f"only a Special card is discarded from hand as the turn, "
                         f"not card {e.card}", card=e.card)
        take_from_hand(state, seat, e.card)
    else:
        refuse("KBQ-TURN-1", f"card {e.card} is not seat {seat}'s flipped top run card "
                     "or a card in his hand", card=e.card)
    table.to_discard(state, [e.card], out)
    out.append(Effect("KBQ-SPC-3" if origin == "hand" else "KBQ-TURN-1", "card_discarded",
                      {"seat": seat, "card": e.card, "from": origin}))
    if origin == "run" and not table.box_ok(state, seat, e.card):
        out.append(Effect("KBQ-RUN-2", "had_to_discard", {"seat": seat, "card": e.card}))
    flow.after_card(state, origin, seat, e.card, out)
    return _done(state, out)


def _check_forced_play(state: QuestState, seat: int, card: int) -> None:
    """Bad Karma: a weapon flipped by its holder must go on one of his own bunnies; he may
    not discard it while he has one it can hit (docs/card-facts.md §1.2 row 51; R-KBQ-20)."""
    if not state.seats[seat].karma or \
            not (_DECKS.get(state.deck) or table.deck(state)).is_weapon(card):
        return
    own = [b for b in state.circle.owned_by(seat) if not table.shielded(state, b, "harm")]
    if own:
        refuse("KBQ-CARD-BAD-KARMA", f"seat {seat} holds Bad Karma: his weapon {card} must "
                     "go on one of his own bunnies, not be discarded", card=card)


def save(state: QuestState, e: Save) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "flipped")
    if state.flipped != e.card:
        refuse("KBQ-SPC-4", f"only the flipped top run card is saved, not card {e.card}",
                     card=e.card)
    d = _DECKS.get(state.deck) or table.deck(state)
    kind = d.type[e.card]
    if kind not in ("special", "very_special"):
        refuse("KBQ-RUN-3", f"card {e.card} is a {kind.replace('_', ' ')} card: only "
                     "Special and Very Special cards are saved", card=e.card)
    if d.card(e.card).keep_needs_bunny and not table.has_bunny(state, seat):
        refuse(card_rule(state, e.card), f"card {e.card} is saved only by a player with a "
                     "bunny in the circle", card=e.card)
    _check_forced_play(state, seat, e.card)
    state.flipped = None
    state.seats[seat].saved.append(e.card)
    out = [Effect("KBQ-SPC-1", "card_saved", {"seat": seat, "card": e.card})]
    flow.after_card(state, "run", seat, e.card, out)
    return _done(state, out)


def bottom(state: QuestState, e: Bottom) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "bottom")
    st = state.seats[seat]
    if unseen(e.card):
        refuse_unseen(state, "the new bottom run card")
        if not st.hand:
            refuse("KBQ-TURN-3", f"the new bottom run card comes from seat {seat}'s hand, and "
                                 "it is empty", seat=seat)
    elif not may_hold(state, seat, e.card):  # type: ignore[arg-type]  # a card
        refuse("KBQ-TURN-3", f"the new bottom run card comes from seat {seat}'s hand",
                     card=e.card)
    st.run.bottom = _from_hand(state, seat, e.card)
    out = [Effect("KBQ-TURN-3", "bottom_laid", {"seat": seat})]
    flow.card_done(state, out)
    return _done(state, out)


def end_turn(state: QuestState, e: EndTurn) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "turn")
    if not state.second:
        refuse("KBQ-TURN-1", f"seat {seat} has not played his turn's card yet", seat=seat)
    out = [Effect("KBQ-TRIP-1", "second_card_declined", {"seat": seat})]
    state.ended = [seat, "KBQ-TRIP-1"]
    flow.begin_turn_end(state, out)
    return _done(state, out)


# -- the market, feeding, trading ------------------------------------------------------------------


def buy(state: QuestState, e: Buy) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    top = state.stack[-1] if state.stack else None
    if isinstance(top, Choice) and top.kind == "feed_now" and top.seat == seat:
        refuse("KBQ-FEED-6", "a feed due at once is paid from the supplies held: there is "
                     "no buying in between", seat=seat)
    if not waiting.own_turn_stage(state, seat):
        refuse("KBQ-ORDER-1", f"seat {seat} buys only during his own turn", seat=seat)
    market = state.market
    try:
        market.require_open("purchase")
    except Refusal as r:
        raise table.kit(r) from None
    price = market.price_of(e.goods)
    if e.goods == "carrot":
        if e.carrot is None or e.carrot not in market.carrots:
            refuse("KBQ-MKT-1", f"name a carrot the market has, not {e.carrot}",
                         carrot=e.carrot, market=market.carrots[:])
    elif e.carrot is not None:
        refuse("KBQ-MKT-1", "only a carrot purchase names a carrot", carrot=e.carrot)
    else:
        small = state.cabbage_deck if e.goods == "cabbage" else state.water_deck
        if not small and not state.opts.reshuffle_supplies:
            refuse("KBQ-SUP-1", f"the {e.goods} deck is empty and its discards are never "
                         "reshuffled", goods=e.goods)
        used = state.cabbage_discard if e.goods == "cabbage" else state.water_discard
        if not small and not used:
            refuse("KBQ-SUP-1", f"no {e.goods} card is left to buy: the deck and its "
                         "discards are empty", goods=e.goods)
    charge = price
    if state.coupon and state.coupon[0] == seat:
        full, charged = state.coupon[1] + price, state.coupon[2]
        charge = (full + 1) // 2 - charged
    cards = table.check_pay(state, seat, "money", charge, e.pay, "KBQ-MKT-1")
    out: list[Effect] = []
    if state.coupon and state.coupon[0] == seat:
        state.coupon[1] += price
        state.coupon[2] += charge
    table.pay(state, seat, "money", cards, charge, "KBQ-MKT-1", out)
    out.append(Effect("KBQ-ORDER-1", "bought", {"seat": seat, "goods": e.goods, "price": charge}))
    if e.goods == "carrot":
        assert e.carrot is not None
        take_carrots(state, seat, [e.carrot], "KBQ-MKT-1", out)
    else:
        take_supply(state, seat, e.goods, 1, "KBQ-SMALL-1", out)
    return _done(state, out)


def feed(state: QuestState, e: Feed) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    top = state.stack[-1] if state.stack else None
    now = isinstance(top, Choice) and top.kind == "feed_now" and top.seat == seat
    if now:
        assert isinstance(top, Choice)
        if e.bunny != top.bunny:
            refuse("KBQ-FEED-6", f"the feed due now is for bunny {top.bunny}", bunny=e.bunny)
        demands = [d for d in state.demands if d.bunny == e.bunny and d.due_turn is None]
    else:
        if not waiting.own_turn_stage(state, seat):
            refuse("KBQ-FEED-2", f"seat {seat} feeds during his own turn", seat=seat)
        if e.bunny not in state.circle:
            refuse("KBQ-ADJ-2", f"bunny {e.bunny} is not in the Bunny Circle", bunny=e.bunny)
        if state.circle.owner(e.bunny) != seat and not state.opts.feed_others:
            refuse("KBQ-FEED-2", f"seat {seat} feeds his own bunnies", bunny=e.bunny)
        demands = [d for d in feeding.on_bunny(state.demands, e.bunny) if d.due_turn is not None]
        if e.demand is not None:
            demands = [d for d in demands if d.card == e.demand]
    if not demands:
        refuse("KBQ-FEED-1", f"no Feed The Bunny demand is pending on bunny {e.bunny}",
                     bunny=e.bunny)
    need_c, need_w = feeding.need(demands)
    cab = table.check_pay(state, seat, "cabbage", need_c, e.cabbage, "KBQ-FEED-2") if need_c else []
    wat = table.check_pay(state, seat, "water", need_w, e.water, "KBQ-FEED-2") if need_w else []
    if (e.cabbage and not need_c) or (e.water and not need_w):
        refuse("KBQ-CHANGE-1", "a feed pays only the supplies its demands ask for")
    out: list[Effect] = []
    if need_c:
        table.pay(state, seat, "cabbage", cab, need_c, "KBQ-FEED-2", out)
    if need_w:
        table.pay(state, seat, "water", wat, need_w, "KBQ-FEED-2", out)
    settle_demands(state, demands, "KBQ-FEED-6" if now else "KBQ-FEED-2", out)
    if now:
        state.stack.pop()
    return _done(state, out)


def starve(state: QuestState, e: Starve) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    top = state.stack[-1] if state.stack else None
    if not (isinstance(top, Choice) and top.kind == "feed_now" and top.seat == seat
            and top.bunny == e.bunny):
        refuse("KBQ-FEED-6", f"no feed is due at once on seat {seat}'s bunny {e.bunny}",
                     bunny=e.bunny)
    out: list[Effect] = []
    state.stack.pop()
    demands = [d for d in state.demands if d.bunny == e.bunny and d.due_turn is None]
    for d in demands:
        state.demands.remove(d)
    if e.bunny in state.circle:
        leaving.kill(state, e.bunny, "hunger", "KBQ-FEED-6", out, by=top.ctx.by)
    return _done(state, out)


def trade(state: QuestState, e: Trade) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    partner = e.partner
    if not 0 <= partner < state.n or not state.seats[partner].present:
        refuse("KBQ-TRADE-1", f"seat {partner} is not in the game", partner=partner)
    # Trading is symmetric: either trader may record it, on either trader's turn (R-KBQ-26).
    active = state.active
    if active is not None and active not in (seat, partner):
        refuse("KBQ-TRADE-1", f"trades happen only during the turn of one of the two "
                     f"traders, and it is seat {active}'s turn, not seat {seat}'s or seat "
                     f"{partner}'s", active=active, traders=[seat, partner])
    if active is None or not waiting.own_turn_stage(state, active):
        refuse("KBQ-TRADE-1", f"seat {seat} and seat {partner} trade at a stage of the "
                     "turn, not while a card or a decision is under way", seat=seat)
    # A hand card the record leaves unknown ("?", only the traders saw it) stands for one
    # card of the hand (R-KBQ-42): a token below HIDDEN, so the kit counts it as one.
    give_hand: list[int] = [c if isinstance(c, int) else _UNSEEN_TOKEN - i for i, c in enumerate(e.give_hand)]
    get_hand: list[int] = [c if isinstance(c, int) else _UNSEEN_TOKEN - i for i, c in enumerate(e.get_hand)]
    for who, cards in ((seat, give_hand), (partner, get_hand)):
        if any(c <= _UNSEEN_TOKEN for c in cards):
            refuse_unseen(state, "the trade")
        if len(cards) > len(state.seats[who].hand) or \
                any(c > _UNSEEN_TOKEN and not may_hold(state, who, c) for c in cards):
            refuse("KBQ-TRADE-3", f"the hand cards traded must be in seat {who}'s hand",
                         seat=who)
    for who, cards in ((seat, e.give), (partner, e.get)):
        if any(_holding(state, who, c) == "hand" for c in cards):
            refuse("KBQ-TRADE-3", "hand cards are traded as give_hand / get_hand", seat=who)
    hand_cards = {*give_hand, *get_hand}

    def held(s: int, c: int) -> trading.Holding | None:
        return "hand" if c in hand_cards else _holding(state, s, c)

    try:
        trading.check_trade(state.active, seat, [*e.give, *give_hand], partner,
                            [*e.get, *get_hand], held, state.traded)
    except Refusal as r:
        raise table.kit(r) from None
    out: list[Effect] = []
    for giver, from_hand in ((seat, e.give_hand), (partner, e.get_hand)):
        for card in from_hand:
            if isinstance(card, int):
                take_from_hand(state, giver, card)  # known now to be in the giver's hand
    moves: tuple[tuple[int, int, list[int | str], list[int | str]], ...] = (
        (seat, partner, [*e.give, *e.give_hand], [*e.get, *e.get_hand]),
        (partner, seat, [*e.get, *e.get_hand], [*e.give, *e.give_hand]))
    for giver, taker, moved, back in moves:
        kept = [c for c in moved if isinstance(c, int) and _holding(state, giver, c) in KEPT_BY_LEAVER]
        if kept and not back:
            # a gift of what a leaver may not give away, remembered until the giver's next
            # turn begins: a leave before then is refused (KBQ-LEAVE-2, R-KBQ-25)
            state.seats[giver].gifts.append([e.seq, taker, *kept])
        for thing in moved:
            if not isinstance(thing, int) or thing in (e.give_hand if giver == seat else e.get_hand):
                # a hand card: out of the giver's hand (taken above when named), into the taker's
                got = thing if isinstance(thing, int) else _from_hand(state, giver, thing)
                state.seats[taker].hand.append(got)
                if got == HIDDEN:
                    unknown_joins(state, taker)
                continue
            _move(state, giver, taker, thing, out)
    out.append(Effect("KBQ-TRADE-1", "traded", {"seats": [seat, partner], "give": e.give,
                                                "get": e.get, "hand_cards": len(e.give_hand)}))
    if e.give or e.get:
        out.append(Effect("KBQ-TRADE-2", "face_up_traded", {"cards": [*e.give, *e.get]}))
    if e.give_hand:
        out.append(Effect("KBQ-TRADE-3", "hand_cards_traded", {"count": len(e.give_hand)}))
    once = [c for c in [*e.give, *e.get] if c in state.traded]
    if once:
        out.append(Effect("KBQ-TRADE-5", "traded_once", {"cards": once}))
    for s in (seat, partner):
        leaving.check_minilith(state, s, out)
    return _done(state, out)


_UNSEEN_TOKEN = -100
"""Where the trade's unknown hand cards are counted (below :data:`HIDDEN`)."""

KEPT_BY_LEAVER: frozenset[trading.Holding | None] = frozenset(
    {"carrot", "money", "saved", "cabbage", "water"})
"""What a player who leaves may not give away (KBQ-LEAVE-2): his carrots, Dolla, saved
Special and Very Special cards and supplies; bunnies and hand cards are not named."""


def _holding(state: QuestState, seat: int, card: int) -> trading.Holding | None:
    st = state.seats[seat]
    if card in st.hand:
        return "hand"
    if card in st.run.cards():
        return "run"
    for pile in ("saved", "cabbage", "water", "money", "carrots"):
        if card in getattr(st, pile):
            return "carrot" if pile == "carrots" else pile  # type: ignore[return-value]  # a holding
    if card in state.circle and state.circle.owner(card) == seat:
        return "bunny"
    return None


def _move(state: QuestState, giver: int, taker: int, card: int, out: list[Effect]) -> None:
    kind = _holding(state, giver, card)
    if kind == "bunny":
        leaving.change_owner(state, card, taker, "KBQ-TRADE-2", out)
    else:
        field = "carrots" if kind == "carrot" else kind
        assert field is not None
        getattr(state.seats[giver], field).remove(card)
        getattr(state.seats[taker], field).append(card)
    if kind in trading.ONCE_PER_GAME:
        state.traded.add(card)


# -- chance ----------------------------------------------------------------------------------------


def roll(state: QuestState, e: Roll) -> tuple[Effect, ...]:
    _over(state)
    owed = _chance(state, e, "roll")
    top = state.stack[-1]
    d = _DECKS.get(state.deck) or table.deck(state)
    if isinstance(top, AttackFrame):
        hit = next(h for h in top.hits if h.lives is None)
        dies = [hit.die]
    elif isinstance(top, RollCard):
        dies = top.dice
    else:
        assert isinstance(top, RollOffFrame)
        effect = d.effects(top.ctx.card)[0]
        die = getattr(effect, "die", "any-d12")
        seat = owed.chance_seat
        reroll = top.off.reroll if seat == top.off.card_player and not top.off.rerolled else "none"
        allowed = {"none": (1,), "once": (1, 2), "two_rolls": (2,)}[reroll]
        if len(e.faces) not in allowed:
            refuse("KBQ-DICE-2", f"seat {seat} rolls {' or '.join(map(str, allowed))} "
                         f"time(s) here, not {len(e.faces)}", seat=seat, faces=e.faces)
        dies = [die] * len(e.faces)
    if len(e.faces) != len(dies):
        refuse("KBQ-DICE-1", f"the roll is of {len(dies)} dice ({', '.join(dies)}), not "
                     f"{len(e.faces)}", dice=dies, faces=e.faces)
    for die, face in zip(dies, e.faces, strict=True):
        try:
            dice.check_face(die, d.catalogue.dice[die], face)
        except Refusal as r:
            raise table.kit(r) from None
    out: list[Effect] = [Effect("KBQ-DICE-1", "dice", {"faces": list(e.faces), "dice": dies})]
    if isinstance(top, AttackFrame):
        attack_roll(state, top, e.faces[0], out)
    elif isinstance(top, RollCard):
        rolled(state, top, list(e.faces), out)
    else:
        seat = owed.chance_seat
        assert seat is not None and isinstance(top, RollOffFrame)
        rolls.record(top.off, seat, e.faces[0])
        if len(e.faces) == 2:
            if top.off.reroll == "once":
                rolls.record(top.off, seat, e.faces[1], reroll=True)
            else:
                rolls.record(top.off, seat, e.faces[1])
        out.append(Effect("KBQ-DICE-2", "rolled_off", {"seat": seat, "faces": e.faces}))
        rolls.close_round(top.off)
    return _done(state, out)


def reshuffle(state: QuestState, e: Reshuffle) -> tuple[Effect, ...]:
    _over(state)
    _chance(state, e, "shuffle")
    d = table.deck(state)
    if (e.order is None) != state.partial:
        refuse("KBQ-SHUF-1", "a game recorded at the table reshuffles without an order (nobody "
                             "saw it); any other names the new draw pile's order"
               if state.partial else "a reshuffle names the new draw pile's order, top first "
               "(only a game recorded at the table leaves it out)")
    if e.order is not None:
        try:
            piles.check_order(e.order, [c for c in state.discard if c in d.large], "reshuffle")
        except Refusal as r:
            raise table.kit(r) from None
    out: list[Effect] = []
    flow.reshuffle(state, None if e.order is None else list(e.order), out)
    return _done(state, out)


# -- answers to what a card waits for --------------------------------------------------------------


def bid(state: QuestState, e: Bid) -> tuple[Effect, ...]:
    return _bid(state, e, e.amount)


def pass_(state: QuestState, e: Pass) -> tuple[Effect, ...]:
    return _bid(state, e, None)


def _bid(state: QuestState, e: Event, amount: int | None) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "bid")
    top = state.stack[-1]
    assert isinstance(top, AuctionFrame)
    trial = top.auction.copy()
    try:
        auctions.bid(trial, seat, amount, table.money_of(state, seat))
    except Refusal as r:
        raise table.kit(r) from None
    top.auction = trial
    out = [Effect("KBQ-BID-1", "bid" if amount is not None else "passed",
                  {"seat": seat, "amount": amount}), *_off_turn(state, seat)]
    return _done(state, out)


def _off_turn(state: QuestState, seat: int) -> list[Effect]:
    """A seat that answers what a card waits for on another player's turn (KBQ-TURN-4)."""
    if seat == state.active:
        return []
    return [Effect("KBQ-TURN-4", "answered_off_turn", {"seat": seat})]


def stake(state: QuestState, e: Stake) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    _owes(state, seat, "stake")
    top = state.stack[-1]
    assert isinstance(top, Choice)
    frame = next(f for f in reversed(state.stack) if isinstance(f, RollOffFrame))
    rule = card_rule(state, top.ctx.card)
    if frame.purpose == "roulette":
        if e.carrots or len(e.bunnies) != 1 or e.bunnies[0] not in top.options:
            refuse(rule, f"seat {seat} puts up one of his bunnies that can be harmed: "
                         f"{top.options}", options=top.options)
    else:
        _, n_carrots, n_bunnies = top.ctx.stakes
        st = state.seats[seat]
        if (len(e.carrots) != n_carrots or len(set(e.carrots)) != n_carrots
                or any(c not in st.carrots for c in e.carrots)
                or len(e.bunnies) != n_bunnies or len(set(e.bunnies)) != n_bunnies
                or any(b not in state.circle or state.circle.owner(b) != seat for b in e.bunnies)):
            refuse(rule, f"seat {seat} risks {n_carrots} of his carrots and {n_bunnies} of "
                         "his bunnies", stakes=top.ctx.stakes)
    state.stack.pop()
    frame.staked[seat] = [*e.carrots, *e.bunnies]
    return _done(state, [Effect(rule, "staked", {"seat": seat, "carrots": e.carrots,
                                                 "bunnies": e.bunnies}), *_off_turn(state, seat)])


def choose(state: QuestState, e: Choose) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    kind = _owes(state, seat, "carrot", "revive", "clovers", "misfortune", "return", "exchange",
                 "upkeep")
    top = state.stack[-1]
    assert isinstance(top, Choice)
    CHOICES[kind](state, top, e)
    state.stack.pop()
    out: list[Effect] = _off_turn(state, seat)
    APPLY_CHOICE[kind](state, top, e, out)
    return _done(state, out)


def _check_carrot(state: QuestState, c: Choice, e: Choose) -> None:
    if len(e.carrots) != c.count or len(set(e.carrots)) != c.count or \
            any(x not in state.market.carrots for x in e.carrots):
        refuse("KBQ-MKT-1", f"choose {c.count} different carrot(s) of the market: "
                     f"{cards_said(state.market.carrots, 'or')}",
                     carrots=e.carrots)


def _apply_carrot(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    take_carrots(state, c.seat, list(e.carrots), card_rule(state, c.ctx.card), out)


def _check_revive(state: QuestState, c: Choice, e: Choose) -> None:
    if len(e.bunnies) > c.count or len(set(e.bunnies)) != len(e.bunnies) or \
            any(b not in c.options or b not in state.discard for b in e.bunnies):
        refuse("KBQ-REV-1", f"revive up to {c.count} bunnies of the discard pile: "
                     f"{cards_said(c.options)}",
                     bunnies=e.bunnies)
    _check_places(state, e.at, len(e.bunnies))


def _check_places(state: QuestState, at: list[int], count: int) -> None:
    if len(at) != count:
        refuse("KBQ-POS-1", "every bunny placed needs its position", at=at)
    size = len(state.circle)
    for i, pos in enumerate(at):
        if not 0 <= pos <= size + i:
            refuse("KBQ-POS-1", f"position {pos} is not in the circle", at=pos)


def _apply_revive(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    for bunny, pos in zip(e.bunnies, e.at, strict=True):
        state.discard.remove(bunny)
        state.circle.place(bunny, c.seat, pos)
        out.append(Effect("KBQ-REV-1", "bunny_revived", {"bunny": bunny, "owner": c.seat, "at": pos}))


def clovers_own_only(state: QuestState, c: Choice) -> bool:
    """Whether the clovers of the card being chosen for go under the chooser's own bunnies
    only (its hook's ``odd`` parameter), not under any bunny."""
    hook = fx.first(table.deck(state).effects(c.ctx.card)[:1], fx.Hook)
    return hook is not None and hook.params.get("odd") == "to_own_bunny"


def _check_clovers(state: QuestState, c: Choice, e: Choose) -> None:
    if len(e.under) != c.count or any(b not in state.circle for b in e.under):
        refuse(card_rule(state, c.ctx.card), f"name a bunny for each of the {c.count} "
                     "clovers", under=e.under)
    if clovers_own_only(state, c) and any(state.circle.owner(b) != c.seat for b in e.under):
        refuse(card_rule(state, c.ctx.card), "the clovers go under the player's own bunnies",
                     under=e.under)


def _apply_clovers(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    for card, bunny in zip(c.options, e.under, strict=True):
        state.circle.space(bunny).under.append(card)
        out.append(Effect(card_rule(state, c.ctx.card), "modifier_placed", {"card": card,
                                                                             "bunny": bunny}))


def _check_misfortune(state: QuestState, c: Choice, e: Choose) -> None:
    _, rule = flow.misfortune_targets(state, c.seat)
    if len(e.bunnies) != 1 or e.bunnies[0] not in c.options:
        refuse(rule, f"choose the bunny that dies: {cards_said(c.options, 'or')}",
                     bunnies=e.bunnies, options=c.options)


def _apply_misfortune(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    bunny = e.bunnies[0]
    rule = "KBQ-PI-1" if state.circle.owner(bunny) == c.seat else "KBQ-PI-2"
    table.to_discard(state, [c.ctx.card], out)
    leaving.kill(state, bunny, "misfortune", rule, out)


def _check_return(state: QuestState, c: Choice, e: Choose) -> None:
    _check_places(state, e.at, 1)


def _apply_return(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    assert c.bunny is not None
    state.circle.place(c.bunny, c.seat, e.at[0])
    out.append(Effect(card_rule(state, c.ctx.card), "bunny_returned",
                      {"bunny": c.bunny, "owner": c.seat, "at": e.at[0]}))


def _check_exchange(state: QuestState, c: Choice, e: Choose) -> None:
    d = table.deck(state)
    mine = [x for x in state.seats[c.seat].hand if d.is_weapon(x)]
    assert c.ctx.player is not None
    if state.partial and _unknown_exchange(state, c):
        _check_table_exchange(state, c, e, mine)
        return
    if e.give not in mine or e.take not in c.options:
        refuse(card_rule(state, c.ctx.card), "swap one weapon of your hand for "
                     "one shown", give=e.give, take=e.take)


def _unknown_exchange(state: QuestState, c: Choice) -> bool:
    assert c.ctx.player is not None
    return HIDDEN in state.seats[c.seat].hand or HIDDEN in state.seats[c.ctx.player].hand


def _check_table_exchange(state: QuestState, c: Choice, e: Choose, mine: list[int]) -> None:
    """The table form's exchange (R-KBQ-43): one weapon each way, named or ``"?"``, or none
    (neither hand turned out to hold one)."""
    rule = card_rule(state, c.ctx.card)
    assert c.ctx.player is not None
    if (e.give is None) != (e.take is None):
        refuse(rule, "the exchange swaps one weapon each way, or none",
               give=e.give, take=e.take)
    if e.give is None:
        if mine and c.options:
            refuse(rule, f"seat {c.seat} and seat {c.ctx.player} both hold a weapon: they swap "
                         "one", seat=c.seat)
        return
    d = table.deck(state)
    for who, card in ((c.seat, e.give), (c.ctx.player, e.take)):
        if unseen(card):
            refuse_unseen(state, "the exchange")
            if not state.seats[who].hand:
                refuse(rule, f"seat {who}'s hand is empty", seat=who)
        elif not isinstance(card, int) or not d.is_weapon(card) or not may_hold(state, who, card):
            refuse(rule, f"seat {who} swaps a weapon of his hand", seat=who, card=card)


def _apply_exchange(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    assert c.ctx.player is not None
    if state.partial and _unknown_exchange(state, c):
        rule = card_rule(state, c.ctx.card)
        if e.give is None:
            out.append(undetermined(rule, f"legal only if seat {c.seat}'s or seat "
                                                  f"{c.ctx.player}'s hand held no weapon",
                                            seats=[c.seat, c.ctx.player]))
            return
        held_a_weapon(state, c.seat, rule)  # he gave one: his hand held one (settled)
        assert e.give is not None and e.take is not None
        gave = _from_hand(state, c.seat, e.give)
        took = _from_hand(state, c.ctx.player, e.take)
        state.seats[c.seat].hand.append(took)
        state.seats[c.ctx.player].hand.append(gave)
        for seat, got in ((c.seat, took), (c.ctx.player, gave)):
            if got == HIDDEN:
                unknown_joins(state, seat)
        out.append(Effect(rule, "weapons_exchanged", {"seat": c.seat, "with": c.ctx.player,
                                                      "gave": shown(gave), "took": shown(took)}))
        return
    assert e.give is not None and e.take is not None
    assert isinstance(e.give, int) and isinstance(e.take, int)
    mine, theirs = state.seats[c.seat].hand, state.seats[c.ctx.player].hand
    mine.remove(e.give)
    theirs.remove(e.take)
    mine.append(e.take)
    theirs.append(e.give)
    out.append(Effect(card_rule(state, c.ctx.card), "weapons_exchanged",
                      {"seat": c.seat, "with": c.ctx.player, "gave": e.give, "took": e.take}))


def _check_upkeep(state: QuestState, c: Choice, e: Choose) -> None:
    st = state.seats[c.seat]
    if len(set(e.carrots)) != len(e.carrots) or any(x not in st.carrots for x in e.carrots):
        refuse(card_rule(state, c.ctx.card), "keep some of your own carrots",
                     carrots=e.carrots)
    price = c.count * len(e.carrots)
    if price:
        table.check_pay(state, c.seat, "money", price, e.pay, card_rule(state, c.ctx.card))


def _apply_upkeep(state: QuestState, c: Choice, e: Choose, out: list[Effect]) -> None:
    upkeep_settle(state, c.ctx, list(e.carrots), e.pay, out)


CHOICES = {"carrot": _check_carrot, "revive": _check_revive, "clovers": _check_clovers,
           "misfortune": _check_misfortune, "return": _check_return,
           "exchange": _check_exchange, "upkeep": _check_upkeep}
APPLY_CHOICE = {"carrot": _apply_carrot, "revive": _apply_revive, "clovers": _apply_clovers,
                "misfortune": _apply_misfortune, "return": _apply_return,
                "exchange": _apply_exchange, "upkeep": _apply_upkeep}


# -- joining and leaving ---------------------------------------------------------------------------


def join(state: QuestState, e: Join) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    if not 0 <= seat < state.n or state.seats[seat].present or seat not in state.opts.late:
        refuse("KBQ-JOIN-1", f"seat {seat} is not a late player waiting to join", seat=seat)
    if not (waiting.own_turn_stage(state, state.active or 0) and state.phase == "turn"
            and state.cards_played == 0):
        refuse("KBQ-JOIN-1", "a late player joins between turns", seat=seat)
    st = state.seats[seat]
    st.present = True
    out = [Effect("KBQ-JOIN-1", "joined", {"seat": seat})]
    table.draw_cards(state, seat, DEAL, "runs", unused_misfortune=True, rule="KBQ-JOIN-1")
    return _done(state, out)


def leave(state: QuestState, e: Leave) -> tuple[Effect, ...]:
    if state.over:
        _over(state)
    seat = e.actor if e.actor is not None else _seat(e)
    st = state.seats[seat]
    if not st.present or seat == state.active or state.stack or state.phase != "turn" \
            or len(table.present(state)) <= 2:
        refuse("KBQ-LEAVE-1", f"seat {seat} may leave between turns, not during his own, "
                     "and not if that left fewer than two players", seat=seat)
    for seq, taker, *cards in st.gifts:
        if state.seats[taker].present:
            refuse("KBQ-LEAVE-2", f"seat {seat} gave seat {taker} "
                         + ", ".join(f"card {c}" for c in cards)
                         + f" for nothing in event {seq}, since his last turn began, and a "
                         "player who leaves may not give away his carrots, Dolla, saved "
                         "cards or supplies: strike or correct that gift first",
                         seat=seat, gift=seq, taker=taker, cards=cards)
    out: list[Effect] = []
    for carrot in st.carrots:
        state.market.return_carrot(carrot)
    gone_cards = [*st.hand, *st.run.cards(), *st.saved, *st.money, *st.cabbage, *st.water,
                  *st.karma]
    out.append(Effect("KBQ-LEAVE-1", "left", {"seat": seat, "carrots": st.carrots[:]}))
    # nothing of his goes to a player still in: the carrots back, the rest discarded
    out.append(Effect("KBQ-LEAVE-2", "gave_nothing", {"seat": seat}))
    st.carrots, st.hand, st.saved, st.money, st.cabbage, st.water, st.karma = [], [], [], [], [], [], []
    st.run.top = st.run.bottom = None
    st.present = False
    state.discard.extend(c for c in gone_cards if c == HIDDEN)  # unseen, face down (R-KBQ-42)
    table.to_discard(state, [c for c in gone_cards if c != HIDDEN], out)
    for bunny in state.circle.owned_by(seat):
        leaving.remove_bunny(state, bunny, out, "bunny_left", "KBQ-LEAVE-1")
    for r in [r for r in state.roamers if r.launcher == seat]:
        from engine.killer_bunnies_quest import roam

        roam.gone(state, r, "launcher_left", out)
    state.ious = [i for i in state.ious if i.seat != seat]
    if state.abducted and state.abducted[1] == seat:
        table.to_discard(state, [state.abducted[0]], out)
        state.abducted = []
    return _done(state, out)


HANDLERS: dict[type[Event], Any] = {
    Setup: setup, Runs: runs, Flip: flip, Play: play, Discard: discard, Save: save,
    Bottom: bottom, EndTurn: end_turn, Buy: buy, Feed: feed, Starve: starve, Trade: trade,
    Roll: roll, Bid: bid, Pass: pass_, Stake: stake, Choose: choose, Join: join, Leave: leave,
    Reshuffle: reshuffle, Draw: drawing.draw, Reveal: drawing.reveal,
}
"""Event type -> handler (engine.ruleset looks them up by the event's class)."""

__all__ = ["HAND", "HANDLERS", "HOOK_ROLLED", "RuleViolation"]
