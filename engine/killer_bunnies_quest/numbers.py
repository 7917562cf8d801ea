"""The numbers of Killer Bunnies Quest, in one place, with where each comes from."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 8
"""Ruling R-KBQ-1: the Blue Starter box plays 2 to 8."""

HAND = 5
"""Cards in hand between turns (rulebook §Order Of Operations: five in hand, two down)."""
RUN_CARDS = 2
DEAL = HAND + RUN_CARDS
"""Seven cards are dealt to each player (and taken by a late joiner: §Joining Late)."""

DECK_SET = "blue-starter"
"""The deck set a record plays with unless its header names another."""

CARROT_PRICE_UPKEEP = 2
"""Weil's Freshness Center: Dolla per carrot kept (docs/card-facts.md §1.3 row 144)."""
