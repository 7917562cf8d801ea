"""What the game waits for now: the one reading of the state that the handlers' guards, the
agenda (engine.pending) and the legal actions all use.

A position waits for chance (the set-up, a reshuffle, a die), or for decisions: every seat
still to lay its first run cards; the active player at the stage of his turn (``turn``,
``flipped``, ``bottom``); or whoever a card waits on (a choice, a bid, a stake). A launched
card that needs no die (a *hold*: an abduction, a Drought, an attack whose outcome is
certain) waits for answers until the next event that is not one (R-KBQ-32); while it
waits, the game is read as if it had happened (``released``).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.killer.rolls import to_roll
from engine.killer_bunnies_quest.auction import next_bidder
from engine.killer_bunnies_quest.events import Play
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    AuctionFrame,
    Choice,
    Deal,
    Draws,
    Hold,
    MagicReveal,
    QuestState,
    RollCard,
    RollOffFrame,
    Shown,
    Supplies,
)
from engine.killer_bunnies_quest.table import deck
from engine.record import Event
from engine.rules import Effect


class Awaited(NamedTuple):
    chance: str | None
    """``setup``, ``shuffle`` or ``roll`` when chance is owed; in the table form also
    ``draw`` (a card off a face-down pile) and ``reveal`` (R-KBQ-40)."""
    chance_seat: int | None
    decisions: dict[int, str]
    """Seat -> the decision it owes (``runs``, ``turn``, ``flipped``, ``bottom``, a choice
    kind, ``bid``)."""


NOTHING = Awaited(None, None, {})


def holding(state: QuestState) -> bool:
    """A launched card waits for answers, with nothing else owed (R-KBQ-32)."""
    if not state.stack:
        return False
    top = state.stack[-1]
    if isinstance(top, Hold):
        return not top.released
    if isinstance(top, AttackFrame):
        return (top.rolled == 0 and not top.released and top.target in state.circle
                and all(h.lives is not None for h in top.hits))
    return False


def release(state: QuestState) -> list[Effect]:
    """The held card happens now (the next event is not an answer); returns its effects."""
    from engine.killer_bunnies_quest import flow
    from engine.killer_bunnies_quest.cards import release as release_hold

    out: list[Effect] = []
    top = state.stack[-1]
    if isinstance(top, Hold):
        release_hold(state, top, out)
    elif isinstance(top, AttackFrame):
        top.released = True
    flow.advance(state, out)
    return out


def released(state: QuestState) -> QuestState:
    """The state as the next non-answer event finds it."""
    if not holding(state):
        return state
    trial = state.copy()
    release(trial)
    return released(trial)


def awaited(state: QuestState) -> Awaited:
    """What ``state`` (with no card held) waits for."""
    if state.over:
        return NOTHING
    phase = state.phase
    if phase == "setup":
        return Awaited("setup", None, {})
    if state.stack:
        top = state.stack[-1]
        if isinstance(top, Draws):
            # the table form waits for each card (R-KBQ-40); otherwise only a reshuffle waits
            return Awaited("draw" if state.draw else "shuffle", top.seat if state.draw else None, {})
        if isinstance(top, Deal):
            return Awaited("deal", top.order[top.dealt % len(top.order)], {})
        if isinstance(top, Supplies):
            return Awaited("draw", top.seat, {})
        if isinstance(top, MagicReveal):
            return Awaited("reveal", None, {})
        if isinstance(top, Shown):
            return Awaited("reveal", top.seat, {})
        if isinstance(top, AttackFrame):
            hit = next((h for h in top.hits if h.lives is None), None)
            if hit is not None:
                return Awaited("roll", hit.owner, {})
            return NOTHING
        if isinstance(top, RollCard):
            return Awaited("roll", top.roller, {})
        if isinstance(top, RollOffFrame):
            return Awaited("roll", to_roll(top.off), {})
        if isinstance(top, Choice):
            return Awaited(None, None, {top.seat: top.kind})
        if isinstance(top, AuctionFrame):
            bidder = next_bidder(top.auction)
            return Awaited(None, None, {} if bidder is None else {bidder: "bid"})
        return NOTHING
    unlaid: dict[int, str] = {}
    for s, st in enumerate(state.seats):
        if st.present and not st.laid:
            unlaid[s] = "runs"
    if unlaid:
        return Awaited(None, None, unlaid)
    if state.active is None or phase not in _STAGES:
        return NOTHING
    return Awaited(None, None, {state.active: phase})


_STAGES = frozenset({"turn", "flipped", "bottom"})


def own_turn_stage(state: QuestState, seat: int) -> bool:
    """``seat`` is the active player at a stage of his turn where he may buy, trade, feed
    and play saved Specials (KBQ-ORDER-1, KBQ-ORDER-2)."""
    return (not state.stack and state.active == seat and state.phase in ("turn", "flipped", "bottom")
            and all(st.laid for st in state.seats if st.present))


def may_answer(state: QuestState, seat: int) -> bool:
    """``seat`` may play a Very Special card now: in his own turn's stages, or whenever he
    owes nothing else (KBQ-VSP-1)."""
    if state.over or state.phase in ("setup", "reveal") or not state.seats[seat].present:
        return False
    if not all(st.laid for st in state.seats if st.present):
        return False
    owed = awaited(state)
    if seat in owed.decisions:
        return owed.decisions[seat] in ("turn", "flipped", "bottom")
    return True


def is_answer(state: QuestState, event: Event) -> bool:
    """An event that answers a held card rather than letting it happen: a Very Special card,
    or a saved card played in answer (R-KBQ-32)."""
    if not isinstance(event, Play) or event.actor is None:
        return False
    d = deck(state)
    if event.card not in d.type:
        return False
    return d.type[event.card] == "very_special" or event.card in state.seats[event.actor].saved
