"""Corrections (REC-FIX-1, REC-FIX-2): a wrong entry is put right by a later event, and
replay folds the game as corrected, in every ruleset."""

from __future__ import annotations

from typing import Any

from engine.bunnies import RULESET as BUNNIES
from engine.corrections import Correction, Struck
from engine.reader import check_events
from engine.record import FORMAT_VERSION, Event, Header, Player
from engine.replay import Replay
from tests.scenarios.bunnies import script_events, stack_deck

HEADER = Header(warren=FORMAT_VERSION, kind="header", game_id="fix", ruleset="bunnies",
                options={"first_seat": 0}, players=[Player(seat=0, name="Ann"), Player(seat=1, name="Bo")],
                source="recorded", created="2026-12-01T10:00:00Z")
DECK = stack_deck((["9C", "3D", "4D", "5S", "6S", "7S", "8S"], ["TC", "TD", "JH", "QH", "KH", "AH", "2C"]))


def game(*actions: str) -> list[Event]:
    return script_events(DECK, actions)


def fix(seq: int, corrects: int, reason: str = "typed the wrong card", **event: Any) -> Correction:
    return Correction(seq=seq, actor=None, corrects=corrects, reason=reason, event=event or None)


def test_a_correction_replaces_the_wrong_entry_and_later_events_are_checked_again() -> None:
    # Seat 0 really laid the 3D, but the scorekeeper typed 9C; seat 1 then laid the TC.
    events = game("0 draw", "0 lay 9C", "1 draw", "1 lay TC")
    events.append(fix(6, 3, type="lay", actor=0, cards=["3D"]))
    assert check_events(BUNNIES, HEADER, events) is None
    replay = Replay(BUNNIES, HEADER, events)
    assert replay.state_at(3).pile == ["3D"]
    assert "9C" in replay.final.hands[0] and "3D" not in replay.final.hands[0]
    step = replay.step(6)
    assert [e.kind for e in step.effects] == ["corrected"] and step.effects[0].rule == "REC-FIX-1"


def test_a_correction_that_makes_a_later_event_illegal_is_reported_there() -> None:
    # Corrected to the 8S, seat 1's recorded 2C no longer beats the pile: BUN-LAY-2 at seq 5.
    events = game("0 draw", "0 lay 3D", "1 draw", "1 lay 2C")
    events.append(fix(6, 3, type="lay", actor=0, cards=["8S"]))
    found = check_events(BUNNIES, HEADER, events)
    assert found is not None and (found.seq, found.rule) == (5, "BUN-LAY-2")


def test_striking_an_entry_leaves_a_position_where_nothing_happened() -> None:
    # The recorder's undo: seat 1's draw was entered twice.
    events = game("0 draw", "0 lay 3D", "1 draw", "1 draw")
    events.append(fix(6, 5, "entered twice"))
    assert check_events(BUNNIES, HEADER, events) is None
    replay = Replay(BUNNIES, HEADER, events)
    assert isinstance(replay.events[4], Struck)
    assert replay.state_at(5).hands == replay.state_at(4).hands
    without = check_events(BUNNIES, HEADER, game("0 draw", "0 lay 3D", "1 draw", "1 draw"))
    assert without is not None and without.rule == "BUN-DRAW-2"


def test_a_correction_must_name_an_earlier_event_and_say_why() -> None:
    base = game("0 draw", "0 lay 3D")
    for bad, why in [
        (fix(4, 4, type="draw", actor=1), "itself"),
        (fix(4, 9, type="draw", actor=1), "the future"),
        (fix(4, 2, "  ", type="draw", actor=0), "no reason"),
        (fix(4, 2, type="shuffle", actor=0), "not an event of the game"),
    ]:
        found = check_events(BUNNIES, HEADER, [*base, bad])
        assert found is not None and (found.seq, found.rule) == (4, "REC-FIX-2"), why
    twice = [*base, fix(4, 3, type="lay", actor=0, cards=["4D"]),
             fix(5, 4, type="lay", actor=0, cards=["5S"])]
    found = check_events(BUNNIES, HEADER, twice)
    assert found is not None and (found.seq, found.rule) == (5, "REC-FIX-2"), "a correction of a correction"


def test_an_earlier_illegal_event_is_reported_before_a_later_bad_correction() -> None:
    events = game("0 draw", "1 lay TC")  # seq 3 is out of turn
    events.append(fix(4, 9, type="draw", actor=1))
    found = check_events(BUNNIES, HEADER, events)
    assert found is not None and (found.seq, found.rule) == (3, "BUN-TURN-1")


def test_a_dispute_judges_a_correction_against_the_game_as_corrected() -> None:
    from engine.dispute import Dispute

    events = game("0 draw", "0 lay 3D", "1 draw", "1 lay 2C")  # seq 5 is illegal (BUN-LAY-2)...
    dispute = Dispute.of_record(BUNNIES, HEADER, events[:4])
    ok = dispute.verdict({"type": "correct", "actor": None, "corrects": 3, "reason": "it was the 4D",
                          "event": {"type": "lay", "actor": 0, "cards": ["4D"]}}, at=4)
    assert ok.status == "legal" and ok.effects[0].kind == "corrected"
    bad = dispute.verdict({"type": "correct", "actor": None, "corrects": 3, "reason": "",
                           "event": {"type": "lay", "actor": 0, "cards": ["4D"]}}, at=4)
    assert bad.status == "illegal" and bad.rule is not None and bad.rule.id == "REC-FIX-2"
    later = dispute.verdict({"type": "correct", "actor": None, "corrects": 2, "reason": "no draw",
                             "event": None}, at=4)
    assert later.status == "illegal" and later.rule is not None and later.rule.id == "BUN-DRAW-1"
    assert "once the correction is applied" in (later.message or "")


def test_a_branch_leaves_the_game_as_corrected() -> None:
    """A what-if branch forks the parent as replay folds it (the reader's walk): a struck
    double entry before the branch point is gone, as it is from every replay."""
    from engine.dispute.branch import plan_branch

    events = game("0 draw", "0 lay 3D", "1 draw", "1 draw")  # the second draw: BUN-DRAW-2...
    events.append(fix(6, 5, "entered twice"))  # ...struck by the scorekeeper
    plan = plan_branch(BUNNIES, HEADER, events, 6, ["lay TC"], seat=1, game_id="fix-b",
                       created="2026-12-01T11:00:00Z")
    assert [v.legal for v in plan.alternatives] == [True]
    assert plan.header.branch is not None and plan.header.branch.seq == 6
