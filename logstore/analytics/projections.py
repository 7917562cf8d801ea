"""Projections: tables derived from the event log by replay, for analytics across all games.

Every table here is derived: :func:`rebuild` throws it all away and replays every stored game
again, and :func:`refresh` replays only the games that are new, have grown (an append) or got
a new verdict (``Store.recheck``) since they were last projected. The tables are written
against the generic :class:`~engine.ruleset.Ruleset` contract only (the effects ``apply``
returns, ``key_figures`` at the end of each turn, ``outcome`` at the end of the game), so a
new ruleset gets its projections without a line of code here.

Where they live (the reasons and the measurements are in docs/analytics.md): as Parquet
files beside the store, ``<store>.analytics/<table>/ruleset=<slug>/<part>.parquet``, the
same hive layout that ``warren export-parquet`` writes and Spark reads. The per-turn tables
are large (a game of Bunnies has ~380 turns): columnar and compressed they take about a
hundredth of the space they would take as SQLite rows, and DuckDB scans them at once.
Which parts exist, and which game sits in which part, is kept in the projections' own
catalog, an SQLite file in that folder (``catalog.sqlite``: ``parts``, ``games``,
``state``), so a part counts only once its batch is committed there; a file that no
committed row names (a refresh that died half-way) is removed by the next refresh. The
store is read only through its feed (logstore.store.feed): its change counter, each
game's version and the games' stored lines; nothing here runs SQL on the store's tables.

Tables (columns are documented in docs/analytics.md): ``games``, ``seat_results``,
``turns``, ``turn_seats``, ``effects``, ``seat_items`` and ``events`` (the raw lines), whose
rows are derived in logstore.analytics.projection_rows; and the players' ``players`` and
``player_seats`` (logstore.players.tables), written whole at every refresh.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from engine.registry import get_ruleset
from engine.ruleset import Ruleset
from logstore.analytics.duck import COPY_CONFIG
from logstore.analytics.projection_rows import AnalyticsError, project_chunk
from logstore.analytics.schema import BASE_SCHEMAS
from logstore.store.feed import GameVersion, StoreReader

if TYPE_CHECKING:
    from logstore.store.event_store import Store

__all__ = [
    "BASE_SCHEMAS", "TABLES", "AnalyticsError", "Projections", "RefreshReport", "analytics_dir",
    "cli_jobs", "rebuild", "refresh",
]

PROJECTION_VERSION = 5
"""Bump when the projection code changes what it derives: the next refresh rebuilds."""

GAME_TABLES: tuple[str, ...] = (
    "games", "seat_results", "turns", "turn_seats", "effects", "seat_items", "events",
)
"""The tables a game's replay gives rows of, written batch by batch."""
PLAYER_TABLES: tuple[str, ...] = ("players", "player_seats")
"""The players' tables (logstore.players.tables): written whole at every refresh, since a
merge or a rename changes the player of games projected long ago."""
TABLES: tuple[str, ...] = GAME_TABLES + PLAYER_TABLES
"""Every projection table."""

CHUNK_GAMES = 500
"""Games replayed per chunk: one read of their lines, one Parquet row group per table."""
BATCH_GAMES = 20_000
"""Games per committed batch (one part file per table and ruleset)."""
SLAB_GAMES = 2_500
"""Games per part file within a batch replayed in this process."""
WORKER_SLAB_GAMES = 1_000
"""Games per part file when worker processes replay: the unit a worker takes. Smaller than
SLAB_GAMES so that the last slab, which one worker replays while the others are done, is
short (a thousand Quest games, 321,256 events, take a core about 4 s: bench.scale's
one-process projection, 77,000 events a second)."""
MIN_SLAB_GAMES = 100
"""No slab is made smaller than this to give every worker one: a small refresh is cheaper
in one process than in many small part files."""
SMALL_PART_GAMES = 1_000
SMALL_PART_ROWS = 50_000
"""Parts of fewer games, or fewer rows, are merged once a table has more than
MAX_SMALL_PARTS of them. The rows' limit catches the per-game tables of a large refresh
(``games``: a thousand rows a part), whose merge costs nothing; at 300,000 it also took the
turns and effects of whole rulesets, and the merge, on one thread after the workers are
done, took 15 of 76 s of a 40,000-game rebuild cut into parts of 400 games (3 s at
50,000)."""
MAX_SMALL_PARTS = 8

