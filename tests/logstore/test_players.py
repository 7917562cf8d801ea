"""Players across games: the league of fixtures/league gives the figures and ratings this
test computes itself, from the records and through openskill's own functions."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from engine.reader import read_record
from engine.record import RecordError, player_key
from engine.registry import get_ruleset
from engine.replay import Replay
from logstore.cli import main
from logstore.players.book import Book, PlayerError, merge, rename
from logstore.players.figures import league
from logstore.store import Store

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = ROOT / "fixtures" / "league"


def _games() -> list[dict[str, Any]]:
    """Each league game as the test reads it: players by name (as the store should link
    them: spacing and case aside), winners from a replay, sides for Trust No Bunny."""
    out = []
    for path in sorted(LEAGUE.glob("*.jsonl")):
        record = read_record(path.read_bytes(), str(path))
        rs = get_ruleset(record.header.ruleset)
        final = Replay(rs, record.header, record.events).final
        outcome = rs.outcome(final)
        assert outcome is not None
        names = [" ".join(p.name.split()) for p in record.header.players]
        sides = None
        if rs.slug == "trust-no-bunny":
            sides = ["Werebunny" if s in final.werebunnies else "Townsfolk" for s in range(len(names))]
        out.append({"game_id": record.header.game_id, "ruleset": rs.slug, "created": record.header.created,
                    "names": names, "winners": set(outcome.winners), "sides": sides})
    return sorted(out, key=lambda g: (g["created"], g["game_id"]))


def _same(name: str) -> str:
    """The player a league name is (the first spelling the league uses for it)."""
    return {"ann": "Ann", "cy": "Cy"}.get(player_key(name), name)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "league.db"
    with Store(path) as store:
        store.import_paths([LEAGUE])
    return path


def _league(db: Path, bots: bool = False) -> Any:
    from logstore.analytics.views import connect

    con, _ = connect(db)
    try:
        with Store(db) as store:
            return league(store, con, bots=bots)
    finally:
        con.close()


def test_figures_are_those_counted_from_the_records(db: Path) -> None:
    games = _games()
    found = _league(db)
    wins: Counter[tuple[str, str]] = Counter()
    played: Counter[tuple[str, str]] = Counter()
    seat_wins: Counter[tuple[str, str, int]] = Counter()
    together: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for g in games:
        players = [_same(n) for n in g["names"]]
        for seat, p in enumerate(players):
            played[(p, g["ruleset"])] += 1
            wins[(p, g["ruleset"])] += seat in g["winners"]
            seat_wins[(p, g["ruleset"], seat)] += seat in g["winners"]
            for other_seat, q in enumerate(players):
                if q != p:
                    h = together[(p, q)]
                    h[0] += 1
                    a, b = seat in g["winners"], other_seat in g["winners"]
                    h[1 if a and not b else 2 if b and not a else 3] += 1
    assert set(found.figures) == {p for p, _ in played}
    assert found.figures["Ann"].aliases == ["ann"] and found.figures["Cy"].aliases == []
    assert found.book.find("Cy ") == "Cy"  # a trailing space names the same player
    for (p, ruleset), n in played.items():
        rate = found.figures[p].by_ruleset[ruleset]
        assert (rate.n, rate.wins) == (n, wins[(p, ruleset)]), (p, ruleset)
        low, high = rate.interval or (0, 1)
        assert low <= rate.wins / rate.n <= high
    for (p, ruleset, seat), w in seat_wins.items():
        assert found.figures[p].by_seat[ruleset][seat].wins == w
    for (p, q), (n, ahead, behind, level) in together.items():
        h = found.figures[p].head_to_head[q]
        # Bunnies keeps score: two losers of a scored game are not level (the test counts them level).
        assert h.games == n and h.ahead >= ahead - level and h.behind >= behind - level
        assert h.ahead + h.behind + h.level == n
    # Bob is Bo written another way, not merged yet: another player.
    assert "Bob" in found.figures and found.figures["Bob"].overall.n == 3


def test_trust_no_bunny_counts_each_side(db: Path) -> None:
    found = _league(db)
    as_werebunny: Counter[str] = Counter()
    won_as_townsfolk: Counter[str] = Counter()
    for g in _games():
        if g["sides"] is None:
            continue
        for seat, name in enumerate(g["names"]):
            if g["sides"][seat] == "Werebunny":
                as_werebunny[_same(name)] += 1
            elif seat in g["winners"]:
                won_as_townsfolk[_same(name)] += 1
    for player, fig in found.figures.items():
        own = fig.own.get("trust-no-bunny", {})
        assert own.get("games as Werebunny", 0) == as_werebunny[player]
        assert own.get("wins as Townsfolk", 0) == won_as_townsfolk[player]


def test_ratings_are_openskills_own_game_by_game(db: Path) -> None:
    model = PlackettLuce(mu=25.0, sigma=25 / 3, beta=25 / 6, tau=25 / 300)
    expected: dict[str, dict[str, Any]] = defaultdict(dict)
    for g in _games():
        table = expected[g["ruleset"]]
        players = [_same(n) for n in g["names"]]
        if g["sides"] is not None:
            # Each side's winners and losers (a Townsfolk whose Quirk failed loses though the
            # town survives): mostly two teams, Werebunnies and Townsfolk.
            groups = sorted({(side, seat in g["winners"]) for seat, side in enumerate(g["sides"])})
            teams = [[p for seat, p in enumerate(players) if (g["sides"][seat], seat in g["winners"]) == grp]
                     for grp in groups]
            ranks = [1.0 if won else 2.0 for _, won in groups]
        else:
            teams = [[p] for p in players]
            ranks = [1.0 if seat in g["winners"] else 2.0 for seat in range(len(players))]
        rated = model.rate([[table.get(p) or model.rating() for p in team] for team in teams], ranks=ranks)
        for team, new in zip(teams, rated, strict=True):
            for p, r in zip(team, new, strict=True):
                table[p] = r
    found = _league(db)
    for ruleset, table in expected.items():
        assert set(found.ratings[ruleset]) == set(table)
        for p, r in table.items():
            mine = found.ratings[ruleset][p]
            assert mine.mu == pytest.approx(r.mu, abs=1e-9) and mine.sigma == pytest.approx(r.sigma, abs=1e-9)
    # The projection table carries the same ratings.
    from logstore.analytics.views import connect

    con, _ = connect(db)
    try:
        rows = con.execute("SELECT ruleset, player, mu FROM players WHERE NOT bot").fetchall()
    finally:
        con.close()
    assert {(r, p): pytest.approx(m) for r, p, m in rows} == {
        (r, p): pytest.approx(v.mu) for r, t in expected.items() for p, v in t.items()}


def test_a_merge_and_a_rename_are_events_of_the_store_and_change_no_record(db: Path) -> None:
    with Store(db) as store:
        before = {g.game_id: store.export(g.game_id) for g in store.games()}
        assert merge(store, "Bob", "bo") == ("Bob", "Bo")
        assert rename(store, "cy", "Cyrus") == ("Cy", "Cyrus")
        book = Book(store)
        assert book.find("Bob") == "Bo" and book.find("Cy ") == "Cyrus" and book.find("cyrus") == "Cyrus"
        assert {g.game_id: store.export(g.game_id) for g in store.games()} == before
        with pytest.raises(PlayerError, match="already the same player"):
            merge(store, "Bo", "Bob")
        with pytest.raises(PlayerError, match="already the name of another player"):
            rename(store, "Ann", "Bo")
        with pytest.raises(PlayerError, match="no player 'Anne': did you mean Ann"):
            book.find("Anne")
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM player_changes")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE player_changes SET target = 'x'")
    conn.close()
    found = _league(db)
    assert "Bob" not in found.figures and found.figures["Bo"].overall.n == 10
    assert "Bob" in found.figures["Bo"].aliases
    # The projections follow: the players table has Cyrus, not Cy.
    from logstore.analytics.views import connect

    con, _ = connect(db)
    try:
        names = {p for (p,) in con.execute("SELECT DISTINCT player FROM player_seats").fetchall()}
    finally:
        con.close()
    assert "Cyrus" in names and "Cy" not in names and "Bob" not in names


def test_bots_are_left_out_unless_asked(db: Path) -> None:
    from engine.simulate import simulate_one

    rs = get_ruleset("bunnies")
    with Store(db) as store:
        store.import_bytes(b"".join(simulate_one(rs, 5, 0).lines()), "bots.jsonl")
    people = _league(db)
    assert not any("bot" in p for p in people.figures)
    everyone = _league(db, bots=True)
    assert any("bot" in p for p in everyone.figures)


def test_a_header_that_names_a_player_twice_is_refused() -> None:
    path = sorted(LEAGUE.glob("*bunnies.jsonl"))[0]
    lines = path.read_bytes().splitlines(keepends=True)
    head = json.loads(lines[0])
    head["players"][1]["name"] = " ann"
    head.pop("hash")
    with pytest.raises(RecordError, match=r"' ann' is named twice \(seats 0 and 1\)"):
        read_record(json.dumps(head).encode() + b"\n", "twice.jsonl")


def test_the_cli_lists_shows_merges_renames_and_predicts(db: Path) -> None:
    runner = CliRunner()

    def run(*args: str) -> Any:
        result = runner.invoke(main, [*args, "--db", str(db)])
        assert "Traceback" not in result.output
        return result

    listed = run("players")
    assert listed.exit_code == 0 and "Ann" in listed.output and "also written 'ann'" in listed.output
    shown = run("players", "show", "ANN")
    assert shown.exit_code == 0 and "head to head" in shown.output and "against Bo:" in shown.output
    assert "seat 0" not in shown.output
    data = json.loads(run("players", "show", "Ann", "--json").stdout)
    assert data["player"] == "Ann" and "bunnies" in data["ratings"]
    wrong = run("players", "show", "Anne")
    assert wrong.exit_code == 2 and "did you mean Ann" in wrong.output
    assert run("players", "merge", "Bo", "Bo").exit_code == 2
    merged = run("players", "merge", "Bob", "Bo")
    assert merged.exit_code == 0 and "one player" in merged.output
    assert run("players", "rename", "Dee", "Deirdre").exit_code == 0
    table = json.loads(run("ratings", "--ruleset", "trust-no-bunny", "--json").stdout)
    assert "Deirdre" in {r["player"] for r in table["ratings"]} and "Weng-Lin" in table["model"]
    odds = json.loads(run("ratings", "-r", "bunnies", "--predict", "Ann,Cy", "--json").stdout)["chances"]
    assert set(odds) == {"Ann", "Cy"} and sum(odds.values()) == pytest.approx(1)
    model = PlackettLuce()
    assert model.predict_win([[model.rating()], [model.rating()]]) == [0.5, 0.5]
    twice = run("ratings", "-r", "bunnies", "--predict", "Ann,ann")
    assert twice.exit_code == 2 and "named twice" in twice.output
