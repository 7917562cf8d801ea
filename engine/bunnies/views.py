"""What each perspective knows of a game of Bunnies.

A seat sees its own hand, the cards of the face-up pile and the scored bunnies (they were
face up when laid), counts of everything else, and the blind cards it has looked at. A
spectator sees only what is public. The referee sees everything.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from engine.bunnies.events import Deal, Draw, Flip, Peek, Steal
from engine.bunnies.layout import ALL_SLOTS, is_uncovered
from engine.bunnies.state import BunniesState
from engine.hidden import UNKNOWN
from engine.record import Event
from engine.ruleset import Perspective
from engine.said import Card, Cards, CountOfCards, Meaning, PerSeat, Seat, View

HIDDEN = "??"
"""How a face-down card the perspective has not seen is shown."""


RANK = Meaning("a Bunnies rank")
"""Bunnies' own meaning: the rank a bunny is made of (``kings``)."""
BUNNY_KIND = Meaning("a kind of Bunnies bunny")
"""Bunnies' own meaning: a bunny, a royal bunny or a super bunny."""
SLOT = Meaning("a Bunnies blind card's place")

Rank = Annotated[str, RANK]
BunnyKind = Annotated[str, BUNNY_KIND]
Slot = Annotated[str, SLOT]


class BlindSeen(msgspec.Struct, kw_only=True):
    """A blind card on the table: its face where the perspective has seen it, and whether
    a card still lies on it."""

    card: Card
    covered: bool


class BunniesView(View, kw_only=True):
    """What a perspective knows of a game of Bunnies (views.view)."""

    hands: PerSeat[Cards | CountOfCards]
    blinds: dict[Slot, BlindSeen]
    stock: Cards | CountOfCards
    """The referee sees the stock's order; everyone else how many cards it holds."""
    pile: Cards
    bunnies: PerSeat[list[Rank]]
    bunny_action: BunnyKind | None
    """The bunny action a player owes for the bunny he just laid."""
    scores: PerSeat[int] | None
    out: Seat | None
    """The player who went out."""


def view(state: BunniesState, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` knows of the position, as the JSON of :class:`BunniesView`."""
    out: dict[str, Any] = msgspec.to_builtins(typed_view(state, perspective))
    return out


def typed_view(state: BunniesState, perspective: Perspective) -> BunniesView:
    """What ``perspective`` knows of the position."""
    referee = perspective == "referee"
    seat = perspective if isinstance(perspective, int) else None
    hands: list[list[str] | int] = []
    for s in (0, 1):
        if referee or s == seat:
            hands.append(sorted(state.hands[s], key=_order))
        else:
            hands.append(len(state.hands[s]))
    blinds: dict[str, BlindSeen] = {}
    for slot in ALL_SLOTS:
        card = state.blinds.get(slot)
        if card is None:
            continue
        seen = (referee or (seat is not None and slot in state.known[seat])) and card != UNKNOWN
        blinds[slot] = BlindSeen(card=card if seen or referee else HIDDEN,
                                 covered=not is_uncovered(slot, state.blinds))
    return BunniesView(
        **state.position_view(perspective),
        hands=list(hands),
        blinds=blinds,
        stock=list(reversed(state.stock)) if referee else len(state.stock),
        pile=list(state.pile),
        bunnies=[list(state.bunnies[0]), list(state.bunnies[1])],
        bunny_action=state.owed,
        scores=state.scores,
        out=state.out,
    )


def _order(card: str) -> tuple[int, str]:
    from engine.bunnies.numbers import CARD_VALUE

    # Unknown cards of a game recorded at the table ("?") come last.
    return CARD_VALUE.get(card, 99), card[-1]


def _named(recorded: str | None, known: str | None) -> str | None:
    """The card a record names if it names one, else what the position knows of it."""
    if recorded is not None and recorded != UNKNOWN:
        return recorded
    return known if known is not None and known != UNKNOWN else recorded


def redact(event: Event, perspective: Perspective, before: BunniesState) -> Event:
    """What ``perspective`` saw of ``event`` (engine.redact): a seat knows its own hand, what
    it drew, what it looked at and what a steal between the two players took; the table
    sees the cards laid and turned up, nothing else."""
    seat = perspective if isinstance(perspective, int) else None
    if perspective == "referee":
        return event
    if isinstance(event, Deal):
        def hide(cards: list[str]) -> list[str]:
            return [UNKNOWN] * len(cards)

        hands = [list(h) if s == seat else hide(h) for s, h in enumerate(event.hands)]
        return msgspec.structs.replace(event, hands=hands, blinds=[hide(b) for b in event.blinds],
                                       shared=hide(event.shared), stock=hide(event.stock))
    # A card the record names is the card; the state's is asked only where the record leaves
    # it out (a game recorded at the table knows its blinds and stock as "?", so redacting
    # such a record again must keep what it says: redaction is idempotent).
    if isinstance(event, Draw):
        card = _named(event.card, before.stock[-1] if before.stock else None)
        return msgspec.structs.replace(event, card=card if event.actor == seat else None)
    if isinstance(event, Flip):
        return msgspec.structs.replace(event, card=_named(event.card, before.blinds.get(event.slot)))
    if isinstance(event, Peek):
        card = _named(event.card, before.blinds.get(event.slot)) if event.actor == seat else None
        return msgspec.structs.replace(event, card=card)
    if isinstance(event, Steal) and seat is None:
        return msgspec.structs.replace(event, card=UNKNOWN)
    return event
