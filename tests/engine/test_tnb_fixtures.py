"""The hand-made Trust No Bunny records: legal ones end as their names say; each illegal
one is flagged at the seq and with the rule id its file name gives; the files are what
fixtures/make_tnb.py writes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.reader import check_events, read_record
from engine.replay import Replay
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.suspects import suspects

ROOT = Path(__file__).resolve().parents[2]
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


def _records() -> list[Path]:
    return sorted(FOLDER.glob("*.jsonl"))


def test_the_folder_holds_the_records_named_here() -> None:
    names = {p.stem for p in _records()}
    assert set(LEGAL) <= names
    illegal = [p.name for p in _records() if p.name.startswith("illegal-")]
    assert len(illegal) >= 6 and all(ILLEGAL.match(n) for n in illegal)
    assert len(names) == len(LEGAL) + len(illegal)


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
