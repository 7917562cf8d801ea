"""docs/card-facts.md: the card facts warren relies on live in the repository, and every
citation of them points at something the page holds."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.docs.card_facts import DOC, ROOT, cited_rows, render

TEXT = DOC.read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"^#{2,3} (\d(?:\.\d)?)[ .]", TEXT, re.M))
CLARIFICATIONS = set(re.findall(r"^- (R-Q\d+) ", TEXT, re.M))
CITE = re.compile(r"card-facts(?:\.md)? (?:§|section )(?P<section>\d(?:\.\d)?)(?P<rest>[^\"\n]*)")


def _tracked() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py", "*.toml", "*.md"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    return [ROOT / p for p in listed if (ROOT / p).exists()]


def _items(section: str) -> set[str]:
    heading = re.search(rf"^#{{2,3}} {re.escape(section)}[ .].*$", TEXT, re.M)
    assert heading is not None, section
    body = re.split(r"^#{2,3} ", TEXT[heading.end():], maxsplit=1, flags=re.M)[0]
    return set(re.findall(r"^ *(\d+)\. ", body, re.M))


def test_the_card_tables_are_made_from_the_deck_files() -> None:
    assert render(TEXT) == TEXT, "regenerate: python -m tests.docs.card_facts"


def test_every_card_cited_by_row_is_in_its_table() -> None:
    rows = cited_rows()
    assert {s: len(r) for s, r in rows.items()} == {"1.2": 87, "1.3": 50, "2.2": 36, "2.3": 48}
    for section, found in rows.items():
        for row in found:
            assert f"| {row['row']} | {row['name']} |" in TEXT, (section, row)


def test_every_citation_names_a_section_item_or_clarification_the_page_has() -> None:
    cited = 0
    for path in _tracked():
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in CITE.finditer(line):
                where = f"{path.relative_to(ROOT)}:{line_no}"
                section = match["section"]
                assert section in SECTIONS, f"{where}: no section {section} in docs/card-facts.md"
                for item in re.findall(r"items? (\d+)(?: and (\d+))?", match["rest"].split("§")[0]):
                    for number in filter(None, item):
                        assert number in _items(section), f"{where}: §{section} has no item {number}"
                for clarification in re.findall(r"R-Q\d+", match["rest"]):
                    assert clarification in CLARIFICATIONS, f"{where}: {clarification} is not in §1.7"
                cited += 1
    assert cited > 300  # the deck files cite a row for every card


def test_the_page_points_at_nothing_outside_the_repository() -> None:
    outside = ("shared" + "/rules", "../" + "shared")  # spelled apart: this file is tracked too
    for path in _tracked():
        text = path.read_text(encoding="utf-8")
        assert not any(o in text for o in outside), path
