"""The contract every ruleset fulfils, and the state fields every game shares.

:class:`Ruleset` is the rules (identity, options, set-up, the fold, what the game waits
for, the outcome) and three parts by concern: its words (``engine.ruleset.words``), what
each seat may see of it (``engine.ruleset.views``) and its key figures
(``engine.ruleset.figures``).

Speed note (a deliberate departure from a purely functional ``apply``): a ruleset's
``apply`` mutates the state it is given and returns the effects. Allocating a new state per
event would cost more than the whole rule check (see docs/performance.md). Purity is kept
where it matters: handlers check every guard before they change anything, so a
:class:`RuleViolation` leaves the state untouched; replay hands out copies, never the
state it folds; and nothing in the engine does I/O or draws a random number on replay.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar, Union

import msgspec

from engine.capabilities import Capabilities, Perspective
from engine.codec import StateCodec
from engine.corrections import (
    CORE_RULES,
    Correction,
    Struck,
    correction_marker,
    effective_events,
    struck_marker,
)
from engine.options import refusal
from engine.pending import Agenda, Chance, Decision, Window
from engine.record import Event, Header
from engine.rules import NO_EFFECTS, Effect, Rulebook, RuleViolation, WarrenError
from engine.ruleset.figures import RulesetFigures
from engine.ruleset.views import HIDDEN_RULE, HIDDEN_VIOLATION, RulesetViews, correction_view
from engine.ruleset.words import RulesetWords

__all__ = ["EMPTY", "HIDDEN_RULE", "HIDDEN_VIOLATION", "GameState", "Handler", "Outcome", "Perspective",
           "Ruleset", "correction_view"]


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

S = TypeVar("S", bound=GameState)
O = TypeVar("O", bound=msgspec.Struct)  # noqa: E741 - the options type, as in Ruleset[S, O]


class Ruleset(RulesetViews[S], RulesetWords[S], RulesetFigures[S],  # its parts by concern
              ABC, Generic[S, O]):
    """One game of the family, generic in its state type ``S`` and options type ``O``.

    Subclasses fill in the class attributes and the hooks. Who may act and what they may
    do is read from one place, :meth:`pending` (engine.pending): ``to_act``, ``chance``
    and ``legal_actions`` are derived from it here and are not overridden.
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    rulebook: Rulebook
    """The game's rules; an instance also knows the rules every record shares (REC-*)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: type[S]
    """The class of this game's states (every slot annotated: engine.codec)."""
    options_type: type[O]
    event_types: ClassVar[tuple[type[Event], ...]]
    capabilities: Capabilities[S] = Capabilities()
    """What the game offers beyond the contract (engine.capabilities)."""
    seat_options: ClassVar[frozenset[str]] = frozenset()
    """Options whose value is a seat (who plays first): asked and said by player name."""


    def __init__(self) -> None:
        self.record_types: tuple[type[Event], ...] = (*self.event_types, Correction)
        """Every event type a record of this game may hold: the game's, and corrections."""
        self.event_union: Any = Union[self.record_types]  # noqa: UP007
        self.event_decoder = msgspec.json.Decoder(self.event_union)
        self.events_by_type: dict[str, type[Event]] = {
            str(t.__struct_config__.tag): t
            for t in self.record_types
        }
        """Event type name -> class, for every type a record may hold (corrections too)."""
        reserved = [t.__name__ for t in self.event_types if "kind" in t.__struct_fields__]
        if reserved:
            # A top-level "kind" marks the header and seal lines (docs/record-format.md).
            raise TypeError(f"{self.slug}: events may not have a field named 'kind': {reserved}")
        self.handlers: dict[type[Event], Handler] = self.build_handlers()
        missing = [t.__name__ for t in self.event_types if t not in self.handlers]
        if missing:
            raise TypeError(f"{self.slug}: no handler for {missing}")
        # Corrections and the places of struck events are markers in every game.
        self.handlers[Correction] = correction_marker
        self.handlers[Struck] = struck_marker
        self.rulebook = self.rulebook.with_rules(CORE_RULES)

    def decode_event(self, fields: dict[str, Any]) -> Event:
        """An event of this game from its record fields (``type`` included)."""
        event: Event = msgspec.convert(fields, self.event_union)
        return event

    def effective(self, events: Sequence[Event]) -> tuple[Sequence[Event], RuleViolation | None]:
        """The events as replay folds them, every correction applied, and the violation of a
        malformed correction if there is one (engine.corrections)."""
        folded, bad = effective_events(events, self.decode_event)
        if bad is not None:
            fixer = next((e for e in events if e.seq == bad.seq), None)
            if fixer is not None:
                self.name_refused(bad, fixer)
        return folded, bad

    @cached_property
    def codec(self) -> StateCodec[S]:
        """The typed codec of this game's states (snapshots, equality of states)."""
        return StateCodec(self.state_type, self.event_types)

    # -- set-up ------------------------------------------------------------------------
    def options(self, header: Header) -> O:
        """The header's options as the ruleset's typed options (defaults filled in)."""
        try:
            return msgspec.convert(header.options, self.options_type)
        except msgspec.ValidationError as exc:
            # Out of its bounds (engine.options) or of the wrong kind: which option, and why.
            raise WarrenError(refusal(self.slug, self.options_type, exc)) from None

    def record_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options a new record's header carries, given the ones asked for: a game may
        add what every record of it must name (Killer Bunnies Quest: the deck set and the
        content hash of the cards it is played with). Default: the options as given."""
        return options

    def check_header(self, header: Header) -> None:
        """Refuse a header this ruleset cannot set up (player count, options)."""
        n = len(header.players)
        if not self.min_players <= n <= self.max_players:
            raise WarrenError(
                f"{self.slug} is for {self.min_players} to {self.max_players} players, not {n}"
            )
        self.options(header)

    @abstractmethod
    def setup(self, header: Header) -> S:
        """The state before the first event."""

    # -- the fold ----------------------------------------------------------------------
    @abstractmethod
    def build_handlers(self) -> dict[type[Event], Handler]:
        """One handler per event type: ``handler(state, event) -> effects``."""

    def apply(self, state: S, event: Event) -> tuple[Effect, ...]:
        """Check ``event`` against the rules and apply it to ``state`` in place.

        Raises :class:`RuleViolation` (state unchanged) if the rules forbid it. The caller
        guarantees ``event.seq == state.seq + 1`` (the record decoder does).
        """
        try:
            if state.over:
                raise RuleViolation(self.game_over_rule, "the game is already over", seq=state.seq)
            effects = self.handlers[type(event)](state, event)
        except RuleViolation as exc:
            self.word_refusal(state, exc)
            self.name_refused(exc, event)
            raise
        state.seq = event.seq
        return effects

    def word_refusal(self, state: S, violation: RuleViolation) -> None:
        """Reword a refusal from the position it was refused at (a refused event leaves the
        state as it was) before anybody reads it: every fold that meets a refusal calls it
        (:meth:`apply`, :meth:`fold`, the projections). Odyssey names its pieces in play by
        their cards here. Default: the message stays as the rule wrote it."""

    def fold(self, state: S, events: Sequence[Event]) -> None:
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
            if event is not None:  # always: the violation came from its handler
                exc.seq = event.seq
                state.seq = event.seq - 1
                self.word_refusal(state, exc)
                self.name_refused(exc, event)
            else:
                self.word_refusal(state, exc)
            raise
        if event is not None:
            state.seq = event.seq

    game_over_rule: ClassVar[str]
    """The rule that says nothing happens after the end."""

    @abstractmethod
    def copy_state(self, state: S) -> S:
        """An independent copy (snapshots, what-ifs): it shares nothing mutable."""

    # -- what the game waits for (engine.pending) ----------------------------------------
    @abstractmethod
    def pending(self, state: S) -> Agenda:
        """What the position waits for: decisions owed, chance owed, deadlines, triggers
        and open response windows. Empty (``engine.pending.NOTHING``) once the game is over."""

    @abstractmethod
    def decision_actions(self, state: S, decision: Decision) -> list[Event]:
        """Every event that settles ``decision`` (with ``seq`` = state.seq + 1)."""

    def window_actions(self, state: S, seat: int, window: Window) -> list[Event]:
        """Every off-turn response ``seat`` may record in an open ``window``. Default: none."""
        return []

    @abstractmethod
    def sample_chance(self, state: S, owed: Chance, rng: random.Random) -> Event | None:
        """For simulators only: the outcome of the chance ``owed``, drawn from ``rng``.

        Replay never calls this. An optional chance (a timer) may return None: it did not
        happen this time.
        """

    def sample_world(self, state: S, rng: random.Random) -> S:
        """A complete position that agrees with everything ``state`` knows: a copy with every
        card (role, order) it leaves unknown drawn at random from what nobody has seen, each
        arrangement as likely as another (engine.analysis.worlds). ``state`` is a position of
        a record that may leave things unknown: one seat's or the table's record of a game
        (engine.redact), or a game recorded at the table. Default: a position that knows
        everything is its own only world; a game that keeps unknowns overrides this."""
        if getattr(state, "partial", False):
            raise WarrenError(f"warren cannot deal out the unknown cards of a {self.title} position")
        return self.copy_state(state)

    def legal_actions(self, state: S, seat: int) -> list[Event]:
        """Every event ``seat`` may record next: its owed decisions, then its responses in
        open windows (read from :meth:`pending`)."""
        return self.actions_in(state, seat, self.pending(state))

    def actions_in(self, state: S, seat: int, agenda: Agenda) -> list[Event]:
        """:meth:`legal_actions` read from an agenda already asked of :meth:`pending` for
        this position (a simulator asks it once per event, not once per question)."""
        decision = agenda.decision(seat)
        actions = [] if decision is None else self.decision_actions(state, decision)
        for window in agenda.windows_for(seat):
            actions.extend(self.window_actions(state, seat, window))
        return actions

    def to_act(self, state: S) -> list[int]:
        """Seats that owe a decision now; empty when the next event is chance or the game
        is over (read from :meth:`pending`)."""
        return self.pending(state).seats()

    def may_act(self, state: S) -> list[int]:
        """Everybody who may record the next event: :meth:`to_act` and the seats of open
        response windows."""
        return self.pending(state).may_act()

    def chance(self, state: S, rng: random.Random) -> Event | None:
        """For simulators: the next chance event if the game owes one (or an optional one
        happens), else None (read from :meth:`pending`)."""
        agenda = self.pending(state)
        owed = agenda.chance or agenda.optional
        return None if owed is None else self.sample_chance(state, owed, rng)

    def randomize(self, state: S, event: Event, rng: random.Random) -> Event:
        """Fill the random part of a chosen action (which card a random steal takes)."""
        return event

    @abstractmethod
    def view(self, state: S, perspective: Perspective) -> dict[str, Any]:
        """The state as ``perspective`` knows it, hidden information removed."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""



EMPTY = NO_EFFECTS


