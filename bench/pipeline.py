"""The whole way from simulated games to a canned stat, stage by stage, on this machine and on
Spark in local mode, with each stage's time and peak memory.

    python3 -m bench.pipeline --games 10000                  # about 6 minutes on 2 cores
    python3 -m bench.pipeline --games 100000 --work /big     # by hand: about 35 minutes, 12 GB
    python3 -m bench.pipeline --games 2000 --no-spark        # the local stages only

Stages (each one a ``warren`` command in a process of its own, as a user runs it):

1. ``simulate``: mixed rulesets (a fifth each, seed 7), written as record files by two
   worker processes;
2. ``check``: ``warren check --json`` of the folder (every core);
3. ``check on Spark``: ``warren check --spark local[2] --json``;
4. ``import``: ``warren import`` into a new store;
5. ``projections``: ``warren stats --rebuild --only recorded_games`` (the projection build
   from the store, every game replayed, then one small stat);
6. ``export``: ``warren export-parquet`` (the projections are current: the export copies
   them into one file per table and ruleset);
7. ``projections on Spark``: ``warren export-parquet --spark local[2] --records``;
8. ``stat``: ``warren stats --only win_rate_by_seat`` on the store, and with ``--parquet``
   on Spark's export.

Printed per stage: wall time, events a second, and the peak memory of the stage's whole
process tree (its worker processes, and for Spark the JVM and its Python workers), each
process's proportional share (Pss), so pages a forked worker shares with its parent count
once. Beside them, the store's size against the records it holds, and the ratios the
targets are written in (docs/performance.md): the projection build against checked replay
of the same games (``warren check``, which runs at about the rate of checked replay of
decoded events in one process: it reads, verifies and decodes on both cores), and Spark
against the local build and export, with Spark's start-up (timed alone, in the same run)
taken out. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MIX = (("bunnies", None), ("trust-no-bunny", 6), ("killer-bunnies-quest", 4),
       ("kinderbunnies", 3), ("killer-bunnies-odyssey", 2))
"""The rulesets, a fifth of the games each, with their players per game."""
SEED = 7
MASTER = "local[2]"
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Stage:
    name: str
    seconds: float
    peak_mb: float
    code: int


def _simulate(args: tuple[str, int | None, int, int, str]) -> int:
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    slug, players, lo, hi, folder = args
    rules = get_ruleset(slug)
    out = Path(folder) / slug
    out.mkdir(parents=True, exist_ok=True)
    for i in range(lo, hi):
        game = simulate_one(rules, SEED, i, players=players)
        (out / f"{game.header.game_id}.jsonl").write_bytes(b"".join(game.lines()))
    return hi - lo


def simulate(folder: Path, games: int, jobs: int = 2) -> Stage:
    share = [games // len(MIX) + (1 if k < games % len(MIX) else 0) for k in range(len(MIX))]
    tasks = [(slug, players, lo, min(lo + 200, n), str(folder))
             for (slug, players), n in zip(MIX, share, strict=True) for lo in range(0, n, 200)]
    start = time.perf_counter()
    peak = 0
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pending = pool.map_async(_simulate, tasks)
        while not pending.ready():
            peak = max(peak, _tree_rss(os.getpid()))
            pending.wait(0.2)
        done = sum(pending.get())
    assert done == games
    return Stage("simulate", time.perf_counter() - start, peak / 2**20, 0)


def _tree_rss(root: int) -> int:
    """Memory of a process and all its descendants now (Linux: /proc), in bytes: each one's
    proportional share (Pss) where the kernel gives it, so pages a forked worker shares with
    its parent are counted once; its resident size (Rss) otherwise."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [root]
    page = os.sysconf("SC_PAGE_SIZE")
    while todo:
        pid = todo.pop()
        total += _pss(pid, page)
        todo.extend(parents.get(pid, []))
    return total


