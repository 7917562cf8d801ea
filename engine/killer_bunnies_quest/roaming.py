"""Cards that roam the Bunny Circle: Roaming Red Runs (Cyber Bunny, the Ebola Virus).

A roaming card attacks the bunny it is first put on, then moves on to the next *viable*
bunny in its direction and waits on it (sharing its space), attacking again at the end of
each of its launcher's turns: once a round, starting the round after the launch (Quest
§Roaming Red Run Cards). It can come round to its launcher's own bunnies. What makes a bunny
viable is the game's to say (a haloed bunny is not; the Ebola Virus never infects a bunny
twice); the roaming card is discarded when no viable bunny is left.

This module keeps the roaming card's state and answers "where does it go next?" and "does
it attack now?"; the attack itself is an ordinary exposure (``engine.killer.attack``).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from engine.killer.catalogue.effects import Direction
from engine.killer.circle import BunnyCircle


class Roamer(msgspec.Struct, kw_only=True):
    """A roaming card in play."""

    card: int
    launcher: int
    """The seat that launched it: it attacks at the end of this seat's turns."""
    host: int | None
    """The bunny it waits on (None once it has nowhere to go)."""
    direction: Direction
    revisit: bool
    visited: list[int] = []
    """Bunnies it has attacked (kept for cards that never revisit)."""
    launched_turn: int = 0
    """The launcher's turn number in which it was launched (no second attack that turn)."""

    def copy(self) -> Roamer:
        return Roamer(card=self.card, launcher=self.launcher, host=self.host,
                      direction=self.direction, revisit=self.revisit, visited=self.visited[:],
                      launched_turn=self.launched_turn)


def attacks_now(roamer: Roamer, launcher_turn_ending: int) -> bool:
    """Does it attack at the end of the launcher's turn number ``launcher_turn_ending``?"""
    return roamer.host is not None and launcher_turn_ending > roamer.launched_turn


def next_host(circle: BunnyCircle, roamer: Roamer, after: int,
              viable: Callable[[int], bool], leaving: bool = False) -> int | None:
    """The next viable bunny from ``after`` in the roamer's direction, or None.

    ``after`` is the bunny it comes from (its last target, still in the circle);
    ``leaving`` says that bunny is about to leave the circle (it died), so it cannot be
    chosen again. A roamer that revisits may stay on the same bunny if it is the only
    viable one; one that does not never goes back to a bunny it has visited."""
    n = len(circle)
    if n == 0:
        return None
    for step in range(1, n + 1):
        candidate = circle.step(after, roamer.direction, step)
        if candidate == after and (leaving or not roamer.revisit):
            continue
        if not roamer.revisit and candidate in roamer.visited:
            continue
        if viable(candidate):
            return candidate
    return None
