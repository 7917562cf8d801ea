"""The header options of KinderBunnies, each with its default and its ruling
(docs/rulings.md, section kinderbunnies)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from engine.kinderbunnies.numbers import MAX_PLAYERS

Level = Literal["beginner", "advanced", "really-advanced"]


class KinderOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    level: Level = "beginner"
    """Which of the three games is played (R-KIN-1)."""
    youngest: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)] = 0
    """The seat of the youngest player, who is dealt to and plays first (R-KIN-2)."""
    carrot_pick: Literal["choose", "top"] = "choose"
    """``choose``: a player taking a carrot from the pile picks any; ``top``: he takes the
    first letter left, as from a stack (R-KIN-9)."""
    beginner_bad_news: bool = False
    """Shuffle the four Bad News cards into a Beginner game, for tables that read the
    Beginner section's Bad News as meant for it (R-KIN-4)."""
    catalogue: Annotated[str, Meta(max_length=64)] | None = None
    """The content hash of the cards the record was played with (R-KIN-1)."""


OPTION_HELP: dict[str, str] = {
    "level": "which game: beginner (Blue deck, carrots A-F), advanced or really-advanced (R-KIN-1)",
    "youngest": "the youngest player, dealt to first and first to play (R-KIN-2)",
    "carrot_pick": "taking a carrot from the pile: choose = any carrot the player likes; top = "
                   "the first letter left, as from a stack (R-KIN-9)",
    "beginner_bad_news": "yes = the four Bad News cards are shuffled into a Beginner game too "
                         "(R-KIN-4)",
}
"""Each option as the recorder explains it, with what each value means."""
