"""Chance for simulated games: what the shuffle, the random picks and the timer did.

Only simulators call this; replay reads the recorded outcome and never draws.
"""

from __future__ import annotations

import random
from typing import cast

from engine.pending import Chance
from engine.record import Event
from engine.trust_no_bunny.agenda import as_cards, sub_hands
from engine.trust_no_bunny.events import Card, CardLost, Deal, Draw, Offers, Roles, Staged, Timeout, Unknown
from engine.trust_no_bunny.numbers import (
    ITEM_WEIGHT,
    ITEMS,
    OFFERED_ITEMS,
    ONE_HOLDER_ITEMS,
    QUIRKS,
    STARTING_HAND,
    WEREBUNNIES,
)
from engine.trust_no_bunny.state import TnbState

TIMEOUT_RATE = 0.004
"""Chance, at each decision in a timed step, that the timer runs out in simulated games."""


def draw_from(pool: list[int], k: int, rng: random.Random) -> list[int]:
    """``k`` cards drawn at random from a pile of counts (the pile is reduced)."""
    out = []
    for _ in range(k):
        total = pool[1] + pool[2] + pool[3] + pool[4]
        if total == 0:
            break
        r = rng.randrange(total)
        for v in (1, 2, 3, 4):
            if r < pool[v]:
                pool[v] -= 1
                out.append(v)
                break
            r -= pool[v]
    return out


def _offer(rng: random.Random, taken: set[str]) -> list[str]:
    pool = [i for i in ITEMS if i not in taken]
    pair: list[str] = []
    while len(pair) < OFFERED_ITEMS:
        choices = [i for i in pool if i not in pair]
        pick = rng.choices(choices, weights=[ITEM_WEIGHT[i] for i in choices])[0]
        pair.append(pick)
    taken.update(i for i in pair if i in ONE_HOLDER_ITEMS)
    return pair


def sample_chance(state: TnbState, owed: Chance, rng: random.Random) -> Event | None:
    """The outcome of the chance the position owes (engine.pending), drawn from ``rng``."""
    n = state.n
    seq = state.seq + 1
    kind = owed.kind
    if kind == "roles":
        wbs = sorted(rng.sample(range(n), WEREBUNNIES))
        kinds = state.table.mutations  # the game's pool of Mutations (R-TNB-5)
        mutations: list[str | None]
        if not kinds:
            mutations = [None] * WEREBUNNIES
        elif state.table.distinct_mutations:
            mutations = list(rng.sample(kinds, WEREBUNNIES))
        else:
            mutations = [rng.choice(kinds) for _ in range(WEREBUNNIES)]
        return Roles(
            seq=seq, actor=None, werebunnies=[*wbs],
            quirks=[None if s in wbs else rng.choice(QUIRKS) for s in range(n)],
            mutations=[mutations[wbs.index(s)] if s in wbs else None for s in range(n)],
            first_mayor=rng.randrange(n),
        )
    if kind == "offers":
        taken: set[str] = set()
        return Offers(seq=seq, actor=None, items=[_offer(rng, taken) for _ in range(n)])
    if kind == "deal":
        pool = state.deck[:]
        return Deal(seq=seq, actor=None, hands=cast("list[list[Card]]",
                                                    [draw_from(pool, STARTING_HAND, rng) for _ in range(n)]))
    if kind == "card_lost":
        seat: int = owed.seat  # type: ignore[assignment]  # a lost card is owed by a seat
        pool = state.hands[seat][:]
        lost = draw_from(pool, 1, rng)
        # A game recorded at the table may not know a single card of the hand.
        card: Card = lost[0] if lost else "?"
        return CardLost(seq=seq, actor=None, seat=seat, card=card)
    if kind == "draw":
        pool = state.deck[:]
        if sum(state.owed) > sum(pool):
            pool = [a + b for a, b in zip(pool, state.discard, strict=True)]
        return Draw(seq=seq, actor=None, cards=cast("list[list[Card] | Unknown]",
                                                    [draw_from(pool, k, rng) for k in state.owed]))
    # kind == "timer": it runs out now and then while players decide (TNB-TIME-1).
    if rng.random() >= TIMEOUT_RATE:
        return None
    staged = []
    if state.phase == "night" and state.guard_timeout == "staged":
        for s in range(n):
            if state.on_guard[s] and state.agenda.owes(s) and rng.random() < 0.5:
                parts = list(sub_hands(state.hands[s]))
                staged.append(Staged(seat=s, defend=as_cards(rng.choice(parts))))
    return Timeout(seq=seq, actor=None, staged=staged)
