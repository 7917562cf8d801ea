"""One handler per event: every guard first (a refused event leaves the state as it was),
then the change, then what follows by itself (reshuffles owed, the end of the game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.hidden import UNKNOWN, undetermined
from engine.killer import piles
from engine.killer import rolls as kit_rolls
from engine.killer.run import SAVABLE
from engine.killer.trading import check_trade
from engine.killer_bunnies_odyssey import cards as card_rules
from engine.killer_bunnies_odyssey.choices import play_choices
from engine.killer_bunnies_odyssey.events import (
    Bottom,
    Cut,
    Deal,
    Discard,
    Draw,
    Feed,
    Flip,
    Hexascrewup,
    Mulligan,
    Overdraw,
    Pass,
    Place,
    Play,
    Roll,
    Runs,
    Shuffle,
    Trade,
    Use,
)
from engine.killer_bunnies_odyssey.flow import end_turn, scored, start_turn
from engine.killer_bunnies_odyssey.numbers import (
    CUT_MARGIN,
    CUT_SMALL,
    DEAL,
    FIRST_DIE,
    HEXASCREWUP_CIV,
    MULLIGAN_CIV,
)
from engine.killer_bunnies_odyssey.readings import judged, refuse_under
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import (
    cards,
    change_civ,
    hand_size,
    kit,
    leave_play,
    new_piece,
    queue_reshuffles,
    refuse,
)
from engine.killer_bunnies_odyssey.unknowns import (
    commit_hand,
    drawn_kind,
    hide_all,
    kind_of,
    plan_from_hand,
    reveal_kind,
    take_drawn,
    turned_kind,
)
from engine.record import Event
from engine.rules import Effect

Handler = Callable[[OdysseyState, Any], tuple[Effect, ...]]


# -- guards every handler shares -----------------------------------------------------------------


def _live(state: OdysseyState) -> None:
    if state.over:
        refuse("ODY-END-2", "the game is already over", seq=state.seq)


def _seat(state: OdysseyState, seat: int | None, rule: str, what: str = "the actor") -> int:
    if seat is None or not 0 <= seat < state.n:
        refuse(rule, f"{what} must be a seat of this game (0..{state.n - 1}), not {seat!r}", seat=seat)
    return seat


def _table(event: Event, rule: str) -> None:
    if event.actor is not None:
        refuse(rule, f"a {event.__struct_config__.tag} is chance, recorded by the table (actor null)",
               actor=event.actor)


def _in_play(state: OdysseyState) -> None:
    if state.phase in ("setup", "first"):
        refuse("ODY-TURN-1", "the game has not begun: the set-up and the roll for the first player "
               "come first", phase=state.phase)


def _ready(state: OdysseyState, strike_ok: bool = False) -> None:
    """What the game owes first, before anybody plays on: a shuffle and a cut (ODY-SHUF-2), an
    acquired piece placed (ODY-POS-1), a card's dice (unless an answer is being made)."""
    _piles_first(state)
    if state.placing:
        p = state.pieces[state.placing[0]]
        rule = "ODY-POS-2" if cards(state).is_city(p.kind) else "ODY-POS-1"
        refuse(rule, f"seat {p.owner} places piece {p.id} first", piece=p.id)
    if not strike_ok and state.strike is not None:
        refuse("ODY-CARD-10" if state.strike.kind == "bands" else
               ("ODY-WPN-2" if state.strike.kind == "raze" else "ODY-WPN-1"),
               f"{cards(state).label(state.strike.card)} waits for its roll", card=state.strike.card)


def _active(state: OdysseyState, actor: int | None, rule: str = "ODY-TURN-1") -> int:
    if actor != state.active or actor is None:
        refuse(rule, f"it is seat {state.active}'s turn, not seat {actor}'s", active=state.active)
    return actor


def _no_choices(event: Any, what: str) -> None:
    for name in (*card_rules.FIELDS, "pay"):
        if getattr(event, name, None) is not None:
            refuse("ODY-CARD-1", f"{what} asks for no {name}", field=name)


def _after(state: OdysseyState, out: list[Effect], scores: bool = True) -> tuple[Effect, ...]:
    """What follows any event by itself: reshuffles owed, and (``scores``: when the event may
    have changed a total) the end of the game at 60."""
    out.extend(queue_reshuffles(state))
    if scores and not state.over and state.phase not in ("setup", "first"):
        out.extend(scored(state))
    return tuple(out)


# -- set-up -------------------------------------------------------------------------------------


