"""What a record may leave unknown, and how the rules judge a game they cannot fully see.

A game recorded at a real table (``source: "recorded"``) knows what the table saw: the
cards played, the dice, the votes, the purchases. Nobody saw the order of a shuffled deck
or the hands. Such a record writes an unknown card as :data:`UNKNOWN` (``"?"``) wherever a
card would stand (a deal of unknown cards, a draw, a steal of an unseen card), and names a
card when it comes to light (it is played, turned, shown), on the event that shows it.

The engine then keeps, for every hidden place, which cards are known to be there and how
many unknown ones it holds, and a :class:`Pool` of the cards not yet seen anywhere. It
refuses what contradicts what is known (a card played twice, a card played while it is
known to be elsewhere, more cards than the deck holds) and checks every event as far as
the known facts allow. Where legality depends on something nobody saw, the handler does
not guess: it records an :func:`undetermined` effect naming the rule and the fact it
would need ("legal only if seat 1 held no card of rank 9 or higher"), and play goes on as
the record says. A verdict is then one of three: legal, illegal (with its rule), or
undetermined (with its rule and the unknown fact).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec

from engine.rules import Effect, RuleViolation

UNKNOWN = "?"
"""How a record writes a card nobody saw."""

UNDETERMINED = "undetermined"
"""The effect kind of an undecidable check (see :func:`undetermined`)."""


def undetermined(rule: str, needs: str, **facts: Any) -> Effect:
    """The effect a handler records when ``rule`` cannot be decided from what is known.

    ``needs`` says in words what would decide it, from the point of view of the rule:
    "legal only if seat 1's hand held no card of rank 9 or higher".
    """
    return Effect(rule, UNDETERMINED, {"needs": needs, **facts})


def is_undetermined(effect: Effect) -> bool:
    return effect.kind == UNDETERMINED


SETTLED = "settled"
"""The effect kind of an undetermined check that a later event decided (see :func:`settled`)."""


def settled(rule: str, seq: int, how: str, **facts: Any) -> Effect:
    """A later event showed the card an undetermined check of event ``seq`` needed, and it
    was legal after all; ``how`` says what showed it. (Shown illegal, the later event is
    refused by ``rule`` instead, naming event ``seq``.)"""
    return Effect(rule, SETTLED, {"seq": seq, "how": how, **facts})


def is_settled(effect: Effect) -> bool:
    return effect.kind == SETTLED


class Pool(msgspec.Struct):
    """The cards of a deck not yet seen anywhere in the game (a multiset).

    Every card that comes to light is taken out of the pool once; a card that is not in
    the pool when it comes to light was either seen elsewhere already or never existed,
    and :meth:`reveal` refuses it with the rule given. Counts are kept so that a deck with
    repeated cards (several "1 Dolla" of one kind) works the same way. A msgspec Struct,
    so a state holding one goes through the state codec as it is.
    """

    unseen: dict[str, int] = {}
    """Card -> copies not yet seen."""

    @classmethod
    def of(cls, cards: Iterable[str]) -> Pool:
        """The pool of a whole deck, nothing seen yet."""
        return cls(dict(Counter(cards)))

    def copy(self) -> Pool:
        return Pool(dict(self.unseen))

    def __contains__(self, card: object) -> bool:
        return isinstance(card, str) and self.unseen.get(card, 0) > 0

    def __len__(self) -> int:
        return sum(self.unseen.values())

    def reveal(self, card: str, rule: str, where: str) -> None:
        """``card`` came to light ``where``: take it out of the pool, or refuse."""
        left = self.unseen.get(card, 0)
        if left <= 0:
            raise RuleViolation(rule, f"{card} cannot be {where}: it is not a card of this game "
                                "or it has been seen elsewhere already", card=card)
        if left == 1:
            del self.unseen[card]
        else:
            self.unseen[card] = left - 1

    def hide(self, card: str) -> None:
        """A known card went back out of sight, unidentified (shuffled back, stolen unseen)."""
        self.unseen[card] = self.unseen.get(card, 0) + 1


def count_unknown(cards: Iterable[str]) -> int:
    return sum(1 for c in cards if c == UNKNOWN)
