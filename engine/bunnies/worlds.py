"""Bunnies positions made whole: every card a position leaves unknown dealt from its pool.

The analysis of a game (engine.analysis) plays on from complete positions only. A position
seen by one seat, or by the table, holds ``"?"`` wherever a card was not seen (the other
hand, the stock, the blind cards nobody has looked at); the pool holds exactly the cards
not seen anywhere, one for each ``"?"`` (engine.hidden). Any arrangement of the pool over
those places is as likely as any other, as after a fair shuffle, so a world is one such
arrangement drawn at random.
"""

from __future__ import annotations

import random

from engine.bunnies.state import BunniesState
from engine.hidden import UNKNOWN
from engine.rules import WarrenError


def fill(state: BunniesState, rng: random.Random) -> BunniesState:
    """A complete copy of ``state``: its unknown cards dealt at random from its pool."""
    world = state.copy()
    if not world.partial:
        return world
    cards = sorted(c for c, k in (world.pool.unseen.items() if world.pool else ()) for _ in range(k))
    rng.shuffle(cards)
    places = [*world.hands, world.stock]
    wanted = sum(p.count(UNKNOWN) for p in places) + sum(1 for c in world.blinds.values() if c == UNKNOWN)
    if wanted != len(cards):
        raise WarrenError(f"this Bunnies position leaves {wanted} cards unknown but {len(cards)} "
                          "are unseen: it cannot be dealt out")
    for place in places:
        for i, card in enumerate(place):
            if card == UNKNOWN:
                place[i] = cards.pop()
    for slot, card in sorted(world.blinds.items()):
        if card == UNKNOWN:
            world.blinds[slot] = cards.pop()
    world.partial = False
    world.pool = None
    return world
