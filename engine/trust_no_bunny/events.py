"""The events of a game of Trust No Bunny: what chance, the players and the timer did.

Chance events (roles, offers, deal, card_lost, draw) have a null actor; so has the timer.
Cards are recorded by value (1 to 4): cards of one value are alike.

A game recorded at the table (``source: "recorded"``) writes what nobody saw as ``"?"``
(engine.hidden): a role, a Quirk, a Mutation, an offered or chosen Item, a card's value, a
seat's whole draw; a night action nobody saw is an :class:`Act`; the event that ends such a
night states the :class:`NightStage` the table was shown, and the event that ends the game
may carry the :class:`Reveal` (docs/rulings.md, R-TNB-22 to R-TNB-26). Every field for it
is optional and left out by default, so a record that knows everything reads as before.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.record import Event

Unknown = Literal["?"]
"""A value nobody at the table saw (engine.hidden.UNKNOWN)."""
Card = int | Unknown
"""A card by value (1 to 4), or ``"?"`` for a card whose value nobody saw."""


class Notice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True, tag_field="kind"):
    """Something a seat was told at the night's stage, in the record of a game played at the
    table where the engine cannot work it out itself (R-TNB-25). ``kind`` is the kind of the
    note the seat was given."""

    seat: int
    """The seat that was told."""


class BlessedBy(Notice, tag="blessed_by", frozen=True, kw_only=True):
    """The seat learnt at dawn that ``by`` blessed it (TNB-HOME-2, R-TNB-15)."""

    by: int


class Sabotaged(Notice, tag="sabotaged", frozen=True, kw_only=True):
    """The seat was told of a right Sabotage against it: its Item is lost at dawn (TNB-SAB-3).
    One notice per right Sabotage told."""


class ItemLost(Notice, tag="item_lost", frozen=True, kw_only=True):
    """The seat found its Item gone at dawn without being told why: a right Sabotage under
    Stealth (TNB-MUT-3, TNB-ITEM-9)."""


class MedallionTold(Notice, tag="medallion", frozen=True, kw_only=True):
    """What the Medallion told its holder after a night on guard (TNB-ITEM-8)."""

    weakened_by_others: int


class GazeTold(Notice, tag="gaze", frozen=True, kw_only=True):
    """What the Crystal Ball showed the seat of the player it gazed at (TNB-ITEM-4)."""

    werebunny: bool


class GuessTold(Notice, tag="sabotage", frozen=True, kw_only=True):
    """Whether the seat's own Sabotage guessed right (TNB-SAB-3, R-TNB-12)."""

    right: bool


class SabotageCards(Notice, tag="sabotage_cards", frozen=True, kw_only=True):
    """Right Sabotages tonight, a card each for every Werebunny (TNB-SAB-3)."""

    cards: int


NOTICES: tuple[type[Notice], ...] = (BlessedBy, Sabotaged, ItemLost, MedallionTold, GazeTold, GuessTold,
                                     SabotageCards)
AnyNotice = BlessedBy | Sabotaged | ItemLost | MedallionTold | GazeTold | GuessTold | SabotageCards


class NightStage(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True,
                 kw_only=True):
    """The night's stage as the table was shown it (TNB-RES-1, TNB-MUT-1; R-TNB-11), written
    on the event that ends a night in a game recorded at the table (TNB-REC-1). The damage to
    the Wall and the Tower follows from ``unblocked`` by the rules (TNB-RES-2, TNB-RES-3)."""

    unblocked: int
    """Wolves that got through."""
    gnawed: int = 0
    """Points gnawed from home."""
    told: list[AnyNotice] = msgspec.field(default_factory=list)
    """What the record's seat (or seats) were told at the stage (TNB-REC-2); the table's
    own record lists nothing here."""


class Reveal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True):
    """What the end of the game shows everybody (R-TNB-18), written on the event that ends
    a game recorded at the table (TNB-REC-3)."""

    werebunnies: list[int]
    quirks: list[str | None]
    mutations: list[str | None]
    items: list[str | None]
    """The Item each seat chose."""
    hand_sizes: list[int]
    """Cards in each hand when the game ended."""


class Roles(Event, tag="roles", frozen=True):
    """Chance: who the Werebunnies are, every Quirk and Mutation, the first mayor
    (TNB-SET-1..4)."""

    werebunnies: list[int | Unknown]
    """The two Werebunnies' seats; ``"?"`` for one nobody knows (a recorded game)."""
    quirks: list[str | None]
    """Per seat: the Townsfolk's Quirk, null for a Werebunny, ``"?"`` where unknown."""
    mutations: list[str | None]
    """Per seat: the Werebunny's Mutation, null for a Townsfolk, ``"?"`` where unknown."""
    first_mayor: int


