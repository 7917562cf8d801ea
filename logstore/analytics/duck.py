"""DuckDB as warren uses it: never reaching for the network, and results as Arrow."""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

DUCKDB_CONFIG: dict[str, Any] = {
    # Never reach for the network: an extension that is not built in stays unavailable.
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}

COPY_CONFIG: dict[str, Any] = {**DUCKDB_CONFIG, "threads": 1}
"""For ``COPY`` of parts into one file, rows kept in their order (the export, the merge of
small parts). With more than one thread DuckDB holds the batches it must put back in order,
and that memory grows with the table: the events of 10,000 games copied took 756 MB, four
times the files 1,341 MB; with one thread 208 MB and 221 MB, for a quarter more time on
that step (python -m bench.pipeline, docs/performance.md)."""


def arrow(con: duckdb.DuckDBPyConnection, sql: str) -> pa.Table:
    """A query's result as an Arrow table (DuckDB 1.x and 2.x spell it differently)."""
    relation = con.sql(sql)
    if relation is None:
        return pa.table({})
    to_table = getattr(relation, "to_arrow_table", None) or relation.arrow
    return to_table()
