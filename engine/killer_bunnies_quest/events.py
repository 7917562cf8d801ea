"""The events of a game of Killer Bunnies Quest: what chance, the players and the table did.

Cards are named by their numbers (the catalogue says what each is). Chance events have a
null actor: ``setup`` (every shuffle of the set-up and the first player), ``reshuffle``
(a new draw pile) and ``roll`` (dice). Everything else is a seat's action.

A record comes in two forms (docs/record-format.md). The *full form* (simulated games, a
digital table) names the shuffled order of every pile at the set-up and every reshuffle,
so the engine knows each card before it is drawn and draws need no event. The *table
form* (``source: "recorded"`` and a set-up without the piles' order, ruling R-KBQ-40)
records what the table saw: each card taken off a face-down pile is a ``draw`` event (the
card, or ``"?"`` when only its drawer saw it), a reshuffle has no order, and the Magic
Carrot is a ``reveal`` at the end. A card nobody at the table saw is ``"?"``.
Consequences (a bunny dies, change is taken, the game ends) are effects the engine derives,
each citing its rule.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.record import Event

Unseen = Literal["?"]
"""A card the record does not name (engine.hidden.UNKNOWN): only in the table form."""


class Setup(Event, tag="setup", frozen=True, kw_only=True):
    """Chance: the set-up's shuffles and the first player (KBQ-SET-1..3, KBQ-END-2)."""

    draw: list[int] | None = None
    """The shuffled draw pile, top card first; None in the table form (nobody saw it)."""
    cabbage: list[int] | None = None
    """The shuffled small Cabbage deck, top card first (None: the table form)."""
    water: list[int] | None = None
    carrots: list[int] | None = None
    """The shuffled small Carrot deck, top card first: the last one names the Magic Carrot
    (None: the table form, where the Magic Carrot is revealed at the end)."""
    first: int
    """The seat that plays first."""
    gifts: list[list[int]] = msgspec.field(default_factory=list)
    """House rule KBQ-LEN-1: carrots each seat starts with (picked at random)."""
    removed: list[int] = msgspec.field(default_factory=list)
    """House rule KBQ-LEN-2: Choose A Carrot cards left out of the draw pile."""


class Runs(Event, tag="runs", frozen=True):
    """A player lays his first top and bottom run cards from the seven dealt (KBQ-SET-2)."""

    top: int | Unseen
    bottom: int | Unseen
    """Both face down: ``"?"`` in a table-form record whose recorder did not see them."""


class Flip(Event, tag="flip", frozen=True):
    """The player turns up his top run card (KBQ-TURN-1, KBQ-RUN-1). In the table form it
    names the card turned up, which the whole table sees (REC-UNK-3)."""

    card: int | None = None


class Play(Event, tag="play", frozen=True):
    """A card is played: the flipped top run card, a Special from hand, a saved Special, or
    a Very Special (any turn). The fields a card needs are its choices (KBQ-CARD-*)."""

    card: int
    on: int | None = None
    """The bunny it goes on (weapons, feeds, modifiers, Area 51...)."""
    at: int | None = None
    """Where a bunny entering the circle goes: the index it takes (KBQ-POS-1)."""
    player: int | None = None
    """The player it names (Drought, Baker Street, Geneva Convention...)."""
    carrots: list[int] = msgspec.field(default_factory=list)
    """The carrots it takes (Choose A Carrot)."""
    number: int | None = None
    """The number named (The Magic Fountain)."""
    weapon: int | None = None
    """Rooney's Reusables: the weapon used again."""
    roamer: bool = False
    """The weapon is aimed at the roaming card waiting on bunny ``on``, not at the bunny."""
    stakes: list[int] = msgspec.field(default_factory=list)
    """Poverty Poker: Dolla, carrots and bunnies each player risks."""
    sources: list[int] = msgspec.field(default_factory=list)
    """Rock Bottom: the opponents taken from, cabbage first (only needed on a tie)."""


class Discard(Event, tag="discard", frozen=True):
    """The flipped top run card, or a Special from hand, is discarded as the turn's card; or
    a saved Minilith is given up (KBQ-TURN-1, KBQ-SPC-3)."""

    card: int


class Save(Event, tag="save", frozen=True):
    """The flipped Special or Very Special card is saved face up (KBQ-SPC-1)."""

    card: int


class Bottom(Event, tag="bottom", frozen=True):
    """A card from hand goes down as the new bottom run card (KBQ-TURN-3); face down, so
    ``"?"`` in a table-form record whose recorder did not see it."""

    card: int | Unseen


class EndTurn(Event, tag="end_turn", frozen=True):
    """With a triplet, the player ends his turn without a second card (KBQ-TRIP-1)."""


class Buy(Event, tag="buy", frozen=True):
    """One card from the market: a cabbage card, a water card or a named carrot (KBQ-MKT-1).
    ``pay`` names the Dolla cards handed over; without it warren picks the smallest
    payment that covers the price."""

    goods: Literal["cabbage", "water", "carrot"]
    carrot: int | None = None
    pay: list[int] | None = None


