"""Claims: consequences a record says followed an event, checked against what the engine derives.

A claim the engine does not derive is a *disputed claim*, reported apart from an illegal
action: the action stands, the claimed consequence does not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.dispute.facts import brief_text, plain, plain_values
from engine.dispute.notation import json_token
from engine.hidden import is_settled, is_undetermined
from engine.reader import GameVisitor, walk
from engine.record import Event, Header
from engine.rules import Effect, Violation
from engine.ruleset import GameState, Ruleset


@dataclass(frozen=True, slots=True)
class DisputedClaim:
    """A consequence a record claims at ``seq`` that the engine does not derive there."""

    seq: int
    rule: str | None
    """The rule the claim invokes (or the rule of the derived effect of the claimed kind)."""
    claim: dict[str, Any]
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "rule": self.rule, "claim": self.claim, "message": self.message}


def _same(claimed: Any, derived: Any) -> bool:
    """Equal as JSON values (so ``true`` is not ``1``); lists of plain values in any order."""
    if isinstance(claimed, list) and isinstance(derived, list) and plain_values([*claimed, *derived]):
        return Counter(map(json_token, claimed)) == Counter(map(json_token, derived))
    return json_token(claimed) == json_token(derived)


def claim_matches(claim: dict[str, Any], effect: Effect) -> bool:
    """Does ``effect`` bear ``claim`` out? Every particular the claim names must agree."""
    for key, value in claim.items():
        if key == "effect":
            if effect.kind != value:
                return False
        elif key == "rule":
            if effect.rule != value:
                return False
        elif key not in effect.data or not _same(value, plain(effect.data[key])):
            return False
    return True


def check_claims(
    ruleset: Ruleset[Any, Any], seq: int, claims: Sequence[dict[str, Any]] | None, effects: Sequence[Effect]
) -> list[DisputedClaim]:
    """The claims of event ``seq`` that none of its derived effects bears out."""
    disputed = []
    for claim in claims or ():
        claim = dict(claim)
        kind, rule = claim.get("effect"), claim.get("rule")
        derived = ", ".join(f"{e.kind} [{e.rule}]" for e in effects) or "no effect"
        if kind is None and rule is None:
            disputed.append(DisputedClaim(seq, None, claim, "a claim names an 'effect' or a 'rule'"))
            continue
        if any(claim_matches(claim, e) for e in effects):
            continue
        if rule is None:
            rule = next((e.rule for e in effects if e.kind == kind), None)
        if isinstance(rule, str) and rule not in ruleset.rulebook:
            message = f"claims rule {rule}, which is not in the rulebook of {ruleset.slug}"
        else:
            what = " ".join(f"{k}={brief_text(v)}" for k, v in claim.items())
            message = f"the engine does not derive {what} at seq {seq}; it derives: {derived}"
        disputed.append(DisputedClaim(seq, rule if isinstance(rule, str) else None, claim, message))
    return disputed


@dataclass(frozen=True, slots=True)
class Undetermined:
    """A check the rules could not decide at ``seq`` from what the record knows: the rule,
    and the unknown fact it needs ("legal only if seat 1 held no card of rank 9 or higher")."""

    seq: int
    rule: str
    needs: str

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "rule": self.rule, "needs": self.needs}


@dataclass(slots=True)
class ClaimsReport:
    """Every claim of a record checked against what the engine derives."""

    claims: int
    """How many claims the record carries (up to the first illegal event)."""
    disputed: list[DisputedClaim]
    violation: Violation | None
    """The first illegal event, if any: claims after it are not checked."""
    undetermined: list[Undetermined] = field(default_factory=list)
    """Checks the rules could not decide from what the record knows (engine.hidden)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "disputed": [d.to_dict() for d in self.disputed],
            "undetermined": [u.to_dict() for u in self.undetermined],
            "violation": None if self.violation is None else {
                "seq": self.violation.seq, "rule": self.violation.rule, "message": self.violation.message,
            },
        }


class _ClaimsVisitor(GameVisitor[ClaimsReport]):
    wants_effects = True

    def __init__(self, ruleset: Ruleset[Any, Any]) -> None:
        self.ruleset = ruleset
        self.count = 0
        self.disputed: list[DisputedClaim] = []
        self.undetermined: list[Undetermined] = []
        self.violation: Violation | None = None

    def visit_event(self, event: Event, effects: tuple[Effect, ...], state: GameState) -> None:
        if event.claims:
            self.count += len(event.claims)
            self.disputed += check_claims(self.ruleset, event.seq, event.claims, effects)
        for effect in effects:
            if is_undetermined(effect):
                needs = str(effect.data.get("needs", ""))
                self.undetermined.append(Undetermined(event.seq, effect.rule, needs))
            elif is_settled(effect):  # a later event showed it legal: no longer open
                self.undetermined = [u for u in self.undetermined
                                     if (u.seq, u.rule) != (effect.data.get("seq"), effect.rule)]

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.violation = violation

    def result(self) -> ClaimsReport:
        return ClaimsReport(self.count, self.disputed, self.violation, self.undetermined)


def record_claims(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event]) -> ClaimsReport:
    """Replay a record and check every claim it carries (disputed claims are not violations)."""
    return walk(ruleset, header, events, _ClaimsVisitor(ruleset))
