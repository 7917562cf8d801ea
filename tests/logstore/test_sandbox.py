"""`warren query`: a user's SQL runs as one SELECT over warren's tables, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from logstore.analytics.sandbox import Limits, QueryFailed, QueryRefused, QueryTimeout, Sandbox
from logstore.analytics.views import list_parts
from logstore.cli import main
from tests.logstore.analytics_corpus import fill


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sandbox") / "warren.db"
    fill(path, games=3)
    list_parts(path)  # project once for the whole module
    return path


@pytest.fixture
def box(db: Path) -> Sandbox:
    with Sandbox(list_parts(db), Limits(seconds=5)) as sandbox:
        yield sandbox


def test_a_select_over_warrens_tables_answers(box: Sandbox) -> None:
    table = box.run("WITH w AS (SELECT game_id FROM games) SELECT count(*) AS n FROM w")
    assert table.to_pylist() == [{"n": 3}]
    assert box.run("SELECT count(*) AS n FROM events WHERE seq = 0").to_pylist() == [{"n": 3}]


HOSTILE = [
    ("SELECT * FROM read_csv('/etc/passwd')", QueryRefused, "outside warren's tables"),
    ("SELECT * FROM read_text('/etc/hostname')", QueryRefused, "outside warren's tables"),
    ("SELECT * FROM glob('/etc/*')", QueryRefused, "outside warren's tables"),
    ("COPY games TO '/tmp/warren-stolen.csv'", QueryRefused, "not COPY"),
    ("COPY (SELECT * FROM games) TO '/tmp/warren-stolen.parquet' (FORMAT parquet)", QueryRefused, "not COPY"),
    ("ATTACH '/tmp/other.db' AS other", QueryRefused, "not ATTACH"),
    ("INSTALL sqlite", QueryRefused, "not INSTALL"),
    ("LOAD sqlite", QueryRefused, "not LOAD"),
    ("SET enable_external_access = true", QueryRefused, "not SET"),
    ("RESET lock_configuration", QueryRefused, "not RESET"),
    ("PRAGMA database_list", QueryRefused, "not PRAGMA"),
    ("CALL pragma_version()", QueryRefused, "not CALL"),
    ("CREATE TABLE t AS SELECT 1", QueryRefused, "not CREATE"),
    ("DROP VIEW games", QueryRefused, "not DROP"),
    ("INSERT INTO games SELECT * FROM games", QueryRefused, "not INSERT"),
    ("EXPORT DATABASE '/tmp/warren-export'", QueryRefused, "not EXPORT"),
    ("SELECT 1; COPY games TO '/tmp/x.csv'", QueryRefused, "one statement at a time"),
    ("", QueryRefused, "empty"),
    ("SELECT * FROM sqlite_scan('/tmp/other.db', 'games')", QueryFailed, "sqlite"),
    ("SELECT * FROM nowhere", QueryFailed, "warren's tables: games"),
]


@pytest.mark.parametrize(("sql", "error", "says"), HOSTILE, ids=[h[0][:40] or "empty" for h in HOSTILE])
def test_hostile_queries_are_refused_with_a_clear_message(
        box: Sandbox, sql: str, error: type[Exception], says: str) -> None:
    with pytest.raises(error) as caught:
        box.run(sql)
    assert says in str(caught.value)
    assert not Path("/tmp/warren-stolen.csv").exists()
    # and the sandbox still answers afterwards
    assert box.run("SELECT count(*) AS n FROM games").to_pylist() == [{"n": 3}]


def test_a_runaway_query_hits_the_time_limit(db: Path) -> None:
    with Sandbox(list_parts(db), Limits(seconds=0.5)) as box:
        with pytest.raises(QueryTimeout, match=r"time limit of 0\.5 s"):
            box.run("SELECT count(*) FROM range(1000000000000) a")
        assert box.run("SELECT 42 AS answer").to_pylist() == [{"answer": 42}]


def test_a_query_over_the_memory_limit_is_stopped(db: Path) -> None:
    with Sandbox(list_parts(db), Limits(seconds=20, memory="32MB")) as box, \
            pytest.raises((QueryRefused, QueryFailed), match="memory"):
        box.run("SELECT list(i) FROM range(50000000) t(i)")


def test_the_cli_refuses_with_exit_2_and_no_traceback(db: Path) -> None:
    result = CliRunner().invoke(main, ["query", "COPY games TO '/tmp/warren-stolen.csv'", "--db", str(db)])
    assert result.exit_code == 2
    assert "only SELECT queries are run here, not COPY" in result.output
    assert "Traceback" not in result.output


def test_the_cli_gives_csv_json_and_parquet(db: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    sql = "SELECT ruleset, count(*) AS games FROM games GROUP BY ruleset"
    csv = runner.invoke(main, ["query", sql, "--db", str(db), "-f", "csv"])
    assert csv.exit_code == 0, csv.output
    assert csv.output.splitlines() == ['"ruleset","games"', '"bunnies",3']
    js = runner.invoke(main, ["query", sql, "--db", str(db), "-f", "json"])
    assert js.output.strip() == '{"ruleset": "bunnies", "games": 3}'
    out = tmp_path / "r.parquet"
    pq_run = runner.invoke(main, ["query", sql, "--db", str(db), "-f", "parquet", "-o", str(out)])
    assert pq_run.exit_code == 0, pq_run.output
    assert pq.read_table(out).to_pylist() == [{"ruleset": "bunnies", "games": 3}]
    table = runner.invoke(main, ["query", sql, "--db", str(db)])
    assert "bunnies" in table.output and "games" in table.output
    no_file = runner.invoke(main, ["query", sql, "--db", str(db), "-f", "parquet"])
    assert no_file.exit_code == 2 and "--out FILE" in no_file.output


# -- what the fence leaked before: DuckDB's own temp folder, the store's paths, the timer ------
def test_the_working_directorys_tmp_folder_is_not_readable(db: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # DuckDB's default temp folder is ./.tmp, and it allowed reading it, wherever warren ran.
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".tmp").mkdir()
    (tmp_path / ".tmp" / "notes.txt").write_text("the club's password")
    with Sandbox(list_parts(db), Limits(seconds=5)) as box:
        for sql in ("SELECT * FROM read_text('.tmp/notes.txt')", "SELECT * FROM glob('.tmp/*')",
                    f"SELECT * FROM glob('{tmp_path}/*')"):
            with pytest.raises(QueryRefused, match="outside warren's tables"):
                box.run(sql)
        private = box.private
        assert Path(private).is_dir()
    assert not Path(private).exists()  # the session's own temporary folder goes with it


def test_no_setting_view_or_error_names_a_path_of_the_store(db: Path) -> None:
    root = str(Path(str(db) + ".analytics").resolve())
    with Sandbox(list_parts(db), Limits(seconds=5)) as box:
        seen = [str(row) for sql in (
            "SELECT name, value FROM duckdb_settings()",
            "SELECT sql FROM duckdb_views()",
            "SELECT * FROM duckdb_tables()",
            "SELECT current_setting('allowed_directories') AS a",
        ) for row in box.run(sql).to_pylist()]
        assert seen and not any(root in text or str(db.parent) in text for text in seen)
        with pytest.raises(QueryRefused) as caught:
            box.run(f"SELECT * FROM read_text('{root}/games')")
        assert root not in str(caught.value)
        assert box.run("SELECT count(*) AS n FROM games").to_pylist() == [{"n": 3}]


@pytest.mark.parametrize("seconds", [1e10, float("inf"), float("nan"), 0.0, -1.0])
def test_a_time_limit_that_would_not_limit_is_refused(db: Path, seconds: float) -> None:
    with pytest.raises(QueryRefused, match="time limit"):
        Sandbox(list_parts(db), Limits(seconds=seconds))


def test_the_cli_refuses_a_timeout_too_large_to_keep(db: Path) -> None:
    result = CliRunner().invoke(main, ["query", "SELECT 1", "--timeout", "1e10", "--db", str(db)])
    assert result.exit_code == 2 and "--timeout" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("memory", ["0B", "-1GB", "1", "lots", "1KB", "2PB"])
def test_a_memory_limit_that_would_not_limit_is_refused(db: Path, memory: str) -> None:
    """``0B`` died in DuckDB while the tables were read in; ``-1GB`` meant no limit at all."""
    with pytest.raises(QueryRefused, match="memory limit"):
        Sandbox(list_parts(db), Limits(memory=memory))


def test_the_cli_refuses_a_bad_memory_limit_plainly(db: Path) -> None:
    from click.testing import CliRunner

    from logstore.cli import main

    for memory in ("0B", "-1GB"):
        result = CliRunner().invoke(main, ["query", "SELECT 1", "--memory", memory, "--db", str(db)])
        assert result.exit_code == 2 and "memory limit" in result.output and "Traceback" not in result.output
    fine = CliRunner().invoke(main, ["query", "SELECT 1 AS one", "--memory", "256MB", "-f", "csv",
                                     "--db", str(db)])
    assert fine.exit_code == 0 and "one" in fine.output


# -- bounded and exact: a result is counted as it comes, and any SELECT is shown as text -------
def test_a_result_past_its_rows_or_bytes_is_refused_while_it_is_read(db: Path) -> None:
    import resource

    with Sandbox(list_parts(db), Limits(seconds=30, rows=1000)) as box:
        assert box.run("SELECT * FROM range(1000)").num_rows == 1000
        with pytest.raises(QueryRefused, match="more than 1,000 rows"):
            box.run("SELECT * FROM range(1001)")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with Sandbox(list_parts(db), Limits(seconds=30, memory="32MB")) as box, \
            pytest.raises(QueryRefused, match="larger than the memory limit of 32MB"):
        box.run("SELECT i, repeat('x', 1000) FROM range(5000000) t(i)")  # 5 GB if it were held
    # Counted against the limit as it came: the process never held the whole result.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 600_000  # kB
    with Sandbox(list_parts(db), Limits(seconds=30, result_bytes=1 << 20)) as box, \
            pytest.raises(QueryRefused, match="larger than 1 MB"):
        box.run("SELECT repeat('x', 1000) FROM range(10000)")


ODD_TYPES = ("SELECT [1, 2] AS l, map([1], ['a']) AS m, {'x': 1} AS s, union_value(k := 1) AS u, "
             "INTERVAL 3 DAY AS i, 'infinity'::TIMESTAMP AS t, '-infinity'::DATE AS d, 1 AS a, 2 AS a "
             "-- and a comment at the end")


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_every_select_can_be_written_as_text(db: Path, fmt: str) -> None:
    result = CliRunner().invoke(main, ["query", ODD_TYPES, "--db", str(db), "-f", fmt],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    for shown in ("[1, 2]", "{1=a}", "3 days", "infinity", "-infinity", "a_1"):
        assert shown in result.stdout
    catalog = CliRunner().invoke(main, ["query", "SELECT * FROM duckdb_tables()", "--db", str(db),
                                        "-f", fmt], catch_exceptions=False)
    assert catalog.exit_code == 0, catalog.output


def test_parquet_keeps_the_types(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "odd.parquet"
    sql = ODD_TYPES.replace("'infinity'::TIMESTAMP", "TIMESTAMP '2026-01-01'").replace(
        "'-infinity'::DATE", "DATE '2026-01-01'")
    result = CliRunner().invoke(main, ["query", sql, "--db", str(db), "-f", "parquet", "-o", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert str(pq.read_schema(out).field("l").type).startswith("list")
