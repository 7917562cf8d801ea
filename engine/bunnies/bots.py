"""Bunnies-specific preferences for warren's greedy and prolonging bots."""

from __future__ import annotations

from engine.bunnies.events import EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.numbers import CARD_VALUE
from engine.bunnies.state import BunniesState
from engine.record import Event


def greedy_value(state: BunniesState, event: Event) -> float:
    """Higher is better for a simple greedy player who sees only its own cards.

    Steal first, then look; complete a bunny when the pile allows; otherwise shed the
    lowest rank, all copies at once; after a bunny end the go rather than lay high.
    """
    if isinstance(event, Steal):
        return 100.0
    if isinstance(event, Peek):
        return 90.0
    if isinstance(event, Lay):
        rank = event.cards[0][0]
        run = 0
        for card in reversed(state.pile):
            if card[0] != rank:
                break
            run += 1
        if run + len(event.cards) >= 4:
            return 80.0
        value = 50.0 - CARD_VALUE[event.cards[0]] + len(event.cards)
        if state.phase == "bunny":
            value -= 40.0  # laying again is only worth it for a cheap card
        return value
    if isinstance(event, EndTurn):
        return 15.0
    if isinstance(event, Flip):
        return 5.0 + (10.0 if event.actor is not None and event.slot in state.known[event.actor] else 0.0)
    if isinstance(event, Pickup):
        return 0.0
    return 1.0


def prolong_value(state: BunniesState, event: Event) -> float:
    """A bot that drags the game out: lay single high cards so the opponent picks up."""
    if isinstance(event, Lay):
        return 10.0 * CARD_VALUE[event.cards[0]] - 20.0 * len(event.cards)
    if isinstance(event, EndTurn):
        return 500.0
    if isinstance(event, Steal):
        return 400.0
    return 1.0
