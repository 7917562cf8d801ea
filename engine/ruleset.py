"""The contract every ruleset fulfils, and the state fields every game shares.

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
from typing import Any, ClassVar, Generic, Self, TypeVar, Union

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
from engine.rules import NO_EFFECTS, Effect, Rulebook, RuleViolation, Violation, WarrenError
from engine.wording import (
    GENERIC,
    Names,
    Vocabulary,
    change_lines,
    event_text,
    fact_text,
    outcome_text,
    seat_name,
    seats_named,
)

__all__ = ["EMPTY", "HIDDEN_RULE", "GameState", "Handler", "Outcome", "Perspective", "Ruleset",
           "correction_view"]


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


class Ruleset(ABC, Generic[S, O]):
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
    public_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose violations tell nothing that any seat could not see: their message and
    facts are shown to every perspective (:meth:`violation_view`)."""
    actor_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose violations tell the acting seat only what it knew itself (its own hand,
    role or Item): shown whole to that seat too."""
    secret_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose very id tells a secret ("only Werebunnies may Sabotage" names the actor a
    Townsfolk): every perspective but the referee and the actor is told only that a hidden
    action was illegal (:data:`HIDDEN_RULE`), not which rule it broke."""
    vocabulary: ClassVar[Vocabulary] = GENERIC
    """How the game's views, facts and records read in words (engine.wording): the
    defaults of the ``describe*`` methods word any game from it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A correction carries the event it puts right; whatever view a game gives of its
        # events must filter that event too, or a correction would show every seat the
        # hidden fields of the event it corrects. Wrapped here, once for every ruleset
        # (plugins included), so no game can forget it.
        super().__init_subclass__(**kwargs)
        own: Callable[[Ruleset[Any, Any], Event, Perspective], dict[str, Any]] | None = \
            cls.__dict__.get("event_view")
        if own is not None and not getattr(own, "sees_corrections", False):
            def event_view(self: Ruleset[Any, Any], event: Event, perspective: Perspective) -> dict[str, Any]:
                if type(event) is Correction:
                    return correction_view(self, event, perspective, lambda e, p: own(self, e, p))
                return own(self, event, perspective)

            event_view.__dict__["sees_corrections"] = True
            event_view.__doc__ = own.__doc__
            cls.event_view = event_view  # type: ignore[method-assign]  # wrapping it is the point

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
        return effective_events(events, self.decode_event)

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
        if state.over:
            raise RuleViolation(self.game_over_rule, "the game is already over", seq=state.seq)
        try:
            effects = self.handlers[type(event)](state, event)
        except RuleViolation as exc:
            self.word_refusal(state, exc)
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

    def legal_actions(self, state: S, seat: int) -> list[Event]:
        """Every event ``seat`` may record next: its owed decisions, then its responses in
        open windows (read from :meth:`pending`)."""
        agenda = self.pending(state)
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

    # -- in words (engine.wording) -----------------------------------------------------
    def for_game(self, header: Header) -> Self:
        """This ruleset as the game of ``header`` is worded: the same rules and answers, with
        what the header settles that an event alone does not say (a Killer Bunnies game
        names its cards from the catalogue its header names: its deck set, printing and
        extra decks). Whatever words one game's events (``warren replay``, disputes, the
        dashboard, the recorder) asks it once per game. Default: this ruleset."""
        return self

    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: S | None = None) -> str:
        """The event in words as ``perspective`` saw it happen, players by name: what the
        dashboard's timeline and ``warren replay`` print ("Ann lays A♠"). ``before``, the
        position the event was played at where the caller has it, lets a game name what
        the event names only by position (Odyssey's flipped card, its pieces in play); a
        game never tells through it what the perspective did not see. Default: the
        event as :meth:`event_view` shows it, worded with :attr:`vocabulary`. A game
        overrides it to say its events its own way (and calls this for what it does not)."""
        names = names or ()
        if type(event) is Correction:
            what = "strikes" if event.event is None else "corrects"
            return f"{seat_name(event.actor, names)} {what} event {event.corrects} ({event.reason})"
        if type(event) is Struck:
            return f"(struck by the correction at event {event.by})"
        return event_text(self.vocabulary, self.event_view(event, perspective), names)

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        """What changed from one view (of :meth:`view`) to the next, one line per change,
        in words and with players by name. Default: :func:`engine.wording.change_lines`."""
        return change_lines(self.vocabulary, before, after, names)

    def describe_fact(self, key: str, value: Any, names: Names) -> str:
        """One named fact (a violation's, an effect's or a position's) as ``what: value``
        in words (``top card: Q♥``)."""
        return fact_text(self.vocabulary, key, value, names)

    def describe_position_fact(self, key: str, value: Any, names: Names) -> str:
        """A fact of a position (a verdict's ``position_facts``) in words: a figure with a
        value per seat (:attr:`seat_figures`) reads player by player (``Dolla: Ann 2, Bo
        0``); any other as :meth:`describe_fact`."""
        if key in self.seat_figures and isinstance(value, list) and len(value) == len(names):
            label = self.describe_fact(key, [], names).split(":", 1)[0]
            each = [self.describe_fact(key, v, names).split(": ", 1)[-1] for v in value]
            return f"{label}: " + ", ".join(f"{name} {v}" for name, v in zip(names, each, strict=True))
        return self.describe_fact(key, value, names)

    def describe_outcome(self, outcome: Outcome, names: Names) -> str:
        """How the game ended, in words: who won, why, by which rule, the scores."""
        return outcome_text(self.vocabulary, outcome, names)

    def read_value(self, tag: str, field: str, value: Any) -> Any:
        """A field of a proposed action (typed in the dispute box or on the command line) as
        the record writes it. A game may accept other spellings of its values (Bunnies reads
        the ten of clubs as ``10C`` as well as ``TC``) and refuse what cannot be one, with a
        :class:`WarrenError` saying which value is wrong and why ("9X is not a card").
        Recorded events never pass through here. Default: the value as given."""
        return value

    def pieces_named(self, state: S, field: str, value: Any) -> list[Any] | None:
        """What is in play that a value of an action's field, as typed, names, for a game
        whose actions name what is in play by a number (Odyssey's pieces): the numbers it
        may mean, the likeliest first (a card several pieces share names each of them, and
        the notation takes the first the rules allow). None: the value is not a name of
        something in play (a number, or a field that names nothing in play). A name no
        card has is refused with a :class:`WarrenError`. Default: None."""
        return None

    def is_card_phrase(self, phrase: str) -> bool:
        """Do several typed words make one card's name (``Blue Perky Bunny``)? The notation
        then reads them as one value. Default: no game has cards of several words."""
        return False

    def is_card_field(self, field: str) -> bool:
        """Does this field of an action name cards (typed by name, :meth:`read_value`)?"""
        return False

    def card_token(self, card: object) -> str | None:
        """A card as a person types it, which :meth:`read_value` reads back (its name, for
        the recorder's completions); None where the record's own spelling is the one to type."""
        return None

    def short_spellings(self, event: Event) -> tuple[str, ...]:
        """Shorter ways a scorekeeper may type an action the rules allow now, in the
        table's words, besides its notation (logstore.recording.shorthand): Bunnies writes
        a set of one rank as the rank then its suits (``9chs``). Default: none."""
        return ()

    def copies(self, card: Any) -> list[Any]:
        """Every card identical to ``card`` (itself first among them): the copies a name
        several cards share stands for. Default: the card alone."""
        return [card]

    def settle_copies(self, state: S, event: Event) -> Event:
        """A proposed action whose card was typed by a name several copies share, with the
        copy the actor can play (the one in his hand). Default: as proposed."""
        return event

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        """An event as ``perspective`` saw it happen.

        Default: the referee sees everything; a chance event (actor null: a deal, a shuffle)
        shows only its type to everyone else; a player's action is seen whole. Rulesets
        with private actions override this.
        """
        if type(event) is Correction:
            return correction_view(self, event, perspective, self._plain_event_view)
        return self._plain_event_view(event, perspective)

    event_view.__dict__["sees_corrections"] = True

    def _plain_event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        record: dict[str, Any] = msgspec.to_builtins(event)
        record.pop("hash", None)
        if perspective == "referee" or event.actor is not None:
            return record
        return {k: record[k] for k in ("seq", "type", "actor") if k in record}

    def redact(self, event: Event, perspective: Perspective, before: S) -> Event:
        """``event`` as ``perspective`` saw it happen, written as a record of a game played at
        the table writes it: every card the perspective did not see is ``"?"``
        (engine.hidden), every card it saw is named. ``before`` is the full position before
        the event. Folding the redacted events gives ``perspective`` the same view at every
        position as the full game does (the contract suite checks it). Default: the event
        as it is, for a game that declares :attr:`Capabilities.redacts` and has no hidden
        information; a game that does not declare it is refused here, so that no game hands
        out its whole record as a redacted one."""
        if self.capabilities.redacts:
            return event
        raise WarrenError(f"warren cannot write a {self.title} record as one seat saw it: "
                          "this game does not declare redaction")

    def violation_view(self, violation: Violation, perspective: Perspective, actor: int | None) -> Violation:
        """A violation as ``perspective`` may learn of it, like a view: the rule id (that the
        event breaks it is what the record shows) unless the id alone tells a secret
        (:attr:`secret_violations`), the message and the facts only
        where they hold nothing the perspective could not see. ``actor`` is the seat of the
        illegal event (None for chance). The referee sees everything; a rule in
        :attr:`public_violations` is shown whole to everybody, one in
        :attr:`actor_violations` to its actor too; anything else is told as the rule's own
        words, the facts withheld (a Townsfolk's illegal Sabotage must not tell the table
        who is Townsfolk, nor a lay of a card not in hand show that hand to the opponent)."""
        rule = violation.rule
        if perspective == "referee" or rule in self.public_violations:
            return violation
        own = rule in self.actor_violations or rule in self.secret_violations
        if actor is not None and perspective == actor and own:
            return violation
        if rule in self.secret_violations:
            return Violation(violation.seq, HIDDEN_RULE, HIDDEN_VIOLATION, {})
        who = "a spectator" if perspective == "spectator" else f"seat {perspective}"
        known = self.rulebook.get(rule)
        said = known.text if known is not None else "the rules forbid it"
        return Violation(violation.seq, rule,
                         f"{said} (what decided it is not shown: it involves what {who} could not see)",
                         {})

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        """An effect as ``perspective`` learnt of it (None: it learnt nothing). Default: all."""
        return effect

    def say(self, message: str, names: Names | None) -> str:
        """A rule's message (a refusal, an undetermined note) as the table says it: players
        by name, cards as :meth:`card_text` writes them. Rules write seats by number and
        cards as the record does (a rule knows no names); every message a person reads
        passes through here: its cards by :meth:`name_cards`, then its seats named."""
        return seats_named(self.name_cards(message), names)

    def name_cards(self, message: str) -> str:
        """A rule's message with its cards as the game writes them in a sentence (Bunnies'
        faces, 9♣; a Killer Bunnies card's name first). Default: as it is."""
        return message

    def card_text(self, card: object) -> str:
        """A card as a sentence names it, the one way every message of this ruleset writes
        a card (faces for playing cards, names with their number or code after). Accepts
        what the projections hold (a card as text: ``"17"``, ``"9C"``). Default: as is."""
        return str(card)

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        """A plain-text picture of a view (the CLI's ``replay``); rulesets draw their own."""
        width = max((len(k) for k in view), default=0)
        return "\n".join(f"{k.ljust(width)}  {v}" for k, v in view.items())

    def key_figures(self, state: S) -> dict[str, Any]:
        """A few numbers per position for per-turn statistics and charts."""
        if not self.figure_names:
            return {}
        row = self.figure_row(state)
        if not self.seat_figures:
            return dict(zip(self.figure_names, row, strict=True))
        seats = (len(row) - len(self.figure_names)) // len(self.seat_figures) + 1
        if len(row) != self.figure_width(seats):
            raise ValueError(f"{self.slug}: figure_row gave {len(row)} values, not a row of {seats} seats")
        out: dict[str, Any] = {}
        at = 0
        for name in self.figure_names:
            if name in self.seat_figures:
                out[name] = list(row[at:at + seats])
                at += seats
            else:
                out[name] = row[at]
                at += 1
        return out

    phase_words: ClassVar[dict[str, str]] = {"setup": "setting up", "over": "game over"}
    """Each phase of :attr:`GameState.phase` as the table says it ("a new run card at the
    bottom", not ``bottom``); a ruleset adds its own."""

    def phase_text(self, phase: str) -> str:
        """The phase in the table's words (an unlisted one with its underscores as spaces)."""
        return self.phase_words.get(phase, phase.replace("_", " "))

    figure_names: ClassVar[tuple[str, ...]] = ()
    """The names of :meth:`key_figures`, in order, for a ruleset that gives them as a row
    (:meth:`figure_row`): the projections then take them column-wise, one tuple per turn
    instead of a dict, which is most of what a projection costs beyond the replay."""

    seat_figures: ClassVar[frozenset[str]] = frozenset()
    """Those of :attr:`figure_names` that have a value per seat. :meth:`figure_row` gives each
    of them inline, as one value per seat in seat order (so a row has
    :meth:`figure_width` values), and :meth:`key_figures` shows it as a list. Without
    them a per-seat figure is a list inside the row, which costs a list per turn to build
    and to take apart."""

    def figure_width(self, seats: int) -> int:
        """The length of :meth:`figure_row`'s rows in a game of ``seats`` seats."""
        return len(self.figure_names) + len(self.seat_figures) * (seats - 1)

    def figure_row(self, state: S) -> tuple[Any, ...]:
        """The key figures of a position as a tuple in the order of :attr:`figure_names`,
        each of :attr:`seat_figures` as a value per seat (only asked of rulesets that name
        them)."""
        raise NotImplementedError(f"{self.slug} gives its key figures as a dict only")


EMPTY = NO_EFFECTS

HIDDEN_RULE = "?"
"""The rule id a perspective is shown of a violation whose id would tell it a secret
(:attr:`Ruleset.secret_violations`)."""

HIDDEN_VIOLATION = "an illegal hidden action: which rule it broke would tell a secret"


def correction_view(ruleset: Ruleset[Any, Any], event: Correction, perspective: Perspective,
                    view: Callable[[Event, Perspective], dict[str, Any]]) -> dict[str, Any]:
    """A correction as ``perspective`` saw it: the event it puts in place is shown as the
    game's ``view`` of that event shows it, never more (REC-FIX-1). A replacement that does
    not read as an event of the game (a malformed correction, REC-FIX-2) is shown to the
    referee only."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if event.event is None or perspective == "referee":
        return record
    fields = {k: v for k, v in event.event.items() if k not in ("seq", "hash")}
    try:
        replacement = ruleset.decode_event({**fields, "seq": event.corrects})
    except (msgspec.ValidationError, TypeError, WarrenError):
        record["event"] = None
        return record
    seen = view(replacement, perspective)
    record["event"] = {k: v for k, v in seen.items() if k != "seq"}
    return record
