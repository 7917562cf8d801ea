"""Odyssey's canned statistics (logstore/analytics/stats_sql/killer-bunnies-odyssey/) answer on a
small simulated corpus and agree with what the engine derived."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.registry import get_ruleset
from logstore.analytics.stats import run_stat, stats_for
from logstore.analytics.views import connect
from logstore.store import Store
from tests.logstore.analytics_corpus import fill

SLUG = "killer-bunnies-odyssey"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("odyssey-stats") / "warren.db"
    fill(path, SLUG, games=6, players=2)
    fill(path, SLUG, games=3, players=3, start=6)
    return path


@pytest.fixture(scope="module")
def results(db: Path) -> dict[str, list[dict]]:
    con, catalog = connect(db)
    try:
        return {s.name: run_stat(con, s).table.to_pylist()
                for s in stats_for(catalog.rulesets) if s.ruleset == SLUG}
    finally:
        con.close()


def _effects(db: Path) -> tuple[Counter[str], list[tuple[int, str | None, bool]]]:
    rs = get_ruleset(SLUG)
    kills: Counter[str] = Counter()
    seats = []
    with Store(db) as store:
        for row in store.games():
            record = store.record(row.game_id)
            state = rs.setup(record.header)
            saved: Counter[tuple[int, str]] = Counter()
            for event in record.events:
                for e in rs.apply(state, event):
                    if e.kind in ("killed", "starved", "destroyed"):
                        kills[e.data["weapon"]] += 1
                    if e.kind == "saved" and e.data.get("colour"):
                        saved[(e.data["seat"], e.data["colour"])] += 1
            outcome = rs.outcome(state)
            if outcome is None:
                continue
            for seat in range(len(record.header.players)):
                mine = sorted(((n, c) for (s, c), n in saved.items() if s == seat),
                              key=lambda x: (-x[0], x[1]))
                if mine:
                    seats.append((seat, mine[0][1], seat in outcome.winners))
    return kills, seats


def test_every_odyssey_stat_answers(results: dict[str, list[dict]]) -> None:
    assert set(results) == {f"{SLUG}/{n}" for n in ("civ_over_rounds", "burn_rate", "kills_by_weapon",
                                                     "resource_colours")}
    for name, rows in results.items():
        assert rows, f"{name} gave no rows"


def test_the_reports_agree_with_the_engine(db: Path, results: dict[str, list[dict]]) -> None:
    kills, seats = _effects(db)
    assert {r["weapon"]: r["kills"] for r in results[f"{SLUG}/kills_by_weapon"]} == dict(kills)
    colours = results[f"{SLUG}/resource_colours"]
    assert sum(r["players"] for r in colours) == len(seats)
    assert sum(r["wins"] for r in colours) == sum(1 for _, _, won in seats if won)
    for row in results[f"{SLUG}/civ_over_rounds"]:
        assert row["best_total"] >= row["avg_total"] >= 1
    rates = results[f"{SLUG}/burn_rate"]
    assert all(0 <= r["burn_rate"] <= 1 and r["burned"] <= r["flipped"] for r in rates)
