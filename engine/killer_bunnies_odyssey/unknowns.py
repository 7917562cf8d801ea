"""Cards nobody saw, in a game recorded at the table (engine.hidden; docs/record-format.md;
ruling R-ODY-20).

A record made at a real table does not know the order of a shuffled draw pile nor the other
players' hands. It writes such a card ``"?"`` (kind 0 in the state) and names it when it
comes to light: played or discarded from the hand, flipped from the top run position, picked
at random from a hand. Each seat has a :class:`~engine.hidden.Pool` of the cards of its
hidden places (draw pile, hand, run positions) nobody has seen; a card that comes to light
is taken out of it once, so a card played twice, or one the deck never held, is refused
(REC-UNK-2). A game whose every card is known (simulated, imported) never reaches the slow
paths here.

The helpers split into *plans* (pure: which card a named one is, and whether it comes out
of the pool) and *commits* (done once every guard of the handler has passed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.hidden import UNKNOWN, Pool
from engine.killer.catalogue.loader import CARD_CODE
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards, refuse


def kind_of(state: OdysseyState, code: str, where: str) -> int:
    """The kind of a card named in an event: a Card Identification Number of the table
    (ODY-ID-1), or ``"?"`` (0) in a recorded game only (REC-UNK-1)."""
    if code == UNKNOWN:
        if not state.partial:
            refuse("REC-UNK-1", f"{where} is written '?', but only a game recorded at the table "
                   "may leave a card unknown", card=code)
        return 0
    kind = cards(state).kind.get(code)
    if kind is None:
        if not CARD_CODE.match(code):
            refuse("ODY-ID-1", f"{code!r} is not a Card Identification Number (two letters and two "
                   "numbers)", card=code)
        refuse("REC-UNK-2", f"{code} is no card of the decks at this table", card=code)
    return kind


class HandPlan:
    """Which cards leave a hand: each named card either known there or one of its unknown
    cards coming to light."""

    __slots__ = ("kinds", "reveals", "seat")

    def __init__(self, seat: int, kinds: list[int], reveals: list[int]) -> None:
        self.seat = seat
        self.kinds = kinds
        self.reveals = reveals


def plan_from_hand(state: OdysseyState, seat: int, codes: Sequence[str], rule: str,
                   where: str) -> HandPlan:
    """Plan ``codes`` leaving ``seat``'s hand; refuse with ``rule`` a card it cannot hold."""
    if not state.partial and len(codes) == 1:
        # the hot path of a game whose every card is known: one card, no unknowns
        kind = kind_of(state, codes[0], where)
        if kind not in state.seats[seat].hand:
            refuse(rule, f"seat {seat} holds no {codes[0]} in hand", seat=seat, card=codes[0],
                   hand=len(state.seats[seat].hand))
        return HandPlan(seat, [kind], [])
    hand = Counter(state.seats[seat].hand)
    pool = state.seats[seat].unseen
    kinds: list[int] = []
    reveals: list[int] = []
    taken: Counter[str] = Counter()
    for code in codes:
        kind = kind_of(state, code, where)
        if kind and hand[kind] > 0:
            hand[kind] -= 1
        elif kind and hand[0] > 0 and pool is not None and pool.unseen.get(code, 0) > taken[code]:
            hand[0] -= 1
            taken[code] += 1
            reveals.append(kind)
        elif not kind and hand[0] > 0:
            hand[0] -= 1
        else:
            refuse(rule, f"seat {seat} holds no {code} in hand" if kind else
                   f"seat {seat} holds no card in hand nobody has seen", seat=seat, card=code,
                   hand=len(state.seats[seat].hand))
        kinds.append(kind)
    return HandPlan(seat, kinds, reveals)


def commit_hand(state: OdysseyState, plan: HandPlan) -> None:
    """Take the planned cards out of the hand (naming the unknown ones that came to light)."""
    s = state.seats[plan.seat]
    t = cards(state)
    for kind in plan.reveals:
        assert s.unseen is not None
        s.unseen.reveal(t.code(kind), "REC-UNK-2", "in that hand")
        s.hand[s.hand.index(0)] = kind
    for kind in plan.kinds:
        s.hand.remove(kind)


def drawn_kind(state: OdysseyState, seat: int, named: str | None, rule: str) -> int:
    """The card a draw takes off the top of ``seat``'s draw pile: known, or named by the
    record where the pile's order is unknown (checked, not yet taken out of the pool)."""
    pile = state.seats[seat].draw
    if not pile:
        refuse(rule, f"seat {seat}'s draw pile is empty", seat=seat)
    top = pile[-1]
    if named is None:
        return top
    kind = kind_of(state, named, "the card drawn")
    if top and kind and kind != top:
        refuse(rule, f"the record names {named} as drawn, but the top of seat {seat}'s draw "
               f"pile is {cards(state).code(top)}", named=named)
    if not top and kind:
        pool = state.seats[seat].unseen
        if pool is None or named not in pool:
            refuse("REC-UNK-2", f"{named} cannot be drawn by seat {seat}: it is not in that draw "
                   "pile or it has been seen elsewhere already", named=named)
    return kind if kind else top


def take_drawn(state: OdysseyState, seat: int, kind: int) -> int:
    """Draw the top card into the hand as ``kind`` (from :func:`drawn_kind`)."""
    s = state.seats[seat]
    top = s.draw.pop()
    if kind and not top:
        assert s.unseen is not None
        s.unseen.reveal(cards(state).code(kind), "REC-UNK-2", "drawn")
    s.hand.append(kind)
    return kind


def turned_kind(state: OdysseyState, seat: int, slot: int | None, named: str | None) -> int:
    """A run card turned face up for the whole table: known, or named by the record
    (REC-UNK-3); checked against the pool, not yet taken out of it."""
    if slot is None:
        refuse("ODY-TURN-2", f"seat {seat} has no top run card to flip", seat=seat)
    if slot == 0:
        if named is None:
            refuse("REC-UNK-3", f"seat {seat}'s top run card is turned up for the whole table: "
                   "the record names it", seat=seat)
        kind = kind_of(state, named, "the card flipped")
        pool = state.seats[seat].unseen
        if not kind or pool is None or named not in pool:
            refuse("REC-UNK-2", f"{named} cannot be seat {seat}'s top run card: it is not in that "
                   "deck's unseen cards", named=named)
        return kind
    if named is not None and kind_of(state, named, "the card flipped") != slot:
        refuse("ODY-TURN-2", f"the record names {named}, but seat {seat}'s top run card is "
               f"{cards(state).code(slot)}", named=named)
    return slot


def reveal_kind(state: OdysseyState, seat: int, kind: int) -> None:
    """A card of ``seat``'s hidden places came to light as ``kind``."""
    pool = state.seats[seat].unseen
    if pool is not None:
        pool.reveal(cards(state).code(kind), "REC-UNK-2", "there")


def hide_all(state: OdysseyState, seat: int, kinds: Sequence[int]) -> None:
    """Known cards went out of sight (shuffled into the draw pile unseen)."""
    pool = state.seats[seat].unseen
    if pool is None:
        return
    t = cards(state)
    for kind in kinds:
        if kind:
            pool.hide(t.code(kind))


def new_pool(state: OdysseyState, seat: int) -> Pool:
    t = cards(state)
    return Pool.of(t.code(k) for k in t.seat_cards(seat))