CATALOG = "catalog.sqlite"
"""The projections' bookkeeping, in the analytics folder (never in the store's file)."""

CATALOG_SCHEMA = """
CREATE TABLE IF NOT EXISTS state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    batch INTEGER NOT NULL,           -- the batch that last projected it
    n_events INTEGER NOT NULL,        -- the store's n_events when projected
    verdict TEXT NOT NULL             -- the store's verdict when projected (store.feed.VERDICT_SQL)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parts (
    file TEXT PRIMARY KEY,            -- relative to the analytics folder
    tbl TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    batch INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    games INTEGER NOT NULL,           -- games with rows in the part
    min_game TEXT,                    -- the range of game ids in the part
    max_game TEXT
);
"""


def open_catalog(root: Path, *, read_only: bool = False) -> sqlite3.Connection | None:
    """The catalog of the projections in ``root`` (created unless ``read_only``; None when a
    read-only look finds none)."""
    path = root / CATALOG
    if read_only:
        if not path.is_file():
            return None
        return sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=30)
    root.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")  # readers never wait for a refresh
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in CATALOG_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        conn.close()
        raise
    return conn


def analytics_dir(store_path: Path) -> Path:
    """The folder of the Parquet parts beside a store file: ``<store>.analytics``."""
    return Path(str(store_path) + ".analytics")


# -- what one refresh did ---------------------------------------------------------------
@dataclass(slots=True)
class RefreshReport:
    games: int = 0
    """Games replayed."""
    replaced: int = 0
    """Of those, games that had been projected before (grown or re-judged)."""
    events: int = 0
    """Events replayed."""
    seconds: float = 0.0
    rebuilt: bool = False
    rows: dict[str, int] = field(default_factory=dict)
    """Rows written per table."""


