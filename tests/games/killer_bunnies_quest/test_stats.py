"""Killer Bunnies Quest's canned reports, checked against what the engine itself says."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.registry import get_ruleset
from logstore.analytics.stats import run_stat, stats_for
from logstore.analytics.views import connect
from logstore.store import Store
from tests.logstore.analytics_corpus import record_bytes

SLUG = "killer-bunnies-quest"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("quest-stats") / "warren.db"
    with Store(path) as store:
        for i in range(14):
            store.import_bytes(record_bytes(SLUG, 5, i, players=2 + i % 7), f"<sim {i}>")
    return path


@pytest.fixture(scope="module")
def results(db: Path) -> dict[str, list[dict]]:
    con, catalog = connect(db)
    try:
        return {s.name.split("/")[-1]: run_stat(con, s).table.to_pylist()
                for s in stats_for(catalog.rulesets) if s.ruleset == SLUG}
    finally:
        con.close()


@pytest.fixture(scope="module")
def effects(db: Path) -> tuple[list, list]:
    """Every effect of every stored game, and each game's outcome, from the engine."""
    rs = get_ruleset(SLUG)
    out, outcomes = [], []
    with Store(db) as store:
        for row in store.games():
            record = store.record(row.game_id)
            state = rs.setup(record.header)
            out += [e for ev in record.events for e in rs.apply(state, ev)]
            outcomes.append((len(record.header.players), rs.outcome(state)))
    return out, outcomes


def test_every_quest_report_answers(results: dict) -> None:
    assert set(results) == {"kill_rate_by_level", "carrots_and_winning", "market_use",
                            "deaths_by_cause", "triplet_frequency", "seat_advantage"}
    for name, rows in results.items():
        assert rows, name


def test_kill_rates_count_the_weapon_rolls(results: dict, effects: tuple) -> None:
    rolls = [e.data for e in effects[0] if e.kind == "attack_roll"
             and e.data["die"] == "black-d12" and e.data["face"] is not None]
    rows = results["kill_rate_by_level"]
    assert sum(r["rolls"] for r in rows) == len(rolls)
    assert sum(r["kills"] for r in rows) == sum(1 for d in rolls if not d["lives"])
    for r in rows:
        assert r["exact_kill_rate"] == round(r["level"] / 12, 4)
        assert r["exact_survival_rate"] == round((12 - r["level"]) / 12, 4)


def test_deaths_by_cause_count_every_death(results: dict, effects: tuple) -> None:
    died = Counter((e.data["cause"], e.rule) for e in effects[0] if e.kind == "bunny_died")
    rows = results["deaths_by_cause"]
    assert {(r["cause"], r["rule"]): r["deaths"] for r in rows} == dict(died)
    assert {r["cause"] for r in rows} <= {"weapon", "roaming", "hunger", "misfortune", "gamble"}


def test_carrots_and_winning_split_every_seat(results: dict, effects: tuple) -> None:
    outcomes = [o for _, o in effects[1] if o is not None]
    rows = results["carrots_and_winning"]
    assert sum(r["seats"] for r in rows) == sum(len(o.scores) for o in outcomes)
    assert sum(r["wins"] for r in rows) == sum(len(o.winners) for o in outcomes)
    assert all(r["exact_win_rate"] == round(r["carrots"] / 12, 4) for r in rows)


def test_triplets_and_market_agree_with_the_effects(results: dict, effects: tuple) -> None:
    seconds = sum(1 for e in effects[0] if e.kind == "second_card")
    assert sum(r["second_cards"] for r in results["triplet_frequency"]) == seconds
    bought = Counter(e.data["goods"] for e in effects[0] if e.kind == "bought")
    rows = {r["n_players"]: r for r in results["market_use"]}
    carrots = sum(round(r["carrots_bought_per_game"] * r["games"]) for r in rows.values())
    assert carrots == bought["carrot"]


def test_seat_advantage_has_every_position(results: dict) -> None:
    rows = results["seat_advantage"]
    for r in rows:
        assert 1 <= r["play_order"] <= r["n_players"]
        assert r["fair_share"] == round(1 / r["n_players"], 4)
