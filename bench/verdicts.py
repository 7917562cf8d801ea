"""Dispute verdicts on a game read from a store, opened for each verdict as the CLI opens it.

    python -m bench.verdicts [--events 10000] [--verdicts 500] [--seed 1]

The store keeps a snapshot every SNAPSHOT_EVERY events, so a verdict seeks from the nearest
one; ``python -m bench.dispute`` times the same on an in-memory ``Replay``. Figures are in
docs/disputes.md. A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.store.branches import stored_dispute
from logstore.store.event_store import Store


def bench_stored_verdict(events: int = 10_000, verdicts: int = 500, seed: int = 1) -> dict[str, float]:
    """Time verdicts on a long Bunnies game in a fresh store: milliseconds per verdict."""
    ruleset = get_ruleset("bunnies")
    game = simulate_one(ruleset, seed, 0, bots=("prolong", "prolong"), max_events=events)
    rng = random.Random(seed)
    times = []
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.db") as store:
        store.import_bytes(b"".join(game.lines()), "<bench>")
        game_id = game.header.game_id
        for _ in range(verdicts):
            at = rng.randrange(0, len(game.events) + 1)
            start = time.perf_counter()
            stored_dispute(store, game_id).verdict("pickup", at=at, seat=at % 2)
            times.append(time.perf_counter() - start)
    times.sort()
    return {
        "events": float(len(game.events)),
        "mean_ms": statistics.fmean(times) * 1000,
        "median_ms": times[len(times) // 2] * 1000,
        "p99_ms": times[int(len(times) * 0.99)] * 1000,
        "max_ms": times[-1] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.verdicts", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000, help="length of the game")
    parser.add_argument("--verdicts", type=int, default=500, help="how many verdicts to time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = bench_stored_verdict(args.events, args.verdicts, args.seed)
    print(f"verdict on a stored {int(figures.pop('events')):,}-event game, opened per verdict (ms): "
          + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
