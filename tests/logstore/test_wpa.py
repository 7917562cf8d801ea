"""Win chance added (logstore.analytics.wpa, ``warren model wpa``): a planted card comes out
first and a neutral one at zero, the tables agree with the model worked out here, Spark gives
the same rows, and bad input is told in words."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from engine import registry
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.analytics import winmodel, wpa
from logstore.analytics.views import connect
from logstore.cli import main
from logstore.store import Store
from tests.logstore.planted import PLANTED_RANK


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A store of 160 games of Bunnies where a seven laid wins at once (random bots), with
    its win model fitted and kept. The test ruleset is registered for the module only."""
    ep = EntryPoint(name="planted-bunnies", value="tests.logstore.planted:RULESET", group=registry.RULESETS)
    found = registry.plugins(registry.RULESETS)
    found["planted-bunnies"] = ep
    try:
        root = tmp_path_factory.mktemp("planted")
        rs = get_ruleset("planted-bunnies")
        records = root / "records"
        records.mkdir()
        for i in range(160):
            game = simulate_one(rs, 5, i, bots=("random",))
            (records / f"{i}.jsonl").write_bytes(b"".join(game.lines()))
        db = root / "warren.db"
        with Store(db) as store:
            # here alone: a helper process forked before the test registered its ruleset
            # would not know it
            results = store.import_paths([records], workers=0)
        assert all(r.ok and r.violation is None for r in results), [r for r in results if not r.ok][:1]
        con, _ = connect(db, jobs=1)
        try:
            model = winmodel.fit(con, "planted-bunnies", 2)
        finally:
            con.close()
        with Store(db) as store:
            winmodel.keep(store.conn, model)
        yield db
    finally:
        del found["planted-bunnies"]
        registry.load_plugin.cache_clear()


def _impacts(db: Path, by: str) -> list[wpa.Impact]:
    con, _ = connect(db, jobs=1)
    try:
        with Store(db) as store:
            model = winmodel.kept(store.conn, "planted-bunnies")[0]
        wpa.create_views(con, [model])
        return wpa.impacts(con, model, by)  # type: ignore[arg-type]
    finally:
        con.close()


def test_a_planted_card_comes_first_and_a_neutral_one_at_zero(planted: Path) -> None:
    cards = _impacts(planted, "card")
    first = cards[0]
    assert first.key == f"{PLANTED_RANK} x1" and first.what == "7 (lay)"
    assert first.low is not None and first.low > 0, "the planted card's interval excludes zero"
    assert first.win_rate == 100.0
    # An ordinary single four: its interval holds zero, not the planted card's weight.
    four = next(c for c in cards if c.key == "4 x1")
    assert not four.too_few and four.low is not None and four.high is not None
    assert four.low <= 0 <= four.high
    assert all(c.points is None or c.points < first.points for c in cards[1:])  # type: ignore[operator]


