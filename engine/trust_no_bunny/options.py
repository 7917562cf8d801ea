"""Header options of the ruleset ``trust-no-bunny`` and their defaults (docs/rulings.md).

Every number the rulebook leaves out has a default in ``table.py``; an option replaces it
for one game. Variants where readings differ are named here too.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.rules import WarrenError
from engine.trust_no_bunny.numbers import (
    CARD_VALUES,
    FRENZY,
    GNAW,
    MAX_CARDS_OF_A_VALUE,
    MAX_HIT_POINTS,
    MAX_PLAYERS,
    MUTATIONS,
    ROUNDS,
    RULEBOOK_MUTATIONS,
    STARTING_HAND,
    STEALTH,
    WOLF_LIMIT,
    Table,
    default_table,
)

# Bounds on every option (engine.options): a header cannot make a game that costs more than
# a game can (deck={"1": 1000000000} once built a billion-card view).
_Nights = Meta(min_length=ROUNDS, max_length=ROUNDS)
_Guards = Annotated[list[Annotated[int, Meta(ge=1, le=MAX_PLAYERS)]], _Nights]
_Wolves = Annotated[list[Annotated[int, Meta(ge=0, le=WOLF_LIMIT)]], _Nights]
_HitPoints = Annotated[int, Meta(ge=1, le=MAX_HIT_POINTS)]
_Count = Annotated[int, Meta(ge=0, le=MAX_CARDS_OF_A_VALUE)]
_Deck = Annotated[dict[str, _Count], Meta(max_length=len(CARD_VALUES))]
_Pool = Annotated[tuple[Literal["gnaw", "frenzy", "stealth"], ...], Meta(max_length=len(MUTATIONS))]


class TnbOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Variant choices of a game of Trust No Bunny."""

    guards: _Guards | None = None
    """Guards on each of the five nights; default from table.GUARDS by player count."""
    wolves: _Wolves | None = None
    """Wolves on each of the five nights; default from table.WOLVES by player count."""
    wall: _HitPoints | None = None
    """The Wall's hit points; default table.WALL_HP."""
    tower: _HitPoints | None = None
    """The Tower's hit points; default table.TOWER_HP."""
    deck: _Deck | None = None
    """Cards of each value, e.g. ``{"1": 18, "2": 16, "3": 14, "4": 12}`` (the default)."""
    mutations: _Pool = RULEBOOK_MUTATIONS  # type: ignore[assignment]  # Annotated hides the tuple
    """The pool of Mutations a Werebunny's comes from: the rulebook's Gnaw by default;
    warren's Frenzy and Stealth only when named here; ``[]`` plays without Mutations (R-TNB-5)."""
    distinct_mutations: bool = False
    """True makes the two Werebunnies' Mutations differ (warren's invention; the rulebook
    lets Townsfolk share a Quirk, and so lets Werebunnies share a Mutation) (R-TNB-5)."""
    rejection_raise: Literal["team_size", "one"] = "team_size"
    """How much a rejected vote raises tonight's wolves: by the team size (Wolves, the
    default) or by one (the reading of Rounds, step 1) (R-TNB-9)."""
    early_end: bool = True
    """End the game after the fourth night when the Wall still stands, everybody in the
    town winning (Quirks, note); False plays the fifth night anyway (R-TNB-16)."""
    guard_timeout: Literal["staged", "whole_hand"] = "staged"
    """What a guard's expired timer submits: the cards the guard had staged, as the
    timeout event records them (default), or every card in hand as defence (R-TNB-14)."""


_DEFAULTS = TnbOptions()
_DEFAULT_TABLES: dict[int, Table] = {}
"""The table of a game without options, per player count: worked out once (a Table is
frozen, so every game of that size shares it)."""


def resolve_table(players: int, opts: TnbOptions) -> Table:
    """The numbers of one game, checked; a clear error for an option that cannot work."""
    if opts == _DEFAULTS:
        table = _DEFAULT_TABLES.get(players)
        if table is None:
            table = _DEFAULT_TABLES[players] = _resolve_table(players, opts)
        return table
    return _resolve_table(players, opts)


def _resolve_table(players: int, opts: TnbOptions) -> Table:
    base = default_table(players) if players in (5, 6, 7, 8) else None
    if base is None:
        raise WarrenError(f"trust-no-bunny is for 5 to 8 players, not {players}")
    guards = tuple(opts.guards) if opts.guards is not None else base.guards
    wolves = tuple(opts.wolves) if opts.wolves is not None else base.wolves
    if len(guards) != ROUNDS or any(not 1 <= g <= players for g in guards):
        raise WarrenError(f"bad option for trust-no-bunny: guards must be {ROUNDS} numbers in 1..{players}")
    if len(wolves) != ROUNDS or any(not 0 <= w <= WOLF_LIMIT for w in wolves):
        raise WarrenError(
            f"bad option for trust-no-bunny: wolves must be {ROUNDS} numbers in 0..{WOLF_LIMIT}")
    wall = opts.wall if opts.wall is not None else base.wall
    tower = opts.tower if opts.tower is not None else base.tower
    if wall < 1 or tower < 1:
        raise WarrenError("bad option for trust-no-bunny: wall and tower need at least 1 hit point")
    if opts.deck is not None:
        keys = {str(v) for v in CARD_VALUES}
        if set(opts.deck) - keys or any(n < 0 for n in opts.deck.values()):
            raise WarrenError('bad option for trust-no-bunny: deck maps "1".."4" to card counts')
        deck = (0, *(opts.deck.get(str(v), 0) for v in CARD_VALUES))
    else:
        deck = base.deck
    if sum(deck) < players * STARTING_HAND:
        raise WarrenError("bad option for trust-no-bunny: the deck is too small to deal")
    pool = tuple(opts.mutations)
    if len(set(pool)) != len(pool):
        raise WarrenError("bad option for trust-no-bunny: mutations names each Mutation once")
    if opts.distinct_mutations and len(pool) < 2:
        raise WarrenError("bad option for trust-no-bunny: distinct_mutations needs at least two "
                          f"Mutations in the pool (mutations: {list(pool)})")
    return Table(players=players, guards=guards, wolves=wolves, wall=wall, tower=tower, deck=deck,
                 mutations=pool, distinct_mutations=opts.distinct_mutations)


assert set(MUTATIONS) == {GNAW, FRENZY, STEALTH}  # the Literal above names them all


OPTION_HELP: dict[str, str] = {
    "mutations": "the Mutations a Werebunny's comes from: gnaw is the rulebook's; frenzy and "
                 "stealth are warren's (R-TNB-5)",
    "distinct_mutations": "yes = the two Werebunnies' Mutations differ (warren's; R-TNB-5)",
    "rejection_raise": "a rejected team raises tonight's wolves: team_size = by the team's size; "
                       "one = by one (R-TNB-9)",
    "early_end": "yes = the game ends after the fourth night while the Wall stands, the whole "
                 "town winning; no = the fifth night is played (R-TNB-16)",
    "guard_timeout": "a guard's timer runs out: staged = the cards staged are played; whole_hand "
                     "= every card in hand (R-TNB-14)",
}
"""Each option as the recorder explains it, with what each value means."""
