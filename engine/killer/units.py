"""Supplies and money as unit cards: paying, making change, and what the game owes.

Cabbage and water come as small cards of 1, 2, 5 or 10 units, money as Dolla (or Bunny
Bucks) cards of 1, 2, 5 or 10; the market sells cards, not units (Quest §Cabbage Cards And
Water Cards). So a payment hands over whole cards, and whoever overpays takes change from
the discard pile of that kind (Quest §Making Change: paying a 4-unit feed with a 5-unit
card takes a 1-unit card back). When the discard pile cannot make the change, the game owes
the player the rest (an :class:`IOU`) and pays it as soon as the pile can.

One implementation serves every kind of unit: ``value`` maps a card number to its units
(the catalogue's ``units`` or ``money``), so the same functions pay a feed, a market bill or
an auction bid, and make change in cabbage, water or Dolla.

Choices the rules leave to the player (which cards to pay with, which cards to take as
change) are recorded when a record states them; when it does not, these functions pick
deterministically (the smallest sufficient payment; change largest card first), a ruling
each game documents.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from engine.killer.refusal import Refusal

UnitKind = str
"""``cabbage``, ``water`` or ``money``."""


def total(cards: Iterable[int], value: Mapping[int, int]) -> int:
    """The units of some cards."""
    return sum(value[c] for c in cards)


def check_owned(cards: Sequence[int], holding: Sequence[int], what: str) -> None:
    """Refuse paying with cards the player does not hold (or naming one twice)."""
    if len(set(cards)) != len(cards):
        raise Refusal("units.repeated", f"a {what} card is named twice", cards=list(cards))
    missing = [c for c in cards if c not in holding]
    if missing:
        raise Refusal("units.not_held", f"the player holds no {what} card {missing[0]}",
                      cards=list(cards), holding=list(holding))


def check_payment(cards: Sequence[int], amount: int, value: Mapping[int, int], what: str) -> int:
    """A payment must cover ``amount`` and hand over no card it does not need (dropping any
    one card would leave it short). Returns the change due."""
    paid = total(cards, value)
    if paid < amount:
        raise Refusal("units.short", f"{paid} {what} units do not cover {amount}",
                      paid=paid, amount=amount)
    for c in cards:
        if paid - value[c] >= amount:
            raise Refusal("units.overpaid",
                          f"card {c} is not needed to pay {amount}: the rest pays {paid - value[c]}",
                          paid=paid, amount=amount, card=c)
    return paid - amount


def choose_payment(holding: Sequence[int], amount: int,
                   value: Mapping[int, int]) -> list[int] | None:
    """The payment warren makes when a record names none: the smallest total that covers
    ``amount``, then the fewest cards, then the lowest card numbers; None if the holding
    falls short. Exact (a subset-sum over totals, not a greedy guess)."""
    if amount <= 0:
        return []
    if total(holding, value) < amount:
        return None
    # best[t] = the preferred set of cards adding up to exactly t
    best: dict[int, tuple[int, ...]] = {0: ()}
    for card in sorted(holding):
        v = value[card]
        for t, chosen in list(best.items()):
            nt = t + v
            candidate = (*chosen, card)
            old = best.get(nt)
            if old is None or (len(candidate), candidate) < (len(old), old):
                best[nt] = candidate
    for t in sorted(best):
        if t >= amount:
            return list(best[t])
    return None


def make_change(pile: Sequence[int], owed: int, value: Mapping[int, int]) -> tuple[list[int], int]:
    """Change of ``owed`` units from a discard pile: the largest cards that still fit first
    (lowest number among equals). Returns the cards taken and what is still owed."""
    taken: list[int] = []
    left = owed
    for card in sorted(pile, key=lambda c: (-value[c], c)):
        if left <= 0:
            break
        if value[card] <= left:
            taken.append(card)
            left -= value[card]
    return taken, left


class IOU(msgspec.Struct, kw_only=True):
    """Change the game could not make yet: it owes ``seat`` so many units of ``kind``."""

    seat: int
    kind: UnitKind
    amount: int


def settle_ious(ious: list[IOU], kind: UnitKind, pile: list[int],
                value: Mapping[int, int]) -> list[tuple[int, list[int]]]:
    """Pay what the game owes in ``kind`` from ``pile``, oldest IOU first, as far as the pile
    allows without overpaying. Removes the cards paid from ``pile``, lowers (and drops) the
    IOUs paid, and returns (seat, cards) per payment."""
    paid: list[tuple[int, list[int]]] = []
    for iou in ious:
        if iou.kind != kind or iou.amount <= 0:
            continue
        cards, left = make_change(pile, iou.amount, value)
        if cards:
            for c in cards:
                pile.remove(c)
            iou.amount = left
            paid.append((iou.seat, cards))
    ious[:] = [i for i in ious if i.amount > 0]
    return paid


def owed_to(ious: Iterable[IOU], seat: int, kind: UnitKind) -> int:
    """Units of ``kind`` the game owes ``seat``."""
    return sum(i.amount for i in ious if i.seat == seat and i.kind == kind)


def half_of(holding: Sequence[int], value: Mapping[int, int]) -> int:
    """Half a holding's units, rounded down: the odd unit stays with its owner (Rock
    Bottom). The giver pays it into the discard pile like any payment and the taker takes
    it out as change, so no unit is made or lost on the way."""
    return total(holding, value) // 2
