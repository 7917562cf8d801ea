"""Shared helpers for the Trust No Bunny tests: positions built with the scenario writer."""

from __future__ import annotations

import copy
from typing import Any

from engine.reader import check_events
from engine.record import Event
from engine.rules import RuleViolation
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import HomeAction, Propose
from engine.trust_no_bunny.state import TnbState
from tests.scenarios.trust_no_bunny import Scenario

SLOTS = [name for cls in type.mro(TnbState) for name in getattr(cls, "__slots__", ())]


def snap(state: TnbState) -> dict[str, Any]:
    """Every field of a state, deep-copied: to show a refused event changed nothing."""
    return {name: copy.deepcopy(getattr(state, name)) for name in SLOTS}


def home(kind: type[HomeAction], **fields: Any) -> HomeAction:
    """A home action for :meth:`Scenario.night` (seq and actor are filled in there)."""
    return kind(seq=0, actor=None, **fields)


def started(**kw: Any) -> Scenario:
    g = Scenario(**kw)
    g.start()
    return g


def voting(team: list[int], **kw: Any) -> Scenario:
    g = started(**kw)
    g.muster()
    g.add(Propose, g.state.mayor, team=team)
    return g


def at_night(team: list[int], **kw: Any) -> Scenario:
    g = started(**kw)
    g.day(team)
    assert g.state.phase == "night"
    return g


def refuses(g: Scenario, rule: str, kind: type[Event], actor: int | None = None,
            **fields: Any) -> RuleViolation:
    """The event is refused with ``rule``, the state is untouched, and the fast fold agrees."""
    before = snap(g.state)
    bad = g.make(kind, actor, **fields)
    exc = g.attempt(kind, actor, **fields)
    assert exc is not None, f"{bad} was accepted; expected {rule}"
    assert exc.rule == rule, f"expected {rule}, got {exc.rule}: {exc.message}"
    assert snap(g.state) == before, "a refused event changed the state"
    found = check_events(RULESET, g.header, [*g.events, bad])
    assert found is not None and found.rule == rule and found.seq == bad.seq
    return exc


def refuses_event(g: Scenario, rule: str, bad: Event) -> RuleViolation:
    """As :func:`refuses`, for an event built by the caller (claims, odd fields)."""
    import msgspec

    bad = msgspec.structs.replace(bad, seq=g.seq)
    before = snap(g.state)
    try:
        g.add_event(bad)
    except RuleViolation as exc:
        assert exc.rule == rule, f"expected {rule}, got {exc.rule}: {exc.message}"
        assert snap(g.state) == before, "a refused event changed the state"
        found = check_events(RULESET, g.header, [*g.events, bad])
        assert found is not None and found.rule == rule and found.seq == bad.seq
        return exc
    raise AssertionError(f"{bad} was accepted; expected {rule}")
