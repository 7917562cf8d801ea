"""The blind-card layout: which blind cards cover which (BUN-DEAL-2).

Seen from the dealer, each player's four blind cards lie in a row of columns 0..3, the two
rows facing each other. Slot ``"<seat>.<column>"`` names one. The shared ``left`` card lies
across both players' column 1, ``right`` across column 2, and ``top`` across ``left`` and
``right``. A card is uncovered when the card covering it has left the table.
"""

from __future__ import annotations

from engine.bunnies.numbers import BLINDS_PER_SEAT

SHARED_SLOTS: tuple[str, ...] = ("left", "right", "top")


def own_slots(seat: int) -> tuple[str, ...]:
    return tuple(f"{seat}.{column}" for column in range(BLINDS_PER_SEAT))


OWN_SLOTS: tuple[tuple[str, ...], ...] = (own_slots(0), own_slots(1))
ALL_SLOTS: tuple[str, ...] = OWN_SLOTS[0] + OWN_SLOTS[1] + SHARED_SLOTS

COVERED_BY: dict[str, str] = {
    "0.1": "left",
    "1.1": "left",
    "0.2": "right",
    "1.2": "right",
    "left": "top",
    "right": "top",
}
"""slot -> the shared slot lying on it."""


def is_uncovered(slot: str, present: dict[str, str]) -> bool:
    """True when no card still on the table lies on ``slot``."""
    cover = COVERED_BY.get(slot)
    return cover is None or cover not in present


def owner(slot: str) -> int | None:
    """The seat a blind slot belongs to, or None for a shared one."""
    return None if slot in SHARED_SLOTS else int(slot[0])


def playable_by(slot: str, seat: int) -> bool:
    """Own blind cards belong to their seat; shared ones to both (ruling R-BUN-2)."""
    return slot in SHARED_SLOTS or slot[0] == str(seat)
