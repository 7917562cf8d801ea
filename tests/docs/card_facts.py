"""The card tables of docs/card-facts.md, made from warren's deck files.

Each card of a deck file cites its row (``source = "docs/card-facts.md §1.2 row 44; BP, DG"``);
the tables between ``<!-- cards §N.N -->`` and ``<!-- end cards -->`` list those rows: number,
name, type, pink box, dice and the sources' keys. ``python -m tests.docs.card_facts`` writes
them; tests/docs/test_card_facts.py fails when the document and the deck files disagree.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "card-facts.md"
DECKS = [*sorted((ROOT / "engine" / "killer_bunnies_quest" / "cards").glob("*.toml")),
         *sorted((ROOT / "engine" / "kinderbunnies" / "cards").glob("*.toml"))]
ROW = re.compile(r"^docs/card-facts\.md §(?P<section>\d\.\d) rows? (?P<row>[0-9]+(?:-[0-9]+)?)"
                 r"(?P<more>.*); (?P<keys>[^;]+)$")
TABLE = re.compile(r"(<!-- cards §(?P<section>\d\.\d) -->\n)(?P<body>.*?)(<!-- end cards -->)", re.S)
TYPES = {"run": "Run", "special": "Special", "very_special": "Very Special",
         "play_immediately": "Play Immediately", "roaming": "Roaming Red Run", "money": "Money",
         "starter": "Starter", "carrot": "Carrot", "cabbage": "Cabbage", "water": "Water"}


def cited_rows() -> dict[str, list[dict[str, Any]]]:
    """Every card that cites a row of a card table, by section."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for path in DECKS:
        for card in tomllib.loads(path.read_text(encoding="utf-8")).get("card", []):
            match = ROW.match(card.get("source", ""))
            if match is None:
                continue
            kind = TYPES.get(card["type"], card["type"])
            if card.get("bunny"):
                kind += " (bunny)"
            elif card.get("weapon"):
                kind += f" (weapon, level {card['weapon'].get('level', '?')})" if "level" in card["weapon"] \
                    else " (weapon)"
            rows.setdefault(match["section"], []).append({
                "row": match["row"], "name": card["name"], "type": kind,
                "pink": "yes" if card.get("pink_box") else "no",
                "dice": ", ".join(card.get("dice", [])), "keys": match["keys"]})
    return rows


def table(section: str, rows: list[dict[str, Any]]) -> str:
    lines = ["| No. | Name | Type | Pink box | Dice | Sources |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in sorted(rows, key=lambda r: int(r["row"].split("-")[0])):
        lines.append(f"| {r['row']} | {r['name']} | {r['type']} | {r['pink']} | {r['dice']} | {r['keys']} |")
    return "\n".join(lines) + "\n"


def render(text: str) -> str:
    """The document with every card table made anew from the deck files."""
    rows = cited_rows()
    return TABLE.sub(lambda m: m.group(1) + table(m["section"], rows.get(m["section"], [])) + m.group(4),
                     text)


if __name__ == "__main__":
    DOC.write_text(render(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stdout.write(f"wrote {DOC.relative_to(ROOT)}\n")
