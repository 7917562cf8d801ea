"""warren on Spark gives what warren gives on one machine: the same verdicts of
``warren check --json`` (bytes, order, exit code) and the same projection tables, row by row,
from the store or from the record files, with every canned stat giving the same figures.

The corpus has all five games: every fixture (legal, illegal, recorded with unknowns,
corrected, disputed, broken), simulated games, the hostile folder's records (spaced, format
1, cut, broken, not JSON, a key given twice, CRLF, a game id met twice), files whose names
Spark takes for hidden, and a file holding two records."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pytest

from logstore.analytics.duck import DUCKDB_CONFIG, arrow
from logstore.analytics.projections import GAME_TABLES, TABLES
from logstore.analytics.stats import all_stats, run_stat
from logstore.analytics.views import connect_exported, export_parquet
from logstore.store import Store
from tests.logstore import hostile_folder
from tests.logstore.analytics_corpus import record_bytes

ROOT = Path(__file__).resolve().parents[2]
SIMULATED = [("bunnies", 2, None), ("trust-no-bunny", 2, 5), ("killer-bunnies-quest", 2, 4),
             ("kinderbunnies", 2, 3), ("killer-bunnies-odyssey", 2, 2)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The records (for Spark), a store of the same games (imported here) and its export."""
    root = tmp_path_factory.mktemp("spark-same")
    records = root / "records"
    shutil.copytree(ROOT / "fixtures", records / "fixtures",
                    ignore=shutil.ignore_patterns("*.py", "*.md", "__pycache__"))
    hostile_folder.write(records / "hostile")
    for slug, games, players in SIMULATED:
        for i in range(games):
            (records / "simulated" / f"{slug}-{i}.jsonl").parent.mkdir(parents=True, exist_ok=True)
            (records / "simulated" / f"{slug}-{i}.jsonl").write_bytes(record_bytes(slug, 41, i, players))
    # Names Spark's file systems take for hidden (read by the driver instead).
    (records / "simulated" / ".hidden.jsonl").write_bytes(record_bytes("bunnies", 47, 0))
    (records / "simulated" / "_underscored.jsonl").write_bytes(record_bytes("kinderbunnies", 47, 0, 3))
    # Names Hadoop's paths read as patterns or URLs, or pass over: checked as they are.
    odd = records / "odd"
    odd.mkdir()
    for k, name in enumerate(["a space.jsonl", "100%.jsonl", "{x}.jsonl", "[y].jsonl", "Zoë.jsonl",
                              "new\nline.jsonl", "co:lon.jsonl", "a%20b.jsonl"]):
        (odd / name).write_bytes(record_bytes("bunnies", 48, k))
    (odd / "empty.jsonl").write_bytes(b"")
    # Two records in one file for Spark; the store imports them as two files.
    two = [record_bytes("bunnies", 43, 0), record_bytes("killer-bunnies-quest", 43, 0, 3)]
    (records / "many" / "two-games.jsonl").parent.mkdir(parents=True)
    (records / "many" / "two-games.jsonl").write_bytes(b"".join(two))
    split = root / "split"
    split.mkdir()
    for k, data in enumerate(two):
        (split / f"{k}.jsonl").write_bytes(data)
    db = root / "warren.db"
    with Store(db) as store:
        store.import_paths([records / "fixtures", records / "hostile", records / "simulated", split])
    local = root / "local"
    export_parquet(db, local)
    return {"root": root, "records": records, "db": db, "local": local}


@pytest.fixture(scope="module")
def from_store(spark: Any, corpus: dict[str, Path]) -> Path:
    from logstore.analytics.spark import export_projections

    out = corpus["root"] / "spark-store"
    report = export_projections(spark, str(out), store=corpus["db"])
    assert report.problem_count == 0, report.problems
    return out


@pytest.fixture(scope="module")
def from_records(spark: Any, corpus: dict[str, Path]) -> tuple[Path, Any]:
    from logstore.analytics.spark import export_projections

    out = corpus["root"] / "spark-records"
    records = corpus["records"]
    report = export_projections(spark, str(out), records=[str(records / "fixtures"), str(records / "hostile"),
                                                          str(records / "simulated"), str(records / "many")])
    return out, report


def _value(v: Any) -> Any:
    if isinstance(v, Decimal):
        v = float(v)
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _value(x)) for k, x in v.items()))
    return v


