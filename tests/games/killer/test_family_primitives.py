"""The effect primitives the family kit gained for KinderBunnies' cards: each is read from a
deck file, and the loader refuses a card whose primitive does not fit the set's dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import CatalogueError, DeckLibrary

SET = """format = 1
[set.s]
title = "sample"
decks = ["d"]
colours = ["blue"]
kinds = ["hero"]
[set.s.dice]
a-d10 = { sides = 10, zero_is_ten = true }
b-d10 = { sides = 10, zero_is_ten = true }
"""

DECK = """format = 1
[deck]
id = "d"
title = "sample"

[[card]]
id = "the-card"
name = "The Card"
numbers = "1"
type = "run"
effects = [EFFECT]
"""


def catalogue(tmp_path: Path, effect: str) -> fx.AnyEffect:
    (tmp_path / "set.toml").write_text(SET)
    (tmp_path / "deck.toml").write_text(DECK.replace("EFFECT", effect))
    return DeckLibrary([tmp_path]).catalogue("s").card(1).effects[0]


@pytest.mark.parametrize(("text", "kind"), [
    ('{ do = "keep_only", bunnies = 1, carrots = 1 }', fx.KeepOnly),
    ('{ do = "reroll_die" }', fx.RerollDie),
    ('{ do = "replay_discard", price = 5 }', fx.ReplayDiscard),
    ('{ do = "exchange_carrots", give = 1, take = 2 }', fx.ExchangeCarrots),
    ('{ do = "everyone_rolls", die = "a-d10", faces = "9", then = [{ do = "skip_turn", target = "self" }] }',
     fx.EveryoneRolls),
    ('{ do = "roll_spread", dice = ["a-d10", "b-d10"] }', fx.RollSpread),
    ('{ do = "race_to_roll", die = "a-d10", face = 1, each = 1 }', fx.RaceToRoll),
    ('{ do = "pass_hands", cards = 1 }', fx.PassHands),
    ('{ do = "swap_with_hand" }', fx.SwapWithHand),
    ('{ do = "contest", then = [{ do = "take_carrot" }] }', fx.Contest),
    ('{ do = "switch_places", die = "a-d10" }', fx.SwitchPlaces),
    ('{ do = "roll_matches", dice = ["a-d10", "b-d10"], number = 2, highest = 10, any_of = [2, 3, 5, 7], '
     'need = 2, then = [{ do = "revive" }], tries = 3 }', fx.RollMatches),
    ('{ do = "roll_matches", target = "opponent_bunny", dice = ["a-d10"], number = 4, highest = 10, '
     'if_none = [{ do = "kill", target = "host" }] }', fx.RollMatches),
])
def test_each_family_primitive_is_read(tmp_path: Path, text: str, kind: type) -> None:
    assert isinstance(catalogue(tmp_path, text), kind)


@pytest.mark.parametrize(("text", "why"), [
    ('{ do = "everyone_rolls", die = "a-d10", faces = "11", then = [] }', "not on a-d10"),
    ('{ do = "everyone_rolls", die = "c-d10", faces = "9", then = [] }', "not one of the set's dice"),
    ('{ do = "race_to_roll", die = "a-d10", face = 12 }', "not on a-d10"),
    ('{ do = "roll_matches", dice = ["a-d10"], number = 2, highest = 10, any_of = [11] }', "any_of"),
    ('{ do = "roll_matches", dice = ["a-d10"], number = 2, highest = 10, need = 2 }', "need 2"),
    ('{ do = "roll_matches", dice = ["a-d10"], number = 2, highest = 10, tries = 0 }', "tries"),
    ('{ do = "switch_places", die = "a-d12" }', "not one of the set's dice"),
])
def test_a_primitive_that_does_not_fit_the_dice_is_refused(tmp_path: Path, text: str, why: str) -> None:
    with pytest.raises(CatalogueError, match=why):
        catalogue(tmp_path, text)


def test_a_bunny_can_be_immune_to_tagged_cards(tmp_path: Path) -> None:
    (tmp_path / "set.toml").write_text(SET)
    (tmp_path / "deck.toml").write_text(DECK.replace('type = "run"\neffects = [EFFECT]',
                                                     'type = "run"\nbunny = { colour = "blue", '
                                                     'kind = "hero", immune_to = ["safety-hazard"] }'))
    card = DeckLibrary([tmp_path]).catalogue("s").card(1)
    assert card.bunny is not None and card.bunny.immune_to == ["safety-hazard"]


def test_the_later_fields_at_their_defaults_leave_the_content_hash_alone(tmp_path: Path) -> None:
    base = '{ do = "roll_matches", dice = ["a-d10"], number = 2, highest = 10 }'

    def hashed(effect: str, folder: str) -> str:
        path = tmp_path / folder
        path.mkdir()
        (path / "set.toml").write_text(SET)
        (path / "deck.toml").write_text(DECK.replace("EFFECT", effect))
        return DeckLibrary([path]).catalogue("s").content_hash

    plain = hashed(base, "plain")
    spelt = hashed(base.replace("highest = 10", "highest = 10, need = 1, tries = 1, any_of = []"),
                   "spelt")
    used = hashed(base.replace("highest = 10", "highest = 10, tries = 2"), "used")
    assert plain == spelt and used != plain
