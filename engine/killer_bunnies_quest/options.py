"""The header options of Killer Bunnies Quest, each with its default and its ruling.

The defaults are the rulebook's own reading; every other value is a house rule or a
reading some tables prefer, documented in docs/rulings.md (section killer-bunnies-quest).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.killer_bunnies_quest.numbers import DECK_SET, MAX_PLAYERS

# Bounds on every option (engine.options): a sealed record may carry any value, so none
# may grow without limit. Names are file stems; the catalogue is a SHA-256 in hex.
_Name = Annotated[str, Meta(min_length=1, max_length=64)]
_Seat = Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]


class QuestOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    deck_set: _Name = DECK_SET
    """Which deck set is played (a set file names its decks; R-KBQ-2)."""
    extra_decks: Annotated[list[_Name], Meta(max_length=16)] = []
    """Deck files added to the set: boosters or house cards (docs/catalogue.md)."""
    printing: Literal["current", "2002"] = "current"
    """``current`` (the later card readings) or ``2002`` (the first Blue printing: card
    numbers 59-63, Geneva Convention, Defector Detector, Poverty Poker, Black Cat, Free
    Agent; docs/card-facts.md §1.6 item 7; R-KBQ-3)."""
    catalogue: Annotated[str, Meta(max_length=64)] | None = None
    """The content hash of the cards the record was played with; a record whose deck files
    now give other cards is refused instead of being replayed under them (R-KBQ-2)."""
    starting_carrots: Annotated[int, Meta(ge=0, le=6)] = 0
    """House rule for long games: each player starts with this many carrots from the market
    (rulebook §Game Length; R-KBQ-4)."""
    remove_choose_a_carrot: Annotated[int, Meta(ge=0, le=7)] = 0
    """House rule for short games: this many single Choose A Carrot cards are left out of
    the draw pile (rulebook §Game Length; R-KBQ-4)."""
    target_own_bunnies: bool = False
    """Weapons and Feed The Bunny cards may also go on the player's own bunnies (the card
    wording) instead of only on an opponent's (the rulebook; R-KBQ-11)."""
    feed_others: bool = False
    """A player may feed another player's bunny on his own turn (a community reading,
    docs/card-facts.md §1.7 R-Q19; R-KBQ-14)."""
    reshuffle_supplies: bool = False
    """House rule: when a small deck runs out its discard pile is reshuffled (the fan wiki;
    docs/card-facts.md §1.6 item 10). Default: never (rulebook §Discarded Supplies; R-KBQ-16)."""
    late: Annotated[list[_Seat], Meta(max_length=MAX_PLAYERS - 1)] = []
    """Seats that are not at the table when the game starts and join later (§Joining Late)."""


OPTION_HELP: dict[str, str] = {
    "extra_decks": "deck files added to the set: boosters or house cards, comma-separated",
    "printing": "current = the later card readings; 2002 = the first Blue printing (R-KBQ-3)",
    "starting_carrots": "house rule for long games: carrots each player starts with (R-KBQ-4)",
    "remove_choose_a_carrot": "house rule for short games: single Choose A Carrot cards left "
                              "out of the draw pile (R-KBQ-4)",
    "target_own_bunnies": "yes = weapons and Feed The Bunny cards may go on the player's own "
                          "bunnies too; no = on an opponent's only, as the rulebook (R-KBQ-11)",
    "feed_others": "yes = a player may feed another player's bunny on his turn (R-KBQ-14)",
    "reshuffle_supplies": "yes = an empty cabbage or water deck is reshuffled from its discards; "
                          "no = never, as the rulebook (R-KBQ-16)",
}
"""Each option as the recorder explains it, with what each value means."""
