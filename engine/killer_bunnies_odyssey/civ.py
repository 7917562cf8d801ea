"""Civilization (Civ) points: the d20 every player counts on, and the total score (Odyssey).

Each player keeps his Civ points on a d20, set to a starting value (Odyssey §Getting
Started: 10). Kills add the victim's value to it, penalties take points off (Odyssey
§Gaining Civ Points, §Hexascrewup). A player's total is the d20 plus the points of what he
has in play (his creatures and his cities); reaching the target total ends the game at once,
on anybody's turn (§Ending the Game).

The rulebook does not say what happens when the count would leave the die's faces: a
``DieCounter`` with bounds keeps it on the faces (1 to 20), one without bounds keeps any
number (each game documents which it uses and offers the other as an option).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

D20_FACES = (1, 20)
"""The faces of the d20 a player counts his Civ points on."""


class DieCounter(msgspec.Struct, frozen=True, kw_only=True):
    """How a count kept on a die moves: within the die's faces, or freely."""

    low: int | None = D20_FACES[0]
    high: int | None = D20_FACES[1]

    def clamp(self, value: int) -> int:
        if self.low is not None and value < self.low:
            return self.low
        if self.high is not None and value > self.high:
            return self.high
        return value

    def add(self, value: int, change: int) -> tuple[int, int]:
        """The new count after ``change``, and how many points the bounds swallowed
        (positive: gained points lost above the top face; negative: losses below the
        bottom face that did not happen)."""
        raw = value + change
        new = self.clamp(raw)
        return new, raw - new


OPEN = DieCounter(low=None, high=None)
"""A count without bounds."""


def total(d20: int, in_play: Iterable[int]) -> int:
    """A player's total score: his d20 and the points of everything he has in play."""
    return d20 + sum(in_play)


def reached(totals: Sequence[int], target: int) -> list[int]:
    """Seats whose total reaches ``target`` (best first; ties keep seat order): the winners
    when the game ends at once on the target. Only the best total among several wins."""
    best = max(totals, default=0)
    if best < target:
        return []
    return [seat for seat, t in enumerate(totals) if t == best]
