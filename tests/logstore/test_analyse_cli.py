"""``warren analyse`` and the analyses the store keeps (logstore.store.analyses)."""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.analysis.timeline import Settings
from logstore.cli import main
from logstore.store import Store, analyses

FAST = ("--worlds", "3", "--rollouts", "1")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "warren.db"
    for slug in ("kinderbunnies", "trust-no-bunny"):
        code, _, err = run("simulate", slug, "--games", "2", "--seed", "4", "--into-store", "--db", str(path))
        assert code == 0, err
    return path


def _game(db: Path, ruleset: str = "kinderbunnies") -> str:
    _code, out, _ = run("ls", "--ruleset", ruleset, "--json", "--db", str(db))
    return str(json.loads(out.splitlines()[0])["game_id"])


def _answer(db: Path, *args: str) -> dict[str, Any]:
    code, out, err = run("analyse", *args, *FAST, "--json", "--db", str(db))
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_a_second_look_is_answered_from_the_store_with_the_same_figures(db: Path) -> None:
    game = _game(db)
    first = _answer(db, game, "--as", "1", "--fresh")
    again = _answer(db, game, "--as", "1")
    assert not first.pop("kept") and again.pop("kept")
    assert first == again
    assert first["perspective"] == 1 and first["settings"] == {"worlds": 3, "rollouts": 1, "seed": 0,
                                                                "bot": "greedy"}
    other_seed = _answer(db, game, "--as", "1", "--seed", "9")
    assert not other_seed["kept"]


def test_a_player_is_named_and_the_text_speaks_of_players_not_seats(db: Path) -> None:
    game = _game(db)
    with Store(db) as store:
        names = [p.name for p in store.record(game).header.players]
    by_name = _answer(db, game, "--as", names[0])
    assert by_name["perspective"] == 0
    code, out, _ = run("analyse", game, "--as", names[0], *FAST, "--db", str(db))
    assert code == 0
    assert f"as {names[0]} knew it" in out and "Chance to win" in out
    assert "seat 0" not in out and "seat 1" not in out
    table = _answer(db, game, "--as", "table")
    assert table["perspective"] == "spectator"


def test_the_analysis_is_no_part_of_the_record(db: Path) -> None:
    game = _game(db)
    with Store(db) as store:
        before = store.export(game)
    _answer(db, game, "--fresh")
    with Store(db) as store:
        assert store.export(game) == before
        assert store.verify(game)[0][1] == "sealed"


def test_a_changed_engine_works_the_analysis_out_again(db: Path) -> None:
    game = _game(db)
    _answer(db, game, "--as", "0")
    with Store(db) as store:
        store.conn.execute("UPDATE analyses SET rules = 'an older engine' WHERE game_id = ?", (game,))
        store.conn.commit()
    assert not _answer(db, game, "--as", "0")["kept"]


def test_one_process_or_two_give_the_same_figures(db: Path) -> None:
    game = _game(db)
    with Store(db) as store:
        record = store.record(game)
    question = analyses.Question(0, Settings(worlds=3, rollouts=1, seed=2))
    analyses.PARALLEL_FROM, before = 1, analyses.PARALLEL_FROM
    try:
        alone = analyses.work_out(record, question, jobs=1).to_dict()
        shared = analyses.work_out(record, question, jobs=2).to_dict()
    finally:
        analyses.PARALLEL_FROM = before
    assert alone == shared


