"""One game opened for disputes, over snapshots so a verdict never replays from the start."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.dispute.explain import Explanation, explain_step
from engine.dispute.legal import LegalActions, legal_at
from engine.dispute.verdict import Verdict, judge
from engine.record import Event, Header
from engine.replay import SNAPSHOT_EVERY, PositionError, Replay, Violation
from engine.rules import WarrenError
from engine.ruleset import GameState, Ruleset


class Dispute:
    """One game opened for disputes: positions by seq or turn, verdicts, legal actions,
    explanations.

    Positions come from ``state_at`` (a :class:`Replay`'s snapshots, or a store's), so a
    verdict costs one seek, one copy and one application, never a replay from the start.
    """

    def __init__(
        self,
        ruleset: Ruleset[Any, Any],
        header: Header,
        *,
        last_seq: int,
        state_at: Callable[[int], GameState],
        events: Sequence[Event] | None = None,
        violation: Violation | None = None,
        seq_for_turn: Callable[[int], int] | None = None,
    ) -> None:
        # Bound to the game, so verdicts and explanations word its events as it was played.
        self.ruleset = ruleset.for_game(header)
        self.header = header
        self.last_seq = last_seq
        """The last position a verdict can be asked at (before the first illegal event)."""
        self._state_at = state_at
        self._events = events
        self.violation = violation
        self._seq_for_turn = seq_for_turn

    @classmethod
    def of_record(cls, ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event],
                  every: int = SNAPSHOT_EVERY) -> Dispute:
        replay = Replay(ruleset, header, events, every=every)
        # The game as corrected (engine.corrections): explanations and branches read it.
        return cls(ruleset, header, last_seq=replay.last_seq, state_at=replay.state_at,
                   events=replay.events, violation=replay.violation, seq_for_turn=replay.seq_for_turn)

    @property
    def n_seats(self) -> int:
        return len(self.header.players)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.header.players]

    def events(self) -> Sequence[Event]:
        if self._events is None:
            raise WarrenError("this game was opened without its events")
        return self._events

    def seq_of(self, at: int | None = None, turn: int | None = None) -> int:
        """The position asked for: after seq ``at``, or the start of ``turn``, or the end."""
        if at is not None and turn is not None:
            raise PositionError("give a seq or a turn, not both")
        if turn is not None:
            if self._seq_for_turn is None:
                raise WarrenError("this game was opened without its turns")
            return self._seq_for_turn(turn)
        if at is None:
            return self.last_seq
        self.check_position(at)
        return at

    def check_position(self, at: int) -> None:
        if not 0 <= at <= self.last_seq:
            why = ""
            if self.violation is not None and at >= self.violation.seq:
                why = (f"; the record stops being legal at seq {self.violation.seq} "
                       f"({self.violation.rule}), so later positions do not exist")
            raise PositionError(f"seq {at} is out of range: this game has positions 0..{self.last_seq}{why}")

    def state_at(self, at: int) -> GameState:
        self.check_position(at)
        return self._state_at(at)

    def verdict(self, action: str | dict[str, Any] | Event, *, at: int | None = None,
                turn: int | None = None, seat: int | None = None) -> Verdict:
        seq = self.seq_of(at, turn)
        history = (self.header, self._events[:seq]) if self._events is not None else None
        return judge(self.ruleset, self.state_at(seq), action, n_seats=self.n_seats, seat=seat,
                     history=history)

    def legal(self, seat: int, *, at: int | None = None, turn: int | None = None) -> LegalActions:
        seq = self.seq_of(at, turn)
        return legal_at(self.ruleset, self.state_at(seq), seat, n_seats=self.n_seats, names=self.names)

    def explain(self, seq: int) -> Explanation:
        """Explain recorded event ``seq``; the first illegal event is explained too."""
        events = self.events()
        top = self.last_seq + (1 if self.violation is not None else 0)
        if not 1 <= seq <= top:
            raise PositionError(f"event {seq} is out of range: this game has events 1..{top}"
                                + ("" if top == len(events) else
                                   f" (the record stops being legal at seq {top})"))
        return explain_step(self.ruleset, self.state_at(seq - 1), events[seq - 1], n_seats=self.n_seats,
                            names=self.names)
