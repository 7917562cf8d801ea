"""``python -m engine.dispute [--ruleset bunnies] [--events 10000] [--verdicts 2000]``: time
verdicts at random positions of one long simulated game (see docs/benchmarks.md)."""

import argparse

from engine.dispute.bench import bench_verdict

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m engine.dispute", description=__doc__)
    parser.add_argument("--ruleset", default="bunnies", help="ruleset slug (default: bunnies)")
    parser.add_argument("--events", type=int, default=10_000, help="length of the game")
    parser.add_argument("--verdicts", type=int, default=2_000, help="how many verdicts to time")
    args = parser.parse_args()
    figures = bench_verdict(args.ruleset, events=args.events, verdicts=args.verdicts)
    print("verdict at a random position of a", int(figures.pop("events")), "event game (ms):",
          ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))
