"""The benchmark's rule-free baseline for KinderBunnies (docs/performance.md).

``bare_fold`` replays a game's events on a plain table doing the bookkeeping the events
cause, with every rule check taken out: a draw moves a card from the pile to a hand (a
Buck to the table, a Bad News card to the discard pile), a card played goes to the table
or the discard pile and is owed back by a draw, a hazard's dice decide its bunny, an
unanswered feed loses it, and the turn passes once the hands are full again. Nothing is
checked and no card text is read. What checked replay costs beyond this is the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.kinderbunnies.catalogue import cards_for
from engine.kinderbunnies.events import Accept, Buy, Discard, Draw, Play, Roll
from engine.record import Event

_C = cards_for("really-advanced")
_BUCKS = frozenset(_C.bucks)
_BAD = _C.bad_news
_BUNNIES = _C.bunnies
_HAZARD = {n: getattr(e, "number", 0) for n, e in _C.effects.items()
           if n in _C.by_tag.get("safety-hazard", frozenset())}


class _Bare:
    __slots__ = ("active", "bucks", "carrots", "discard", "hands", "n", "on", "owed", "pile",
                 "table", "turn")

    def __init__(self, n: int) -> None:
        self.n = n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.table: list[list[int]] = [[] for _ in range(n)]
        self.bucks: list[list[int]] = [[] for _ in range(n)]
        self.carrots: list[list[int]] = [[] for _ in range(n)]
        self.pile: set[int] = set(_C.draw_pile)
        self.discard: list[int] = []
        self.owed: list[int] = []
        self.active = 0
        self.turn = 0
        self.on: tuple[int, int] | None = None
        """(card, bunny) being settled."""


def _lose(s: _Bare, bunny: int) -> None:
    for t in s.table:
        if bunny in t:
            t.remove(bunny)
            s.discard.append(bunny)


def _next_turn(s: _Bare) -> None:
    if not s.owed and s.on is None:
        s.active = (s.active + 1) % s.n
        s.turn += 1


def _draw(s: _Bare, e: Draw) -> None:
    card = e.card
    if not isinstance(card, int):
        return
    s.pile.discard(card)
    if card in _BUCKS:
        s.bucks[e.seat].append(card)
    elif card in _BAD:
        s.discard.append(card)
    else:
        s.hands[e.seat].append(card)
        if s.owed and s.owed[0] == e.seat:
            s.owed.pop(0)
            _next_turn(s)


def _play(s: _Bare, e: Play) -> None:
    seat = e.actor
    assert seat is not None
    hand = s.hands[seat]
    if e.card in hand:
        hand.remove(e.card)
    if e.card in _BUNNIES:
        s.table[seat].append(e.card)
    else:
        s.discard.append(e.card)
    for carrot in e.carrots:
        s.carrots[seat].append(carrot)
    if e.on is not None:
        s.on = (e.card, e.on)
    elif s.on is not None and seat != s.active:
        s.on = None
    s.owed.append(seat)


def _discard(s: _Bare, e: Discard) -> None:
    seat = e.actor
    assert seat is not None
    if e.card in s.hands[seat]:
        s.hands[seat].remove(e.card)
    s.discard.append(e.card)
    s.owed.append(seat)


def _buy(s: _Bare, e: Buy) -> None:
    assert e.actor is not None
    s.carrots[e.actor].append(e.carrot)


def _accept(s: _Bare, e: Accept) -> None:
    if s.on is not None and s.on[0] not in _HAZARD:
        _lose(s, s.on[1])
        s.on = None


def _roll(s: _Bare, e: Roll) -> None:
    if s.on is not None and s.on[0] in _HAZARD:
        if _HAZARD[s.on[0]] not in e.faces:
            _lose(s, s.on[1])
        s.on = None


def _none(s: _Bare, e: Event) -> None:
    return None


_FOLD: dict[type[Event], Callable[[_Bare, Any], None]] = {
    Draw: _draw, Play: _play, Discard: _discard, Buy: _buy, Accept: _accept, Roll: _roll}


def bare_fold(events: Sequence[Event], players: int) -> None:
    s = _Bare(players)
    fold = _FOLD
    for event in events:
        fold.get(type(event), _none)(s, event)
