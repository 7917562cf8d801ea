"""What each perspective sees of an Odyssey position and of each event, and the record a seat
(or the table) could have written of a game (engine.redact).

Hands, draw piles and run cards are hidden: a seat sees its own hand and run cards, and of
the others how many cards they hold and whether their run positions are filled. Saved cards,
discard piles, the Bunny Circle and the Center Circle lie face up for everybody (ODY-SAVE-1).
The referee sees everything, the draw piles' order included.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from engine.capabilities import Perspective
from engine.hidden import UNKNOWN
from engine.killer_bunnies_odyssey.events import (
    Bottom,
    Deal,
    Discard,
    Draw,
    Flip,
    Overdraw,
    Play,
    Runs,
    Shuffle,
)
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards, totals
from engine.record import Event
from engine.rules import Effect
from engine.said import Card, Cards, CountOfCards, Meaning, PerSeat, Seat, Seats, View

HIDDEN = "hidden"


PIECE = Meaning("an Odyssey card in play")
"""Odyssey's own meaning: a card in play, told by its card and its piece number."""


class PieceSeen(msgspec.Struct, kw_only=True):
    """A card in play (a piece): its number, its card, and whose it is where that matters."""

    piece: int
    card: Card
    name: str


class OwnedPiece(PieceSeen, kw_only=True):
    owner: Seat


class SavedPiece(PieceSeen, kw_only=True):
    """A saved card (ODY-SAVE-1): its type, its resource colour, whether it has paid."""

    type: str
    colour: str | None
    used: bool
    traded: bool


class RunSeen(msgspec.Struct, kw_only=True):
    """A player's run positions: codes to their owner and the referee, ``hidden`` to
    others, None when empty."""

    top: Card | None
    bottom: Card | None


class SeatSeen(msgspec.Struct, kw_only=True):
    """One player as a perspective sees him."""

    seat: Seat
    deck: str
    civ: int
    total: int
    hand: Cards | CountOfCards
    run: RunSeen
    draw: Cards | CountOfCards
    discard: Cards
    saved: list[Annotated[SavedPiece, PIECE]]
    mulliganed: bool
    turns: int


class CreatureSeen(OwnedPiece, kw_only=True):
    """A creature in the Bunny Circle and what lies under and on it."""

    points: int
    bunny: bool
    traded: bool
    under: list[Annotated[PieceSeen, PIECE]]
    on: list[Annotated[PieceSeen, PIECE]]


class Occupant(PieceSeen, kw_only=True):
    points: int


class CitySeen(OwnedPiece, kw_only=True):
    """A city in the Center Circle and who is inside it."""

    points: int
    capacity: int | None
    traded: bool
    occupants: list[Annotated[Occupant, PIECE]]


class DemandSeen(msgspec.Struct, kw_only=True):
    """A Feed The Bunny card on a bunny: whose, by whom, how much, by when."""

    piece: int
    on: int
    owner: Seat
    by: Seat | None
    units: int
    due_turn: int | None


class StrikeSeen(msgspec.Struct, kw_only=True):
    """An attack under way."""

    card: Card
    name: str
    player: Seat
    kind: str
    die: str | None
    targets: list[int]
    levels: list[int]


class OdysseyView(View, kw_only=True):
    """What a perspective knows of an Odyssey position (views.view)."""

    hand_size: int
    first: Seat | None
    seats: PerSeat[SeatSeen]
    circle: list[Annotated[CreatureSeen, PIECE]]
    center: list[Annotated[CitySeen, PIECE]]
    demands: list[DemandSeen]
    strike: StrikeSeen | None
    placing: list[Annotated[OwnedPiece, PIECE]]
    shuffle_owed: Seats
    cut_owed: Seat | None
    winners: Seats


