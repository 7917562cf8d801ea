"""The hand-made Killer Bunnies Quest records: legal ones end with the Magic Carrot (the
rulebook's worked examples do what the rulebook says); each illegal one is flagged at the
seq and with the rule its file name gives, everything before it legal; together they touch
every rule id; the files are what fixtures/make_quest.py writes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.killer_bunnies_quest import RULESET
from engine.killer_bunnies_quest.rulebook import CUSTOM_CARD, RULES
from engine.reader import check_events, read_record
from engine.replay import Replay

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "fixtures" / "killer-bunnies-quest"
ILLEGAL = re.compile(r"^illegal-(KBQ-[A-Z0-9]+-\d+)-seq-(\d+)-[a-z0-9-]+\.jsonl$")


def _records() -> list[Path]:
    return sorted(FOLDER.glob("*.jsonl"))


def _legal() -> list[Path]:
    return [p for p in _records() if not p.name.startswith("illegal-")]


def _effects(path: Path) -> list:  # type: ignore[type-arg]
    record = read_record(path.read_bytes(), path.name)
    state = RULESET.setup(record.header)
    out = []
    for event in record.events:
        try:
            out.extend(RULESET.apply(state, event))
        except Exception:
            break
    return out


def test_at_least_twenty_records_eight_of_them_illegal() -> None:
    names = [p.name for p in _records()]
    illegal = [n for n in names if n.startswith("illegal-")]
    assert len(names) >= 20 and len(illegal) >= 8
    assert all(ILLEGAL.match(n) for n in illegal)


@pytest.mark.parametrize("path", _legal(), ids=lambda p: p.stem)
def test_legal_records_replay_clean_to_the_end(path: Path) -> None:
    record = read_record(path.read_bytes(), path.name)
    assert record.chain == "sealed"
    assert check_events(RULESET, record.header, record.events) is None
    game = Replay(RULESET, record.header, record.events)
    assert game.final.over and RULESET.outcome(game.final) is not None
    assert game.final.magic is not None


@pytest.mark.parametrize("path", [p for p in _records() if p.name.startswith("illegal-")],
                         ids=lambda p: p.stem)
def test_illegal_records_are_flagged_at_their_seq(path: Path) -> None:
    rule, seq = ILLEGAL.match(path.name).groups()  # type: ignore[union-attr]
    record = read_record(path.read_bytes(), path.name)
    found = check_events(RULESET, record.header, record.events)
    assert found is not None and (found.rule, found.seq) == (rule, int(seq))
    assert found.seq == len(record.events)  # everything before it is legal
    assert check_events(RULESET, record.header, record.events[:-1]) is None


def test_together_they_touch_every_rule() -> None:
    touched: set[str] = set()
    for path in _records():
        touched |= {e.rule for e in _effects(path)}
        match = ILLEGAL.match(path.name)
        if match:
            touched.add(match.group(1))
    # a card of a user's own deck file cannot be in a shipped record (it needs that file)
    assert set(RULES) - touched - {CUSTOM_CARD} == set()


def test_the_fluorine_gas_example() -> None:
    # Quest §Lucky Clover Cards: level 9 with a Double clover; a roll of 8 lives
    rolls = [e for e in _effects(FOLDER / "rulebook-fluorine-gas-against-a-double-clover.jsonl")
             if e.kind == "attack_roll"]
    assert [(r.data["printed"], r.data["clovers"], r.data["level"], r.data["face"], r.data["lives"])
            for r in rolls] == [(9, 2, 7, 8, True)]


def test_the_feeding_change_example() -> None:
    # Quest §Making Change: 4 units paid with the 5-unit card, a 1-unit card taken back
    effects = _effects(FOLDER / "rulebook-feeding-four-units-with-a-five.jsonl")
    paid = [e.data for e in effects if e.kind == "paid" and e.data["kind"] == "cabbage"]
    back = [e.data for e in effects if e.kind == "paid_out" and e.data["kind"] == "cabbage"]
    assert {"seat": 1, "kind": "cabbage", "cards": [1010], "units": 4} in paid
    assert back == [{"seat": 1, "kind": "cabbage", "cards": [1001], "units": 1}]


def test_the_cyber_bunny_example() -> None:
    # Quest §Roaming Red Run Cards: it moves on clockwise after each attack and attacks again
    # at the end of its launcher's turns (Ada, seat 0), once a round, at last her own bunny
    path = FOLDER / "rulebook-cyber-bunny-roams.jsonl"
    record = read_record(path.read_bytes(), path.name)
    state = RULESET.setup(record.header)
    attacks = []
    for event in record.events:
        for e in RULESET.apply(state, event):
            if e.kind == "roaming_attack":
                attacks.append((state.active, e.data["bunny"]))
    assert attacks == [(0, 11), (0, 1)]  # Cy's bunny, then Ada's own


def test_the_files_are_what_the_script_writes() -> None:
    result = subprocess.run([sys.executable, "fixtures/make_quest.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True, timeout=600,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
