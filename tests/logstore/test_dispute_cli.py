"""``warren dispute ...``: answers, JSON, exit codes, clear errors; parity with ``warren check``."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from engine.record import event_to_dict, header_to_dict, seal
from logstore.cli import clidoc, main
from logstore.cli.dispute import dispute
from logstore.store.checking import check_path
from tests.engine.test_dispute_tables import _setup

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cli.md"
KINGS = "dispute-bunnies-kings"


def _write(path: Path, name: str) -> Path:
    header, events = _setup("bunnies", name)
    path.write_bytes(b"".join(seal(header_to_dict(header), [event_to_dict(e) for e in events])))
    return path


def run(*args: str, db: Path | None = None) -> tuple[int, str, str]:
    argv = ["dispute", *args] + (["--db", str(db)] if db is not None else [])
    result = CliRunner().invoke(main, argv)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return _write(tmp_path / "kings.jsonl", "kings")


@pytest.fixture
def db(tmp_path: Path, game: Path) -> Path:
    path = tmp_path / "w.db"
    result = CliRunner().invoke(main, ["import", str(game), "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


# -- help -------------------------------------------------------------------------------------------
def _subcommands() -> list[str]:
    return sorted(dispute.list_commands(click.Context(dispute)))


@pytest.mark.parametrize("name", _subcommands())
def test_every_subcommand_has_help_an_example_and_json(name: str) -> None:
    command = dispute.get_command(click.Context(dispute), name)
    assert command is not None and command.help and len(command.help.strip()) > 20
    text = clidoc.command_help(f"dispute {name}", command)
    assert "Example: warren dispute " in text, f"{name}'s help has no example"
    assert "--json" in text, f"{name} has no --json"
    assert f"## warren dispute {name}" in DOC.read_text(), f"{name} is missing from docs/cli.md"


# -- verdict ------------------------------------------------------------------------------------------
def test_verdict_illegal_from_a_file(game: Path) -> None:
    code, out, _ = run("verdict", str(game), "--at", "4", "--action", "lay 3D", "--seat", "0")
    assert code == 1
    assert "ILLEGAL by BUN-LAY-2" in out and "top card: 9♣" in out and "§Play" in out


def test_verdict_legal_from_the_store_as_json(db: Path) -> None:
    action = '{"type": "lay", "cards": ["AC", "AD", "AH", "AS"]}'
    code, out, _ = run("verdict", KINGS, "--at", "6", "--action", action, "--json", db=db)
    assert code == 0
    answer = json.loads(out)
    assert answer["status"] == "legal" and answer["seq"] == 7 and answer["actor"] == 1
    assert [e["rule"] for e in answer["effects"]] == ["BUN-BUNNY-1"]


def test_verdict_at_a_turn(db: Path) -> None:
    code, out, _ = run("verdict", KINGS, "--turn", "2", "--action", "draw", "--json", db=db)
    assert code == 0 and json.loads(out)["position"]["turn"] == 2


def test_a_disputed_claim_exits_1(game: Path) -> None:
    action = '{"type": "lay", "cards": ["9C"], "claims": [{"effect": "bunny_scored"}]}'
    code, out, _ = run("verdict", str(game), "--at", "2", "--action", action, "--json")
    assert code == 1 and json.loads(out)["status"] == "disputed"


@pytest.mark.parametrize(("args", "says"), [
    (["verdict", "no-such-game", "--at", "1", "--action", "draw"], "no game 'no-such-game'"),
    (["verdict", "missing.jsonl", "--at", "1", "--action", "draw"], "no such file"),
    (["verdict", KINGS, "--at", "10", "--action", "draw"], "seq 10 is out of range"),
    (["verdict", KINGS, "--at", "-1", "--action", "draw"], "out of range"),
    (["verdict", KINGS, "--turn", "40", "--action", "draw"], "turn 40 is out of range"),
    (["verdict", KINGS, "--at", "1", "--turn", "1", "--action", "draw"], "not both"),
    (["verdict", KINGS, "--at", "1", "--action", "dance"], "not an action of bunnies"),
    (["verdict", KINGS, "--at", "1", "--action", '{"type": "lay"'], "not valid JSON"),
    (["verdict", KINGS, "--at", "1", "--action", "lay"], "needs its cards"),
    (["verdict", KINGS, "--at", "1", "--action", "draw", "--seat", "2"], "seat 2 is not in this game"),
    (["verdict", KINGS, "--at", "1", "--action", "draw actor=5"], "actor 5 is not in this game"),
    (["legal", KINGS, "--at", "1", "--seat", "9"], "seat 9 is not in this game"),
    (["explain", KINGS, "10"], "event 10 is out of range"),
    (["rerun", KINGS, "--option", "colour=red"], "bad option"),
    (["rerun", KINGS, "--option", "nonsense"], "KEY=VALUE"),
    (["branch", KINGS, "--at", "99", "--action", "draw"], "positions 0..9"),
    (["rule", KINGS, "--at", "99", "-q", "?", "--by", "me"], "out of range"),
    (["rulings", "no-such-game"], "no game"),
])
def test_bad_input_is_a_clear_error_and_exit_2(db: Path, args: list[str], says: str) -> None:
    code, out, err = run(*args, db=db)
    assert code == 2, (out, err)
    assert says in err and "Traceback" not in err + out


def test_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    code, _, err = run("verdict", KINGS, "--at", "1", "--action", "draw", db=tmp_path / "none.db")
    assert code == 2 and "no warren store" in err


# -- legal, explain, rerun, claims, notation -----------------------------------------------------------
def test_legal_lists_actions_readably_and_as_json(db: Path) -> None:
    code, out, _ = run("legal", KINGS, "--at", "2", "--seat", "1", db=db)
    assert code == 0 and "lay 9C" in out and "lay AC AD AH" in out
    code, out, _ = run("legal", KINGS, "--at", "2", "--seat", "1", "--json", db=db)
    answer = json.loads(out)
    assert {"type": "lay", "cards": ["9C"], "seq": 3, "actor": 1} in answer["actions"]
    assert len(answer["actions"]) == len(answer["notations"])
    code, out, _ = run("legal", KINGS, "--at", "2", "--seat", "0", "--json", db=db)
    assert json.loads(out)["actions"] == [] and "to act: Bo" in json.loads(out)["note"]


def test_explain_an_event(db: Path) -> None:
    code, out, _ = run("explain", KINGS, "7", db=db)
    assert code == 0 and "bunny scored [BUN-BUNNY-1]" in out and "Bo's hand: −A♣ −A♦ −A♥ −A♠" in out
    code, out, _ = run("explain", KINGS, "7", "--json", db=db)
    answer = json.loads(out)
    assert answer["legal"] and answer["effects"][0]["rule"] == "BUN-BUNNY-1"
    assert any(c["path"] == "bunnies[1]" for c in answer["changes"])


def test_rerun_finds_the_planted_difference(db: Path) -> None:
    code, out, _ = run("rerun", KINGS, "--option", "first_seat=0", "--json", db=db)
    answer = json.loads(out)
    assert code == 0 and answer["first_difference"]["seq"] == 1
    assert answer["changed"] == {"first_seat": {"original": 1, "variant": 0}}
    assert answer["variant"]["status"] == "stopped" and answer["outcome_differs"]
    code, out, _ = run("rerun", KINGS, "--option", "hand_size=7", db=db)
    assert "first difference at event 1 (verdict)" in out and "BUN-DEAL-1" in out


def test_claims_of_a_record(tmp_path: Path) -> None:
    header, events = _setup("bunnies", "kings")
    lines = [event_to_dict(e) for e in events]
    lines[2]["claims"] = [{"effect": "bunny_scored", "rule": "BUN-BUNNY-1"}]
    path = tmp_path / "claims.jsonl"
    path.write_bytes(b"".join(seal(header_to_dict(header), lines)))
    code, out, _ = run("claims", str(path), "--json")
    answer = json.loads(out)
    assert code == 1 and answer["claims"] == 1
    assert answer["disputed"][0]["seq"] == 3 and answer["disputed"][0]["rule"] == "BUN-BUNNY-1"
    checked = check_path(path)
    assert checked.violation is None, "a disputed claim is not an illegal action"
    assert not checked.ok and [(d.seq, d.rule) for d in checked.disputed_claims] == [(3, "BUN-BUNNY-1")]


def test_notation_lists_every_action() -> None:
    code, out, _ = run("notation", "bunnies")
    assert code == 0 and "lay CARDS..." in out.splitlines() and "flip SLOT [CARD]" in out.splitlines()
    code, _, err = run("notation", "chess")
    assert code == 2 and "unknown ruleset 'chess'" in err


# -- branches and rulings through the CLI -----------------------------------------------------------------
def test_branch_branches_rule_rulings_export_and_import(db: Path, tmp_path: Path, game: Path) -> None:
    code, out, _ = run("branch", KINGS, "--at", "2", "--action", "lay AC", "--by", "judge", "--json", db=db)
    made = json.loads(out)
    assert code == 0 and made["game_id"] == f"{KINGS}~1"
    assert made["divergence"]["parent_seq"] == 5 and made["divergence"]["rule"] == "BUN-LAY-2"
    code, out, _ = run("branch", f"{KINGS}~1", "--at", "3", "--action", "draw", "--action", "pickup",
                       "--replaces", "0", db=db)
    assert code == 0 and f"branch {KINGS}~1~1 of {KINGS}~1" in out
    code, out, _ = run("branch", KINGS, "--at", "4", "--action", "lay 3D", "--seat", "0", db=db)
    assert code == 1
    code, out, _ = run("branches", KINGS, "--json", db=db)
    assert [json.loads(line)["game_id"] for line in out.splitlines()] == [f"{KINGS}~1", f"{KINGS}~1~1"]
    code, out, _ = run("verdict", f"{KINGS}~1~1", "--at", "5", "--action", "draw", db=db)
    assert code == 0
    code, out, _ = run("rule", KINGS, "--at", "4", "-q", "Could Ada lay the three?", "--by", "judge",
                       "--action", "lay 3D", "--seat", "0", "--json", db=db)
    ruling = json.loads(out)
    assert code == 0 and ruling["rule"] == "BUN-LAY-2" and ruling["ref"].endswith(ruling["ruling_id"])
    code, out, _ = run("rule", f"{KINGS}~1", "--at", "2", "-q", "Was the ace legal?", "--by", "table", db=db)
    assert code == 0 and "engine: legal" in out  # the recorded event after seq 2 was judged
    register = tmp_path / "register.jsonl"
    code, _, _ = run("rulings", "--export", str(register), db=db)
    assert code == 0 and len(register.read_text().splitlines()) == 4
    other = tmp_path / "other.db"
    CliRunner().invoke(main, ["import", str(game), "--db", str(other)])
    code, out, _ = run("import-rulings", str(register), "--json", db=other)
    assert code == 0 and json.loads(out)["rulings"] == 2 and json.loads(out)["branches"] == 2
    code, out, _ = run("rulings", "--json", db=other)
    assert sorted(json.loads(line)["ruling_id"] for line in out.splitlines()) == sorted(
        json.loads(line)["ruling_id"] for line in run("rulings", "--json", db=db)[1].splitlines())


def test_branch_of_a_file_written_to_a_file(game: Path, tmp_path: Path) -> None:
    out_path = tmp_path / "branch.jsonl"
    code, out, _ = run("branch", str(game), "--at", "2", "--action", "lay AC", "--out", str(out_path))
    assert code == 0 and "divergence: the parent's event 5" in out
    assert check_path(out_path).ok


# -- parity with `warren check` on the illegal fixtures ---------------------------------------------------
ILLEGAL = sorted((ROOT / "fixtures").glob("*/illegal-*.jsonl"))


@pytest.mark.parametrize("path", ILLEGAL or [None], ids=[p.name for p in ILLEGAL] or ["none"])
def test_dispute_names_the_same_rule_as_check_for_every_illegal_fixture(path: Path | None) -> None:
    if path is None:
        pytest.skip("no illegal fixtures yet")
    checked = check_path(path)
    assert checked.violation is not None, f"{path.name} is not flagged by warren check"
    v = checked.violation
    assert v.rule in path.name, f"{path.name} should name the rule it breaks ({v.rule})"
    line = path.read_bytes().splitlines()[v.seq].decode()
    code, out, err = run("verdict", str(path), "--at", str(v.seq - 1), "--action", line, "--json")
    assert code == 1, err
    answer = json.loads(out)
    assert answer["status"] == "illegal" and answer["rule"]["id"] == v.rule
    assert answer["message"] == v.message
