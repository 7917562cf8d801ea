"""Killer Bunnies Quest in the benchmark: checked replay beside its bare floor, seeks and
verdicts at any position of a long game (bots that never take a carrot while anything else
is possible), and simulated four-player games a second.

    python -m bench.killer_bunnies_quest            # about a minute
    python -m bench.killer_bunnies_quest --quick

Also run as a section of ``python -m bench``. Seeks, verdicts and simulation are
timed in CPU time of this process (the machine is shared: wall-clock spikes are other
work); replay is best-of-N wall time, as a ratio against the floor measured in the same
run. Targets are in docs/performance.md; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.timing import best_of
from engine.reader import check_events
from engine.record import Event
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.simulate import SimulatedGame, simulate_one

SLUG = "killer-bunnies-quest"


def corpus(games: int, seed: int = 7) -> list[SimulatedGame]:
    """``games`` simulated games of 2 to 8 players (random against greedy bots)."""
    rs = get_ruleset(SLUG)
    return [simulate_one(rs, seed, i, players=2 + i % 7) for i in range(games)]


def bench_replay(games: list[SimulatedGame], repeats: int) -> dict[str, float]:
    from bench.floors.killer_bunnies_quest import bare_fold

    rs = get_ruleset(SLUG)
    n = sum(len(g.events) for g in games)

    def checked() -> None:
        for g in games:
            check_events(rs, g.header, g.events)

    def bare() -> None:
        for g in games:
            bare_fold(g.events, len(g.header.players))

    t_checked = best_of(repeats, checked)
    t_bare = best_of(repeats * 3, bare)  # short runs: more of them, so a stall does not count
    return {"events": n, "checked_per_s": n / t_checked, "bare_per_s": n / t_bare,
            "ratio": t_checked / t_bare}


def bench_seek(game: SimulatedGame) -> dict[str, float]:
    """``state_at`` at every position of the game (each a copy of the newest snapshot and at
    most 63 events)."""
    rs = get_ruleset(SLUG)
    replay = Replay(rs, game.header, game.events)
    times = []
    for seq in range(len(game.events) + 1):
        start = time.process_time()
        replay.state_at(seq)
        times.append(time.process_time() - start)
    times.sort()
    return {"events": len(game.events), "median_ms": statistics.median(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99)] * 1e3, "max_ms": times[-1] * 1e3}


def bench_verdict(game: SimulatedGame, verdicts: int, seed: int = 1) -> dict[str, float]:
    """Verdicts at random positions: the recorded event half the time, else a flip by a
    random seat (mostly refused, with its rule), each including the seek."""
    from engine.dispute import Dispute

    rs = get_ruleset(SLUG)
    start = time.perf_counter()
    dispute = Dispute.of_record(rs, game.header, game.events)
    opened = time.perf_counter() - start
    rng = random.Random(seed)
    times = []
    for _ in range(verdicts):
        at = rng.randrange(0, dispute.last_seq + 1)
        recorded: Event | None = game.events[at] if at < len(game.events) else None
        action: str | Event = recorded if recorded is not None and rng.random() < 0.5 else "flip"
        seat = None if isinstance(action, Event) else rng.randrange(dispute.n_seats)
        t0 = time.process_time()
        dispute.verdict(action, at=at, seat=seat)
        times.append(time.process_time() - t0)
    times.sort()
    return {"open_ms": opened * 1e3, "mean_ms": statistics.fmean(times) * 1e3,
            "p99_ms": times[int(len(times) * 0.99)] * 1e3, "max_ms": times[-1] * 1e3}


def bench_simulate(games: int, repeats: int) -> dict[str, float]:
    """Four-player games a second on one core (CPU time of this process)."""
    rs = get_ruleset(SLUG)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for i in range(games):
            simulate_one(rs, 7, i, players=4)
        best = min(best, time.process_time() - start)
    return {"games": games, "games_per_s": games / best}


def report(games: int, repeats: int, verdicts: int) -> dict[str, Any]:
    sims = corpus(games)
    r = bench_replay(sims, repeats)
    print(f"\nkiller-bunnies-quest replay over {r['events']:,} events ({games} games, 2..8 players)")
    print(f"  checked replay        {r['checked_per_s']:>12,.0f} events/s")
    print(f"  bare floor (no rules) {r['bare_per_s']:>12,.0f} events/s")
    print(f"  checked / bare time   {r['ratio']:>12.2f}x   (target: within 10x)")
    longest = max(sims, key=lambda g: len(g.events))
    long_game = simulate_one(get_ruleset(SLUG), 7, 0, players=4, bots=("prolong", "prolong"),
                             max_events=10_000)
    for label, game in (("longest corpus game", longest), ("long game", long_game)):
        s = bench_seek(game)
        print(f"  seek, every position, {label} ({s['events']:,} events): median "
              f"{s['median_ms']:.3f} ms, p99 {s['p99_ms']:.3f} ms, worst {s['max_ms']:.3f} ms"
              "   (target: under 2 ms)")
    v = bench_verdict(long_game, verdicts)
    print(f"  verdicts at random positions of the long game: mean {v['mean_ms']:.3f} ms, "
          f"p99 {v['p99_ms']:.3f} ms, "
          f"worst {v['max_ms']:.3f} ms (open {v['open_ms']:.1f} ms)   (target: under 10 ms)")
    m = bench_simulate(max(20, games // 2), repeats)
    print(f"  simulate, 4 players   {m['games_per_s']:>12.1f} games/s (CPU time, one core)   "
          "(target: at least 50)")
    return {"replay": r, "seek": s, "verdict": v, "simulate": m}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        report(40, 1, 300)
    else:
        report(200, 5, 2_000)


if __name__ == "__main__":
    main()
