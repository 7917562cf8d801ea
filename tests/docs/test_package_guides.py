"""Each game package's docstring reads like the rulebook: a guide that names every module of
the package, once, and no module that is not there; the family kit's list of modules the
same. Docstrings drifted: they named modules renamed away (``core``, ``legal``, ``play``,
``resolve``) and left new ones out."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GAMES = ["bunnies", "killer_bunnies_quest", "kinderbunnies", "trust_no_bunny", "killer_bunnies_odyssey"]


def _modules(package: Path) -> set[str]:
    """The package's modules and subpackages of code (a folder of data is not one)."""
    found = {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    found |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    return found


def _doc(package: Path) -> str:
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    assert doc, f"{package.name} has no docstring"
    return doc


def _outside_brackets(text: str) -> str:
    depth, out = 0, []
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return "".join(out)


def guide(package: Path) -> list[str]:
    """The modules the "Read it like the rulebook" sentence names, in its order."""
    found = re.search(r"Read it like the rulebook: (.*?)\.\s*(?:\n\n|$)", _doc(package), re.S)
    assert found, f"{package.name}'s docstring has no reading guide"
    words = re.split(r",|\band\b", _outside_brackets(" ".join(found[1].split())))
    return [w.strip() for w in words if w.strip()]


@pytest.mark.parametrize("game", GAMES)
def test_a_game_s_reading_guide_names_each_of_its_modules_once(game: str) -> None:
    package = ENGINE / game
    named = guide(package)
    assert len(named) == len(set(named)), f"named twice: {sorted({n for n in named if named.count(n) > 1})}"
    assert set(named) == _modules(package), (
        f"not modules of {game}: {sorted(set(named) - _modules(package))}; "
        f"left out: {sorted(_modules(package) - set(named))}")


SKELETON = {"events", "state", "options", "rulebook", "numbers", "agenda", "handlers", "views",
            "words", "render", "bots"}
"""The modules every game has (docs/design.md, One skeleton per game)."""
ROLES = {"table", "cards", "port", "catalogue", "library", "unknowns", "chance", "worlds"}
"""Roles some games have, under one name wherever they are."""
OWN = {
    "bunnies": {"layout"},
    "trust_no_bunny": {"setup", "day", "night", "dawn", "timer", "rounds", "suspects", "notes",
                       "redaction", "unknowns_night"},
    "killer_bunnies_quest": {"flow", "drawing", "combat", "leaving", "waiting", "roam",
                             "market", "carrots", "auction", "triplets"},
    "kinderbunnies": set(),
    "killer_bunnies_odyssey": {"flow", "choices", "readings", "personal", "civ", "costs"},
}
"""What is a game's own, by its own vocabulary: anything else is a role's module under
another name, or a new role to name here and in docs/design.md."""


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_skeleton_and_nothing_unnamed(game: str) -> None:
    modules = _modules(ENGINE / game)
    assert not SKELETON - modules, f"{game} lacks {sorted(SKELETON - modules)}"
    unnamed = modules - SKELETON - ROLES - OWN[game]
    assert not unnamed, f"{game}: {sorted(unnamed)} are neither the skeleton, a role nor listed as its own"


def test_the_design_names_the_skeleton_the_test_holds() -> None:
    design = (ENGINE.parent / "docs" / "design.md").read_text(encoding="utf-8")
    said = design[design.index("**One skeleton per game.**"):design.index("**Where a new game goes**")]
    for module in SKELETON | ROLES | set().union(*OWN.values()):
        assert f"`{module}.py`" in said, f"docs/design.md does not name {module}.py"


def test_the_family_kit_lists_each_of_its_modules_once() -> None:
    package = ENGINE / "killer"
    listed = re.findall(r"^\* ``(\w+)``:", _doc(package), re.M)
    assert len(listed) == len(set(listed))
    assert set(listed) == _modules(package), (
        f"not kit modules: {sorted(set(listed) - _modules(package))}; "
        f"left out: {sorted(_modules(package) - set(listed))}")


def test_the_guide_reader_sees_a_missing_module() -> None:
    """The check can fail: a guide without one of its package's modules is told."""
    text = "Read it like the rulebook: numbers (counts), events and state, bots."
    assert [w.strip() for w in re.split(r",|\band\b", _outside_brackets(text.split(": ", 1)[1].rstrip(".")))
            if w.strip()] == ["numbers", "events", "state", "bots"]
