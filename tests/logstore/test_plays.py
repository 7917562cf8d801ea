"""Plays travel to and from a play logger: the people's games as a BG Stats export and as
BoardGameGeek play XML, and a BG Stats export read back as results-only plays that count in
the players' figures and ratings, each once (logstore.players.plays)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.record import event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store.event_store import Store

EXPORT = Path(__file__).resolve().parents[2] / "fixtures" / "plays" / "bgstats-export.json"
TABLES = [["Ann", "Bo"], ["Bo", "Cy"], ["Ann", "Cy"]]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def recorded(store: Store, slug: str, seed: int, i: int, names: list[str]) -> None:
    game = simulate_one(get_ruleset(slug), seed, i, players=len(names))
    head = header_to_dict(game.header)
    head["source"] = "recorded"
    head["players"] = [{"seat": s, "name": n} for s, n in enumerate(names)]
    store.import_bytes(b"".join(seal(head, [event_to_dict(e) for e in game.events])), f"{slug}-{i}.jsonl")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("plays") / "warren.db"
    with Store(path) as store:
        for i in range(6):
            recorded(store, "bunnies", 91, i, TABLES[i % 3])
        for i in range(2):
            recorded(store, "trust-no-bunny", 91, i, ["Ann", "Bo", "Cy", "Di", "Ed"])
        for i in range(2):  # bots' games: never a play of people
            bots = simulate_one(get_ruleset("bunnies"), 92, i)
            store.import_bytes(b"".join(bots.lines()), f"bot-{i}.jsonl")
    return path


def ratings(db: Path, ruleset: str) -> Any:
    code, out, err = run("ratings", "--ruleset", ruleset, "--json", "--db", str(db))
    assert code == 0, err
    return json.loads(out)["ratings"]


def test_a_round_trip_gives_the_same_players_wins_and_ratings(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "plays.json"
    code, _, err = run("plays", "export", "--db", str(db), "-o", str(out))
    assert code == 0 and "8 play(s) written" in err
    doc = json.loads(out.read_text())
    assert {g["name"] for g in doc["games"]} == {"Bunnies", "Trust No Bunny"}
    assert sorted(p["name"] for p in doc["players"]) == ["Ann", "Bo", "Cy", "Di", "Ed"]  # no bots
    tnb = next(p for p in doc["plays"] if len(p["playerScores"]) == 5)
    assert {s["role"] for s in tnb["playerScores"]} <= {"Townsfolk", "Werebunny"}
    assert sum(s["startPlayer"] for s in tnb["playerScores"]) == 1
    empty = tmp_path / "empty.db"
    code, said, err = run("plays", "import", str(out), "--db", str(empty))
    assert code == 0 and said.startswith("8 play(s) stored"), err
    for ruleset in ("bunnies", "trust-no-bunny"):
        assert ratings(empty, ruleset) == ratings(db, ruleset)
    code, people, _ = run("players", "--json", "--db", str(empty))
    code, before, _ = run("players", "--json", "--db", str(db))
    strip = [{k: r[k] for k in ("player", "games", "wins")} for r in json.loads(people)]
    assert strip == [{k: r[k] for k in ("player", "games", "wins")} for r in json.loads(before)]
    # Each once: imported twice, or into the store that recorded the games.
    assert run("plays", "import", str(out), "--db", str(empty))[1].startswith("0 play(s) stored, 8 already")
    code, said, _ = run("plays", "import", str(out), "--db", str(db))
    assert "0 play(s) stored, 0 already stored, 8 already recorded" in said
    code, shown, _ = run("players", "show", "Ann", "--db", str(empty))
    assert "results only" in shown


def test_a_play_that_contradicts_a_recorded_game_is_reported(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "plays.json"
    run("plays", "export", "--ruleset", "bunnies", "--db", str(db), "-o", str(out))
    doc = json.loads(out.read_text())
    for score in doc["plays"][0]["playerScores"]:
        score["winner"] = not score["winner"]
    out.write_text(json.dumps(doc))
    code, said, _ = run("plays", "import", str(out), "--db", str(db))
    assert code == 0 and "0 play(s) stored" in said
    assert "contradicted: the play of" in said and "say otherwise: not imported" in said


def test_a_real_shaped_export_imports_with_its_other_games_left_out(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    code, said, err = run("plays", "import", str(EXPORT), "--db", str(db))
    assert code == 0, err
    assert said.startswith("2 play(s) stored") and "left out: 1 play(s) of Azul" in said
    tnb = ratings(db, "trust-no-bunny")
    assert {r["player"] for r in tnb} == {"Ann", "Bo", "Cy", "Di", "Ed"}
    assert min(tnb, key=lambda r: r["mu"])["player"] in ("Bo", "Di")  # the Werebunnies lost
    quest = ratings(db, "killer-bunnies-quest")
    assert max(quest, key=lambda r: r["mu"])["player"] == "Bo"
    xml = run("plays", "export", "--format", "bgg-xml", "--db", str(db))[1]
    plays = ET.fromstring(xml).findall("play")
    assert [p.find("item").get("name") for p in plays] == [  # type: ignore[union-attr]
        "Killer Bunnies and the Quest for the Magic Carrot", "Trust No Bunny"]
    first = plays[0].findall("players/player")
    assert [(p.get("name"), p.get("startposition"), p.get("win")) for p in first] == [
        ("Ann", "1", "0"), ("Bo", "2", "1"), ("Cy", "3", "0")]
    assert plays[0].get("length") == "85"


@pytest.mark.parametrize(("text", "said"), [
    ("{not json", "not JSON"),
    ('{"games": [], "players": []}', "no 'plays'"),
    ('{"games": [{"id": 1, "name": "Trust No Bunny"}], "players": [], "plays": [{"gameRefId": 1, '
     '"playDate": "2026-01-01 20:00:00", "playerScores": []}]}', "a play with no players"),
    ('{"games": [{"id": 1, "name": "Trust No Bunny"}], "players": [{"id": 1, "name": "Ann"}], "plays": '
     '[{"gameRefId": 1, "playDate": "2999-01-01 20:00:00", "playerScores": [{"playerRefId": 1}]}]}',
     "is in the future"),
    ('{"games": [{"id": 1, "name": "Bunnies"}], "players": [{"id": 1, "name": "Ann"}], "plays": '
     '[{"gameRefId": 1, "playDate": "2026-01-01 20:00:00", "playerScores": [{"playerRefId": 1}]}]}',
     "played by 2 to 2 players, not 1"),
    ('{"games": [], "players": [], "plays": [{"gameRefId": 9}]}', "its game (9) is not among"),
])
def test_a_malformed_file_gets_one_line_and_changes_nothing(tmp_path: Path, text: str, said: str) -> None:
    db = tmp_path / "w.db"
    good = json.loads(EXPORT.read_text())
    run("plays", "import", str(EXPORT), "--db", str(db))
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    code, _, err = run("plays", "import", str(bad), "--db", str(db))
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    with Store(db) as store:
        assert store.conn.execute("SELECT count(*) FROM plays").fetchone()[0] == 2
    assert good  # the fixture itself reads


def test_export_options_are_checked(db: Path) -> None:
    code, _, err = run("plays", "export", "--since", "last week", "--db", str(db))
    assert code == 2 and "not a date" in err
    code, out, _ = run("plays", "export", "--since", "2999-01-01", "--db", str(db))
    assert code == 0 and json.loads(out)["plays"] == []