def test_an_interrupted_analysis_leaves_nothing_behind(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(db)
    with Store(db) as store:
        record = store.record(game)
        question = analyses.Question("spectator", Settings(worlds=3, rollouts=1, seed=77))

        def stopped(*args: Any, **kwargs: Any) -> Any:
            raise KeyboardInterrupt

        monkeypatch.setattr(analyses, "work_out", stopped)
        with pytest.raises(KeyboardInterrupt):
            analyses.answer(store.conn, record, question)
        assert analyses.cached(store.conn, game, question, analyses.record_digest(record)) is None


def test_all_fills_the_store_and_resumes(db: Path) -> None:
    code, out, err = run("analyse", "--all", "--ruleset", "kinderbunnies", *FAST, "--seed", "5", "--json",
                         "--db", str(db))
    assert code == 0, err
    first = json.loads(out)
    assert first["games"] == 2 and first["analysed"] == 2
    code, out, _ = run("analyse", "--all", "--ruleset", "kinderbunnies", *FAST, "--seed", "5", "--json",
                       "--db", str(db))
    again = json.loads(out)
    assert again["analysed"] == 0 and again["kept_already"] == 2


@pytest.mark.parametrize(("args", "said"), [
    (("--as", "Zed"), "no player of this game is called that"),
    (("--turn", "2", "--at", "3"), "not both"),
    (("--at", "5000"), "no event 5000"),
    (("--bot", "clever"), "the bots are"),
])
def test_bad_input_is_told_in_words(db: Path, args: tuple[str, ...], said: str) -> None:
    code, _out, err = run("analyse", _game(db), *args, *FAST, "--db", str(db))
    assert code == 2 and said in err and "Traceback" not in err


def test_a_trust_no_bunny_game_is_analysed_from_a_seat(db: Path) -> None:
    game = _game(db, "trust-no-bunny")
    code, out, err = run("analyse", game, "--as", "0", *FAST, "--json", "--db", str(db))
    assert code == 0, err
    result = json.loads(out)
    assert result["perspective"] == 0 and len(result["timeline"]) > 2
    assert all(0 <= p <= 100 for row in result["timeline"] for p in row["chances"]["points"])


def test_a_record_file_is_analysed_without_a_store(tmp_path: Path) -> None:
    code, _, err = run("simulate", "kinderbunnies", "--games", "1", "--seed", "8", "--out", str(tmp_path))
    assert code == 0, err
    record = next(tmp_path.glob("*.jsonl"))
    code, out, err = run("analyse", str(record), *FAST, "--turn", "3", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert len(result["timeline"]) == 1 and result["kept"] is False and not result["turning_points"]


def test_dispute_verdict_gives_the_chances_beside_the_verdict(db: Path) -> None:
    game = _game(db)
    found = None
    for at in range(10, 40):
        for seat in (0, 1):
            code, out, _ = run("dispute", "legal", game, "--at", str(at), "--seat", str(seat), "--json",
                               "--db", str(db))
            if code == 0 and json.loads(out)["actions"]:
                found = json.loads(out)["actions"][0]
                break
        if found is not None:
            break
    assert found is not None
    action = found
    seat = action["actor"]
    code, out, err = run("dispute", "verdict", game, "--at", str(at), "--action", json.dumps(action),
                         "--seat", str(seat), "--chances", *FAST, "--json", "--db", str(db))
    assert code == 0, err
    result = json.loads(out)
    assert result["chances"]["before"]["plays"] >= 1 and len(result["chances"]["change"]) == 2


def test_a_player_s_luck_and_decisions_come_from_the_kept_analyses(db: Path) -> None:
    code, _, err = run("analyse", "--all", "--ruleset", "kinderbunnies", *FAST, "--seed", "6",
                       "--db", str(db))
    assert code == 0, err
    with Store(db) as store:
        games = store.games("kinderbunnies")
        name = games[0].players[0]
        seats = [(g.game_id, g.ruleset, g.players.index(name)) for g in games if name in g.players]
        found = analyses.luck_and_decisions(store.conn, seats)["kinderbunnies"]
        # worked out here from the kept analyses themselves (one per game: the most plays)
        luck = []
        for game_id, _ruleset, seat in seats:
            rows = store.conn.execute("SELECT settings, analysis FROM analyses WHERE game_id = ? AND "
                                      "perspective = 'referee' AND at = -1 AND rules = ? "
                                      "ORDER BY created, settings",
                                      (game_id, analyses.rules_fingerprint())).fetchall()

            def plays(row: Any) -> int:
                asked = json.loads(row[0])
                return int(asked["worlds"]) * int(asked["rollouts"])

            most = max(reversed(rows), key=plays)  # the most plays; among equals the latest kept
            luck.append(json.loads(most[1])["totals"][seat]["luck"])
    assert found.games == len(seats) and found.luck == pytest.approx(sum(luck) / len(luck), abs=0.01)
    code, out, _ = run("players", "show", name, "--bots", "--db", str(db))
    assert code == 0 and "luck and decisions" in out and "KinderBunnies" in out
    code, out, _ = run("players", "show", name, "--bots", "--json", "--db", str(db))
    assert json.loads(out)["luck_and_decisions"]["kinderbunnies"]["games"] == len(seats)


def test_what_each_card_did_adds_up_to_the_stretches_that_played_cards(db: Path) -> None:
    """--cards: a stretch's change is shared among the cards it played, so the points summed
    over every card (points x plays) are the changes summed over those stretches."""
    run("analyse", "--all", "--ruleset", "kinderbunnies", *FAST, "--seed", "6", "--db", str(db))
    code, out, err = run("analyse", "--cards", "--ruleset", "kinderbunnies", "--json", "--db", str(db))
    assert code == 0, err
    found = json.loads(out)
    assert found["games"] >= 2 and found["cards"]
    assert all(not re.search(r"\(\d+\)$", c["card"]) for c in found["cards"])  # copies count as one card
    from engine.registry import get_ruleset

    rs = get_ruleset("kinderbunnies")
    expected = 0.0
    with Store(db) as store:
        kept: dict[str, tuple[int, Any]] = {}
        for game_id, settings, text in store.conn.execute(
                "SELECT game_id, settings, analysis FROM analyses WHERE perspective = 'referee' AND at = -1 "
                "AND rules = ? ORDER BY created, settings", (analyses.rules_fingerprint(),)):
            plays = json.loads(settings)["worlds"] * json.loads(settings)["rollouts"]
            if store.game(game_id).ruleset == "kinderbunnies" and plays >= kept.get(game_id, (0, None))[0]:
                kept[game_id] = (plays, json.loads(text))
        for game_id, (_plays, analysis) in kept.items():
            events = store.record(game_id).events
            points = {p["seq"]: p for p in analysis["timeline"]}
            seqs = sorted(points)
            for a, b in pairwise(seqs):
                actor = points[b]["actor"]
                played = [e for e in events[a:b] if e.actor == actor and getattr(e, "card", None) is not None]
                if isinstance(actor, int) and not points[b]["chance"] and played:
                    expected += points[b]["chances"]["points"][actor] - points[a]["chances"]["points"][actor]
    assert rs.is_card_field("card")
    assert sum(c["points"] * c["plays"] for c in found["cards"]) == pytest.approx(expected, abs=0.5)
    code, out, _ = run("analyse", "--cards", "--ruleset", "kinderbunnies", "--db", str(db))
    assert code == 0 and "what each card did" in out and "won" in out
    code, _, err = run("analyse", "--cards", "--db", str(db))
    assert code == 2 and "give --ruleset" in err
