"""The agenda (engine.pending) and the legal actions of a position of Killer Bunnies Odyssey.

Who owes what, in the order the game settles it: a shuffle owed (chance), then the cut an
opponent owes (any opponent may make it: each one is offered it, the first cut settles it),
then the set-up step of the seat setting up, the d12 for the first player, an acquired piece
to place, a card's dice (chance), and otherwise the active player's turn: his regular play,
then REPLACE. While the game is in play and nothing of the first kinds is owed, a window is
open to every other seat for Very Special cards and Hexascrewups (ODY-VSP-1, ODY-HEX-2); it
never waits for a pass. Feed The Bunny cards stand as deadlines at the end of their
creature's owner's turn.

Every action listed is checked with the handlers' own guards. Trades and payments that name
their Resources are accepted but not listed (docs/rulings.md R-ODY-17): the trades two
players may agree are countless, and warren lists its own choice of payment.
"""

from __future__ import annotations

import itertools
from typing import Any

from engine.killer import piles
from engine.killer import rolls as kit_rolls
from engine.killer.run import SAVABLE
from engine.killer_bunnies_odyssey import cards as card_rules
from engine.killer_bunnies_odyssey.choices import play_choices, rooms
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
    Pass,
    Place,
    Play,
    Runs,
    Use,
)
from engine.killer_bunnies_odyssey.flow import feed_deadlines
from engine.killer_bunnies_odyssey.numbers import CUT_MARGIN, CUT_SMALL
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards, opponents
from engine.pending import NOTHING, Agenda, Chance, Decision, Window
from engine.record import Event
from engine.rules import RuleViolation

DECISION_RULES = {"cut": "ODY-SHUF-2", "deal": "ODY-DEAL-1", "keep": "ODY-SET-1",
                  "draw": "ODY-HAND-1", "place": "ODY-POS-1", "turn": "ODY-TURN-6",
                  "replace": "ODY-TURN-5"}


def pending(state: OdysseyState) -> Agenda:
    if state.over:
        return NOTHING
    standing: list[Any] = list(feed_deadlines(state))
    decisions: dict[int, Decision] = {}
    chance: Chance | None = None
    if state.shuffles:
        chance = Chance(kind="shuffle", seat=state.shuffles[0], rule="ODY-SHUF-2")
    elif state.cut_owed is not None:
        decisions = {s: Decision(seat=s, kind="cut", rule="ODY-SHUF-2", off_turn=s != state.active)
                     for s in opponents(state, state.cut_owed)}
    elif state.phase == "setup":
        seat = state.setup_seat
        step = state.setup_step
        if step == "shuffle":
            chance = Chance(kind="shuffle", seat=seat, rule="ODY-SHUF-1")
        else:
            kind = {"deal": "deal", "keep": "keep", "refill": "draw"}[step]
            decisions = {seat: Decision(seat=seat, kind=kind, rule=DECISION_RULES[kind])}
    elif state.phase == "first" and state.rolloff is not None:
        chance = Chance(kind="roll", seat=kit_rolls.to_roll(state.rolloff), rule="ODY-SET-2")
    elif state.placing:
        owner = state.pieces[state.placing[0]].owner
        decisions = {owner: Decision(seat=owner, kind="place", rule="ODY-POS-1",
                                     off_turn=owner != state.active)}
    elif state.strike is not None:
        chance = Chance(kind="roll", seat=card_rules.strike_roller(state),
                        rule=card_rules._strike_rule(state.strike))
    elif state.active is not None:
        kind = "replace" if state.replace_owed else "turn"
        decisions = {state.active: Decision(seat=state.active, kind=kind, rule=DECISION_RULES[kind])}
    windows: list[Window] = []
    if state.phase in ("turn", "replace") and not (state.shuffles or state.cut_owed is not None
                                                   or state.placing):
        free = tuple(s for s in range(state.n) if s not in decisions)
        if free:
            windows.append(Window(seats=free, kinds=("very_special", "hexascrewup"), rule="ODY-VSP-1"))
    return Agenda(decisions=decisions, chance=chance, standing=standing, windows=windows)


def _accepted(state: OdysseyState, event: Event) -> bool:
    from engine.killer_bunnies_odyssey.handlers import HANDLERS

    trial = state.copy()
    try:
        HANDLERS[type(event)](trial, event)
    except RuleViolation:
        return False
    return True


