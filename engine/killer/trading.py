"""Trading between two players: when, what, and the one-trade rule.

Quest §Trading (and Odyssey's, which is the same in substance): trades happen only during
the turn of one of the two traders; supplies, money, saved Special and Very Special cards,
carrots and bunnies in the circle change hands in any amounts agreed; hand cards only one
for one (both hands keep their size); run cards never. The "Serious Rules" add that each
bunny, saved card and carrot may be traded only once in a game (docs/card-facts.md §1.7 R-Q27;
Odyssey says every item): a card effect that moves a card is not a trade.

The game says where each card a trader offers lies (``Holding``); this module checks the
rest and reports the first problem as a :class:`~engine.killer.refusal.Refusal`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Literal

from engine.killer.refusal import Refusal

Holding = Literal["hand", "run", "saved", "cabbage", "water", "money", "carrot", "bunny", "city"]
"""Where a player holds a card (``city``: a structure of Odyssey's Center Circle, traded with
its occupants)."""

ANY_AMOUNT: frozenset[str] = frozenset({"saved", "cabbage", "water", "money", "carrot", "bunny",
                                        "city"})
"""Holdings traded in any amounts."""

ONCE_PER_GAME: frozenset[str] = frozenset({"saved", "carrot", "bunny"})
"""Holdings whose every card may be traded only once a game (R-Q27)."""


def check_trade(active: int | None, a: int, a_gives: Sequence[int], b: int, b_gives: Sequence[int],
                holding: Callable[[int, int], Holding | None], traded: Collection[int],
                once: Collection[str] = ONCE_PER_GAME) -> None:
    """Refuse a trade the rules forbid. ``holding(seat, card)`` says where ``seat`` holds
    ``card`` (None: it does not); ``traded`` are cards already traded this game."""
    if a == b:
        raise Refusal("trade.same_player", "a player cannot trade with himself", seat=a)
    if active not in (a, b):
        raise Refusal("trade.not_on_turn",
                      f"trades happen only on the turn of one of the traders (seat {active} "
                      f"is playing, not seat {a} or seat {b})", active=active, traders=[a, b])
    if not a_gives and not b_gives:
        raise Refusal("trade.empty", "a trade moves at least one card")
    hands = {a: 0, b: 0}
    for seat, cards in ((a, a_gives), (b, b_gives)):
        if len(set(cards)) != len(cards):
            raise Refusal("trade.repeated", f"seat {seat} offers a card twice", cards=list(cards))
        for card in cards:
            where = holding(seat, card)
            if where is None:
                raise Refusal("trade.not_held", f"seat {seat} does not hold card {card}",
                              seat=seat, card=card)
            if where == "run":
                raise Refusal("trade.run_card", f"card {card} lies in a run position and can "
                              "never be traded", seat=seat, card=card)
            if where == "hand":
                hands[seat] += 1
            elif where in once and card in traded:
                raise Refusal("trade.once", f"card {card} has been traded once already",
                              seat=seat, card=card)
    if hands[a] != hands[b]:
        raise Refusal("trade.hand_one_for_one",
                      f"hand cards trade one for one ({hands[a]} against {hands[b]})",
                      hand_cards={a: hands[a], b: hands[b]})
