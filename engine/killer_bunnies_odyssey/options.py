"""The header options of Killer Bunnies and the Ultimate Odyssey, each with its default and its
ruling (docs/rulings.md, section killer-bunnies-odyssey). The defaults are the rulebook's own
reading where it has one, else warren's ruling; every other value is a reading some tables
prefer.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.killer_bunnies_odyssey.numbers import DECK_MAXIMUM, MAX_PLAYERS, STARTER_DECKS

# Bounds on every option (engine.options): a sealed record may carry any value, so none may
# grow without limit. A deck id is a deck file's id; a Card Identification Number is two
# letters and two numbers; a content hash is a SHA-256 in hex. No deck names more than
# DECK_MAXIMUM cards, nor a card more copies than that (R-ODY-4); at most one deck per seat.
_DeckId = Annotated[str, Meta(min_length=1, max_length=64)]
_Code = Annotated[str, Meta(min_length=4, max_length=4)]
_Copies = Annotated[int, Meta(ge=1, le=DECK_MAXIMUM)]
_DeckList = Annotated[dict[_Code, _Copies], Meta(max_length=DECK_MAXIMUM)]
_Hash = Annotated[str, Meta(max_length=64)]


class OdysseyOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    decks: Annotated[list[_DeckId], Meta(min_length=1, max_length=MAX_PLAYERS)] = msgspec.field(
        default_factory=lambda: list(STARTER_DECKS))
    """The personal decks, by deck id: seat i plays ``decks[i % len(decks)]`` (ODY-DECK-1)."""
    deck_lists: Annotated[dict[_DeckId, _DeckList], Meta(max_length=MAX_PLAYERS)] = {}
    """Every named deck's list, Card Identification Number -> copies. A new record carries
    them (warren fills them in); a record without them plays the library's deck files."""
    deck_hashes: Annotated[dict[_DeckId, _Hash], Meta(max_length=MAX_PLAYERS)] = {}
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


OPTION_HELP: dict[str, str] = {
    "decks": "the personal decks by colour: the first player plays the first, the next the "
             "second, and so on (ODY-DECK-1)",
    "hand_size": "cards in hand beside the two run cards: 5 or 7 (R-ODY-2)",
    "resource_reset": "when Resources that paid come back: round = at the end of the round; "
                      "own_turn = at the start of their owner's next turn (R-ODY-6)",
    "occupants_score": "yes = creatures inside a city count toward the total; no = only the "
                       "circle's creatures and the cities count (R-ODY-9)",
    "civ_bounds": "die = the d20 keeps to 1 to 20; open = it counts any number (R-ODY-10)",
    "adjacent_twice": "two players: yes = a card hitting each adjacent player hits the opponent "
                      "twice; no = once (R-ODY-12)",
    "empty_pile": "an empty draw pile: reshuffle = the discards are shuffled and cut into a new "
                  "one; stop = its owner draws no more (R-ODY-14)",
}
"""Each option as the recorder explains it, with what each value means."""
