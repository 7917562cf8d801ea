"""Kaballa's Market: open or closed, its prices, and what it has left.

The market opens with the starter card's prices (Quest §Kaballa's Market: 3 Dolla a cabbage
card, 3 a water card, 10 a carrot in the Blue Starter box); a Closed card shuts it and a
price card sets new prices and opens it, whether it was closed or not. While it is closed
nothing is bought or handed out from it: no cabbage, water or carrot from a purchase, a
free-supply card or a prize. Carrot cards that say so (Choose A Carrot, Carrot Thief) take
carrots from it all the same. Buying needs no bunny.

A Half Price Coupon halves a purchase's total, rounded up to a whole Dolla (there is no
half Dolla in the Blue Starter box), for the rest of its player's turn.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.killer.catalogue.schema import Prices
from engine.killer.refusal import Refusal

Goods = Literal["cabbage", "water", "carrot"]


class Market(msgspec.Struct, kw_only=True):
    """The market's state."""

    open: bool = True
    prices: Prices
    carrots: list[int] = []
    """Large carrot card numbers still for sale (or to be taken)."""
    half_price_seat: int | None = None
    """The seat whose Half Price Coupon is running this turn."""

    def copy(self) -> Market:
        return Market(open=self.open, prices=self.prices, carrots=self.carrots[:],
                      half_price_seat=self.half_price_seat)

    def require_open(self, what: str) -> None:
        """Refuse anything that takes goods from a closed market."""
        if not self.open:
            raise Refusal("market.closed", f"Kaballa's Market is closed: no {what}",
                          market="closed")

    def set_prices(self, prices: Prices) -> None:
        """A price card: new prices, and the market is open again."""
        self.prices = prices
        self.open = True

    def close(self) -> None:
        self.open = False

    def price_of(self, goods: Goods) -> int:
        """The price of one card of ``goods``."""
        p = self.prices
        return {"cabbage": p.cabbage, "water": p.water, "carrot": p.carrot}[goods]

    def bill(self, seat: int, order: dict[Goods, int]) -> int:
        """What ``seat`` pays for ``order`` (goods -> number of cards): the sum of the
        prices, halved and rounded up if the seat's coupon is running."""
        self.require_open("purchase")
        if any(n < 0 for n in order.values()) or not any(order.values()):
            raise Refusal("market.empty_order", "a purchase buys at least one card",
                          order=dict(order))
        gross = sum(self.price_of(g) * n for g, n in order.items())
        if self.half_price_seat == seat:
            return (gross + 1) // 2
        return gross

    def take_carrot(self, carrot: int, while_closed: bool) -> None:
        """A carrot leaves the market (bought, chosen, stolen)."""
        if not while_closed:
            self.require_open("carrot")
        if carrot not in self.carrots:
            raise Refusal("market.no_such_carrot",
                          f"carrot card {carrot} is not in Kaballa's Market",
                          carrot=carrot, market_carrots=self.carrots[:])
        self.carrots.remove(carrot)

    def return_carrot(self, carrot: int) -> None:
        """A carrot goes back to the market (open or closed)."""
        self.carrots.append(carrot)
        self.carrots.sort()
