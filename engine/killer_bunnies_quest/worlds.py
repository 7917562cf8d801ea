"""Killer Bunnies Quest positions made whole: every card a position leaves unknown dealt from
its pool.

A table-form position (ruling R-KBQ-40: one seat's record, the table's, or a game recorded
at the table) holds :data:`~engine.killer_bunnies_quest.unknowns.HIDDEN` wherever the
record has not named a card: in a hand, a run position, the discard pile (a leaver's hand),
the draw pile and the small Cabbage, Water and carrot decks. Its pool is exactly the cards
of those places. A hand, a run position and a leaver's discard can only hold a card a hand
holds unseen (R-KBQ-41: never Dolla nor a Play Immediately card), the small decks only
their own kind, the draw pile any large card. A world deals those places at random: the
hand places a random choice of the pool's hand cards, then every pile its kind's rest in a
random order, so every arrangement the rules allow is as likely as another.
"""

from __future__ import annotations

import random

from engine.killer_bunnies_quest.catalogue import deck
from engine.killer_bunnies_quest.state import QuestState
from engine.killer_bunnies_quest.unknowns import HIDDEN, hand_card
from engine.rules import WarrenError


def fill(state: QuestState, rng: random.Random) -> QuestState:
    """A complete copy of ``state``: its unknown cards dealt at random from its pool."""
    world = state.copy()
    if not world.partial:
        return world
    d = deck(world)
    pool = sorted(world.pool)
    large = [c for c in pool if c in d.large]
    held = [c for c in large if hand_card(world, c)]
    rng.shuffle(held)
    chosen: list[int] = []

    def hand_one() -> int:
        if not held:
            raise WarrenError("this Killer Bunnies Quest position leaves more hand cards unknown "
                              "than are unseen: it cannot be dealt out")
        chosen.append(held.pop())
        return chosen[-1]

    for seat in world.seats:
        seat.hand[:] = [hand_one() if c == HIDDEN else c for c in seat.hand]
        if seat.run.top == HIDDEN:
            seat.run.top = hand_one()
        if seat.run.bottom == HIDDEN:
            seat.run.bottom = hand_one()
    world.discard = [hand_one() if c == HIDDEN else c for c in world.discard]
    taken = set(chosen)
    rest = [c for c in large if c not in taken]
    world.draw = _dealt(world.draw, rest, rng, "the draw pile")
    for kind in ("cabbage", "water", "magic_carrot"):
        cards = [c for c in pool if c not in d.large and d.type[c] == kind]
        attr = {"cabbage": "cabbage_deck", "water": "water_deck", "magic_carrot": "magic_deck"}[kind]
        setattr(world, attr, _dealt(getattr(world, attr), cards, rng, f"the {kind.replace('_', ' ')} deck"))
    world.partial = False
    world.pool = set()
    world.doubts = []
    return world


def _dealt(pile: list[int], cards: list[int], rng: random.Random, what: str) -> list[int]:
    """``pile`` with its unknown cards dealt from ``cards`` in a random order."""
    if pile.count(HIDDEN) != len(cards):
        raise WarrenError(f"this Killer Bunnies Quest position leaves {pile.count(HIDDEN)} cards of "
                          f"{what} unknown but {len(cards)} are unseen: it cannot be dealt out")
    rng.shuffle(cards)
    return [cards.pop() if c == HIDDEN else c for c in pile]
