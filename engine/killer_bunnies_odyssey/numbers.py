"""The numbers of Killer Bunnies and the Ultimate Odyssey, in one place, with where each comes
from (rulebook section, or a warren ruling in docs/rulings.md, section killer-bunnies-odyssey).
"""

from __future__ import annotations

MIN_PLAYERS = 2
"""Adjacency speaks of a two-player game (§Adjacent); nothing in the rulebook caps the
table, so warren seats up to six, one per starter colour (R-ODY-1)."""
MAX_PLAYERS = 6

DECK_MINIMUM = 60
"""A player's deck holds no less than 60 cards (§Getting Started)."""
DECK_MAXIMUM = 300
"""The rulebook sets no maximum; warren reads a deck of at most 300 cards (five times the
minimum), so that a record cannot make it build piles without limit (R-ODY-4)."""

START_CIV = 10
"""Every d20 starts at 10 (§Getting Started)."""
MULLIGAN_CIV = 5
"""The mulligan costs 5 Civ points: the d20 goes down to 5 (§Setting Up the First Round)."""
HEXASCREWUP_CIV = 5
"""An extra card in hand costs 5 Civ points (§Hexascrewup)."""
TARGET = 60
"""The first total of 60 or more ends the game (§Ending the Game)."""

DEAL = 7
"""Each player deals himself seven cards (§Getting Started), under both hand-size readings."""
HAND_SIZES = (5, 7)
"""The two readings of the hand size (transcriber's note; R-ODY-2): five in hand (with the two
run cards, seven cards before each player) or seven in hand."""
DEFAULT_HAND = 5

CUT_MARGIN = 5
CUT_SMALL = 10
"""A cut leaves at least 5 cards on each side unless the pile holds fewer than 10 (§Shuffling)."""

FIRST_DIE = "d12"
"""Who goes first is rolled on the d12 (§Playing the Game)."""
WEAPON_DIE = "d12"

STARTER_DECKS = ("blue", "green", "red", "yellow", "violet", "orange")
"""warren's own starter decks, one per Resource colour (docs/odyssey-decks.md); seat i plays
the i-th when a record names no decks."""

RESOURCE_NAMES = {
    "blue": "Technology", "green": "Agriculture", "red": "Industry", "yellow": "Energy",
    "violet": "Culture", "orange": "Commerce",
}
"""Blue is Technology (§Card Conditions); the other five names are warren's (R-ODY-3)."""
