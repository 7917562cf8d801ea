"""DuckDB over a store, offline: the projections' Parquet parts as views, nothing downloaded.

DuckDB's ``sqlite`` extension is fetched from the network at INSTALL/LOAD time, which fails
on a machine without internet access (and behind most club firewalls), so warren never uses
it. The route instead (measured and argued in docs/analytics.md):

1. while the projections are built, each chunk of games is read out of SQLite through
   Python's sqlite3 (one grouped row per game) and replayed (logstore.analytics.projection_rows);
2. every projection table, the raw events included, is written once as compressed Parquet
   parts beside the store (``<store>.analytics/``) and kept up to date incrementally;
3. each DuckDB session creates one view per table over the committed parts, so a query
   scans columnar files and never pays for reading SQLite again.

Arrow via ADBC (``adbc-driver-sqlite``) was measured as the faster reader, but it brings its
own copy of SQLite into the process, which breaks SQLite's file locking next to the store's
own connection; see docs/analytics.md. The same Parquet files are what
``warren export-parquet`` merges for Spark.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from logstore.analytics.duck import COPY_CONFIG, DUCKDB_CONFIG
from logstore.analytics.projections import (
    BASE_SCHEMAS,
    TABLES,
    AnalyticsError,
    Projections,
    RefreshReport,
    analytics_dir,
    open_catalog,
)


@dataclass(slots=True)
class PartsCatalog:
    """The committed Parquet parts of every projection table at one moment (what a DuckDB
    session's views read), and what the refresh before the listing did."""

    root: Path
    parts: dict[str, list[Path]]
    refreshed: RefreshReport | None
    rulesets: list[str]
    note: str | None = None
    """Why the parts may be behind the store (it could not be written to bring them up to
    date: a read-only store answers from the projections it has)."""


def list_parts(db: Path, *, refresh: bool = True, rebuild: bool = False,
               progress: Callable[[int], None] | None = None, jobs: int | None = None) -> PartsCatalog:
    """Bring the projections of the store at ``db`` up to date (unless ``refresh`` is False)
    and list their committed parts.

    ``jobs``: worker processes for a large refresh (default: WARREN_JOBS, else 1).
    """
    from logstore.store.errors import StoreUnwritable, unwritable
    from logstore.store.event_store import Store

    with Store(db, create=False) as store:
        report = None
        note = None
        try:
            with Projections(store, jobs=jobs) as projections:
                if rebuild:
                    report = projections.rebuild(progress=progress)
                elif refresh and not projections.is_current():
                    report = projections.refresh(progress=progress)
                parts = projections.parts()
                if any(not f.is_file() for files in parts.values() for f in files):
                    # The analytics folder was removed or left behind (a copied store): derive it again.
                    report = projections.rebuild(progress=progress)
                    parts = projections.parts()
        except (sqlite3.OperationalError, PermissionError) as exc:
            error = unwritable(exc, db, "the projections could not be brought up to date")
            if not isinstance(error, StoreUnwritable):
                raise error from None
            # A read-only store: answer from the projections it has, if it has any.
            committed = _committed_parts(analytics_dir(Path(db)))
            if committed is None:
                raise StoreUnwritable(f"{error}; it has no projections yet to query (query a "
                                      "writable copy of it)") from None
            parts = committed
            note = f"{error}: the answer comes from the projections as they were"
        rulesets = store.reader.rulesets()
    return PartsCatalog(analytics_dir(Path(db)), parts, report, rulesets, note)


def exported_parts(folder: Path) -> PartsCatalog:
    """The tables of an export (``warren export-parquet``, here or on Spark) as a catalog of
    parts: ``folder/<table>/ruleset=<slug>/*.parquet``, read as they are (no store)."""
    if not folder.is_dir():
        raise AnalyticsError(f"{folder}: no such folder (give the OUT of warren export-parquet)")
    parts: dict[str, list[Path]] = {}
    for name in TABLES:
        parts[name] = sorted((folder / name).glob("ruleset=*/*.parquet"))
        for part in parts[name]:
            _check_part(folder, part)
    if not any(parts.values()):
        raise AnalyticsError(f"{folder}: no exported tables in it (<table>/ruleset=<slug>/*.parquet)")
    rulesets = sorted({f.parent.name.split("=", 1)[1] for files in parts.values() for f in files})
    return PartsCatalog(folder, parts, None, rulesets)


def _check_part(folder: Path, part: Path) -> None:
    """Refuse a part that is not a Parquet file of the export's own, by name: a link (it
    would be read from elsewhere), a FIFO or device (it would hang, or be passed over and
    its rows lost), an empty file, or one that is not Parquet."""
    shown = part.relative_to(folder)
    try:
        info = os.lstat(part)
    except OSError as exc:
        raise AnalyticsError(f"{folder}: {shown} cannot be read: {exc.strerror}") from None
    why = None
    if stat.S_ISLNK(info.st_mode):
        why = "is a link (an export holds its own files)"
    elif not stat.S_ISREG(info.st_mode):
        why = "is not a regular file"
    elif info.st_size == 0:
        why = "is empty"
    else:
        try:
            pq.read_metadata(part)
        except (OSError, pa.ArrowException) as exc:
            why = f"is not a Parquet file ({str(exc).splitlines()[0][:120]})"
    if why is not None:
        raise AnalyticsError(f"{folder}: {shown} {why}: this folder is not a whole export; write it "
                             "again with warren export-parquet, or remove that file")


def connect_exported(folder: Path, *,
                     ruleset: str | None = None) -> tuple[duckdb.DuckDBPyConnection, PartsCatalog]:
    """A DuckDB connection with an export's tables as views (as :func:`connect` gives a store's)."""
    catalog = exported_parts(folder)
    return open_views(catalog, ruleset=ruleset), catalog


def _committed_parts(root: Path) -> dict[str, list[Path]] | None:
    """The parts the catalog lists, read without writing anything; None if there are
    none or a file is missing."""
    try:
        conn = open_catalog(root, read_only=True)
        if conn is None:
            return None
        try:
            rows = conn.execute("SELECT tbl, file FROM parts ORDER BY tbl, file").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    out: dict[str, list[Path]] = {t: [] for t in TABLES}
    for tbl, file in rows:
        out.setdefault(tbl, []).append(root / file)
    if not rows or any(not f.is_file() for files in out.values() for f in files):
        return None
    return out


def stale_games(db: Path) -> int:
    """How many games a refresh would replay (for a progress bar's total)."""
    from logstore.store.event_store import Store

    with Store(db, create=False) as store, Projections(store) as projections:
        if projections.is_current():
            return 0
        return len(projections.stale())


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def create_views(con: duckdb.DuckDBPyConnection, catalog: PartsCatalog, ruleset: str | None = None) -> None:
    """One view per projection table over its committed parts (of one ruleset, if given).

    A table with no parts yet (an empty store) is an empty table with the base columns, so
    every query and every canned stat runs on any store.
    """
    for name in TABLES:
        files = catalog.parts.get(name, [])
        if ruleset is not None:
            files = [f for f in files if f.parent.name == f"ruleset={ruleset}"]
        if files:
            listing = "[" + ", ".join(_sql_text(str(f)) for f in files) + "]"
            con.execute(
                f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM read_parquet({listing}, "
                "hive_partitioning = true, union_by_name = true)")
        else:
            empty = BASE_SCHEMAS[name].append(pa.field("ruleset", pa.string())).empty_table()
            con.register(f"_empty_{name}", empty)
            con.execute(f"CREATE OR REPLACE VIEW {name} AS SELECT * FROM _empty_{name}")


def connect(db: Path, *, ruleset: str | None = None, refresh: bool = True, rebuild: bool = False,
            progress: Callable[[int], None] | None = None, threads: int | None = None,
            jobs: int | None = None, wpa: bool = True) -> tuple[duckdb.DuckDBPyConnection, PartsCatalog]:
    """A DuckDB connection with warren's tables as views (trusted SQL: canned stats, export)."""
    from logstore.analytics.winmodel import read_kept
    from logstore.analytics.wpa import create_views as wpa_views

    catalog = list_parts(db, refresh=refresh, rebuild=rebuild, progress=progress, jobs=jobs)
    con = open_views(catalog, ruleset=ruleset, threads=threads)
    if wpa:
        wpa_views(con, read_kept(db))  # turn_chances, event_wpa where the store keeps models
    return con, catalog


def open_views(catalog: PartsCatalog, *, ruleset: str | None = None,
               threads: int | None = None) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with the tables of ``catalog`` (a store's parts or an export's)
    as views."""
    config = dict(DUCKDB_CONFIG)
    if threads is not None:
        config["threads"] = threads
    con = duckdb.connect(config=config)
    create_views(con, catalog, ruleset)
    return con


def export_parquet(db: Path, out: Path, *, tables: tuple[str, ...] = TABLES,
                   progress: Callable[[int], None] | None = None,
                   jobs: int | None = None) -> dict[str, int]:
    """Write the projections and events as Parquet under ``out``, partitioned by ruleset.

    Layout: ``out/<table>/ruleset=<slug>/data.parquet`` (hive style: the ``ruleset`` column
    is in the folder name, not in the file), every part with the table's whole schema, which
    DuckDB, Spark, pandas, polars and pyarrow read as one table per folder, every column
    included, with no option given. Returns the rows written per table.
    """
    from logstore.analytics.winmodel import read_kept
    from logstore.analytics.wpa import WPA_TABLES

    unknown = [t for t in tables if t not in TABLES and t not in WPA_TABLES]
    if unknown:
        raise AnalyticsError(f"no table {unknown[0]!r}; the tables are: {', '.join(TABLES + WPA_TABLES)}")
    if set(tables) & set(WPA_TABLES) and not read_kept(db):
        raise AnalyticsError("the win chance added tables come from the kept win models, and the store keeps "
                             "none: `warren model fit` fits them first")
    catalog = list_parts(db, progress=progress, jobs=jobs)
    out.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(config=COPY_CONFIG)
    written: dict[str, int] = {}
    try:
        for name in (t for t in tables if t in TABLES):
            by_ruleset: dict[str, list[Path]] = {}
            for f in catalog.parts.get(name, []):
                by_ruleset.setdefault(f.parent.name.split("=", 1)[1], []).append(f)
            written[name] = 0
            # Every part is written with the table's whole schema (each ruleset's figure
            # columns, nulls where a ruleset has none), so that every reader reads each
            # folder as one table with every column and no option given: pandas, polars,
            # pyarrow and Spark take the first part's schema for the table's.
            every = "[" + ", ".join(_sql_text(str(f)) for files in by_ruleset.values() for f in files) + "]"
            if by_ruleset:
                con.execute(f"CREATE OR REPLACE TEMP TABLE whole AS SELECT * FROM read_parquet({every}, "
                            "hive_partitioning = false, union_by_name = true) LIMIT 0")
            for slug, files in sorted(by_ruleset.items()):
                target = out / name / f"ruleset={slug}"
                target.mkdir(parents=True, exist_ok=True)
                for old in target.glob("*.parquet"):
                    old.unlink()
                listing = "[" + ", ".join(_sql_text(str(f)) for f in files) + "]"
                # DuckDB opens the file by name: in a folder of a name nobody can guess
                # (mkdtemp), so no link planted in advance can redirect the write.
                scratch = Path(tempfile.mkdtemp(prefix=".data.", dir=target))
                try:
                    tmp = scratch / "data.parquet"
                    con.execute(
                        f"COPY (SELECT * FROM whole UNION ALL BY NAME SELECT * FROM read_parquet({listing}, "
                        f"hive_partitioning = false, union_by_name = true)) TO {_sql_text(str(tmp))} "
                        "(FORMAT parquet, COMPRESSION zstd)")
                    os.replace(tmp, target / "data.parquet")
                finally:
                    shutil.rmtree(scratch, ignore_errors=True)
                counted = con.execute(
                    f"SELECT count(*) FROM read_parquet({_sql_text(str(target / 'data.parquet'))})"
                ).fetchone()
                assert counted is not None  # count(*) always answers one row
                written[name] += int(counted[0])
    finally:
        con.close()
    wpa = WPA_TABLES if tables == TABLES else tuple(t for t in tables if t in WPA_TABLES)
    if wpa:
        written.update(_export_wpa(db, catalog, out, wpa))
    return written


def _export_wpa(db: Path, catalog: PartsCatalog, out: Path, names: tuple[str, ...]) -> dict[str, int]:
    """The win chance added tables ``names`` (logstore.analytics.wpa) beside the projections,
    where the store keeps models: ``out/<table>/ruleset=<slug>/data.parquet`` like the
    others. The turn chances are worked out once (the other two are read from them), in a
    session of bounded memory."""
    from logstore.analytics.winmodel import read_kept
    from logstore.analytics.wpa import bounded, fitting, views_sql

    models = read_kept(db)
    if not models:
        return {}
    con = open_views(catalog)
    written: dict[str, int] = {}
    with bounded(con):
        fits = fitting(con, models)
        sql = views_sql(fits, chances="_turn_chances", events="_event_wpa")
        con.execute(f"CREATE TEMP TABLE _turn_chances AS {sql['turn_chances']}")
        sql["turn_chances"] = "SELECT * FROM _turn_chances"
        con.execute(f"CREATE TEMP VIEW _event_wpa AS {sql['event_wpa']}")
        for name in names:
            written[name] = 0
            for slug in sorted({m.ruleset for m in fits}):
                target = out / name / f"ruleset={slug}"
                target.mkdir(parents=True, exist_ok=True)
                for old in target.glob("*.parquet"):
                    old.unlink()
                work = Path(tempfile.mkdtemp(prefix=".data.", dir=target))
                try:
                    tmp = work / "data.parquet"
                    rows_of = (f"SELECT * EXCLUDE (ruleset) FROM ({sql[name]}) AS t "
                               f"WHERE ruleset = {_sql_text(slug)}")
                    copied = con.execute(f"COPY ({rows_of}) TO {_sql_text(str(tmp))} "
                                         "(FORMAT parquet, COMPRESSION zstd)").fetchone()
                    rows = int(copied[0]) if copied else 0
                    if rows:
                        os.replace(tmp, target / "data.parquet")
                        written[name] += rows
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                if not rows:
                    target.rmdir()  # a model without a game of its own: no folder
    return written
