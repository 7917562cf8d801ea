"""How well the analysis of a game predicts who wins: its chances against the winners of
simulated games, and what one analysis costs.

    python3 -m bench.calibration                          # every ruleset, 300 games each
    python3 -m bench.calibration --ruleset kinderbunnies --games 2000
    python3 -m bench.calibration --positions 3 --worlds 20 --rollouts 2 --as spectator
    python3 -m bench.calibration --speedup                # one game on one core, then on two

For each ruleset: games simulated with the analysis' own bots on both sides (greedy), and at
a few positions of each (chosen by the seed), every seat's chance as the perspective could
work it out (the table's by default: worlds dealt from what everybody saw). Then, over every
(position, seat):

- the Brier score (mean squared gap between the chance and 1 for a win, 0 for a loss, a
  share for a shared win) beside the base rate's (every seat at the mean outcome: 1 /
  players where one seat wins);
- a reliability table by decile: the mean chance predicted, the share of wins observed, n.

A ruleset without worlds for the table is measured from the referee's knowledge, and the
output says so. It also times ``warren analyse`` of one whole game per
ruleset (both cores, default settings). The games are spread over both cores. This is a
script, not a test: nothing here asserts a figure.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.analysis.chances import chances, score
from engine.analysis.worlds import knowledge
from engine.registry import get_ruleset, known_slugs
from engine.ruleset import Ruleset
from engine.simulate import simulate_one

SEED = 13
DECILES = 10


def _samples(rs: Ruleset[Any, Any]) -> bool:
    return type(rs).sample_world is not Ruleset.sample_world


def _one_game(args: tuple[str, int, int, int, int, str]) -> list[tuple[float, float]]:
    """(predicted chance, outcome share) for every seat at ``positions`` positions of game ``i``."""
    slug, i, positions, worlds_n, rollouts, perspective = args
    rs = get_ruleset(slug)
    game = simulate_one(rs, SEED, i, bots=("greedy",))
    final = rs.setup(game.header)
    rs.fold(final, game.events)
    seats = len(game.header.players)
    outcome = score(rs, final, seats)
    if outcome is None:  # the game hit the simulator's cap: no winner to check against
        return []
    seen: Any = perspective if _samples(rs) or perspective == "referee" else "referee"
    known = knowledge(rs, game.header, game.events, seen)
    rng = random.Random(f"calibration:{slug}:{i}")
    picks = sorted(rng.sample(range(len(game.events)), min(positions, len(game.events))))
    states = known.states(picks)
    out: list[tuple[float, float]] = []
    for seq in picks:
        c = chances(rs, states[seq], seats, worlds_n=worlds_n, rollouts=rollouts, seed=i, key=seq)
        out.extend((c.points[s] / 100.0, outcome[s]) for s in range(seats))
    return out


def measure(slug: str, games: int, positions: int, worlds_n: int, rollouts: int, perspective: str,
            jobs: int) -> dict[str, Any]:
    rs = get_ruleset(slug)
    work = [(slug, i, positions, worlds_n, rollouts, perspective) for i in range(games)]
    begun = time.perf_counter()
    pairs: list[tuple[float, float]] = []
    with ProcessPoolExecutor(jobs) as pool:
        for found in pool.map(_one_game, work, chunksize=4):
            pairs.extend(found)
    seconds = time.perf_counter() - begun
    players = rs.min_players
    brier = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    # The base rate calls every seat the mean outcome: 1 / players where one seat wins, a
    # side's share of the wins in a game of sides (Trust No Bunny's Werebunnies win together).
    mean = sum(o for _, o in pairs) / len(pairs)
    base = sum((mean - o) ** 2 for _, o in pairs) / len(pairs)
    table = []
    for d in range(DECILES):
        lo, hi = d / DECILES, (d + 1) / DECILES
        inside = [(p, o) for p, o in pairs if lo <= p < hi or (d == DECILES - 1 and p == 1.0)]
        if inside:
            table.append({"decile": f"{lo:.1f}-{hi:.1f}",
                          "predicted": sum(p for p, _ in inside) / len(inside),
                          "observed": sum(o for _, o in inside) / len(inside), "n": len(inside)})
    return {"ruleset": slug, "players": players, "games": games, "positions": len(pairs) // players,
            "perspective": perspective if _samples(rs) or perspective == "referee" else "referee",
            "worlds": worlds_n, "rollouts": rollouts, "brier": brier, "base_brier": base,
            "reliability": table, "seconds": seconds}


def time_one_analysis(slug: str) -> tuple[int, float]:
    """Events and seconds of one default ``warren analyse`` of a game (the table's view where
    the ruleset has worlds, else the referee's), both cores."""
    from engine.reader import read_record
    from logstore.store.analyses import Question, work_out

    rs = get_ruleset(slug)
    game = simulate_one(rs, SEED, 0, bots=("greedy",))
    record = read_record(b"".join(game.lines()), f"{slug}.jsonl")
    begun = time.perf_counter()
    work_out(record, Question("spectator" if _samples(rs) else "referee"))
    return len(game.events), time.perf_counter() - begun


def speedup(slug: str, rounds: int = 3) -> list[float]:
    """One game's quick analysis (20 worlds x 2) on one process over on two, interleaved
    rounds: the ratio of times (2 is both cores fully used)."""
    from engine.analysis.timeline import Settings
    from engine.reader import read_record
    from logstore.store.analyses import Question, work_out

    rs = get_ruleset(slug)
    game = simulate_one(rs, SEED, 1, bots=("greedy",))
    record = read_record(b"".join(game.lines()), f"{slug}.jsonl")
    question = Question("spectator" if _samples(rs) else "referee", Settings(worlds=20, rollouts=2))
    ratios = []
    for _ in range(rounds):
        times = []
        for jobs in (1, 2):
            begun = time.perf_counter()
            work_out(record, question, jobs=jobs)
            times.append(time.perf_counter() - begun)
        ratios.append(times[0] / times[1])
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset (again for more; default: all)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--positions", type=int, default=2, help="positions per game")
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--rollouts", type=int, default=2)
    parser.add_argument("--as", dest="perspective", default="spectator")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-analyse", action="store_true",
                        help="also time one default analysis per ruleset")
    parser.add_argument("--speedup", action="store_true",
                        help="only: one game's analysis on one process over on two, per ruleset")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.speedup:
        for slug in args.ruleset or known_slugs():
            ratios = speedup(slug)
            print(f"{slug}: one process / two, {min(ratios):.2f}x to {max(ratios):.2f}x "
                  f"over {len(ratios)} rounds")
        return
    for slug in args.ruleset or known_slugs():
        found = measure(slug, args.games, args.positions, args.worlds, args.rollouts, args.perspective,
                        args.jobs)
        if args.time_analyse:
            found["analyse_events"], found["analyse_seconds"] = time_one_analysis(slug)
        if args.json:
            print(json.dumps(found))
            continue
        print(f"{slug} ({found['players']} players, {found['games']} games, {found['positions']} positions, "
              f"as {found['perspective']}, {found['worlds']} worlds x {found['rollouts']} rollouts, "
              f"{found['seconds']:.0f} s)")
        print(f"  Brier {found['brier']:.3f}   base rate (every seat at the mean outcome) "
              f"{found['base_brier']:.3f}")
        print("  decile     predicted  observed      n")
        for row in found["reliability"]:
            print(f"  {row['decile']:9}  {row['predicted']:9.2f}  {row['observed']:8.2f}  {row['n']:5}")
        if args.time_analyse:
            print(f"  one default analysis: {found['analyse_events']} events in "
                  f"{found['analyse_seconds']:.0f} s")


if __name__ == "__main__":
    main()
