"""The replay page, driven through Streamlit's AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from logstore.cli import main
from logstore.store import Store
from tests.dashboard.conftest import APP, texts


def replay_page(**params: str) -> AppTest:
    """The page with its "position as data" box open (closed, it sends nothing)."""
    at = AppTest.from_file(str(APP), default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.session_state["rp_as_data"] = True
    at.switch_page("screens/replay.py").run()
    assert not at.exception, at.exception
    return at


def first_game(store: Path) -> str:
    with Store(store) as s:
        return s.games()[0].game_id


def cli_view(store: Path, game: str, seq: int, seen: str) -> dict:
    result = CliRunner().invoke(main, ["replay", game, "--to", str(seq), "--as", seen, "--json",
                                       "--db", str(store)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["view"]


def test_stepping_to_n_shows_what_cli_replay_shows(app_env: Path) -> None:
    game = first_game(app_env)
    at = replay_page(game=game, seq="0")
    assert at.session_state["pos_seq"] == 0
    for _ in range(5):
        at.button(key="pos_next").click().run()
    assert at.session_state["pos_seq"] == 5
    assert at.json[0].value and json.loads(at.json[0].value) == cli_view(app_env, game, 5, "referee")
    at.slider(key="pos_seq").set_value(40).run()
    assert json.loads(at.json[0].value) == cli_view(app_env, game, 40, "referee")
    assert at.query_params["seq"] == ["40"] or at.query_params["seq"] == "40"


def test_perspective_hides_the_other_hand(app_env: Path) -> None:
    game = first_game(app_env)
    at = replay_page(game=game, seq="10", **{"as": "0"})
    view = json.loads(at.json[0].value)
    assert isinstance(view["hands"][0], list) and isinstance(view["hands"][1], int)
    assert view == cli_view(app_env, game, 10, "0")
    referee = cli_view(app_env, game, 10, "referee")
    board = "".join(h.proto.body for h in at.get("html"))
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    hidden = referee["hands"][1]
    assert hidden, "seat 1 should hold cards at seq 10"
    for card in hidden:  # each card exists once, so its face may appear nowhere on seat 0's board
        face = f"{card[0].replace('T', '10')}<br>{symbols[card[1]]}"
        assert face not in board, card
    for card in referee["hands"][0]:
        assert f"{card[0].replace('T', '10')}<br>{symbols[card[1]]}" in board, card
    assert board.count('class="wr-card back"') >= view["hands"][1]


def test_a_game_opens_at_its_start_then_jumps_and_steps(app_env: Path) -> None:
    game = first_game(app_env)
    at = replay_page(game=game)
    assert at.session_state["pos_seq"] == 0  # the start, not the end
    assert "The start" in texts(at.markdown)
    with Store(app_env) as s:
        last = s.game(game).n_events
    at.number_input(key="pos_turn").set_value(3).run()
    assert "turn 3" in texts(at.markdown)
    at.button(key="pos_first").click().run()
    assert at.session_state["pos_seq"] == 0
    at.button(key="pos_last").click().run()
    assert at.session_state["pos_seq"] == last
    assert f"Event {last} of {last}" in texts(at.markdown)


def test_unknown_game_and_bad_seq_in_the_url_are_explained(app_env: Path) -> None:
    at = replay_page(game="no-such-game")
    assert any("no game 'no-such-game'" in e.value for e in at.error)
    at = replay_page(game=first_game(app_env), seq="999999")
    assert any("not in this game" in w.value for w in at.warning)
    at = replay_page(game=first_game(app_env), seq="abc")
    assert any("not in this game" in w.value for w in at.warning)


def test_missing_and_corrupt_and_empty_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WARREN_DB", str(tmp_path / "absent.db"))
    at = replay_page()
    assert any("There is no store" in e.value for e in at.error)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not sqlite" * 100)
    monkeypatch.setenv("WARREN_DB", str(corrupt))
    at = replay_page()
    assert any("cannot be opened as a warren store" in e.value for e in at.error)
    empty = tmp_path / "empty.db"
    Store(empty).close()
    monkeypatch.setenv("WARREN_DB", str(empty))
    at = replay_page()
    assert any("The store is empty" in i.value for i in at.info)


def test_a_violation_is_shown_as_the_perspective_may_know_it(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # A Townsfolk's illegal Sabotage: the rule id for everybody, its role for nobody else.
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "trust-no-bunny" / \
        "illegal-TNB-SAB-1-seq-39-townsfolk-sabotage.jsonl"
    db = tmp_path / "warren.db"
    with Store(db) as store:
        game = store.import_bytes(fixture.read_bytes(), str(fixture)).game_id
        actor = store.record(game).events[38].actor
    monkeypatch.setenv("WARREN_DB", str(db))
    errors = {}
    for seen in ("referee", str((actor + 1) % 5), "spectator"):
        at = replay_page(game=game, seq="38", **{"as": seen})
        errors[seen] = " ".join(e.value for e in at.error)
    assert "TNB-SAB-1" in errors["referee"] and "Townsfolk" in errors["referee"]
    for seen, text in errors.items():
        if seen != "referee":
            # The rule's id alone ("only Werebunnies Sabotage") would name the actor a Townsfolk.
            assert "TNB-SAB-1" not in text and "illegal hidden action" in text
            assert "Townsfolk" not in text and f"seat {actor} is" not in text


def test_the_position_as_data_is_sent_only_when_its_box_is_opened(app_env: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["game"] = first_game(app_env)
    at.query_params["seq"] = "5"
    at.switch_page("screens/replay.py").run()
    assert not at.exception and not at.json  # a step sends no JSON nobody looks at


def test_who_was_ahead_is_worked_out_on_request_and_kept(app_env: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The chances chart: asked for, worked out through the library, kept in the store, and
    found there by the next visit (no button then)."""
    from dashboard import chances_chart
    from engine.analysis.timeline import Settings

    monkeypatch.setattr(chances_chart, "QUICK", Settings(worlds=2, rollouts=1))
    game = first_game(app_env)
    at = replay_page(game=game, seq="12", **{"as": "1"})
    assert "Not worked out yet" in texts(at.caption)
    at.button(key="chances_quick").click().run()
    assert not at.exception, at.exception
    said = texts(at.caption) + texts(at.markdown)
    assert "2 worlds x 1 plays per position" in said and "the band is the 95% interval" in said
    assert "Only what" in said  # a seat's perspective says it uses only what the seat knew
    again = replay_page(game=game, seq="12", **{"as": "1"})
    assert "Not worked out yet" not in texts(again.caption)
    assert not [b for b in again.button if b.key == "chances_quick"]


def test_a_kept_win_model_draws_a_first_look_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a win model of the ruleset kept (warren model fit), the page draws its chances
    before any analysis is worked out."""
    db = tmp_path / "warren.db"
    result = CliRunner().invoke(main, ["simulate", "kinderbunnies", "--games", "80", "--seed", "2",
                                       "--into-store", "--db", str(db)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["model", "fit", "--check", "0", "--db", str(db)])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("WARREN_DB", str(db))
    at = replay_page(game=first_game(db), seq="10", **{"as": "0"})
    said = texts(at.caption)
    assert "A first look from the store's win model (fitted on" in said and "Not worked out yet" in said
