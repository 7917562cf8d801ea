"""The Bunny Circle: where bunnies live, in order, with what lies under and on them.

Quest and Odyssey put every player's bunnies into one shared ring (Quest §Positioning Of
Bunnies, §Adjacent; Odyssey §Positioning Of Creatures And Structures); KinderBunnies puts
them in a row in front of each owner. One structure serves both: ``order`` holds the bunnies
clockwise (for ``rows`` the order only says who came first), and the geometry (neighbours,
distances, rings) is defined on the ring only.

The rules the structure enforces (each game maps the refusal codes to its rule ids):

* a bunny entering the circle may be placed anywhere (``place`` takes the index it is
  inserted at: before the bunny now at that index, or at the end), and nothing ever moves a
  bunny already there (there is no reposition operation at all);
* a bunny's Bunny Modifiers and dormant cards lie *under* it, pending cards (feed demands, a
  roaming card waiting on it) sit *on* it, and a structure's occupants are *inside* it; they
  all leave with the bunny (``remove`` hands them back for discarding);
* "adjacent bunnies" are the bunny directly left and the one directly right of the target,
  whoever owns them; "N spaces away" counts positions either side; with two bunnies the
  other one is both neighbours, and a bunny is never its own neighbour.

Clockwise is the direction of increasing index.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.killer.refusal import Refusal

Layout = Literal["ring", "rows"]


class Space(msgspec.Struct, kw_only=True):
    """One bunny's place in the circle."""

    bunny: int
    """The bunny card's number."""
    owner: int
    """The seat that owns it."""
    under: list[int] = []
    """Cards under it: Bunny Modifiers, a dormant weapon (placed order)."""
    on: list[int] = []
    """Cards on it: pending feed demands, a roaming card waiting on it."""
    inside: list[int] = []
    """A structure's occupants (Odyssey's cities)."""

    def copy(self) -> Space:
        return Space(bunny=self.bunny, owner=self.owner, under=self.under[:], on=self.on[:],
                     inside=self.inside[:])


class BunnyCircle(msgspec.Struct, kw_only=True):
    """The bunnies in play, clockwise, and each one's space."""

    layout: Layout = "ring"
    order: list[int] = []
    """Bunny card numbers, clockwise."""
    spaces: dict[int, Space] = {}
    """Bunny number -> its space."""

    def copy(self) -> BunnyCircle:
        return BunnyCircle(layout=self.layout, order=self.order[:],
                           spaces={b: s.copy() for b, s in self.spaces.items()})

    # -- who is where ---------------------------------------------------------------------
    def __contains__(self, bunny: object) -> bool:
        return bunny in self.spaces

    def __len__(self) -> int:
        return len(self.order)

    def space(self, bunny: int) -> Space:
        """The space of a bunny in the circle; refused if it is not there."""
        space = self.spaces.get(bunny)
        if space is None:
            raise Refusal("circle.no_such_bunny", f"bunny {bunny} is not in the Bunny Circle",
                          bunny=bunny, circle=self.order[:])
        return space

    def owner(self, bunny: int) -> int:
        return self.space(bunny).owner

    def owned_by(self, seat: int) -> list[int]:
        """The seat's bunnies in the circle, clockwise."""
        spaces = self.spaces
        return [b for b in self.order if spaces[b].owner == seat]

    def count(self, seat: int) -> int:
        spaces = self.spaces
        return sum(1 for b in self.order if spaces[b].owner == seat)

    def index(self, bunny: int) -> int:
        self.space(bunny)
        return self.order.index(bunny)

    # -- entering and leaving ---------------------------------------------------------------
    def place(self, bunny: int, owner: int, at: int | None = None) -> None:
        """A bunny enters at index ``at`` (0..len; None: the end). Anywhere is allowed
        (Quest §Positioning Of Bunnies): left of, right of or between the bunnies there."""
        if bunny in self.spaces:
            raise Refusal("circle.already_in", f"bunny {bunny} is already in the Bunny Circle",
                          bunny=bunny)
        n = len(self.order)
        if at is None:
            at = n
        if not 0 <= at <= n:
            raise Refusal("circle.bad_position",
                          f"position {at} is not in the circle (0 to {n})", at=at, size=n)
        self.order.insert(at, bunny)
        self.spaces[bunny] = Space(bunny=bunny, owner=owner)

    def remove(self, bunny: int) -> Space:
        """The bunny leaves the circle (dies, is abducted...); its space comes back with the
        cards under, on and inside it, for the caller to discard or keep."""
        space = self.space(bunny)
        self.order.remove(bunny)
        del self.spaces[bunny]
        return space

    def change_owner(self, bunny: int, seat: int) -> None:
        """The bunny changes hands where it stands (defecting, auctions, trades); what lies
        under it goes with it (a Heavenly Halo moves with its bunny)."""
        self.space(bunny).owner = seat

    # -- geometry (ring only) ---------------------------------------------------------------
    def _ring(self) -> None:
        if self.layout != "ring":
            raise Refusal("circle.no_geometry",
                          "bunnies in rows have no neighbours or distances", layout=self.layout)

    def step(self, bunny: int, direction: Literal["clockwise", "counter_clockwise"],
             by: int = 1) -> int:
        """The bunny ``by`` places from ``bunny`` in ``direction`` (wrapping round)."""
        self._ring()
        i = self.index(bunny)
        n = len(self.order)
        return self.order[(i + by) % n if direction == "clockwise" else (i - by) % n]

    def neighbours(self, bunny: int) -> list[int]:
        """The adjacent bunnies: directly left and directly right (one bunny if the circle
        holds two, none if it holds one). Quest §Adjacent."""
        return [b for b, d in self.within(bunny, 1) if d == 1]

    def distance(self, a: int, b: int) -> int:
        """Places between two bunnies, the shorter way round."""
        self._ring()
        n = len(self.order)
        d = abs(self.index(a) - self.index(b))
        return min(d, n - d)

    def within(self, bunny: int, spaces: int) -> list[tuple[int, int]]:
        """Every other bunny up to ``spaces`` places away on either side, with its distance
        (each bunny once, at its nearer distance), nearest first, clockwise side first."""
        self._ring()
        i = self.index(bunny)
        n = len(self.order)
        seen = {bunny}
        out: list[tuple[int, int]] = []
        for d in range(1, min(spaces, n // 2) + 1):
            for j in ((i + d) % n, (i - d) % n):
                other = self.order[j]
                if other not in seen:
                    seen.add(other)
                    out.append((other, d))
        return out

    def rings(self, bunny: int) -> list[tuple[int, int]]:
        """Every other bunny of the circle with its distance from ``bunny`` (ring by ring)."""
        return self.within(bunny, len(self.order))
