"""warren's benchmark: ratios against baselines measured in the same run, on the same events.

    python -m bench            # full run (about a minute)
    python -m bench --quick    # smaller corpus, for a smoke test

Absolute times drift on a shared machine; the ratios are what to compare. Targets and current
figures are in docs/performance.md. This is a script, not a test: nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.floor import bare_fold, dispatch_fold
from bench.timing import best_of
from engine.reader import check_events
from engine.record import Event, Header
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.simulate import simulate, simulate_one


# -- sections ---------------------------------------------------------------------------
def bench_replay(corpus: list[tuple[Header, list[Event]]], repeats: int) -> dict[str, float]:
    rs = get_ruleset("bunnies")
    n = sum(len(events) for _, events in corpus)

    def checked() -> None:
        for header, events in corpus:
            check_events(rs, header, events)

    def bare() -> None:
        for _, events in corpus:
            bare_fold(events)

    def dispatch() -> None:
        for _, events in corpus:
            dispatch_fold(events)

    t_checked = best_of(repeats, checked)
    t_bare = best_of(repeats, bare)
    t_dispatch = best_of(repeats, dispatch)
    return {"events": n, "checked_per_s": n / t_checked, "bare_per_s": n / t_bare,
            "ratio": t_checked / t_bare, "dispatch_per_s": n / t_dispatch,
            "dispatch_ratio": t_checked / t_dispatch}


def bench_tnb(games: int, repeats: int) -> dict[str, float]:
    """Trust No Bunny: checked replay beside its bare floor, over 5..8-player games."""
    from bench.floors.trust_no_bunny import bare_fold as tnb_bare_fold

    rs = get_ruleset("trust-no-bunny")
    corpus = [
        (g.header, g.events)
        for i in range(games)
        for g in [simulate_one(rs, 7, i, players=5 + i % 4, bots=("heuristic", "random"))]
    ]
    n = sum(len(events) for _, events in corpus)

    def checked() -> None:
        for header, events in corpus:
            check_events(rs, header, events)

    def bare() -> None:
        for header, events in corpus:
            tnb_bare_fold(events, len(header.players))

    t_checked = best_of(repeats, checked)
    t_bare = best_of(repeats, bare)
    return {"events": n, "checked_per_s": n / t_checked, "bare_per_s": n / t_bare,
            "ratio": t_checked / t_bare}


def bench_seek(header: Header, events: list[Event], samples: int = 200) -> dict[str, float]:
    """Median time of ``state_at`` for positions around the middle of the game."""
    rs = get_ruleset("bunnies")
    game = Replay(rs, header, events)
    middle = len(events) // 2
    span = min(game.every * 2, len(events) // 2)
    seqs = [middle - span // 2 + (i % max(span, 1)) for i in range(samples)]
    times = []
    for seq in seqs:
        start = time.perf_counter()
        game.state_at(seq)
        times.append(time.perf_counter() - start)
    fold = best_of(3, lambda: Replay(rs, header, events))
    return {"events": len(events), "seek_median_ms": statistics.median(times) * 1e3,
            "seek_max_ms": max(times) * 1e3, "fold_ms": fold * 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small corpus, one repeat")
    parser.add_argument("--games", type=int, default=None, help="corpus size (default 1000)")
    parser.add_argument("--skip-import", action="store_true")
    args = parser.parse_args()
    games = args.games or (100 if args.quick else 1000)
    repeats = 1 if args.quick else 5
    rs = get_ruleset("bunnies")
    print(f"corpus: {games} simulated bunnies games (seed 7, random vs greedy bots)")
    corpus_games = simulate(rs, games, 7)
    corpus = [(g.header, g.events) for g in corpus_games]

    r = bench_replay(corpus, repeats)
    print(f"\nreplay over {r['events']:,} events")
    print(f"  checked replay        {r['checked_per_s']:>12,.0f} events/s")
    print(f"  bare floor (no rules) {r['bare_per_s']:>12,.0f} events/s")
    print(f"  checked / bare time   {r['ratio']:>12.2f}x   (target: within 10x)")
    print(f"  dispatch only         {r['dispatch_per_s']:>12,.0f} events/s   (loop + dispatch + empty call)")
    print(f"  checked / dispatch    {r['dispatch_ratio']:>12.2f}x")

    longest = max(corpus, key=lambda c: len(c[1]))
    long_game = simulate_one(rs, 7, 0, bots=("prolong", "prolong"), max_events=10_000)
    print("\nseek (Replay.state_at around the middle; snapshots every 64 events)")
    for label, (header, events) in (("longest corpus game", longest),
                                    ("long game", (long_game.header, long_game.events))):
        s = bench_seek(header, events)
        print(f"  {label:<20} {s['events']:>6,} events: median {s['seek_median_ms']:.3f} ms, "
              f"max {s['seek_max_ms']:.3f} ms (full fold {s['fold_ms']:.1f} ms)")

    t = bench_tnb(max(40, games // 5), repeats)
    print(f"\ntrust-no-bunny replay over {t['events']:,} events (5..8 players)")
    print(f"  checked replay        {t['checked_per_s']:>12,.0f} events/s")
    print(f"  bare floor (no rules) {t['bare_per_s']:>12,.0f} events/s")
    print(f"  checked / bare time   {t['ratio']:>12.2f}x   (target: within 10x)")

    from bench.killer_bunnies_quest import report as quest_report

    quest_report(40 if args.quick else 200, repeats, 300 if args.quick else 2_000)

    from bench.dispute import bench_verdict

    v = bench_verdict("bunnies", events=10_000, verdicts=500 if args.quick else 2_000)
    print("\ndispute verdicts at random positions of a 10,000-event game (seek included)")
    print(f"  open (one fold)       {v['open_ms']:>10.1f} ms")
    print(f"  per verdict           mean {v['mean_ms']:.3f} ms, p99 {v['p99_ms']:.3f} ms, "
          f"worst {v['max_ms']:.3f} ms   (target: under 10 ms)")

    if not args.skip_import:
        from bench.store import bench_import

        files = [b"".join(g.lines()) for g in corpus_games]
        f = bench_import(files, repeat=max(1, repeats // 2), workers=(0, 1))
        raw = f.rate(f.raw_s)
        print(f"\nimport of {f.games:,} games, {f.events:,} lines (one transaction per game, "
              "same schema and triggers)")
        for workers, seconds in sorted(f.store_s.items()):
            label = "warren import" if workers == 0 else f"  + {workers} helper process"
            share = f.rate(seconds) / raw
            print(f"  {label:<22}{f.rate(seconds):>12,.0f} lines/s  {share:>5.0%} of raw"
                  "   (decode + hash chain + rules + insert; target: at least 50%)")
        print(f"  raw executemany       {raw:>12,.0f} lines/s")
        print(f"  raw, no triggers      {f.rate(f.raw_no_triggers_s):>12,.0f} lines/s  (what the "
              "append-only triggers cost)")


if __name__ == "__main__":
    main()