class Feed(Event, tag="feed", frozen=True):
    """The owner feeds a bunny: every demand on it, or the one from card ``demand``, paid with
    the cabbage and water cards named (or warren's smallest payment) (KBQ-FEED-2)."""

    bunny: int
    demand: int | None = None
    cabbage: list[int] | None = None
    water: list[int] | None = None


class Starve(Event, tag="starve", frozen=True):
    """The owner lets a feed due at once go unpaid; the bunny dies (KBQ-FEED-6)."""

    bunny: int


class Trade(Event, tag="trade", frozen=True):
    """Two players trade: the actor gives ``give`` and gets ``get`` from ``partner`` (face-up
    things: supplies, Dolla, saved cards, carrots, bunnies), and hand cards one for one
    (``give_hand``, ``get_hand``: only the two traders see which) (KBQ-TRADE-1..5)."""

    partner: int
    give: list[int] = msgspec.field(default_factory=list)
    get: list[int] = msgspec.field(default_factory=list)
    give_hand: list[int | Unseen] = msgspec.field(default_factory=list)
    get_hand: list[int | Unseen] = msgspec.field(default_factory=list)
    """Hand cards: ``"?"`` in a table-form record for a card only the traders saw."""


class Roll(Event, tag="roll", frozen=True):
    """Chance: the dice rolled for what the game waits on (KBQ-DICE-1). In a roll-off the
    card's player's re-roll is written as a second face (KBQ-DICE-2)."""

    faces: list[int]


class Bid(Event, tag="bid", frozen=True):
    """A bid in an auction (KBQ-BID-1)."""

    amount: int


class Pass(Event, tag="pass", frozen=True):
    """The player passes in an auction, for good (KBQ-BID-1)."""


class Stake(Event, tag="stake", frozen=True):
    """What a player puts up: the carrots and bunnies he risks at Poverty Poker, the bunny he
    puts up at Russian Roulette (KBQ-CARD-POVERTY-POKER, KBQ-CARD-RUSSIAN-ROULETTE)."""

    carrots: list[int] = msgspec.field(default_factory=list)
    bunnies: list[int] = msgspec.field(default_factory=list)


class Choose(Event, tag="choose", frozen=True):
    """A choice the game waits for after a card's roll or on the player it names: the
    carrots taken, the bunnies chosen (to revive, to die, to return), where they go, the
    bunnies clovers go under, the weapons swapped, the carrots kept and their payment."""

    carrots: list[int] = msgspec.field(default_factory=list)
    bunnies: list[int] = msgspec.field(default_factory=list)
    at: list[int] = msgspec.field(default_factory=list)
    under: list[int] = msgspec.field(default_factory=list)
    give: int | Unseen | None = None
    take: int | Unseen | None = None
    """Rooney's Weapons Exchange: ``"?"`` in a table-form record for a weapon only the two
    players saw."""
    pay: list[int] | None = None


class Join(Event, tag="join", frozen=True):
    """A late player joins the game (KBQ-JOIN-1)."""


class Leave(Event, tag="leave", frozen=True):
    """A player leaves the game early (KBQ-LEAVE-1)."""


class Reshuffle(Event, tag="reshuffle", frozen=True):
    """Chance: the discard pile's large cards as the new draw pile, top first (KBQ-SHUF-1);
    no order in the table form (nobody saw it)."""

    order: list[int] | None = None


class Draw(Event, tag="draw", frozen=True):
    """Chance, table form only: the card a face-down pile gives ``seat`` now (ruling
    R-KBQ-40). The game says which pile: the draw pile (the deal, a draw back to five, a
    replacement), or the small Cabbage or Water deck (a purchase, a free supply, a prize).
    A card that goes to a hand may be ``"?"``; a Dolla, a Play Immediately card and a
    supply card go face up, so the record names them (REC-UNK-3)."""

    seat: int
    card: int | Unseen


class Reveal(Event, tag="reveal", frozen=True):
    """Table form only: cards the game turns up that nobody had seen. With no ``seat``, the
    bottom card of the small carrot deck when the game ends, which names the Magic Carrot
    (KBQ-END-2); with a ``seat``, the weapons a card makes that player show from his hand
    (Geneva Convention, Rooney's Weapons Exchange; ruling R-KBQ-43); with ``look``, the
    face-down top run card passed to ``seat`` (Top Run Rotate), which only he sees: in his own
    record it names the card, in anybody else's it names none (R-KBQ-45)."""

    cards: list[int]
    seat: int | None = None
    look: bool = False


EVENT_TYPES: tuple[type[Event], ...] = (
    Setup, Runs, Flip, Play, Discard, Save, Bottom, EndTurn, Buy, Feed, Starve, Trade, Roll,
    Bid, Pass, Stake, Choose, Join, Leave, Reshuffle, Draw, Reveal,
)
