"""A new primitive costs one file plus deck data, and one line per game that plays it: the
toy ``census`` (tests/games/killer/toy_census.py) is adopted by each Killer Bunnies game's
port (the line a game's ``port.ADOPTED`` would hold), named by a deck file of that game, and
played there through the game's own events, both ways (allowed and refused). The toy is
forgotten again after each test, so no other test sees it."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import DeckLibrary
from engine.killer.interpreter import Interpreter
from engine.rules import Effect, RuleViolation
from tests.games.killer.toy_census import Census


@contextmanager
def adopted(interp: Interpreter[Any, Any, Any], port: Any) -> Iterator[None]:
    interp.adopt(Census, port)
    try:
        yield
    finally:
        interp.forget(Census)
    assert "census" not in fx.VOCABULARY.kinds


def _census(effects: tuple[Effect, ...] | list[Effect]) -> dict[str, Any]:
    found = [e for e in effects if e.kind == "census"]
    assert len(found) == 1, [e.kind for e in effects]
    return dict(found[0].data)


# -- Quest ------------------------------------------------------------------------------------

TOY_DECK = """format = 1
[deck]
id = "toy"
title = "A toy card"
numbers = "950-950"

[[card]]
id = "census-taker"
name = "Census Taker"
numbers = "950"
type = "{type}"
effects = [{{ do = "census", at_least = 1 }}]
"""
"""The toy card in the family's deck-file format: a Special card in Quest (played from the
hand), a turn's card in KinderBunnies."""
QUEST_DECK = TOY_DECK.format(type="special")


@pytest.fixture
def quest(tmp_path: Path) -> Iterator[None]:
    from engine.killer_bunnies_quest import catalogue
    from engine.killer_bunnies_quest.catalogue import QUEST
    from engine.killer_bunnies_quest.port import PORT

    (tmp_path / "toy.toml").write_text(QUEST_DECK, encoding="utf-8")
    with adopted(QUEST, PORT), catalogue.SHELF.using([tmp_path]):
        yield


def test_quest_plays_the_toy_both_ways(quest: None) -> None:
    from engine.killer_bunnies_quest import RULESET
    from engine.killer_bunnies_quest.events import Play
    from tests.games.killer_bunnies_quest.helpers import (
        BLUE_CONGENIAL,
        GREEN_GLEEFUL,
        give,
        put,
        refuses,
    )
    from tests.scenarios.killer_bunnies_quest import Scenario

    g = Scenario(3, options={"extra_decks": ["toy"]})
    give(g, 950, 0)
    refuses(g, "KBQ-CARD-CUSTOM", Play, 0, card=950, player=1)  # no bunny of his own yet
    put(g, BLUE_CONGENIAL, "circle", 0)
    put(g, GREEN_GLEEFUL, "circle", 1)
    refuses(g, "KBQ-CARD-CUSTOM", Play, 0, card=950)  # nobody named
    refuses(g, "KBQ-CARD-CUSTOM", Play, 0, card=950, player=0)  # himself
    refuses(g, "KBQ-CARD-CUSTOM", Play, 0, card=950, player=1, on=BLUE_CONGENIAL)  # not a choice
    offered = [e for e in RULESET.legal_actions(g.state, 0) if isinstance(e, Play) and e.card == 950]
    assert sorted(e.player for e in offered) == [1, 2]  # the toy's options, checked
    said = _census(g.play(0, 950, player=1))
    assert said == {"seat": 0, "player": 1, "count": 1}
    assert 950 in g.state.discard and 950 not in g.state.seats[0].hand


def test_a_position_waiting_with_the_toy_is_stored_and_read_back(quest: None) -> None:
    from engine.killer_bunnies_quest import RULESET
    from engine.killer_bunnies_quest.state import Ctx, Effects
    from tests.scenarios.killer_bunnies_quest import Scenario

    g = Scenario(3, options={"extra_decks": ["toy"]})
    g.state.stack.append(Effects(ctx=Ctx(card=950, by=0, origin="hand"), todo=[Census(at_least=2)]))
    codec = RULESET.codec
    back = codec.decode(codec.encode(g.state))
    assert back.stack[-1].todo == [Census(at_least=2)] and codec.equal(back, g.state)


def test_a_deck_naming_a_primitive_no_game_adopted_is_refused(tmp_path: Path) -> None:
    from engine.killer.catalogue.loader import read_deck_file

    (tmp_path / "toy.toml").write_text(QUEST_DECK, encoding="utf-8")
    with pytest.raises(Exception, match=r"census.*\$\.effects\[0\]\.do"):
        read_deck_file(tmp_path / "toy.toml")


# -- KinderBunnies ----------------------------------------------------------------------------

KINDER_DECK = TOY_DECK.format(type="run")


@pytest.fixture
def kinder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from engine.kinderbunnies.cards import KINDER
    from engine.kinderbunnies.port import PORT

    # the package's names ``catalogue`` and ``cards`` are functions: the modules by their path
    catalogue = importlib.import_module("engine.kinderbunnies.catalogue")
    kinder_cards = importlib.import_module("engine.kinderbunnies.cards")
    (tmp_path / "toy.toml").write_text(KINDER_DECK, encoding="utf-8")
    with adopted(KINDER, PORT):
        with_toy = catalogue.one_effect_each(DeckLibrary([catalogue.CARDS_DIR, tmp_path]).catalogue(
            catalogue.SET, extra_decks=["toy"]))
        catalogue.cards_for.cache_clear()
        for where in (catalogue, importlib.import_module("engine.kinderbunnies")):
            monkeypatch.setattr(where, "catalogue", lambda: with_toy)
        monkeypatch.setattr(kinder_cards, "_RULES", {})
        try:
            yield
        finally:
            catalogue.cards_for.cache_clear()