def _plan_draws(state: OdysseyState, seat: int, names: list[str | None]) -> list[int]:
    """The kinds the next ``len(names)`` draws take off the top, each named or not (pure)."""
    pile = state.seats[seat].draw
    if len(pile) < len(names):
        refuse("ODY-DEAL-1", f"seat {seat}'s draw pile holds {len(pile)} cards", seat=seat)
    pool = state.seats[seat].unseen
    taken: Counter[str] = Counter()
    t = cards(state)
    out = []
    for i, name in enumerate(names):
        entry = pile[-1 - i]
        if name is None or name == UNKNOWN:
            if name == UNKNOWN and not state.partial:
                kind_of(state, name, "a card dealt")
            out.append(entry if name is None else (entry if entry else 0))
            continue
        kind = kind_of(state, name, "a card dealt")
        if entry and entry != kind:
            refuse("REC-UNK-2", f"the record names {name}, but the card dealt is {t.code(entry)}",
                   named=name)
        if not entry:
            if pool is None or pool.unseen.get(name, 0) <= taken[name]:
                refuse("REC-UNK-2", f"{name} cannot be dealt to seat {seat}: it is not among that "
                       "deck's unseen cards", named=name)
            taken[name] += 1
        out.append(kind)
    return out


def _commit_draws(state: OdysseyState, seat: int, kinds: list[int]) -> None:
    for kind in kinds:
        take_drawn(state, seat, kind)


def _piles_first(state: OdysseyState) -> None:
    """A shuffle and the opponent's cut it owes come before anything else (ODY-SHUF-2): an
    action out of order then is refused by that rule, not by the action's own."""
    if state.shuffles:
        refuse("ODY-SHUF-2", f"seat {state.shuffles[0]}'s draw pile is to be shuffled first",
               seat=state.shuffles[0])
    if state.cut_owed is not None:
        refuse("ODY-SHUF-2", f"seat {state.cut_owed}'s draw pile waits for an opponent's cut",
               seat=state.cut_owed)


def _refill_first(state: OdysseyState) -> None:
    """Under the seven-card hand a player draws back to seven before the set-up goes on
    (ODY-HAND-1): anything else first is out of order by that rule."""
    if state.phase == "setup" and state.setup_step == "refill":
        seat = state.setup_seat
        held = len(state.seats[seat].hand)
        refuse("ODY-HAND-1", f"seat {seat} holds {held} cards: under the {hand_size(state)}-card hand "
               f"he draws back to {hand_size(state)} before the set-up goes on", seat=seat, held=held)


def _advance_setup(state: OdysseyState) -> list[Effect]:
    if state.setup_seat + 1 < state.n:
        state.setup_seat += 1
        state.setup_step = "shuffle"
        return []
    state.setup_step = "done"
    state.phase = "first"
    state.rolloff = kit_rolls.start(list(range(state.n)), "high", 0, "none")
    return [Effect("ODY-SET-2", "first_roll", {"seats": list(range(state.n))})]


def on_shuffle(state: OdysseyState, ev: Shuffle) -> tuple[Effect, ...]:
    _live(state)
    _table(ev, "ODY-SHUF-1")
    seat = _seat(state, ev.seat, "ODY-SHUF-1", "the seat shuffled")
    initial = (state.phase == "setup" and state.setup_step == "shuffle" and state.setup_seat == seat
               and not state.shuffles and state.cut_owed is None)
    queued = bool(state.shuffles) and state.shuffles[0] == seat
    if not (initial or queued):
        _refill_first(state)
        refuse("ODY-SHUF-1", f"no shuffle of seat {seat}'s draw pile is owed now", seat=seat)
    pile = state.seats[seat].draw
    order = ev.order
    t = cards(state)
    reveal: list[int] = []
    if order is None or (order and all(c == UNKNOWN for c in order)):
        if not state.partial:
            refuse("REC-UNK-1", "a shuffle whose order is unknown is recorded only at the table",
                   seat=seat)
        if order is not None and len(order) != len(pile):
            refuse("ODY-SHUF-1", f"the shuffle records {len(order)} cards; seat {seat}'s pile holds "
                   f"{len(pile)}", seat=seat)
        new = [0] * len(pile)
    else:
        if UNKNOWN in order:
            refuse("ODY-SHUF-1", "a shuffle is recorded whole, or not at all ('?' for none of it)",
                   seat=seat)
        kinds = [kind_of(state, c, "a shuffled card") for c in order]
        own = set(cards(state).seat_cards(seat)) | set(pile)
        foreign = [t.code(k) for k in kinds if k not in own]
        if foreign:
            refuse("ODY-DECK-1", f"{foreign[0]} is no card of seat {seat}'s deck "
                   f"({t.deck_of(seat)!r}): each player plays his own deck", card=foreign[0])
        if 0 not in pile:
            kit(lambda: piles.check_order(kinds, pile, f"shuffle of seat {seat}'s draw pile"))
        else:
            known = Counter(k for k in pile if k)
            named = Counter(kinds)
            if len(kinds) != len(pile) or known - named:
                refuse("ODY-SHUF-1", f"the recorded shuffle is not a shuffle of seat {seat}'s "
                       f"{len(pile)} cards", seat=seat)
            extra = named - known
            pool = state.seats[seat].unseen
            for kind, count in extra.items():
                if pool is None or pool.unseen.get(t.code(kind), 0) < count:
                    refuse("REC-UNK-2", f"{t.code(kind)} cannot be in seat {seat}'s draw pile so "
                           "many times", card=t.code(kind))
                reveal.extend([kind] * count)
        new = list(reversed(kinds))
    # -- commit
    if any(k == 0 for k in new):
        hide_all(state, seat, pile)
    for kind in reveal:
        reveal_kind(state, seat, kind)
    state.seats[seat].draw = new
    out = [Effect("ODY-SHUF-1", "shuffled", {"seat": seat, "cards": len(new)})]
    if initial:
        state.setup_step = "deal"
        state.refill_seat = None
        name = t.deck_of(seat)
        out.append(Effect("ODY-DECK-1", "deck", {"seat": seat, "deck": name, "cards": len(new)}))
        out.append(Effect("ODY-DECK-2", "deck_hash", {"seat": seat, "deck": name,
                                                      "hash": t.hashes[name]}))
    else:
        state.shuffles.pop(0)
        state.cut_owed = seat
        out.append(Effect("ODY-SHUF-2", "cut_owed", {"seat": seat}))
    return tuple(out)