# -- the parts on disk and their bookkeeping ----------------------------------------------
class Projections:
    """The projection tables of one store: refresh, rebuild, and the list of their parts."""

    def __init__(self, store: Store, *, jobs: int | None = None) -> None:
        self.store = store
        self.jobs = jobs if jobs is not None else default_jobs()
        """Worker processes for a large refresh (1 = replay here)."""
        self.reader: StoreReader = store.reader
        self.dir = analytics_dir(store.path)
        conn = open_catalog(self.dir)
        assert conn is not None  # opened for writing: created when missing
        self.conn: sqlite3.Connection = conn
        """The catalog: the projections' own bookkeeping (never the store's connection)."""
        self._versions: dict[str, GameVersion] = {}
        """The store's game versions as the current refresh read them."""

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Projections:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _begin(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")
        self.conn.execute("BEGIN IMMEDIATE")

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    # -- reading the bookkeeping ---------------------------------------------------------
    def _state(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def changes(self) -> str:
        """The store's id and change counter (logstore.store.feed), as text."""
        return f"{self.reader.identity()}:{self.reader.change_count()}"

    def is_current(self) -> bool:
        """True when nothing changed in the store since the last refresh (one row read)."""
        return (self._state("version") == str(PROJECTION_VERSION)
                and self._state("projected_changes") == self.changes())

    def parts(self) -> dict[str, list[Path]]:
        """Committed part files per table."""
        out: dict[str, list[Path]] = {t: [] for t in TABLES}
        for tbl, file in self.conn.execute("SELECT tbl, file FROM parts ORDER BY tbl, file"):
            out.setdefault(tbl, []).append(self.dir / file)
        return out

    def stale(self) -> list[tuple[str, str, bool]]:
        """``(game_id, ruleset, projected before)`` for every game to (re)project, by ruleset
        and game id: the store's versions against the catalog's."""
        projected = {r[0]: (r[1], r[2])
                     for r in self.conn.execute("SELECT game_id, n_events, verdict FROM games")}
        self._versions = {}
        out = []
        for version in self.reader.versions():
            was = projected.get(version.game_id)
            if was is None or was != (version.n_events, version.verdict):
                self._versions[version.game_id] = version
                out.append((version.game_id, version.ruleset, was is not None))
        return out

    # -- writing ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """One refresher at a time per store (readers never wait)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(self.dir / ".lock", "w") as handle:
            try:
                import fcntl
            except ImportError:  # pragma: no cover - not POSIX: no second refresher expected
                yield
                return
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _remove_orphans(self) -> None:
        """Delete part files no committed row names (left by a refresh that died)."""
        known = {r[0] for r in self.conn.execute("SELECT file FROM parts")}
        for path in self.dir.rglob("*.parquet*"):
            if path.relative_to(self.dir).as_posix() not in known:
                path.unlink(missing_ok=True)

    def refresh(self, *, progress: Callable[[int], None] | None = None,
                batch_games: int = BATCH_GAMES) -> RefreshReport:
        """Project every game that is new or changed since it was last projected."""
        started = time.perf_counter()
        report = RefreshReport()
        with self._locked():
            store = self.reader.identity()
            if self._state("version") not in (None, str(PROJECTION_VERSION)) \
                    or self._state("store") not in (None, "", store):
                # other projection code, or another store file at the same path: start again
                self._clear()
                report.rebuilt = True
            if self.is_current():
                report.seconds = time.perf_counter() - started
                return report
            self._remove_orphans()
            changes = self.changes()
            stale = self.stale()
            by_ruleset: dict[str, list[tuple[str, bool]]] = {}
            for game_id, slug, before in stale:
                by_ruleset.setdefault(slug, []).append((game_id, before))
            plan = [(get_ruleset(slug), games[lo:lo + batch_games])
                    for slug, games in by_ruleset.items() for lo in range(0, len(games), batch_games)]
            self._write_batches(plan, report, progress)
            self._compact()
            self._write_players()
            self._set_state({"version": str(PROJECTION_VERSION), "projected_changes": changes,
                             "store": store})
        report.seconds = time.perf_counter() - started
        return report

    def rebuild(self, *, progress: Callable[[int], None] | None = None) -> RefreshReport:
        """Forget every projection and replay every stored game."""
        with self._locked():
            self._clear()
        report = self.refresh(progress=progress)
        report.rebuilt = True
        return report

    def _clear(self) -> None:
        self._begin()
        try:
            self.conn.execute("DELETE FROM games")
            self.conn.execute("DELETE FROM parts")
            self.conn.execute("DELETE FROM state")
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        self._remove_orphans()

    def _set_state(self, values: dict[str, str]) -> None:
        self._begin()
        try:
            self.conn.executemany("INSERT OR REPLACE INTO state VALUES (?, ?)",
                                  list(values.items()))
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _next_batch(self) -> int:
        row = self.conn.execute("SELECT max(batch) FROM parts").fetchone()
        done = self._state("last_batch")
        return max(row[0] or 0, int(done or 0)) + 1

    def _batches(self, plan: list[tuple[Ruleset[Any, Any], list[tuple[str, bool]]]]) -> list[_Batch]:
        """The batches of a refresh, numbered, each cut into slabs for the processes that
        replay them."""
        first = self._next_batch()
        out = []
        for k, (ruleset, games) in enumerate(plan):
            batch = first + k
            token = secrets.token_hex(4)
            ids = [g for g, _ in games]
            size = slab_games(len(ids), self.jobs)
            slabs = [(ids[lo:lo + size], f"part-{batch:06d}-{token}-{lo:07d}")
                     for lo in range(0, len(ids), size)]
            out.append(_Batch(ruleset, batch, ids, [g for g, before in games if before], slabs))
        return out

    def _slabs(self, batches: list[_Batch]) -> Generator[tuple[int, _SlabResult], None, None]:
        """Each slab of every batch replayed and written, as ``(batch index, result)``: here
        in order, or in worker processes as they finish.

        The workers share one pool for the whole refresh and take the slabs largest first
        (by their stored events), so no worker waits at the end of a batch or a ruleset for
        another's last slab; only the refresh's last slabs run alone, and they are the
        smallest."""
        import multiprocessing

        tasks = [(k, ids, prefix) for k, b in enumerate(batches) for ids, prefix in b.slabs]
        if self.jobs <= 1 or len(tasks) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            for k, ids, prefix in tasks:
                yield k, write_slab(self.reader, batches[k].ruleset, ids, self.dir, prefix)
            return
        versions = self._versions
        tasks.sort(key=lambda t: -sum(versions[g].n_events for g in t[1]))
        # fork: the workers start at once, with warren already imported, and never touch this
        # process's SQLite connections (each opens its own reader, read-only); a worker leaves through
        # os._exit, so nothing inherited is closed or flushed twice. Where fork is missing
        # (Windows, macOS' default), the slabs are replayed here.
        context = multiprocessing.get_context("fork")
        import duckdb  # noqa: F401 - the workers' seat items query it: imported once, before they fork

        db = str(Path(self.store.path).resolve())
        work = [(k, db, batches[k].ruleset.slug, ids, str(self.dir), prefix) for k, ids, prefix in tasks]
        # An executor, not multiprocessing.Pool: when a slab fails, Pool.terminate could wait
        # for ever on a queue lock a stopped worker held (seen once in a test run); the
        # executor lets the slabs under way finish, drops the rest, and a worker that dies
        # is an error (BrokenProcessPool), never a hang. Slabs are taken in the order given.
        with ProcessPoolExecutor(max_workers=min(self.jobs, len(work)), mp_context=context) as pool:
            pending = {pool.submit(_slab_in_worker, w) for w in work}
            try:
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield future.result()
            finally:
                for future in pending:
                    future.cancel()

    def _write_batches(self, plan: list[tuple[Ruleset[Any, Any], list[tuple[str, bool]]]],
                       report: RefreshReport, progress: Callable[[int], None] | None) -> None:
        """Replay every batch of a refresh, and commit each one, all its parts at once, as
        soon as its last slab is written."""
        batches = self._batches(plan)
        left = [len(b.slabs) for b in batches]
        try:
            # closed before the parts are discarded: the workers are stopped first
            with contextlib.closing(self._slabs(batches)) as results:
                for k, result in results:
                    batch = batches[k]
                    batch.written.extend(result.parts)
                    report.events += result.events
                    if progress is not None:
                        progress(result.games)
                    left[k] -= 1
                    if left[k] == 0:
                        self._commit(batch, report)
        except BaseException:
            for batch in batches:
                if not batch.committed:
                    batch.discard(self.dir)
            raise

    def _commit(self, batch: _Batch, report: RefreshReport) -> None:
        """Give a replayed batch's parts their names and commit them, with its games."""
        written, slug = batch.written, batch.ruleset.slug
        for part in written:
            os.replace(self.dir / (part.rel + ".tmp"), self.dir / part.rel)
        # Parts that still hold old rows of a replaced game are rewritten without them.
        rewrites = self._rewrite_without(batch.replaced) if batch.replaced else []
        self._begin()
        try:
            conn = self.conn
            conn.executemany(
                "INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(p.rel, p.table, slug, batch.number, p.rows, p.games, p.min_game, p.max_game)
                 for p in written],
            )
            for old, new in rewrites:
                conn.execute("DELETE FROM parts WHERE file = ?", (old,))
                if new is not None:
                    conn.execute("INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", new)
            # The version read before the replay: a game that grew meanwhile is stale next time.
            conn.executemany(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                [(g, v.ruleset, batch.number, v.n_events, v.verdict)
                 for g in batch.ids for v in [self._versions[g]]],
            )
            # batches commit as their slabs finish, not in their numbers' order
            conn.execute("INSERT OR REPLACE INTO state VALUES ('last_batch', "
                         "max(?, ifnull((SELECT CAST(value AS INTEGER) FROM state "
                         "WHERE key = 'last_batch'), 0)))", (batch.number,))
            conn.execute("COMMIT")
        except BaseException:
            self._rollback()  # its parts are discarded by _write_batches, as every uncommitted batch's
            raise
        batch.committed = True
        for old, _new in rewrites:
            (self.dir / old).unlink(missing_ok=True)
        report.games += len(batch.ids)
        report.replaced += len(batch.replaced)
        for part in written:
            report.rows[part.table] = report.rows.get(part.table, 0) + part.rows

    def _write_players(self) -> None:
        """The players' tables, whole (logstore.players.tables), replacing the last ones."""
        from logstore.players.tables import player_tables

        tables = player_tables(self.store)
        batch = self._next_batch()
        token = secrets.token_hex(4)
        written: list[tuple[str, str, str, int]] = []
        try:
            for (tbl, slug), table in tables.items():
                rel = f"{tbl}/ruleset={slug}/players-{batch:06d}-{token}.parquet"
                _write_file(self.dir / rel, table)
                written.append((rel, tbl, slug, table.num_rows))
        except BaseException:
            _discard(self.dir, [w[0] for w in written])
            raise
        old = [f for (f,) in self.conn.execute(
            f"SELECT file FROM parts WHERE tbl IN ({', '.join('?' * len(PLAYER_TABLES))})",
            PLAYER_TABLES)]
        self._begin()
        try:
            self.conn.executemany("DELETE FROM parts WHERE file = ?", [(f,) for f in old])
            self.conn.executemany("INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)",
                                  [(rel, tbl, slug, batch, rows, 0) for rel, tbl, slug, rows in written])
            self.conn.execute("INSERT OR REPLACE INTO state VALUES ('last_batch', ?)",
                              (str(batch),))
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            _discard(self.dir, [w[0] for w in written])
            raise
        for f in old:
            (self.dir / f).unlink(missing_ok=True)

    def _rewrite_without(self, game_ids: list[str]) -> list[tuple[str, tuple[Any, ...] | None]]:
        """New files for the committed parts holding any of these games, without their rows.

        Returns ``(old file, new analytics_parts row or None when nothing is left)``. Only
        parts whose game-id range covers one of the games are opened, and of those only the
        ``game_id`` column unless a row has to go.
        """
        out: list[tuple[str, tuple[Any, ...] | None]] = []
        drop = pa.array(game_ids, pa.string())
        parts = self.conn.execute(
            "SELECT DISTINCT p.file, p.tbl, p.ruleset, p.batch FROM parts p "
            "JOIN json_each(?) j ON j.value BETWEEN p.min_game AND p.max_game",
            (json.dumps(game_ids),)).fetchall()
        for old, tbl, slug, batch in parts:
            path = self.dir / old
            ids = pq.read_table(path, columns=["game_id"]).column("game_id")
            if not pc.any(pc.is_in(ids, value_set=drop)).as_py():
                continue
            table = pq.read_table(path)
            kept = table.filter(pc.invert(pc.is_in(table.column("game_id"), value_set=drop)))
            if kept.num_rows == 0:
                out.append((old, None))
                continue
            rel = f"{tbl}/ruleset={slug}/part-{batch:06d}-{secrets.token_hex(4)}-rw.parquet"
            _write_file(self.dir / rel, kept)
            game_col = kept.column("game_id")
            out.append((old, (rel, tbl, slug, batch, kept.num_rows, pc.count_distinct(game_col).as_py(),
                              pc.min(game_col).as_py(), pc.max(game_col).as_py())))
        return out

    def _compact(self) -> None:
        """Merge small parts so a table stays a few files.

        A part is small when it holds fewer than SMALL_PART_GAMES games (left by a small
        refresh) or fewer than SMALL_PART_ROWS rows (a per-game table of a large refresh).
        Once a table has more than MAX_SMALL_PARTS small parts they become one part, which
        takes part in the next merge only while it is still small, so parts grow in tiers
        and a large one is never rewritten. DuckDB streams the merge on one thread
        (COPY_CONFIG), so memory stays flat.
        """
        small_sql = "(games < ? OR rows < ?)"
        limits = (SMALL_PART_GAMES, SMALL_PART_ROWS)
        groups = self.conn.execute(
            f"SELECT tbl, ruleset FROM parts WHERE {small_sql} GROUP BY tbl, ruleset "
            "HAVING count(*) > ?", (*limits, MAX_SMALL_PARTS)).fetchall()
        for tbl, slug in groups:
            small = self.conn.execute(
                "SELECT file, batch, games, min_game, max_game, rows FROM parts "
                f"WHERE tbl = ? AND ruleset = ? AND {small_sql} ORDER BY file",
                (tbl, slug, *limits)).fetchall()
            batch = max(r[1] for r in small)
            rel = f"{tbl}/ruleset={slug}/part-{batch:06d}-{secrets.token_hex(4)}-merged.parquet"
            _merge_files([self.dir / r[0] for r in small], self.dir / rel)
            self._begin()
            try:
                self.conn.executemany("DELETE FROM parts WHERE file = ?", [(r[0],) for r in small])
                self.conn.execute(
                    "INSERT INTO parts VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (rel, tbl, slug, batch, sum(r[5] for r in small), sum(r[2] for r in small),
                     min(r[3] for r in small), max(r[4] for r in small)))
                self.conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                (self.dir / rel).unlink(missing_ok=True)
                raise
            for r in small:
                (self.dir / r[0]).unlink(missing_ok=True)


