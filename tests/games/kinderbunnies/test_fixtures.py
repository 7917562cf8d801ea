"""The shipped KinderBunnies fixtures: current, clean where legal, flagged where not, across
the three levels. ``fixtures/make_kinder.py`` writes them; these tests read the files on
disk, as ``warren check`` would, and regenerate them in memory to prove they are current."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.hidden import is_undetermined
from engine.kinderbunnies import RULESET
from engine.reader import check_events, read_record
from engine.record import Record

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures" / "kinderbunnies"


def _load_maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_kinder", ROOT / "fixtures" / "make_kinder.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_kinder"] = module
    spec.loader.exec_module(module)
    return module


maker = _load_maker()
HAND_MADE = sorted(FIXTURES.glob("*.jsonl"))
ILLEGAL = [p for p in HAND_MADE if p.name.startswith("illegal-")]
LEGAL = [p for p in HAND_MADE if p not in ILLEGAL]
SIMULATED = sorted((FIXTURES / "simulated").glob("*.jsonl"))


def read(path: Path) -> Record:
    return read_record(path.read_bytes(), str(path))


def test_the_fixture_set_is_as_promised() -> None:
    assert len(HAND_MADE) >= 12 and len(ILLEGAL) >= 5
    levels = {json.loads(p.read_text().splitlines()[0])["options"].get("level", "beginner")
              for p in HAND_MADE}
    assert levels == {"beginner", "advanced", "really-advanced"}
    illegal_levels = {json.loads(p.read_text().splitlines()[0])["options"].get("level", "beginner")
                      for p in ILLEGAL}
    assert {"beginner", "advanced"} <= illegal_levels
    assert len(SIMULATED) == 3 * maker.SIMULATED_GAMES
    assert {read(p).chain for p in LEGAL} == {"sealed", "unsealed"}


def test_the_files_on_disk_are_current() -> None:
    wanted = maker.files()
    for path, data in wanted.items():
        assert path.is_file() and path.read_bytes() == data, f"{path.name} is stale"
    assert maker.main(["--check"]) == 0


@pytest.mark.parametrize("path", LEGAL + SIMULATED, ids=lambda p: p.name)
def test_legal_fixtures_check_clean(path: Path) -> None:
    record = read(path)
    assert check_events(RULESET, record.header, record.events) is None


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.name)
def test_illegal_fixtures_are_flagged_at_their_last_event_with_their_rule(path: Path) -> None:
    record = read(path)
    found = check_events(RULESET, record.header, record.events)
    rule = "-".join(path.stem.split("-")[1:4])
    assert found is not None and found.rule == rule and found.seq == len(record.events)
    assert rule in RULESET.rulebook


def test_simulated_and_played_out_games_end_and_are_scored() -> None:
    for path in [*SIMULATED, FIXTURES / "beginner-played-out.jsonl",
                 FIXTURES / "really-advanced-to-the-last-carrot.jsonl"]:
        record = read(path)
        state = RULESET.setup(record.header)
        RULESET.fold(state, record.events)
        outcome = RULESET.outcome(state)
        assert state.over and outcome is not None, path.name


def test_the_recorded_drought_is_undetermined_not_illegal() -> None:
    record = read(FIXTURES / "recorded-drought-undetermined.jsonl")
    state = RULESET.setup(record.header)
    doubts = []
    for event in record.events:
        doubts += [e for e in RULESET.apply(state, event) if is_undetermined(e)]
    assert [d.rule for d in doubts] == ["KIN-CARD-DROUGHT"]
    assert "no other Water card" in doubts[0].data["needs"]


def test_the_referee_counts_the_unseen_cards_of_a_recorded_draw_pile() -> None:
    """In a game recorded at the table the draw pile's cards are unknown: the referee's view
    shows them as "?" (the pile's size is still its size), and agrees with every seat's count."""
    from engine.hidden import UNKNOWN
    from engine.replay import Replay

    record = read(FIXTURES / "recorded-at-the-table.jsonl")
    game = Replay(RULESET, record.header, record.events)
    for seq in (0, 3, len(record.events)):
        state = game.state_at(seq)
        referee = RULESET.view(state, "referee")["draw_pile"]
        seat = RULESET.view(state, 0)["draw_pile"]
        assert isinstance(referee, list) and len(referee) == seat > 0, seq
        assert referee.count(UNKNOWN) > 0
