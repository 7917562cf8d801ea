"""What each column of warren's tables means, read from docs/analytics.md (its "The tables"
section), for the SQL page's schema browser. In a copy of warren installed without its
repository the file is absent and the browser shows names and types only."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "analytics.md"
DUCKDB_SQL = "https://duckdb.org/docs/stable/sql/introduction"
"""DuckDB's own SQL reference: the dialect the SQL box speaks."""

_HEADING = re.compile(r"^### (\w+) — (.+)$")
_ROW = re.compile(r"^\| (.+?) \| (.+) \|$")


@cache
def table_docs(doc: Path = DOC) -> dict[str, tuple[str, dict[str, str]]]:
    """Table -> (what one row is, column -> meaning), from the doc's table sections."""
    if not doc.is_file():
        return {}
    found: dict[str, tuple[str, dict[str, str]]] = {}
    current: str | None = None
    for line in doc.read_text(encoding="utf-8").splitlines():
        heading = _HEADING.match(line)
        if heading:
            current = heading.group(1)
            found[current] = (heading.group(2), {})
            continue
        if line.startswith("## "):
            current = None
        row = _ROW.match(line)
        if current is not None and row and not row.group(1).startswith(("column", "---")):
            for name in re.findall(r"`(\w+)`", row.group(1)):
                found[current][1][name] = row.group(2).replace("`", "")
    return found
