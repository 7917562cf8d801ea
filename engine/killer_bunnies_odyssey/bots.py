"""A value for the generic greedy bot (engine.bots): what a plain player of Odyssey would rate
highly. Cheap by design: it reads the action and a few counts, never plays a card out."""

from __future__ import annotations

from typing import Any

from engine.killer_bunnies_odyssey.events import (
    Bottom,
    Discard,
    Feed,
    Flip,
    Hexascrewup,
    Mulligan,
    Play,
    Runs,
    Use,
)
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards
from engine.record import Event


def _saved_resources(state: OdysseyState, seat: int) -> int:
    t = cards(state)
    return sum(1 for pid in state.seats[seat].saved if t.resource[state.pieces[pid].kind])


def _card_value(state: OdysseyState, kind: int, action: Any) -> float:
    t = cards(state)
    value = 1.0 + t.points[kind]
    target = getattr(action, "target", None)
    if target is not None and target in state.pieces:
        victim = state.pieces[target]
        if victim.owner != action.actor:
            value += 1.0 + t.points[victim.kind]
    if getattr(action, "into", None) is not None:
        value += 0.5
    return value


def greedy_value(state: OdysseyState, action: Event) -> float:
    t = cards(state)
    seat = action.actor
    if seat is None:
        return 0.0
    if isinstance(action, Hexascrewup):
        return 20.0
    if isinstance(action, Feed):
        return 15.0
    if isinstance(action, Mulligan):
        return 5.0
    if isinstance(action, Runs):
        top = t.kind.get(action.top, 0)
        return 2.0 if t.type[top] == "resource" else 0.0
    if isinstance(action, Flip):
        top = state.seats[seat].run.top or 0
        if action.how == "save":
            return 6.0 if t.type[top] == "resource" else 2.0
        if action.how == "play":
            return 4.0 + _card_value(state, top, action)
        return -1.0
    if isinstance(action, Play):
        kind = t.kind.get(action.card, 0)
        return 3.0 + _card_value(state, kind, action) - (0.5 if t.type[kind] == "very_special" else 0)
    if isinstance(action, Use):
        kind = state.pieces[action.piece].kind
        return 3.0 + _card_value(state, kind, action)
    if isinstance(action, Discard):
        return -2.0
    if isinstance(action, Bottom):
        kind = t.kind.get(action.card, 0)
        if t.type[kind] == "resource":
            return 3.0 if _saved_resources(state, seat) < 6 else 0.5
        cost = sum(t.cost[kind].values())
        return 1.0 + t.points[kind] * 0.3 - 0.4 * max(0, cost - _saved_resources(state, seat))
    return 0.0
