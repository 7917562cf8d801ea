"""The greedy bot's value function: a few plain preferences of a Quest player.

Take carrots whenever possible, feed a hungry bunny, put bunnies and protective modifiers
into the circle, aim weapons and feed demands at opponents (stronger first), buy carrots when
the money is there and supplies when a feed is due. ``random`` needs nothing from the game.
"""

from __future__ import annotations

from engine.killer_bunnies_quest import table
from engine.killer_bunnies_quest.events import (
    Bid,
    Buy,
    Choose,
    Discard,
    EndTurn,
    Feed,
    Flip,
    Play,
    Save,
    Starve,
)
from engine.killer_bunnies_quest.state import QuestState
from engine.record import Event


def greedy_value(state: QuestState, action: Event) -> float:
    d = table.deck(state)
    seat = action.actor
    if isinstance(action, Play):
        card = d.card(action.card)
        if "choose-a-carrot" in card.tags:
            return 40.0
        if card.bunny is not None:
            return 20.0
        on_own = action.on is not None and action.on in state.circle and \
            state.circle.owner(action.on) == seat
        if card.modifier is not None:
            return 12.0 if on_own else -5.0
        if card.weapon is not None or card.feed is not None:
            level = card.weapon.level if card.weapon else 3
            return (8.0 + level) if not on_own else -20.0
        if card.type == "very_special" and action.on is None and not action.weapon:
            return 1.0
        return 6.0 if not on_own else 2.0
    if isinstance(action, Feed):
        return 30.0
    if isinstance(action, Starve):
        return -30.0
    if isinstance(action, Buy):
        if action.goods == "carrot":
            return 25.0
        hungry = [x for x in state.demands if x.owner == seat]
        return 10.0 if hungry else -2.0
    if isinstance(action, Save):
        return 7.0
    if isinstance(action, Flip):
        return 5.0
    if isinstance(action, Discard):
        return -1.0
    if isinstance(action, EndTurn):
        return -1.0
    if isinstance(action, Bid):
        return 3.0 - action.amount * 0.5
    if isinstance(action, Choose):
        return float(len(action.bunnies) + len(action.carrots))
    return 0.0


def prolong_value(state: QuestState, action: Event) -> float:
    """For long games (benchmarks, seek tests): the greedy player who never takes a carrot
    while anything else is possible, so the market empties only when nothing else is left."""
    if isinstance(action, Buy) and action.goods == "carrot":
        return -100.0
    if isinstance(action, (Play, Choose)) and action.carrots:
        return -100.0
    return greedy_value(state, action)
