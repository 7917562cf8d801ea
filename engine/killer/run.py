"""The two run positions, the run cycle, and saved cards.

Every player keeps two cards face down in front of him: the TOP RUN card (played next) and
the BOTTOM RUN card (Quest §Run Cards; Odyssey §Playing the Game). A card is played by
going down in the bottom position, sliding to the top, and being flipped. On a flip its
player plays it, discards it, or (a Special or Very Special only; an Odyssey Resource is
saved by itself) saves it face up beside him; a card can be saved only this way, never
straight from hand (Quest §Special Cards). Run cards are never traded.

The steps are separate functions so each game orders them its own way (Odyssey: flip,
slide, draw, replace).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from engine.killer.catalogue.effects import Direction
from engine.killer.refusal import Refusal

SAVABLE: frozenset[str] = frozenset({"special", "very_special", "resource"})
"""Card types that may be saved when flipped."""


class RunPositions(msgspec.Struct, kw_only=True):
    """A player's two face-down run cards."""

    top: int | None = None
    bottom: int | None = None

    def copy(self) -> RunPositions:
        return RunPositions(top=self.top, bottom=self.bottom)

    def cards(self) -> list[int]:
        return [c for c in (self.top, self.bottom) if c is not None]


def flip(run: RunPositions) -> int:
    """Turn up the top run card (it leaves the run positions)."""
    if run.top is None:
        raise Refusal("run.no_top_card", "there is no top run card to flip")
    card = run.top
    run.top = None
    return card


def slide(run: RunPositions) -> None:
    """The bottom run card moves up to the top position."""
    if run.top is not None:
        raise Refusal("run.top_taken", "the top run card is still in place")
    run.top, run.bottom = run.bottom, None


def place_bottom(run: RunPositions, card: int) -> None:
    """A card from hand goes down in the bottom position."""
    if run.bottom is not None:
        raise Refusal("run.bottom_taken", "the bottom run position is taken")
    run.bottom = card


def check_save(card_type: str, flipped: bool) -> None:
    """Only a Special or Very Special card, and only when flipped, is saved."""
    if card_type not in SAVABLE:
        raise Refusal("run.not_savable", f"a {card_type.replace('_', ' ')} card cannot be saved",
                      card_type=card_type)
    if not flipped:
        raise Refusal("run.save_from_hand",
                      "a card is saved only when flipped from the top run position, never "
                      "straight from hand", card_type=card_type)


def rotate_tops(runs: Sequence[RunPositions], seats: Sequence[int], direction: Direction) -> None:
    """Every listed seat's top run card passes to the next listed seat in ``direction``
    (seats in clockwise order; counter-clockwise means to the previous seat)."""
    tops = [runs[s].top for s in seats]
    n = len(seats)
    for i, seat in enumerate(seats):
        giver = (i + 1) % n if direction == "counter_clockwise" else (i - 1) % n
        runs[seat].top = tops[giver]
