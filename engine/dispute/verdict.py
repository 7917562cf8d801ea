"""Verdicts: is a proposed action legal at a position, and if not, by which rule and why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from engine.corrections import Correction
from engine.dispute.claims import DisputedClaim, check_claims
from engine.dispute.facts import (
    EffectNote,
    RuleRef,
    brief_text,
    effect_notes,
    effect_said,
    plain,
    position_dict,
    position_facts,
    rule_ref,
)
from engine.dispute.notation import ActionError, format_action, propose
from engine.hidden import UNDETERMINED
from engine.reader import check_events
from engine.record import Event, Header, event_to_dict
from engine.rules import RuleViolation
from engine.ruleset import GameState, Ruleset
from engine.wording import seat_label


@dataclass(slots=True)
class Verdict:
    """The answer to "is this action legal here?"."""

    at: int
    """The position: the seq of the last event before the proposed action."""
    action: dict[str, Any]
    """The proposed action in record form (its seq is ``at + 1``)."""
    notation: str
    actor: int | None
    legal: bool
    rule: RuleRef | None
    """The rule that forbids it (None when legal)."""
    message: str | None
    facts: dict[str, Any]
    """The facts the rule looked at (from the violation)."""
    position: dict[str, Any]
    position_facts: dict[str, Any]
    effects: list[EffectNote] = field(default_factory=list)
    """What would follow if it were played (legal actions only)."""
    disputed_claims: list[DisputedClaim] = field(default_factory=list)

    @property
    def undetermined(self) -> list[EffectNote]:
        """Checks the rules could not decide from what a game recorded at the table knows."""
        return [e for e in self.effects if e.kind == UNDETERMINED]

    @property
    def status(self) -> Literal["legal", "illegal", "disputed", "undetermined"]:
        """``disputed``: the action is legal but a claim it carries is not borne out;
        ``undetermined``: no rule is known to forbid it, but a rule needs a fact nobody saw
        (engine.hidden) to say it is legal."""
        if not self.legal:
            return "illegal"
        if self.disputed_claims:
            return "disputed"
        return "undetermined" if self.undetermined else "legal"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "legal": self.legal,
            "at": self.at,
            "seq": self.at + 1,
            "action": self.action,
            "notation": self.notation,
            "actor": self.actor,
            "rule": None if self.rule is None else self.rule.to_dict(),
            "message": self.message,
            "facts": self.facts,
            "position": self.position,
            "position_facts": self.position_facts,
            "effects": [e.to_dict() for e in self.effects],
            "disputed_claims": [d.to_dict() for d in self.disputed_claims],
            "undetermined": [{"rule": e.rule, "needs": e.data.get("needs", "")} for e in self.undetermined],
        }


class JudgeError(ActionError):
    """A proposed action the rules code could not judge (it names something the game lacks)."""


def judge(
    ruleset: Ruleset[Any, Any],
    state: GameState,
    action: str | dict[str, Any] | Event,
    *,
    n_seats: int,
    seat: int | None = None,
    history: tuple[Header, Sequence[Event]] | None = None,
) -> Verdict:
    """Is ``action`` legal at ``state``? ``state`` is left as it was.

    Any seat may be asked about, on its turn or off it: the rules decide, exactly as they do
    when a record is checked, so a verdict and ``warren check`` always cite the same rule.
    A correction (engine.corrections) rewrites the past, so it is judged with ``history``,
    the events up to the position: the game is folded again as corrected.
    """
    event = propose(ruleset, state, action, n_seats=n_seats, seat=seat)
    trial = ruleset.copy_state(state)
    if isinstance(event, Correction):
        if history is None:
            raise JudgeError("a correction is judged with the game's events: open the game with them")
        return _judge_correction(ruleset, state, event, history, base_of(ruleset, state, event))
    base = base_of(ruleset, state, event)
    try:
        effects = ruleset.apply(trial, event)
    except RuleViolation as exc:
        return Verdict(legal=False, rule=rule_ref(ruleset, exc.rule), message=exc.message,
                       facts=plain(exc.facts), **base)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        # The rules code met a value it has no name for (a card or slot that does not
        # exist): the action is unreadable in this game rather than illegal by a rule.
        raise JudgeError(f"{base['notation']!r} names something this {ruleset.slug} game does "
                         f"not have ({type(exc).__name__}: {exc})") from None
    return Verdict(legal=True, rule=None, message=None, facts={},
                   effects=effect_notes(ruleset, effects),
                   disputed_claims=check_claims(ruleset, event.seq, event.claims, effects), **base)


def base_of(ruleset: Ruleset[Any, Any], state: GameState, event: Event) -> dict[str, Any]:
    """What every verdict on ``event`` at ``state`` says of the position and the action."""
    return {
        "at": state.seq,
        "action": event_to_dict(event),
        "notation": format_action(ruleset, event),
        "actor": event.actor,
        "position": position_dict(ruleset, state),
        "position_facts": position_facts(ruleset, state),
    }


def _judge_correction(ruleset: Ruleset[Any, Any], state: GameState, event: Correction,
                      history: tuple[Header, Sequence[Event]], base: dict[str, Any]) -> Verdict:
    """A correction is legal when the game, folded again as corrected, stays legal up to it."""
    header, events = history
    found = check_events(ruleset, header, [*events, event])
    if found is not None:
        message = found.message if found.seq == event.seq else \
            f"{found.message} (event {found.seq}, once the correction is applied)"
        return Verdict(legal=False, rule=rule_ref(ruleset, found.rule), message=message,
                       facts=plain(found.facts), **base)
    effects = ruleset.apply(ruleset.copy_state(state), event)
    return Verdict(legal=True, rule=None, message=None, facts={}, effects=effect_notes(ruleset, effects),
                   **base)


def action_said(verdict: Verdict, names: Sequence[str] | None,
              ruleset: Ruleset[Any, Any] | None) -> str | None:
    """The proposed action in the game's words (``Ada trades Bo ...``), as its proposer
    typed it; None where the ruleset cannot read it back (the notation is shown instead)."""
    if ruleset is None:
        return None
    kind = ruleset.events_by_type.get(str(verdict.action.get("type")))
    if kind is None:
        return None
    try:
        event = msgspec.convert(verdict.action, kind)
    except msgspec.ValidationError:
        return None
    return ruleset.describe(event, names)


def render_verdict(verdict: Verdict, names: Sequence[str] | None = None,
                   ruleset: Ruleset[Any, Any] | None = None) -> str:
    """A verdict as a few readable lines; with the ruleset, its facts are in the game's
    words (``top card: Q♥``) and players are named."""
    def who(seat: int | None) -> str:
        if seat is None:
            return "the table"
        return seat_label(seat, names)

    def then(note: EffectNote) -> str:
        return note.line() if ruleset is None else effect_said(ruleset, note, names or ())

    def facts(found: dict[str, Any]) -> str:
        if ruleset is not None:
            return "; ".join(ruleset.describe_fact(k, v, names or ()) for k, v in found.items())
        return ", ".join(f"{k}={brief_text(v)}" for k, v in found.items())

    pos = verdict.position
    acting = "game over" if pos["over"] else "to act: " + (", ".join(who(s) for s in pos["to_act"])
                                                           or "the table")
    phase = ruleset.phase_text(pos["phase"]) if ruleset is not None else pos["phase"]
    head = f"at seq {verdict.at} (turn {pos['turn']}, round {pos['round']}, {phase}, {acting})"
    proposed = action_said(verdict, names, ruleset) or f"{who(verdict.actor)}: {verdict.notation}"
    lines = [head, f"proposed: {proposed}"]
    if verdict.status == "undetermined":
        lines.append("verdict: UNDETERMINED (no rule is known to forbid it, but the record does not "
                     "show enough to say it is legal)")
        lines += [f"  {e.rule}: {e.data.get('needs', '')} ({e.text})" for e in verdict.undetermined]
        lines += [f"  then: {then(e)}" for e in verdict.effects if e.kind != UNDETERMINED]
    elif verdict.legal:
        lines.append("verdict: LEGAL" if not verdict.disputed_claims else
                     "verdict: LEGAL, but a claim is DISPUTED")
        lines += [f"  then: {then(e)}" for e in verdict.effects]
        for d in verdict.disputed_claims:
            lines.append(f"  disputed claim [{d.rule or '?'}]: {d.message}")
    else:
        assert verdict.rule is not None
        message = ruleset.say(verdict.message or "", names) if ruleset is not None else verdict.message
        lines.append(f"verdict: ILLEGAL by {verdict.rule.id}: {message}")
        lines.append(f"  rule: {verdict.rule.text}")
        lines.append(f"  source: {verdict.rule.source}")
        if verdict.facts:
            lines.append("  facts: " + facts(verdict.facts))
    if verdict.position_facts:
        if ruleset is not None:
            said = "; ".join(ruleset.describe_position_fact(k, v, names or ())
                             for k, v in verdict.position_facts.items())
        else:
            said = facts(verdict.position_facts)
        lines.append("  position: " + said)
    return "\n".join(lines)
