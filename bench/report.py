"""The current figures of docs/performance.md, measured and written into it.

    python -m bench.report                 # 3 rounds, about three minutes; prints the table
    python -m bench.report --write         # ... and writes it into docs/performance.md
    python -m bench.report --rounds 5 --quick

Each round measures, for every game (and KinderBunnies' three levels), checked replay beside
the game's bare floor on the same events, interleaved so both see the same load, and the
four-player Quest games simulated a second on one core (CPU time). The table gives the range
over the rounds: a target is met when it holds in every round, not in the best one. Nothing
here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.killer_bunnies_odyssey.numbers import STARTER_DECKS
from engine.reader import check_events
from engine.record import Event, Header
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.generated import rewrite

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"
MARKERS = ("<!-- figures: python -m bench.report --write -->\n", "<!-- end figures -->")


@dataclass(frozen=True, slots=True)
class Line:
    """One row of the table: what is measured, its target, and how to read a figure."""

    label: str
    target: str
    unit: str
    higher_is_better: bool
    measure: Callable[[bool], float]

    def met(self, value: float) -> bool:
        bound = float(re.sub(r"[^0-9.]", "", self.target))
        return value >= bound if self.higher_is_better else value <= bound


def _ratio(checked: Callable[[], Any], bare: Callable[[], Any], repeats: int) -> float:
    """Best checked time over best floor time, the two interleaved."""
    t_checked = t_bare = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        checked()
        t_checked = min(t_checked, time.perf_counter() - start)
        for _ in range(3):  # the floor is short: more tries, so that one stall does not count
            start = time.perf_counter()
            bare()
            t_bare = min(t_bare, time.perf_counter() - start)
    return t_checked / t_bare


def _games(slug: str, games: int, players: Callable[[int], int],
           **options: Any) -> list[tuple[Header, list[Event]]]:
    rs = get_ruleset(slug)
    return [(g.header, g.events) for i in range(games)
            for g in [simulate_one(rs, 7, i, players=players(i), options=options or None)]]


def _replay(slug: str, floor: Callable[[Header, list[Event]], Any], games: int,
            players: Callable[[int], int], **options: Any) -> Callable[[bool], float]:
    def measure(quick: bool) -> float:
        rs = get_ruleset(slug)
        corpus = _games(slug, max(10, games // 5) if quick else games, players, **options)
        return _ratio(lambda: [check_events(rs, h, e) for h, e in corpus],
                      lambda: [floor(h, e) for h, e in corpus], 1 if quick else 5)
    return measure


def _bunnies_floor(header: Header, events: list[Event]) -> Any:
    from bench.floor import bare_fold
    return bare_fold(events)


def _tnb_floor(header: Header, events: list[Event]) -> Any:
    from bench.floors.trust_no_bunny import bare_fold
    return bare_fold(events, len(header.players))


def _quest_floor(header: Header, events: list[Event]) -> Any:
    from bench.floors.killer_bunnies_quest import bare_fold
    return bare_fold(events, len(header.players))


def _kinder_floor(header: Header, events: list[Event]) -> Any:
    from bench.floors.kinderbunnies import bare_fold
    return bare_fold(events, len(header.players))


def _odyssey_floor(header: Header, events: list[Event]) -> Any:
    from bench.floors.killer_bunnies_odyssey import bare_fold
    return bare_fold(header, events, get_ruleset("killer-bunnies-odyssey").options(header))


def _simulate_quest(quick: bool) -> float:
    rs = get_ruleset("killer-bunnies-quest")
    games = 10 if quick else 40
    start = time.process_time()
    for i in range(games):
        simulate_one(rs, 7, i, players=4)
    return games / (time.process_time() - start)


LINES = [
    Line("Bunnies: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("bunnies", _bunnies_floor, 300, lambda i: 2)),
    Line("Trust No Bunny: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("trust-no-bunny", _tnb_floor, 100, lambda i: 5 + i % 4)),
    Line("Quest: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("killer-bunnies-quest", _quest_floor, 40, lambda i: 2 + i % 7)),
    Line("KinderBunnies beginner: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("kinderbunnies", _kinder_floor, 150, lambda i: 2 + i % 5, level="beginner")),
    Line("KinderBunnies advanced: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("kinderbunnies", _kinder_floor, 150, lambda i: 2 + i % 5, level="advanced")),
    Line("KinderBunnies really advanced: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("kinderbunnies", _kinder_floor, 150, lambda i: 2 + i % 5, level="really-advanced")),
    Line("Odyssey: checked replay / bare floor", "≤ 10x", "x", False,
         _replay("killer-bunnies-odyssey", _odyssey_floor, 60, lambda i: 2 + i % 5,
                 decks=list(STARTER_DECKS))),
    Line("Quest: four-player games simulated a second (one core)", "≥ 50", " games/s", True, _simulate_quest),
]


def _commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def _fmt(value: float, unit: str) -> str:
    return f"{value:.2f}{unit}" if unit == "x" else f"{value:.1f}{unit}"


def table(results: dict[str, list[float]], rounds: int, quick: bool) -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    head = (f"Measured {datetime.now(UTC):%Y-%m-%d} at commit {_commit()}, {rounds} rounds"
            f"{' (quick corpora)' if quick else ''}, Python {platform.python_version()}, {cores} cores.")
    rows = ["| what | target | range over the rounds | met in every round |", "| --- | --- | --- | --- |"]
    for line in LINES:
        values = results[line.label]
        low, high = min(values), max(values)
        met = "yes" if all(line.met(v) for v in values) else "no"
        rows.append(f"| {line.label} | {line.target} | {_fmt(low, line.unit)} to {_fmt(high, line.unit)} "
                    f"| {met} |")
    return head + "\n\n" + "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3,
                        help="how many times to measure everything (default 3)")
    parser.add_argument("--quick", action="store_true", help="small corpora, one repeat (a smoke test)")
    parser.add_argument("--write", action="store_true", help="write the table into docs/performance.md")
    args = parser.parse_args()
    results: dict[str, list[float]] = {line.label: [] for line in LINES}
    for n in range(args.rounds):
        for line in LINES:
            value = line.measure(args.quick)
            results[line.label].append(value)
            print(f"round {n + 1}: {line.label:<60} {_fmt(value, line.unit)}", file=sys.stderr, flush=True)
    text = table(results, args.rounds, args.quick)
    print(text)
    if args.write:
        start, end = MARKERS
        doc = DOC.read_text(encoding="utf-8")
        if start not in doc or end not in doc:
            raise SystemExit(f"{DOC}: the markers {start.strip()} and {end} are missing")
        rewrite(DOC, MARKERS, text)
        print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
