"""Explaining a recorded event: the rules it answers to, its effects, and what it changed."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.dispute.claims import DisputedClaim, check_claims
from engine.dispute.facts import (
    EffectNote,
    RuleRef,
    brief_text,
    effect_notes,
    effect_said,
    plain_values,
    position_dict,
    rule_ref,
)
from engine.dispute.notation import event_tag, format_action, json_token
from engine.dispute.verdict import Verdict, judge
from engine.record import Event, event_to_dict
from engine.rules import RuleViolation
from engine.ruleset import GameState, Ruleset

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")
"""What a rule id looks like (``BUN-LAY-2``); used to find the rules an event type cites."""


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between two views, at ``path`` (``hands[1]``, ``blinds[0.3]``)."""

    path: str
    before: Any
    after: Any
    added: list[Any] | None = None
    removed: list[Any] | None = None
    """For lists of plain values: what came and went (as multisets)."""

    def to_dict(self) -> dict[str, Any]:
        out = {"path": self.path, "before": self.before, "after": self.after}
        if self.added is not None:
            out["added"], out["removed"] = self.added, self.removed
        return out

    def line(self) -> str:
        if self.added is not None:
            moved = [f"+{brief_text(v)}" for v in self.added]
            moved += [f"-{brief_text(v)}" for v in self.removed or ()]
            size = f"{len(self.before)} -> {len(self.after)}"
            if not moved:
                return f"{self.path}: reordered ({size})"
            return f"{self.path}: {' '.join(moved)} ({size})"
        if self.before is _MISSING:
            return f"{self.path}: new {brief_text(self.after)}"
        if self.after is _MISSING:
            return f"{self.path}: gone (was {brief_text(self.before)})"
        return f"{self.path}: {brief_text(self.before)} -> {brief_text(self.after)}"


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _path(parent: str, key: Any) -> str:
    return f"{parent}[{key}]" if parent else str(key)


def diff_views(
    before: Any, after: Any, path: str = "", skip: Iterable[str] = ("perspective", "seq")
) -> list[Change]:
    """What changed from one view to another, recursively, in a readable form."""
    skipped = set(skip) if not path else set()
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[Change] = []
        for key in [*before, *(k for k in after if k not in before)]:
            if key in skipped:
                continue
            b, a = before.get(key, _MISSING), after.get(key, _MISSING)
            if b is _MISSING or a is _MISSING:
                out.append(Change(_path(path, key), b, a))
            elif b != a:
                out += diff_views(b, a, _path(path, key))
        return out
    if isinstance(before, list) and isinstance(after, list):
        if plain_values(before) and plain_values(after):
            got = Counter(map(json_token, after))
            had = Counter(map(json_token, before))
            added = [json.loads(t) for t in (got - had).elements()]
            removed = [json.loads(t) for t in (had - got).elements()]
            return [Change(path, before, after, added, removed)]
        if len(before) == len(after):
            out = []
            for i, (b, a) in enumerate(zip(before, after, strict=True)):
                if b != a:
                    out += diff_views(b, a, _path(path, i))
            return out
    if before == after:
        return []
    return [Change(path, before, after)]


