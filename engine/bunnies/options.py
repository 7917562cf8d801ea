"""Header options of the ruleset ``bunnies`` and their defaults (see docs/rulings.md)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.bunnies.numbers import HAND_SIZE, MAX_HAND_SIZE


class BunniesOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Variant choices of a game of Bunnies."""

    first_seat: Literal[0, 1] = 1
    """Who has the first go. Seat 0 deals; the player after the dealer starts (R-BUN-1)."""
    hand_size: Annotated[int, Meta(ge=1, le=MAX_HAND_SIZE)] = HAND_SIZE
    """Cards dealt to each hand (Dealing); 7 in the rulebook, 1 to 20 allowed (R-BUN-15)."""
    steal_from: Literal["hand", "hand_or_blind"] = "hand"
    """What a random steal may take: the opponent's hand only (default), or also their
    uncovered own blind cards (R-BUN-4)."""


OPTION_HELP: dict[str, str] = {
    "first_seat": "who has the first go: by the rules the player after the dealer, who is the "
                  "first player named (R-BUN-1)",
    "hand_size": "cards dealt to each hand: 7 in the rulebook (R-BUN-15)",
    "steal_from": "what a steal may take: hand = the opponent's hand only; hand_or_blind = "
                  "his uncovered blind cards too (R-BUN-4)",
}
"""Each option as the recorder explains it, with what each value means."""
