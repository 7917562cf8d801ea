"""Every refusal cites the most specific rule that forbids the action. The turn-order rules
(Quest's KBQ-TURN-4, Bunnies' BUN-TURN-1, KinderBunnies' KIN-TURN-1) refuse only a seat the
game is not waiting for at all; a seat that may act, but not this way, is refused by the rule
of what it owes or of what it tried (a second card without a triplet by KBQ-TRIP-1, a lost
turn by KBQ-TURN-5, a deal before the owed cut by ODY-SHUF-2...)."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec
import pytest

from engine.reader import read_record
from engine.registry import get_ruleset
from engine.rules import RuleViolation
from logstore.store.checking import check_path
from tests.engine.test_dispute_tables import SCENARIOS, TABLE_DATA, _judge

ROOT = Path(__file__).resolve().parents[2]
CATCH_ALL = {"killer-bunnies-quest": "KBQ-TURN-4", "bunnies": "BUN-TURN-1", "kinderbunnies": "KIN-TURN-1"}
ILLEGAL = sorted(p for p in (ROOT / "fixtures").rglob("illegal-*.jsonl")
                 if p.name.split("-seq-")[0].split("illegal-")[1] in CATCH_ALL.values())


@pytest.mark.parametrize(("slug", "index"), SCENARIOS)
def test_a_catch_all_in_the_dispute_tables_refuses_only_a_seat_nobody_waits_for(slug: str,
                                                                               index: int) -> None:
    scenario = TABLE_DATA[slug]["scenarios"][index]
    if scenario["verdict"] != "illegal" or scenario["rule"] != CATCH_ALL.get(TABLE_DATA[slug]["ruleset"]):
        return
    verdict, _, _ = _judge(slug, index)
    assert verdict.actor not in verdict.position["to_act"], (
        f"{scenario.get('note')}: {verdict.actor} may act here; a rule more specific than "
        f"{scenario['rule']} forbids this")


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_a_catch_all_illegal_fixture_is_an_action_out_of_turn(path: Path) -> None:
    record = read_record(path.read_bytes(), str(path))
    ruleset = get_ruleset(record.header.ruleset)
    checked = check_path(path)
    assert checked.violation is not None
    state = ruleset.setup(record.header)
    ruleset.fold(state, record.events[:checked.violation.seq - 1])
    bad = record.events[checked.violation.seq - 1]
    assert bad.actor not in ruleset.to_act(state), checked.violation.message


QUEST_GAMES = ["triplets", "gambles", "misfortunes-and-revivals", "join-leave-trade"]


@pytest.mark.parametrize("name", QUEST_GAMES)
def test_no_quest_seat_the_game_waits_for_is_refused_by_the_turn_order(name: str) -> None:
    """Every attempt the Quest dispute table tries (fixtures/make_quest_disputes.py), at every
    fourth position of a game: a seat that may act is never refused by KBQ-TURN-4."""
    sys.path.insert(0, str(ROOT / "fixtures"))
    try:
        import make_quest_disputes as table
    finally:
        sys.path.pop(0)
    path = ROOT / "fixtures" / "killer-bunnies-quest" / f"{name}.jsonl"
    record = read_record(path.read_bytes(), str(path))
    ruleset = get_ruleset("killer-bunnies-quest")
    state = ruleset.setup(record.header)
    caught = []
    for k, event in enumerate(record.events):
        if k % 4 == 0 and state.phase != "setup":
            waiting = set(ruleset.to_act(state))
            for attempt in table._attempts(state, None):
                if attempt.get("actor") not in waiting:
                    continue
                try:
                    proposed = msgspec.convert({**attempt, "seq": state.seq + 1},
                                               ruleset.events_by_type[attempt["type"]], strict=False)
                except msgspec.ValidationError:
                    continue
                try:
                    ruleset.apply(ruleset.copy_state(state), proposed)
                except RuleViolation as exc:
                    if exc.rule == "KBQ-TURN-4":
                        caught.append((state.seq, attempt, exc.message))
        ruleset.apply(state, event)
    assert not caught, caught[:3]
