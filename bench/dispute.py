"""``python -m bench.dispute [--ruleset bunnies] [--events 10000] [--verdicts 2000]``: time
verdicts at random positions of one long simulated game (no test asserts a time)."""

from __future__ import annotations

import argparse

from engine.dispute.game import Dispute
from engine.record import Event


def bench_verdict(
    slug: str = "bunnies", events: int = 10_000, verdicts: int = 2_000, seed: int = 1
) -> dict[str, float]:
    """Time verdicts at random positions of one long simulated game.

    Returns milliseconds: ``open`` (one fold with snapshots), and per verdict the mean, the
    median, the 99th percentile and the worst, each including the seek to the position.
    """
    import random
    import statistics
    import time

    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    ruleset = get_ruleset(slug)
    game = simulate_one(ruleset, seed, 0, bots=("prolong", "prolong"), max_events=events)
    start = time.perf_counter()
    dispute = Dispute.of_record(ruleset, game.header, game.events)
    opened = time.perf_counter() - start
    rng = random.Random(seed)
    times = []
    for _ in range(verdicts):
        at = rng.randrange(0, dispute.last_seq + 1)
        seat = rng.randrange(dispute.n_seats)
        recorded = game.events[at] if at < len(game.events) else None
        action: str | Event = recorded if recorded is not None and rng.random() < 0.5 else "pickup"
        t0 = time.perf_counter()
        dispute.verdict(action, at=at, seat=seat if not isinstance(action, Event) else None)
        times.append(time.perf_counter() - t0)
    times.sort()
    ms = 1000.0
    return {
        "events": float(len(game.events)),
        "open_ms": opened * ms,
        "mean_ms": statistics.fmean(times) * ms,
        "median_ms": times[len(times) // 2] * ms,
        "p99_ms": times[int(len(times) * 0.99)] * ms,
        "max_ms": times[-1] * ms,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.dispute", description=__doc__)
    parser.add_argument("--ruleset", default="bunnies", help="ruleset slug (default: bunnies)")
    parser.add_argument("--events", type=int, default=10_000, help="length of the game")
    parser.add_argument("--verdicts", type=int, default=2_000, help="how many verdicts to time")
    args = parser.parse_args()
    figures = bench_verdict(args.ruleset, events=args.events, verdicts=args.verdicts)
    print("verdict at a random position of a", int(figures.pop("events")), "event game (ms):",
          ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))