def view(state: OdysseyState, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` knows of the position, as the JSON of :class:`OdysseyView`."""
    out: dict[str, Any] = msgspec.to_builtins(typed_view(state, perspective))
    return out


def typed_view(state: OdysseyState, perspective: Perspective) -> OdysseyView:
    """What ``perspective`` knows of the position."""
    t = cards(state)
    referee = perspective == "referee"
    scores = totals(state)
    pieces = state.pieces

    def piece(pid: int) -> PieceSeen:
        kind = pieces[pid].kind
        return PieceSeen(piece=pid, card=t.code(kind), name=t.name[kind])

    seats = []
    for seat, s in enumerate(state.seats):
        own = referee or perspective == seat
        top, bottom = ((None if kind is None else (t.code(kind) if own else HIDDEN))
                       for kind in (s.run.top, s.run.bottom))
        saved = []
        for pid in s.saved:
            p = pieces[pid]
            saved.append(SavedPiece(piece=pid, card=t.code(p.kind), name=t.name[p.kind],
                                    type=t.type[p.kind], colour=t.resource[p.kind], used=p.used,
                                    traded=p.traded))
        seats.append(SeatSeen(
            seat=seat, deck=t.deck_of(seat), civ=s.civ, total=scores[seat],
            hand=[t.code(k) for k in s.hand] if own else len(s.hand),
            run=RunSeen(top=top, bottom=bottom),
            draw=[t.code(k) for k in reversed(s.draw)] if referee else len(s.draw),
            discard=[t.code(k) for k in s.discard],
            saved=saved, mulliganed=s.mulliganed, turns=s.turns,
        ))
    circle = []
    for pid in state.circle.order:
        p = pieces[pid]
        space = state.circle.spaces[pid]
        points = t.points[p.kind] + sum(t.modifier_points[pieces[m].kind] for m in space.under)
        circle.append(CreatureSeen(piece=pid, card=t.code(p.kind), name=t.name[p.kind], owner=p.owner,
                                   points=points, bunny=t.bunny[p.kind], traded=p.traded,
                                   under=[piece(m) for m in space.under],
                                   on=[piece(m) for m in space.on]))
    center = []
    for pid in state.center.order:
        p = pieces[pid]
        space = state.center.spaces[pid]
        center.append(CitySeen(piece=pid, card=t.code(p.kind), name=t.name[p.kind], owner=p.owner,
                               points=t.points[p.kind], capacity=t.capacity[p.kind], traded=p.traded,
                               occupants=[Occupant(piece=c, card=t.code(pieces[c].kind),
                                                   name=t.name[pieces[c].kind],
                                                   points=t.points[pieces[c].kind])
                                          for c in space.inside]))
    strike = None
    if state.strike is not None:
        st = state.strike
        strike = StrikeSeen(card=t.code(st.card), name=t.name[st.card], player=st.player,
                            kind=st.kind, die=st.die, targets=list(st.targets), levels=list(st.levels))
    return OdysseyView(
        **state.position_view(perspective),
        hand_size=state.opts.hand_size,
        first=state.first if state.phase not in ("setup", "first") else None,
        seats=seats,
        circle=circle,
        center=center,
        demands=[DemandSeen(piece=d.card, on=d.bunny, owner=d.owner, by=d.placed_by,
                            units=d.cabbage + d.water, due_turn=d.due_turn) for d in state.demands],
        strike=strike,
        placing=[OwnedPiece(piece=pid, card=t.code(pieces[pid].kind), name=t.name[pieces[pid].kind],
                            owner=pieces[pid].owner) for pid in state.placing],
        shuffle_owed=list(state.shuffles),
        cut_owed=state.cut_owed,
        winners=list(state.winners),
    )


_PRIVATE: dict[type[Event], tuple[str, ...]] = {
    Deal: ("cards",), Draw: ("card",), Flip: ("drew",), Play: ("drew",), Discard: ("drew",),
    Overdraw: ("card",),
}


def event_view(event: Event, perspective: Perspective) -> dict[str, Any]:
    """An event as ``perspective`` saw it: the shuffled order is nobody's but the referee's;
    what a player drew, dealt himself or put face down is his own."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if perspective == "referee":
        return record
    if isinstance(event, Shuffle):
        record.pop("order", None)
        return record
    if perspective == event.actor:
        return record
    for name in _PRIVATE.get(type(event), ()):
        record.pop(name, None)
    if isinstance(event, Bottom):
        record["card"] = UNKNOWN
    if isinstance(event, Runs):
        record["top"] = record["bottom"] = UNKNOWN
    return record


def seen_in_play(event: Event, record: dict[str, Any], before: OdysseyState) -> dict[str, Any]:
    """``record`` (the event as a perspective saw it) with what everybody sees at the table
    added from the position it was played at: the card a flip turns up (face up for all,
    whatever is done with it) and the cards of the pieces in play it names (``target``,
    ``into``, ``piece``, ``demand``, a trade's ``give`` and ``take``), as codes under
    ``*_card`` keys. Nothing hidden is added: a drawn card stays as the perspective saw it."""
    t = cards(before)
    out = dict(record)

    def code(pid: Any) -> str | None:
        p = before.pieces.get(pid) if isinstance(pid, int) else None
        return t.code(p.kind) if p is not None and p.kind else None

    if isinstance(event, Flip) and event.actor is not None and "card" not in out:
        top = before.seats[event.actor].run.top
        if top:
            out["card"] = t.code(top)
    for key in ("target", "into", "piece", "demand"):
        found = code(out.get(key))
        if found is not None:
            out[f"{key}_card"] = found
    for key in ("give", "take"):
        if out.get(key):
            out[f"{key}_cards"] = [code(pid) or UNKNOWN for pid in out[key]]
    return out


def effect_view(effect: Effect, perspective: Perspective) -> Effect | None:
    return effect


def redact(event: Event, perspective: Perspective, before: OdysseyState) -> Event:
    """The event as ``perspective`` would have recorded it at the table (engine.redact)."""
    if perspective == "referee":
        return event
    t = cards(before)
    mine = perspective == event.actor

    def top(seat: int, depth: int = 0) -> str | None:
        pile = before.seats[seat].draw
        return t.code(pile[-1 - depth]) if len(pile) > depth else None

    def named(recorded: str | None, known: str | None) -> str | None:
        # A card the record names is the card; the position is asked only where the record
        # leaves it out (a game recorded at the table knows its piles as "?"), so redacting
        # a redacted record again gives the same record.
        if recorded is not None and recorded != UNKNOWN:
            return recorded
        return known if known is not None and known != UNKNOWN else recorded

    if isinstance(event, Shuffle):
        return msgspec.structs.replace(event, order=None)
    if isinstance(event, Deal):
        assert event.actor is not None
        said = event.cards or []
        cards_dealt = [named(said[i] if i < len(said) else None, top(event.actor, i)) or UNKNOWN
                       for i in range(7)]
        return msgspec.structs.replace(event, cards=cards_dealt if mine else None)
    if isinstance(event, Draw | Overdraw):
        assert event.actor is not None
        return msgspec.structs.replace(event, card=named(event.card, top(event.actor)) if mine else None)
    if isinstance(event, Runs):
        return event if mine else msgspec.structs.replace(event, top=UNKNOWN, bottom=UNKNOWN)
    if isinstance(event, Flip):
        assert event.actor is not None
        s = before.seats[event.actor]
        flipped = named(event.card, t.code(s.run.top) if s.run.top else None)
        drew = named(event.drew, top(event.actor)) if mine else None
        return msgspec.structs.replace(event, card=flipped, drew=drew)
    if isinstance(event, Play | Discard):
        assert event.actor is not None
        return msgspec.structs.replace(event, drew=named(event.drew, top(event.actor)) if mine else None)
    if isinstance(event, Bottom):
        return event if mine else msgspec.structs.replace(event, card=UNKNOWN)
    return event
