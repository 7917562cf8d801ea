"""An export reads whole in the tools people already use: every table folder, with plain calls
and no option, gives every column docs/analytics.md lists, for a store holding all five
games (each ruleset's figure columns, NULL in the other rulesets' rows)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.analytics.projections import GAME_TABLES
from logstore.analytics.schema import BASE_SCHEMAS, FIGURE_TABLES, OWN_RULESETS, figure_columns
from logstore.cli import main
from logstore.store.event_store import Store

PLAYERS = {"bunnies": 2, "trust-no-bunny": 5, "killer-bunnies-quest": 3, "kinderbunnies": 3,
           "killer-bunnies-odyssey": 2}


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("open")
    db = root / "warren.db"
    with Store(db) as store:
        for slug in OWN_RULESETS:
            for i in range(2):
                game = simulate_one(get_ruleset(slug), 71, i, players=PLAYERS[slug])
                store.import_bytes(b"".join(game.lines()), f"{slug}-{i}.jsonl")
    result = CliRunner().invoke(main, ["export-parquet", str(root / "out"), "--db", str(db)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root / "out"


def documented(table: str) -> set[str]:
    """Every column docs/analytics.md gives the table, ``ruleset`` (the folder) included."""
    columns = {*BASE_SCHEMAS[table].names, "ruleset"}
    if table in FIGURE_TABLES:
        for slug in OWN_RULESETS:
            columns |= set(figure_columns(slug)[table])
    return columns


def test_every_figure_has_a_meaning() -> None:
    for slug in OWN_RULESETS:
        rs = get_ruleset(slug)
        assert set(rs.figure_docs) == set(rs.figure_names), slug
        assert all(rs.figure_docs.values()), slug


@pytest.mark.parametrize("table", GAME_TABLES)
def test_every_reader_reads_every_column_with_no_option(export: Path, table: str) -> None:
    folder = export / table
    want = documented(table)
    assert set(pd.read_parquet(folder).columns) == want
    assert set(pq.read_table(folder).column_names) == want
    assert set(pl.read_parquet(str(folder)).columns) == want
    assert set(duckdb.sql(f"SELECT * FROM read_parquet('{folder}/*/*.parquet')").columns) == want
    # and the rows are all there, each ruleset's figures in its own rows only
    frame = pd.read_parquet(folder)
    seen = set(frame["ruleset"].astype(str))
    assert seen == set(OWN_RULESETS) if table != "seat_items" else seen <= set(OWN_RULESETS)
    if table in FIGURE_TABLES:
        for slug in OWN_RULESETS:
            mine = frame[frame["ruleset"].astype(str) == slug]
            for column in figure_columns(slug)[table]:
                assert mine[column].notna().any(), (table, slug, column)