class Offers(Event, tag="offers", frozen=True):
    """Chance: the two Items offered to each seat (TNB-ITEM-1, TNB-ITEM-2)."""

    items: list[list[str]]
    """Per seat, two Items; ``"?"`` for one nobody saw."""


class ChooseItem(Event, tag="choose_item", frozen=True):
    """A player keeps one of its two offered Items (TNB-ITEM-3)."""

    item: str
    """The Item kept; ``"?"`` where nobody saw which."""


class Deal(Event, tag="deal", frozen=True):
    """Chance: each seat's three starting cards, by value (TNB-DEAL-1)."""

    hands: list[list[Card]]
    """Per seat, the three cards dealt; ``"?"`` for a card nobody saw."""


class Accuse(Event, tag="accuse", frozen=True):
    """During the muster, the player names two others as the Werebunnies (TNB-ACC-1)."""

    suspects: list[int]
    reveal: Reveal | None = None
    """What the end showed, when this accusation ends a recorded game (TNB-REC-3)."""


class Ready(Event, tag="ready", frozen=True):
    """During the muster, the player is done without accusing (TNB-MUSTER-1)."""


class CardLost(Event, tag="card_lost", frozen=True):
    """Chance: the card an accusation cost, picked at random from the hand (TNB-ACC-3)."""

    seat: int
    card: Card
    """The card lost; ``"?"`` where only its owner saw it."""


class Propose(Event, tag="propose", frozen=True):
    """The mayor proposes the night's guard team (TNB-DAY-1, TNB-DAY-2)."""

    team: list[int]


class Vote(Event, tag="vote", frozen=True):
    """A player accepts or rejects the proposed team (TNB-VOTE-1)."""

    accept: bool
    reveal: Reveal | None = None
    """What the end showed, when this vote ends a recorded game (TNB-REC-3)."""


class Guard(Event, tag="guard", frozen=True):
    """A guard's cards for the night: points to defend and, for a Werebunny, to weaken
    (TNB-GUARD-1..3). Either list may be empty."""

    defend: list[int] = msgspec.field(default_factory=list)
    weaken: list[int] = msgspec.field(default_factory=list)
    stage: NightStage | None = None
    """The stage, when this action ends a night of a recorded game (TNB-REC-1)."""


class HomeAction(Event, frozen=True):
    """Fields every home action shares: a Gnaw Werebunny may weaken from home (TNB-MUT-1)."""

    gnaw: list[int] = msgspec.field(default_factory=list)
    stage: NightStage | None = None
    """The stage, when this action ends a night of a recorded game (TNB-REC-1)."""


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


class Act(Event, tag="act", frozen=True):
    """A night action nobody at the table saw: the seat acted tonight, at the Tower or at
    home (TNB-NIGHT-1). Only in a game recorded at the table (REC-UNK-1, R-TNB-24)."""

    stage: NightStage | None = None
    """The stage, when this action ends the night (TNB-REC-1)."""


class Draw(Event, tag="draw", frozen=True):
    """Chance: the cards each seat draws at dawn, by value, seat 0 first (TNB-DRAW-1)."""

    cards: list[list[Card] | Unknown]
    """Per seat, the cards drawn; in a recorded game ``"?"`` for a card nobody saw, or for
    a seat's whole draw when not even its number was seen (R-TNB-23)."""
    reveal: Reveal | None = None
    """What the end showed, when this dawn ends a recorded game (TNB-REC-3)."""


class Staged(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """Cards a guard had put forward when the night's timer ran out (TNB-TIME-5)."""

    seat: int
    defend: list[int] = msgspec.field(default_factory=list)
    weaken: list[int] = msgspec.field(default_factory=list)


class Timeout(Event, tag="timeout", frozen=True):
    """The timer ran out in the current step (TNB-TIME-1..6); ``staged`` lists, for guards
    who had not submitted, the cards they had staged."""

    staged: list[Staged] = msgspec.field(default_factory=list)
    stage: NightStage | None = None
    """The stage, when this timeout ends a night of a recorded game (TNB-REC-1)."""
    reveal: Reveal | None = None
    """What the end showed, when this timeout ends a recorded game (TNB-REC-3)."""


HOME_ACTIONS: tuple[type[HomeAction], ...] = (Bless, Predict, Sabotage, Gaze, Brew, Rest)
EVENT_TYPES: tuple[type[Event], ...] = (
    Roles, Offers, ChooseItem, Deal, Accuse, Ready, CardLost, Propose, Vote, Guard,
    *HOME_ACTIONS, Draw, Timeout, Act,
)
CHANCE_EVENTS: tuple[type[Event], ...] = (Roles, Offers, Deal, CardLost, Draw)