def on_cut(state: OdysseyState, ev: Cut) -> tuple[Effect, ...]:
    # Which shuffles owe a cut, and who may make it: ruling R-ODY-5.
    _live(state)
    cutter = _seat(state, ev.actor, "ODY-SHUF-2")
    seat = _seat(state, ev.seat, "ODY-SHUF-2", "the seat whose pile is cut")
    if state.shuffles or state.cut_owed != seat:
        refuse("ODY-SHUF-2", f"no cut of seat {seat}'s draw pile is owed now", seat=seat)
    if cutter == seat:
        refuse("ODY-SHUF-2", "an opponent cuts the pile, not its owner", seat=seat)
    pile = state.seats[seat].draw
    kit(lambda: piles.check_cut(len(pile), ev.depth, CUT_MARGIN, CUT_SMALL))
    piles.cut(pile, ev.depth)
    state.cut_owed = None
    return (Effect("ODY-SHUF-3", "cut", {"seat": seat, "by": cutter, "depth": ev.depth,
                                         "cards": len(pile)}),)


def on_deal(state: OdysseyState, ev: Deal) -> tuple[Effect, ...]:
    _live(state)
    seat = _seat(state, ev.actor, "ODY-DEAL-1")
    if (state.phase != "setup" or state.setup_step != "deal" or state.setup_seat != seat
            or state.shuffles or state.cut_owed is not None):
        _piles_first(state)
        _refill_first(state)
        refuse("ODY-DEAL-1", f"no deal is owed by seat {seat} now", seat=seat)
    names: list[str | None] = list(ev.cards) if ev.cards is not None else [None] * DEAL
    if len(names) != DEAL:
        refuse("ODY-DEAL-1", f"a deal is of {DEAL} cards, not {len(names)}", cards=len(names))
    kinds = _plan_draws(state, seat, names)
    _commit_draws(state, seat, kinds)
    state.setup_step = "keep"
    out = [Effect("ODY-DEAL-1", "dealt", {"seat": seat, "cards": DEAL})]
    if not state.seats[seat].mulliganed:
        out.append(Effect("ODY-CIV-1", "civ_start", {"seat": seat, "civ": state.seats[seat].civ}))
    return tuple(out)


def on_mulligan(state: OdysseyState, ev: Mulligan) -> tuple[Effect, ...]:
    _live(state)
    seat = _seat(state, ev.actor, "ODY-MULL-2")
    s = state.seats[seat]
    if state.phase != "setup" or state.setup_seat != seat or state.setup_step != "keep" \
            or state.shuffles or state.cut_owed is not None:
        _piles_first(state)
        refuse("ODY-MULL-2", f"seat {seat} may trade in his first cards only at the start, before his "
               "run cards are down", seat=seat)
    if s.mulliganed:
        refuse("ODY-MULL-2", f"seat {seat} has traded in his first cards once already", seat=seat)
    t = cards(state)
    resources = [t.code(k) for k in s.hand if k and t.type[k] == "resource"]
    if resources:
        refuse("ODY-MULL-1", f"seat {seat}'s first seven cards hold a Resource ({resources[0]})",
               seat=seat, resources=resources)
    out: list[Effect] = []
    if 0 in s.hand and s.unseen is not None and any(
            t.type[t.kind[c]] == "resource" for c in s.unseen.unseen):
        out.append(undetermined("ODY-MULL-1", f"legal only if seat {seat}'s first seven cards held no "
                                "Resource", seat=seat, unknown_cards=s.hand.count(0)))
    s.civ = MULLIGAN_CIV
    s.draw.extend(s.hand)
    s.hand = []
    s.mulliganed = True
    state.shuffles.append(seat)
    state.setup_step = "deal"
    out.append(Effect("ODY-MULL-1", "mulligan", {"seat": seat, "civ": MULLIGAN_CIV}))
    return tuple(out)


