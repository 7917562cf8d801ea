"""The card catalogue: the Blue Starter box as data, the file format's validation, printings,
the content hash, and user deck files (boosters, house cards, the other two games)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import (
    CatalogueError,
    DeckLibrary,
    parse_numbers,
    read_deck_file,
)

QUEST_CARDS = Path(__file__).resolve().parents[3] / "engine" / "killer_bunnies_quest" / "cards"

SET_FILE = """format = 1
[set.test]
title = "a test set"
decks = ["t"]
colours = ["blue"]
kinds = ["timid", "gleeful"]
[set.test.dice]
black-d12 = { sides = 12 }
"""


@pytest.fixture(scope="module")
def library() -> DeckLibrary:
    return DeckLibrary([QUEST_CARDS])


@pytest.fixture(scope="module")
def box(library: DeckLibrary):  # type: ignore[no-untyped-def]
    return library.catalogue("blue-starter")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def one_card_deck(card: str, deck_numbers: str = "1-10") -> str:
    return f"""format = 1
[deck]
id = "t"
title = "test deck"
numbers = "{deck_numbers}"
{card}
"""


def build(tmp_path: Path, card: str, deck_numbers: str = "1-10"):  # type: ignore[no-untyped-def]
    write(tmp_path, "set.toml", SET_FILE)
    write(tmp_path, "deck.toml", one_card_deck(card, deck_numbers))
    return DeckLibrary([tmp_path]).catalogue("test")


# -- the Blue Starter box (docs/card-facts.md §1.1-§1.4) -------------------------------------------


def test_the_draw_pile_holds_152_cards_of_the_documented_types(box) -> None:  # type: ignore[no-untyped-def]
    pile = box.draw_pile()
    assert len(pile) == 152
    types = Counter(box.card(n).type for n in pile)
    assert types == {"run": 97, "special": 20, "very_special": 5, "play_immediately": 6,
                     "roaming_red_run": 2, "money": 22}


def test_bunnies_weapons_and_money_match_the_card_facts(box) -> None:  # type: ignore[no-untyped-def]
    cards = [box.card(n) for n in box.draw_pile()]
    plain = [c for c in cards if c.bunny is not None and not c.bunny.wild]
    assert len(plain) == 25
    assert {(c.bunny.colour, c.bunny.kind) for c in plain if c.bunny} == {
        (col, kind) for col in box.colours for kind in box.kinds}
    assert sum(1 for c in cards if c.bunny is not None and c.bunny.wild) == 2
    weapons = sorted(c.weapon.level for c in cards if c.weapon is not None)
    assert weapons == [lv for lv in range(1, 13) for _ in (0, 1)]
    assert all(c.pink_box and c.aggressive for c in cards if c.weapon is not None)
    assert sum(c.money or 0 for c in cards) == 64


def test_pink_box_cards_are_aggressive_except_choose_a_carrot(box) -> None:  # type: ignore[no-untyped-def]
    for n in box.draw_pile():
        card = box.card(n)
        if "choose-a-carrot" in card.tags:
            assert card.pink_box and not card.aggressive
        else:
            assert card.aggressive == card.pink_box, card.id


def test_carrots_starter_and_small_decks(box) -> None:  # type: ignore[no-untyped-def]
    carrots = box.numbers("carrot")
    assert [box.card(n).carrot for n in carrots] == [str(i) for i in range(1, 13)]
    starter = box.card(102)
    assert starter.market is not None
    assert (starter.market.cabbage, starter.market.water, starter.market.carrot) == (3, 3, 10)
    for kind in ("cabbage", "water"):
        cards = box.numbers(kind)
        assert sorted(box.card(n).units or 0 for n in cards) == [1] * 5 + [2] * 4 + [5] * 2 + [10]
    small = box.numbers("magic_carrot")
    assert sorted(box.card(n).carrot for n in small) == sorted(str(i) for i in range(1, 13))


def test_plain_weapon_and_feed_cards_get_their_effect_from_their_tables(box) -> None:  # type: ignore[no-untyped-def]
    gas = box.card(44)
    assert gas.effects == (fx.Attack(level=9, die="black-d12"),)
    assert gas.weapon is not None and gas.weapon.tags == ["gas"]
    feed = box.card(28)
    assert feed.effects == (fx.Feed(cabbage=3, water=4),)
    assert box.card(1).effects == (fx.EnterCircle(),)
    assert box.card(62).effects == (fx.Attach(),)


def test_every_hook_the_box_uses_is_named(box) -> None:  # type: ignore[no-untyped-def]
    assert box.hooks() == {"black_cat"}


# -- printings (docs/card-facts.md §1.6 item 7) ----------------------------------------------------


def test_the_2002_printing_renumbers_59_to_63_and_rewords_five_cards(library: DeckLibrary, box) -> None:  # type: ignore[no-untyped-def]
    old = library.catalogue("blue-starter", printing="2002")
    assert [old.card(n).id for n in range(59, 64)] == [
        "lucky-clover-single", "lucky-clover-double", "lucky-clover-triple",
        "kaballas-market-4-5", "kaballas-market-closed"]
    assert [box.card(n).id for n in range(59, 64)] == [
        "kaballas-market-4-5", "kaballas-market-closed", "lucky-clover-single",
        "lucky-clover-double", "lucky-clover-triple"]
    assert old.by_id["geneva-convention"].effects[0] == fx.DiscardHand(to="draw_pile")
    assert box.by_id["geneva-convention"].effects[0] == fx.DiscardHand(to="discard")
    defector = old.by_id["defector-detector"].effects[0]
    assert isinstance(defector, fx.RollOff) and defector.card_player_reroll == "two_rolls"
    poker = old.by_id["poverty-poker"].effects[0]
    assert isinstance(poker, fx.Gamble) and poker.card_player_reroll == "two_rolls"
    agent = old.by_id["free-agent"].bunny
    assert agent is not None and agent.not_colours == ["red"]
    cat = old.by_id["black-cat"].effects[0]
    assert isinstance(cat, fx.Hook) and cat.params["odd"] == "to_own_bunny"
    assert old.by_id["black-cat"].printing == "2002"
    assert old.by_id["sword"].printing == "current"
    assert old.content_hash != box.content_hash


def test_an_unknown_printing_is_the_current_one(library: DeckLibrary, box) -> None:  # type: ignore[no-untyped-def]
    # a printing no card names changes nothing but the catalogue's name for it
    other = library.catalogue("blue-starter", printing="1999")
    assert all(other.card(n).id == box.card(n).id for n in box.numbers())


# -- the content hash -------------------------------------------------------------------------


def test_the_hash_ignores_prose_but_not_play(tmp_path: Path) -> None:
    card = """[[card]]
