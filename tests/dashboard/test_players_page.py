"""The Players page, driven through Streamlit's AppTest: the players' table, a player's page
by its own address, and the prediction for a chosen table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from logstore.store import Store
from tests.dashboard.conftest import APP

LEAGUE = Path(__file__).resolve().parents[2] / "fixtures" / "league"


@pytest.fixture(scope="module")
def league_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("league") / "warren.db"
    with Store(path) as store:
        store.import_paths([LEAGUE])
    return path


@pytest.fixture()
def league_env(league_db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WARREN_DB", str(league_db))
    yield league_db


def players_page(**params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("screens/players.py").run()
    assert not at.exception, at.exception
    return at


def test_the_players_table_lists_people_not_bots(league_env: Path) -> None:
    at = players_page()
    table = at.dataframe[0].value
    assert set(table["player"]) == {"Ann", "Bo", "Bob", "Cy", "Dee", "Eli", "Fay"}
    assert all(link.startswith("./players?player=") for link in table["page"])


def test_a_player_has_a_page_of_their_own(league_env: Path) -> None:
    at = players_page(player="ann")  # found by any spelling
    assert at.subheader[0].value == "Ann"
    assert any("Rating in" in m.value for m in at.markdown)
    games = at.dataframe[-1].value
    assert len(games) == 11 and all(link.startswith("./replay?game=league-") for link in games["replay"])
    assert not at.error


def test_an_unknown_player_names_the_nearest(league_env: Path) -> None:
    at = players_page(player="Anne")
    assert "did you mean Ann" in at.error[0].value


def test_the_favourite_of_a_table(league_env: Path) -> None:
    at = players_page()
    at.selectbox(key="predict_ruleset").set_value("bunnies")
    at.multiselect(key="predict_players").set_value(["Ann", "Cy"]).run()
    assert not at.exception
    assert any("From the ratings" in c.value for c in at.caption)


def test_the_overview_leads_to_the_players_page(league_env: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60).run()
    assert not at.exception, at.exception
    pages = [link.proto.page for link in at.get("page_link")]
    assert "players" in pages, pages


def test_a_table_the_game_does_not_allow_has_no_favourite(league_env: Path) -> None:
    """Three players at two-player Bunnies: refused in words, no chances drawn."""
    at = players_page()
    at.selectbox(key="predict_ruleset").set_value("bunnies")
    at.multiselect(key="predict_players").set_value(["Ann", "Bo", "Cy"]).run()
    assert not at.exception
    assert any("is played by 2 players, not 3" in w.value for w in at.warning)
    assert not any("From the ratings" in c.value for c in at.caption)
