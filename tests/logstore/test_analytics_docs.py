"""docs/analytics.md's column tables are written from the tables' Arrow schemas, whose fields
say what each column means; the SQL page reads the same schemas."""

from __future__ import annotations

from pathlib import Path

from dashboard.schema_docs import FIGURE, meaning, table_docs
from logstore.analytics.projections import TABLES
from logstore.analytics.schema import BASE_SCHEMAS, TABLE_ORDER, write_into

DOC = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"


def test_the_document_matches_the_schemas() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert write_into(text) == text, "regenerate: python -m logstore.analytics.schema"


def test_every_column_of_every_table_says_what_it_means() -> None:
    assert set(TABLE_ORDER) == set(BASE_SCHEMAS) >= set(TABLES)
    for name, schema in BASE_SCHEMAS.items():
        assert (schema.metadata or {}).get(b"doc"), name
        for field in schema:
            assert (field.metadata or {}).get(b"doc"), f"{name}.{field.name} has no meaning"


def test_the_sql_page_reads_meanings_in_plain_words() -> None:
    docs = table_docs()
    assert docs["games"][0] == "one row per stored game"
    assert meaning("games", "options") == "the header's options, JSON text ({} = all defaults)"
    assert meaning("player_seats", "player").startswith("the player it is, after merges")
    mu = meaning("players", "mu")
    assert mu.startswith("the openskill rating") and "](" not in mu
    assert meaning("effects", "ruleset").startswith("the game's ruleset")
    assert meaning("turns", "pile") == FIGURE  # a game's own figure column
    assert meaning("nothing", "x") == ""
