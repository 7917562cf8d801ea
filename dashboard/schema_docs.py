"""What each column of warren's tables means, for the SQL page's schema browser: read from
the tables' own schemas (logstore.analytics.schema), so an installed warren explains its
columns without its repository."""

from __future__ import annotations

import re
from functools import cache

from logstore.analytics import schema

DUCKDB_SQL = "https://duckdb.org/docs/stable/sql/introduction"
"""DuckDB's own SQL reference: the dialect the SQL box speaks."""

RULESET = "the game's ruleset (every table has it: the partition its rows are kept in)"
FIGURE = "a figure of the game's own, at the end of the turn"


def _plain(markdown: str) -> str:
    """A meaning as a table cell shows it: no code marks, links as their words."""
    return re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", markdown).replace("`", "").replace("**", "")


@cache
def table_docs() -> dict[str, tuple[str, dict[str, str]]]:
    """Table -> (what one row is, column -> meaning). A column a table has beyond these (a
    game's own figures in ``turns`` and ``turn_seats``) is :data:`FIGURE`."""
    return {name: (_plain(schema.table_doc(name)),
                   {"ruleset": RULESET, **{c: _plain(m) for c, m in schema.column_docs(name).items()}})
            for name in schema.TABLE_ORDER}


def meaning(table: str, column: str) -> str:
    """What ``column`` of ``table`` means, in plain words ("" for a table warren does not know)."""
    docs = table_docs().get(table)
    if docs is None:
        return ""
    return docs[1].get(column, FIGURE if table in ("turns", "turn_seats") else "")