def on_runs(state: OdysseyState, ev: Runs) -> tuple[Effect, ...]:
    _live(state)
    seat = _seat(state, ev.actor, "ODY-SET-1")
    if state.phase != "setup" or state.setup_seat != seat or state.setup_step != "keep" \
            or state.shuffles or state.cut_owed is not None:
        _piles_first(state)
        down = state.seats[seat].run.top is not None
        refuse("ODY-SET-1", f"seat {seat}'s run cards are down already and are not changed" if down
               else f"seat {seat} puts his run cards down after his deal", seat=seat)
    plan = plan_from_hand(state, seat, [ev.top, ev.bottom], "ODY-SET-1", "a run card")
    commit_hand(state, plan)
    run = state.seats[seat].run
    run.top, run.bottom = plan.kinds
    state.refill_seat = seat
    out = [Effect("ODY-SET-1", "run_cards", {"seat": seat})]
    if len(state.seats[seat].hand) < hand_size(state):
        state.setup_step = "refill"
    else:
        out.extend(_advance_setup(state))
    return tuple(out)


def refill_check(state: OdysseyState, seat: int) -> Callable[[int], None]:
    """Under a hand of ``size``: is a draw back to it owed by ``seat`` now (ODY-HAND-1)?"""
    def check(size: int) -> None:
        held = len(state.seats[seat].hand)
        if state.refill_seat != seat or state.phase not in ("setup", "first") or \
                (state.phase == "first" and state.rolloff is not None and state.rolloff.rolls) or \
                state.shuffles or state.cut_owed is not None:
            _piles_first(state)
            refuse_under(size, "ODY-HAND-1", f"no draw is owed by seat {seat} now", seat=seat)
        if held >= size:
            refuse_under(size, "ODY-HAND-1", f"seat {seat} holds {held} cards: the {size}-card hand "
                         "is full, no draw is owed", seat=seat, held=held)
    return check


def on_draw(state: OdysseyState, ev: Draw) -> tuple[Effect, ...]:
    _live(state)
    seat = _seat(state, ev.actor, "ODY-HAND-1")
    out = judged(state, refill_check(state, seat))
    kind = drawn_kind(state, seat, ev.card, "ODY-TURN-4")
    take_drawn(state, seat, kind)
    out.append(Effect("ODY-HAND-1", "drew", {"seat": seat, "held": len(state.seats[seat].hand)}))
    if state.setup_step == "refill" and len(state.seats[seat].hand) >= hand_size(state):
        out.extend(_advance_setup(state))
    return tuple(out)


def on_roll(state: OdysseyState, ev: Roll) -> tuple[Effect, ...]:
    _live(state)
    if state.phase == "first" and state.rolloff is not None:
        _table(ev, "ODY-SET-2")
        seat = _seat(state, ev.seat, "ODY-SET-2", "the roller")
        off = state.rolloff
        if ev.die != FIRST_DIE:
            refuse("ODY-SET-2", f"the first player is rolled for on the {FIRST_DIE}, not the {ev.die}",
                   die=ev.die)
        if not 1 <= ev.face <= 12:
            refuse("ODY-SET-2", f"a d12 has faces 1-12, not {ev.face}", face=ev.face)
        kit(lambda: kit_rolls.record(off.copy(), seat, ev.face))
        kit_rolls.record(off, seat, ev.face)
        kit_rolls.close_round(off)
        state.refill_seat = None
        out = [Effect("ODY-SET-2", "rolled", {"seat": seat, "face": ev.face})]
        if off.decided is not None:
            state.first = off.decided
            state.rolloff = None
            out.append(Effect("ODY-SET-2", "first_player", {"seat": off.decided}))
            out.extend(start_turn(state, off.decided))
        elif not off.rolls:
            out.append(Effect("ODY-SET-2", "tie", {"again": list(off.contenders)}))
        return tuple(out)
    strike = state.strike
    if strike is None or state.shuffles or state.cut_owed is not None or state.placing:
        _piles_first(state)
        _refill_first(state)
        refuse("ODY-CARD-10", "no card waits for a roll now")
    _table(ev, card_rules._strike_rule(strike))
    rule = card_rules._strike_rule(strike)
    roller = card_rules.strike_roller(state)
    if ev.seat != roller:
        refuse(rule, f"seat {roller} rolls for {cards(state).label(strike.card)}, not seat {ev.seat}",
               roller=roller)
    if ev.die != strike.die:
        refuse(rule, f"{cards(state).label(strike.card)} rolls the {strike.die}, not the {ev.die}",
               die=ev.die)
    sides = card_rules.SIDES.get(strike.die, 12)
    if not 1 <= ev.face <= sides:
        refuse(rule, f"a {strike.die} has faces 1-{sides}, not {ev.face}", face=ev.face)
    out = [Effect(rule, "rolled", {"seat": ev.seat, "face": ev.face, "die": ev.die})]
    out.extend(card_rules.roll_strike(state, ev.seat, ev.die, ev.face))
    return _after(state, out)


# -- the turn -----------------------------------------------------------------------------------


def _drawn_after(state: OdysseyState, seat: int, named: str | None, rule: str,
                 leaving: int = 0) -> int | None:
    """The card a replacement draw will take (None when the pile is empty: no card)."""
    if not state.seats[seat].draw:
        if named is not None:
            refuse(rule, f"seat {seat}'s draw pile is empty: nothing is drawn", seat=seat)
        return None
    return drawn_kind(state, seat, named, rule)


