"""What each perspective knows of a game of KinderBunnies, and the record a seat or the
table could have written (engine.redact).

Everything on the table is public: bunnies, Bunny Bucks, carrots, the carrot pile, the
discard pile, the card being settled and its dice. Hands are seen only by their holders,
the draw pile's cards by nobody, and the Orange deck by nobody until its bottom card is
turned up at the end. The referee sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from engine.capabilities import Perspective
from engine.hidden import UNKNOWN
from engine.kinderbunnies.events import Choose, Draw, SetAside
from engine.kinderbunnies.state import HIDDEN, KinderState
from engine.kinderbunnies.table import cards, money, pile_size
from engine.record import Event
from engine.said import (
    Card,
    Cards,
    Carrot,
    Carrots,
    CountOfCards,
    Meaning,
    Money,
    PerSeat,
    Roll,
    Seat,
    Seats,
    View,
)


def _card(c: int) -> int | str:
    return UNKNOWN if c == HIDDEN else c


LEVEL = Meaning("a KinderBunnies level")
"""KinderBunnies' own meaning: the level a game is played at (Beginner, Advanced, Really
Advanced)."""
SETTLING = Meaning("a KinderBunnies card being settled")
"""KinderBunnies' own meaning: the card being settled and what it waits for."""


class Settling(msgspec.Struct, kw_only=True):
    """The card being settled (state.Task) as every perspective sees it."""

    card: Card
    name: str
    seat: Seat
    step: str
    """What it waits for (words.STEPS)."""
    bunny: Card | None
    owner: Seat | None
    """The player whose bunny it is on, or who answers it."""
    faces: Roll
    held: bool
    """A Re-Roll or a hazard holds the roll."""
    dice: int
    """How many dice it rolls."""
    number: int | None
    """The number it names."""
    passed: Seats | msgspec.UnsetType = msgspec.UNSET
    """Pass It Along: who has passed already."""
    staged: dict[str, Card] | msgspec.UnsetType = msgspec.UNSET
    """Pass It Along, the referee's view: what each seat passes."""


class KinderView(View, kw_only=True):
    """What a perspective knows of a game of KinderBunnies (views.view)."""

    level: Annotated[str, LEVEL]
    hand_size: int
    hands: PerSeat[Cards | CountOfCards]
    """Each hand, as cards where the perspective sees it, as a count where it does not."""
    table: PerSeat[Cards]
    """Each player's bunnies."""
    bucks: PerSeat[Money]
    buck_cards: PerSeat[Cards]
    carrots: PerSeat[Carrots]
    carrot_pile: Carrots
    draw_pile: Cards | int
    """The referee sees its cards; everyone else its size."""
    discard: Cards
    orange: Cards | int
    """The Orange deck: the referee sees its cards; everyone else its size."""
    magic: Carrot | None
    """The carrot the bottom Orange card names, once turned up (Really Advanced)."""
    dealing: bool
    refill: Seats
    """Who still draws back up to a full hand."""
    skips: PerSeat[int]
    """Turns each player is to miss."""
    played: bool
    forced: Card | None
    """The card Buy Back brought back, to be played now."""
    settling: Annotated[Settling | None, SETTLING]
    scores: PerSeat[int] | None
    winners: Seats | None


def view(state: KinderState, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` knows of the position, as the JSON of :class:`KinderView`."""
    out: dict[str, Any] = msgspec.to_builtins(typed_view(state, perspective))
    return out


def typed_view(state: KinderState, perspective: Perspective) -> KinderView:
    """What ``perspective`` knows of the position."""
    referee = perspective == "referee"
    C = cards(state)
    hands: list[Sequence[int | str | None] | int] = []
    for s in range(state.n):
        if referee or s == perspective:
            hands.append([_card(c) for c in sorted(state.hands[s])])
        else:
            hands.append(len(state.hands[s]))
    task = state.task
    settling: Settling | None = None
    if task is not None:
        settling = Settling(card=task.card, name=C.name[task.card], seat=task.seat,
                            step=task.step, bunny=task.bunny, owner=task.owner,
                            faces=list(task.faces), held=task.held, dice=task.dice,
                            number=task.number)
        if task.step == "pass":
            settling.passed = sorted(task.staged)
            if referee:
                settling.staged = {str(k): _card(v) for k, v in sorted(task.staged.items())}
    orange: list[int | str] | int = [_card(c) for c in state.orange] if referee else len(state.orange)
    return KinderView(
        **state.position_view(perspective),
        level=state.level,
        hand_size=state.hand_size,
        hands=hands,
        table=[list(t) for t in state.table],
        bucks=[money(state, s) for s in range(state.n)],
        buck_cards=[sorted(b) for b in state.bucks],
        carrots=[[C.letter(c) for c in sorted(own)] for own in state.carrots],
        carrot_pile=[C.letter(c) for c in state.carrot_pile],
        # the referee sees every card of the pile; in a game recorded at the table the ones
        # nobody saw are "?" (pile_hidden), so the count is the pile's whole size either way
        draw_pile=[*sorted(state.pile), *[UNKNOWN] * state.pile_hidden] if referee else pile_size(state),
        discard=list(state.discard),
        orange=orange,
        magic=None if state.magic is None else C.orange_letter[state.magic],
        dealing=state.dealing,
        refill=list(state.refill),
        skips=list(state.skips),
        played=state.played,
        forced=state.forced,
        settling=settling,
        scores=list(state.scores) if state.scores else None,
        winners=list(state.winners) if state.over else None,
    )


def redact(event: Event, perspective: Perspective, before: KinderState) -> Event:
    """What ``perspective`` saw of ``event``: a seat sees its own draws, the cards it passes and
    gets, both cards of a Secret Squid swap it is part of; everyone sees Bunny Bucks and Bad
    News as they are drawn (they go face up at once) and every card played."""
    if perspective == "referee":
        return event
    C = cards(before)
    if isinstance(event, SetAside):
        return msgspec.structs.replace(event, orange=[UNKNOWN] * len(event.orange))
    if isinstance(event, Draw):
        card = event.card
        public = isinstance(card, int) and (card in C.bucks or card in C.bad_news)
        if public or event.seat == perspective:
            return event
        return msgspec.structs.replace(event, card=UNKNOWN)
    if isinstance(event, Choose) and before.task is not None:
        task = before.task
        seat = event.actor
        if task.step == "pass" and seat is not None:
            if perspective in (seat, (seat + 1) % before.n):
                return event
            return msgspec.structs.replace(event, give=UNKNOWN)
        if task.step == "swap":
            if perspective in (task.seat, task.owner):
                return event
            return msgspec.structs.replace(event, give=UNKNOWN, take=UNKNOWN)
    return event


def event_view(event: Event, perspective: Perspective) -> dict[str, Any]:
    """An event as ``perspective`` saw it happen (without the position: a card passed or
    swapped is shown only to the player who gave it)."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if perspective == "referee":
        return record
    if isinstance(event, SetAside):
        record["orange"] = [UNKNOWN] * len(event.orange)
    elif isinstance(event, Draw) and event.seat != perspective and isinstance(event.card, int):
        from engine.kinderbunnies.catalogue import catalogue

        if catalogue().card(event.card).type not in ("money", "play_immediately"):
            record["card"] = UNKNOWN
    elif isinstance(event, Choose) and event.actor != perspective:
        for key in ("give", "take"):
            if record.get(key) is not None:
                record[key] = UNKNOWN
    return record

