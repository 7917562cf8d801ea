"""Carrots, the small Magic Carrot deck, and who wins at the end.

The large carrots start in the market. When the last one leaves it the game ends at once,
and the Magic Carrot decides: the bottom card of the small carrot deck, which was shuffled
at set-up and set aside unseen (docs/card-facts.md §1.7 R-Q1, R-Q3; modelled as an ordered deck,
so a card that peeks at it sees real cards). Its owner wins, but only with a bunny in the
circle (an abducted bunny counts as alive); before the reveal, the carrots of every player
without a bunny pass to the player with a bunny who has the most money (R-Q2; the
tie-break is each game's ruling).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import msgspec


class CarrotEnd(msgspec.Struct, frozen=True, kw_only=True):
    """How the carrots settle at the end."""

    magic_carrot: str
    """The carrot named by the bottom card of the small deck."""
    passed: dict[int, int]
    """Carrot card -> seat it passed to from a bunny-less player."""
    owner: int | None
    """Who holds the Magic Carrot after the passing (None: nobody with a bunny does)."""
    winner: int | None


def magic_carrot(small_deck: Sequence[int], label: Callable[[int], str]) -> str:
    """The carrot named by the bottom card of the small carrot deck (the last in order)."""
    return label(small_deck[-1])


def richest_with_bunny(seats: Sequence[int], has_bunny: Callable[[int], bool],
                       money: Callable[[int], int], bunnies: Callable[[int], int],
                       giver: int, n_seats: int) -> int | None:
    """Who receives a bunny-less player's carrots: the player with a bunny and the most
    money; ties go to the one with more bunnies, then to the first clockwise from the giver
    (warren's ruling: the sources leave the tie open)."""
    candidates = [s for s in seats if has_bunny(s)]
    if not candidates:
        return None
    return min(candidates,
               key=lambda s: (-money(s), -bunnies(s), (s - giver) % n_seats))


def settle(carrot_owner: Mapping[int, int], carrot_label: Callable[[int], str],
           seats: Sequence[int], has_bunny: Callable[[int], bool], money: Callable[[int], int],
           bunnies: Callable[[int], int], magic: str, n_seats: int) -> CarrotEnd:
    """Pass the bunny-less players' carrots, then find who holds the Magic Carrot."""
    passed: dict[int, int] = {}
    final: dict[int, int] = dict(carrot_owner)
    for carrot, seat in sorted(carrot_owner.items()):
        if has_bunny(seat):
            continue
        heir = richest_with_bunny(seats, has_bunny, money, bunnies, seat, n_seats)
        if heir is not None:
            passed[carrot] = heir
            final[carrot] = heir
        else:
            del final[carrot]
    owner = next((s for c, s in final.items() if carrot_label(c) == magic), None)
    winner = owner if owner is not None and has_bunny(owner) else None
    return CarrotEnd(magic_carrot=magic, passed=passed, owner=owner, winner=winner)