def can_play(state: OdysseyState, seat: int, kind: int) -> bool:
    """Could the card be played here by some choice (ODY-BURN-1 tells a burn from a discard)?"""
    return bool(play_choices(state, seat, kind, first=True))


def on_flip(state: OdysseyState, ev: Flip) -> tuple[Effect, ...]:
    # FLIP, SLIDE and DRAW are this one event, REPLACE is `bottom` (ruling R-ODY-18).
    _live(state)
    _in_play(state)
    seat = _active(state, ev.actor)
    _ready(state)
    if state.played:
        refuse("ODY-TURN-6", f"seat {seat} has played his card this turn", seat=seat)
    s = state.seats[seat]
    t = cards(state)
    kind = turned_kind(state, seat, s.run.top, ev.card)
    plan = None
    burned = False
    if ev.how == "save":
        if t.type[kind] not in SAVABLE:
            refuse("ODY-SAVE-1", f"{t.label(kind)} is a {t.type[kind].replace('_', ' ')} card: only a "
                   "Resource, Special or Very Special card is saved", card=t.code(kind))
        _no_choices(ev, "saving a card")
    elif ev.how == "play":
        if t.type[kind] == "resource":
            refuse("ODY-RES-1", f"{t.label(kind)} is a Resource: flipped, it is saved, never played",
                   card=t.code(kind))
        plan = card_rules.plan_play(state, seat, kind, ev, "flip")
    else:
        _no_choices(ev, "discarding a card")
        burned = t.type[kind] != "resource" and not can_play(state, seat, kind)
    drawn = _drawn_after(state, seat, ev.drew, "ODY-TURN-4")
    # -- commit: FLIP, SLIDE, DRAW, then the card is carried out
    if s.run.top == 0:
        reveal_kind(state, seat, kind)
    s.run.top = None
    out = [Effect("ODY-TURN-2", "flipped", {"seat": seat, "card": t.code(kind), "how": ev.how})]
    if s.run.bottom is not None:
        s.run.top, s.run.bottom = s.run.bottom, None
        out.append(Effect("ODY-TURN-3", "slid", {"seat": seat}))
    if drawn is not None:
        take_drawn(state, seat, drawn)
        out.append(Effect("ODY-TURN-4", "drew", {"seat": seat}))
    state.played = True
    state.replace_owed = True
    if ev.how == "save":
        pid = new_piece(state, kind, seat, "saved")
        s.saved.append(pid)
        rule = "ODY-RES-1" if t.type[kind] == "resource" else "ODY-SAVE-1"
        out.append(Effect(rule, "saved", {"seat": seat, "piece": pid, "card": t.code(kind),
                                          "colour": t.resource[kind]}))
    elif plan is not None:
        out.extend(card_rules.execute(state, plan))
    else:
        s.discard.append(kind)
        out.append(Effect("ODY-BURN-1", "burned", {"seat": seat, "card": t.code(kind)}) if burned else
                   Effect("ODY-TURN-6", "discarded", {"seat": seat, "card": t.code(kind)}))
    return _after(state, out, scores=plan is not None)


def _hand_card(state: OdysseyState, seat: int, code: str, rule: str) -> tuple[int, Any]:
    plan = plan_from_hand(state, seat, [code], rule, "the card played")
    return plan.kinds[0], plan


def on_play(state: OdysseyState, ev: Play) -> tuple[Effect, ...]:
    # Only a card played from the hand is replaced, at once (ruling R-ODY-7).
    _live(state)
    _in_play(state)
    seat = _seat(state, ev.actor, "ODY-VSP-1")
    t = cards(state)
    if ev.card == UNKNOWN:
        refuse("REC-UNK-3", "a card played from the hand is shown: the record names it")
    kind, hand_plan = _hand_card(state, seat, ev.card, "ODY-SPEC-1")
    special = t.type[kind] == "special"
    if ev.save:
        refuse("ODY-SPEC-3", f"{t.label(kind)} cannot be saved from the hand: a card is saved only "
               "when flipped from the top run position", card=ev.card)
    if t.type[kind] not in ("special", "very_special"):
        refuse("ODY-SPEC-1", f"{t.label(kind)} is a {t.type[kind].replace('_', ' ')} card: only a "
               "Special or Very Special card is played from the hand", card=ev.card)
    if special:
        _active(state, seat, "ODY-VSP-1")
        _ready(state)
        if state.played:
            refuse("ODY-TURN-6", f"seat {seat} has played his card this turn", seat=seat)
    else:
        _ready(state, strike_ok=True)
    plan = card_rules.plan_play(state, seat, kind, ev, "hand")
    # the replacement comes off the draw pile once the card has left the hand
    drawn = _drawn_after(state, seat, ev.drew, "ODY-VSP-2")
    commit_hand(state, hand_plan)
    out = [Effect("ODY-SPEC-1" if special else "ODY-VSP-1", "played",
                  {"seat": seat, "card": t.code(kind), "from": "hand"})]
    if drawn is not None:
        take_drawn(state, seat, drawn)
        out.append(Effect("ODY-SPEC-1" if special else "ODY-VSP-2", "replaced", {"seat": seat}))
    if special:
        state.played = True
    out.extend(card_rules.execute(state, plan, ends_turn=special))
    return _after(state, out)