def _pss(pid: int, page: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * page
    except OSError:
        return 0


def _watch(argv: list[str], out: Path | None, env: dict[str, str] | None) -> tuple[float, float, int]:
    """Run a command; its wall time, the peak memory of its whole process tree (sampled every
    0.2 s: the command, its workers, Spark's JVM and Python workers; shared pages counted
    once) in MB, and its exit code."""
    start = time.perf_counter()
    peak = 0
    with open(os.devnull if out is None else out, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        while proc.poll() is None:
            peak = max(peak, _tree_rss(proc.pid))
            time.sleep(0.2)
    return time.perf_counter() - start, peak / 2**20, proc.returncode


def run(name: str, argv: list[str], *, out: Path | None = None, env: dict[str, str] | None = None) -> Stage:
    """One ``warren`` command in a process of its own."""
    seconds, peak, code = _watch([sys.executable, "-m", "logstore.cli", *argv], out, env)
    return Stage(name, seconds, peak, code)


def store_size(db: Path) -> int:
    """The store file's bytes once its write-ahead log is folded in (what stays on disk)."""
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def checked_in_memory(db: Path) -> tuple[int, float]:
    """Checked replay of every stored game in this process, events already decoded: the
    baseline of the projection build's target. Games are read and decoded a chunk at a time
    (not timed), so memory stays flat; ``(events, seconds)`` of the folds alone."""
    import sqlite3

    from bench.scale import decoded
    from engine.reader import check_events
    from engine.registry import get_ruleset
    from logstore.analytics.projections import CHUNK_GAMES
    from logstore.store.feed import StoreReader

    with sqlite3.connect(db) as conn:
        by_ruleset: dict[str, list[str]] = {}
        for game_id, slug in conn.execute("SELECT game_id, ruleset FROM games ORDER BY game_id"):
            by_ruleset.setdefault(slug, []).append(game_id)
    reader = StoreReader.open(db)
    events, seconds = 0, 0.0
    try:
        for slug, ids in by_ruleset.items():
            rs = get_ruleset(slug)
            for lo in range(0, len(ids), CHUNK_GAMES):
                games = [decoded(rs, g) for g in reader.games(ids[lo:lo + CHUNK_GAMES])]
                t = time.perf_counter()
                for header, evs in games:
                    check_events(rs, header, evs)
                seconds += time.perf_counter() - t
                events += sum(len(evs) for _, evs in games)
    finally:
        reader.close()
    return events, seconds


def spark_startup(env: dict[str, str]) -> Stage:
    code = ("from logstore.analytics.spark import session\n"
            f"session({MASTER!r}).stop()\n")
    seconds, peak, status = _watch([sys.executable, "-c", code], None, env)
    return Stage("Spark start-up", seconds, peak, status)


def corpus_parser(description: str | None) -> argparse.ArgumentParser:
    """The options of a script over a simulated corpus: its size, where, whether to keep it,
    and whether to run the Spark stages (bench.pipeline, bench.wpa)."""
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--work", type=Path, default=None,
                        help="folder for the corpus (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the corpus, the store and what was written")
    parser.add_argument("--no-spark", action="store_true", help="the local stages only")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = corpus_parser(__doc__).parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="warren-pipeline-", dir=args.work))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WARREN_SNAPSHOT_KEY": str(work / "snapshot.key")}
    records, db = work / "records", work / "warren.db"
    stages: list[Stage] = []
    try:
        stages.append(simulate(records, args.games))
        verdicts = work / "verdicts.jsonl"
        stages.append(run("check", ["check", "--json", str(records)], out=verdicts, env=env))
        events = sum(json.loads(line)["events"] for line in verdicts.read_text().splitlines())
        spark = not args.no_spark and shutil.which("java") is not None
        if spark:
            startup = spark_startup(env)
            stages.append(startup)
            stages.append(run("check on Spark", ["check", "--spark", MASTER, "--json", str(records)],
                              out=work / "spark-verdicts.jsonl", env=env))
            same = (work / "spark-verdicts.jsonl").read_bytes() == verdicts.read_bytes()
        stages.append(run("import", ["import", "--db", str(db), str(records)], env=env))
        store_bytes, record_bytes = store_size(db), sum(p.stat().st_size for p in records.rglob("*.jsonl"))
        folded, fold_seconds = checked_in_memory(db)
        stages.append(run("projections", ["stats", "--db", str(db), "--rebuild", "--only", "recorded_games",
                                           "-f", "json"], env=env))
        stages.append(run("export", ["export-parquet", "--db", str(db), str(work / "local")], env=env))
        if spark:
            stages.append(run("projections on Spark", ["export-parquet", "--spark", MASTER, "--records",
                                                       str(records), str(work / "spark")], env=env))
        stages.append(run("stat", ["stats", "--db", str(db), "--only", "win_rate_by_seat", "-f", "json"],
                          env=env))
        if spark:
            stages.append(run("stat on Spark's export", ["stats", "--parquet", str(work / "spark"), "--only",
                                                         "win_rate_by_seat", "-f", "json"], env=env))
        print(f"{args.games:,} games, {events:,} events (mixed rulesets, seed {SEED}); "
              f"{os.cpu_count()} cores")
        print(f"{'stage':<24} {'seconds':>9} {'events/s':>11} {'peak MB':>9}  exit")
        for s in stages:
            rate = f"{events / s.seconds:,.0f}" if s.name not in ("Spark start-up", "simulate") else ""
            print(f"{s.name:<24} {s.seconds:>9.1f} {rate:>11} {s.peak_mb:>9.0f}  {s.code}")
        by = {s.name: s.seconds for s in stages}
        print(f"store: {store_bytes / 1e6:,.1f} MB for {record_bytes / 1e6:,.1f} MB of records "
              f"({store_bytes / record_bytes:.2f}x)")
        in_memory = folded / fold_seconds
        print(f"checked replay in memory, one process: {in_memory:,.0f} events/s "
              f"({folded:,} events in {fold_seconds:.1f} s, decoding not counted)")
        build = events / by["projections"]
        print(f"projection build / checked replay: {build / in_memory:.2f}x in memory, one process; "
              f"{by['check'] / by['projections']:.2f}x `warren check`")
        if spark:
            up = by["Spark start-up"]
            print(f"Spark start-up: {up:.1f} s, taken out below")
            print(f"check on Spark / check: {(by['check on Spark'] - up) / by['check']:.2f}x the time"
                  f" (same lines: {'yes' if same else 'NO'})")
            print(f"projections on Spark / projections and export: "
                  f"{(by['projections on Spark'] - up) / (by['projections'] + by['export']):.2f}x the time")
    finally:
        leave(work, args.keep)
    return 0


def leave(work: Path, keep: bool) -> None:
    """The corpus kept (and where it is said) or removed, at a script's end."""
    if keep:
        print(f"kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
