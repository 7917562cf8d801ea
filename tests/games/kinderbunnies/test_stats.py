"""KinderBunnies' canned statistics (logstore/analytics/stats_sql/kinderbunnies/), checked
against what the engine itself derives from the same games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.kinderbunnies import RULESET
from engine.simulate import simulate_one
from logstore.analytics.stats import run_stat, stats_for
from logstore.analytics.views import connect
from logstore.store import Store

LEVELS = ("beginner", "advanced", "really-advanced")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    path = tmp_path_factory.mktemp("kinder-stats") / "warren.db"
    games = [simulate_one(RULESET, 11 + k, i, players=2 + i % 5, options={"level": level})
             for k, level in enumerate(LEVELS) for i in range(8)]
    with Store(path) as store:
        for game in games:
            store.import_bytes(b"".join(game.lines()), game.header.game_id)
    return path, games


@pytest.fixture(scope="module")
def results(corpus: tuple[Path, list[Any]]) -> dict[str, list[dict[str, Any]]]:
    con, catalog = connect(corpus[0])
    try:
        return {s.name: run_stat(con, s).table.to_pylist()
                for s in stats_for(catalog.rulesets) if s.ruleset == "kinderbunnies"}
    finally:
        con.close()


def _effects(games: list[Any]) -> list[Any]:
    out = []
    for game in games:
        state = RULESET.setup(game.header)
        for event in game.events:
            out.extend(RULESET.apply(state, event))
    return out


def test_the_three_reports_answer(results: dict[str, list[dict[str, Any]]]) -> None:
    assert set(results) == {"kinderbunnies/most_carrots_wins", "kinderbunnies/hazard_survival",
                            "kinderbunnies/bad_news_losses"}
    for name, rows in results.items():
        assert rows, name


def test_hazard_survival_counts_the_engines_rolls(results: dict[str, list[dict[str, Any]]],
                                                  corpus: tuple[Path, list[Any]]) -> None:
    rolled: Counter[int] = Counter()
    saved: Counter[int] = Counter()
    for e in _effects(corpus[1]):
        if e.kind == "hazard_rolled":
            rolled[e.data["number"]] += 1
            saved[e.data["number"]] += e.data["saved"]
    rows = results["kinderbunnies/hazard_survival"]
    assert [r["hazard"] for r in rows] == list(range(1, 11))
    assert {r["hazard"]: (r["rolled"], r["saved"]) for r in rows} == {
        h: (rolled[h], saved[h]) for h in range(1, 11)}
    assert all(r["exact_chance"] == pytest.approx(1 - 0.9 ** 5, abs=1e-5) for r in rows)


def test_bad_news_losses_follow_the_effects(results: dict[str, list[dict[str, Any]]],
                                            corpus: tuple[Path, list[Any]]) -> None:
    fx = _effects(corpus[1])
    drawn = Counter(e.data["card"] for e in fx if e.kind in ("bad_news", "bad_news_harmless"))
    lost = Counter(e.data["card"] for e in fx if e.rule == "KIN-CARD-BAD-NEWS" and e.kind == "bunny_lost")
    rows = results["kinderbunnies/bad_news_losses"]
    assert [r["name"] for r in rows] == ["Aliens", "Bears", "Candy", "Tornado"]
    assert {r["card"]: (r["drawn"], r["bunnies_lost"]) for r in rows} == {
        c: (drawn[c], lost[c]) for c in (97, 98, 99, 100)}


def test_most_carrots_counts_really_advanced_games(results: dict[str, list[dict[str, Any]]],
                                                   corpus: tuple[Path, list[Any]]) -> None:
    ra = [g for g in corpus[1] if g.header.options["level"] == "really-advanced"]
    won_by_most = with_winner = 0
    for game in ra:
        state = RULESET.setup(game.header)
        RULESET.fold(state, game.events)
        if state.winners:
            with_winner += 1
            top = max(len(c) for c in state.carrots)
            won_by_most += len(state.carrots[state.winners[0]]) == top
    rows = results["kinderbunnies/most_carrots_wins"]
    assert [r["n_players"] for r in rows] == [2, 3, 4, 5, 6]
    assert sum(r["games"] for r in rows) == len(ra)
    assert sum(r["games_with_a_winner"] for r in rows) == with_winner
    assert sum(r["won_by_most_carrots"] for r in rows) == won_by_most
