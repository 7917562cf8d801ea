"""The draw pile and the discard piles.

The large cards form one draw pile; what is played or spent goes to the discard pile
(money too: the bank is the discard pile). When the draw pile runs out and the game goes
on, every large card of the discard pile is shuffled into a new draw pile (Quest
§Reshuffling). The small supply cards keep their own discard piles, which are never
reshuffled (§Discarded Supplies): when the small decks are drawn out, no more supplies can
be bought. Shuffles are recorded chance: a recorded order must be exactly the cards that
were to be shuffled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.killer.refusal import Refusal
from engine.wording import cards_said


def check_order(order: Sequence[int], cards: Sequence[int], what: str) -> None:
    """A recorded shuffle of ``cards`` must hold each of them exactly once."""
    if Counter(order) != Counter(cards):
        missing = sorted((Counter(cards) - Counter(order)).elements())
        extra = sorted((Counter(order) - Counter(cards)).elements())
        said = "; ".join([*([f"missing {cards_said(missing)}"] if missing else []),
                          *([f"not due {cards_said(extra)}"] if extra else [])])
        raise Refusal("piles.bad_shuffle",
                      f"the recorded {what} is not a shuffle of the {len(cards)} cards due "
                      f"({said})",
                      missing=missing, extra=extra)


def draw(pile: list[int]) -> int:
    """Take the top card (the end of the list)."""
    if not pile:
        raise Refusal("piles.empty", "the pile is empty")
    return pile.pop()


def draw_card(pile: list[int], card: int, what: str) -> None:
    """Take a named card out of a pile (a record that names each card drawn)."""
    try:
        pile.remove(card)
    except ValueError:
        raise Refusal("piles.not_in_pile", f"card {card} is not in the {what}",
                      card=card) from None


def take_from_discard(discard: list[int], card: int) -> None:
    """Revive or retrieve a card from the discard pile."""
    draw_card(discard, card, "discard pile")


# -- cuts (Odyssey: every reshuffled draw pile is cut by an opponent) --------------------------

CUT_MARGIN = 5
"""Cards a cut leaves on each side at least (Odyssey §Shuffling)."""
CUT_SMALL = 10
"""Below this many cards a pile may be cut anywhere (Odyssey §Shuffling)."""


def cut_range(size: int, margin: int = CUT_MARGIN, small: int = CUT_SMALL) -> range:
    """The depths a cut of a pile of ``size`` cards may have: how many cards are lifted off
    the top. ``margin`` on each side at least, unless the pile holds fewer than ``small``
    cards, when any depth from 0 to ``size`` is a cut (0 and ``size`` leave the order)."""
    if size < small:
        return range(0, size + 1)
    return range(margin, size - margin + 1)


def check_cut(size: int, depth: int, margin: int = CUT_MARGIN, small: int = CUT_SMALL) -> None:
    """Refuse a cut that leaves fewer than ``margin`` cards on a side of a pile of ``small``
    cards or more."""
    allowed = cut_range(size, margin, small)
    if depth not in allowed:
        raise Refusal("piles.bad_cut",
                      f"a cut of a {size}-card pile lifts {allowed.start} to {allowed.stop - 1} "
                      f"cards, not {depth}", size=size, depth=depth,
                      allowed=[allowed.start, allowed.stop - 1])


def cut(pile: list[int], depth: int) -> None:
    """Cut the pile (top = the end of the list): the ``depth`` cards lifted off the top go
    under the rest."""
    if depth in (0, len(pile)):
        return
    pile[:] = pile[-depth:] + pile[:-depth]
