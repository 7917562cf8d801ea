"""Odyssey's own pieces and the kit's it added: personal deck files
(engine.killer_bunnies_odyssey.personal), cuts of a draw pile (the kit's piles), a count
kept on a die (civ), payments a record names (costs), and the catalogue's Odyssey fields.
Each is shown allowing and refusing."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.killer import piles
from engine.killer.catalogue.loader import CatalogueError, DeckLibrary
from engine.killer.refusal import Refusal
from engine.killer_bunnies_odyssey import civ, costs
from engine.killer_bunnies_odyssey.personal import DeckError, read_personal_deck

SET = """format = 1
[set.mini]
title = "a small set"
decks = ["base"]
colours = ["blue", "green"]
[set.mini.dice]
d12 = { sides = 12 }
"""

BASE = """format = 1
[deck]
id = "base"
title = "base cards"
kind = "personal"

[[card]]
id = "tech"
code = "TB01"
copies = 8
name = "Technology"
type = "resource"
resource = "blue"

[[card]]
id = "bun"
code = "TB02"
copies = 2
name = "A Bunny"
type = "run"
cost = { blue = 1, white = 1 }
points = 2
creature = { species = "bunny" }

[[card]]
id = "hamlet"
code = "TB03"
copies = 2
name = "A Hamlet"
type = "run"
cost = { blue = 2 }
points = 4
city = { capacity = 1 }

[[card]]
id = "zap"
code = "TB04"
copies = 2
name = "A Zap"
type = "run"
pink_box = true
weapon = { level = 3, die = "d12" }

