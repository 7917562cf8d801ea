"""The events of a game of Trust No Bunny: what chance, the players and the timer did.

Chance events (roles, offers, deal, card_lost, draw) have a null actor; so has the timer.
Cards are recorded by value (1 to 4): cards of one value are alike.
"""

from __future__ import annotations

import msgspec

from engine.record import Event


class Roles(Event, tag="roles", frozen=True):
    """Chance: who the Werebunnies are, every Quirk and Mutation, the first mayor
    (TNB-SET-1..4)."""

    werebunnies: list[int]
    quirks: list[str | None]
    """Per seat: the Townsfolk's Quirk, null for a Werebunny."""
    mutations: list[str | None]
    """Per seat: the Werebunny's Mutation, null for a Townsfolk."""
    first_mayor: int


class Offers(Event, tag="offers", frozen=True):
    """Chance: the two Items offered to each seat (TNB-ITEM-1, TNB-ITEM-2)."""

    items: list[list[str]]


class ChooseItem(Event, tag="choose_item", frozen=True):
    """A player keeps one of its two offered Items (TNB-ITEM-3)."""

    item: str


class Deal(Event, tag="deal", frozen=True):
    """Chance: each seat's three starting cards, by value (TNB-DEAL-1)."""

    hands: list[list[int]]


class Accuse(Event, tag="accuse", frozen=True):
    """During the muster, the player names two others as the Werebunnies (TNB-ACC-1)."""

    suspects: list[int]


class Ready(Event, tag="ready", frozen=True):
    """During the muster, the player is done without accusing (TNB-MUSTER-1)."""


class CardLost(Event, tag="card_lost", frozen=True):
    """Chance: the card an accusation cost, picked at random from the hand (TNB-ACC-3)."""

    seat: int
    card: int


class Propose(Event, tag="propose", frozen=True):
    """The mayor proposes the night's guard team (TNB-DAY-1, TNB-DAY-2)."""

    team: list[int]


class Vote(Event, tag="vote", frozen=True):
    """A player accepts or rejects the proposed team (TNB-VOTE-1)."""

    accept: bool


class Guard(Event, tag="guard", frozen=True):
    """A guard's cards for the night: points to defend and, for a Werebunny, to weaken
    (TNB-GUARD-1..3). Either list may be empty."""

    defend: list[int] = msgspec.field(default_factory=list)
    weaken: list[int] = msgspec.field(default_factory=list)


class HomeAction(Event, frozen=True):
    """Fields every home action shares: a Gnaw Werebunny may weaken from home (TNB-MUT-1)."""

    gnaw: list[int] = msgspec.field(default_factory=list)


class Bless(HomeAction, tag="bless", frozen=True, kw_only=True):
    """Give another player at home an extra card (TNB-HOME-2)."""

    target: int


class Predict(HomeAction, tag="predict", frozen=True, kw_only=True):
    """Guess whether the defences lose hit points tonight (TNB-HOME-3)."""

    damage: bool


class Sabotage(HomeAction, tag="sabotage", frozen=True, kw_only=True):
    """A Werebunny guesses another player's Quirk (TNB-SAB-1..3)."""

    target: int
    quirk: str


class Gaze(HomeAction, tag="gaze", frozen=True, kw_only=True):
    """Crystal Ball: learn whether another player is a Werebunny (TNB-ITEM-4)."""

    target: int


class Brew(HomeAction, tag="brew", frozen=True):
    """Mystical Recipe: gain two cards (TNB-ITEM-5)."""


class Rest(HomeAction, tag="rest", frozen=True):
    """Stay at home without an action; the dawn card still comes (TNB-HOME-1)."""


class Draw(Event, tag="draw", frozen=True):
    """Chance: the cards each seat draws at dawn, by value, seat 0 first (TNB-DRAW-1)."""

    cards: list[list[int]]


class Staged(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """Cards a guard had put forward when the night's timer ran out (TNB-TIME-5)."""

    seat: int
    defend: list[int] = msgspec.field(default_factory=list)
    weaken: list[int] = msgspec.field(default_factory=list)


class Timeout(Event, tag="timeout", frozen=True):
    """The timer ran out in the current step (TNB-TIME-1..6); ``staged`` lists, for guards
    who had not submitted, the cards they had staged."""

    staged: list[Staged] = msgspec.field(default_factory=list)


HOME_ACTIONS: tuple[type[HomeAction], ...] = (Bless, Predict, Sabotage, Gaze, Brew, Rest)
EVENT_TYPES: tuple[type[Event], ...] = (
    Roles, Offers, ChooseItem, Deal, Accuse, Ready, CardLost, Propose, Vote, Guard,
    *HOME_ACTIONS, Draw, Timeout,
)
CHANCE_EVENTS: tuple[type[Event], ...] = (Roles, Offers, Deal, CardLost, Draw)
