"""A card is in one place at a time: no pile of a Quest game ever holds a card twice."""

from __future__ import annotations

import pytest

from engine.registry import get_ruleset
from engine.simulate import simulate_one


@pytest.mark.parametrize("seed, index", [(3, 5), (3, 1), (7, 2), (11, 4)])
def test_the_discard_pile_never_holds_a_card_twice(seed: int, index: int) -> None:
    # (3, 5): a bunny dies with a Feed The Bunny card on it, which is also its demand's
    # card; it goes to the discard pile once (KBQ-MOD-4).
    rs = get_ruleset("killer-bunnies-quest")
    game = simulate_one(rs, seed, index, players=5)
    state = rs.setup(game.header)
    for event in game.events:
        rs.apply(state, event)
        assert len(state.discard) == len(set(state.discard)), event.seq
