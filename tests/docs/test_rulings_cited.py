"""The rulings register (docs/rulings.md) and the code agree, for all five games: every ruling
the code, the deck files, the rulebooks' rule sources or the docs cite is in the register, and
every ruling of the register is cited by the code that carries it out."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from engine.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
REGISTER = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
RULINGS = set(re.findall(r"^### (R-(?:BUN|KBQ|KIN|ODY|TNB)-\d+) · ", REGISTER, re.M))
CITED = re.compile(r"\b[Rr]-(?:BUN|KBQ|KIN|ODY|TNB|bun|kbq|kin|ody|tnb)-\d+\b")
GAMES = ["bunnies", "trust-no-bunny", "killer-bunnies-quest", "kinderbunnies", "killer-bunnies-odyssey"]


def _files(*patterns: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return [ROOT / p for p in listed if (ROOT / p).exists()]


def _cited_in(paths: list[Path]) -> dict[str, str]:
    """Ruling id -> one place that cites it."""
    found: dict[str, str] = {}
    for path in paths:
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in CITED.findall(line):
                found.setdefault(match.upper(), f"{path.relative_to(ROOT)}:{line_no}")
    return found


def _product() -> dict[str, str]:
    found = _cited_in([p for p in _files("*.py", "*.toml") if p.relative_to(ROOT).parts[0]
                       in ("engine", "logstore", "dashboard")])
    for slug in GAMES:
        for rule in get_ruleset(slug).rulebook.values():
            for match in CITED.findall(rule.source or ""):
                found.setdefault(match.upper(), f"the source of {rule.id}")
    return found


def test_the_register_holds_rulings_of_all_five_games() -> None:
    assert {r.split("-")[1] for r in RULINGS} == {"BUN", "KBQ", "KIN", "ODY", "TNB"}
    assert len(RULINGS) >= 120


def test_every_ruling_cited_anywhere_is_in_the_register() -> None:
    cited = {**_cited_in(_files("*.md", "tests/*.py")), **_product()}
    unknown = {ruling: where for ruling, where in cited.items() if ruling not in RULINGS}
    assert not unknown, f"cited but not in docs/rulings.md: {unknown}"


def test_every_ruling_is_cited_by_the_code_that_carries_it_out() -> None:
    uncited = sorted(RULINGS - set(_product()), key=lambda r: (r.split("-")[1], int(r.split("-")[2])))
    assert not uncited, f"rulings no code, deck file or rule source cites: {uncited}"