@dataclass(slots=True)
class Explanation:
    """A recorded event explained: rules, effects, and what it changed."""

    seq: int
    event: dict[str, Any]
    notation: str
    description: str
    actor: int | None
    before: dict[str, Any]
    after: dict[str, Any] | None
    legal: bool
    rules: list[tuple[RuleRef, str]]
    """Each rule with why it is listed: ``governs`` (the event type answers to it),
    ``effect`` (it caused an effect) or ``forbids`` (it makes the event illegal)."""
    effects: list[EffectNote]
    changes: list[Change]
    violation: Verdict | None = None
    disputed_claims: list[DisputedClaim] = field(default_factory=list)
    changes_said: list[str] = field(default_factory=list)
    """The changes in the game's words, players by name (Ruleset.describe_changes)."""
    effects_said: list[str] = field(default_factory=list)
    """The effects in the game's words (facts.effect_said); the data is in ``effects``."""
    phase_said: str = ""
    """The phase before the event as the table says it."""
    violation_said: str = ""
    """The refusal in the table's words (Ruleset.say)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "event": self.event,
            "notation": self.notation,
            "description": self.description,
            "actor": self.actor,
            "legal": self.legal,
            "position_before": self.before,
            "position_after": self.after,
            "rules": [{**r.to_dict(), "role": role} for r, role in self.rules],
            "effects": [e.to_dict() for e in self.effects],
            "changes": [c.to_dict() for c in self.changes],
            "changes_said": list(self.changes_said),
            "violation": None if self.violation is None else self.violation.to_dict(),
            "disputed_claims": [d.to_dict() for d in self.disputed_claims],
        }

    def render(self) -> str:
        b = self.before
        # the notation and the effects' data are for scripts: --json has them
        phase = self.phase_said or f"phase {b['phase']}"
        lines = [f"seq {self.seq} (turn {b['turn']}, {phase}): {self.description}"]
        if not self.legal and self.violation is not None and self.violation.rule is not None:
            lines.append(f"  ILLEGAL by {self.violation.rule.id}: "
                         f"{self.violation_said or self.violation.message}")
        lines.append("  rules:")
        lines += [f"    {r.id:<14} ({role}) {r.text}  [{r.source}]" for r, role in self.rules]
        if self.effects:
            lines.append("  effects:")
            lines += [f"    {line}" for line in self.effects_said or [e.line() for e in self.effects]]
        if self.changes_said or self.changes:
            lines.append("  what changed (as the referee saw it):")
            lines += [f"    {line}" for line in self.changes_said or [c.line() for c in self.changes]]
        for d in self.disputed_claims:
            lines.append(f"  disputed claim [{d.rule or '?'}]: {d.message}")
        return "\n".join(lines)


def event_rules(ruleset: Ruleset[Any, Any], event_type: type[Event]) -> list[str]:
    """The rules an event type answers to: declared by the ruleset as data
    (``Capabilities(event_rules={"lay": ("BUN-LAY-1", ...)})``), else the rule ids its
    docstring cites."""
    declared = ruleset.capabilities.event_rules
    tag = event_tag(event_type)
    if tag in declared:
        return list(declared[tag])
    found = RULE_ID.findall(event_type.__doc__ or "")
    ranged = []
    # "TNB-SET-1..4" cites a range of rules.
    for match in re.finditer(r"\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-)(\d+)\.\.(\d+)\b", event_type.__doc__ or ""):
        prefix, lo, hi = match.group(1), int(match.group(2)), int(match.group(3))
        ranged += [f"{prefix}{n}" for n in range(lo, hi + 1)]
    ids = []
    for rule_id in [*found, *ranged]:
        if rule_id in ruleset.rulebook and rule_id not in ids:
            ids.append(rule_id)
    return ids


def explain_step(
    ruleset: Ruleset[Any, Any], before: GameState, event: Event, *, n_seats: int,
    names: Sequence[str] | None = None,
) -> Explanation:
    """Explain ``event`` played at ``before`` (left unchanged); with ``names``, its
    description and changes call the players by name."""
    after = ruleset.copy_state(before)
    rules = [(rule_ref(ruleset, r), "governs") for r in event_rules(ruleset, type(event))]
    base: dict[str, Any] = {
        "seq": event.seq,
        "event": event_to_dict(event),
        "notation": format_action(ruleset, event),
        "description": ruleset.describe(event, names, before=before),
        "actor": event.actor,
        "before": position_dict(ruleset, before),
    }
    said_names = list(names) if names else [f"seat {s}" for s in range(n_seats)]
    base["phase_said"] = ruleset.phase_text(base["before"]["phase"])
    try:
        effects = ruleset.apply(after, event)
    except RuleViolation:
        verdict = judge(ruleset, before, event, n_seats=n_seats)
        assert verdict.rule is not None
        rules = [r for r in rules if r[0].id != verdict.rule.id] + [(verdict.rule, "forbids")]
        return Explanation(after=None, legal=False, rules=rules, effects=[], changes=[],
                           violation=verdict, violation_said=ruleset.say(verdict.message or "", names),
                           **base)
    seen = {r.id for r, _ in rules}
    for e in effects:
        if e.rule not in seen:
            seen.add(e.rule)
            rules.append((rule_ref(ruleset, e.rule), "effect"))
    seen_before, seen_after = ruleset.view(before, "referee"), ruleset.view(after, "referee")
    changes = diff_views(seen_before, seen_after)
    said = ruleset.describe_changes(seen_before, seen_after, said_names)
    notes = effect_notes(ruleset, effects)
    return Explanation(
        after=position_dict(ruleset, after), legal=True, rules=rules,
        effects=notes, changes=changes, changes_said=said,
        effects_said=[effect_said(ruleset, note, said_names) for note in notes],
        disputed_claims=check_claims(ruleset, event.seq, event.claims, effects), **base,
    )
