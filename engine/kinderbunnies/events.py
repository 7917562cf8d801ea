"""The events of a game of KinderBunnies: what chance, the table and the players did.

Cards are named by their numbers (the catalogue, cards/*.toml, says what each is). Chance
has a null actor: ``setaside`` (the Orange deck, Really Advanced), ``draw`` (one card off
the draw pile, named: the pile's order is never recorded, each draw is; R-KIN-16),
``roll`` (dice), ``spin`` (the table's judgement of Spin To Win) and ``reveal`` (the bottom
Orange card at the end). Everything else is a seat's action. In a game recorded at the
table a card nobody saw is ``"?"`` (engine.hidden; R-KIN-17).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.record import Event

Card = int | Literal["?"]
"""A card number, or ``"?"`` for a card the record does not know."""


class SetAside(Event, tag="setaside", frozen=True):
    """Chance, Really Advanced only: the shuffled Orange deck set aside, top card first; the
    last one is the bottom card (KIN-SET-2)."""

    orange: list[Card]


class Draw(Event, tag="draw", frozen=True):
    """Chance: ``seat`` takes card ``card`` off the draw pile (KIN-DEAL-1, KIN-DRAW-1)."""

    seat: int
    card: Card


class Buy(Event, tag="buy", frozen=True):
    """The player buys ``carrot`` for 10 Bunny Bucks, paying with the Buck cards ``pay`` (or
    warren's smallest payment) before his turn's card (KIN-BUY-1)."""

    carrot: int
    pay: list[int] | None = None


class Play(Event, tag="play", frozen=True):
    """A card from the hand: the turn's card, or an answer (a supply card to a Feed The
    Bunny, Safety Skunk, No News Is Good News, Re-Roll). The fields are the card's choices."""

    card: int
    on: int | None = None
    """The bunny it goes on (Feed The Bunny, Safety Hazard, Fugitive)."""
    player: int | None = None
    """The player it names (Drought, Maggots, Secret Squid)."""
    carrots: list[int] = msgspec.field(default_factory=list)
    """Carrots it takes from the pile (Take A Carrot, Take 2 Carrots, Carrot Trader)."""
    carrot: int | None = None
    """The carrot it gives back (Carrot Trader) or sends back (Return A Carrot)."""
    number: int | None = None
    """The number named (Hamlin Helper)."""
    die: int | None = None
    """The die rolled again, counted from 0 in the roll (Re-Roll)."""
    take: int | None = None
    """The card brought back from the discard pile (Buy Back)."""
    pay: list[int] | None = None
    """Buck cards paid (Buy Back); warren's smallest payment when left out."""


class Discard(Event, tag="discard", frozen=True):
    """The turn's card laid down for nothing: no card of the hand can be used (KIN-PLAY-1)."""

    card: int


class Accept(Event, tag="accept", frozen=True):
    """The owner lets a Feed The Bunny or a Safety Hazard go unanswered (KIN-FEED-1,
    KIN-CARD-SKUNK)."""


class Choose(Event, tag="choose", frozen=True):
    """A choice the game waits for: the bunnies lost or kept to Bad News, bunnies brought
    back, a carrot taken, the cards shown to Drought or Maggots, the card passed along, the
    cards swapped by Secret Squid."""

    bunnies: list[int] = msgspec.field(default_factory=list)
    carrots: list[int] = msgspec.field(default_factory=list)
    cards: list[Card] = msgspec.field(default_factory=list)
    give: Card | None = None
    take: Card | None = None


class Roll(Event, tag="roll", frozen=True):
    """Chance: the dice owed, one face each, 1 to 10 (a printed 0 may be written 0 or 10)
    (KIN-DICE-1)."""

    faces: list[int]


class Spin(Event, tag="spin", frozen=True):
    """Chance: the table names the player whose die spun longest (KIN-CARD-SPIN)."""

    winner: int


class Reveal(Event, tag="reveal", frozen=True):
    """Chance: the bottom Orange card turned up at the end of a Really Advanced game
    (KIN-RA-1)."""

    card: int


EVENT_TYPES: tuple[type[Event], ...] = (
    SetAside, Draw, Buy, Play, Discard, Accept, Choose, Roll, Spin, Reveal,
)
