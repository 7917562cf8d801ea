"""Scale-out: the exported Parquet and the canned SQL give Spark the same answers as DuckDB."""

from __future__ import annotations

import math
import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

pyspark = pytest.importorskip(
    "pyspark", reason="pyspark is not installed (pip install -e '.[test]' brings it; it needs Java 17)")
if shutil.which("java") is None:
    pytest.skip("Spark needs Java 17 (apt-get install openjdk-17-jre-headless); .ci/run installs it",
                allow_module_level=True)

from logstore.analytics.projections import TABLES  # noqa: E402
from logstore.analytics.stats import all_stats, run_stat, spark_sql  # noqa: E402
from logstore.analytics.views import connect, export_parquet  # noqa: E402
from tests.logstore.analytics_corpus import fill  # noqa: E402


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A store with games of every ruleset, and its export."""
    from engine.registry import known_slugs

    root = tmp_path_factory.mktemp("spark")
    db = root / "warren.db"
    fill(db, games=12)
    if "trust-no-bunny" in known_slugs():
        fill(db, "trust-no-bunny", games=4, players=5)  # index 3: the town survives
    if "kinderbunnies" in known_slugs():
        fill(db, "kinderbunnies", games=3, players=3)
    if "killer-bunnies-quest" in known_slugs():
        fill(db, "killer-bunnies-quest", games=4, players=4)
    if "killer-bunnies-odyssey" in known_slugs():
        fill(db, "killer-bunnies-odyssey", games=4, players=2)
    out = root / "exported"
    export_parquet(db, out)
    return db, out


@pytest.fixture(scope="module")
def engines(spark: Any, corpus: tuple[Path, Path]) -> Iterator[tuple[Any, Any]]:
    """Spark with the exported tables registered, and DuckDB over the store's projections."""
    db, out = corpus
    for name in TABLES:
        spark.read.option("mergeSchema", "true").parquet(str(out / name)).createOrReplaceTempView(name)
    con, _ = connect(db)
    yield spark, con
    con.close()


def _value(v: Any) -> Any:
    if isinstance(v, Decimal):
        v = float(v)
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def _rows(rows: list[Any]) -> list[tuple]:
    return [tuple(_value(v) for v in row) for row in rows]


def test_export_writes_every_table_partitioned_by_ruleset(corpus: tuple[Path, Path]) -> None:
    _db, out = corpus
    for name in TABLES:
        folders = sorted(p.name for p in (out / name).iterdir())
        assert "ruleset=bunnies" in folders, name
        assert list((out / name / "ruleset=bunnies").glob("*.parquet")), name


@pytest.mark.parametrize("stat", all_stats(), ids=lambda s: s.name)
def test_spark_and_duckdb_give_identical_results(engines: tuple[Any, Any], stat: Any) -> None:
    spark, con = engines
    duck = run_stat(con, stat).table
    got = spark.sql(spark_sql(stat.sql))
    assert got.columns == duck.column_names
    expected = _rows([tuple(r.values()) for r in duck.to_pylist()])
    assert _rows([tuple(r) for r in got.collect()]) == expected
    assert expected, f"{stat.name} gave no rows on the corpus"
