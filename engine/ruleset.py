"""The contract every ruleset fulfils, and the state fields every game shares.

Speed note (a deliberate departure from a purely functional ``apply``): a ruleset's
``apply`` mutates the state it is given and returns the effects. Allocating a new state per
event would cost more than the whole rule check (see docs/benchmarks.md). Purity is kept
where it matters: handlers check every guard before they change anything, so a
:class:`RuleViolation` leaves the state untouched; replay hands out copies, never the
state it folds; and nothing in the engine does I/O or draws a random number on replay.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal, Union

import msgspec

from engine.record import Event, Header
from engine.rules import NO_EFFECTS, Effect, Rulebook, RuleViolation, WarrenError

Perspective = int | Literal["referee", "spectator"]
"""Who is looking: a seat number, the omniscient referee, or a spectator (public only)."""


class GameState:
    """Fields every state has, so any position maps to seq, round, turn, phase and seat."""

    __slots__ = ("active", "over", "phase", "round", "seq", "turn")

    seq: int
    """The seq of the last event applied (0 before the first)."""
    round: int
    """Round number (every seat has had a turn once per round); 0 before play starts."""
    turn: int
    """Turn number, counting every seat's turns from 1; 0 during set-up."""
    phase: str
    """The step of the turn the game is in, in the ruleset's own words."""
    active: int | None
    """The seat whose turn it is, or None when nobody's (set-up, simultaneous phases)."""
    over: bool
    """True once the game has ended."""

    def position_view(self, perspective: Perspective) -> dict[str, Any]:
        """The public head of every view: who looks, and where the game stands."""
        return {"perspective": perspective, "seq": self.seq, "round": self.round, "turn": self.turn,
                "phase": self.phase, "active": self.active, "over": self.over}

    def _init_position(self) -> None:
        self.seq = 0
        self.round = 0
        self.turn = 0
        self.phase = "setup"
        self.active = None
        self.over = False


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished game ended."""

    winners: list[int]
    """Seats that won (several on a team game, or on a tie)."""
    scores: list[int] | None = None
    """Score per seat, where the game keeps score."""
    reason: str
    """Why it ended, in the ruleset's words (``went_out``, ``wall_and_tower_fell``...)."""
    rule: str
    """The rule that ended it."""


Handler = Callable[[Any, Any], tuple[Effect, ...]]


