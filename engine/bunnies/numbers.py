"""Every number of the game "Bunnies" in one place, with where it comes from.

Source: bunnies-two-player.txt (sections "Dealing", "Bunnies", "Ending the Game").
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
"""Card ranks from low to high: aces are high (Play)."""
SUITS = "CDHS"
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
"""The standard 52-card deck; a card is rank then suit, e.g. ``TH`` is the ten of hearts."""
RANK_VALUE: dict[str, int] = {rank: i for i, rank in enumerate(RANKS, start=2)}
CARD_VALUE: dict[str, int] = {card: RANK_VALUE[card[0]] for card in DECK}
"""Card -> value 2..14; only the rank counts."""

HAND_SIZE = 7
"""Cards dealt to each hand (Dealing); a header option may change it."""
BLINDS_PER_SEAT = 4
"""Blind cards dealt face down in front of each player (Dealing)."""
SHARED_BLINDS = 3
"""Shared blind cards across the middle: left, right, then one on top of both (Dealing)."""
MAX_HAND_SIZE = (len(DECK) - 2 * BLINDS_PER_SEAT - SHARED_BLINDS) // 2
"""The largest hand two players can be dealt from what the blind cards leave: 20 (R-BUN-15)."""
BUNNY_SIZE = 4
"""Four cards of one rank together on the face-up pile make a bunny (Bunnies)."""
POINTS_PER_BUNNY = 1
"""Each bunny scores one point (Ending the Game)."""
BONUS_PER_BLIND = 3
"""Going-out bonus per blind card the opponent still has (Ending the Game)."""
MIN_BONUS = 4
"""The going-out bonus is never less than this (Ending the Game)."""

ROYAL_RANKS = frozenset("JQK")
SUPER_RANKS = frozenset("A")


def bunny_kind(rank: str) -> str:
    """``bunny`` (2-10), ``royal`` (J, Q, K) or ``super`` (A), per the rulebook's table."""
    if rank in SUPER_RANKS:
        return "super"
    if rank in ROYAL_RANKS:
        return "royal"
    return "bunny"
