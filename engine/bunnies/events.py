"""The events of a game of Bunnies: what the table and the players did."""

from __future__ import annotations

from engine.record import Event


class Deal(Event, tag="deal", frozen=True):
    """Chance: the shuffled deck as it was dealt (BUN-DEAL-1). ``actor`` is null."""

    hands: list[list[str]]
    """Each seat's hand, seat 0 first."""
    blinds: list[list[str]]
    """Each seat's four own blind cards, columns 0..3 (slots ``<seat>.<column>``)."""
    shared: list[str]
    """The shared blind cards: left, right, top."""
    stock: list[str]
    """The face-down stock, top card first."""


class Draw(Event, tag="draw", frozen=True):
    """The player takes the top card of the stock (BUN-DRAW-1)."""

    card: str | None = None
    """The card drawn, where the record knows it (the drawer's own record of a game played
    at the table); left out when the stock's order is in the deal."""


class Lay(Event, tag="lay", frozen=True):
    """The player lays cards of one rank from hand onto the face-up pile (BUN-LAY-1)."""

    cards: list[str]


class Pickup(Event, tag="pickup", frozen=True):
    """The player, unable to beat the top card, takes the face-up pile (BUN-PICKUP-1)."""


class Flip(Event, tag="flip", frozen=True):
    """With an empty hand, the player turns up an uncovered blind card (BUN-BLIND-1)."""

    slot: str
    card: str | None = None
    """The card turned up: a recorded game names it when the deal left it unknown (REC-UNK-3)."""


class Steal(Event, tag="steal", frozen=True):
    """Bunny action: the card taken at random from the opponent (BUN-BUNNY-3); ``"?"`` in a
    recorded game where the scorekeeper did not see it."""

    card: str
    slot: str | None = None
    """The opponent's blind card taken, by its slot (under ``steal_from: hand_or_blind``,
    R-BUN-4): the whole table sees which one leaves, so a recorded game names the slot even
    when nobody saw the card's face (``"?"``, R-BUN-17). Without it a named card is looked
    for in the hand, then among the blind cards."""


class Peek(Event, tag="peek", frozen=True):
    """Bunny action: the player looks at one of their blind cards (BUN-BUNNY-4)."""

    slot: str
    card: str | None = None
    """What the player saw, in the looker's own record of a game played at the table."""


class EndTurn(Event, tag="end_turn", frozen=True):
    """After a bunny, the player ends the go instead of laying again (BUN-BUNNY-5)."""


EVENT_TYPES: tuple[type[Event], ...] = (Deal, Draw, Lay, Pickup, Flip, Steal, Peek, EndTurn)