def decision_actions(state: OdysseyState, decision: Decision) -> list[Event]:
    seq = state.seq + 1
    seat = decision.seat
    t = cards(state)
    s = state.seats[seat]
    kind = decision.kind
    out: list[Event] = []
    if kind == "cut":
        owner = state.cut_owed
        assert owner is not None
        size = len(state.seats[owner].draw)
        out = [Cut(seq=seq, actor=seat, seat=owner, depth=d)
               for d in piles.cut_range(size, CUT_MARGIN, CUT_SMALL)]
    elif kind == "deal":
        out = [Deal(seq=seq, actor=seat)]
    elif kind == "draw":
        out = [Draw(seq=seq, actor=seat)]
    elif kind == "keep":
        codes = sorted({t.code(k) for k in s.hand})
        for top, bottom in itertools.product(codes, repeat=2):
            if top == bottom and sum(1 for k in s.hand if t.code(k) == top) < 2:
                continue
            out.append(Runs(seq=seq, actor=seat, top=top, bottom=bottom))
        mulligan = Mulligan(seq=seq, actor=seat)
        if _accepted(state, mulligan):
            out.append(mulligan)
    elif kind == "place":
        pid = state.placing[0]
        p = state.pieces[pid]
        if t.is_city(p.kind):
            out = [Place(seq=seq, actor=seat, piece=pid, at=i) for i in range(len(state.center) + 1)]
        else:
            out = [Place(seq=seq, actor=seat, piece=pid, at=i) for i in range(len(state.circle) + 1)]
            out += [Place(seq=seq, actor=seat, piece=pid, into=c) for c in rooms(state, seat)]
    elif kind == "turn":
        out = _turn_actions(state, seat, seq)
    elif kind == "replace":
        out = [Bottom(seq=seq, actor=seat, card=c) for c in sorted({t.code(k) for k in s.hand})]
        if not s.hand:
            out.append(Pass(seq=seq, actor=seat))
        out += _anytime(state, seat, seq, own_turn=True)
    return out


def window_actions(state: OdysseyState, seat: int, window: Window) -> list[Event]:
    return _anytime(state, seat, state.seq + 1, own_turn=False)



def _unseen_kinds(state: OdysseyState, seat: int) -> list[int]:
    """The cards one of ``seat``'s cards nobody saw may be, in a game recorded at the table:
    every card of that deck not yet seen anywhere (REC-UNK-2)."""
    pool = state.seats[seat].unseen
    if pool is None:
        return []
    kind = cards(state).kind
    return sorted(kind[code] for code, n in pool.unseen.items() if n > 0 and code in kind)


def _hand_kinds(state: OdysseyState, seat: int) -> set[int]:
    """The cards ``seat``'s hand may hold: those known there and, where it holds a card nobody
    saw, every card that one may be (named by the record when it leaves the hand)."""
    hand = state.seats[seat].hand
    known = {k for k in hand if k}
    if 0 in hand:
        known.update(_unseen_kinds(state, seat))
    return known


def _turn_actions(state: OdysseyState, seat: int, seq: int) -> list[Event]:
    t = cards(state)
    s = state.seats[seat]
    out: list[Event] = []
    top = s.run.top
    if top is not None and not state.played:
        # a top run card nobody saw is named by the record when it is flipped (REC-UNK-3):
        # each card it may be is offered, named
        named = top == 0
        for kind in (_unseen_kinds(state, seat) if named else [top]):
            card = t.code(kind) if named else None
            if t.type[kind] in SAVABLE:
                out.append(Flip(seq=seq, actor=seat, how="save", card=card))
            if t.type[kind] != "resource":
                out += [Flip(seq=seq, actor=seat, how="play", card=card, **c)
                        for c in play_choices(state, seat, kind)]
            out.append(Flip(seq=seq, actor=seat, how="discard", card=card))
    if not state.played:
        hand = _hand_kinds(state, seat)
        for kind in sorted({k for k in hand if t.type[k] == "special"}):
            code = t.code(kind)
            out += [Play(seq=seq, actor=seat, card=code, **c) for c in play_choices(state, seat, kind)]
        for kind in sorted({k for k in hand if t.type[k] in ("special", "very_special")}):
            out.append(Discard(seq=seq, actor=seat, card=t.code(kind)))
        pass_ = Pass(seq=seq, actor=seat)
        if top is None and _accepted(state, pass_):
            out.append(pass_)
    out += _anytime(state, seat, seq, own_turn=True)
    return out


def _anytime(state: OdysseyState, seat: int, seq: int, own_turn: bool) -> list[Event]:
    """What a seat may do at any moment of play: Very Special cards from the hand or saved,
    its saved Special cards on its own turn, feeding on its own turn, Hexascrewups."""
    t = cards(state)
    s = state.seats[seat]
    out: list[Event] = []
    for kind in sorted({k for k in _hand_kinds(state, seat) if t.type[k] == "very_special"}):
        code = t.code(kind)
        out += [Play(seq=seq, actor=seat, card=code, **c) for c in play_choices(state, seat, kind)]
    seen: set[int] = set()
    for pid in s.saved:
        kind = state.pieces[pid].kind
        wanted = ("special", "very_special") if own_turn and state.strike is None else ("very_special",)
        if t.type[kind] not in wanted or kind in seen:
            continue
        seen.add(kind)
        out += [Use(seq=seq, actor=seat, piece=pid, **c) for c in play_choices(state, seat, kind)]
    if own_turn and state.strike is None:
        for d in state.demands:
            if d.owner == seat and card_rules.available_real(state, seat) >= d.cabbage + d.water:
                out.append(Feed(seq=seq, actor=seat, demand=d.card))
    for other in opponents(state, seat):
        held = state.seats[other].hand
        gap = 1 if other == state.active and state.replace_owed else 0
        if len(held) > state.opts.hand_size + gap:
            out += [Hexascrewup(seq=seq, actor=seat, against=other, card=t.code(k))
                    for k in sorted(_hand_kinds(state, other))]
    return out
