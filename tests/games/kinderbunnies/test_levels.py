"""The contract suite's checks (tests/contract/test_rulesets.py) at every level of
KinderBunnies: the suite itself plays each ruleset with its default options (Beginner), so
the Advanced and Really Advanced games are put through the same checks here."""

from __future__ import annotations

from typing import Any

import pytest

from engine.registry import get_ruleset
from engine.simulate import simulate_one
from tests.contract import test_rulesets as contract

LEVELS = ("beginner", "advanced", "really-advanced")


def _corpus(level: str) -> contract.Corpus:
    rs = get_ruleset("kinderbunnies")
    games = [simulate_one(rs, seed, n, players=n, bots=("random",), options={"level": level},
                          max_events=contract.MAX_EVENTS)
             for seed in (1, 2, 3, 4) for n in (2, 4, 6)]
    return rs, games


@pytest.fixture(scope="module", params=LEVELS)
def corpus(request: pytest.FixtureRequest) -> contract.Corpus:
    return _corpus(request.param)


CHECKS: list[Any] = [
    contract.test_legal_actions_are_exactly_what_apply_accepts,
    contract.test_copies_share_nothing_mutable_and_round_trip_the_codec,
    contract.test_replay_to_n_equals_the_prefix_fold,
    contract.test_views_are_json_and_name_their_position,
    contract.test_a_game_as_each_seat_saw_it_checks_and_shows_each_seat_the_same,
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__.removeprefix("test_"))
def test_every_level_keeps_the_contract(corpus: contract.Corpus, check: Any) -> None:
    check(corpus)


def test_a_card_with_several_effects_is_refused_when_the_deck_loads() -> None:
    """The catalogue took a card's first effect and dropped the rest silently."""
    import copy

    import msgspec

    from engine.kinderbunnies.catalogue import catalogue, one_effect_each
    from engine.rules import WarrenError

    cat = catalogue()
    assert one_effect_each(cat) is cat  # the shipped decks: one effect a card
    number, card = next((n, c) for n, c in sorted(cat.by_number.items()) if c.effects)
    doubled = msgspec.structs.replace(card, effects=(*card.effects, *card.effects))
    crafted = copy.copy(cat)  # the catalogue with that one card given its effect twice
    crafted.by_number = {**cat.by_number, number: doubled}
    with pytest.raises(WarrenError, match=rf"{card.name} \({number}\) has 2"):
        one_effect_each(crafted)
