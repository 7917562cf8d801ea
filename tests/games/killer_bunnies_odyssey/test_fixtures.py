"""The hand-made Odyssey records: legal ones check clean (one recorded at the table with its
undetermined checks), each illegal one is flagged at the seq and with the rule its file name
gives, and the files are what fixtures/make_odyssey.py writes; the dispute table is what its
writer writes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.killer_bunnies_odyssey import RULESET
from engine.reader import check_events, read_record
from engine.replay import Replay

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "fixtures" / "killer-bunnies-odyssey"
ILLEGAL = re.compile(r"^illegal-((?:ODY|REC)-[A-Z]+-\d+)-seq-(\d+)-[a-z0-9-]+\.jsonl$")

# name -> (over, winners)
ENDED = {"race-to-60-on-another-turn": [0]}


def _records() -> list[Path]:
    return sorted(FOLDER.glob("*.jsonl"))


def test_the_folder_holds_enough_hand_made_records() -> None:
    names = [p.name for p in _records()]
    illegal = [n for n in names if n.startswith("illegal-")]
    assert len(names) - len(illegal) >= 15 and len(illegal) >= 6
    assert all(ILLEGAL.match(n) for n in illegal)
    assert len({read_record(p.read_bytes(), p.name).header.game_id for p in _records()}) == len(names)


@pytest.mark.parametrize("path", [p for p in _records() if not p.name.startswith("illegal-")],
                         ids=lambda p: p.stem)
def test_legal_records_check_clean(path: Path) -> None:
    record = read_record(path.read_bytes(), path.name)
    assert record.chain == "sealed"
    assert check_events(RULESET, record.header, record.events) is None
    game = Replay(RULESET, record.header, record.events)
    if path.stem in ENDED:
        outcome = RULESET.outcome(game.final)
        assert outcome is not None and outcome.winners == ENDED[path.stem]


@pytest.mark.parametrize("path", [p for p in _records() if p.name.startswith("illegal-")],
                         ids=lambda p: p.stem)
def test_illegal_records_are_flagged_at_their_seq_with_their_rule(path: Path) -> None:
    m = ILLEGAL.match(path.name)
    assert m is not None
    record = read_record(path.read_bytes(), path.name)
    found = check_events(RULESET, record.header, record.events)
    assert found is not None and (found.rule, found.seq) == (m.group(1), int(m.group(2)))
    assert found.seq == len(record.events), "the illegal event is the record's last"


@pytest.mark.parametrize("script", ["fixtures/make_odyssey.py",
                                    "tests/games/killer_bunnies_odyssey/make_disputes.py"])
def test_the_files_are_what_their_script_writes(script: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / script), "--check"], cwd=ROOT,
                          capture_output=True, text=True, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr
