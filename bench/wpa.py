"""The analysis across games at scale: the win-chance models' fit and the win chance added
(WPA) tables of a whole store, beside the projection build of the same store, on this machine
and on Spark in local mode, with each stage's time and peak memory.

    python3 -m bench.wpa --games 10000               # about 4 minutes on 2 cores
    python3 -m bench.wpa --games 100000 --work /big  # by hand: about 25 minutes
    python3 -m bench.wpa --games 2000 --no-spark
    python3 -m bench.wpa --store /big/warren-wpa-x/warren.db  # a store kept by --keep: no simulation

Stages (each one a ``warren`` command in a process of its own, as a user runs it), over the
mixed corpus of bench.pipeline (a fifth of each ruleset, seed 7):

1. ``simulate``, ``import``;
2. ``projections``: ``warren stats --rebuild --only recorded_games`` (every game replayed);
3. ``model fit``: ``warren model fit --check 0`` (every ruleset, its player count);
4. ``wpa tables``: ``warren export-parquet OUT --table turn_chances --table event_wpa
   --table player_wpa`` (the three tables over every finished game, written whole);
5. ``wpa``: ``warren model wpa --by card --json`` (every model: each card's figure, from the
   turn chances as views);
6. ``wpa on Spark``: the same with ``--spark local[2]`` (the turn chances worked out by
   Spark SQL from the projection parts and written, then each card's figure).

Printed: each stage's wall time and peak memory (bench.pipeline's measure), and the ratios
the targets are written in (docs/performance.md): the fit and the WPA tables against the
projection build (and the fit and the card figures), and Spark's card figures against the
local ones and against the projection build, with Spark's start-up (timed alone, in the
same run) taken out. Nothing here asserts a time.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from bench.pipeline import MASTER, ROOT, SEED, Stage, corpus_parser, leave, run, simulate, spark_startup


def main(argv: list[str] | None = None) -> int:
    parser = corpus_parser(__doc__)
    parser.add_argument("--store", type=Path, default=None,
                        help="measure on this store (kept by an earlier --keep) instead of a new corpus")
    args = parser.parse_args(argv)
    if args.store is not None:
        work = args.store.resolve().parent
    else:
        work = Path(tempfile.mkdtemp(prefix="warren-wpa-", dir=args.work))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARREN_SNAPSHOT_KEY": str(work / "snapshot.key")}
    records, db = work / "records", work / "warren.db"
    stages: list[Stage] = []
    try:
        if args.store is None:
            stages.append(simulate(records, args.games))
            stages.append(run("import", ["import", "--db", str(db), str(records)], env=env))
        stages.append(run("projections", ["stats", "--db", str(db), "--rebuild", "--only", "recorded_games",
                                           "-f", "json"], env=env))
        stages.append(run("model fit", ["model", "fit", "--check", "0", "--db", str(db)], env=env))
        tables = ["--table", "turn_chances", "--table", "event_wpa", "--table", "player_wpa"]
        out = str(work / "wpa-tables")
        stages.append(run("wpa tables", ["export-parquet", out, *tables, "--db", str(db)], env=env))
        stages.append(run("wpa", ["model", "wpa", "--by", "card", "--json", "--db", str(db)],
                          out=work / "wpa.json", env=env))
        spark = not args.no_spark and shutil.which("java") is not None
        if spark:
            stages.append(spark_startup(env))
            stages.append(run("wpa on Spark", ["model", "wpa", "--by", "card", "--json", "--spark", MASTER,
                                                "--db", str(db)], out=work / "wpa-spark.json", env=env))
        told = f"{args.games:,} games (mixed rulesets, seed {SEED})"
        print(f"{f'the store {args.store}' if args.store else told}; {os.cpu_count()} cores")
        print(f"{'stage':<24} {'seconds':>9} {'peak MB':>9}  exit")
        for s in stages:
            print(f"{s.name:<24} {s.seconds:>9.1f} {s.peak_mb:>9.0f}  {s.code}")
        failed = [s.name for s in stages if s.code != 0]
        if failed:
            print(f"failed: {', '.join(failed)} (run it by hand to see why): no ratio is worth printing")
            return 1
        by = {s.name: s.seconds for s in stages}
        for what in ("wpa tables", "wpa"):
            said = "the WPA tables" if what == "wpa tables" else "the card figures"
            print(f"model fit and {said} / projection build: "
                  f"{(by['model fit'] + by[what]) / by['projections']:.2f}x the time")
        if spark:
            up = by["Spark start-up"]
            same = (work / "wpa.json").read_bytes() == (work / "wpa-spark.json").read_bytes()
            print(f"Spark start-up: {up:.1f} s, taken out below")
            spark_wpa = by["wpa on Spark"] - up
            print(f"WPA on Spark / the same here: {spark_wpa / by['wpa']:.2f}x the time; "
                  f"/ the projection build: {spark_wpa / by['projections']:.2f}x "
                  f"(the same figures: {'yes' if same else 'NO'})")
    finally:
        leave(work, args.keep or args.store is not None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
