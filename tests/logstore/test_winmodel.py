"""The win-chance model (logstore.analytics.winmodel, ``warren model``): fitted on a small
simulated corpus, its calibration checked against outcomes worked out here, kept as plain
numbers, and bad input told in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from engine.registry import get_ruleset
from logstore.analytics import winmodel
from logstore.analytics.views import connect
from logstore.cli import main
from logstore.store import Store


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("winmodel") / "warren.db"
    code, _, err = run("simulate", "kinderbunnies", "--games", "150", "--seed", "3", "--into-store",
                       "--db", str(path))
    assert code == 0, err
    code, _, err = run("simulate", "bunnies", "--games", "12", "--seed", "3", "--into-store",
                       "--db", str(path))
    assert code == 0, err
    return path


def test_the_calibration_table_agrees_with_outcomes_worked_out_here(db: Path) -> None:
    code, out, err = run("model", "fit", "--ruleset", "kinderbunnies", "--players", "2", "--check", "3",
                         "--json", "--db", str(db))
    assert code == 0, err
    stored = json.loads(out)["fitted"][0]
    con, _ = connect(db, ruleset="kinderbunnies")
    try:
        found = winmodel.positions(con, "kinderbunnies", 2)
    finally:
        con.close()
    rs = get_ruleset("kinderbunnies")
    outcome: dict[str, list[float]] = {}
    with Store(db) as store:
        for game_id in {g for g in found.games if winmodel.held_out(g)}:
            record = store.record(game_id)
            state = rs.setup(record.header)
            rs.fold(state, record.events)
            result = rs.outcome(state)
            assert result is not None
            outcome[game_id] = [1 / len(result.winners) if s in result.winners else 0.0 for s in range(2)]
        model = winmodel.kept(store.conn, "kinderbunnies")[0]
    predicted, observed = [], []
    for i, game_id in enumerate(found.games):
        first = i == 0 or found.turns[i] != found.turns[i - 1] or found.games[i - 1] != game_id
        if game_id in outcome and first:
            rows = found.x[i:i + 2]
            predicted.extend(model.chances(rows).tolist())
            observed.extend(outcome[game_id])
    p, o = np.array(predicted), np.array(observed)
    assert stored["check"]["reliability"] == winmodel.reliability(p, o)
    assert stored["check"]["brier"] == round(float(((p - o) ** 2).mean()), 4)
    assert stored["check"]["brier"] < stored["check"]["base_brier"]  # it has learnt something
    assert sum(row["n"] for row in stored["check"]["reliability"]) == len(p)
    assert stored["check"]["rollouts"]["positions"] == 3


def test_a_model_is_kept_as_plain_numbers_and_read_back(db: Path) -> None:
    with Store(db) as store:
        model = winmodel.kept(store.conn, "kinderbunnies")[0]
        text = store.conn.execute("SELECT model FROM win_models WHERE ruleset = 'kinderbunnies'") \
            .fetchone()[0]
    data = json.loads(text)
    assert data["format"] == winmodel.MODEL_FORMAT and data["features"] == model.features
    assert len(data["coef"]) == len(data["features"]) == len(data["mean"]) == len(data["scale"])
    chances = model.chances(np.ones((2, len(model.features))))
    assert chances.sum() == pytest.approx(1.0) and chances[0] == pytest.approx(0.5)  # the same figures: even
    with pytest.raises(winmodel.ModelError, match="format"):
        winmodel.WinModel.from_json(json.dumps({**data, "format": 99}))
    code, out, _ = run("model", "show", "--ruleset", "kinderbunnies", "--db", str(db))
    assert code == 0 and "KinderBunnies" in out and "weights" in out and "Brier" in out


def test_too_few_games_says_how_many_it_needs(db: Path) -> None:
    code, _, err = run("model", "fit", "--ruleset", "bunnies", "--players", "2", "--db", str(db))
    assert code == 2 and "needs 60 finished, legal games" in err and "Traceback" not in err
    assert re.search(r"it has \d+\b", err)
    code, out, _ = run("model", "fit", "--ruleset", "bunnies", "--json", "--db", str(db))
    assert code == 0 and json.loads(out)["skipped"]


def test_a_ruleset_without_key_figures_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoFigures:
        title = "Carrot Nim"
        figure_names: tuple[str, ...] = ()
        seat_figures: frozenset[str] = frozenset()

    monkeypatch.setattr(winmodel, "get_ruleset", lambda slug: NoFigures())
    with pytest.raises(winmodel.ModelError, match="Carrot Nim projects no key figure per seat"):
        winmodel.feature_names("carrot-nim")


def test_features_are_the_seat_figures_their_gaps_the_table_and_the_round() -> None:
    seat, _table, features = winmodel.feature_names("killer-bunnies-quest")
    assert seat == ["bunnies", "carrots", "dolla"]
    assert features[:6] == ["bunnies", "carrots", "dolla", "gap_bunnies", "gap_carrots", "gap_dolla"]
    assert "table_market_open" in features and "table_round" in features


def test_the_features_of_a_state_are_those_the_projections_give(db: Path) -> None:
    """The Replay page's first look works the features out from a state; the fit reads them
    from the projections: the same numbers for the same positions."""
    con, _ = connect(db, ruleset="kinderbunnies")
    try:
        found = winmodel.positions(con, "kinderbunnies", 2, limit=60)
    finally:
        con.close()
    rs = get_ruleset("kinderbunnies")
    checked = 0
    with Store(db) as store:
        for i in range(0, len(found.games), 2):
            record = store.record(found.games[i])
            state = rs.setup(record.header)
            rs.fold(state, record.events[:found.seqs[i]])
            assert winmodel.features_of("kinderbunnies", state, 2).tolist() == found.x[i:i + 2].tolist()
            checked += 1
    assert checked >= 10
