"""The commands speak alike: an unknown ruleset is named the same way everywhere, a position
is ``--to`` or ``--at`` in every command, players are called by name, and events read in
words as on the dashboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.reader import read_record
from engine.registry import get_ruleset
from engine.replay import Replay
from logstore.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("consistency")
    path = folder / "warren.db"
    for slug in ("bunnies", "trust-no-bunny"):
        code, _, err = run("simulate", slug, "--games", "2", "--seed", "7", "--into-store", "--db", str(path))
        assert code == 0, err
    return path


def _game(db: Path, ruleset: str = "bunnies") -> str:
    _code, out, _ = run("ls", "--ruleset", ruleset, "--json", "--db", str(db))
    return str(json.loads(out.splitlines()[0])["game_id"])


def test_an_unknown_ruleset_is_named_with_the_known_ones_in_ls_too(db: Path) -> None:
    for args in (("ls", "--ruleset", "bunny", "--db", str(db)), ("rules", "bunny"),
                 ("simulate", "bunny", "--games", "1", "--into-store", "--db", str(db))):
        code, _, err = run(*args)
        assert code == 2, args
        assert "unknown ruleset 'bunny'" in err and "bunnies" in err, (args, err)


def test_ls_names_the_winners(db: Path) -> None:
    _code, out, _ = run("ls", "--json", "--db", str(db))
    row = json.loads(out.splitlines()[0])
    winners = [row["players"][w] for w in row["winners"]]
    _code, table, _ = run("ls", "--db", str(db))
    line = next(x for x in table.splitlines() if row["game_id"] in x)
    assert all(name in line for name in winners), line


@pytest.mark.parametrize("command", [("replay",), ("suspects",), ("dispute", "legal"),
                                     ("dispute", "verdict")])
def test_to_and_at_mean_the_same_position_everywhere(db: Path, command: tuple[str, ...]) -> None:
    game = _game(db, "trust-no-bunny" if command == ("suspects",) else "bunnies")
    extra = {("dispute", "legal"): ["--seat", "0"], ("dispute", "verdict"): ["--action", "draw"]}
    outs = []
    for flag in ("--to", "--at"):
        code, out, err = run(*command, game, flag, "5", *extra.get(command, []), "--json", "--db", str(db))
        assert code in (0, 1) and "no such option" not in err, err
        outs.append(out)
    assert (outs[0] == outs[1] and '"seq": 5' in outs[0]) or '"at": 5' in outs[0]


def test_replay_says_who_looks_and_what_happened_in_words(db: Path) -> None:
    game = _game(db)
    code, out, _ = run("export", game, "--db", str(db))
    record = read_record(out.encode(), game)
    names = [p.name for p in record.header.players]
    rs = get_ruleset("bunnies")
    replay = Replay(rs, record.header, record.events)
    code, out, _ = run("replay", game, "--to", "3", "--as", "0", "--db", str(db))
    assert code == 0
    assert f"seen by {names[0]}" in out
    assert f"last event: seq 3: {rs.describe(replay.events[2], names, 0)}" in out
    assert "cards=[" not in out
    code, out, _ = run("replay", game, "--db", str(db))
    outcome = rs.outcome(replay.final)
    assert outcome is not None and rs.describe_outcome(outcome, names) in out
