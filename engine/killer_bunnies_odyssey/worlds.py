"""Killer Bunnies Odyssey positions made whole: every card a position leaves unknown dealt
from its seat's pool.

Each player plays from his own deck (ODY-DECK-1), so a position that leaves cards unknown
(one seat's record, the table's, or a game recorded at the table: ruling R-ODY-20) keeps,
for each seat, the pool of its hidden places (draw pile, hand, run positions) that nobody
has seen, one card for each unknown one (kind 0) there. A world deals every seat's pool
over its own unknown places in a random order: every arrangement as likely as another.
"""

from __future__ import annotations

import random

from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards
from engine.rules import WarrenError

UNSEEN = 0
"""A card the record has not named, where it lies in the state."""


def fill(state: OdysseyState, rng: random.Random) -> OdysseyState:
    """A complete copy of ``state``: its unknown cards dealt at random from each seat's pool."""
    world = state.copy()
    if not world.partial:
        return world
    kind = cards(world).kind
    for index, seat in enumerate(world.seats):
        pool = seat.unseen
        kinds = sorted(kind[code] for code, k in (pool.unseen.items() if pool else ()) for _ in range(k))
        wanted = (seat.draw.count(UNSEEN) + seat.hand.count(UNSEEN)
                  + (seat.run.top == UNSEEN) + (seat.run.bottom == UNSEEN))
        if wanted != len(kinds):
            raise WarrenError(f"this Killer Bunnies Odyssey position leaves {wanted} of seat {index}'s "
                              f"cards unknown but {len(kinds)} are unseen: it cannot be dealt out")
        rng.shuffle(kinds)
        seat.hand = [kinds.pop() if c == UNSEEN else c for c in seat.hand]
        if seat.run.top == UNSEEN:
            seat.run.top = kinds.pop()
        if seat.run.bottom == UNSEEN:
            seat.run.bottom = kinds.pop()
        seat.draw = [kinds.pop() if c == UNSEEN else c for c in seat.draw]
        seat.unseen = None
    world.partial = False
    return world
