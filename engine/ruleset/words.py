"""A ruleset in words: how its events, facts, positions and endings read, how a person
types its cards and values, and how its messages name players and cards (engine.wording).
One part of :class:`engine.ruleset.Ruleset`; every default works from :attr:`vocabulary`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from engine.capabilities import Perspective
from engine.corrections import Correction, Struck
from engine.record import Event, Header
from engine.rules import RuleViolation
from engine.wording import (
    GENERIC,
    REFUSED_DOINGS,
    Names,
    Vocabulary,
    change_lines,
    event_text,
    fact_text,
    outcome_text,
    refusal_for,
    seat_name,
    seats_named,
)

if TYPE_CHECKING:
    from engine.ruleset import Outcome

S = TypeVar("S")

_COPY = re.compile(r" \([0-9A-Z]+\)$")
"""The number or code a card's words end with, which tells its copies apart."""


class RulesetWords(Generic[S]):
    """The words of a ruleset (a part of :class:`engine.ruleset.Ruleset`)."""

    seat_figures: ClassVar[frozenset[str]]
    if TYPE_CHECKING:  # given by the other parts of Ruleset
        def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]: ...

    def for_game(self, header: Header) -> Self:
        """This ruleset as the game of ``header`` is worded: the same rules and answers, with
        what the header settles that an event alone does not say (a Killer Bunnies game
        names its cards from the catalogue its header names: its deck set, printing and
        extra decks). Whatever words one game's events (``warren replay``, disputes, the
        dashboard, the recorder) asks it once per game. Default: this ruleset."""
        return self

    def worded_vocabulary(self) -> Vocabulary:
        """:attr:`vocabulary` with whatever this game's words need beyond it (a Killer
        Bunnies game's writers for the cards of its own catalogue): what the defaults here
        and the Record page word values with. Default: :attr:`vocabulary`."""
        return self.vocabulary

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
        return event_text(self.worded_vocabulary(), self.event_view(event, perspective), names)

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        """What changed from one view (of :meth:`view`) to the next, one line per change,
        in words and with players by name. Default: :func:`engine.wording.change_lines`."""
        return change_lines(self.worded_vocabulary(), before, after, names)

    def describe_fact(self, key: str, value: Any, names: Names) -> str:
        """One named fact (a violation's, an effect's or a position's) as ``what: value``
        in words (``top card: Q♥``)."""
        return fact_text(self.worded_vocabulary(), key, value, names)

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
        return outcome_text(self.worded_vocabulary(), outcome, names)

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

    def say(self, message: str, names: Names | None) -> str:
        """A rule's message (a refusal, an undetermined note) as the table says it: players
        by name, cards as :meth:`card_text` writes them. Rules write seats by number and
        cards as the record does (a rule knows no names); every message a person reads
        passes through here: its cards by :meth:`name_cards`, then its seats named."""
        return seats_named(self.name_cards(message), names)

    option_help: ClassVar[Mapping[str, str]] = {}
    """Each option a table chooses (engine.options.questions) in a line of words: what it
    decides and what each of its values means, as the recorder asks it."""

    refusal_doings: ClassVar[Mapping[str, str]] = REFUSED_DOINGS
    """Each kind of event as ``Bo may not <it>`` says it (engine.wording.REFUSED_DOINGS)."""

    def name_refused(self, violation: RuleViolation, event: Event) -> None:
        """Make a refusal of ``event`` name the player it refuses, where the rule's message
        does not (``seat 1 may not pick up the pile: ...``): every refusal a person reads
        says who acted. Every fold that meets a refusal calls it, after :meth:`word_refusal`."""
        tag = str(type(event).__struct_config__.tag)
        said = refusal_for(violation.message, event.actor, tag, self.refusal_doings)
        if said != violation.message:
            violation.message = said
            violation.args = (f"{violation.rule}: {said}",)

    def name_cards(self, message: str) -> str:
        """A rule's message with its cards as the game writes them in a sentence (Bunnies'
        faces, 9♣; a Killer Bunnies card's name first). Default: as it is."""
        return message

    def card_text(self, card: object) -> str:
        """A card as a sentence names it, the one way every message of this ruleset writes
        a card (faces for playing cards, names with their number or code after). Accepts
        what the projections hold (a card as text: ``"17"``, ``"9C"``). Default: as is."""
        return str(card)

    def card_name(self, card: object) -> str:
        """A card by its name alone, as a table counts it: :meth:`card_text` without the number
        or code that tells its copies apart (``Take A Carrot``, not ``Take A Carrot (22)``)."""
        return _COPY.sub("", self.card_text(card))

    def card_rank(self, card: object) -> str | None:
        """The rank a card counts as, in a game whose plays are of one rank and a multiple
        (Bunnies: a pair of 9s), as the faces write it; None where every card is its own
        (default)."""
        return None

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        """A plain-text picture of a view (the CLI's ``replay``); rulesets draw their own."""
        width = max((len(k) for k in view), default=0)
        return "\n".join(f"{k.ljust(width)}  {v}" for k, v in view.items())

    phase_words: ClassVar[dict[str, str]] = {"setup": "setting up", "over": "game over"}
    """Each phase of :attr:`GameState.phase` as the table says it ("a new run card at the
    bottom", not ``bottom``); a ruleset adds its own."""

    def phase_text(self, phase: str) -> str:
        """The phase in the table's words (an unlisted one with its underscores as spaces)."""
        return self.phase_words.get(phase, phase.replace("_", " "))

    vocabulary: ClassVar[Vocabulary] = GENERIC
    """How the game's views, facts and records read in words (engine.wording): the
    defaults of the ``describe*`` methods word any game from it."""
