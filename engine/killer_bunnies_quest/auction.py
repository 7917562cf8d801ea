"""Auctions: bids go round in turn order until everyone else has passed.

Bunny Block Bid puts a bunny up for auction: the card's player bids first and bidding goes on
in the order of play; the highest bidder pays the bank (the discard pile) and takes the
bunny. The family's rulebooks say no more, so warren's rulings fill in (documented per
game): a bid is a whole amount of money of at least 1, higher than the standing bid and no
more than the bidder holds; a player who passes is out of this auction; the auction ends
when every player but the high bidder has passed (or everyone passed without a bid: the
bunny stays where it is).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.killer.refusal import Refusal


class Auction(msgspec.Struct, kw_only=True):
    """An auction under way."""

    item: int
    """The card auctioned (a bunny's number)."""
    order: list[int]
    """Bidders in turn order, starting with the card's player."""
    out: list[int] = []
    """Players who passed."""
    high_bidder: int | None = None
    high_bid: int = 0
    turn: int = 0
    """Index into ``order`` of the player to bid next."""

    def copy(self) -> Auction:
        return Auction(item=self.item, order=self.order[:], out=self.out[:],
                       high_bidder=self.high_bidder, high_bid=self.high_bid, turn=self.turn)


def start(item: int, order: Sequence[int]) -> Auction:
    return Auction(item=item, order=list(order))


def over(a: Auction) -> bool:
    live = [s for s in a.order if s not in a.out]
    if a.high_bidder is None:
        return not live
    return live == [a.high_bidder]


def next_bidder(a: Auction) -> int | None:
    """Whose bid (or pass) is awaited, or None when the auction is over."""
    if over(a):
        return None
    n = len(a.order)
    for k in range(n):
        seat = a.order[(a.turn + k) % n]
        if seat not in a.out and seat != a.high_bidder:
            return seat
    return None


def bid(a: Auction, seat: int, amount: int | None, money: int) -> None:
    """Fold a bid (``amount``) or a pass (None) by ``seat`` holding ``money``."""
    expected = next_bidder(a)
    if expected != seat:
        raise Refusal("auction.not_your_bid",
                      f"seat {seat} does not bid now: "
                      + ("nobody does" if expected is None else f"seat {expected} does"),
                      seat=seat, waiting_for=expected)
    if amount is not None:
        if amount < 1 or amount <= a.high_bid:
            raise Refusal("auction.too_low",
                          f"a bid must be at least 1 and beat the standing bid {a.high_bid}",
                          bid=amount, standing=a.high_bid)
        if amount > money:
            raise Refusal("auction.cannot_pay", f"seat {seat} holds only {money}, not {amount}",
                          bid=amount, money=money)
        a.high_bidder = seat
        a.high_bid = amount
    else:
        a.out.append(seat)
    a.turn = (a.order.index(seat) + 1) % len(a.order)
