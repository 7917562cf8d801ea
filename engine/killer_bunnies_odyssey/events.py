"""The events of a game of Killer Bunnies and the Ultimate Odyssey: what the players and chance
did. Consequences (a kill, a burn, a score, the end) are derived on replay as effects.

Cards in hands, piles and run positions are named by their Card Identification Number
(``WB07``); a game recorded at the table writes ``"?"`` for a card nobody saw (REC-UNK-1) and
names it when it comes to light. What is in play (saved cards, creatures, cities, Feed The
Bunny cards on a creature) is named by its *piece* number, given in order as things enter
play (1, 2, 3...; the views list them), so two copies of one card are told apart.

The four steps of a turn (ODY-TURN-2..5) are two events: ``flip`` (FLIP, what becomes of the
card, SLIDE and DRAW) and ``bottom`` (REPLACE). A card's dice come after the event that played
it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.record import Event


class Shuffle(Event, tag="shuffle", frozen=True):
    """Chance: a seat's draw pile shuffled (ODY-SHUF-1). ``order`` is top card first; null in
    a game recorded at the table when nobody saw the order."""

    seat: int
    order: list[str] | None = None


class Cut(Event, tag="cut", frozen=True):
    """An opponent of ``seat`` cuts its reshuffled draw pile, lifting ``depth`` cards off the
    top and putting them under (ODY-SHUF-2, ODY-SHUF-3)."""

    seat: int
    depth: int


class Deal(Event, tag="deal", frozen=True):
    """The player deals himself seven cards from his draw pile (ODY-DEAL-1). ``cards`` names
    them where the record knows them (left out when the shuffle's order is recorded)."""

    cards: list[str] | None = None


class Mulligan(Event, tag="mulligan", frozen=True):
    """No Resource among the first seven: the player shuffles them back to deal again, for 5
    Civ points (ODY-MULL-1, ODY-MULL-2)."""


class Runs(Event, tag="runs", frozen=True):
    """The player puts his first top and bottom run cards down from his hand (ODY-SET-1)."""

    top: str
    bottom: str


class Draw(Event, tag="draw", frozen=True):
    """Under the seven-card reading, the player draws back to seven once his run cards are
    down (ODY-HAND-1). ``card`` names the card where the record knows it."""

    card: str | None = None


class Roll(Event, tag="roll", frozen=True):
    """Chance: a die rolled by ``seat``: the d12 for the first player (ODY-SET-2), for a
    creature or city under attack (ODY-WPN-1, ODY-WPN-2), a card's d6 (ODY-CARD-10)."""

    seat: int
    face: int
    die: str = "d12"


class Choices(Event, frozen=True, kw_only=True):
    """What a played card asks for (ODY-CARD-1): every field is left out unless the card
    needs it."""

    target: int | None = None
    """A piece the card aims at: a creature, a city, one's own creature for a modifier or an
    answer to hunger, the waiting card a cancel answers."""
    opponent: int | None = None
    """The opponent a card names (a Civ raid, a hand fanned or looked at)."""
    at: int | None = None
    """Where what enters play goes in its circle: before the one at this index (0..len;
    left out: the end)."""
    into: int | None = None
    """The player's own city a creature goes inside instead of the Bunny Circle."""
    pay: dict[str, int] | None = None
    """The Resources that pay the cost, by colour (left out: warren's own choice)."""
    picked: str | None = None
    """The card picked from an opponent's hand: at random by back fanning (ODY-FAN-1), or the
    player's pick after looking (ODY-CARD-7)."""
    chosen: str | None = None
    """A card of the player's discard pile the card asks for (a creature to revive)."""


class Flip(Choices, tag="flip", frozen=True, kw_only=True):
    """FLIP, SLIDE and DRAW: the player turns up his top run card and plays, discards or
    saves it (ODY-TURN-2, ODY-TURN-6), the bottom card slides up (ODY-TURN-3) and he draws
    (ODY-TURN-4). ``card`` names the flipped card in a game recorded at the table (REC-UNK-3);
    ``drew`` the card drawn, where the record knows it."""

    how: Literal["play", "discard", "save"]
    card: str | None = None
    drew: str | None = None


class Play(Choices, tag="play", frozen=True, kw_only=True):
    """A Special card from the hand instead of the flip (ODY-SPEC-1), or a Very Special card
    from the hand on any turn (ODY-VSP-1); the replacement is drawn at once (``drew``)."""

    card: str
    drew: str | None = None
    save: bool = False
    """The player tries to save the card straight from his hand instead: never allowed
    (ODY-SPEC-3), recorded so that a table can ask."""


class Use(Choices, tag="use", frozen=True, kw_only=True):
    """A saved Special card on the player's own turn (ODY-SPEC-4), or a saved Very Special card
    on any turn (ODY-VSP-1)."""

    piece: int


class Discard(Event, tag="discard", frozen=True):
    """A Special or Very Special card discarded from the hand as the turn (ODY-SPEC-2), with a
    replacement drawn."""

    card: str
    drew: str | None = None


class Bottom(Event, tag="bottom", frozen=True):
    """REPLACE: a card from the hand goes down as the bottom run card; the turn ends
    (ODY-TURN-5). ``"?"`` where the record did not see it."""

    card: str


class Pass(Event, tag="pass", frozen=True):
    """A turn with nothing to play: no top run card and no Special card in hand (ODY-TURN-6)."""


class Feed(Event, tag="feed", frozen=True):
    """The owner feeds his creature against one Feed The Bunny card on it, paying a saved
    Resource per unit (ODY-FEED-1)."""

    demand: int
    """The Feed The Bunny card's piece."""
    pay: dict[str, int] | None = None


class Place(Event, tag="place", frozen=True):
    """A creature or city the player acquired (traded, stolen) goes where he likes
    (ODY-POS-1, ODY-POS-2, ODY-CITY-1)."""

    piece: int
    at: int | None = None
    into: int | None = None


class Trade(Event, tag="trade", frozen=True):
    """A trade between the actor and ``partner``, agreed at the table (ODY-TRADE-1..5): the
    pieces and hand cards each gives. Trades are made in the open, so every card is named."""

    partner: int
    give: list[int] = msgspec.field(default_factory=list)
    take: list[int] = msgspec.field(default_factory=list)
    give_hand: list[str] = msgspec.field(default_factory=list)
    take_hand: list[str] = msgspec.field(default_factory=list)


class Hexascrewup(Event, tag="hexascrewup", frozen=True):
    """The actor spots an extra card in ``against``'s hand; ``card`` is the card he picked from
    it at random (back fanning), discarded face up (ODY-HEX-1, ODY-HEX-2, ODY-FAN-1)."""

    against: int
    card: str


class Overdraw(Event, tag="overdraw", frozen=True):
    """A mistake the table records: the player drew a card he was not owed, and holds an extra
    card until somebody spots it (ODY-HEX-1). ``card`` where the record knows it."""

    card: str | None = None


EVENT_TYPES: tuple[type[Event], ...] = (
    Shuffle, Cut, Deal, Mulligan, Runs, Draw, Roll, Flip, Play, Use, Discard, Bottom, Pass,
    Feed, Place, Trade, Hexascrewup, Overdraw,
)

TABLE_EVENTS = frozenset({"shuffle", "roll"})
"""Types recorded by the table (a null actor)."""
