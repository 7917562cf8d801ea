"""The bare floor for benchmarks: the same events folded into a mutable state with no rule
checks, no effects and no history, only the bookkeeping the outcome needs.

Checked replay (``Ruleset.fold``) is compared with this on the same events (target:
within 10x); see docs/performance.md. Nothing in warren replays games with it.
"""

from __future__ import annotations

from engine.record import Event
from engine.trust_no_bunny.events import (
    Accuse,
    Bless,
    Brew,
    CardLost,
    ChooseItem,
    Deal,
    Draw,
    Gaze,
    Guard,
    Offers,
    Predict,
    Propose,
    Ready,
    Rest,
    Roles,
    Sabotage,
    Timeout,
    Vote,
)
from engine.trust_no_bunny.numbers import default_table


class _Bare:
    __slots__ = ("acted", "deck", "discard", "hands", "mayor", "n", "night", "on_guard", "plays",
                 "quirks", "team", "tower", "votes", "wall", "wolves")

    def __init__(self, n: int) -> None:
        table = default_table(n)
        self.n = n
        self.hands = [[0] * 5 for _ in range(n)]
        self.deck = list(table.deck)
        self.discard = [0] * 5
        self.wall, self.tower = table.wall, table.tower
        self.wolves = table.wolves[0]
        self.mayor = 0
        self.night = 1
        self.quirks: list[str | None] = []
        self.team: list[int] = []
        self.votes: list[bool] = []
        self.on_guard = [False] * n
        self.plays: list[Event | None] = [None] * n
        self.acted = 0


def _roles(s: _Bare, e: Roles) -> None:
    s.quirks = e.quirks
    s.mayor = e.first_mayor


def _deal(s: _Bare, e: Deal) -> None:
    for seat, cards in enumerate(e.hands):
        for v in cards:
            s.hands[seat][v] += 1  # the floor reads whole-truth records
            s.deck[v] -= 1


def _card_lost(s: _Bare, e: CardLost) -> None:
    s.hands[e.seat][e.card] -= 1
    s.discard[e.card] += 1


def _propose(s: _Bare, e: Propose) -> None:
    s.team = e.team
    s.votes = []


def _vote(s: _Bare, e: Vote) -> None:
    s.votes.append(e.accept)
    if len(s.votes) == s.n:
        if sum(s.votes) * 2 > s.n:
            s.on_guard = [seat in s.team for seat in range(s.n)]
            s.plays = [None] * s.n
            s.acted = 0
        else:
            s.wolves += len(s.team)
            s.mayor = (s.mayor + 1) % s.n


def _play(s: _Bare, e: Event) -> None:
    seat: int = e.actor
    cards = [*e.defend, *e.weaken] if type(e) is Guard else e.gnaw
    hand = s.hands[seat]
    for v in cards:
        hand[v] -= 1
        s.discard[v] += 1
    s.plays[seat] = e
    s.acted += 1
    if s.acted == s.n:
        _resolve(s)


def _resolve(s: _Bare) -> None:
    through = s.wolves
    for play in s.plays:
        if type(play) is Guard:
            through += sum(play.weaken) - sum(play.defend)
        elif play is not None:
            through += sum(play.gnaw)
    through = max(0, through)
    if s.wall > 0:
        s.wall -= min(through, s.wall)
    else:
        s.tower -= min(through, s.tower)


def _draw(s: _Bare, e: Draw) -> None:
    for seat, cards in enumerate(e.cards):
        for v in cards:
            s.hands[seat][v] += 1
            s.deck[v] -= 1
    s.night += 1
    s.mayor = (s.mayor + 1) % s.n


def _timeout(s: _Bare, e: Timeout) -> None:
    return None


def _none(s: _Bare, e: Event) -> None:
    return None


BARE = {
    Roles: _roles, Offers: _none, ChooseItem: _none, Deal: _deal, Accuse: _none, Ready: _none,
    CardLost: _card_lost, Propose: _propose, Vote: _vote, Guard: _play, Bless: _play,
    Predict: _play, Sabotage: _play, Gaze: _play, Brew: _play, Rest: _play, Draw: _draw,
    Timeout: _timeout,
}


def bare_fold(events: list[Event], players: int) -> None:
    state = _Bare(players)
    handlers = BARE
    for event in events:
        handlers[type(event)](state, event)
