"""Every number and name of Trust No Bunny in one place, with where it comes from.

The rulebook (trust-no-bunny.txt) refers to a table "Player Numbers, Guards, and Wolves"
that it does not print, and names Quirks, Items and Mutations only in part. Every value
below marked ASSUMPTION is warren's own default (docs/rulings.md, section trust-no-bunny);
each one can be overridden by a header option (engine/trust_no_bunny/options.py), so a
game recorded under the publisher's real numbers replays under them.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_PLAYERS = 5
MAX_PLAYERS = 8
"""5 to 8 players (Overview)."""

WEREBUNNIES = 2
"""Always two Werebunnies: the Accuse section speaks of "BOTH Werebunnies" (R-TNB-1)."""

ROUNDS = 5
"""Five rounds, one per phase of the moon (Rounds)."""

STARTING_HAND = 3
"""Everybody starts with three cards (Cards and Defense)."""

WOLF_LIMIT = 35
"""More than this many wolves on one night ends the game for the Werebunnies (Wolves)."""

CARD_VALUES: tuple[int, ...] = (1, 2, 3, 4)
"""Cards are worth 1, 2, 3 or 4 points (Cards and Defense)."""

DECK: dict[int, int] = {1: 18, 2: 16, 3: 14, 4: 12}
"""ASSUMPTION (R-TNB-2): 60 cards, low values commoner than high ones; option ``deck``."""

GUARDS: dict[int, tuple[int, ...]] = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
}
"""ASSUMPTION (R-TNB-2): guards per night by player count, the team sizes of the mission
games the rulebook compares itself with; option ``guards``."""

WOLVES: dict[int, tuple[int, ...]] = {
    5: (4, 7, 5, 8, 8),
    6: (4, 7, 9, 8, 10),
    7: (5, 7, 7, 10, 10),
    8: (7, 9, 9, 12, 12),
}
"""ASSUMPTION (R-TNB-2): wolves per night by player count, before any rejected vote
raises them; roughly two and a half wolves per guard, rising towards the last night;
option ``wolves``."""

WALL_HP: dict[int, int] = {5: 5, 6: 6, 7: 6, 8: 7}
"""ASSUMPTION (R-TNB-2): the Wall's hit points by player count; option ``wall``."""

TOWER_HP: dict[int, int] = {5: 12, 6: 14, 7: 15, 8: 16}
"""ASSUMPTION (R-TNB-2): the Tower's hit points (the stronger defence); option ``tower``."""

# -- names the rulebook leaves open (R-TNB-3 .. R-TNB-5) --------------------------------
BRAVE = "brave"
HOMEBODY = "homebody"
HOARDER = "hoarder"
QUIRKS: tuple[str, ...] = (BRAVE, HOMEBODY, HOARDER)
"""The three Quirks (Quirks says there are three, equally likely; names are warren's)."""
HOMEBODY_NIGHTS = 3
"""Homebody: at home on at least this many nights."""
HOARDER_CARDS = 3
"""Hoarder: at least this many cards in hand when the game ends."""

CRYSTAL_BALL = "crystal_ball"
MYSTICAL_RECIPE = "mystical_recipe"
MEDALLION = "medallion"
HORSESHOE = "horseshoe"
SHIELD = "shield"
ITEMS: tuple[str, ...] = (CRYSTAL_BALL, HORSESHOE, SHIELD, MEDALLION, MYSTICAL_RECIPE)
"""The five Items (Magic Items). Crystal Ball, Mystical Recipe and Medallion are named by
the rulebook; Horseshoe and Shield are warren's names for the other two."""
ONE_HOLDER_ITEMS: frozenset[str] = frozenset({MYSTICAL_RECIPE, MEDALLION})
"""Offered to one player at most (Magic Items, second note)."""
ITEM_WEIGHT: dict[str, int] = {CRYSTAL_BALL: 3, HORSESHOE: 3, SHIELD: 3, MEDALLION: 3, MYSTICAL_RECIPE: 1}
"""Relative chance of being offered: the Recipe is "much more rare" (ASSUMPTION: a third)."""
OFFERED_ITEMS = 2
"""Each player chooses between two offered Items (Quirks, Magic Items, and Mutations)."""
BREW_CARDS = 2
"""Mystical Recipe: cards gained by the once-a-game brew."""
SHIELD_POINTS = 1
"""Shield: extra defending points on a night its holder defends."""

GNAW = "gnaw"
FRENZY = "frenzy"
STEALTH = "stealth"
MUTATIONS: tuple[str, ...] = (GNAW, FRENZY, STEALTH)
"""Every Mutation warren knows (names and effects are warren's). The rulebook describes one,
which lets a Werebunny do damage from home (Cards and Defense): Gnaw. Frenzy and Stealth are
warren's inventions and each overrides a rule the text states (the damage formula of
Rounds, step 5; the notice Sabotage promises its target), so they are played only when a
game's ``mutations`` option names them (R-TNB-5)."""
RULEBOOK_MUTATIONS: tuple[str, ...] = (GNAW,)
"""The default pool of Mutations: what the rulebook describes."""
FRENZY_BONUS = 1
"""Frenzy: extra weakening points per weakening card."""

MAX_HIT_POINTS = 100
"""Bound of the ``wall`` and ``tower`` options (the defaults are 5 to 16)."""
MAX_CARDS_OF_A_VALUE = 100
"""Bound of each count in the ``deck`` option (the default deck has 12 to 18 of a value):
a deck is dealt and shown card by card, so its size is what a view costs."""

TIMED_PHASES: frozenset[str] = frozenset({"items", "muster", "proposal", "voting", "night"})
"""Phases in which the timer runs (The Timer; item choice and muster by R-TNB-13)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The numbers one game is played with: the defaults above, or a header's overrides."""

    players: int
    guards: tuple[int, ...]
    """Guards per night, night 1 first."""
    wolves: tuple[int, ...]
    """Wolves per night before rejected votes, night 1 first."""
    wall: int
    tower: int
    deck: tuple[int, ...]
    """Cards of each value, indexed by value (index 0 unused)."""
    mutations: tuple[str, ...] = RULEBOOK_MUTATIONS
    """The pool each Werebunny's Mutation comes from (empty: no Mutations)."""
    distinct_mutations: bool = False
    """The two Werebunnies' Mutations must differ (warren's invention, by option)."""

    @property
    def deck_size(self) -> int:
        return sum(self.deck)


def default_table(players: int) -> Table:
    return Table(
        players=players,
        guards=GUARDS[players],
        wolves=WOLVES[players],
        wall=WALL_HP[players],
        tower=TOWER_HP[players],
        deck=(0, *(DECK[v] for v in CARD_VALUES)),
    )
