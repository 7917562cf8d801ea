"""What-if branches, the pure part: the parent's events up to a seq, alternative events, and
where the parent's recorded continuation stops being legal (the store keeps branches: see
logstore.store.branches)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.dispute.facts import short
from engine.dispute.notation import ActionError
from engine.dispute.verdict import Verdict, judge
from engine.reader import GameVisitor, walk
from engine.record import Branch, Event, Header
from engine.replay import PositionError
from engine.rules import RuleViolation, Violation, WarrenError
from engine.ruleset import GameState, Ruleset


@dataclass(slots=True)
class BranchDivergence:
    """Where the parent's recorded continuation stops being legal on a branch."""

    parent_seq: int
    branch_seq: int
    rule: str
    message: str
    event: str

    def to_dict(self) -> dict[str, Any]:
        return {"parent_seq": self.parent_seq, "branch_seq": self.branch_seq, "rule": self.rule,
                "message": self.message, "event": self.event}


@dataclass(slots=True)
class BranchPlan:
    """A what-if branch: the parent's events up to ``at``, then the alternatives."""

    header: Header
    events: list[Event]
    at: int
    alternatives: list[Verdict]
    replaced: int
    """How many parent events the alternatives stand in for (the continuation starts after)."""
    continued: int
    """How many events of the parent's continuation stay legal on the branch."""
    continuation: int
    """How many events the parent's continuation has."""
    divergence: BranchDivergence | None
    """The first continuation event that is illegal on the branch (None: all stay legal)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.header.game_id,
            "parent": None if self.header.branch is None else self.header.branch.game_id,
            "at": self.at,
            "alternatives": [v.to_dict() for v in self.alternatives],
            "replaced": self.replaced,
            "continued": self.continued,
            "continuation": self.continuation,
            "divergence": None if self.divergence is None else self.divergence.to_dict(),
        }


class IllegalAlternative(WarrenError):
    """A what-if alternative that the rules forbid at its position."""

    def __init__(self, index: int, verdict: Verdict) -> None:
        assert verdict.rule is not None
        super().__init__(f"alternative {index} ({verdict.notation!r} at seq {verdict.at + 1}) is illegal "
                         f"by {verdict.rule.id}: {verdict.message}")
        self.verdict = verdict


class IdenticalBranch(WarrenError):
    """A what-if branch whose alternatives are the events the parent recorded there: it
    would be the parent game again, so none is made."""


def _same_event(a: Event, b: Event) -> bool:
    """Two events that record the same thing (their hashes and claims aside)."""
    def bare(e: Event) -> Any:
        return msgspec.to_builtins(msgspec.structs.replace(e, hash=None, claims=None))

    return bool(bare(a) == bare(b))


class _Folded(GameVisitor[GameState]):
    """The state at the end of a walk; the parent's own violation is raised as it was."""

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        refused = RuleViolation(violation.rule, violation.message, **violation.facts)
        refused.seq = violation.seq
        raise refused

    def end_game(self, state: GameState) -> None:
        self.state = state

    def result(self) -> GameState:
        return self.state


class _Followed(GameVisitor["_Followed"]):
    """How far a continuation goes on a branch, and the rule that stops it."""

    def __init__(self) -> None:
        self.applied = 0
        self.violation: Violation | None = None

    def begin_game(self, header: Header, ruleset: Ruleset[Any, Any], state: GameState) -> None:
        self.begin = state.seq

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.violation = violation

    def end_game(self, state: GameState) -> None:
        self.applied = state.seq - self.begin

    def result(self) -> _Followed:
        return self


def plan_branch(
    ruleset: Ruleset[Any, Any],
    header: Header,
    events: Sequence[Event],
    at: int,
    actions: Sequence[str | dict[str, Any] | Event],
    *,
    game_id: str,
    created: str,
    seat: int | None = None,
    replaces: int | None = None,
    start: GameState | None = None,
) -> BranchPlan:
    """Fork ``events`` after seq ``at`` with ``actions`` and follow the parent's continuation.

    The alternatives stand in for the next ``replaces`` parent events (default: as many as
    there are alternatives); the parent's events after those are then played on the branch,
    renumbered, until the first one the rules refuse there: that is the divergence.
    Raises :class:`IllegalAlternative` if an alternative itself is illegal, and
    :class:`IdenticalBranch` if the alternatives are just what the parent recorded there.
    """
    if not actions:
        raise ActionError("a branch needs at least one alternative action")
    last = len(events)
    if not 0 <= at <= last:
        raise PositionError(f"seq {at} is out of range: this game has positions 0..{last}")
    replaced = len(actions) if replaces is None else replaces
    if replaced < 0:
        raise ActionError("the number of parent events replaced cannot be negative")
    n_seats = len(header.players)
    # The parent as every replay folds it (the reader's walk: corrections honoured).
    state = walk(ruleset, header, events[:at], _Folded()) if start is None else ruleset.copy_state(start)
    branch_events = list(events[:at])
    verdicts: list[Verdict] = []
    for i, action in enumerate(actions, start=1):
        verdict = judge(ruleset, state, action, n_seats=n_seats, seat=seat)
        if not verdict.legal:
            raise IllegalAlternative(i, verdict)
        event = msgspec.convert(verdict.action, ruleset.events_by_type[verdict.action["type"]])
        ruleset.apply(state, event)
        branch_events.append(event)
        verdicts.append(verdict)
    recorded = list(events[at:at + replaced])
    if replaced == len(verdicts) and len(recorded) == replaced and all(
            _same_event(alt, rec) for alt, rec in zip(branch_events[at:], recorded, strict=True)):
        shown = "; ".join(v.notation for v in verdicts)
        raise IdenticalBranch(
            f"the alternative ({shown}) is what the game recorded after seq {at}: the branch would be "
            "the same game as its parent. Propose a different action, or use --replaces 0 to insert it")
    continuation = list(events[at + replaced:])
    # The parent's continuation, renumbered after the branch's own events, walked on from
    # the branch's state until the first event its rules refuse there.
    first = state.seq + 1
    renumbered = [msgspec.structs.replace(e, seq=first + i, hash=None) for i, e in enumerate(continuation)]
    followed = walk(ruleset, header, renumbered, _Followed(), start=state)
    continued = followed.applied
    divergence = None
    if followed.violation is not None:
        original = continuation[continued]
        # described in the position it was refused in (a refused event changes nothing)
        said = ruleset.describe(original, [p.name for p in header.players], before=state)
        divergence = BranchDivergence(original.seq, first + continued, followed.violation.rule,
                                      followed.violation.message, short(said))
    branch_header = msgspec.structs.replace(
        header, game_id=game_id, created=created, branch=Branch(game_id=header.game_id, seq=at), hash=None)
    return BranchPlan(branch_header, branch_events, at, verdicts, replaced, continued,
                      len(continuation), divergence)