[[card]]
id = "siege"
code = "TB05"
copies = 1
name = "A Siege"
type = "run"
pink_box = true
green_box = true
weapon = { level = 6, die = "d12", ground = false }
"""


def _library(tmp: Path) -> DeckLibrary:
    (tmp / "set.toml").write_text(SET)
    (tmp / "base.toml").write_text(BASE)
    return DeckLibrary([tmp])


def test_a_personal_deck_resolves_codes_creatures_cities_and_weapons(tmp_path: Path) -> None:
    from engine.killer.catalogue import effects as fx

    cat = _library(tmp_path).catalogue("mini")
    assert set(cat.by_code) == {"TB01", "TB02", "TB03", "TB04", "TB05"}
    assert cat.by_code["TB01"].resource == "blue" and cat.by_code["TB01"].copies == 8
    assert cat.by_code["TB02"].creature is not None and cat.by_code["TB02"].effects == (fx.EnterCircle(),)
    assert cat.by_code["TB03"].city is not None and cat.by_code["TB03"].effects == (fx.Build(),)
    assert isinstance(cat.by_code["TB04"].effects[0], fx.Attack)
    assert cat.by_code["TB05"].effects == (fx.Raze(level=6, die="d12"),)


@pytest.mark.parametrize(("change", "reason"), [
    (('code = "TB02"', 'code = "T2"'), "Card Identification Number"),
    (("copies = 2\nname = \"A Bunny\"", "name = \"A Bunny\""), "copies"),
    (('resource = "blue"', 'resource = "pink"'), "not one of the set's colours"),
    (("cost = { blue = 1, white = 1 }", "cost = { red = 1 }"), "neither white"),
    (("points = 4\ncity", "city"), "a creature or a city has points"),
    (('code = "TB03"', 'code = "TB02"'), "code TB02 is already card"),
])
def test_the_loader_refuses_bad_odyssey_fields(tmp_path: Path, change: tuple[str, str], reason: str) -> None:
    (tmp_path / "set.toml").write_text(SET)
    assert change[0] in BASE
    (tmp_path / "base.toml").write_text(BASE.replace(change[0], change[1], 1))
    with pytest.raises(CatalogueError, match=reason):
        DeckLibrary([tmp_path]).catalogue("mini")


def _known(tmp: Path):  # type: ignore[no-untyped-def]
    cat = _library(tmp).catalogue("mini")

    def find(name: str):  # type: ignore[no-untyped-def]
        return cat.by_code.get(name) or cat.by_id.get(name)
    return cat, find


def test_a_deck_built_from_cards_of_the_library_checks_with_its_hash(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _, find = _known(lib)
    mine = tmp_path / "mine.toml"
    mine.write_text('format = 1\n[deck]\nid = "mine"\ntitle = "mine"\nkind = "personal"\n\n'
                    '[[list]]\ncard = "TB01"\ncopies = 6\n\n[[list]]\ncard = "bun"\ncopies = 4\n')
    deck, own = read_personal_deck(mine, "mini", _entry(lib), find, minimum=10)
    assert deck.cards == {"TB01": 6, "TB02": 4} and deck.size == 10 and own == {}
    again, _ = read_personal_deck(mine, "mini", _entry(lib), find, minimum=10)
    assert again.content_hash == deck.content_hash
    mine.write_text(mine.read_text().replace("copies = 4", "copies = 5"))
    changed, _ = read_personal_deck(mine, "mini", _entry(lib), find, minimum=10)
    assert changed.content_hash != deck.content_hash


def _entry(lib: Path):  # type: ignore[no-untyped-def]
    return DeckLibrary([lib]).sets["mini"][1]


@pytest.mark.parametrize(("text", "line", "reason"), [
    ('format = 1\n[deck]\nid = "m"\ntitle = "m"\nkind = "personal"\n\n[[list]]\ncard = "TB01"\ncopies = 3\n',
     2, "holds 3 cards; a deck holds at least 10"),
    ('format = 1\n[deck]\nid = "m"\ntitle = "m"\nkind = "personal"\n\n[[list]]\ncard = "TB01"\ncopies = 8\n\n'
     '[[list]]\ncard = "ZZ99"\ncopies = 2\n', 12, "unknown card 'ZZ99'"),
    ('format = 1\n[deck]\nid = "m"\ntitle = "m"\nkind = "personal"\n\n[[card]]\nid = "x"\ncode = "XX01"\n'
     'copies = 10\nname = "X"\ntype = "run"\npoints = "two"\ncreature = {}\n', 13, "$.points"),
    ('format = 1\n[deck\n', 2, "not valid TOML"),
    ('format = 1\n[deck]\nid = "m"\ntitle = "m"\nkind = "pool"\n', 5, 'kind = "personal"'),
])
def test_a_bad_deck_file_is_refused_with_file_line_and_reason(tmp_path: Path, text: str, line: int,
                                                              reason: str) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _, find = _known(lib)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(DeckError) as err:
        read_personal_deck(path, "mini", _entry(lib), find, minimum=10)
    assert err.value.path == str(path) and err.value.line == line
    assert reason in err.value.reason
    assert str(err.value).startswith(f"{path}:{line}: ")


def test_a_deck_may_not_redefine_a_code_of_the_library(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _, find = _known(lib)
    path = tmp_path / "clash.toml"
    path.write_text('format = 1\n[deck]\nid = "clash"\ntitle = "c"\nkind = "personal"\n\n[[card]]\n'
                    'id = "other-tech"\ncode = "TB02"\ncopies = 10\nname = "Not a bunny"\n'
                    'type = "resource"\nresource = "green"\n')
    with pytest.raises(DeckError, match="code TB02 is already card 'bun'") as err:
        read_personal_deck(path, "mini", _entry(lib), find, minimum=10)
    assert err.value.line == 7


# -- cuts, counts, payments ------------------------------------------------------------------------


def test_a_cut_keeps_five_cards_a_side_unless_the_pile_is_small() -> None:
    assert piles.cut_range(60) == range(5, 56)
    piles.check_cut(60, 5)
    piles.check_cut(60, 55)
    for bad in (4, 56, 0):
        with pytest.raises(Refusal) as err:
            piles.check_cut(60, bad)
        assert err.value.code == "piles.bad_cut"
    piles.check_cut(9, 0)
    piles.check_cut(9, 9)
    pile = [1, 2, 3, 4, 5, 6, 7]
    piles.cut(pile, 2)
    assert pile == [6, 7, 1, 2, 3, 4, 5]


def test_a_count_on_a_die_keeps_to_its_faces() -> None:
    die = civ.DieCounter()
    assert die.add(18, 5) == (20, 3)
    assert die.add(3, -5) == (1, -3)
    assert die.add(10, 2) == (12, 0)
    assert civ.OPEN.add(3, -5) == (-2, 0)
    assert civ.reached([59, 61, 61], 60) == [1, 2] and civ.reached([10, 59], 60) == []


def test_a_named_payment_pays_the_cost_exactly() -> None:
    cost = {"blue": 1, "white": 2}
    costs.check_payment(cost, {"blue": 2, "green": 1}, {"blue": 2, "green": 1})
    for paid, code in (({"green": 3}, "cost.short"), ({"blue": 3}, "cost.short"),
                       ({"green": 1, "blue": 1}, "cost.bad_payment"),
                       ({"blue": 1, "green": 1}, "cost.bad_payment")):
        with pytest.raises(Refusal) as err:
            costs.check_payment(cost, {"blue": 2, "green": 1}, paid)
        assert err.value.code == code
