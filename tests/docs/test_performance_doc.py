"""docs/performance.md names scripts that exist, and holds the table bench.report writes."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from bench.report import LINES, MARKERS

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def test_every_command_it_names_is_a_benchmark_script() -> None:
    modules = set(re.findall(r"python -m (bench(?:\.\w+)?)", TEXT))
    assert {"bench", "bench.report", "bench.check", "bench.scale"} <= modules
    for module in modules:
        assert importlib.util.find_spec(module) is not None, module


def test_the_current_figures_are_the_reports_table() -> None:
    start, end = MARKERS
    table = TEXT.split(start, 1)[1].split(end, 1)[0]
    for line in LINES:
        assert f"| {line.label} | {line.target} | " in table, line.label
    assert re.search(r"Measured \d{4}-\d\d-\d\d at commit \w+, \d+ rounds", table)