def on_use(state: OdysseyState, ev: Use) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _seat(state, ev.actor, "ODY-VSP-1")
    p = state.pieces.get(ev.piece)
    t = cards(state)
    if p is None or p.where != "saved" or p.owner != seat:
        refuse("ODY-SAVE-1", f"piece {ev.piece} is not a card seat {seat} has saved", piece=ev.piece)
    kind = p.kind
    if t.type[kind] == "resource":
        refuse("ODY-COST-1", f"{t.label(kind)} is a saved Resource: it pays costs, it is not played",
               piece=ev.piece)
    special = t.type[kind] == "special"
    if special:
        _active(state, seat, "ODY-SPEC-4")
        _ready(state)
    else:
        _ready(state, strike_ok=True)
    plan = card_rules.plan_play(state, seat, kind, ev, "saved")
    state.seats[seat].saved.remove(p.id)
    del state.pieces[p.id]
    out = [Effect("ODY-SPEC-4" if special else "ODY-VSP-1", "played",
                  {"seat": seat, "card": t.code(kind), "from": "saved", "piece": ev.piece})]
    out.extend(card_rules.execute(state, plan))
    return _after(state, out)


def on_discard(state: OdysseyState, ev: Discard) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _active(state, ev.actor, "ODY-SPEC-2")
    _ready(state)
    if state.played:
        refuse("ODY-TURN-6", f"seat {seat} has played his card this turn", seat=seat)
    t = cards(state)
    if ev.card == UNKNOWN:
        refuse("REC-UNK-3", "a card discarded goes face up: the record names it")
    kind, hand_plan = _hand_card(state, seat, ev.card, "ODY-SPEC-2")
    if t.type[kind] not in ("special", "very_special"):
        refuse("ODY-SPEC-2", f"{t.label(kind)} is not a Special card: only a Special or Very Special "
               "card is discarded from the hand as a turn", card=ev.card)
    drawn = _drawn_after(state, seat, ev.drew, "ODY-SPEC-2")
    commit_hand(state, hand_plan)
    state.seats[seat].discard.append(kind)
    out = [Effect("ODY-SPEC-2", "discarded", {"seat": seat, "card": t.code(kind), "from": "hand"})]
    if drawn is not None:
        take_drawn(state, seat, drawn)
        out.append(Effect("ODY-SPEC-2", "replaced", {"seat": seat}))
    state.played = True
    out.extend(end_turn(state))
    return _after(state, out, scores=False)


def on_bottom(state: OdysseyState, ev: Bottom) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _active(state, ev.actor, "ODY-TURN-5")
    _ready(state)
    if not state.replace_owed:
        refuse("ODY-TURN-5", f"seat {seat} puts a bottom run card down after his flip", seat=seat)
    _, hand_plan = _hand_card(state, seat, ev.card, "ODY-TURN-5")
    commit_hand(state, hand_plan)
    state.seats[seat].run.bottom = hand_plan.kinds[0]
    out = [Effect("ODY-TURN-5", "replaced", {"seat": seat})]
    out.extend(end_turn(state))
    return _after(state, out, scores=False)


def on_pass(state: OdysseyState, ev: Pass) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _active(state, ev.actor, "ODY-TURN-6")
    _ready(state)
    s = state.seats[seat]
    t = cards(state)
    out: list[Effect] = []
    if state.replace_owed:
        if s.hand:
            refuse("ODY-TURN-5", f"seat {seat} has cards in hand: one goes down as his bottom run card",
                   held=len(s.hand))
    else:
        if s.run.top is not None:
            refuse("ODY-TURN-6", f"seat {seat} has a top run card to flip", seat=seat)
        specials = [k for k in s.hand if k and t.type[k] in ("special", "very_special")]
        if specials:
            refuse("ODY-TURN-6", f"seat {seat} holds {t.code(specials[0])}, a card he can play or "
                   "discard as his turn", seat=seat)
        if 0 in s.hand:
            out.append(undetermined("ODY-TURN-6", f"legal only if seat {seat}'s hand held no Special "
                                    "or Very Special card", seat=seat))
    out.append(Effect("ODY-TURN-6", "passed", {"seat": seat}))
    out.extend(end_turn(state))
    return _after(state, out, scores=False)


