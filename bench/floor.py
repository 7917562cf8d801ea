"""The bare floor of Bunnies for the benchmark: the same events applied to a mutable state
with every rule check taken out. It moves the same cards, so it costs what the game's
bookkeeping costs; checked replay is compared with it (target: within 10x, see
docs/performance.md). Nothing in warren replays games with it.

The handlers index hands by ``e.actor``, which events type as ``int | None``: these events
always name a seat, and a floor checks nothing, so the index is left unnarrowed (mypy is told
so for the floors in pyproject.toml) rather than paying for a check the floor must not make.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import ALL_SLOTS
from engine.bunnies.numbers import CARD_VALUE
from engine.record import Event


class _Bare:
    __slots__ = ("active", "blinds", "hands", "pile", "stock")

    def __init__(self) -> None:
        self.hands: list[list[str]] = [[], []]
        self.blinds: dict[str, str] = {}
        self.stock: list[str] = []
        self.pile: list[str] = []
        self.active = 0


def _bare_deal(s: _Bare, e: Deal) -> None:
    s.hands = [list(e.hands[0]), list(e.hands[1])]
    s.blinds = dict(zip(ALL_SLOTS, [*e.blinds[0], *e.blinds[1], *e.shared], strict=True))
    s.stock = list(reversed(e.stock))


def _bare_draw(s: _Bare, e: Draw) -> None:
    s.hands[e.actor].append(s.stock.pop())


def _bare_lay(s: _Bare, e: Lay) -> None:
    hand = s.hands[e.actor]
    for card in e.cards:
        hand.remove(card)
    s.pile.extend(e.cards)
    if len(s.pile) >= 4 and len({c[0] for c in s.pile[-4:]}) == 1:
        del s.pile[-4:]


def _bare_pickup(s: _Bare, e: Pickup) -> None:
    s.hands[e.actor].extend(s.pile)
    s.pile = []


def _bare_flip(s: _Bare, e: Flip) -> None:
    card = s.blinds[e.slot]
    if not s.pile or CARD_VALUE[card] >= CARD_VALUE[s.pile[-1]]:  # the outcome, not a check
        del s.blinds[e.slot]
        s.pile.append(card)
        if len(s.pile) >= 4 and len({c[0] for c in s.pile[-4:]}) == 1:
            del s.pile[-4:]
    else:
        s.hands[e.actor].extend(s.pile)
        s.pile = []


def _bare_steal(s: _Bare, e: Steal) -> None:
    s.hands[1 - e.actor].remove(e.card)
    s.hands[e.actor].append(e.card)


def _bare_none(s: _Bare, e: Event) -> None:
    return None


# Each handler takes its own event class, a pairing a dict's type cannot express: Any.
BARE: dict[type[Event], Callable[[_Bare, Any], None]] = {
    Deal: _bare_deal, Draw: _bare_draw, Lay: _bare_lay, Pickup: _bare_pickup,
    Flip: _bare_flip, Steal: _bare_steal, Peek: _bare_none, EndTurn: _bare_none,
}


def _noop(s: _Bare, e: Event) -> None:
    return None


DISPATCH_ONLY = dict.fromkeys(BARE, _noop)


def dispatch_fold(events: list[Event]) -> None:
    """The loop and the dispatch alone: what no ruleset can go below."""
    state = _Bare()
    handlers = DISPATCH_ONLY
    for event in events:
        handlers[type(event)](state, event)


def bare_fold(events: list[Event]) -> None:
    state = _Bare()
    handlers = BARE
    for event in events:
        handlers[type(event)](state, event)
