"""A user's SQL in DuckDB, fenced in: one SELECT over warren's tables, and nothing else.

The fence, in the order it is built (the order matters):

1. a fresh in-memory DuckDB with a memory limit and a thread count, extensions never
   installed or loaded automatically (nothing is fetched from the network);
2. warren's tables as views over the projections' Parquet parts;
3. file access switched off, except for reading the analytics folder those views read
   (``allowed_directories`` must be set before access is switched off);
4. the configuration locked, so no ``SET``/``RESET`` can undo any of it.

Then each query must be exactly one statement of type SELECT (``WITH ... SELECT`` included):
``COPY``, ``ATTACH``, ``INSTALL``, ``LOAD``, ``SET``, ``PRAGMA``, ``CALL``, ``CREATE``,
``INSERT``... are refused before they run, with a message naming what was refused. A
SELECT that tries to read a file (``read_csv('/etc/passwd')``) is stopped by DuckDB itself
and reported as refused. A timer interrupts a query that runs past the time limit.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from engine.rules import WarrenError
from logstore.analytics.projections import TABLES
from logstore.analytics.views import DUCKDB_CONFIG, PartsCatalog, arrow, create_views, list_parts

DEFAULT_SECONDS = 30.0
DEFAULT_MEMORY = "1GB"
DEFAULT_THREADS = 2


class QueryRefused(WarrenError):
    """A query the sandbox does not run (not a single SELECT, or it reaches outside)."""


class QueryTimeout(WarrenError):
    """A query stopped at the time limit."""


class QueryFailed(WarrenError):
    """A SELECT that DuckDB could not run (a typo, an unknown column...)."""


@dataclass(frozen=True, slots=True)
class Limits:
    seconds: float = DEFAULT_SECONDS
    """Wall-clock limit per query."""
    memory: str = DEFAULT_MEMORY
    """DuckDB memory_limit, e.g. ``512MB`` or ``2GB``."""
    threads: int = DEFAULT_THREADS


_TABLE_LIST = ", ".join(TABLES)


class Sandbox:
    """A locked DuckDB session over one store's tables."""

    def __init__(self, catalog: PartsCatalog, limits: Limits = Limits()) -> None:
        self.limits = limits
        config = {**DUCKDB_CONFIG, "memory_limit": limits.memory, "threads": limits.threads}
        try:
            con = duckdb.connect(config=config)
        except duckdb.Error as exc:
            raise QueryRefused(f"bad sandbox limits: {exc}") from None
        create_views(con, catalog)
        root = str(catalog.root.resolve()) + "/"
        con.execute(f"SET allowed_directories = ['{root.replace(chr(39), chr(39) * 2)}']")
        con.execute("SET enable_external_access = false")
        con.execute("SET lock_configuration = true")
        self.con = con

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def check(self, sql: str) -> None:
        """Refuse anything but exactly one SELECT statement."""
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

    def run(self, sql: str) -> pa.Table:
        """The result of one SELECT as an Arrow table, within the limits."""
        self.check(sql)
        timer = threading.Timer(self.limits.seconds, self.con.interrupt)
        timer.daemon = True
        timer.start()
        try:
            return arrow(self.con, sql)
        except duckdb.InterruptException:
            raise QueryTimeout(
                f"the query ran past the time limit of {self.limits.seconds:g} s and was stopped"
            ) from None
        except duckdb.PermissionException as exc:
            raise QueryRefused(
                "the query tries to reach outside warren's tables (files, extensions or "
                f"settings are off limits): {_first_line(exc)}") from None
        except duckdb.OutOfMemoryException:
            raise QueryRefused(
                f"the query needs more than the memory limit of {self.limits.memory}") from None
        except duckdb.CatalogException as exc:
            raise QueryFailed(f"{_first_line(exc)} (warren's tables: {_TABLE_LIST})") from None
        except duckdb.Error as exc:
            raise QueryFailed(_first_line(exc)) from None
        finally:
            timer.cancel()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def open_sandbox(db: Path, limits: Limits = Limits(), *, refresh: bool = True) -> Sandbox:
    """Refresh the store's projections and open a sandbox over them."""
    return Sandbox(list_parts(db, refresh=refresh), limits)
