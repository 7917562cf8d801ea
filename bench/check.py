"""``warren check`` of a folder, the whole process, beside the floor of merely parsing the
same lines with ``json.loads``, also as a whole process.

    python -m bench.check                  # 1,000 Bunnies + 200 Trust No Bunny games
    python -m bench.check --games 300      # quicker

Both sides are timed from the shell's point of view (a fresh ``python`` each time, start-up
and imports included), best of ``--repeat``, on the same files. The floor reads every file
of the folder and calls ``json.loads`` on each line, and nothing else: no hash, no rule, no
output. The ratio is what to compare (target: at least 0.8x, docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.registry import get_ruleset
from engine.simulate import simulate_one

FLOOR = r"""
import json, sys
from pathlib import Path
n = 0
for path in sorted(p for p in Path(sys.argv[1]).rglob("*.jsonl") if p.is_file()):
    with open(path, "rb") as handle:
        for line in handle:
            json.loads(line)
            n += 1
print(n)
"""

ROOT = Path(__file__).resolve().parents[1]


def write_corpus(folder: Path, bunnies: int, tnb: int) -> int:
    """Simulated records in ``folder``; the number of event lines (headers and seals left out)."""
    events = 0
    rules = get_ruleset("bunnies")
    for i in range(bunnies):
        game = simulate_one(rules, 7, i)
        (folder / f"{game.header.game_id}.jsonl").write_bytes(b"".join(game.lines()))
        events += len(game.events)
    rules = get_ruleset("trust-no-bunny")
    for i in range(tnb):
        game = simulate_one(rules, 7, i, players=5 + i % 4, bots=("heuristic", "random"))
        (folder / f"{game.header.game_id}.jsonl").write_bytes(b"".join(game.lines()))
        events += len(game.events)
    return events


def _env(jobs: str | None) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path}
    if jobs is not None:
        env["WARREN_CHECK_JOBS"] = jobs
    return env


def _time(command: list[str], env: dict[str, str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-2000:]}")
        best = min(best, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="Bunnies games (Trust No Bunny: a fifth)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="warren-bench-check-") as tmp:
        folder = Path(tmp)
        events = write_corpus(folder, args.games, max(1, args.games // 5))
        files = len(list(folder.glob("*.jsonl")))
        floor = _time([sys.executable, "-c", FLOOR, str(folder)], _env(None), args.repeat)
        print(f"warren check of a folder: {files:,} records, {events:,} events")
        print(f"  json.loads floor (whole process)  {events / floor:>12,.0f} events/s  ({floor:.2f} s)")
        check = [sys.executable, "-m", "logstore.cli", "check", str(folder), "--json"]
        # "as it runs": no WARREN_CHECK_JOBS, so as many processes as cores it may use
        for label, jobs in (("one process", "1"), ("both cores", "2"), ("as it runs", None)):
            seconds = _time(check, _env(jobs), args.repeat)
            print(f"  warren check, {label:<22}{events / seconds:>12,.0f} events/s  ({seconds:.2f} s)  "
                  f"{floor / seconds:.2f}x the floor   (target: at least 0.8x)")


if __name__ == "__main__":
    main()