def _rows(folder: Path, table: str,
          leave_out: tuple[str, ...] = ()) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A table of an export, every ruleset, as sorted rows of its columns by name."""
    files = sorted(str(f) for f in (folder / table).glob("ruleset=*/*.parquet"))
    if not files:
        return [], []
    con = duckdb.connect(config=DUCKDB_CONFIG)
    listing = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    try:
        got = arrow(con, f"SELECT * FROM read_parquet([{listing}], hive_partitioning = true, "
                         "union_by_name = true)")
    finally:
        con.close()
    names = sorted(n for n in got.column_names if n not in leave_out)
    rows = sorted((tuple(_value(r[n]) for n in names) for r in got.select(names).to_pylist()), key=repr)
    return names, rows


@pytest.mark.parametrize("table", TABLES)
def test_spark_from_the_store_writes_the_same_tables(corpus: dict[str, Path], from_store: Path,
                                                     table: str) -> None:
    names, local = _rows(corpus["local"], table)
    assert local, f"the corpus gives no {table} rows"
    assert _rows(from_store, table) == (names, local)


def test_spark_lays_the_tables_out_as_the_local_export(corpus: dict[str, Path], from_store: Path) -> None:
    for table in TABLES:
        local = sorted(p.name for p in (corpus["local"] / table).iterdir())
        spark = sorted(p.name for p in (from_store / table).iterdir())
        assert spark == local, table
    assert not list(from_store.glob(".warren-games-*")), "the staged games were left behind"


@pytest.mark.parametrize("table", GAME_TABLES)
def test_both_exports_read_whole_with_no_option(spark: Any, corpus: dict[str, Path], from_store: Path,
                                                table: str) -> None:
    """Each folder, the local export's and Spark's, read by Spark and pyarrow with plain calls,
    gives the columns of every ruleset (each part carries the table's whole schema)."""
    import pyarrow.parquet as pq

    local = set(pq.read_table(corpus["local"] / table).column_names)
    assert set(pq.read_table(from_store / table).column_names) == local
    assert set(spark.read.parquet(str(corpus["local"] / table)).columns) == local
    assert set(spark.read.parquet(str(from_store / table)).columns) == local


@pytest.mark.parametrize("table", GAME_TABLES)
def test_spark_from_the_records_writes_the_same_tables(corpus: dict[str, Path],
                                                       from_records: tuple[Path, Any], table: str) -> None:
    """The same rows as the store's, but when each game was imported: records never were."""
    out, _report = from_records
    names, local = _rows(corpus["local"], table, leave_out=("imported_at",))
    assert _rows(out, table, leave_out=("imported_at",)) == (names, local)


def test_records_the_store_refuses_are_left_out_and_named(corpus: dict[str, Path],
                                                          from_records: tuple[Path, Any]) -> None:
    _out, report = from_records
    with Store(corpus["db"]) as store:
        stored = store.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    assert report.games == stored
    said = "\n".join(report.problems)
    assert report.problem_count == len(report.problems) > 0
    for name in ("broken-chain", "h-not-json", "g-cut", "e-key-twice"):
        assert name in said, name
    assert "file:" not in said  # local files are named as they were given, not as Spark's URIs


def test_every_canned_stat_gives_the_same_figures(corpus: dict[str, Path], from_store: Path) -> None:
    local, _ = connect_exported(corpus["local"])
    spark, _ = connect_exported(from_store)
    try:
        for stat in all_stats():
            expected = run_stat(local, stat).table.to_pylist()
            got = run_stat(spark, stat).table.to_pylist()
            assert [tuple(map(_value, r.values())) for r in got] == \
                [tuple(map(_value, r.values())) for r in expected], stat.name
    finally:
        local.close()
        spark.close()


def _check(paths: list[Path], *spark: str) -> tuple[int, bytes]:
    done = subprocess.run([sys.executable, "-m", "logstore.cli", "check", "--json", *spark, *map(str, paths)],
                          capture_output=True, cwd=ROOT, timeout=600)
    return done.returncode, done.stdout


def test_check_on_spark_gives_the_same_lines_and_exit_code(corpus: dict[str, Path]) -> None:
    records = corpus["records"]
    paths = [records / "fixtures", records / "hostile", records / "many", records / "simulated",
             records / "simulated" / "bunnies-0.jsonl", records / "no-such-file.jsonl", records / "odd",
             records / "odd" / "co:lon.jsonl"]
    local = _check(paths)
    odd = [json.loads(line) for line in local[1].splitlines() if b"/odd/" in line]
    assert len(odd) == 10 and sum(r["ok"] for r in odd) == 9  # the empty file is no record
    assert local[0] == 2 and local[1].count(b"\n") > 190
    assert _check(paths, "--spark", "local[2]") == local


def test_a_record_that_crashes_warren_is_reported_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the workers run, run here: a crash in the check of one record is that record's
    verdict (unreadable, exit 2); the others are judged."""
    from logstore.analytics import spark as on_spark
    from logstore.store import checking

    good = record_bytes("bunnies", 5, 0)
    real = checking.check_record_source

    def crashing(data: Any, path: str, head: bytes = b"") -> Any:
        if path == "b.jsonl":
            raise RuntimeError("boom")
        return real(data, path, head)

    monkeypatch.setattr(checking, "check_record_source", crashing)
    batch = pa.RecordBatch.from_pylist([{"path": "file:/x/a.jsonl", "content": good},
                                        {"path": "file:/x/b.jsonl", "content": good}])
    judge = on_spark._judge_files({"file:/x/a.jsonl": "a.jsonl", "file:/x/b.jsonl": "b.jsonl"})
    rows = [r for out in judge([batch]) for r in out.to_pylist()]
    verdicts = {r["name"]: json.loads(r["line"]) for r in rows}
    assert verdicts["a.jsonl"]["ok"] is True
    assert verdicts["b.jsonl"]["ok"] is False and "RuntimeError: boom" in verdicts["b.jsonl"]["error"]
    assert [r["exit"] for r in rows] == [0, 2]


def test_a_game_that_crashes_the_fold_is_reported_and_the_others_folded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from logstore.analytics import projection_rows
    from logstore.analytics import spark as on_spark

    rows = [r for i in range(3)
            for r in on_spark.records_of_file(f"g{i}.jsonl", record_bytes("bunnies", 7, i))]
    bad = rows[1]["game_id"]
    real = projection_rows.project_games

    def crashing(ruleset: Any, games: list[Any], facts: Any, reader: Any = None) -> Any:
        if any(g.game_id == bad for g in games):
            raise ValueError("the fold broke")
        return real(ruleset, games, facts, reader)

    monkeypatch.setattr(projection_rows, "project_games", crashing)
    batch = pa.RecordBatch.from_pylist(rows, schema=on_spark.GAME_COLUMNS)
    pieces = [p for out in on_spark.fold_games([batch]) for p in out.to_pylist()]
    counts = [p for p in pieces if p["tbl"] == ""]
    assert sum(p["games"] for p in counts) == 2
    assert [p["problem"] for p in counts if p["problem"]] == [f"game {bad!r}: ValueError: the fold broke"]
    games = [p for p in pieces if p["tbl"] == "games"]
    assert sum(p["rows"] for p in games) == 2


def test_many_records_in_one_file_are_each_read() -> None:
    from logstore.analytics.spark import records_of_file

    data = record_bytes("bunnies", 5, 0) + record_bytes("kinderbunnies", 5, 0, 3)
    rows = list(records_of_file("two.jsonl", data))
    assert [(r["ruleset"], r["position"], r.get("problem")) for r in rows] == [
        ("bunnies", 0, None), ("kinderbunnies", 1, None)]
    assert b"".join(r["data"] for r in rows) == data.replace(data.splitlines(keepends=True)[-1], b"", 1) \
        or rows[0]["lines"] + rows[1]["lines"] > 2
    # a line that does not read ends the record it is in, which alone is left out
    rows = list(records_of_file("two.jsonl", record_bytes("bunnies", 5, 0) + b"{broken\n"
                                + record_bytes("kinderbunnies", 5, 0, 3)))
    assert rows[0]["problem"].startswith("two.jsonl (record 1)")
    assert rows[1]["ruleset"] == "kinderbunnies" and rows[1].get("problem") is None


def test_a_failed_spark_job_is_one_line_not_a_java_stack(spark: Any) -> None:
    """A worker that dies (here: a Python worker killed) fails the job; the command says so
    in a line naming the master."""
    from logstore.analytics.spark import SparkError, spark_errors

    def die(_: Any) -> Any:
        os._exit(3)

    failed = r"the job on Spark at local\[2\] failed: "
    with pytest.raises(SparkError, match=failed), spark_errors("local[2]"):
        spark.sparkContext.parallelize([1], 1).map(die).collect()
    with pytest.raises(ValueError), spark_errors("local[2]"):  # not Spark's: passed through
        raise ValueError("not Spark's")
