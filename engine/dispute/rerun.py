"""Re-running a whole game under other header options, beside the game as recorded."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from engine.dispute.facts import EffectNote, brief_text, effect_notes, effect_said, plain, rule_ref, short
from engine.record import Event, Header
from engine.rules import RuleViolation
from engine.ruleset import GameState, Ruleset
from engine.wording import and_list, seat_name


def _result(ruleset: Ruleset[Any, Any], state: GameState, event: Event) -> tuple[str, Any]:
    """("legal", effects) or ("illegal", violation); ``state`` advances when legal."""
    try:
        return "legal", ruleset.apply(state, event)
    except RuleViolation as exc:
        return "illegal", exc


def _result_dict(ruleset: Ruleset[Any, Any], result: tuple[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    status, value = result
    if status == "illegal":
        return {"status": "illegal", "rule": rule_ref(ruleset, value.rule).to_dict(),
                "message": value.message, "facts": plain(value.facts)}
    return {"status": "legal", "effects": [e.to_dict() for e in effect_notes(ruleset, value)]}


def _same_result(a: tuple[str, Any] | None, b: tuple[str, Any] | None) -> bool:
    if a is None or b is None:
        return a is b
    if a[0] != b[0]:
        return False
    if a[0] == "illegal":
        return bool(a[1].rule == b[1].rule)
    return bool(a[1] == b[1])


@dataclass(slots=True)
class GameEnd:
    """How a replay ended: over (with the outcome), stopped by an illegal event, or unfinished."""

    status: Literal["over", "stopped", "unfinished"]
    last_seq: int
    outcome: dict[str, Any] | None = None
    violation: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "last_seq": self.last_seq, "outcome": self.outcome,
                "violation": self.violation}

    def line(self, ruleset: Ruleset[Any, Any] | None = None, names: Sequence[str] = ()) -> str:
        """How it ended, in words: the winners and scores by player, a refusal as said."""
        if self.status == "over" and self.outcome is not None:
            o = self.outcome
            winners = and_list([seat_name(s, names) for s in o.get("winners") or []])
            scores = o.get("scores")
            said = (", scores " + ", ".join(f"{seat_name(s, names)} {n}" for s, n in enumerate(scores))
                    if isinstance(scores, list) else "")
            reason = str(o.get("reason", "")).replace("_", " ")
            return f"over after event {self.last_seq}: {winners} won{said} ({reason}, {o['rule']})"
        if self.status == "stopped" and self.violation is not None:
            v = self.violation
            message = ruleset.say(v["message"], names) if ruleset is not None else v["message"]
            return f"stopped at event {v['seq']} by {v['rule']}: {message}"
        return f"unfinished after event {self.last_seq}"


def _end(ruleset: Ruleset[Any, Any], state: GameState, stop: tuple[int, RuleViolation] | None) -> GameEnd:
    if stop is not None:
        seq, exc = stop
        return GameEnd("stopped", state.seq, violation={"seq": seq, "rule": exc.rule, "message": exc.message})
    outcome = ruleset.outcome(state)
    if outcome is not None:
        return GameEnd("over", state.seq, outcome=plain(outcome))
    return GameEnd("unfinished", state.seq)


@dataclass(slots=True)
class RerunDifference:
    seq: int
    what: Literal["verdict", "effects"]
    original: dict[str, Any] | None
    variant: dict[str, Any] | None
    event: str

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "what": self.what, "event": self.event,
                "original": self.original, "variant": self.variant}


@dataclass(slots=True)
class Rerun:
    """A game replayed under other options, beside the game as recorded."""

    changed: dict[str, Any]
    """The options that differ: name -> {"original": value, "variant": value}."""
    events: int
    first_difference: RerunDifference | None
    differing: int
    """How many events got a different verdict or different effects."""
    original: GameEnd
    variant: GameEnd

    @property
    def outcome_differs(self) -> bool:
        return self.original.to_dict() != self.variant.to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "changed": self.changed,
            "events": self.events,
            "first_difference": None if self.first_difference is None else self.first_difference.to_dict(),
            "differing": self.differing,
            "original": self.original.to_dict(),
            "variant": self.variant.to_dict(),
            "outcome_differs": self.outcome_differs,
        }

    def render(self, ruleset: Ruleset[Any, Any] | None = None, names: Sequence[str] = ()) -> str:
        """The rerun in words (with the ruleset: its effects and refusals as the table says
        them, players by name); the data, hashes included, is in :meth:`to_dict`."""
        changed = ", ".join(f"{k.replace('_', ' ')} {_option(v['original'])} -> {_option(v['variant'])}"
                            for k, v in self.changed.items())
        lines = [f"options changed: {changed or 'none'}"]
        d = self.first_difference
        if d is None:
            lines.append(f"no verdict or effect differs over {self.events} events")
        else:
            lines.append(f"first difference at event {d.seq} ({d.what}): {d.event}")
            for label, side in (("original", d.original), ("variant", d.variant)):
                lines.append(f"  {label}: {_side_text(side, ruleset, names)}")
            lines.append(f"{self.differing} event(s) differ in all")
        lines.append(f"original: {self.original.line(ruleset, names)}")
        lines.append(f"variant:  {self.variant.line(ruleset, names)}")
        lines.append("the outcome differs" if self.outcome_differs else "the outcome is the same")
        return "\n".join(lines)


def _option(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return and_list([str(v).replace("_", " ") for v in value]) if value else "none"
    return str(value).replace("_", " ")


def _side_text(side: dict[str, Any] | None, ruleset: Ruleset[Any, Any] | None,
               names: Sequence[str]) -> str:
    if side is None:
        return "(not reached: the replay had already stopped)"
    if side["status"] == "illegal":
        message = ruleset.say(side["message"], names) if ruleset is not None else side["message"]
        return f"ILLEGAL by {side['rule']['id']}: {message}"
    if ruleset is None:
        effects = "; ".join(f"{e['kind']} [{e['rule']}] {brief_text(e['data'])}" for e in side["effects"])
    else:
        effects = "; ".join(effect_said(ruleset, EffectNote(**e), names, paraphrase=False)
                            for e in side["effects"])
    return "legal" + (f": {effects}" if effects else ", no effects")


def variant_header(ruleset: Ruleset[Any, Any], header: Header, options: dict[str, Any]) -> Header:
    """``header`` with ``options`` laid over its options (checked by the ruleset)."""
    variant = msgspec.structs.replace(header, options={**header.options, **options})
    ruleset.check_header(variant)
    return variant


def rerun(
    ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event], options: dict[str, Any]
) -> Rerun:
    """Replay ``events`` under ``header`` and under ``header`` with ``options`` side by side."""
    variant = variant_header(ruleset, header, options)
    before = msgspec.to_builtins(ruleset.options(header))
    after = msgspec.to_builtins(ruleset.options(variant))
    changed = {k: {"original": before.get(k), "variant": after.get(k)}
               for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}
    a, b = ruleset.setup(header), ruleset.setup(variant)
    stop_a: tuple[int, RuleViolation] | None = None
    stop_b: tuple[int, RuleViolation] | None = None
    first: RerunDifference | None = None
    differing = 0
    for event in events:
        if stop_a is not None and stop_b is not None:
            break
        ra = None if stop_a is not None else _result(ruleset, a, event)
        rb = None if stop_b is not None else _result(ruleset, b, event)
        if ra is not None and ra[0] == "illegal":
            stop_a = (event.seq, ra[1])
        if rb is not None and rb[0] == "illegal":
            stop_b = (event.seq, rb[1])
        if ra is None or rb is None:
            continue  # one side has stopped: it is followed only to see how it ends
        if not _same_result(ra, rb):
            differing += 1
            if first is None:
                both_legal = ra is not None and rb is not None and ra[0] == rb[0] == "legal"
                what: Literal["verdict", "effects"] = "effects" if both_legal else "verdict"
                # the position before it, for the words of what it names by position
                at = ruleset.setup(header)
                ruleset.fold(at, events[:event.seq - 1])
                said = ruleset.describe(event, [p.name for p in header.players], before=at)
                first = RerunDifference(event.seq, what, _result_dict(ruleset, ra),
                                        _result_dict(ruleset, rb), short(said))
    return Rerun(changed, len(events), first, differing, _end(ruleset, a, stop_a), _end(ruleset, b, stop_b))
