"""A value function for warren's greedy bot: carrots and bunnies first, then hurting the
leader, then keeping one's own bunnies alive."""

from __future__ import annotations

from typing import Any

from engine.kinderbunnies.events import Accept, Buy, Choose, Discard, Play
from engine.kinderbunnies.state import KinderState
from engine.kinderbunnies.table import cards, owner_of
from engine.record import Event


def greedy_value(state: Any, action: Event) -> float:
    s: KinderState = state
    if isinstance(action, Buy):
        return 10.0
    if isinstance(action, Play):
        C = cards(s)
        card = C.card(action.card)
        if action.carrots:
            return 9.0 + len(action.carrots)
        if card.bunny is not None:
            return 8.0
        if card.type in ("special", "very_special"):
            return 7.0  # an answer that saves a bunny, a carrot or a roll
        if action.on is not None:
            victim = owner_of(s, action.on)
            lead = 0 if victim is None else len(s.carrots[victim]) + len(s.table[victim])
            return 5.0 + lead / 10
        return 4.0
    if isinstance(action, Choose):
        return 3.0 + len(action.bunnies) + len(action.carrots)
    if isinstance(action, Accept):
        return 0.0
    if isinstance(action, Discard):
        return 1.0
    return 2.0