def _merge_files(files: list[Path], target: Path) -> None:
    """One Parquet file with the rows of ``files`` in order (columns unified by name)."""
    import duckdb

    tmp = Path(str(target) + ".tmp")
    tmp.parent.mkdir(parents=True, exist_ok=True)
    listing = ", ".join("'" + str(f).replace("'", "''") + "'" for f in files)
    con = duckdb.connect(config=COPY_CONFIG)
    try:
        con.execute(
            f"COPY (SELECT * FROM read_parquet([{listing}], union_by_name = true, "
            f"hive_partitioning = false)) TO '{str(tmp).replace(chr(39), chr(39) * 2)}' "
            "(FORMAT parquet, COMPRESSION zstd)")
    finally:
        con.close()
    os.replace(tmp, target)


@dataclass(slots=True)
class _Batch:
    """One batch of a refresh: games of one ruleset, committed together, cut into slabs."""

    ruleset: Ruleset[Any, Any]
    number: int
    ids: list[str]
    replaced: list[str]
    """Of ``ids``, the games projected before (grown or re-judged)."""
    slabs: list[tuple[list[str], str]]
    """Each slab's games and the name its parts start with."""
    written: list[_Written] = field(default_factory=list)
    committed: bool = False

    def discard(self, root: Path) -> None:
        """Remove the parts of a batch that is not committed, written or half-written."""
        _discard(root, [p.rel for p in self.written])
        _discard(root, [f"{name}/ruleset={self.ruleset.slug}/{prefix}"
                        for _, prefix in self.slabs for name in GAME_TABLES], prefix=True)


