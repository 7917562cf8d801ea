"""Checked replay of two checkouts of warren, side by side in one run: the figure to quote
when a change to the core (the engine's fold, its pending decisions, its codec) must not
cost speed.

    python -m bench.checkouts OLD_CHECKOUT NEW_CHECKOUT [--rounds 2] [--measure views]

Each round runs every ruleset both checkouts know, in a fresh process per checkout (so
each imports its own code), and prints events per second of CPU time of the process (the
machine is shared: CPU time, not wall clock, and rounds alternate so drift hits both). The
games are simulated by each checkout with the same seed, so a ruleset whose simulation
changed replays other games of the same kind: compare the rates, not the totals. Nothing
here asserts a time.

``--measure views`` measures instead what ``warren replay`` and the dashboard show of a
game: after every event, every perspective's view and what changed in it, in words.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import sys, time
from engine.simulate import simulate
try:
    from engine.reader import check_events
except ImportError:  # checkouts from before engine.reader
    from engine.replay import check_events
from engine.registry import get_ruleset
slug = sys.argv[1]
try:
    rs = get_ruleset(slug)
except Exception:  # a ruleset this checkout does not have
    print("-"); sys.exit(0)
small = {"bunnies": 300, "trust-no-bunny": 150}
players = {"bunnies": 2, "trust-no-bunny": 6}.get(slug, max(rs.min_players, 4))
games = simulate(rs, small.get(slug, 60), 7, players=players)
n = sum(len(g.events) for g in games)
best = float("inf")
for _ in range(int(sys.argv[2])):
    t = time.process_time()
    for g in games:
        check_events(rs, g.header, g.events)
    best = min(best, time.process_time() - t)
print(f"{n} {n / best:.0f}")
"""
VIEWS = r"""
import sys, time
from engine.simulate import simulate
from engine.registry import get_ruleset
slug = sys.argv[1]
try:
    rs = get_ruleset(slug)
except Exception:
    print("-"); sys.exit(0)
players = {"bunnies": 2, "trust-no-bunny": 5}.get(slug, 3)
games = simulate(rs, {"bunnies": 20, "trust-no-bunny": 10}.get(slug, 4), 7, players=players)
names = [f"P{s}" for s in range(players)]
seen = ["referee", "spectator", *range(players)]
n = sum(len(g.events) for g in games)
best = float("inf")
for _ in range(int(sys.argv[2])):
    t = time.process_time()
    for g in games:
        r = rs.for_game(g.header)
        state = r.setup(g.header)
        views = [r.view(state, p) for p in seen]
        for event in g.events:
            r.apply(state, event)
            now = [r.view(state, p) for p in seen]
            for a, b in zip(views, now):
                r.describe_changes(a, b, names)
            views = now
    best = min(best, time.process_time() - t)
print(f"{n} {n / best:.0f}")
"""
SLUGS = ("bunnies", "trust-no-bunny", "killer-bunnies-quest", "kinderbunnies", "killer-bunnies-odyssey")


def rate(checkout: Path, slug: str, repeats: int, child: str = CHILD) -> tuple[int, float] | None:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run([sys.executable, "-c", child, slug, str(repeats)], cwd=checkout, env=env,
                         capture_output=True, text=True, check=False).stdout.strip().splitlines()
    if not out or out[-1] == "-" or len(out[-1].split()) != 2:
        return None
    events, per_second = out[-1].split()
    return int(events), float(per_second)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="Example: python -m bench.checkouts /tmp/old .")
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=7, help="best of this many folds")
    parser.add_argument("--measure", choices=("replay", "views"), default="replay",
                        help="checked replay (the default), or views and what changed in words")
    args = parser.parse_args(argv)
    child = VIEWS if args.measure == "views" else CHILD
    for round_ in range(1, args.rounds + 1):
        for slug in SLUGS:
            old = rate(args.old.resolve(), slug, args.repeats, child)
            new = rate(args.new.resolve(), slug, args.repeats, child)
            if old is None or new is None:
                continue
            print(f"round {round_}  {slug:24} old {old[1]:>11,.0f} ev/s ({old[0]:,} events)   "
                  f"new {new[1]:>11,.0f} ev/s ({new[0]:,} events)   new/old {new[1] / old[1]:.2f}",
                  flush=True)


if __name__ == "__main__":
    main()
