"""A user's SQL in DuckDB, fenced in: one SELECT over warren's tables, and nothing else.

The fence, in the order it is built (the order matters):

1. a fresh in-memory DuckDB with a memory limit and a thread count, extensions never
   installed or loaded automatically (nothing is fetched from the network), and its
   temporary and secrets folders in a private folder of its own, created for the session
   and removed after it (DuckDB's default is ``.tmp`` in the working directory, which it then
   lets queries read: ``glob('.tmp/*')`` answered from wherever the dashboard ran);
2. warren's tables as views over the projections' Parquet parts, which Arrow reads for
   DuckDB (each table a registered Arrow dataset): DuckDB itself opens no file, so it needs
   no directory allowed, and no setting, view definition or error names a path of the store;
3. file access switched off (nothing allowed but DuckDB's own private temporary folder);
4. the configuration locked, so no ``SET``/``RESET`` can undo any of it.

Then each query must be exactly one statement of type SELECT (``WITH ... SELECT`` included):
``COPY``, ``ATTACH``, ``INSTALL``, ``LOAD``, ``SET``, ``PRAGMA``, ``CALL``, ``CREATE``,
``INSERT``... are refused before they run, with a message naming what was refused. A
SELECT that tries to read a file (``read_csv('/etc/passwd')``) is stopped by DuckDB itself
and reported as refused. A timer interrupts a query that runs past the time limit.

A result is read in batches and counted as it comes: more rows than ``Limits.rows``, or more
bytes than the memory limit (DuckDB's own limit does not cover a result once it is handed
over), and the query is stopped and refused. A result to be shown as text (a table, CSV,
JSON, the dashboard) has its lists, maps, structs, unions, intervals, dates and timestamps
written as DuckDB writes them (``'infinity'`` is a timestamp no Python date holds), and
columns of the same name told apart (``a``, ``a_1``).
"""

from __future__ import annotations

import math
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import duckdb
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from engine.rules import WarrenError
from logstore.analytics.duck import DUCKDB_CONFIG
from logstore.analytics.projections import BASE_SCHEMAS, TABLES
from logstore.analytics.views import PartsCatalog, list_parts

if TYPE_CHECKING:
    from logstore.analytics.winmodel import WinModel

DEFAULT_SECONDS = 30.0
DEFAULT_MEMORY = "1GB"
DEFAULT_THREADS = 2
MAX_SECONDS = 24 * 3600.0
"""The longest time limit a query may have (a day); a limit must be a real bound."""
MAX_THREADS = 64
DEFAULT_ROWS = 1_000_000
"""A result of more rows is refused (``warren query --max-rows``; the dashboard asks fewer)."""
BATCH_ROWS = 65_536
"""Rows read from DuckDB at a time, counted against the limits before the next batch."""
_CAST = {
    "text": re.compile(r"\[|^(MAP|STRUCT|UNION)\(|^(INTERVAL|DATE|TIMESTAMP)"),
    "parquet": re.compile(r"UNION\(|INTERVAL"),
}
"""Column types written as text for a result shown as text, or written to Parquet (which
holds no union or interval), by their DuckDB type name."""


class QueryRefused(WarrenError):
    """A query the sandbox does not run (not a single SELECT, or it reaches outside)."""


class QueryTimeout(WarrenError):
    """A query stopped at the time limit."""


class QueryFailed(WarrenError):
    """A SELECT that DuckDB could not run (a typo, an unknown column...)."""


@dataclass(frozen=True, slots=True)
class Limits:
    seconds: float = DEFAULT_SECONDS
    """Wall-clock limit per query (more than 0, at most MAX_SECONDS)."""
    memory: str = DEFAULT_MEMORY
    """DuckDB memory_limit, e.g. ``512MB`` or ``2GB``."""
    threads: int = DEFAULT_THREADS
    rows: int = DEFAULT_ROWS
    """The most rows a result may have."""
    result_bytes: int | None = None
    """The most bytes a result may hold (Arrow buffers); None: the memory limit."""

    def check(self) -> None:
        """Refuse limits that would not limit: a time limit the timer cannot wait for (it
        used to die with an OverflowError, and the query then ran without a limit)."""
        if not (isinstance(self.seconds, int | float) and math.isfinite(self.seconds)
                and 0 < self.seconds <= MAX_SECONDS):
            raise QueryRefused(f"the time limit must be more than 0 and at most {MAX_SECONDS:g} "
                               f"seconds, not {self.seconds!r}")
        if not (isinstance(self.threads, int) and 1 <= self.threads <= MAX_THREADS):
            raise QueryRefused(f"threads must be 1 to {MAX_THREADS}, not {self.threads!r}")
        memory_bytes(self.memory)