class Ruleset(ABC):
    """One game of the family. Subclasses fill in the class attributes and the hooks."""

    slug: ClassVar[str]
    title: ClassVar[str]
    rulebook: ClassVar[Rulebook]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type[msgspec.Struct]]
    event_types: ClassVar[tuple[type[Event], ...]]

    def __init__(self) -> None:
        self.event_decoder = msgspec.json.Decoder(Union[self.event_types])  # noqa: UP007
        self.events_by_type: dict[str, type[Event]] = {
            t.__struct_config__.tag: t  # type: ignore[misc]
            for t in self.event_types
        }
        self.handlers: dict[type[Event], Handler] = self.build_handlers()
        missing = [t.__name__ for t in self.event_types if t not in self.handlers]
        if missing:
            raise TypeError(f"{self.slug}: no handler for {missing}")

    # -- set-up ------------------------------------------------------------------------
    def options(self, header: Header) -> Any:
        """The header's options as the ruleset's typed options (defaults filled in)."""
        try:
            return msgspec.convert(header.options, self.options_type)
        except msgspec.ValidationError as exc:
            raise WarrenError(f"bad option for {self.slug}: {exc}") from None

    def check_header(self, header: Header) -> None:
        """Refuse a header this ruleset cannot set up (player count, options)."""
        n = len(header.players)
        if not self.min_players <= n <= self.max_players:
            raise WarrenError(
                f"{self.slug} is for {self.min_players} to {self.max_players} players, not {n}"
            )
        self.options(header)

    @abstractmethod
    def setup(self, header: Header) -> GameState:
        """The state before the first event."""

    # -- the fold ----------------------------------------------------------------------
    @abstractmethod
    def build_handlers(self) -> dict[type[Event], Handler]:
        """One handler per event type: ``handler(state, event) -> effects``."""

    def apply(self, state: GameState, event: Event) -> tuple[Effect, ...]:
        """Check ``event`` against the rules and apply it to ``state`` in place.

        Raises :class:`RuleViolation` (state unchanged) if the rules forbid it. The caller
        guarantees ``event.seq == state.seq + 1`` (the record decoder does).
        """
        if state.over:
            raise RuleViolation(self.game_over_rule, "the game is already over", seq=state.seq)
        effects = self.handlers[type(event)](state, event)
        state.seq = event.seq
        return effects

    def fold(self, state: GameState, events: Sequence[Event]) -> None:
        """Apply many events: the hot loop of checking and replay.

        Stops at a violation with ``state`` at the last clean event and the violation's
        ``seq`` set. Handlers never read ``state.seq``, so it is set once at the end, and
        every handler refuses to act on a finished game (``game_over_rule``) in its own
        guard, so the loop does not pay a check per event (tests hold every ruleset to it).
        """
        handlers = self.handlers
        event = None
        try:
            for event in events:
                handlers[type(event)](state, event)
        except RuleViolation as exc:
            # ``event`` is the one that broke the rules; the state is as after the one before.
            exc.seq = event.seq  # type: ignore[union-attr]
            state.seq = event.seq - 1  # type: ignore[union-attr]
            raise
        if event is not None:
            state.seq = event.seq

    game_over_rule: ClassVar[str]
    """The rule that says nothing happens after the end."""

    @abstractmethod
    def copy_state(self, state: Any) -> Any:
        """An independent copy (snapshots, what-ifs)."""

    # -- questions about a state -------------------------------------------------------
    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Event]:
        """Every event ``seat`` may record next (with ``seq`` = state.seq + 1)."""

    def to_act(self, state: Any) -> list[int]:
        """Seats that may act now; empty when the next event is chance or the game is over."""
        if state.over or state.active is None:
            return []
        return [state.active]

    def chance(self, state: Any, rng: random.Random) -> Event | None:
        """The next chance event (a shuffle, a roll) if the game waits on chance, else None."""
        return None

    def randomize(self, state: Any, event: Event, rng: random.Random) -> Event:
        """Fill the random part of a chosen action (which card a random steal takes)."""
        return event

    @abstractmethod
    def view(self, state: Any, perspective: Perspective) -> dict[str, Any]:
        """The state as ``perspective`` knows it, hidden information removed."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def describe(self, event: Event) -> str:
        """A short human rendering of an event."""
        fields = {
            k: v for k, v in msgspec.structs.asdict(event).items()
            if k not in ("seq", "actor", "hash", "claims") and v is not None
        }
        who = "table" if event.actor is None else f"seat {event.actor}"
        args = " ".join(f"{k}={v}" for k, v in fields.items())
        return f"{who}: {event.__struct_config__.tag} {args}".rstrip()

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        """An event as ``perspective`` saw it happen.

        Default: the referee sees everything; a chance event (actor null: a deal, a shuffle)
        shows only its type to everyone else; a player's action is seen whole. Rulesets
        with private actions override this.
        """
        record = msgspec.to_builtins(event)
        record.pop("hash", None)
        if perspective == "referee" or event.actor is not None:
            return record  # type: ignore[no-any-return]
        return {k: record[k] for k in ("seq", "type", "actor") if k in record}

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        """An effect as ``perspective`` learnt of it (None: it learnt nothing). Default: all."""
        return effect

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        """A plain-text picture of a view (the CLI's ``replay``); rulesets draw their own."""
        width = max((len(k) for k in view), default=0)
        return "\n".join(f"{k.ljust(width)}  {v}" for k, v in view.items())

    def key_figures(self, state: Any) -> dict[str, Any]:
        """A few numbers per position for per-turn statistics and charts."""
        return {}


EMPTY = NO_EFFECTS
