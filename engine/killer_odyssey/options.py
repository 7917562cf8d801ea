"""The header options of Killer Bunnies and the Ultimate Odyssey, each with its default and its
ruling (docs/rulings.md, section killer-bunnies-odyssey). The defaults are the rulebook's own
reading where it has one, else warren's ruling; every other value is a reading some tables
prefer.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.killer_odyssey.table import STARTER_DECKS


class OdysseyOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    decks: list[str] = msgspec.field(default_factory=lambda: list(STARTER_DECKS))
    """The personal decks, by deck id: seat i plays ``decks[i % len(decks)]`` (ODY-DECK-1)."""
    deck_lists: dict[str, dict[str, int]] = {}
    """Every named deck's list, Card Identification Number -> copies. A new record carries
    them (warren fills them in); a record without them plays the library's deck files."""
    deck_hashes: dict[str, str] = {}
    """Every named deck's content hash: its list and its cards' definitions (ODY-DECK-2)."""
    hand_size: Literal[5, 7] = 5
    """Five cards in hand beside the two run cards (default, table.DEFAULT_HAND), or seven in
    hand (R-ODY-2)."""
    resource_reset: Literal["round", "own_turn"] = "round"
    """When Resources used to pay come back: at the end of the round (default: the rulebook's
    round of play) or at the start of their owner's next turn (R-ODY-6)."""
    occupants_score: bool = True
    """Creatures inside a city count toward their owner's total, being in play (default), or
    only the circle's creatures and the cities count (R-ODY-9)."""
    civ_bounds: Literal["die", "open"] = "die"
    """The d20 stays on its faces, 1 to 20 (default), or counts any number (R-ODY-10)."""
    adjacent_twice: bool = False
    """In a two-player game a card that hits each adjacent player hits the one opponent once
    (default) or twice, once from each side (R-ODY-12)."""
    empty_pile: Literal["reshuffle", "stop"] = "reshuffle"
    """An empty draw pile is made again from the discard pile, shuffled and cut (default), or
    the player draws no more (R-ODY-14)."""
