"""`warren stats`: the canned SQL reports, checked against what the engine itself says."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from engine.registry import get_ruleset
from engine.replay import Replay
from logstore.analytics.stats import all_stats, run_stat, stats_for
from logstore.analytics.views import connect
from logstore.cli import main
from logstore.store import Store
from tests.logstore.analytics_corpus import fill

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("stats") / "warren.db"
    fill(path, games=10)
    return path


@pytest.fixture(scope="module")
def results(db: Path) -> dict[str, list[dict]]:
    con, catalog = connect(db)
    try:
        return {s.name: run_stat(con, s).table.to_pylist() for s in stats_for(catalog.rulesets)}
    finally:
        con.close()


@pytest.fixture(scope="module")
def replayed(db: Path) -> list[tuple]:
    """(record, effects per event, outcome) for every stored game, straight from the engine."""
    rs = get_ruleset("bunnies")
    out = []
    with Store(db) as store:
        for row in store.games():
            record = store.record(row.game_id)
            state = rs.setup(record.header)
            effects = [e for ev in record.events for e in rs.apply(state, ev)]
            out.append((record, effects, rs.outcome(state)))
    return out


def test_every_stat_file_documents_itself() -> None:
    names = [s.name for s in all_stats()]
    assert len(names) == len(set(names))
    for stat in all_stats():
        assert stat.title and stat.title[0].isupper(), stat.path
        assert len(stat.description.splitlines()) >= 2, f"{stat.path} needs a description"
        assert stat.sql.rstrip().endswith(tuple("abcdefghijklmnopqrstuvwxyz)0123456789")), stat.path
    assert {s.ruleset for s in all_stats()} >= {None, "bunnies"}


def test_every_stat_answers_on_a_simulated_corpus(results: dict[str, list[dict]]) -> None:
    assert set(results) == {s.name for s in stats_for(["bunnies"])}
    for name, rows in results.items():
        assert rows, f"{name} gave no rows"


def test_win_rate_by_seat_counts_the_engines_winners(results: dict, replayed: list) -> None:
    wins: Counter[int] = Counter()
    for record, _effects, outcome in replayed:
        order = []
        for event in record.events:
            if event.actor is not None and event.actor not in order:
                order.append(event.actor)
        for position, seat in enumerate(order, start=1):
            wins[position] += seat in outcome.winners
    rows = results["win_rate_by_seat"]
    assert [(r["play_order"], r["games"], r["wins"]) for r in rows] == [
        (1, 10, wins[1]), (2, 10, wins[2])]
    for r in rows:
        assert r["ci_low"] <= r["win_rate"] <= r["ci_high"]
        assert r["ci_low"] >= 0 and r["ci_high"] <= 1
        assert r["fair_share"] == 0.5


def test_game_length_matches_the_records(results: dict, replayed: list) -> None:
    lengths = sorted(len(record.events) for record, _, _ in replayed)
    (row,) = results["game_length"]
    assert (row["games"], row["events_min"], row["events_max"]) == (10, lengths[0], lengths[-1])
    assert row["events_mean"] == round(sum(lengths) / 10, 2)
    assert row["events_min"] <= row["events_q1"] <= row["events_median"] <= row["events_q3"]
    assert sum(r["games"] for r in results["game_length_histogram"]) == 10
    assert results["game_length_histogram"][-1]["cumulative_share"] == 1.0


def test_rule_effects_count_what_apply_returned(results: dict, replayed: list) -> None:
    fired = Counter((e.rule, e.kind) for _, effects, _ in replayed for e in effects)
    got = {(r["rule"], r["kind"]): r["effects"] for r in results["rule_effects"]}
    assert got == dict(fired)


def test_bunnies_reports_agree_with_the_effects(results: dict, replayed: list) -> None:
    kinds = Counter(e.data["kind"] for _, effects, _ in replayed for e in effects if e.kind == "bunny_scored")
    assert {r["bunny_kind"]: r["bunnies"] for r in results["bunnies/bunnies_by_kind"]} == dict(kinds)
    bonuses = Counter(e.data["bonus"] for _, effects, _ in replayed for e in effects if e.kind == "scored")
    assert {r["bonus"]: r["games"] for r in results["bunnies/going_out_bonus"]} == dict(bonuses)
    assert all(r["bonus"] >= 4 for r in results["bunnies/going_out_bonus"])
    pickups = sum(1 for _, effects, _ in replayed for e in effects if e.kind == "pile_picked_up")
    rows = results["bunnies/pile_pickups"]
    assert round(sum(r["pickups_per_game"] * r["seats"] for r in rows)) == pickups


def test_rank_impact_is_the_mean_cards_of_a_rank_winners_and_losers_laid(results: dict,
                                                                          replayed: list) -> None:
    from engine.bunnies.events import Lay

    laid: dict[tuple[bool, str], list[int]] = {}
    for record, _effects, outcome in replayed:
        for seat in range(2):
            won = seat in outcome.winners
            for rank in "23456789TJQKA":
                n = sum(1 for e in record.events if isinstance(e, Lay) and e.actor == seat
                        for c in e.cards if c[0] == rank)
                laid.setdefault((won, rank), []).append(n)
    for row in results["bunnies/rank_impact"]:
        won, lost = laid[(True, row["rank"])], laid[(False, row["rank"])]
        assert row["seats_won"] == len(won) and row["seats_lost"] == len(lost)
        assert row["difference"] == pytest.approx(sum(won) / len(won) - sum(lost) / len(lost), abs=2e-3)


def test_impact_reports_split_every_seat_in_two(results: dict) -> None:
    # every seat stands on every rank: no rank is too small to draw
    assert [r["rank"] for r in results["bunnies/rank_impact"]] == list("23456789TJQKA")
    for row in results["bunnies/rank_impact"]:
        assert row["seats_won"] + row["seats_lost"] == 20
        assert row["ci_low"] <= row["difference"] <= row["ci_high"]
    for row in results["card_impact"]:
        assert row["seats_with"] + row["seats_without"] == 20
    # Card impact is about cards: places (blind-card slots) and other names are left out.
    assert results["card_impact"] and {r["use"] for r in results["card_impact"]} <= {"lay", "steal"}
    assert all(len(r["value"]) == 2 and r["value"] not in ("left", "top") for r in results["card_impact"])


def test_the_terminal_names_the_cards_a_report_is_about(db: Path, results: dict) -> None:
    """Card impact printed "TH" and "41": its rows now say the card as the game names it
    (``--format csv`` keeps the rows as the SQL gives them)."""
    table = CliRunner().invoke(main, ["stats", "--db", str(db), "--only", "card_impact"],
                               env={"COLUMNS": "220"})
    assert table.exit_code == 0, table.output
    assert "┃ card " in table.output
    faces = {get_ruleset("bunnies").card_text(r["value"]) for r in results["card_impact"]}
    assert any(face in table.output for face in faces) and any(s in table.output for s in "♣♦♥♠")
    plain = CliRunner().invoke(main, ["stats", "--db", str(db), "--only", "card_impact", "--format", "csv"])
    header = plain.output.splitlines()[0].replace('"', "").split(",")
    assert "value" in header and "card" not in header


def test_the_cli_prints_every_report(db: Path) -> None:
    result = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert result.exit_code == 0, result.output
    for stat in stats_for(["bunnies"]):
        assert stat.name in result.output


def test_the_cli_lists_filters_and_refuses(db: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["stats", "--list"])
    assert listed.exit_code == 0 and "bunnies/rank_impact" in listed.output
    one = runner.invoke(main, ["stats", "--db", str(db), "--only", "win_rate_by_seat", "-f", "json"])
    assert one.exit_code == 0, one.output
    rows = [json.loads(line) for line in one.output.splitlines()]
    assert {r["stat"] for r in rows} == {"win_rate_by_seat"} and len(rows) == 2
    unknown = runner.invoke(main, ["stats", "--db", str(db), "--only", "nope"])
    assert unknown.exit_code == 2 and "no stat 'nope'" in unknown.output
    bad = runner.invoke(main, ["stats", "--db", str(db), "--ruleset", "chess"])
    assert bad.exit_code == 2 and "unknown ruleset" in bad.output
    missing = runner.invoke(main, ["stats", "--db", str(db.parent / "none.db")])
    assert missing.exit_code == 2 and "no warren store" in missing.output


def test_an_empty_store_gives_empty_reports(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    Store(db).close()
    con, _ = connect(db)
    try:
        for stat in all_stats():
            assert run_stat(con, stat).table.num_rows in (0, 1), stat.name  # 1: a total over nothing
    finally:
        con.close()


def test_the_shipped_fixtures_give_reports(tmp_path: Path) -> None:
    files = sorted(FIXTURES.rglob("*.jsonl"))
    if not files:
        pytest.skip("no fixtures in this checkout")
    db = tmp_path / "fixtures.db"
    with Store(db) as store:
        store.import_paths(files)
        rulesets = {g.ruleset for g in store.games()}
    result = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert result.exit_code == 0, result.output
    for stat in stats_for(sorted(rulesets)):
        assert stat.name in result.output
    for slug in rulesets:
        assert slug in result.output


def test_a_ruleset_filter_keeps_only_its_games(tmp_path: Path) -> None:
    from engine.registry import known_slugs

    if "trust-no-bunny" not in known_slugs():
        pytest.skip("trust-no-bunny is not registered")
    db = tmp_path / "two.db"
    fill(db, games=2)
    fill(db, "trust-no-bunny", games=2, players=5)
    con, _ = connect(db, ruleset="bunnies")
    try:
        assert con.execute("SELECT DISTINCT ruleset FROM games").fetchall() == [("bunnies",)]
    finally:
        con.close()
    con, catalog = connect(db)
    try:
        assert catalog.rulesets == ["bunnies", "trust-no-bunny"]
        rows = run_stat(con, next(s for s in all_stats() if s.name == "player_count")).table.to_pylist()
        assert [(r["ruleset"], r["n_players"], r["games"]) for r in rows] == [
            ("bunnies", 2, 2), ("trust-no-bunny", 5, 2)]
    finally:
        con.close()
    # Replay agrees on the TNB winners the projection recorded
    rs = get_ruleset("trust-no-bunny")
    with Store(db) as store:
        for row in store.games("trust-no-bunny"):
            record = store.record(row.game_id)
            outcome = rs.outcome(Replay(rs, record.header, record.events).final)
            assert (outcome.winners if outcome else None) == row.winners


def _a_steal_the_table_did_not_see() -> bytes:
    """A finished Bunnies game as the table saw it, with a steal of a card it never saw."""
    from engine.record import event_to_dict, header_to_dict, seal
    from engine.redact import redact_game
    from engine.simulate import simulate_one

    rs = get_ruleset("bunnies")
    for i in range(50):
        game = simulate_one(rs, 11, i)
        header, events = redact_game(rs, game.header, game.events, "spectator")
        header = msgspec.structs.replace(header, game_id=f"table-{i}")
        if any(e.__struct_config__.tag == "steal" for e in events) and rs.outcome(
                Replay(rs, header, events).final) is not None:
            return b"".join(seal(header_to_dict(header), [event_to_dict(e) for e in events]))
    raise AssertionError("no simulated game with a steal")


def test_stats_say_how_many_games_were_partly_unknown(tmp_path: Path) -> None:
    from logstore.analytics.projections import refresh

    path = tmp_path / "warren.db"
    fill(path, games=2)
    with Store(path) as store:
        store.import_paths([FIXTURES / "bunnies" / "recorded-at-the-table.jsonl",
                            FIXTURES / "bunnies" / "recorded-with-a-correction.jsonl"])
        store.import_bytes(_a_steal_the_table_did_not_see(), "table.jsonl")
        refresh(store)
    con, _ = connect(path)
    try:
        stat = next(s for s in all_stats() if s.name == "recorded_games")
        rows = {r["source"]: r for r in run_stat(con, stat).table.to_pylist()}
        impact = next(s for s in all_stats() if s.name == "card_impact")
        values = {r["value"] for r in run_stat(con, impact).table.to_pylist()}
        unseen = con.execute("SELECT count(*) FROM seat_items WHERE value = '?'").fetchone()
    finally:
        con.close()
    # A card nobody saw is no card to rate ("steal card ?" is not a row).
    assert "?" not in values and values
    assert unseen is not None and unseen[0] > 0  # there was one to leave out
    # Both deal cards nobody saw; only one has a check that needed one. A hidden deal makes
    # a game partly unknown whether or not a later check asked for it.
    assert rows["recorded"]["games"] == 3 and rows["recorded"]["partly_unknown"] == 3
    assert rows["recorded"]["undetermined_checks"] >= 1
    assert rows["recorded"]["unknown_values"] > 2
    assert rows["simulated"]["partly_unknown"] == 0 and rows["simulated"]["unknown_values"] == 0


def test_the_stats_lead_with_the_questions_players_ask() -> None:
    """`warren stats` printed its reports alphabetically, card impact first."""
    from logstore.analytics.stats import LEADING

    names = [s.name for s in all_stats()]
    assert names[:len(LEADING)] == list(LEADING)
    assert names[0] == "win_rate_by_seat" and names.index("card_impact") < names.index("rule_effects")
    own = [i for i, s in enumerate(all_stats()) if s.ruleset is not None]
    assert own and min(own) == len(LEADING)  # then each game's own reports
