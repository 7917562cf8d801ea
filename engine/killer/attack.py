"""Which bunnies an attack reaches, the level each one faces, and who is protected.

An attack (a weapon's ``attack`` primitive, a roaming card, a triggered Trojan Bunny) has a
level, an area shape and a category of harm. This module turns it into one
:class:`Exposure` per bunny reached: the level printed for that ring, the level the bunny
really faces once its Lucky Clovers are counted (Quest §Lucky Clover Cards: the clovers
lower the weapon's level, never below 0), and whether a modifier under it shields it
(the Heavenly Halo from all harm, the Containment Suit from gas and viruses). A ``kill``
without a roll uses the same areas, at no level.

Area shapes (``catalogue.effects``): ``single`` the target; ``adjacent`` the target and its
two neighbours (their own level if the card gives one); ``either_side`` the target and every
bunny up to N places away; ``rings`` the target and every other bunny, one ``fade`` lower
per ring. A weapon booster (the Minilith) doubles a low weapon's levels and widens its reach.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec

from engine.killer import dice
from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.schema import Card
from engine.killer.circle import BunnyCircle


class Guard(msgspec.Struct, frozen=True, kw_only=True):
    """What a bunny's modifiers do for it."""

    clovers: int = 0
    protects: frozenset[str] = frozenset()
    protects_tags: frozenset[str] = frozenset()
    shields: tuple[int, ...] = ()
    """The modifier cards that shield it from something (for the effect's facts)."""

    def shielded(self, category: str, tags: Iterable[str] = ()) -> bool:
        """Protected from harm of ``category`` or from a weapon tagged with ``tags``."""
        return category in self.protects or not self.protects_tags.isdisjoint(tags)


NO_GUARD = Guard()


def guard_of(under: Iterable[int], card_of: Callable[[int], Card]) -> Guard:
    """Sum up the Bunny Modifiers among the cards under a bunny."""
    clovers = 0
    protects: set[str] = set()
    tags: set[str] = set()
    shields: list[int] = []
    for number in under:
        modifier = card_of(number).modifier
        if modifier is None:
            continue
        clovers += modifier.clover
        if modifier.protects or modifier.protects_tags:
            shields.append(number)
        protects.update(modifier.protects)
        tags.update(modifier.protects_tags)
    if not (clovers or protects or tags):
        return NO_GUARD
    return Guard(clovers=clovers, protects=frozenset(protects), protects_tags=frozenset(tags),
                 shields=tuple(shields))


def ring_levels(area: fx.Area, level: int, circle_size: int) -> list[int]:
    """The level faced at each distance from the target (index 0 = the target)."""
    return area.levels(level, circle_size)


def boosted(levels: list[int], max_level: int, factor: int, extra_spaces: int) -> list[int]:
    """A booster's effect on a weapon of printed level ``levels[0]``: up to ``max_level`` its
    levels are multiplied and it reaches ``extra_spaces`` more places at its outer level
    (the Minilith: a single-target level 8 becomes level 16 on the target and both
    neighbours). Stronger weapons are untouched."""
    if not levels or levels[0] > max_level:
        return levels
    doubled = [lv * factor for lv in levels]
    return doubled + [doubled[-1]] * extra_spaces


class Exposure(msgspec.Struct, frozen=True, kw_only=True):
    """One bunny reached by an attack."""

    bunny: int
    owner: int
    distance: int
    printed: int
    """The level for its ring, before clovers."""
    level: int
    """The level it faces after its clovers."""
    shielded: bool
    """A modifier protects it: nothing happens to it."""

    def certain(self, sides: int) -> bool | None:
        """True: lives without a roll; False: dies without a roll; None: a roll decides."""
        if self.shielded:
            return True
        return dice.outcome_if_certain(self.level, sides)


def exposures(circle: BunnyCircle, target: int, levels: list[int], guard: Callable[[int], Guard],
              category: str, tags: Iterable[str] = (), clovers_apply: bool = True) -> list[Exposure]:
    """Every bunny the attack reaches, target first, then ring by ring."""
    tag_set = frozenset(tags)
    reached = [(target, 0)]
    if len(levels) > 1:
        reached += circle.within(target, len(levels) - 1)
    out: list[Exposure] = []
    for bunny, distance in reached:
        g = guard(bunny)
        printed = levels[distance]
        out.append(Exposure(
            bunny=bunny, owner=circle.owner(bunny), distance=distance, printed=printed,
            level=dice.effective_level(printed, g.clovers, clovers_apply),
            shielded=g.shielded(category, tag_set)))
    return out


def reach(circle: BunnyCircle, target: int, area: fx.Area) -> list[tuple[int, int]]:
    """The bunnies a no-roll ``kill`` reaches with their distances, target first."""
    levels = ring_levels(area, 0, len(circle))
    out = [(target, 0)]
    if len(levels) > 1:
        out += circle.within(target, len(levels) - 1)
    return out
