"""docs/catalogue.md's table of the effect vocabulary is the code's: every primitive with its
fields and defaults, its family, and the games whose interpreter plays it (the kit's
``Interpreter`` tables). ``python -m tests.docs.test_catalogue_vocabulary`` prints the table
to paste when a primitive or a game's table changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from engine.killer.catalogue import effects as fx
from engine.killer.interpreter import FAMILIES, Interpreter

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "catalogue.md"
START = "<!-- vocabulary: start -->"
END = "<!-- vocabulary: end -->"


def interpreters() -> list[tuple[str, Interpreter[Any, Any, Any]]]:
    from engine.killer_bunnies_odyssey.cards import ODYSSEY
    from engine.killer_bunnies_quest.cards import QUEST
    from engine.kinderbunnies.cards import KINDER
    from engine.registry import get_ruleset

    # the tables are complete once each ruleset loads (tests/games/killer/test_registration.py)
    for slug in ("killer-bunnies-quest", "kinderbunnies", "killer-bunnies-odyssey"):
        get_ruleset(slug)
    return [("Quest", QUEST), ("Kinder", KINDER), ("Odyssey", ODYSSEY)]


def _default(f: msgspec.structs.FieldInfo) -> str:
    if f.default is not msgspec.NODEFAULT:
        value = f.default
    elif f.default_factory is not msgspec.NODEFAULT:
        value = f.default_factory()
    else:
        return f"`{f.encode_name}`"
    if isinstance(value, msgspec.Struct):
        return f"`{f.encode_name}` = {type(value).__struct_config__.tag}"
    return f"`{f.encode_name}` = {json.dumps(msgspec.to_builtins(value), separators=(',', ':'))}"


def _what(kind: type) -> str:
    doc = (kind.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())


def table() -> str:
    games = interpreters()
    head = "| family | `do` | fields (default) | what it does | " + " | ".join(g for g, _ in games) + " |"
    lines = [head, "|" + "---|" * (4 + len(games))]
    for family in FAMILIES:
        # the kit's primitives and those a game adopted from a file of their own
        for kind in sorted((k for k in fx.VOCABULARY.kinds.values()
                            if games[0][1].family_of(k) == family), key=fx.tag_of_type):
            fields = ", ".join(_default(f) for f in msgspec.structs.fields(kind)) or "—"
            plays = " | ".join("yes" if kind in interp.plays() else "" for _, interp in games)
            lines.append(f"| {family} | `{fx.tag_of_type(kind)}` | {fields} | {_what(kind)} | {plays} |")
    return "\n".join(lines)


def test_every_primitive_names_its_family() -> None:
    # each kit primitive declares its own (no inherited default), and every family has some
    assert all("family" in vars(kind) for kind in fx.EFFECT_TYPES)
    assert {kind.family for kind in fx.EFFECT_TYPES} == set(FAMILIES)


def test_the_vocabulary_table_is_the_interpreters() -> None:
    text = DOC.read_text(encoding="utf-8")
    shown = text.split(START, 1)[1].split(END, 1)[0].strip()
    assert shown == table(), "docs/catalogue.md: paste `python -m tests.docs.test_catalogue_vocabulary`"


def test_every_primitive_is_played_by_some_game() -> None:
    played = set().union(*(interp.plays() for _, interp in interpreters()))
    assert set(fx.EFFECT_TYPES) - played == set()


if __name__ == "__main__":
    print(table())
