"""KinderBunnies positions made whole: every card a position leaves unknown dealt from its pool.

A position seen by one seat, or by the table, holds :data:`~engine.kinderbunnies.state.HIDDEN`
for a hand's unseen card (and a passed card, and an Orange card not yet turned up) and only
a count for the draw pile's unseen cards (R-KIN-17). The pool holds the cards not seen
anywhere. A world deals the pool's Orange cards to the Orange deck's unknown places and the
rest to the hands' unknown cards and the draw pile, every arrangement as likely as another
(the draw pile is a set in a whole game: its order is drawn when a card is, R-KIN-16).
"""

from __future__ import annotations

import random

from engine.kinderbunnies.state import HIDDEN, KinderState
from engine.kinderbunnies.table import cards
from engine.rules import WarrenError


def fill(state: KinderState, rng: random.Random) -> KinderState:
    """A complete copy of ``state``: its unknown cards dealt at random from its pool."""
    world = state.copy()
    if not world.partial:
        return world
    orange_cards = set(cards(world).orange)
    unseen = sorted(int(c) for c, k in (world.pool.unseen.items() if world.pool else ()) for _ in range(k))
    orange = [c for c in unseen if c in orange_cards]
    rest = [c for c in unseen if c not in orange_cards]
    rng.shuffle(orange)
    rng.shuffle(rest)
    if not world.orange and not world.magic:
        orange = []  # not set aside yet (Really Advanced): the set-aside is chance still to come
    if world.orange.count(HIDDEN) != len(orange):
        raise WarrenError(f"this KinderBunnies position leaves {world.orange.count(HIDDEN)} Orange "
                          f"cards unknown but {len(orange)} are unseen: it cannot be dealt out")
    world.orange = [orange.pop() if c == HIDDEN else c for c in world.orange]
    for hand in world.hands:
        for i, card in enumerate(hand):
            if card == HIDDEN:
                hand[i] = _one(rest)
    task = world.task
    if task is not None and HIDDEN in task.staged.values():
        task.staged = {seat: _one(rest) if card == HIDDEN else card for seat, card in task.staged.items()}
    if len(rest) != world.pile_hidden:
        raise WarrenError(f"this KinderBunnies position leaves {world.pile_hidden} cards of the draw "
                          f"pile unknown but {len(rest)} are unseen: it cannot be dealt out")
    world.pile = world.pile | set(rest)
    world.pile_hidden = 0
    world.partial = False
    world.pool = None
    return world


def _one(cards_left: list[int]) -> int:
    if not cards_left:
        raise WarrenError("this KinderBunnies position leaves more cards unknown than are unseen")
    return cards_left.pop()
