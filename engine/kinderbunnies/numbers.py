"""The numbers of KinderBunnies, in one place, with where each comes from (the rulebook,
kinderbunnies.txt, by section; or a warren ruling in docs/rulings.md)."""

from __future__ import annotations

LEVELS = ("beginner", "advanced", "really-advanced")
"""The three games the rulebook describes, one ruleset's ``level`` (R-KIN-1)."""
HAND_SIZE = {"beginner": 4, "advanced": 5, "really-advanced": 5}
"""Cards in a hand (§Beginner, §Advanced)."""
CARROT_PRICE = 10
"""Bunny Bucks a carrot costs (§Carrots)."""
FIVE_DICE = ("violet-d10", "orange-d10", "green-d10", "yellow-d10", "blue-d10")
"""The five dice a card rolls at once, in the order its faces are recorded (cards/*.toml)."""
BEGINNER_CARROTS = frozenset("ABCDEF")
"""The carrots of a Beginner game (§Beginner)."""
MAX_PLAYERS = 6
"""The most players the rulings allow (R-KIN-1); the ruleset's ``max_players``."""
