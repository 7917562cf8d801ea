"""Import speed of the store beside raw ``sqlite3.executemany`` of the same rows.

    python3 -m bench.store --games 300 --seed 1

Both sides write the same rows (one ``games`` row and every line of the game, its seal line
included) into the same schema, triggers included, in a fresh WAL file, one transaction per
game. The store's side
starts from record files and includes reading, decoding, hash-chain verification and
checking every event against the rules; the raw side gets its rows ready-made. The store is
timed in one process (``workers=0``) and with files prepared in a helper process while the
main one writes (``workers=1``, what ``import_paths`` does for large imports on two cores); the
CPU time of the writing process alone is printed beside the total, to show whether the
import is bound by its writes. Raw executemany
into the same tables without triggers is printed too, to show what the triggers cost.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.store import lines, proof, schema
from logstore.store.event_store import Store
from logstore.store.importing import prepare_path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(slots=True)
class ImportFigures:
    games: int
    events: int
    """Rows written to ``events`` (record lines, headers included)."""
    store_s: dict[int, float]
    """Wall-clock seconds per number of helper processes."""
    store_cpu_s: dict[int, float]
    """CPU seconds (this process and its helpers) per number of helper processes."""
    store_own_cpu_s: dict[int, float]
    """CPU seconds of this process alone (the writer) per number of helper processes."""
    raw_s: float
    raw_cpu_s: float
    raw_no_triggers_s: float

    def rate(self, seconds: float) -> float:
        return self.events / seconds


def simulated_records(ruleset: str, games: int, seed: int) -> list[bytes]:
    rules = get_ruleset(ruleset)
    return [b"".join(simulate_one(rules, seed, i).lines()) for i in range(games)]


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def _own_cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def _time_store(folder: Path, db: Path, workers: int) -> tuple[float, float, float]:
    with Store(db) as store:
        cpu, own, start = _cpu(), _own_cpu(), time.perf_counter()
        results = store.import_paths([folder], workers=workers)
        elapsed, cpu, own = time.perf_counter() - start, _cpu() - cpu, _own_cpu() - own
    if not all(r.ok for r in results):
        raise SystemExit(f"import refused a record: {next(r for r in results if not r.ok)}")
    return elapsed, cpu, own


def _rows(db: Path) -> list[list[Any]]:
    """Every row the store wrote, per game, to replay through raw executemany."""
    with Store(db) as store:
        games = store.conn.execute("SELECT * FROM games ORDER BY rowid").fetchall()
        keys = dict(store.conn.execute("SELECT game_id, key FROM game_keys").fetchall())
        span = lines.SPAN
        return [
            [game, keys[game[0]],
             store.conn.execute("SELECT * FROM event_lines WHERE id BETWEEN ? AND ? ORDER BY id",
                                (keys[game[0]] * span, keys[game[0]] * span + span - 1)).fetchall(),
             store.conn.execute("SELECT * FROM seals WHERE game_id = ? ORDER BY seq", (game[0],)).fetchall()]
            for game in games
        ]


def _time_raw(rows: Sequence[list[Any]], path: Path, triggers: bool) -> tuple[float, float]:
    conn = sqlite3.connect(path, isolation_level=None)
    proof.allow_writes(conn)  # the raw side writes as warren would, its proofs left out
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    if triggers:
        schema.install(conn)
    else:
        conn.executescript(schema.SCHEMA)
    game_sql = f"INSERT INTO games VALUES ({', '.join('?' * len(rows[0][0]))})"
    cpu, start = _cpu(), time.perf_counter()
    for game, key, events, seals in rows:
        conn.execute("BEGIN")
        conn.execute(game_sql, game)
        conn.execute("INSERT INTO game_keys VALUES (?, ?)", (key, game[0]))
        conn.executemany(lines.INSERT_SQL, events)
        conn.executemany("INSERT INTO seals VALUES (?, ?, ?)", seals)  # a record's closing line
        conn.execute("COMMIT")
    elapsed, cpu = time.perf_counter() - start, _cpu() - cpu
    conn.close()
    return elapsed, cpu


def _measure(args: list[str]) -> list[float]:
    """One timed run in a fresh Python (see :func:`bench_import`): the numbers it prints."""
    done = subprocess.run([sys.executable, "-m", "bench.store", "--measure", *args],
                          capture_output=True, text=True, check=False, cwd=ROOT, env=_env())
    if done.returncode != 0:
        raise SystemExit(f"a timed run failed: {done.stderr[-2000:]}")
    return [float(x) for x in done.stdout.split()]


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _measure_here(kind: str, source: Path, db: Path, workers: int) -> list[float]:
    if kind == "store":
        # Warm up as a long-running importer is: the ruleset, its decoders and codec built.
        first = min(str(p) for p in source.glob("*.jsonl"))
        prepare_path(first, lambda _: False)
        return list(_time_store(source, db, workers))
    return list(_time_raw(_rows(source), db, triggers=kind == "raw"))


def bench_import(records: Sequence[bytes], repeat: int = 3, workers: Sequence[int] = (0, 1)) -> ImportFigures:
    """Best of ``repeat`` runs of each side, on fresh files every time, turn and turn about.

    Every run is timed in a fresh Python of its own, so that no run pays for what another
    left behind: after a helper is forked, the next writes to each page of this process's
    memory cost a page fault (the page was shared with the helper), which would slow a raw
    run timed after it in the same process and flatter the ratio."""
    best = dict.fromkeys(workers, float("inf"))
    best_cpu = dict.fromkeys(workers, float("inf"))
    best_own = dict.fromkeys(workers, float("inf"))
    best_raw = best_raw_cpu = best_bare = float("inf")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "records"
        folder.mkdir()
        for i, data in enumerate(records):
            (folder / f"{i:06d}.jsonl").write_bytes(data)
        reference = Path(tmp) / "reference.db"
        with Store(reference) as store:
            if not all(r.ok for r in store.import_paths([folder], workers=0)):
                raise SystemExit("import refused a record")
        rows = _rows(reference)
        for run in range(repeat):
            for n in workers:
                db = Path(tmp) / f"store-{run}-{n}.db"
                wall, cpu, own = _measure(["store", str(folder), str(db), str(n)])
                best[n], best_cpu[n] = min(best[n], wall), min(best_cpu[n], cpu)
                best_own[n] = min(best_own[n], own)
            wall, cpu = _measure(["raw", str(reference), str(Path(tmp) / f"raw-{run}.db"), "0"])
            best_raw, best_raw_cpu = min(best_raw, wall), min(best_raw_cpu, cpu)
            bare = _measure(["bare", str(reference), str(Path(tmp) / f"bare-{run}.db"), "0"])
            best_bare = min(best_bare, bare[0])
    events = sum(len(events) + len(seals) for _, _key, events, seals in rows)
    return ImportFigures(len(records), events, best, best_cpu, best_own, best_raw, best_raw_cpu, best_bare)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="bunnies")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1],
                        help="helper process counts to time the store with")
    parser.add_argument("--measure", nargs=4, metavar=("KIND", "SOURCE", "DB", "WORKERS"),
                        help=argparse.SUPPRESS)  # one timed run, in the fresh Python bench_import starts
    args = parser.parse_args(argv)
    if args.measure:
        kind, source, db, workers = args.measure
        print(*_measure_here(kind, Path(source), Path(db), int(workers)))
        return
    records = simulated_records(args.ruleset, args.games, args.seed)
    load = os.getloadavg()[0]
    f = bench_import(records, args.repeat, args.workers)
    raw = f.rate(f.raw_s)
    raw_cpu = f.raw_cpu_s / f.events * 1e6
    print(f"{f.games} games, {f.events:,} rows (record lines), best of {args.repeat}; "
          f"load average before: {load:.1f}")
    print("                                                   wall lines/s  vs raw   CPU us/line"
          "  (the writer's own)")
    for workers, seconds in f.store_s.items():
        rate = f.rate(seconds)
        cpu = f.store_cpu_s[workers] / f.events * 1e6
        own = f.store_own_cpu_s[workers] / f.events * 1e6
        print(f"store import_paths, {workers} helper(s)                 {rate:>10,.0f}  {rate / raw:6.0%}"
              f"   {cpu:6.2f}  ({own:.2f})")
    print(f"raw executemany, same schema and triggers          {raw:>10,.0f}  {1:6.0%}   {raw_cpu:6.2f}")
    print(f"raw executemany, same tables without triggers      {f.rate(f.raw_no_triggers_s):>10,.0f}")


if __name__ == "__main__":
    main()