def on_feed(state: OdysseyState, ev: Feed) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _active(state, ev.actor, "ODY-FEED-1")
    _ready(state)
    demand = next((d for d in state.demands if d.card == ev.demand), None)
    if demand is None:
        refuse("ODY-FEED-1", f"no Feed The Bunny card {ev.demand} waits on a creature", demand=ev.demand)
    if demand.owner != seat:
        refuse("ODY-FEED-1", f"the creature under Feed The Bunny card {ev.demand} is seat "
               f"{demand.owner}'s to feed", owner=demand.owner)
    units = demand.cabbage + demand.water
    try:
        pay = card_rules.plan_payment(state, seat, {"white": units}, ev.pay)
    except Exception as exc:
        from engine.rules import RuleViolation

        if isinstance(exc, RuleViolation):
            refuse("ODY-FEED-1", f"feeding takes {units} saved Resources unused this round: "
                   f"{exc.message}", units=units)
        raise
    card_rules.mark_used(state, seat, pay)
    leave_play(state, ev.demand)
    return _after(state, [Effect("ODY-FEED-1", "fed", {"seat": seat, "piece": demand.bunny,
                                                       "demands": [ev.demand], "paid": units})],
                  scores=False)


_WHERE_SAID = {"saved": "saved beside its owner", "circle": "in the {circle} already",
               "city": "in the {circle} already", "inside": "inside a city already",
               "under": "under a creature already", "on": "on a creature already"}
"""Where a piece already is, as a refusal to place it again says it."""


def on_place(state: OdysseyState, ev: Place) -> tuple[Effect, ...]:
    _live(state)
    seat = _seat(state, ev.actor, "ODY-POS-1")
    p = state.pieces.get(ev.piece)
    t = cards(state)
    # A city is a structure: its placing is ODY-POS-2's (Positioning Of Creatures And
    # Structures, second paragraph); a creature's is ODY-POS-1's.
    rule = "ODY-POS-2" if p is not None and t.is_city(p.kind) else "ODY-POS-1"
    if p is None or ev.piece not in state.placing:
        if p is None:
            refuse(rule, f"piece {ev.piece} is not waiting to be placed", piece=ev.piece)
        circle = "Center Circle" if rule == "ODY-POS-2" else "Bunny Circle"
        where = _WHERE_SAID.get(p.where, "in play").format(circle=circle)
        refuse(rule, f"piece {ev.piece} is {where}, not waiting to be placed: what is in the "
               f"{circle} is never repositioned", piece=ev.piece, where=p.where)
    if p.owner != seat:
        refuse(rule, f"piece {ev.piece} is seat {p.owner}'s to place", owner=p.owner)
    if state.shuffles or state.cut_owed is not None:
        _ready(state)
    city = t.is_city(p.kind)
    if city:
        if ev.into is not None:
            refuse("ODY-POS-2", "a city goes into the Center Circle, not into a city", into=ev.into)
        if ev.at is not None and not 0 <= ev.at <= len(state.center):
            refuse("ODY-POS-2", f"position {ev.at} is not in the Center Circle (0 to {len(state.center)})",
                   at=ev.at)
    else:
        card_rules._placement(state, seat, ev.at, ev.into, len(state.circle), set())
    state.placing.remove(p.id)
    if city:
        card_rules.place_city(state, p.id, ev.at)
    else:
        card_rules.place_creature(state, p.id, ev.at, ev.into)
    rule = "ODY-POS-2" if city else ("ODY-CITY-1" if ev.into is not None else "ODY-POS-1")
    return _after(state, [Effect(rule, "placed", {"seat": seat, "piece": p.id, "at": ev.at,
                                                  "into": ev.into})])


# -- trades, Hexascrewups, mistakes ---------------------------------------------------------------


def on_trade(state: OdysseyState, ev: Trade) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    a = _seat(state, ev.actor, "ODY-TRADE-2")
    b = _seat(state, ev.partner, "ODY-TRADE-2", "the partner")
    _ready(state)
    t = cards(state)
    traded = {pid for pid, p in state.pieces.items() if p.traded}
    for pid in (*ev.give, *ev.take):
        p = state.pieces.get(pid)
        if p is not None and p.where == "inside":
            refuse("ODY-TRADE-2", f"piece {pid} is inside a city: it trades only with its city",
                   piece=pid)
        if p is not None and p.where == "city":
            inside = state.center.spaces[pid].inside
            if any(state.pieces[c].traded for c in inside):
                refuse("ODY-TRADE-3", f"city {pid} houses a creature traded once already", piece=pid)

    def holding(seat: int, card: int) -> Any:
        if card < 0:
            return "hand"
        p = state.pieces.get(card)
        if p is None or p.owner != seat:
            return None
        return {"saved": "saved", "circle": "bunny", "city": "city"}.get(p.where)

    def hand_plan(seat: int, codes: list[str]) -> Any:
        run = state.seats[seat].run
        for code in codes:
            if code == UNKNOWN:
                refuse("ODY-TRADE-2", "a trade is made in the open: the record names every card")
        try:
            return plan_from_hand(state, seat, codes, "ODY-TRADE-2", "a card traded")
        except Exception:
            for code in codes:
                kind = t.kind.get(code)
                if kind is not None and kind in run.cards() and kind not in state.seats[seat].hand:
                    refuse("ODY-TRADE-5", f"{code} lies in seat {seat}'s run positions: run cards are "
                           "never traded", card=code)
            raise

    give_plan = hand_plan(a, list(ev.give_hand))
    take_plan = hand_plan(b, list(ev.take_hand))
    gives = [*ev.give, *(-(i + 1) for i in range(len(ev.give_hand)))]
    takes = [*ev.take, *(-(100 + i) for i in range(len(ev.take_hand)))]
    kit(lambda: check_trade(state.active, a, gives, b, takes, holding, traded,
                            once={"saved", "bunny", "city"}))
    out: list[Effect] = []
    if ev.give_hand or ev.take_hand:
        def check(size: int) -> None:
            for seat in (a, b):
                held = len(state.seats[seat].hand)
                if held != size:
                    refuse_under(size, "ODY-TRADE-4", f"seat {seat} holds {held} cards; a trade of hand "
                                 f"cards leaves every hand at {size}", seat=seat, held=held)
        out.extend(judged(state, check))
    # -- commit
    commit_hand(state, give_plan)
    commit_hand(state, take_plan)
    state.seats[b].hand.extend(give_plan.kinds)
    state.seats[a].hand.extend(take_plan.kinds)
    for pid, giver, getter in [*((p, a, b) for p in ev.give), *((p, b, a) for p in ev.take)]:
        p = state.pieces[pid]
        p.traded = True
        if p.where == "saved":
            state.seats[giver].saved.remove(pid)
            state.seats[getter].saved.append(pid)
            p.owner = getter
        else:
            for q in state.pieces.values():
                if q.host == pid and q.where == "inside":
                    q.traded = True
            card_rules.take_out(state, pid)
            card_rules.change_hands(state, pid, getter)
            state.placing.append(pid)
    out.append(Effect("ODY-TRADE-2", "traded", {
        "seat": a, "partner": b, "gave": list(ev.give), "got": list(ev.take),
        "gave_hand": list(ev.give_hand), "got_hand": list(ev.take_hand)}))
    return _after(state, out)