_UNITS = {"b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "tb": 1000**4,
          "kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}
MIN_MEMORY = 16 * 1000**2
"""The smallest memory limit a query may have: below it DuckDB cannot even read the tables
in (``0B`` failed with an out-of-memory error while the views were set up)."""
MAX_MEMORY = 1024**5


def memory_bytes(text: str) -> int:
    """``512MB``, ``2GB``, ``1.5GiB`` as bytes; refuses what is not a size, a negative or
    zero one (DuckDB reads ``-1GB`` as no limit at all), and one below :data:`MIN_MEMORY`."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*", str(text), re.IGNORECASE)
    if match is None:
        raise QueryRefused(f"the memory limit must be a size such as 512MB or 2GB, not {text!r}")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if not MIN_MEMORY <= size <= MAX_MEMORY:
        raise QueryRefused(f"the memory limit must be at least 16MB and at most 1PiB, not {text!r}")
    return size


_TABLE_LIST = ", ".join(TABLES)


class Sandbox:
    """A locked DuckDB session over one store's tables."""

    def __init__(self, catalog: PartsCatalog, limits: Limits = Limits(),
                 models: list[WinModel] | None = None) -> None:
        limits.check()
        self.limits = limits
        self.root = str(catalog.root.resolve())
        self.private = tempfile.mkdtemp(prefix="warren-sql-")
        config = {**DUCKDB_CONFIG, "memory_limit": limits.memory, "threads": limits.threads,
                  "temp_directory": self.private, "secret_directory": f"{self.private}/secrets"}
        try:
            con = duckdb.connect(config=config)
        except duckdb.Error as exc:
            shutil.rmtree(self.private, ignore_errors=True)
            raise QueryRefused(f"bad sandbox limits: {exc}") from None
        try:
            register_tables(con, catalog)
            if models:
                from logstore.analytics.wpa import create_views

                create_views(con, models)  # turn_chances, event_wpa (docs/analytics.md)
            con.execute("SET allowed_directories = []")
            con.execute("SET enable_external_access = false")
            con.execute("SET lock_configuration = true")
        except duckdb.OutOfMemoryException:
            con.close()
            shutil.rmtree(self.private, ignore_errors=True)
            raise QueryRefused(f"the memory limit of {limits.memory} is too small to read the tables "
                               "in") from None
        except BaseException:
            con.close()
            shutil.rmtree(self.private, ignore_errors=True)
            raise
        self.con = con

    def close(self) -> None:
        self.con.close()
        shutil.rmtree(self.private, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self, sql: str) -> str:
        """Refuse anything but exactly one SELECT statement; that statement's text."""
        try:
            statements = self.con.extract_statements(sql)
        except duckdb.Error as exc:
            raise QueryFailed(f"the query does not parse: {_first_line(exc)}") from None
        if not statements:
            raise QueryRefused("the query is empty: give one SELECT statement")
        if len(statements) > 1:
            raise QueryRefused(f"one statement at a time: the query holds {len(statements)}")
        statement = statements[0]
        if statement.type.name != "SELECT":
            words = (statement.query or sql).split()
            verb = words[0].upper() if words else statement.type.name
            raise QueryRefused(
                f"only SELECT queries are run here, not {verb} "
                "(no COPY, ATTACH, INSTALL, LOAD, SET, PRAGMA, CALL or writes)")
        return str(statement.query or sql)

    def run(self, sql: str, *, shown: Literal["text", "parquet"] | None = None) -> pa.Table:
        """The result of one SELECT as an Arrow table, within the limits; ``shown`` as
        ``text`` or in ``parquet``, with what those cannot hold written as text (see the
        module docstring)."""
        sql = self.check(sql)
        timer = threading.Timer(self.limits.seconds, self.con.interrupt)
        timer.daemon = True
        timer.start()
        try:
            return self._read(sql, shown)
        except (pa.ArrowException, OSError) as exc:
            raise QueryFailed(self._scrub(_first_line(exc))) from None
        except duckdb.InterruptException:
            raise QueryTimeout(
                f"the query ran past the time limit of {self.limits.seconds:g} s and was stopped"
            ) from None
        except duckdb.PermissionException as exc:
            raise QueryRefused(
                "the query tries to reach outside warren's tables (files, extensions or "
                f"settings are off limits): {self._scrub(_first_line(exc))}") from None
        except duckdb.OutOfMemoryException:
            raise QueryRefused(
                f"the query needs more than the memory limit of {self.limits.memory}") from None
        except duckdb.CatalogException as exc:
            raise QueryFailed(f"{self._scrub(_first_line(exc))} (warren's tables: {_TABLE_LIST})") from None
        except duckdb.Error as exc:
            raise QueryFailed(self._scrub(_first_line(exc))) from None
        finally:
            timer.cancel()

    def _read(self, sql: str, shown: str | None) -> pa.Table:
        relation = self.con.sql(sql)
        if relation is None:
            return pa.table({})
        if shown is not None:
            relation = _as_text(self.con, sql, _CAST[shown])
        reader = (getattr(relation, "to_arrow_reader", None) or relation.fetch_arrow_reader)(BATCH_ROWS)
        most = self.limits.result_bytes or memory_bytes(self.limits.memory)
        what = (f"{most / 2**20:,.0f} MB" if self.limits.result_bytes
                else f"the memory limit of {self.limits.memory}")
        batches = []
        rows = size = 0
        try:
            for batch in reader:
                rows += batch.num_rows
                size += batch.get_total_buffer_size()
                if rows > self.limits.rows:
                    raise QueryRefused(f"the result has more than {self.limits.rows:,} rows: aggregate "
                                       "it, or add a LIMIT")
                if size > most:
                    raise QueryRefused(f"the result is larger than {what}: aggregate it, select "
                                       "fewer columns, or add a LIMIT")
                batches.append(batch)
        finally:
            reader.close()
        return pa.Table.from_batches(batches, schema=reader.schema)

    def _scrub(self, message: str) -> str:
        """An error message without the store's folder (an unreadable part names its file)."""
        return message.replace(self.root, "<analytics>")


def _as_text(con: duckdb.DuckDBPyConnection, sql: str, kinds: re.Pattern[str]) -> duckdb.DuckDBPyRelation:
    """``sql`` again, with each column of a type ``kinds`` finds cast to text, and every
    column named apart (a subquery gives ``a`` and ``a_1`` for two ``a``)."""
    inner = f"SELECT * FROM ({sql}\n) AS q"
    relation = con.sql(inner)
    columns = []
    for name, kind in zip(relation.columns, relation.types, strict=True):
        quoted = '"' + name.replace('"', '""') + '"'
        columns.append(f"CAST({quoted} AS VARCHAR) AS {quoted}" if kinds.search(str(kind))
                       else quoted)
    return con.sql(f"SELECT {', '.join(columns)} FROM ({sql}\n) AS q")


def register_tables(con: duckdb.DuckDBPyConnection, catalog: PartsCatalog) -> None:
    """warren's tables in ``con`` as views over Arrow datasets of their Parquet parts, one
    dataset per table and ruleset (the ``ruleset`` column, a folder name on disk, is added
    here), united by column name: the same rows and columns as the trusted views of
    logstore.analytics.views, read by Arrow rather than by DuckDB."""
    for name in TABLES:
        by_ruleset: dict[str, list[str]] = {}
        for f in catalog.parts.get(name, []):
            by_ruleset.setdefault(f.parent.name.split("=", 1)[1], []).append(str(f))
        selects = []
        for i, (slug, files) in enumerate(sorted(by_ruleset.items())):
            schema = pa.unify_schemas([pq.read_schema(f) for f in files])
            con.register(f"_{name}_{i}", pads.dataset(files, format="parquet", schema=schema))
            selects.append(f"SELECT *, '{slug.replace(chr(39), chr(39) * 2)}' AS ruleset FROM _{name}_{i}")
        if not selects:
            empty = BASE_SCHEMAS[name].append(pa.field("ruleset", pa.string())).empty_table()
            con.register(f"_empty_{name}", empty)
            selects.append(f"SELECT * FROM _empty_{name}")
        con.execute(f"CREATE OR REPLACE VIEW {name} AS " + " UNION ALL BY NAME ".join(selects))


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def open_sandbox(db: Path, limits: Limits = Limits(), *, refresh: bool = True) -> Sandbox:
    """Refresh the store's projections and open a sandbox over them."""
    from logstore.analytics.winmodel import read_kept

    return Sandbox(list_parts(db, refresh=refresh), limits, read_kept(db))