@dataclass(frozen=True, slots=True)
class _Written:
    """A part a slab wrote, named ``<rel>.tmp`` until its batch is committed."""

    rel: str
    table: str
    rows: int
    games: int
    min_game: str
    max_game: str


@dataclass(frozen=True, slots=True)
class _SlabResult:
    parts: list[_Written]
    events: int
    games: int


def write_slab(reader: StoreReader, ruleset: Ruleset[Any, Any], ids: list[str], root: Path,
               prefix: str) -> _SlabResult:
    """Replay a slab of games chunk by chunk and write one part per table (a row group per
    chunk), under temporary names. A table whose columns change mid-slab (a figure that
    appears) starts a new part there."""
    open_parts: dict[str, _Part] = {}
    done: list[_Part] = []
    events = 0
    try:
        for lo in range(0, len(ids), CHUNK_GAMES):
            part_ids = ids[lo:lo + CHUNK_GAMES]
            tables, n_events = project_chunk(reader, ruleset, part_ids)
            events += n_events
            for name in GAME_TABLES:
                table = tables[name]
                part = open_parts.get(name)
                if part is not None:
                    fitted = _conform(table, part.writer.schema)
                    if fitted is None:
                        part.writer.close()
                        done.append(open_parts.pop(name))
                        part = None
                    else:
                        table = fitted
                if part is None:
                    rel = f"{name}/ruleset={ruleset.slug}/{prefix}-{lo:05d}.parquet"
                    part = open_parts[name] = _Part(root, rel, name, table.schema)
                part.write(table, part_ids)
        for part in open_parts.values():
            part.writer.close()
        done.extend(open_parts.values())
    except BaseException:
        for part in [*done, *open_parts.values()]:
            part.discard()
        raise
    return _SlabResult([p.written() for p in done], events, len(ids))


