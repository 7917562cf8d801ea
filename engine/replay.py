"""Replay a game to any position, with snapshots so that a seek is cheap.

The fold runs once, keeping a copy of the state every ``every`` events; a seek copies the
newest snapshot at or before the target and applies at most ``every - 1`` events.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from engine.reader import GameVisitor, walk
from engine.record import Event, Header
from engine.rules import Effect, Violation, WarrenError
from engine.ruleset import GameState, Perspective, Ruleset

__all__ = ["SNAPSHOT_EVERY", "Position", "PositionError", "Replay", "Step", "Violation", "position_of"]

SNAPSHOT_EVERY = 64
"""Default snapshot spacing K: a seek applies at most K - 1 events."""


class Position(msgspec.Struct, frozen=True):
    """Where a game stands after ``seq``."""

    seq: int
    round: int
    turn: int
    phase: str
    active: int | None
    over: bool


def position_of(state: GameState) -> Position:
    return Position(state.seq, state.round, state.turn, state.phase, state.active, state.over)


@dataclass(frozen=True, slots=True)
class Step:
    """One event with the positions around it and the effects it caused."""

    event: Event
    before: GameState
    after: GameState
    effects: tuple[Effect, ...]


class PositionError(WarrenError):
    """A seq or turn that the game does not have."""


S = TypeVar("S", bound=GameState)


class Replay(Generic[S]):
    """A game folded once, then seekable to any seq or turn."""

    def __init__(
        self,
        ruleset: Ruleset[S, Any],
        header: Header,
        events: Sequence[Event],
        *,
        every: int = SNAPSHOT_EVERY,
    ) -> None:
        if every < 1:
            raise ValueError("snapshot spacing must be at least 1")
        self.ruleset = ruleset
        self.header = header
        self.events = ruleset.effective(events)[0]
        """The events as folded: every correction applied (engine.corrections)."""
        self.every = every
        # The game is folded by the reader's walk (engine.reader), the one loop every check,
        # import and projection runs: this visitor keeps a copy every ``every`` events and
        # where each turn starts.
        folded = walk(ruleset, header, events, _Positions(ruleset.copy_state, every))
        self.violation: Violation | None = folded.violation
        self._snapshots: list[S] = folded.snapshots
        # _turn_seqs[i] is the first seq played in turn _turn_numbers[i].
        self._turn_numbers: list[int] = folded.turn_numbers
        self._turn_seqs: list[int] = folded.turn_seqs
        self._final: S = folded.final
        self.last_seq: int = self._final.seq
        """The last seq that applied cleanly (the one before a violation, if any)."""

    # -- seeking -----------------------------------------------------------------------
    def violation_seen_by(self, perspective: Perspective, *, at: int) -> Violation | None:
        """The first violation as ``perspective`` may learn of it at position ``at``
        (Ruleset.violation_view). A seat or the table learns of it only once the game has
        reached it (``at`` is the last clean seq, the one just before it): earlier, that a
        later event is illegal, and which rule it breaks, is knowledge from the future (a
        Werebunny's illegal Sabotage at seq 39 would tell every seat at seq 0 who acts at
        night). The referee sees it from any position."""
        violation = self.violation
        if violation is None or (perspective != "referee" and at < self.last_seq):
            return None
        index = violation.seq - 1
        actor = self.events[index].actor if 0 <= index < len(self.events) else None
        return self.ruleset.violation_view(violation, perspective, actor)

    def _check_seq(self, seq: int) -> None:
        if not 0 <= seq <= self.last_seq:
            raise PositionError(f"seq {seq} is out of range: this game has positions 0..{self.last_seq}")

    def state_at(self, seq: int) -> S:
        """A fresh copy of the state after event ``seq`` (0 = before the first event)."""
        self._check_seq(seq)
        if seq == self.last_seq:
            return self.ruleset.copy_state(self._final)
        state = self.ruleset.copy_state(self._snapshots[seq // self.every])
        apply = self.ruleset.apply
        events = self.events
        for i in range(state.seq, seq):
            apply(state, events[i])
        return state

    def step(self, seq: int) -> Step:
        """Event ``seq`` (1-based) with the state before and after it and its effects."""
        if not 1 <= seq <= self.last_seq:
            raise PositionError(f"event {seq} is out of range: this game has events 1..{self.last_seq}")
        before = self.state_at(seq - 1)
        after = self.ruleset.copy_state(before)
        effects = self.ruleset.apply(after, self.events[seq - 1])
        return Step(self.events[seq - 1], before, after, effects)

    def position(self, seq: int) -> Position:
        return position_of(self.state_at(seq))

    @property
    def final(self) -> S:
        """A copy of the last clean state."""
        return self.ruleset.copy_state(self._final)

    # -- turns <-> seqs ----------------------------------------------------------------
    @property
    def turns(self) -> list[int]:
        return list(self._turn_numbers)

    def seq_for_turn(self, turn: int) -> int:
        """The position at the start of ``turn``: the seq just before its first event."""
        try:
            i = self._turn_numbers.index(turn)
        except ValueError:
            last = self._turn_numbers[-1]
            raise PositionError(f"turn {turn} is out of range: this game has turns 0..{last}") from None
        return min(self._turn_seqs[i] - 1, self.last_seq)

    def turn_of_seq(self, seq: int) -> int:
        """The turn that event ``seq`` belongs to (0 = set-up)."""
        self._check_seq(seq)
        i = bisect_right(self._turn_seqs, max(seq, 1)) - 1
        return self._turn_numbers[max(i, 0)]


class _Positions(GameVisitor["_Positions"]):
    """What :class:`Replay` keeps of one walk: a copy of the position every ``every`` events,
    the seq each turn starts at, the final position and the first violation."""

    wants_turns = True

    def __init__(self, copy: Any, every: int) -> None:
        self.copy = copy
        self.every = every
        self.snapshots: list[Any] = []
        self.turn_numbers: list[int] = []
        self.turn_seqs: list[int] = [1]
        self.violation: Violation | None = None
        self.final: Any = None

    def begin_game(self, header: Header, ruleset: Ruleset[Any, Any], state: GameState) -> None:
        self.snapshots.append(self.copy(state))
        self.turn_numbers.append(state.turn)

    def visit_position(self, state: GameState) -> None:
        self.snapshots.append(self.copy(state))

    def visit_turn(self, state: GameState, seq: int) -> None:
        self.turn_numbers.append(state.turn)
        self.turn_seqs.append(seq + 1)

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.violation = violation

    def end_game(self, state: GameState) -> None:
        self.final = state

    def result(self) -> _Positions:
        return self
