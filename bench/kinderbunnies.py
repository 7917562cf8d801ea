"""KinderBunnies' benchmark: checked replay beside its bare floor, seeks and dispute verdicts,
at each level. Ratios against baselines measured in the same run; nothing is asserted.

    python -m bench.kinderbunnies            # about half a minute
    python -m bench.kinderbunnies --quick
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.floors.kinderbunnies import bare_fold
from bench.timing import best_of
from engine.dispute import Dispute
from engine.reader import check_events
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.simulate import simulate_one

LEVELS = ("beginner", "advanced", "really-advanced")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small corpus, one repeat")
    args = parser.parse_args()
    games = 60 if args.quick else 300
    repeats = 1 if args.quick else 9
    rs = get_ruleset("kinderbunnies")
    for level in LEVELS:
        corpus = [simulate_one(rs, 7, i, players=2 + i % 5, options={"level": level})
                  for i in range(games)]
        n = sum(len(g.events) for g in corpus)

        def checked() -> None:
            for g in corpus:  # noqa: B023 - run at once, inside the loop
                check_events(rs, g.header, g.events)

        def bare() -> None:
            for g in corpus:  # noqa: B023
                bare_fold(g.events, len(g.header.players))

        # Interleaved, so that both see the same load on a shared machine; best of each.
        t_checked = t_bare = float("inf")
        for _ in range(repeats):
            t_checked = min(t_checked, best_of(1, checked))
            t_bare = min(t_bare, best_of(1, bare))
        print(f"\n{level}: {games} games of 2 to 6 players, {n:,} events (seed 7, random vs greedy)")
        print(f"  checked replay        {n / t_checked:>12,.0f} events/s")
        print(f"  bare floor (no rules) {n / t_bare:>12,.0f} events/s")
        print(f"  checked / bare time   {t_checked / t_bare:>12.2f}x   (target: within 10x)")

        longest = max(corpus, key=lambda g: len(g.events))
        replay = Replay(rs, longest.header, longest.events)
        seeks = []
        for seq in range(len(longest.events) + 1):
            start = time.perf_counter()
            replay.state_at(seq)
            seeks.append(time.perf_counter() - start)
        seeks.sort()
        print(f"  seek, every position of the longest game ({len(longest.events)} events): "
              f"median {statistics.median(seeks) * 1e3:.3f} ms, p99 "
              f"{seeks[int(len(seeks) * 0.99)] * 1e3:.3f} ms, max {seeks[-1] * 1e3:.3f} ms"
              "   (target: under 2 ms)")

        dispute = Dispute.of_record(rs, longest.header, longest.events)
        rng = random.Random(7)
        times = []
        for _ in range(200 if args.quick else 1000):
            at = rng.randrange(0, len(longest.events))
            action = longest.events[at] if rng.random() < 0.5 else "discard 1"
            seat = None if not isinstance(action, str) else rng.randrange(len(longest.header.players))
            t0 = time.perf_counter()
            dispute.verdict(action, at=at, seat=seat)
            times.append(time.perf_counter() - t0)
        times.sort()
        print(f"  verdict at random positions: mean {statistics.fmean(times) * 1e3:.3f} ms, "
              f"p99 {times[int(len(times) * 0.99)] * 1e3:.3f} ms, worst {times[-1] * 1e3:.3f} ms"
              "   (target: under 10 ms)")


if __name__ == "__main__":
    main()
