"""The hand-made Trust No Bunny records: legal ones end as their names say; each illegal
one is flagged at the seq and with the rule id its file name gives; the files are what
fixtures/make_tnb.py writes."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.dispute.claims import ClaimsReport, record_claims
from engine.reader import check_events, read_record
from engine.record import Record, event_to_dict
from engine.redact import redact_game
from engine.replay import Replay
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.suspects import suspects

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "fixtures" / "trust-no-bunny"
ILLEGAL = re.compile(r"^illegal-(TNB-[A-Z]+-\d+)-seq-(\d+)-[a-z0-9-]+\.jsonl$")

# name -> (reason, end rule, winners, players)
LEGAL = {
    "defences-down": ("defences_down", "TNB-END-2", [1, 3], 5),
    "wolves-over-35": ("too_many_wolves", "TNB-WOLF-3", [0, 5], 6),
    "fifth-night-survived": ("town_survived", "TNB-END-3", [0, 1, 2, 3, 4], 7),
    "quirk-failed": ("town_survived", "TNB-END-3", [0, 2, 3, 4], 7),
    "wall-held": ("wall_held", "TNB-END-4", [0, 1, 3, 5], 6),
    "unanimous-accusation": ("unanimous_accusation", "TNB-ACC-4", [0, 1, 3, 4, 5, 7], 8),
    "items-and-mutations": ("town_survived", "TNB-END-3", [0, 1, 4, 6], 7),
    "timers": ("wall_held", "TNB-END-4", [0, 2, 3, 5, 6, 7], 8),
}


def check_claims_of(record: Record) -> ClaimsReport:
    return record_claims(RULESET, record.header, record.events)


def _records() -> list[Path]:
    return sorted(FOLDER.glob("*.jsonl"))


# Games recorded at the table (R-TNB-22): name -> (over, winners, undetermined (seq, rule) checks)
RECORDED = {
    "recorded-table": (True, [0, 2, 4], []),
    "recorded-undetermined": (False, [], [(14, "TNB-ACC-4")]),
}


def test_the_folder_holds_the_records_named_here() -> None:
    names = {p.stem for p in _records()}
    assert set(LEGAL) <= names and set(RECORDED) <= names
    illegal = [p.name for p in _records() if p.name.startswith("illegal-")]
    assert len(illegal) >= 6 and all(ILLEGAL.match(n) for n in illegal)
    assert len(names) == len(LEGAL) + len(RECORDED) + len(illegal)


@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_records_end_as_named(name: str) -> None:
    record = read_record((FOLDER / f"{name}.jsonl").read_bytes(), name)
    reason, rule, winners, players = LEGAL[name]
    assert record.chain == "sealed" and len(record.header.players) == players
    assert check_events(RULESET, record.header, record.events) is None
    game = Replay(RULESET, record.header, record.events)
    outcome = RULESET.outcome(game.final)
    assert outcome is not None
    assert (outcome.reason, outcome.rule, outcome.winners) == (reason, rule, winners)
    truth = game.final.werebunnies
    for seq in range(0, game.last_seq + 1, 5):
        state = game.state_at(seq)
        for perspective in [*range(players), "spectator"]:
            report = suspects(state, perspective)
            if state.werebunnies is not None:
                assert truth in report.pairs


def test_the_quirk_failed_record_leaves_out_the_homebody() -> None:
    record = read_record((FOLDER / "quirk-failed.jsonl").read_bytes())
    state = Replay(RULESET, record.header, record.events).final
    assert state.quirks[1] == "homebody" and state.nights_home[1] < 3 and 1 not in state.winners


@pytest.mark.parametrize("path", [p for p in _records() if p.name.startswith("illegal-")],
                         ids=lambda p: p.stem)
def test_illegal_records_are_flagged_at_their_seq(path: Path) -> None:
    rule, seq = ILLEGAL.match(path.name).groups()  # type: ignore[union-attr]
    record = read_record(path.read_bytes(), path.name)
    found = check_events(RULESET, record.header, record.events)
    assert found is not None and (found.rule, found.seq) == (rule, int(seq))
    # Everything before it is legal.
    assert check_events(RULESET, record.header, record.events[: int(seq) - 1]) is None
    assert found.rule in RULESET.rulebook


def test_the_files_are_what_the_script_writes() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "fixtures" / "make_tnb.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def _make_tnb() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_tnb", ROOT / "fixtures" / "make_tnb.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_games_check_as_the_table_saw_them(name: str) -> None:
    record = read_record((FOLDER / f"{name}.jsonl").read_bytes(), name)
    over, winners, doubts = RECORDED[name]
    assert record.chain == "sealed" and record.header.source == "recorded"
    report = check_claims_of(record)
    assert report.violation is None and not report.disputed
    assert [(u.seq, u.rule) for u in report.undetermined] == doubts
    game = Replay(RULESET, record.header, record.events)
    assert game.final.over == over and game.final.partial
    assert list(game.final.winners) == winners
    for seq in range(0, game.last_seq + 1, 7):
        report_now = suspects(game.state_at(seq), "spectator")
        assert (1, 3) in report_now.pairs or name != "recorded-table", "the true pair is never ruled out"


def test_the_table_record_is_the_whole_game_as_the_table_saw_it() -> None:
    """The hand-written table record is exactly what warren's redaction of the whole truth
    behind it gives the table (and that truth is a legal game)."""
    make_tnb = _make_tnb()
    truth = make_tnb.recorded_table_truth()
    assert check_events(RULESET, truth.header, truth.events) is None
    _, seen = redact_game(RULESET, truth.header, truth.events, "spectator")
    written = make_tnb.recorded_table().events
    assert [event_to_dict(e) for e in seen] == [event_to_dict(e) for e in written]