def _agree(db: Path, slug: str, players: int) -> None:
    """The turn chances and event changes of a game agree with the model worked out from the
    states themselves (the position at each turn's end)."""
    rs = get_ruleset(slug)
    con, _ = connect(db, jobs=1)
    try:
        with Store(db) as store:
            model = next(m for m in winmodel.kept(store.conn, slug) if m.players == players)
            wpa.create_views(con, [model])
            game_id = con.execute("SELECT game_id FROM turn_chances ORDER BY game_id LIMIT 1").fetchone()[0]
            rows = con.execute("SELECT turn, seat, chance, change FROM turn_chances WHERE game_id = ? "
                               "ORDER BY turn, seat", [game_id]).fetchall()
            events = con.execute("SELECT seq, seat, type, change FROM event_wpa WHERE game_id = ? "
                                 "ORDER BY seq", [game_id]).fetchall()
            record = store.record(game_id)
    finally:
        con.close()
    state = rs.setup(record.header)
    at_end: dict[int, Any] = {0: rs.copy_state(state)}
    turn_of: dict[int, int] = {}
    for event in record.events:
        turn_of[event.seq] = state.turn
        rs.apply(state, event)
        at_end[turn_of[event.seq]] = rs.copy_state(state)
    last = max(at_end)
    outcome = rs.outcome(state)
    assert outcome is not None
    by_turn: dict[int, list[float]] = {}
    for turn, seat, chance, _change in rows:
        by_turn.setdefault(turn, [0.0] * players)[seat] = chance
    assert sorted(by_turn) == sorted(at_end)
    for turn, chances in by_turn.items():
        if turn == last:
            share = 1 / len(outcome.winners)
            assert chances == [share if s in outcome.winners else 0.0 for s in range(players)]
            continue
        expected = model.chances(winmodel.features_of(slug, at_end[turn], players))
        assert np.allclose(chances, expected, atol=1e-9), f"turn {turn}"
        assert math.isclose(sum(chances), 1.0)
    assert events
    for seq, seat, _type, change in events:
        t = turn_of[seq]
        if t > 0:
            assert math.isclose(change, by_turn[t][seat] - by_turn[t - 1][seat], abs_tol=1e-9)


def test_the_tables_agree_with_the_model_worked_out_here(planted: Path) -> None:
    _agree(planted, "planted-bunnies", 2)


