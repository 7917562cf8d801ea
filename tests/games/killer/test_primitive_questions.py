"""A game asks a card's primitive what it does; it never tests the primitive's type.

What a game wants to know of a primitive (the dice it rolls, the carrots it takes, what it
cancels, whether it acts on the bunny its card sits on) is the primitive's own answer; what a
game does per kind is a table of its interpreter keyed by the kind (its checks, applies,
choices, and how a kind's choices or its deck-file problems depend on its own fields). The
kit's lookups (``fx.first``, ``fx.every``, ``fx.expect``) find a card's primitive of one
kind. The first test holds the three Killer Bunnies packages to that by reading their source.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, cast

import pytest

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_odyssey.cards import ODYSSEY, check_supported
from engine.killer_bunnies_quest.cards import takes_of
from engine.rules import WarrenError

ENGINE = Path(__file__).resolve().parents[3] / "engine"
GAMES = ("killer_bunnies_quest", "kinderbunnies", "killer_bunnies_odyssey")


def _names_a_primitive(node: ast.expr) -> bool:
    """``fx.Something`` (or a tuple or union of them)."""
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "fx"
               and n.attr[:1].isupper() for n in ast.walk(node))


def _type_tests(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        # isinstance(x, fx.Kind) / issubclass(k, fx.Kind)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2 \
                and _names_a_primitive(node.args[1]):
            found.append(f"{path.name}:{node.lineno}")
        # type(x) is fx.Kind / type(x) == fx.Kind
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) \
                and isinstance(node.left.func, ast.Name) and node.left.func.id == "type" \
                and any(isinstance(op, ast.Is | ast.IsNot | ast.Eq | ast.NotEq) for op in node.ops) \
                and any(_names_a_primitive(c) for c in node.comparators):
            found.append(f"{path.name}:{node.lineno}")
        # match effect: case fx.Kind(): ...
        if isinstance(node, ast.MatchClass) and _names_a_primitive(node.cls):
            found.append(f"{path.name}:{node.lineno}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_game_package_tests_a_primitive_s_type(game: str) -> None:
    found = [t for path in sorted((ENGINE / game).glob("*.py")) for t in _type_tests(path)]
    assert found == [], f"{game} tests a primitive's type at {found}: ask the primitive, or " \
                        "key a table of the game's interpreter by the kind"


def test_the_scan_finds_each_shape_of_type_test(tmp_path: Path) -> None:
    # the scan above must be able to fail: each shape it looks for is found
    src = tmp_path / "shapes.py"
    src.write_text("isinstance(e, fx.Cancel)\nisinstance(e, fx.Attack | fx.Raze)\n"
                   "type(e) is fx.Hook\nmatch e:\n    case fx.Roam():\n        pass\n"
                   "isinstance(e, Play)\ntype(e) in ROLLING\n")
    assert _type_tests(src) == ["shapes.py:1", "shapes.py:2", "shapes.py:3", "shapes.py:5"]


def test_the_kit_looks_a_card_s_primitive_of_one_kind_up() -> None:
    effects: list[fx.CardEffect | None] = [fx.TakeCarrot(count=2), None, fx.Cancel(what=["a"]),
                                           fx.Cancel(what=["b"], only_own=True)]
    first = fx.first(effects, fx.Cancel)
    assert first is not None and first.what == ["a"]
    assert fx.first(effects, fx.Dormant) is None
    assert [c.what for c in fx.every(effects, fx.Cancel)] == [["a"], ["b"]]
    assert fx.every(effects, fx.Hook) == []
    assert fx.expect(effects[0], fx.TakeCarrot).count == 2
    with pytest.raises(TypeError, match="expected a Cancel effect"):
        fx.expect(effects[0], fx.Cancel)
    with pytest.raises(TypeError, match="expected a Roam effect"):
        fx.expect(None, fx.Roam)


def test_a_primitive_answers_what_a_game_asks_of_it() -> None:
    assert fx.TakeCarrot(count=3).carrots_taken() == 3
    assert fx.StealCarrot().carrots_taken() == 0
    assert fx.Cancel(what=["bad-news"]).cancels("bad-news")
    assert not fx.Cancel(what=["bad-news"]).cancels("safety-hazard")
    assert not fx.SkipTurn().cancels("bad-news")
    assert fx.Abduct().answered_as == "abduction" and fx.Abduct.aims_at_host
    assert fx.LoseSupply.answered_as == "" and not fx.LoseSupply.aims_at_host
    bands = fx.RollBands(die="d6", bands=[fx.Band(faces="1-6", then=[])])
    assert bands.dice_named() == ["d6"]
    assert fx.RollMatches(dice=["a", "b"], number=6).dice_named() == ["a", "b"]


def test_a_kind_s_choices_may_depend_on_its_own_fields() -> None:
    # Quest: a dice card put on a bunny first names that bunny; without a target it does not
    assert "on" in takes_of(fx.RollMatches(dice=["d"], number=6, target="any_bunny"))
    assert "on" not in takes_of(fx.RollMatches(dice=["d"], number=6))
    # Odyssey: a Civ change aimed at an opponent names him; the player's own names nobody
    assert ODYSSEY.takes_of(fx.GainCiv(amount=-2, target="opponent"))
    assert ODYSSEY.takes_of(fx.GainCiv(amount=2)) == frozenset()


class _Cards:
    """The little of an Odyssey table check_supported reads: codes and effects per kind."""

    def __init__(self, *cards: tuple[str, list[fx.AnyEffect]]) -> None:
        self.codes = ("?", *(code for code, _ in cards))
        self.effects = [(), *(tuple(effects) for _, effects in cards)]

    def code(self, kind: int) -> str:
        return self.codes[kind]


def _supported(*effects: fx.AnyEffect) -> None:
    check_supported(cast(Any, _Cards(("WX01", list(effects)))))


def test_odyssey_vets_what_it_cannot_play_when_a_deck_loads() -> None:
    own_civ = fx.RollBands(die="d6", bands=[fx.Band(faces="1-3", then=[fx.GainCiv(amount=1)]),
                                            fx.Band(faces="4-6", then=[])])
    _supported(fx.GainCiv(amount=1), own_civ)  # allowed: the roll last, its bands own Civ
    _supported(fx.Attack(level=3, die="d12"))
    with pytest.raises(WarrenError, match="WX01 rolls dice before its last effect"):
        _supported(own_civ, fx.GainCiv(amount=1))
    aimed = fx.RollBands(die="d6", bands=[fx.Band(faces="1-6",
                                                  then=[fx.GainCiv(amount=-1, target="opponent")])])
    with pytest.raises(WarrenError, match="WX01 has a band that does more than change Civ"):
        _supported(aimed)
    other = fx.RollBands(die="d6", bands=[fx.Band(faces="1-6", then=[fx.SkipTurn()])])
    with pytest.raises(WarrenError, match="effect 'skip_turn'"):  # not Odyssey's at all
        _supported(other)
    with pytest.raises(WarrenError, match="WX01 rolls 'black-d12', not a die of the set"):
        _supported(fx.Attack(level=3))
    with pytest.raises(WarrenError, match="WX01 asks for one choice twice"):
        _supported(fx.GainCiv(amount=-1, target="opponent"), fx.GainCiv(amount=-2, target="opponent"))
