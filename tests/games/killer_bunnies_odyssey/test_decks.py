"""warren's own starter decks for Odyssey, the deck library, and the decks a record names.

The six decks are warren's invention (docs/odyssey-decks.md); these tests hold them to what
the docs promise: sixty cards each, one Resource colour each (Blue is Technology), and every
class of card the rulebook speaks of, so that every rule is reachable in play."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.library import DECKS_DIR, SHELF, library, table_for
from engine.killer_bunnies_odyssey.numbers import DECK_MAXIMUM, RESOURCE_NAMES, STARTER_DECKS
from engine.killer_bunnies_odyssey.options import OdysseyOptions
from engine.record import FORMAT_VERSION, Header, Player
from engine.rules import WarrenError

STARTERS = {p.stem: tomllib.loads(p.read_text()) for p in sorted(DECKS_DIR.glob("*.toml"))
            if p.stem != "sets"}


def test_six_starter_decks_of_sixty_cards_one_per_resource_colour() -> None:
    lib = library()
    assert sorted(STARTERS) == sorted(STARTER_DECKS)
    colours = set()
    for name in STARTER_DECKS:
        deck = lib.decks[name]
        assert deck.size == 60, name
        resources = Counter()
        for code, n in deck.cards.items():
            card = lib.by_code[code]
            if card.type == "resource":
                resources[card.resource] += n
        main, _ = resources.most_common(1)[0]
        assert main == name and len(resources) == 2, "its own colour and a second one"
        colours.add(main)
    assert colours == set(RESOURCE_NAMES) and RESOURCE_NAMES["blue"] == "Technology"


def test_every_deck_says_its_cards_are_warrens_invention() -> None:
    for path in DECKS_DIR.glob("*.toml"):
        head = path.read_text().splitlines()[:8]
        assert any("warren" in line for line in head), path
    for name, data in STARTERS.items():
        assert "not the publisher" in data["deck"]["source"], name
        for card in data["card"]:
            assert card["source"].startswith("warren's own card"), card["id"]
            assert card["code"].startswith("W"), "warren's codes begin with W, not the real A"


@pytest.mark.parametrize("name", STARTER_DECKS)
def test_every_deck_holds_every_class_of_card(name: str) -> None:
    lib = library()
    cards = [lib.by_code[code] for code in lib.decks[name].cards]
    kinds = Counter()
    for c in cards:
        if c.creature is not None:
            kinds["bunny" if c.creature.is_bunny else "other creature"] += 1
        if c.city is not None:
            kinds["city"] += 1
        if c.weapon is not None:
            kinds["ground weapon" if c.weapon.ground else "city weapon"] += 1
        if c.feed is not None:
            kinds["feed the bunny"] += 1
        if c.modifier is not None:
            kinds["modifier"] += 1
        kinds[c.type] += 1
        if c.pink_box:
            kinds["pink box"] += 1
        if c.green_box:
            kinds["green box"] += 1
        if c.cost.get("white"):
            kinds["white hexagon"] += 1
        if any(k != "white" for k in c.cost):
            kinds["coloured hexagon"] += 1
    for wanted in ("resource", "bunny", "other creature", "city", "ground weapon", "city weapon",
                   "feed the bunny", "modifier", "special", "very_special", "pink box",
                   "green box", "white hexagon", "coloured hexagon"):
        assert kinds[wanted] > 0, f"{name} has no {wanted}"


def test_the_six_decks_reach_every_primitive_odyssey_plays() -> None:
    from engine.killer_bunnies_odyssey.cards import ODYSSEY

    lib = library()
    used = {type(e) for name in STARTER_DECKS for code in lib.decks[name].cards
            for e in fx.walk(list(lib.by_code[code].effects))}
    assert ODYSSEY.plays() <= used


def test_a_new_record_carries_each_deck_list_and_its_hash() -> None:
    options = RULESET.record_options({"decks": ["blue", "violet"]})
    assert set(options["deck_lists"]) == {"blue", "violet"}
    assert sum(options["deck_lists"]["blue"].values()) == 60
    assert options["deck_hashes"]["violet"] == library().decks["violet"].content_hash
    json.dumps(options)  # JSON in the header


def _header(options: dict[str, object], n: int = 2) -> Header:
    return Header(warren=FORMAT_VERSION, kind="header", game_id="g", ruleset=RULESET.slug,
                  options=options, players=[Player(seat=i, name=f"p{i}") for i in range(n)],
                  source="simulated", created="2026-01-01T00:00:00Z")


def test_a_record_is_not_replayed_under_other_cards() -> None:
    options = RULESET.record_options({"decks": ["blue", "green"]})
    RULESET.check_header(_header(options))
    changed = json.loads(json.dumps(options))
    changed["deck_lists"]["blue"]["WB01"] = 15
    changed["deck_lists"]["blue"]["WB03"] = 3
    with pytest.raises(WarrenError, match="ODY-DECK-2"):
        RULESET.check_header(_header(changed))
    changed = json.loads(json.dumps(options))
    changed["deck_hashes"]["green"] = "0" * 64
    with pytest.raises(WarrenError, match="not replayed under other cards"):
        RULESET.check_header(_header(changed))


def test_a_deck_below_sixty_or_unknown_is_refused() -> None:
    small = {"decks": ["mine"], "deck_lists": {"mine": {"WB01": 30, "WB03": 2}}}
    with pytest.raises(WarrenError, match="ODY-DECK-1: deck 'mine' holds 32 cards"):
        RULESET.check_header(_header(small))
    with pytest.raises(WarrenError, match="no personal deck 'nope'"):
        RULESET.check_header(_header({"decks": ["nope"]}))
    with pytest.raises(WarrenError, match="ZZ01, which no deck file"):
        RULESET.check_header(_header({"decks": ["x"], "deck_lists": {"x": {"WB01": 59, "ZZ01": 1}}}))


def test_a_deck_of_up_to_three_hundred_cards_is_read_and_a_larger_one_refused() -> None:
    # R-ODY-4: the rulebook sets no maximum; warren reads at most DECK_MAXIMUM cards a deck.
    blue = library().decks["blue"].cards
    five = {code: 5 * n for code, n in blue.items()}
    assert sum(five.values()) == DECK_MAXIMUM
    RULESET.check_header(_header({"decks": ["big"], "deck_lists": {"big": five}}))
    six = {code: 6 * n for code, n in blue.items()}
    with pytest.raises(WarrenError, match="ODY-DECK-1: deck 'big' holds 360 cards; warren reads a "
                                          "deck of at most 300"):
        RULESET.check_header(_header({"decks": ["big"], "deck_lists": {"big": six}}))


@pytest.mark.parametrize(("name", "value", "said"), [
    ("decks", [], "decks must be 1 to 6 values"),
    ("decks", ["blue"] * 7, "decks must be 1 to 6 values"),
    ("decks", ["x" * 65], "decks must be 1 to 6 values"),
    ("deck_lists", {"mine": {"WB01": 301}}, "deck_lists must be 0 to 6 values"),
    ("deck_lists", {"mine": {"WB01": 0}}, "deck_lists must be 0 to 6 values"),
    ("deck_lists", {"mine": {"WB001": 60}}, r"Expected `str` of length <= 4 - at `key` in `\$\.deck_lists"),
    ("deck_hashes", {"blue": "0" * 65}, "deck_hashes must be 0 to 6 values"),
])
def test_deck_options_outside_their_bounds_are_refused(name: str, value: object, said: str) -> None:
    # engine.options: each option bounded on its type (a card code is four characters)
    with pytest.raises(WarrenError, match=f"bad option for killer-bunnies-odyssey: {said}"):
        RULESET.check_header(_header({name: value}))


def test_a_deck_list_in_the_header_mixes_starter_cards() -> None:
    lib = library()
    mixed = {**{c: n for c, n in lib.decks["blue"].cards.items() if c != "WB20"},
             "WG20": 2, "WG27": 2}
    opts = RULESET.record_options({"decks": ["mixed", "green"], "deck_lists": {"mixed": mixed}})
    header = _header(opts)
    RULESET.check_header(header)
    table = table_for(msgspec.convert(opts, OdysseyOptions))
    assert table.deck_of(0) == "mixed" and "WG27" in {table.code(k) for k in table.seat_cards(0)}


def test_a_tables_own_deck_folder_joins_the_library(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "house.toml").write_text(
        'format = 1\n[deck]\nid = "house"\ntitle = "a house deck"\nkind = "personal"\n\n'
        '[[card]]\nid = "hx-giant-bunny"\ncode = "HX01"\ncopies = 2\nname = "Giant Bunny"\n'
        'type = "run"\ncost = { blue = 4 }\npoints = 7\ncreature = { species = "bunny" }\n\n'
        '[[list]]\ncard = "WB01"\ncopies = 20\n\n[[list]]\ncard = "WB03"\ncopies = 2\n\n'
        '[[list]]\ncard = "WB04"\ncopies = 2\n\n[[list]]\ncard = "WB14"\ncopies = 2\n\n'
        '[[list]]\ncard = "WB27"\ncopies = 2\n\n[[list]]\ncard = "WB09"\ncopies = 2\n\n'
        '[[list]]\ncard = "WG01"\ncopies = 28\n')
    with SHELF.using([folder]) as library:  # the folder joins the library for this test only
        deck = library.decks["house"]
        assert deck.size == 60 and deck.cards["HX01"] == 2
        from engine.simulate import simulate_one

        game = simulate_one(RULESET, 1, 0, players=2, options={"decks": ["house", "blue"]})
        assert game.header.options["deck_lists"]["house"]["HX01"] == 2
        from engine.reader import check_events

        assert check_events(RULESET, game.header, game.events) is None
    assert "house" not in SHELF.library().decks


def test_the_decks_page_lists_every_card_and_says_whose_they_are() -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "odyssey-decks.md").read_text()
    assert "is warren's\ninvention" in page and "None is a card of the publisher" in page
    for data in STARTERS.values():
        for card in data["card"]:
            assert f"| {card['code']} | {card['copies']} | {card['name']} |" in page, card["code"]