id = "sword"
name = "Sword"
numbers = "1"
type = "run"
pink_box = true
weapon = {{ level = {level} }}
text = "{text}"
"""
    base = build(tmp_path, card.format(level=7, text="a sword")).content_hash
    reworded = build(tmp_path, card.format(level=7, text="a sharp sword")).content_hash
    stronger = build(tmp_path, card.format(level=8, text="a sword")).content_hash
    assert base == reworded
    assert base != stronger
    assert len(base) == 64


def test_the_header_fields_name_set_printing_and_hash(box) -> None:  # type: ignore[no-untyped-def]
    assert box.header_fields() == {"deck_set": "blue-starter", "printing": "current",
                                   "catalogue": box.content_hash}


# -- validation: the file, the card and the reason --------------------------------------------


@pytest.mark.parametrize(("card", "reason"), [
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\n'
     'effects = [{ do = "explode" }]', "Invalid value 'explode'"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\n'
     'effects = [{ do = "take_carrot", count = "two" }]', "Expected `int`"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\ncolour = "blue"',
     "unknown field `colour`"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "11"\ntype = "run"', "outside deck"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "3-1"\ntype = "run"', "runs backwards"),
    ('[[card]]\nid = "X Y"\nname = "X"\nnumbers = "1"\ntype = "run"', "lower-case words"),
    ('[[card]]\nid = "x"\nname = "X"\ntype = "run"', "needs numbers"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\n'
     'weapon = { level = 5, die = "red-d20" }', "not one of the set's dice"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\nweapon = { level = 5 }\n'
     'effects = [{ do = "attack", level = 6 }]', "weapon table says 5"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\n'
     'bunny = { colour = "pink", kind = "timid" }', "not one of the set's colours"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\n'
     'bunny = { colour = "blue" }', "needs a colour and a kind"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "money"', "needs money"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\nmoney = 3',
     "only a money card"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\neffects = [{ do = '
     '"roll_bands", die = "black-d12", bands = [{ faces = "1-6", then = [] }] }]',
     "cover faces 1-12"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\neffects = [{ do = '
     '"steal_carrot", pick = "by_roll" }]', "names its die"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "run"\neffects = [{ do = '
     '"attack", level = 5, area = { shape = "either_side", spaces = 0 } }]', "spaces of 1"),
    ('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\ntype = "cabbage"\nunits = 1\n'
     'weapon = { level = 2 }', "small card"),
])
def test_a_bad_card_is_refused_naming_file_card_and_reason(tmp_path: Path, card: str,
                                                            reason: str) -> None:
    with pytest.raises(CatalogueError) as err:
        build(tmp_path, card)
    assert reason in str(err.value)
    assert err.value.path.endswith("deck.toml")
    assert err.value.card in ("x", "X Y")


def test_two_cards_with_one_number_are_refused(tmp_path: Path) -> None:
    card = ('[[card]]\nid = "a"\nname = "A"\nnumbers = "1-2"\ntype = "run"\n'
            '[[card]]\nid = "b"\nname = "B"\nnumbers = "2"\ntype = "run"')
    with pytest.raises(CatalogueError, match="number 2 is already card 'a'"):
        build(tmp_path, card)


def test_an_id_used_twice_is_refused(tmp_path: Path) -> None:
    card = ('[[card]]\nid = "a"\nname = "A"\nnumbers = "1"\ntype = "run"\n'
            '[[card]]\nid = "a"\nname = "B"\nnumbers = "2"\ntype = "run"')
    with pytest.raises(CatalogueError, match="id already used"):
        build(tmp_path, card)


def test_broken_toml_and_a_missing_format_name_the_file(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.toml", "format = 1\n[deck\nid = 'x'\n")
    with pytest.raises(CatalogueError, match=r"bad\.toml: not valid TOML"):
        read_deck_file(bad)
    old = write(tmp_path, "old.toml", '[deck]\nid = "x"\ntitle = "x"\n')
    with pytest.raises(CatalogueError, match=r"old\.toml: format must be 1"):
        read_deck_file(old)
    with pytest.raises(CatalogueError, match="cannot read"):
        read_deck_file(tmp_path / "nowhere.toml")


def test_an_unknown_set_or_a_missing_deck_is_named(tmp_path: Path, library: DeckLibrary) -> None:
    with pytest.raises(CatalogueError, match="unknown deck set 'red'"):
        library.catalogue("red")
    write(tmp_path, "set.toml", SET_FILE.replace('decks = ["t"]', 'decks = ["t", "gone"]'))
    write(tmp_path, "deck.toml", one_card_deck('[[card]]\nid = "x"\nname = "X"\nnumbers = "1"\n'
                                              'type = "run"'))
    with pytest.raises(CatalogueError, match="deck 'gone' is not among"):
        DeckLibrary([tmp_path]).catalogue("test")


def test_numbers_parse() -> None:
    assert parse_numbers("16-20") == (16, 17, 18, 19, 20)
    assert parse_numbers("1001-1002, 1010") == (1001, 1002, 1010)
    for bad in ("", "a", "1-", "2,2", "5-3"):
        with pytest.raises(ValueError):
            parse_numbers(bad)


# -- a user's own deck: a booster with a house card -------------------------------------------


HOUSE_DECK = """format = 1
[deck]
id = "house"
title = "Our house cards"
numbers = "900-999"