def on_hexascrewup(state: OdysseyState, ev: Hexascrewup) -> tuple[Effect, ...]:
    # When a hand holds an extra card, and how a record states one (ruling R-ODY-19).
    _live(state)
    _in_play(state)
    spotter = _seat(state, ev.actor, "ODY-HEX-2")
    accused = _seat(state, ev.against, "ODY-HEX-2", "the player accused")
    if spotter == accused:
        refuse("ODY-HEX-2", "an opponent spots an extra card, not its holder", seat=spotter)
    _ready(state, strike_ok=True)
    if ev.card == UNKNOWN:
        refuse("REC-UNK-3", "the card picked goes face up to the discard pile: the record names it")
    s = state.seats[accused]
    gap = 1 if accused == state.active and state.replace_owed else 0
    count = len(s.hand)
    unrecorded = False

    def check(size: int) -> None:
        limit = size + gap
        if count > limit:
            return
        if state.partial and count == limit and s.draw:
            return
        refuse_under(size, "ODY-HEX-1", f"seat {accused} holds {count} cards: no extra card under the "
                     f"{size}-card reading", seat=accused, held=count)

    out = judged(state, check)
    if count <= hand_size(state) + gap:
        unrecorded = True
        out.append(undetermined("ODY-HEX-1", f"legal only if seat {accused} held a card the record "
                                "does not show (a draw nobody recorded)", seat=accused, held=count))
        s.hand.append(s.draw.pop())
    try:
        plan = plan_from_hand(state, accused, [ev.card], "ODY-FAN-1", "the card picked")
    except Exception:
        if unrecorded:
            s.draw.append(s.hand.pop())
        raise
    commit_hand(state, plan)
    s.discard.append(plan.kinds[0])
    out.append(Effect("ODY-HEX-2", "hexascrewup", {"seat": accused, "by": spotter,
                                                   "card": cards(state).code(plan.kinds[0])}))
    out.extend(change_civ(state, accused, -HEXASCREWUP_CIV, "ODY-HEX-2", "an extra card"))
    return _after(state, out)


def on_overdraw(state: OdysseyState, ev: Overdraw) -> tuple[Effect, ...]:
    _live(state)
    _in_play(state)
    seat = _seat(state, ev.actor, "ODY-HEX-1")
    _ready(state, strike_ok=True)
    if not state.seats[seat].draw:
        refuse("ODY-TURN-4", f"seat {seat}'s draw pile is empty", seat=seat)
    kind = drawn_kind(state, seat, ev.card, "ODY-TURN-4")
    take_drawn(state, seat, kind)
    held = len(state.seats[seat].hand)
    gap = 1 if seat == state.active and state.replace_owed else 0
    return _after(state, [Effect("ODY-HEX-1", "extra_card", {
        "seat": seat, "held": held, "extra": held > hand_size(state) + gap})], scores=False)


HANDLERS: dict[type[Event], Handler] = {
    Shuffle: on_shuffle, Cut: on_cut, Deal: on_deal, Mulligan: on_mulligan, Runs: on_runs,
    Draw: on_draw, Roll: on_roll, Flip: on_flip, Play: on_play, Use: on_use, Discard: on_discard,
    Bottom: on_bottom, Pass: on_pass, Feed: on_feed, Place: on_place, Trade: on_trade,
    Hexascrewup: on_hexascrewup, Overdraw: on_overdraw,
}