class _Part:
    """One Parquet part being written, as ``<file>.tmp``."""

    def __init__(self, root: Path, rel: str, table: str, schema: pa.Schema) -> None:
        self.rel = rel
        self.table = table
        self.tmp = root / (rel + ".tmp")
        self.tmp.parent.mkdir(parents=True, exist_ok=True)
        self.writer = pq.ParquetWriter(self.tmp, schema, compression="zstd", compression_level=1)
        self.rows = 0
        self.games = 0
        self.min_game: str | None = None
        self.max_game: str | None = None

    def write(self, table: pa.Table, ids: list[str]) -> None:
        self.writer.write_table(table, row_group_size=1 << 20)
        self.rows += table.num_rows
        self.games += len(ids)
        self.min_game = ids[0] if self.min_game is None else min(self.min_game, ids[0])
        self.max_game = ids[-1] if self.max_game is None else max(self.max_game, ids[-1])

    def written(self) -> _Written:
        return _Written(self.rel, self.table, self.rows, self.games, self.min_game or "", self.max_game or "")

    def discard(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()
        self.tmp.unlink(missing_ok=True)


def _discard(root: Path, rels: list[str], *, prefix: bool = False) -> None:
    """Remove part files (and their temporary names) of a batch that is not committed."""
    for rel in rels:
        if prefix:
            for path in (root / rel).parent.glob((root / rel).name + "*"):
                path.unlink(missing_ok=True)
        else:
            (root / rel).unlink(missing_ok=True)
            (root / (rel + ".tmp")).unlink(missing_ok=True)


def _write_file(path: Path, table: pa.Table) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(str(path) + ".tmp")
    pq.write_table(table, tmp, compression="zstd", row_group_size=1 << 20)
    os.replace(tmp, path)


def slab_games(games: int, jobs: int) -> int:
    """Games per slab for a batch of ``games``: SLAB_GAMES in one process; with workers,
    WORKER_SLAB_GAMES, or fewer so that every worker has two slabs of the batch (a batch of
    2,000 games is four slabs of 500 for two workers), but never fewer than MIN_SLAB_GAMES."""
    if jobs <= 1:
        return SLAB_GAMES
    share = -(-games // (2 * jobs))
    return max(MIN_SLAB_GAMES, min(WORKER_SLAB_GAMES, share))


def default_jobs() -> int:
    """Worker processes for large refreshes: ``WARREN_JOBS`` if set, else 1.

    The command line sets WARREN_JOBS to the cores it may use (at most two); a library
    caller, which may run threads of its own (a dashboard), replays in its own process
    unless it asks for workers.
    """
    value = os.environ.get("WARREN_JOBS", "")
    return int(value) if value.isdigit() and int(value) >= 1 else 1


def cli_jobs() -> int:
    """What the command line uses: WARREN_JOBS, else up to two cores."""
    value = os.environ.get("WARREN_JOBS", "")
    if value.isdigit() and int(value) >= 1:
        return int(value)
    return max(1, min(2, os.cpu_count() or 1))


_worker_readers: dict[str, StoreReader] = {}


def _slab_in_worker(args: tuple[int, str, str, list[str], str, str]) -> tuple[int, _SlabResult]:
    """One slab in a worker process, through its own read-only reader of the store; with
    the index of its batch, since slabs come back as they finish."""
    k, db, slug, ids, root, prefix = args
    reader = _worker_readers.get(db)
    if reader is None:
        reader = _worker_readers[db] = StoreReader.open(db)
    return k, write_slab(reader, get_ruleset(slug), ids, Path(root), prefix)


def _conform(table: pa.Table, schema: pa.Schema) -> pa.Table | None:
    """``table`` cast to ``schema`` (same columns, null-typed or widened), or None if it differs."""
    if table.schema.names != schema.names:
        return None
    try:
        return table.cast(schema)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def refresh(store: Store, *, progress: Callable[[int], None] | None = None,
            jobs: int | None = None) -> RefreshReport:
    """Project the store's games that are new or changed since their last projection."""
    with Projections(store, jobs=jobs) as projections:
        return projections.refresh(progress=progress)


def rebuild(store: Store, *, progress: Callable[[int], None] | None = None,
            jobs: int | None = None) -> RefreshReport:
    """Throw every projection away and replay every stored game."""
    with Projections(store, jobs=jobs) as projections:
        return projections.rebuild(progress=progress)