[[card]]
id = "rubber-chicken"
name = "Rubber Chicken"
numbers = "900-901"
type = "run"
pink_box = true
weapon = { level = 3, die = "black-d12", tags = ["silly"] }
text = "A feeble weapon: the bunny lives on anything above 3."

[[card]]
id = "carrot-cake"
name = "Carrot Cake"
numbers = "902"
type = "special"
effects = [{ do = "take_carrot", count = 1, while_closed = false }, { do = "gain_money", amount = 2 }]
text = "Buy nothing, get a carrot and two Dolla; only while the market is open."
"""


def test_a_house_deck_joins_the_box_and_changes_the_hash(tmp_path: Path) -> None:
    write(tmp_path, "house.toml", HOUSE_DECK)
    lib = DeckLibrary([QUEST_CARDS, tmp_path])
    plain = lib.catalogue("blue-starter")
    mixed = lib.catalogue("blue-starter", extra_decks=["house"])
    assert mixed.set_name == "blue-starter+house"
    assert len(mixed.draw_pile()) == 155
    assert mixed.card(902).effects[0] == fx.TakeCarrot(count=1, while_closed=False)
    assert mixed.content_hash != plain.content_hash


def test_a_house_card_may_not_take_a_box_number(tmp_path: Path) -> None:
    write(tmp_path, "house.toml", HOUSE_DECK.replace('numbers = "900-999"', 'numbers = "1-999"')
          .replace('numbers = "902"', 'numbers = "44"'))
    lib = DeckLibrary([QUEST_CARDS, tmp_path])
    with pytest.raises(CatalogueError, match="number 44 is already card 'fluorine-gas'"):
        lib.catalogue("blue-starter", extra_decks=["house"])


# -- the format serves KinderBunnies and Odyssey ----------------------------------------------


KINDER = """format = 1
[set.kinder-beginner]
title = "KinderBunnies beginner game (sample)"
decks = ["sky-blue-sample"]
colours = ["blue", "green", "orange", "violet", "yellow"]
kinds = ["hero", "perky", "smart", "sporty"]
[set.kinder-beginner.dice]
violet-d10 = { sides = 10, colour = "violet", zero_is_ten = true }
orange-d10 = { sides = 10, colour = "orange", zero_is_ten = true }

