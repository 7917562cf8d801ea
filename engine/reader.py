"""One reader for every use of a record: decode it, then walk it with a visitor.

Checking a file, importing it into the store, building projections and checking claims
all do the same thing: decode a record, fold its events with the rules, and look at what
happened on the way. They differ only in what they look at. So there is one decoder
(:func:`read_record`) and one walk (:func:`walk`), and each use is a :class:`GameVisitor`
(the python-chess ``pgn.read_game`` shape):

``begin_game(header)``
    before the first event, with the state set up;
``visit_event(event, effects, state)``
    after each event, with what it caused (only when the visitor ``wants_effects``: the
    plain fold is several times cheaper, and a check needs no effects);
``visit_position(state)``
    every ``every`` events (a store keeps snapshots there);
``visit_violation(violation, state)``
    at the first event the rules forbid (the walk stops there; ``state`` is as after
    the last clean event);
``end_game(state)`` and ``result()``
    at the end.

The record format itself (engine.record) knows no game; this module is where a record
meets its ruleset, through the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from engine.record import Event, Header, Record, RecordError, decode_header, split_lines, verify_chain
from engine.registry import get_ruleset
from engine.rules import Effect, RuleViolation, Violation, WarrenError
from engine.ruleset import GameState, Ruleset

R = TypeVar("R")


def _reason(exc: Exception) -> str:
    text = str(exc)
    if text.startswith("Invalid value") and "$.type" in text:
        return "unknown event type " + text.split("Invalid value ", 1)[1].split(" - ")[0]
    return text


def read_record(data: bytes, path: str = "<record>", ruleset: Ruleset[Any, Any] | None = None) -> Record:
    """Decode a whole record; raise :class:`RecordError` naming the line and the reason.

    Checks structure only (types, seq order, seats, the hash chain); legality is the
    walk's job.
    """
    lines = split_lines(data, path)
    header = decode_header(lines[0], path)
    if ruleset is None:
        try:
            ruleset = get_ruleset(header.ruleset)
        except WarrenError as exc:
            raise RecordError(path, 1, str(exc)) from None
    try:
        ruleset.check_header(header)
    except WarrenError as exc:
        raise RecordError(path, 1, str(exc)) from None
    n_seats = len(header.players)
    decode = ruleset.event_decoder.decode
    events: list[Event] = []
    append = events.append
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            raise RecordError(path, lineno, "blank line inside a record")
        try:
            event = decode(line)
        except msgspec.ValidationError as exc:
            raise RecordError(path, lineno, _reason(exc)) from None
        except msgspec.DecodeError as exc:
            raise RecordError(path, lineno, f"not valid JSON ({exc})") from None
        expected = lineno - 1
        if event.seq != expected:
            what = "duplicate or out-of-order" if event.seq < expected else "gap in"
            raise RecordError(path, lineno, f"{what} seq: got {event.seq}, expected {expected}")
        actor = event.actor
        if actor is not None and not 0 <= actor < n_seats:
            raise RecordError(path, lineno, f"actor {actor} is not a seat in this game (0..{n_seats - 1})")
        append(event)
    chain, broken_at = verify_chain(lines)
    return Record(path, header, events, lines, chain, broken_at)


class GameVisitor(Generic[R]):
    """The hooks of one walk over a game (see the module docstring). Override what you
    need; every hook does nothing by default."""

    wants_effects: ClassVar[bool] = False
    """True to get :meth:`visit_event` after every event (a slower walk)."""
    every: ClassVar[int] = 0
    """Call :meth:`visit_position` every this many events (0: never)."""

    def begin_game(self, header: Header, ruleset: Ruleset[Any, Any], state: GameState) -> None:
        """Before the first event."""

    def visit_event(self, event: Event, effects: tuple[Effect, ...], state: GameState) -> None:
        """After ``event`` applied (``state`` is the live state: copy what you keep)."""

    def visit_position(self, state: GameState) -> None:
        """After every :attr:`every`-th event (``state`` is live: copy or encode it)."""

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        """At the first illegal event; the walk stops after this."""

    def end_game(self, state: GameState) -> None:
        """After the last event applied, or after the violation."""

    def result(self) -> R:
        """What the walk found."""
        raise NotImplementedError(f"{type(self).__name__} returns no result")


def walk(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event], visitor: GameVisitor[R]) -> R:
    """Fold ``events`` with the rules, telling ``visitor`` what happens: the one loop
    every check, import, projection and claims check runs. Corrections are honoured
    (engine.corrections): the game is folded as corrected."""
    state = ruleset.setup(header)
    visitor.begin_game(header, ruleset, state)
    every = visitor.every
    events, bad_correction = ruleset.effective(events)
    try:
        if visitor.wants_effects:
            apply = ruleset.apply
            visit = visitor.visit_event
            for i, event in enumerate(events, start=1):
                try:
                    effects = apply(state, event)
                except RuleViolation as exc:
                    exc.seq = event.seq
                    raise
                visit(event, effects, state)
                if every and i % every == 0:
                    visitor.visit_position(state)
        elif every:
            fold = ruleset.fold
            for start in range(0, len(events), every):
                fold(state, events[start:start + every])
                if state.seq % every == 0:
                    visitor.visit_position(state)
        else:
            ruleset.fold(state, events)
        if bad_correction is not None:
            raise bad_correction
    except RuleViolation as exc:
        seq = exc.seq if exc.seq is not None else state.seq + 1
        visitor.visit_violation(Violation(seq, exc.rule, exc.message, exc.facts), state)
    visitor.end_game(state)
    return visitor.result()


def read_game(data: bytes, path: str, visitor: GameVisitor[R], ruleset: Ruleset[Any, Any] | None = None) -> R:
    """Decode a record and walk it (:class:`RecordError` for a file that is not a record)."""
    record = read_record(data, path, ruleset)
    return walk(ruleset or get_ruleset(record.header.ruleset), record.header, record.events, visitor)


class FirstViolation(GameVisitor[Violation | None]):
    """The check: the first illegal event, or None."""

    def __init__(self) -> None:
        self.found: Violation | None = None

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.found = violation

    def result(self) -> Violation | None:
        return self.found


def check_events(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event]) -> Violation | None:
    """Fold every event with the rules and return the first violation, if any (fast path)."""
    return walk(ruleset, header, events, FirstViolation())


def header_of(data: bytes, path: str) -> Header | None:
    """Line 1 as a header if it reads as one (for reports on files that fail later)."""
    try:
        return decode_header(split_lines(data, path)[0], path)
    except WarrenError:
        return None
