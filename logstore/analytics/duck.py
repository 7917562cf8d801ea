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


def arrow(con: duckdb.DuckDBPyConnection, sql: str) -> pa.Table:
    """A query's result as an Arrow table (DuckDB 1.x and 2.x spell it differently)."""
    relation = con.sql(sql)
    if relation is None:
        return pa.table({})
    to_table = getattr(relation, "to_arrow_table", None) or relation.arrow
    return to_table()
