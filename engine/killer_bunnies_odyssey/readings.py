"""The two readings of the hand size, judged side by side (ODY-HAND-1; docs/rulings.md R-ODY-2).

The rulebook's set-up text gives every player seven cards, its mechanics text a five-card
hand (its own transcriber flags it). warren plays either, by the option ``hand_size``; where
the two readings give a position different verdicts (a sixth card drawn at the start, a
Hexascrewup, a trade of hand cards), the verdict says so: a legal action carries an effect
``reading_differs`` with the other reading's verdict and rule, and a refused one names the
other reading's verdict in its message and facts. A handler passes the check that depends on
the hand size as a function of it, so one check serves both readings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from engine.killer_bunnies_odyssey.numbers import HAND_SIZES
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.rules import Effect, RuleViolation

Check = Callable[[int], None]
"""A guard that depends on the hand size: raises RuleViolation when the action is illegal
under a hand of that size."""


def other_size(state: OdysseyState) -> int:
    return next(h for h in HAND_SIZES if h != state.opts.hand_size)


def verdict_under(check: Check, size: int) -> RuleViolation | None:
    try:
        check(size)
    except RuleViolation as exc:
        return exc
    return None


def judged(state: OdysseyState, check: Check) -> list[Effect]:
    """Run ``check`` under the game's reading (raising as the game rules) and report the other
    reading's verdict where it differs."""
    here = state.opts.hand_size
    there = other_size(state)
    found = verdict_under(check, here)
    elsewhere = verdict_under(check, there)
    if found is not None:
        if elsewhere is None:
            raise RuleViolation(found.rule, f"{found.message} (under the {there}-card reading it "
                                f"would be legal)", **found.facts,
                                other_reading={"hand_size": there, "verdict": "legal"})
        raise RuleViolation(found.rule, f"{found.message} (illegal under the {there}-card reading "
                            "as well)", **found.facts,
                            other_reading={"hand_size": there, "verdict": "illegal",
                                           "rule": elsewhere.rule})
    if elsewhere is None:
        return []
    return [Effect("ODY-HAND-1", "reading_differs", {
        "hand_size": here, "other_hand_size": there, "other_verdict": "illegal",
        "other_rule": elsewhere.rule, "other_message": elsewhere.message})]


def refuse_under(size: int, rule: str, message: str, **facts: object) -> NoReturn:
    raise RuleViolation(rule, message, hand_size=size, **facts)
