"""The dashboard on an export (``warren dashboard --parquet DIR``): the Overview, Stats and SQL
pages read the exported tables (here or from Spark) as they read a store's, with no store at
all; the command refuses a folder that is not an export."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from logstore.analytics.views import export_parquet
from logstore.cli import main
from tests.dashboard.conftest import texts
from tests.dashboard.test_cli_dashboard import FakeServer
from tests.dashboard.test_stats_sql_pages import _charts, every_game, page


@pytest.fixture(scope="module")
def exported(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "exported"
    export_parquet(demo_store, out)
    return out


@pytest.fixture()
def export_env(exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WARREN_PARQUET", str(exported))
    monkeypatch.setenv("WARREN_DB", str(tmp_path / "no-store-here.db"))  # never read
    return exported


def test_the_stats_page_on_an_export_draws_what_it_draws_on_the_store(
        demo_store: Path, exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARREN_DB", str(demo_store))
    on_store = _charts(every_game("questions"))
    monkeypatch.setenv("WARREN_PARQUET", str(exported))
    monkeypatch.setenv("WARREN_DB", str(exported.parent / "no-store-here.db"))
    on_export = _charts(every_game("questions"))
    assert len(on_store) >= 5
    assert on_export == on_store
    assert not (exported.parent / "no-store-here.db").exists()


def test_the_sql_page_queries_the_export(export_env: Path, demo_store: Path) -> None:
    at = page("sql")
    at.text_area(key="sql_text").input("SELECT count(*) AS n FROM games")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    assert not at.error, [e.value for e in at.error]
    from logstore.store import Store

    with Store(demo_store) as store:
        stored = len(store.games())
    assert at.dataframe[0].value["n"][0] == stored
    at.text_area(key="sql_text").input("SELECT * FROM read_parquet('/etc/passwd')")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    assert "outside warren's tables" in at.error[0].value


def test_the_overview_of_an_export_counts_its_games_and_leads_to_its_two_pages(export_env: Path) -> None:
    at = page("overview")
    words = texts(at.caption) + texts(at.markdown)
    assert f"export {export_env}" in words
    assert "Bunnies" in words and "games:" in words
    assert "import its records into a store" in words
    links = [link.proto.page for link in at.get("page_link")]
    assert links == ["stats", "sql"]
    for elsewhere in ("replay", "disputes", "games", "record", "players"):  # not served: the overview instead
        assert [t.value for t in page(elsewhere).title] == ["warren"], elsewhere


def test_a_folder_that_is_no_export_is_refused_before_anything_is_served(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Any] = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    result = CliRunner().invoke(main, ["dashboard", "--parquet", str(tmp_path)])
    assert result.exit_code != 0
    assert "no exported tables in it" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["dashboard", "--parquet", str(tmp_path / "missing")])
    assert result.exit_code != 0 and "no such folder" in result.output
    result = CliRunner().invoke(main, ["dashboard", "--parquet", str(tmp_path), "--db", "x.db"])
    assert result.exit_code == 2 and "not both" in result.output
    assert started == []


def test_the_command_serves_the_export(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    envs: list[dict[str, str]] = []

    class Recorded(FakeServer):
        def __init__(self, command: list[str], **kwargs: Any) -> None:
            super().__init__(command)
            envs.append(kwargs["env"])

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    result = CliRunner().invoke(main, ["dashboard", "--parquet", str(exported)])
    assert result.exit_code == 0, result.output
    assert f"(export {exported}: its statistics and SQL; Ctrl+C stops it)" in result.output
    assert envs[0]["WARREN_PARQUET"] == str(exported.resolve())
