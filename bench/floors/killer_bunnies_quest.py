"""The bare floor of Quest for the benchmark: the same events folded into a mutable state with
every rule check taken out, no effects and no history, only the bookkeeping the cards need.

It deals, lays runs, flips, slides, draws (Dolla face up, misfortunes to the discard pile),
follows whose turn it is, puts bunnies into the circle, resolves weapons against the die
over their areas (the target, then ring by ring), places feed demands and starves the
bunnies left unfed when their owner's next turn ends, pays the market and feeds from the
supplies, moves carrots (bought or chosen) and traded hand cards, and reshuffles. What only
the rules' checks and the rarer cards need (protection, clovers, roaming cards, hooks,
auctions, IOUs) it leaves out: it moves the same cards at the cost of the outcome's
bookkeeping, which is what checked replay (``Ruleset.fold``) is compared with (target:
within 10x, see docs/performance.md). Nothing in warren replays games with it.

Handlers index seats by ``e.actor``, typed ``int | None``: these events always name a seat,
and a floor checks nothing, so the index is left unnarrowed (mypy is told so for the floors
in pyproject.toml) rather than paying for a check the floor must not make.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import cache
from typing import Any

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import events as ev
from engine.killer_bunnies_quest.catalogue import Deck, deck_for
from engine.killer_bunnies_quest.options import QuestOptions
from engine.record import Event


class _Cards:
    """Flat tables of one deck set, built once."""

    __slots__ = ("area", "bunny", "carrots", "feeds", "kind", "large", "level", "value")

    def __init__(self, deck: Deck) -> None:
        self.kind = dict(deck.type)
        self.value = dict(deck.value)
        self.bunny = frozenset(deck.bunny)
        self.large = deck.large
        self.carrots = list(deck.catalogue.numbers("carrot"))
        self.level: dict[int, int] = {}
        self.area: dict[int, fx.Area] = {}
        self.feeds: dict[int, tuple[int, int]] = {}
        for number, card in deck.catalogue.by_number.items():
            for effect in card.effects:
                if isinstance(effect, fx.Attack):
                    self.level[number] = effect.level
                    self.area[number] = effect.area
                elif isinstance(effect, fx.Feed) and effect.due != "now":
                    self.feeds[number] = (effect.cabbage, effect.water)


@cache
def _cards(deck_set: str) -> _Cards:
    return _Cards(deck_for(QuestOptions(deck_set=deck_set)))


class _Seat:
    __slots__ = ("bottom", "cabbage", "carrots", "hand", "money", "saved", "top", "water")

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.top: int | None = None
        self.bottom: int | None = None
        self.saved: list[int] = []
        self.money: list[int] = []
        self.cabbage: list[int] = []
        self.water: list[int] = []
        self.carrots: list[int] = []


class _Bare:
    __slots__ = ("active", "cabbage", "cards", "circle", "demands", "discard", "draw", "flipped",
                 "market", "n", "owner", "seats", "targets", "turns", "water")

    def __init__(self, n: int, cards: _Cards) -> None:
        self.n = n
        self.cards = cards
        self.seats = [_Seat() for _ in range(n)]
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.cabbage: list[int] = []
        self.water: list[int] = []
        self.market = list(cards.carrots)
        self.circle: list[int] = []
        self.owner: dict[int, int] = {}
        self.active = -1
        self.turns = [0] * n
        self.flipped: int | None = None
        self.targets: list[tuple[int, int]] = []
        """The bunnies a played weapon waits to roll against, each with its level."""
        self.demands: dict[int, tuple[int, int]] = {}
        """Bunny -> (its owner, the owner's turn at whose end it starves)."""


def _take(cards: list[int], card: int) -> None:
    """Out of a list the floor may not have kept exactly (it skips what only rules know)."""
    with contextlib.suppress(ValueError):
        cards.remove(card)


def _draw_one(s: _Bare, seat: int) -> None:
    kind = s.cards.kind
    st = s.seats[seat]
    while s.draw:
        card = s.draw.pop()
        k = kind[card]
        if k == "money":
            st.money.append(card)
        elif k == "play_immediately":
            s.discard.append(card)
        else:
            st.hand.append(card)
            return


def _setup(s: _Bare, e: ev.Setup) -> None:
    s.draw = list(reversed(e.draw))
    s.cabbage = list(reversed(e.cabbage))
    s.water = list(reversed(e.water))
    for seat, gift in enumerate(e.gifts):
        s.seats[seat].carrots.extend(gift)
        for c in gift:
            s.market.remove(c)
    for _ in range(7):
        for k in range(s.n):
            _draw_one(s, (e.first + k) % s.n)


def _runs(s: _Bare, e: ev.Runs) -> None:
    st = s.seats[e.actor]
    _take(st.hand, e.top)
    _take(st.hand, e.bottom)
    st.top, st.bottom = e.top, e.bottom


def _turn(s: _Bare, seat: int) -> None:
    """``seat`` takes his turn: the one before ends, and its deadlines fall due."""
    ending = s.active
    if ending >= 0 and s.demands:
        due = s.turns[ending]
        for bunny, (owner, turn) in list(s.demands.items()):
            if owner == ending and turn <= due:
                del s.demands[bunny]
                _dies(s, bunny)
    s.active = seat
    s.turns[seat] += 1


def _flip(s: _Bare, e: ev.Flip) -> None:
    seat: int = e.actor
    if seat != s.active:
        _turn(s, seat)
    st = s.seats[seat]
    s.flipped, st.top = st.top, None


def _leaves(s: _Bare, seat: int, card: int) -> None:
    """The card leaves the run (slide, draw) or the hand (draw) or the saved cards."""
    st = s.seats[seat]
    if s.flipped == card:
        s.flipped = None
        st.top, st.bottom = st.bottom, None
        _draw_one(s, seat)
    elif card in st.hand:
        st.hand.remove(card)
        _draw_one(s, seat)
    else:
        _take(st.saved, card)


def _play(s: _Bare, e: ev.Play) -> None:
    seat: int = e.actor
    card = e.card
    cards = s.cards
    if seat != s.active and s.flipped is None and cards.kind[card] == "special":
        _turn(s, seat)
    _leaves(s, seat, card)
    on = e.on
    if card in cards.bunny:
        at = e.at if e.at is not None else len(s.circle)
        s.circle.insert(min(at, len(s.circle)), card)
        s.owner[card] = seat
    elif on is not None and card in cards.level:
        s.discard.append(card)
        _aim(s, on, cards.level[card], cards.area[card])
    elif on is not None and card in cards.feeds:
        owner = s.owner.get(on)
        if owner is not None:
            s.demands[on] = (owner, s.turns[owner] + (0 if owner == s.active else 1))
    else:
        _carrots(s, seat, e.carrots)
        if on is None:
            s.discard.append(card)


def _aim(s: _Bare, target: int, level: int, area: fx.Area) -> None:
    circle = s.circle
    if target not in s.owner:
        return
    if isinstance(area, fx.Single):
        s.targets = [(target, level)]
        return
    size = len(circle)
    i = circle.index(target)
    levels = area.levels(level, size)
    hits = [(target, levels[0])]
    seen = {target}
    for d in range(1, len(levels)):
        for j in (i + d, i - d):
            bunny = circle[j % size]
            if bunny not in seen:
                seen.add(bunny)
                hits.append((bunny, levels[d]))
    s.targets = hits


def _carrots(s: _Bare, seat: int, carrots: list[int]) -> None:
    st = s.seats[seat]
    for c in carrots:
        _take(s.market, c)
        st.carrots.append(c)


def _discard(s: _Bare, e: ev.Discard) -> None:
    if e.actor != s.active and s.flipped is None:
        _turn(s, e.actor)
    _leaves(s, e.actor, e.card)
    s.discard.append(e.card)


def _save(s: _Bare, e: ev.Save) -> None:
    _leaves(s, e.actor, e.card)
    s.seats[e.actor].saved.append(e.card)


def _bottom(s: _Bare, e: ev.Bottom) -> None:
    st = s.seats[e.actor]
    _take(st.hand, e.card)
    st.bottom = e.card


def _pay(s: _Bare, held: list[int], amount: int) -> None:
    value = s.cards.value
    held.sort(key=value.__getitem__, reverse=True)
    while amount > 0 and held:
        card = held.pop()
        amount -= value[card]
        s.discard.append(card)


def _buy(s: _Bare, e: ev.Buy) -> None:
    st = s.seats[e.actor]
    _pay(s, st.money, 2)
    if e.goods == "carrot" and e.carrot in s.market:
        s.market.remove(e.carrot)
        st.carrots.append(e.carrot)
    elif e.goods == "cabbage" and s.cabbage:
        st.cabbage.append(s.cabbage.pop())
    elif e.goods == "water" and s.water:
        st.water.append(s.water.pop())


def _feed(s: _Bare, e: ev.Feed) -> None:
    st = s.seats[e.actor]
    s.demands.pop(e.bunny, None)
    _pay(s, st.cabbage, 1)
    _pay(s, st.water, 1)


def _dies(s: _Bare, bunny: int) -> None:
    if bunny in s.owner:
        _take(s.circle, bunny)
        del s.owner[bunny]
        s.demands.pop(bunny, None)
        s.discard.append(bunny)


def _starve(s: _Bare, e: ev.Starve) -> None:
    _dies(s, e.bunny)


def _roll(s: _Bare, e: ev.Roll) -> None:
    if s.targets:
        bunny, level = s.targets.pop(0)
        if e.faces and e.faces[0] <= level:
            _dies(s, bunny)


def _choose(s: _Bare, e: ev.Choose) -> None:
    _carrots(s, e.actor, e.carrots)


def _trade(s: _Bare, e: ev.Trade) -> None:
    a, b = s.seats[e.actor], s.seats[e.partner]
    for card in e.give_hand:
        _take(a.hand, card)
        b.hand.append(card)
    for card in e.get_hand:
        _take(b.hand, card)
        a.hand.append(card)


def _reshuffle(s: _Bare, e: ev.Reshuffle) -> None:
    large = s.cards.large
    s.discard = [c for c in s.discard if c not in large]
    s.draw = list(reversed(e.order))


def _none(s: _Bare, e: Event) -> None:
    return None


BARE: dict[type[Event], Callable[[_Bare, Any], None]] = {
    ev.Setup: _setup, ev.Runs: _runs, ev.Flip: _flip, ev.Play: _play, ev.Discard: _discard,
    ev.Save: _save, ev.Bottom: _bottom, ev.EndTurn: _none, ev.Buy: _buy, ev.Feed: _feed,
    ev.Starve: _starve, ev.Trade: _trade, ev.Roll: _roll, ev.Bid: _none, ev.Pass: _none,
    ev.Stake: _none, ev.Choose: _choose, ev.Join: _none, ev.Leave: _none,
    ev.Reshuffle: _reshuffle,
}


def bare_fold(events: list[Event], players: int, deck_set: str = "blue-starter") -> None:
    state = _Bare(players, _cards(deck_set))
    handlers = BARE
    for event in events:
        handlers[type(event)](state, event)
