"""Analytics at scale: simulate games of one ruleset into a store, project them, run every
canned stat.

    python3 -m bench.scale                       # 100,000 Bunnies games (long: see docs/performance.md)
    python3 -m bench.scale --games 2000          # a smaller run
    python3 -m bench.scale --games 2000 --ruleset killer-bunnies-quest
    python3 -m bench.scale --db big.db --keep    # keep the store to run again

Prints, in one run on the same data:

- the projection build rate (events/s, from the store's lines to Parquet parts) beside
  checked replay of the same games, both in memory (decoded events, as ``bench``
  measures it) and from the store (read the lines, decode, fold);
- every canned stat's time through ``warren stats`` (warm) beside bare DuckDB running the
  same SQL over the same Parquet files, and the ratio;
- incremental refresh: 1% more games imported, then ``refresh`` replays only those.

The corpus is not committed: it is simulated here (seed 7, random vs greedy bots). This is a
script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from bench.timing import best_of
from engine.record import Event, Header, decode_header
from engine.ruleset import Ruleset
from logstore.store.feed import StoredGame, decode_joined

SEED = 7


def _simulate_chunk(args: tuple[str, int, int, int]) -> list[bytes]:
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    slug, start, stop, seed = args
    rules = get_ruleset(slug)
    return [b"".join(simulate_one(rules, seed, i).lines()) for i in range(start, stop)]


def _chunks(slug: str, start: int, stop: int, size: int, seed: int) -> Iterator[tuple[str, int, int, int]]:
    for lo in range(start, stop, size):
        yield slug, lo, min(lo + size, stop), seed


def fill_store(db: Path, games: int, *, start: int = 0, jobs: int = 2, seed: int = SEED,
               slug: str = "bunnies") -> float:
    """Simulate games ``start .. games-1`` (skipping stored ones) and import them; seconds taken.

    Simulation runs in ``jobs`` worker processes while this one imports, one transaction
    per game, through :meth:`Store.import_bytes` (decode, hash chain, rules, insert).
    """
    from logstore.store.event_store import Store

    t0 = time.perf_counter()
    with Store(db) as store:
        have = store.conn.execute("SELECT count(*) FROM games WHERE game_id LIKE ?",
                                  (f"{slug}-{seed}-%",)).fetchone()[0]
        first = max(start, have)
        if first >= games:
            return 0.0
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            done = first
            for chunk in pool.imap(_simulate_chunk, _chunks(slug, first, games, 200, seed)):
                for i, data in enumerate(chunk):
                    store.import_bytes(data, f"<simulated {done + i}>")
                done += len(chunk)
                if done % 5000 < 200:
                    print(f"  stored {done:,} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000, help="corpus size (default 100,000)")
    parser.add_argument("--db", type=Path, default=None,
                        help="store to use (created and filled if it holds fewer games)")
    parser.add_argument("--keep", action="store_true", help="keep the store and its Parquet parts")
    parser.add_argument("--corpus-only", action="store_true", help="only fill the store")
    parser.add_argument("--repeats", type=int, default=5, help="runs per stat (best is kept)")
    parser.add_argument("--ruleset", default="bunnies", help="the ruleset simulated (default bunnies)")
    args = parser.parse_args()

    tmp = None
    if args.db is None:
        tmp = Path(tempfile.mkdtemp(prefix="warren-scale-"))
        db = tmp / "scale.db"
    else:
        db = args.db
    try:
        print(f"corpus: {args.games:,} simulated {args.ruleset} games (seed {SEED}) in {db}")
        took = fill_store(db, args.games, slug=args.ruleset)
        print(f"  simulated and imported in {took:.0f} s")
        if args.corpus_only:
            return
        run(db, args.games, args.repeats, args.ruleset)
    finally:
        if tmp is not None and not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


def sample_ids(db: Path, n: int, slug: str = "bunnies") -> list[str]:
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute(
            "SELECT game_id FROM games WHERE ruleset = ? ORDER BY game_id LIMIT ?", (slug, n))]


def decoded(ruleset: Ruleset[Any, Any], game: StoredGame) -> tuple[Header, list[Event]]:
    """A stored game's header and events, decoded as a projection decodes them (all event
    lines in one call)."""
    cut = game.data.find(b"\n") + 1
    events = decode_joined(ruleset, game.data[cut:], game.lines - 1)
    if events is None:  # simulated games are stored canonically: one call always decodes them
        raise SystemExit(f"game {game.game_id!r} does not decode in one call; it was not simulated here")
    return decode_header(game.data[:cut]), events


def bench_replay(db: Path, ids: list[str], slug: str = "bunnies") -> dict[str, float]:
    """Checked replay of the same games: in memory (decoded events) and from the store."""
    from engine.reader import check_events
    from engine.registry import get_ruleset
    from logstore.analytics.projection_rows import project_chunk
    from logstore.analytics.projections import CHUNK_GAMES
    from logstore.store.feed import StoreReader

    rs = get_ruleset(slug)
    chunks = [ids[i:i + CHUNK_GAMES] for i in range(0, len(ids), CHUNK_GAMES)]
    reader = StoreReader.open(db)
    games = [decoded(rs, g) for chunk in chunks for g in reader.games(chunk)]
    n = sum(len(events) for _, events in games)

    def in_memory() -> None:
        for header, events in games:
            check_events(rs, header, events)

    def from_store() -> None:
        for chunk in chunks:
            for g in reader.games(chunk):
                check_events(rs, *decoded(rs, g))

    def projected() -> None:
        for chunk in chunks:
            project_chunk(reader, rs, chunk)

    out = {"events": n, "checked": n / best_of(3, in_memory),
           "checked_from_store": n / best_of(3, from_store),
           "projection_one_process": n / best_of(2, projected)}
    reader.close()
    return out


def bench_routes(db: Path, ids: list[str], parquet_dir: Path) -> dict[str, float]:
    """Reading the same event rows out of SQLite: ADBC, sqlite3 rows, sqlite3 grouped; and
    scanning them in the Parquet parts."""
    import json

    import duckdb

    sql = ("SELECT game_id, seq, type, actor, line FROM events "
           "WHERE game_id IN (SELECT value FROM json_each(?))")
    arg = (json.dumps(ids),)
    out: dict[str, float] = {}
    with sqlite3.connect(db) as conn:
        n = conn.execute("SELECT count(*) FROM events WHERE game_id IN (SELECT value FROM json_each(?))",
                         arg).fetchone()[0]
        out["rows"] = n
        out["sqlite3_rows"] = n / best_of(2, lambda: conn.execute(sql, arg).fetchall())
        from logstore.analytics.projection_rows import events_table
        from logstore.store.feed import StoreReader

        grouped = StoreReader(conn)
        out["sqlite3_grouped"] = n / best_of(2, lambda: events_table(grouped.games(ids)))
    try:
        import adbc_driver_sqlite.dbapi as adbc
    except ImportError:
        out["adbc"] = float("nan")
    else:
        # its own process-wide SQLite copy: opened only while no sqlite3 connection is open
        with adbc.connect(str(db)) as a:
            def fetch() -> None:
                cur = a.cursor()
                cur.execute(sql, arg)
                cur.fetch_arrow_table()
                cur.close()

            out["adbc"] = n / best_of(2, fetch)
    con = duckdb.connect()
    files = f"'{parquet_dir}/events/*/*.parquet'"
    counted = con.execute(f"SELECT count(*) FROM read_parquet({files})").fetchone()
    assert counted is not None  # count(*) always answers one row
    total = int(counted[0])
    out["parquet_rows"] = total
    out["parquet_scan"] = total / best_of(3, lambda: con.execute(
        f"SELECT type, count(*), sum(length(line)) FROM read_parquet({files}) GROUP BY type").fetchall())
    con.close()
    return out


def bench_stats(db: Path, repeats: int) -> list[tuple[str, float, float, int]]:
    """Each canned stat through warren (warm) beside bare DuckDB on the same Parquet files."""
    import duckdb

    from logstore.analytics.duck import arrow
    from logstore.analytics.projections import TABLES, analytics_dir
    from logstore.analytics.stats import run_stat, stats_for
    from logstore.analytics.views import connect

    con, catalog = connect(db)
    bare = duckdb.connect()
    root = analytics_dir(db)
    for name in TABLES:
        bare.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet('{root}/{name}/*/*.parquet', "
                     "hive_partitioning = true, union_by_name = true)")
    rows = []
    for stat in stats_for(catalog.rulesets):
        run_stat(con, stat)  # warm both (file metadata, OS cache)
        arrow(bare, stat.sql)
        ours = min(run_stat(con, stat).seconds for _ in range(repeats))
        theirs = best_of(repeats, partial(arrow, bare, stat.sql))
        rows.append((stat.name, ours, theirs, run_stat(con, stat).table.num_rows))
    con.close()
    bare.close()
    return rows


def run(db: Path, games: int, repeats: int, slug: str = "bunnies") -> None:
    from logstore.analytics.projections import analytics_dir, cli_jobs, rebuild, refresh
    from logstore.analytics.views import list_parts
    from logstore.store.event_store import Store

    ids = sample_ids(db, min(2000, games), slug)
    r = bench_replay(db, ids, slug)
    print(f"\nreplay, same {len(ids):,} games ({r['events']:,.0f} events), one process")
    print(f"  checked replay, in memory      {r['checked']:>12,.0f} events/s")
    print(f"  checked replay, from the store {r['checked_from_store']:>12,.0f} events/s  "
          "(read + decode + fold)")
    print(f"  projection, one process        {r['projection_one_process']:>12,.0f} events/s  (no writing)")

    jobs = cli_jobs()
    with Store(db) as store:
        report = rebuild(store, jobs=jobs)
    rate = report.events / report.seconds
    print(f"\nprojection build (rebuild) of {report.games:,} games, {report.events:,} events, "
          f"{jobs} worker process(es), Parquet written")
    print(f"  {report.seconds:.1f} s = {rate:,.0f} events/s = {rate / r['checked']:.2f}x checked replay in "
          f"memory, {rate / r['checked_from_store']:.2f}x checked replay from the store")
    for name, n in report.rows.items():
        print(f"  {name:<13} {n:>13,} rows")
    size = sum(p.stat().st_size for p in analytics_dir(db).rglob("*.parquet"))
    print(f"  Parquet parts: {size / 1e6:,.0f} MB; store file {db.stat().st_size / 1e6:,.0f} MB")

    t = time.perf_counter()
    catalog = list_parts(db)
    print(f"\nup-to-date check and part listing: {(time.perf_counter() - t) * 1e3:.1f} ms "
          f"({sum(len(v) for v in catalog.parts.values())} parts)")

    print(f"\ncanned stats over {report.games:,} games (best of {repeats}, warm)")
    print(f"  {'stat':<28} {'warren':>9} {'bare':>9} {'ratio':>6} {'rows':>5}")
    for name, ours, theirs, n in bench_stats(db, repeats):
        print(f"  {name:<28} {ours * 1e3:>7.0f}ms {theirs * 1e3:>7.0f}ms {ours / theirs:>6.2f} {n:>5}")

    routes = bench_routes(db, ids[:500], analytics_dir(db))
    print(f"\nreading {routes['rows']:,.0f} event rows out of SQLite (500 games)")
    print(f"  ADBC fetch_arrow_table      {routes['adbc']:>12,.0f} rows/s")
    print(f"  sqlite3 fetchall            {routes['sqlite3_rows']:>12,.0f} rows/s")
    print(f"  sqlite3 grouped per game    {routes['sqlite3_grouped']:>12,.0f} rows/s  (what projections use)")
    print(f"  DuckDB scan of the Parquet  {routes['parquet_scan']:>12,.0f} rows/s  "
          f"({routes['parquet_rows']:,.0f} rows: events of every game)")

    extra = max(1, games // 100)
    with sqlite3.connect(db) as conn:  # a seed no earlier run used, so the games are new
        seed = SEED + 1
        while conn.execute("SELECT 1 FROM games WHERE game_id LIKE ?", (f"{slug}-{seed}-%",)).fetchone():
            seed += 1
    fill_store(db, games + extra, start=games, seed=seed, slug=slug)
    with Store(db) as store:
        report = refresh(store)
    print(f"\nincremental: {extra:,} new games imported, refresh replayed {report.games:,} games "
          f"({report.events:,} events) in {report.seconds:.1f} s; the other {games:,} were not replayed")


if __name__ == "__main__":
    main()