def test_kinderbunnies_plays_the_toy_both_ways(kinder: None) -> None:
    from engine.kinderbunnies import RULESET
    from engine.kinderbunnies.events import Play
    from engine.kinderbunnies.table import cards
    from tests.scenarios.kinderbunnies import deal, header

    head = header("toy", players=2, options={"level": "beginner"})
    state = RULESET.setup(head)
    deal(state, [[17, 18, 19, 20], [21, 22, 23, 24]])
    seat = state.active
    assert seat is not None
    other = 1 - seat
    bunnies = sorted(cards(state).bunnies)  # put on the table by hand below: the census counts them
    state.hands[seat].append(950)

    def play(**fields: Any) -> tuple[Effect, ...]:
        return RULESET.apply(state, Play(seq=state.seq + 1, actor=seat, card=950, **fields))

    with pytest.raises(RuleViolation, match="needs 1 bunnies"):
        play(player=other)  # no bunny of his own yet
    state.table[seat].append(bunnies[0])
    state.table[other].extend(bunnies[1:3])
    with pytest.raises(RuleViolation, match="names a player"):
        play()
    with pytest.raises(RuleViolation, match="another player"):
        play(player=seat)
    with pytest.raises(RuleViolation):
        play(player=other, on=bunnies[1])  # a choice the census does not take
    offered = [e for e in RULESET.legal_actions(state, seat) if isinstance(e, Play) and e.card == 950]
    assert [e.player for e in offered] == [other]  # the toy's options, checked
    said = _census(play(player=other))
    assert said == {"seat": seat, "player": other, "count": 2}
    assert 950 in state.discard and 950 not in state.hands[seat]


# -- Odyssey ----------------------------------------------------------------------------------

ODYSSEY_DECK = """format = 1
[deck]
id = "toy"
title = "A toy card in a deck of Technology and bunnies"
kind = "personal"

[[card]]
id = "tx-census-taker"
code = "TX01"
copies = 2
name = "Census Taker"
type = "very_special"
effects = [{ do = "census", at_least = 1 }]

[[list]]
card = "WB01"
copies = 40

[[list]]
card = "WB03"
copies = 18
"""


@pytest.fixture
def odyssey(tmp_path: Path) -> Iterator[None]:
    from engine.killer_bunnies_odyssey.cards import ODYSSEY
    from engine.killer_bunnies_odyssey.library import SHELF
    from engine.killer_bunnies_odyssey.port import PORT

    (tmp_path / "toy.toml").write_text(ODYSSEY_DECK, encoding="utf-8")
    with adopted(ODYSSEY, PORT), SHELF.using([tmp_path]):
        yield


def test_odyssey_plays_the_toy_both_ways(odyssey: None) -> None:
    from engine.killer_bunnies_odyssey import RULESET
    from engine.killer_bunnies_odyssey.cards import place_creature
    from engine.killer_bunnies_odyssey.events import Play
    from engine.killer_bunnies_odyssey.table import cards, new_piece
    from tests.scenarios.killer_bunnies_odyssey import Scenario

    sc = Scenario(["Ada", "Bo"], ["toy", "blue"], game_id="odyssey-toy")
    sc.setup(hands=[["TX01", "WB01", "WB01", "WB01", "WB01", "WB01", "WB01"],
                    ["WB01", "WB01", "WB01", "WB01", "WB01", "WB01", "WB01"]],
             runs=[("WB01", "WB01"), ("WB01", "WB01")])
    state = sc.state
    t = cards(state)

    def play(**choices: Any) -> list[Any]:
        return sc.act({"type": "play", "actor": 0, "card": "TX01", **choices})

    with pytest.raises(RuleViolation, match="needs 1 bunnies"):
        play(opponent=1)  # no bunny of his own yet
    bunny = next(k for k in range(1, len(t.codes)) if t.code(k) == "WB03")
    for seat, count in ((0, 1), (1, 2)):
        for _ in range(count):
            place_creature(state, new_piece(state, bunny, seat, "limbo"), None, None)
    with pytest.raises(RuleViolation, match="names a player"):
        play()
    with pytest.raises(RuleViolation, match="another player"):
        play(opponent=0)
    with pytest.raises(RuleViolation, match="asks for no target"):
        play(opponent=1, target=max(state.pieces))  # a choice the census does not take
    offered = [e for e in RULESET.legal_actions(state, 0) if isinstance(e, Play) and e.card == "TX01"]
    assert [e.opponent for e in offered] == [1]  # the toy's options, checked
    said = _census(play(opponent=1))
    assert said == {"seat": 0, "player": 1, "count": 2}
    assert t.code(state.seats[0].discard[-1]) == "TX01"


def test_an_adopted_primitive_nests_in_a_roll_s_outcome(quest: None) -> None:
    roll = fx.VOCABULARY.decode({"do": "roll_bands", "die": "black-d12", "bands": [
        {"faces": "1-6", "then": [{"do": "census", "at_least": 2}]},
        {"faces": "7-12", "then": [{"do": "revive"}]}]})
    assert isinstance(roll, fx.RollBands) and roll.nested() == [Census(at_least=2), fx.Revive()]


def test_a_primitive_that_says_nothing_of_what_it_does_is_refused_when_adopted() -> None:
    from engine.killer.primitive import Primitive
    from engine.killer_bunnies_quest.catalogue import QUEST
    from engine.killer_bunnies_quest.port import PORT

    class Mute(Primitive, tag="mute", frozen=True, kw_only=True):
        """Does nothing it could say."""

    with pytest.raises(TypeError, match="Mute says nothing of what it does"):
        QUEST.adopt(Mute, PORT)
    assert "mute" not in fx.VOCABULARY.kinds and Mute not in QUEST.checks