[[x]]
"""

KINDER_DECK = """format = 1
[deck]
id = "sky-blue-sample"
title = "A few Sky Blue cards"
numbers = "1-55"

[[card]]
id = "blue-hero-bunny"
name = "Blue Hero Bunny"
numbers = "1"
type = "run"
bunny = { colour = "blue", kind = "hero" }

[[card]]
id = "pot-handle"
name = "Pot Handle - Safety Hazard 01"
numbers = "29"
type = "run"
pink_box = true
tags = ["safety-hazard"]
effects = [
  { do = "roll_matches", dice = ["violet-d10", "orange-d10"], number = 1, highest = 10, \
if_none = [{ do = "kill", target = "host" }] },
]

[[card]]
id = "bunny-buck-1"
name = "1 Bunny Buck"
numbers = "41-44"
type = "money"
money = 1

[[card]]
id = "carrot-a"
name = "Carrot A - Athena"
numbers = "50"
type = "carrot"
carrot = "A"
"""

ODYSSEY_DECK = """format = 1
[deck]
id = "violet-starter-sample"
title = "Odyssey definitions (sample)"
kind = "pool"

[[card]]
id = "technology"
name = "Technology"
type = "resource"
tags = ["resource-blue"]

[[card]]
id = "city-of-lights"
name = "City of Lights"
type = "run"
green_box = false
cost = { blue = 2, white = 3 }
points = 9
tags = ["city"]
effects = [{ do = "hook", name = "build_city" }]

[[card]]
id = "pitchfork"
name = "Pitchfork"
type = "run"
pink_box = true
cost = { white = 1 }
weapon = { level = 4, ground = true }
"""

ODYSSEY_SET = """format = 1
[set.odyssey-sample]
title = "Odyssey sample pool"
decks = ["violet-starter-sample"]
[set.odyssey-sample.dice]
black-d12 = { sides = 12 }
d6 = { sides = 6 }
"""


def test_the_format_holds_kinderbunnies_cards(tmp_path: Path) -> None:
    write(tmp_path, "set.toml", KINDER.replace("[[x]]\n", ""))
    write(tmp_path, "deck.toml", KINDER_DECK)
    cat = DeckLibrary([tmp_path]).catalogue("kinder-beginner")
    assert cat.dice["violet-d10"].zero_is_ten
    hazard = cat.card(29)
    assert hazard.pink_box and isinstance(hazard.effects[0], fx.RollMatches)
    assert cat.card(43).money == 1 and cat.card(50).carrot == "A"


def test_the_format_holds_odyssey_pool_cards(tmp_path: Path) -> None:
    write(tmp_path, "set.toml", ODYSSEY_SET)
    write(tmp_path, "deck.toml", ODYSSEY_DECK)
    cat = DeckLibrary([tmp_path]).catalogue("odyssey-sample")
    city = cat.by_id["city-of-lights"]
    assert city.cost == {"blue": 2, "white": 3} and city.points == 9
    assert city.numbers == () and cat.hooks() == {"build_city"}
    assert cat.by_id["pitchfork"].effects == (fx.Attack(level=4),)


def test_a_pool_card_with_numbers_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "set.toml", ODYSSEY_SET)
    write(tmp_path, "deck.toml", ODYSSEY_DECK.replace('type = "resource"',
                                                      'type = "resource"\nnumbers = "1"'))
    with pytest.raises(CatalogueError, match="pool deck"):
        DeckLibrary([tmp_path]).catalogue("odyssey-sample")