@pytest.fixture(scope="module")
def three_seats(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of 64 games of KinderBunnies at three seats with its model kept."""
    db = tmp_path_factory.mktemp("three") / "warren.db"
    code, _, err = run("simulate", "kinderbunnies", "--games", "64", "--players", "3", "--seed", "5",
                       "--into-store", "--db", str(db))
    assert code == 0, err
    code, _, err = run("model", "fit", "--ruleset", "kinderbunnies", "--players", "3", "--check", "0",
                       "--db", str(db))
    assert code == 0, err
    return db


def test_with_three_seats_too(three_seats: Path) -> None:
    """Each turn is worked out as one row with every seat's figures side by side: with more
    than two seats, the best of the others is the greatest of several."""
    _agree(three_seats, "kinderbunnies", 3)


@pytest.mark.parametrize("by", ["card", "kind"])
def test_the_command_on_spark_gives_the_same_figures(three_seats: Path, spark: Any, by: str) -> None:
    """``warren model wpa --spark`` works out on Spark the tables the figures read (the turn
    chances for a card; the events' changes too for a kind): the same figures, byte for
    byte, as here. (In a process of its own: this one's Spark is the tests'.)"""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]

    def said(*more: str) -> bytes:
        done = subprocess.run([sys.executable, "-m", "logstore.cli", "model", "wpa", "--by", by, "--json",
                               "--db", str(three_seats), *more], capture_output=True, cwd=root, timeout=600)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout

    here = said()
    assert json.loads(here)[0]["rows"]
    assert said("--spark", "local[2]") == here


def test_a_seat_and_a_kind_are_shown(planted: Path) -> None:
    seats = _impacts(planted, "seat")
    assert [s.key for s in seats] == ["0", "1"]
    assert sum(s.points or 0 for s in seats) == pytest.approx(100, abs=0.1)
    kinds = _impacts(planted, "kind")
    assert {k.key for k in kinds} >= {"lay", "draw"}
    players = _impacts(planted, "player")
    with Store(planted) as store:
        names = {name for g in store.games() for name in g.players}
    con, _ = connect(planted, jobs=1)
    try:
        acted = con.execute("SELECT count(DISTINCT game_id || ':' || CAST(seat AS VARCHAR)) FROM event_wpa "
                            "WHERE change IS NOT NULL").fetchone()
    finally:
        con.close()
    assert acted is not None and 300 <= acted[0] <= 2 * 160  # a seat may not act before a first seven
    assert {p.key for p in players} <= names and sum(p.plays for p in players) == acted[0]


def test_the_command_prints_and_says_json(planted: Path) -> None:
    code, out, err = run("model", "wpa", "--ruleset", "planted-bunnies", "--top", "3", "--db", str(planted))
    assert code == 0, err
    assert "7 (lay): added +" in out.splitlines()[1]
    code, out, err = run("model", "wpa", "--by", "seat", "--json", "--db", str(planted))
    assert code == 0, err
    found = json.loads(out)
    assert found[0]["ruleset"] == "planted-bunnies" and len(found[0]["rows"]) == 2


def test_without_a_model_it_says_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    code, _, err = run("simulate", "bunnies", "--games", "2", "--seed", "1", "--into-store", "--db", str(db))
    assert code == 0, err
    code, _, err = run("model", "wpa", "--db", str(db))
    assert code != 0 and "warren model fit" in err and "Traceback" not in err


def test_spark_gives_the_same_rows(planted: Path, spark: Any, tmp_path: Path) -> None:
    from logstore.analytics.spark import WPA_SOURCES, wpa_from_export
    from logstore.analytics.views import export_parquet

    export_parquet(planted, tmp_path / "export", tables=WPA_SOURCES)
    with Store(planted) as store:
        models = winmodel.kept(store.conn)
    on_spark = wpa_from_export(spark, str(tmp_path / "export"), str(tmp_path / "wpa"), models)
    con, _ = connect(planted, jobs=1)
    try:
        wpa.create_views(con, models)
        for name, keys in (("turn_chances", "game_id, turn, seat"), ("event_wpa", "game_id, seq"),
                           ("player_wpa", "ruleset, player, n_players")):
            here = con.execute(f"SELECT * FROM {name} ORDER BY {keys}").fetchall()
            con.register("spark_rows", on_spark[name])
            there = con.execute(f"SELECT * FROM spark_rows ORDER BY {keys}").fetchall()
            columns = [d[0] for d in con.execute(f"SELECT * FROM {name} LIMIT 0").description]
            assert len(here) == len(there) > (1 if name == "player_wpa" else 100)
            for a, b in zip(here, there, strict=True):
                for column, x, y in zip(columns, a, b, strict=True):
                    if isinstance(x, float) and isinstance(y, float):
                        assert math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12), (name, column, a, b)
                    else:
                        assert x == y, (name, column, a, b)
    finally:
        con.close()


def test_the_tables_are_exported_beside_the_projections(planted: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from logstore.analytics.views import export_parquet

    written = export_parquet(planted, tmp_path / "out")
    assert written["turn_chances"] > 100 and written["event_wpa"] > 100 and written["player_wpa"] >= 2
    con, _ = connect(planted, jobs=1)
    try:
        for name in wpa.WPA_TABLES:
            whole = pq.read_table(tmp_path / "out" / name)  # the folder as one table, as readers read it
            count = con.execute(f"SELECT count(*) FROM {name}").fetchone()
            assert count is not None and whole.num_rows == written[name] == count[0]
            assert "ruleset" in whole.column_names
    finally:
        con.close()


def test_one_table_is_exported_alone_and_without_a_model_it_says_what_to_do(planted: Path,
                                                                             tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from logstore.analytics.views import AnalyticsError, export_parquet

    written = export_parquet(planted, tmp_path / "out", tables=("event_wpa",))
    assert list(written) == ["event_wpa"] and written["event_wpa"] > 100
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["event_wpa"]
    assert pq.read_table(tmp_path / "out" / "event_wpa").num_rows == written["event_wpa"]
    code, _, err = run("simulate", "bunnies", "--games", "2", "--seed", "1", "--into-store", "--db",
                       str(tmp_path / "bare.db"))
    assert code == 0, err
    with pytest.raises(AnalyticsError, match="warren model fit"):
        export_parquet(tmp_path / "bare.db", tmp_path / "bare", tables=("turn_chances",))
    code, _, err = run("export-parquet", str(tmp_path / "x"), "--table", "chances", "--db", str(planted))
    assert code != 0 and "turn_chances" in err and "Traceback" not in err
