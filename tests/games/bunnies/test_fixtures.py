"""The shipped Bunnies fixtures: current, clean where legal, flagged where not.

``fixtures/make_bunnies.py`` writes them; these tests read the files on disk, as
``warren check`` would, and also regenerate them in memory to prove they are current.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.bunnies import RULESET
from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import COVERED_BY
from engine.bunnies.rulebook import RULES
from engine.bunnies.state import BunniesState
from engine.reader import check_events, read_record
from engine.record import Event, Record
from engine.rules import Effect

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "bunnies"


def _load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_bunnies", ROOT / "fixtures" / "make_bunnies.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_bunnies"] = module
    spec.loader.exec_module(module)
    return module


maker = _load_maker()

HAND_MADE = sorted(FIXTURES.glob("*.jsonl"))
ILLEGAL = [p for p in HAND_MADE if p.name.startswith("illegal-")]
BROKEN = [p for p in HAND_MADE if p.name.startswith("broken-chain-")]
LEGAL = [p for p in HAND_MADE if p not in ILLEGAL and p not in BROKEN]
SIMULATED = sorted((FIXTURES / "simulated").glob("*.jsonl"))


def read(path: Path) -> Record:
    return read_record(path.read_bytes(), str(path))


def test_the_fixture_set_is_as_promised() -> None:
    assert len(LEGAL) >= 10
    assert len(ILLEGAL) >= 4
    assert len(BROKEN) == 1
    assert len(SIMULATED) == maker.SIMULATED_GAMES
    chains = [read(p).chain for p in LEGAL + ILLEGAL]
    assert chains.count("unsealed") >= 3
    assert chains.count("sealed") >= 10


def test_the_files_on_disk_are_what_the_script_writes() -> None:
    wanted = maker.files()
    on_disk = {p for p in FIXTURES.rglob("*") if p.is_file()}
    assert on_disk == set(wanted), "run: python fixtures/make_bunnies.py"
    stale = [p.name for p, data in wanted.items() if p.read_bytes() != data]
    assert stale == [], "run: python fixtures/make_bunnies.py"


@pytest.mark.parametrize("path", LEGAL + SIMULATED, ids=lambda p: p.name)
def test_legal_fixture_checks_clean(path: Path) -> None:
    record = read(path)
    assert record.chain in ("sealed", "unsealed") and record.broken_at is None
    assert check_events(RULESET, record.header, record.events) is None


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_illegal_fixture_is_flagged_at_its_last_event_with_the_rule_in_its_name(path: Path) -> None:
    rule = "-".join(path.stem.split("-")[1:4])
    assert rule in RULESET.rulebook, f"{path.name} names no rule of the rulebook"
    record = read(path)
    assert record.chain != "broken"
    found = check_events(RULESET, record.header, record.events)
    assert found is not None
    assert (found.rule, found.seq) == (rule, record.events[-1].seq)
    assert found.message


def test_broken_chain_fixture_is_reported_at_the_edited_line() -> None:
    (path,) = BROKEN
    record = read(path)
    assert (record.chain, record.broken_at) == ("broken", maker.BROKEN_SEQ)
    # The edit itself is a legal lay; only the chain gives it away.
    assert check_events(RULESET, record.header, record.events) is None
    # Every other line is exactly what the sealed original had.
    original = maker.broken_chain_original(len(maker.SCENARIOS))
    assert read_record(b"".join(original)).chain == "sealed"
    lines = path.read_bytes().splitlines(keepends=True)
    differ = [i for i, (a, b) in enumerate(zip(lines, original, strict=True)) if a != b]
    assert differ == [maker.BROKEN_SEQ]  # line 1 is the header, so line i holds seq i


# -- which rules the legal fixtures show allowing -------------------------------------------
def rules_shown(before: BunniesState, event: Event, effects: tuple[Effect, ...]) -> set[str]:
    """The rules an allowed event puts to work: its effects' rules, and the guards it passed."""
    shown = {effect.rule for effect in effects}
    if isinstance(event, Deal):
        return shown
    shown.add("BUN-TURN-1")
    after_bunny = before.phase == "bunny"
    if isinstance(event, Draw):
        shown.add("BUN-DRAW-1")
    if isinstance(event, Lay | Flip | Pickup) and before.phase == "lay" and not before.stock:
        shown.add("BUN-DRAW-2")  # the go went on without a draw: the stock was empty
    if isinstance(event, Lay):
        shown.add("BUN-LAY-1")
        if before.pile:
            shown.add("BUN-LAY-2")
        if not any(e.rule in ("BUN-BUNNY-1", "BUN-END-1") for e in effects):
            shown.add("BUN-LAY-3")
    if isinstance(event, Flip):
        shown |= {"BUN-BLIND-1", "BUN-BLIND-2", "BUN-BLIND-5"}
        if event.slot in COVERED_BY:
            shown.add("BUN-DEAL-2")  # it lay under another card once, and is free now
    if isinstance(event, Lay | Flip) and after_bunny:
        shown.add("BUN-BUNNY-5")
    if isinstance(event, Steal | Peek):
        shown |= {"BUN-BUNNY-2", "BUN-BUNNY-6"}
    if isinstance(event, EndTurn):
        shown.add("BUN-BUNNY-5")
    return shown


def test_the_legal_hand_made_fixtures_show_every_rule_allowing() -> None:
    shown: set[str] = set()
    for path in LEGAL:
        record = read(path)
        state = RULESET.setup(record.header)
        for event in RULESET.effective(record.events)[0]:
            before = RULESET.copy_state(state)
            shown |= rules_shown(before, event, RULESET.apply(state, event))
    assert set(RULES) - shown == set()


def test_the_illegal_fixtures_break_different_rules() -> None:
    rules = ["-".join(p.stem.split("-")[1:4]) for p in ILLEGAL]
    assert len(set(rules)) == len(rules)


@pytest.mark.parametrize("name, scores, out", [
    ("race-to-go-out", [18, 5], 0),
    ("minimum-bonus", [10, 6], 0),
    ("last-card-makes-a-bunny", [18, 5], 0),
    ("tie-both-win", [8, 8], 1),
    ("steal-takes-the-last-card", [12, 6], 0),
])
def test_finished_fixtures_end_as_described(name: str, scores: list[int], out: int) -> None:
    record = read(FIXTURES / f"{name}.jsonl")
    state = RULESET.setup(record.header)
    RULESET.fold(state, record.events)
    assert (state.scores, state.out) == (scores, out)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert outcome.winners == ([0, 1] if scores[0] == scores[1] else [scores.index(max(scores))])


def test_a_record_that_does_not_show_what_it_is_made_to_show_is_named() -> None:
    from engine.bunnies import RULESET as BUNNIES
    from tests.scenarios import miss

    legal = LEGAL[0].read_bytes()
    illegal = FIXTURES / "illegal-BUN-LAY-2-nine-on-a-queen.jsonl"
    assert miss(BUNNIES, legal, "legal", None) is None
    assert miss(BUNNIES, illegal.read_bytes(), "nine", "BUN-LAY-2") is None
    assert "breaks BUN-LAY-2" in str(miss(BUNNIES, illegal.read_bytes(), "nine", None))
    assert "expected BUN-LAY-2" in str(miss(BUNNIES, legal, "legal", "BUN-LAY-2"))
    assert "got BUN-LAY-2" in str(miss(BUNNIES, illegal.read_bytes(), "nine", "BUN-DRAW-1"))
