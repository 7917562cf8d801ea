"""Killer Bunnies Odyssey's benchmark: checked replay beside its bare floor, seeks, verdicts.

    python -m bench.killer_bunnies_odyssey            # full run (about a minute)
    python -m bench.killer_bunnies_odyssey --quick    # a smaller corpus

Ratios against baselines measured in the same run, on the same events; the targets are in
docs/performance.md. A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.floors.killer_bunnies_odyssey import bare_fold
from bench.timing import best_of
from engine.dispute import Dispute
from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.numbers import STARTER_DECKS
from engine.reader import check_events
from engine.record import Event, Header
from engine.replay import Replay
from engine.simulate import simulate_one

DECKS = {"decks": list(STARTER_DECKS)}


def corpus(games: int) -> list[tuple[Header, list[Event]]]:
    """Simulated games of 2 to 6 players, random against greedy bots, every starter deck."""
    out = []
    for i in range(games):
        game = simulate_one(RULESET, 7, i, players=2 + i % 5, options=DECKS)
        out.append((game.header, game.events))
    return out


def bench_replay(games: list[tuple[Header, list[Event]]], repeats: int) -> dict[str, float]:
    n = sum(len(events) for _, events in games)
    opts = [RULESET.options(header) for header, _ in games]

    def checked() -> None:
        for header, events in games:
            check_events(RULESET, header, events)

    def bare() -> None:
        for (header, events), o in zip(games, opts, strict=True):
            bare_fold(header, events, o)

    t_checked = best_of(repeats, checked)
    t_bare = best_of(repeats, bare)
    return {"events": n, "checked_per_s": n / t_checked, "bare_per_s": n / t_bare,
            "ratio": t_checked / t_bare}


def long_game(events: int) -> tuple[Header, list[Event]]:
    """A long game: six random players under empty_pile=stop, so that the game runs on until
    ``events`` (once the piles are spent nobody reaches 60); the first such game of seed 7."""
    longest = None
    for index in range(1000, 1020):
        game = simulate_one(RULESET, 7, index, players=6, bots=("random",),
                            options={**DECKS, "empty_pile": "stop"}, max_events=events)
        if longest is None or len(game.events) > len(longest.events):
            longest = game
        if len(game.events) >= events:
            break
    assert longest is not None
    return longest.header, longest.events


def bench_seek(header: Header, events: list[Event], samples: int = 400) -> dict[str, float]:
    game = Replay(RULESET, header, events)
    rng = random.Random(3)
    times = []
    for _ in range(samples):
        seq = rng.randrange(0, len(events) + 1)
        start = time.perf_counter()
        game.state_at(seq)
        times.append(time.perf_counter() - start)
    fold = best_of(3, lambda: Replay(RULESET, header, events))
    times.sort()
    return {"events": len(events), "median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99)] * 1e3, "max_ms": times[-1] * 1e3,
            "fold_ms": fold * 1e3}


def bench_verdicts(header: Header, events: list[Event], verdicts: int) -> dict[str, float]:
    start = time.perf_counter()
    dispute = Dispute.of_record(RULESET, header, events)
    opened = time.perf_counter() - start
    rng = random.Random(1)
    times = []
    for _ in range(verdicts):
        at = rng.randrange(0, dispute.last_seq + 1)
        recorded = events[at] if at < len(events) else None
        action: str | Event = recorded if recorded is not None and rng.random() < 0.5 else "pass"
        seat = rng.randrange(dispute.n_seats)
        t0 = time.perf_counter()
        dispute.verdict(action, at=at, seat=seat if not isinstance(action, Event) else None)
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"open_ms": opened * 1e3, "mean_ms": statistics.fmean(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99)] * 1e3, "max_ms": times[-1] * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small corpus, one repeat")
    parser.add_argument("--games", type=int, default=None, help="corpus size (default 300)")
    args = parser.parse_args()
    games = args.games or (40 if args.quick else 300)
    repeats = 1 if args.quick else 5
    print(f"corpus: {games} simulated killer-bunnies-odyssey games (seed 7, 2..6 players, "
          "random vs greedy bots, the six starter decks)")
    games_ = corpus(games)
    r = bench_replay(games_, repeats)
    print(f"\nreplay over {r['events']:,} events")
    print(f"  checked replay        {r['checked_per_s']:>12,.0f} events/s")
    print(f"  bare floor (no rules) {r['bare_per_s']:>12,.0f} events/s")
    print(f"  checked / bare time   {r['ratio']:>12.2f}x   (target: within 10x)")

    header, events = long_game(2_000 if args.quick else 10_000)
    s = bench_seek(header, events)
    print("\nseek (Replay.state_at at random positions; snapshots every 64 events)")
    print(f"  long game {s['events']:>7,} events: median {s['median_ms']:.3f} ms, p99 "
          f"{s['p99_ms']:.3f} ms, max {s['max_ms']:.3f} ms   (target: under 2 ms; full fold "
          f"{s['fold_ms']:.1f} ms)")
    v = bench_verdicts(header, events, 300 if args.quick else 2_000)
    print(f"\ndispute verdicts at random positions of the {len(events):,}-event game (seek included)")
    print(f"  open (one fold)       {v['open_ms']:>10.1f} ms")
    print(f"  per verdict           mean {v['mean_ms']:.3f} ms, p99 {v['p99_ms']:.3f} ms, "
          f"worst {v['max_ms']:.3f} ms   (target: under 10 ms)")


if __name__ == "__main__":
    main()
