"""`warren check` and `warren simulate`: the JSON contract, exit codes, determinism."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from logstore.cli import main
from logstore.store import checking, helpers
from tests.logstore import hostile_folder

KEYS = {"path", "ok", "game_id", "ruleset", "events", "chain", "broken_at", "violation", "error",
        "disputed_claims"}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sim")
    code, _, err = run("simulate", "bunnies", "--games", "12", "--seed", "7", "--out", str(out))
    assert code == 0, err
    return out


def test_simulated_games_all_check_clean(games: Path) -> None:
    code, out, _ = run("check", str(games), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(lines) == 12
    for line in lines:
        assert set(line) == KEYS
        assert line["ok"] and line["chain"] == "sealed" and line["violation"] is None
        assert line["events"] > 0 and line["ruleset"] == "bunnies"


def test_same_seed_same_bytes(games: Path, tmp_path: Path) -> None:
    run("simulate", "bunnies", "--games", "12", "--seed", "7", "--out", str(tmp_path))
    for path in sorted(games.glob("*.jsonl")):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes()
    run("simulate", "bunnies", "--games", "2", "--seed", "8", "--out", str(tmp_path / "other"))
    other = sorted((tmp_path / "other").glob("*.jsonl"))
    assert other[0].read_bytes() != sorted(games.glob("*.jsonl"))[0].read_bytes()


def _edit_line(path: Path, lineno: int, old: bytes, new: bytes) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    assert old in lines[lineno - 1]
    lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
    path.write_bytes(b"".join(lines))


def test_hand_edited_record_is_a_broken_chain_at_the_edited_line(games: Path, tmp_path: Path) -> None:
    source = sorted(games.glob("*.jsonl"))[0]
    target = tmp_path / "edited.jsonl"
    target.write_bytes(source.read_bytes())
    # Line 5 holds seq 4; renaming a player or changing an actor breaks the chain there.
    line = target.read_bytes().splitlines()[4]
    actor = json.loads(line)["actor"]
    _edit_line(target, 5, f'"actor":{actor}'.encode(), f'"actor":{1 - actor}'.encode())
    code, out, _ = run("check", str(target), "--json")
    result = json.loads(out)
    assert code == 1
    assert result["chain"] == "broken" and result["broken_at"] == 4 and not result["ok"]


@pytest.mark.parametrize(
    ("content", "line", "reason"),
    [
        (b"", 1, "empty file"),
        (b"\x00\x01binary", 1, "binary"),
        (b'{"warren":1,"kind":"header"', 1, "not valid JSON"),
        (b"\xff\xfe\n", 1, "not UTF-8"),
    ],
)
def test_unreadable_files_exit_2_with_line_and_reason(
    tmp_path: Path, content: bytes, line: int, reason: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    code, out, _ = run("check", str(path), "--json")
    result = json.loads(out)
    assert code == 2
    assert result["error"].startswith(f"{path}:{line}:")
    assert reason in result["error"]
    assert result["ok"] is False


def test_bad_json_on_a_later_line(games: Path, tmp_path: Path) -> None:
    lines = sorted(games.glob("*.jsonl"))[0].read_bytes().splitlines(keepends=True)
    lines[6] = b'{"seq": 6, "type": "lay", \n'
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines))
    code, out, _ = run("check", str(path), "--json")
    assert code == 2
    assert ":7: not valid JSON" in json.loads(out)["error"]


def test_highest_exit_code_wins_and_text_mode_summarises(games: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"hello\n")
    code, out, err = run("check", str(games), str(bad))
    assert code == 2
    assert out.count("ok ") == 12 and "unreadable" in out
    assert "13 record(s): 12 ok" in err


def test_illegal_event_reports_seq_and_rule(games: Path, tmp_path: Path) -> None:
    source = sorted(games.glob("*.jsonl"))[0]
    lines = source.read_bytes().splitlines(keepends=True)
    # An unsealed copy where seat 1 draws twice: the second draw breaks BUN-DRAW-2 (or the turn rule).
    header = json.loads(lines[0])
    header.pop("hash")
    events = [json.loads(x) for x in lines[1:4]]
    for event in events:
        event.pop("hash")
    first = events[1]
    assert first["type"] == "draw"
    twice = {"seq": 3, "type": "draw", "actor": first["actor"]}
    closing = {"kind": "seal", "events": 3}
    text = "\n".join(json.dumps(x) for x in [header, events[0], first, twice, closing]) + "\n"
    path = tmp_path / "twice.jsonl"
    path.write_text(text)
    code, out, _ = run("check", str(path), "--json")
    result = json.loads(out)
    assert code == 1
    assert result["chain"] == "unsealed"
    assert result["violation"]["seq"] == 3 and result["violation"]["rule"] == "BUN-DRAW-2"


def test_simulate_needs_exactly_one_destination(tmp_path: Path) -> None:
    code, _, err = run("simulate", "bunnies", "--games", "1")
    assert code == 2 and "exactly one of --out" in err
    code, _, err = run("simulate", "chess", "--games", "1", "--out", str(tmp_path))
    assert code == 2 and "unknown ruleset 'chess'" in err


def test_replay_text_and_json(games: Path) -> None:
    path = sorted(games.glob("*.jsonl"))[0]
    code, out, _ = run("replay", str(path), "--turn", "3", "--as", "0")
    assert code == 0
    assert "turn 3" in out and "cards, face down" in out  # the other hand, unseen
    # faces and words, never the record's codes (issue: the table's words)
    assert "[??]" not in out and not re.search(r"\b(?:[2-9TJQKA][CDHS] ){2,}", out)
    assert re.search(r"(?:[2-9JQKA]|10)[♣♦♥♠]", out)  # cards by their faces
    code, out, _ = run("replay", str(path), "--to", "5", "--json", "--as", "spectator")
    data = json.loads(out)
    assert data["position"]["seq"] == 5
    assert isinstance(data["view"]["hands"][0], int)  # a spectator sees counts only
    code, _, err = run("replay", str(path), "--to", "999999")
    assert code == 2 and "out of range" in err
    code, _, err = run("replay", str(path), "--as", "7")
    assert code == 2 and "seats 0..1" in err


def test_a_disputed_claim_is_reported_apart_from_an_illegal_action(games: Path, tmp_path: Path) -> None:
    lines = sorted(games.glob("*.jsonl"))[0].read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0])
    header.pop("hash")
    events = [json.loads(x) for x in lines[1:4]]
    for event in events:
        event.pop("hash")
    # seq 2 is a draw: it scores no bunny, whatever the record says.
    events[1]["claims"] = [{"effect": "bunny_scored", "rule": "BUN-BUNNY-1"}]
    path = tmp_path / "claims.jsonl"
    closing = {"kind": "seal", "events": len(events)}
    path.write_text("\n".join(json.dumps(x) for x in [header, *events, closing]) + "\n")
    code, out, _ = run("check", str(path), "--json")
    result = json.loads(out)
    assert code == 1 and not result["ok"]
    assert result["violation"] is None
    assert [(c["seq"], c["rule"]) for c in result["disputed_claims"]] == [(2, "BUN-BUNNY-1")]
    # A claim the engine does derive is not disputed.
    events[1]["claims"] = []
    events[0]["claims"] = [{"effect": "dealt", "rule": "BUN-DEAL-1"}]
    path.write_text("\n".join(json.dumps(x) for x in [header, *events, closing]) + "\n")
    code, out, _ = run("check", str(path), "--json")
    assert code == 0 and json.loads(out)["disputed_claims"] == []


def test_a_game_recorded_at_the_table_reports_what_it_cannot_decide() -> None:
    path = Path(__file__).resolve().parents[2] / "fixtures" / "bunnies" / "recorded-at-the-table.jsonl"
    code, out, _ = run("check", str(path), "--json")
    line = json.loads(out)
    assert code == 0 and line["ok"] and line["violation"] is None
    assert line["undetermined"] == [{"seq": 5, "rule": "BUN-PICKUP-1",
                                     "needs": "legal only if seat 1's hand held no card of rank 9 or higher"}]
    code, out, _ = run("check", str(path))
    assert code == 0 and "undetermined at seq 5 [BUN-PICKUP-1]" in out


@pytest.mark.parametrize(("fork", "all_in_helper"), [(True, False), (True, True), (False, True)])
def test_a_folder_checked_on_both_cores_gives_the_same_lines_in_the_same_order(
        games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool,
        all_in_helper: bool) -> None:
    # all_in_helper: this process waits for the helper rather than judging batches itself,
    # so every line is the helper's (forked, or a fresh Python).
    monkeypatch.setattr(helpers, "FORK", fork and helpers.FORK)
    monkeypatch.setattr(helpers, "WORK_WHILE_WAITING", not all_in_helper)
    if all_in_helper:
        me, real = os.getpid(), checking.check_batch

        def only_in_the_helper(batch: list[str]) -> Any:
            assert os.getpid() != me, "a batch was judged in this process, not in the helper"
            return real(batch)

        monkeypatch.setattr(checking, "check_batch", only_in_the_helper)
    folder = tmp_path / "archive"
    folder.mkdir()
    sources = sorted(games.glob("*.jsonl"))
    for i in range(70):  # past PARALLEL_FROM: batches go to the helper process
        (folder / f"{i:03d}.jsonl").write_bytes(sources[i % len(sources)].read_bytes())
    (folder / "040-broken.jsonl").write_bytes(b'{"warren": 2, "kind": "header"\n')
    lines = sources[0].read_bytes().splitlines(keepends=True)
    (folder / "050-illegal.jsonl").write_bytes(b"".join(lines[:3] + lines[4:]))
    answers = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("WARREN_CHECK_JOBS", jobs)
        answers[jobs] = run("check", str(folder), "--json")
    assert answers["1"] == answers["2"]
    code, out, _ = answers["2"]
    assert code == 2 and len(out.splitlines()) == 72
    paths = [json.loads(line)["path"] for line in out.splitlines()]
    assert paths == [str(p) for p in sorted(folder.glob("*.jsonl"))]


@pytest.mark.parametrize("fork", [True, False])
def test_every_kind_of_record_checks_the_same_in_the_helper(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool) -> None:
    # Canonical and not, unsealed, format 1, CRLF, a key given twice, a broken chain, a cut
    # record, not JSON: the helper's lines are those of one process, in the same order.
    folder = tmp_path / "archive"
    paths = hostile_folder.write(folder, copies=7)  # past PARALLEL_FROM
    monkeypatch.setenv("WARREN_CHECK_JOBS", "1")
    one = run("check", str(folder), "--json")
    monkeypatch.setattr(helpers, "FORK", fork and helpers.FORK)
    monkeypatch.setattr(helpers, "WORK_WHILE_WAITING", False)
    monkeypatch.setenv("WARREN_CHECK_JOBS", "2")
    me, real = os.getpid(), checking.check_batch

    def only_in_the_helper(batch: list[str]) -> Any:
        assert os.getpid() != me, "a batch was judged in this process, not in the helper"
        return real(batch)

    monkeypatch.setattr(checking, "check_batch", only_in_the_helper)
    assert run("check", str(folder), "--json") == one
    code, out, _ = one
    assert code == 2 and [json.loads(line)["path"] for line in out.splitlines()] == [str(p) for p in paths]
    chains = {json.loads(line)["chain"] for line in out.splitlines()}
    assert chains == {"sealed", "unsealed", "broken", None}


def test_the_helpers_follow_the_cores_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The load average still counted the user's last command: a quiet 2-core machine
    checked on one core. Now the affinity mask decides, whatever the load."""
    from logstore.store import cores

    monkeypatch.setattr(os, "getloadavg", lambda: (9.0, 9.0, 9.0), raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert cores.usable_cores() == 2 and cores.helper_count() == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert cores.helper_count() == 0  # taskset -c 3: this process alone
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(32)), raising=False)
    assert cores.helper_count() == cores.MAX_HELPERS

    def no_mask(pid: int) -> set[int]:
        raise AttributeError

    monkeypatch.setattr(os, "sched_getaffinity", no_mask, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert cores.usable_cores() == 3
