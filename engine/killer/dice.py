"""Dice as recorded chance, and the arithmetic of surviving a weapon.

warren never rolls a die on replay: a roll reaches the engine as a recorded face
(:class:`Roll`), and the engine checks that the face is on the die. A die is a
:class:`~engine.killer.catalogue.schema.DieSpec` of the deck set (``black-d12``,
KinderBunnies' ``violet-d10`` read with 0 as 10). Faces are always 1..sides: a d10 numbered
0-9 is recorded as 1-10 (``face_of_printed`` converts what is printed on it).

Survival (Quest §Weapons, §Lucky Clover Cards): a bunny attacked at weapon level L lives
only if its roll is *higher* than L; each Lucky Clover under it lowers L by its count, and
the level never goes below 0. So the chance to live is ``(sides - L) / sides`` for L in 0..
sides, and a roll is owed only when the outcome is open (0 < L < sides).
"""

from __future__ import annotations

from fractions import Fraction

import msgspec

from engine.killer.catalogue.schema import DieSpec
from engine.killer.refusal import Refusal


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One recorded roll: which die, the face it showed, and who rolled it."""

    die: str
    face: int
    roller: int | None = None
    """The seat that rolled (the owner of an attacked bunny, a roll-off's player...)."""


def face_of_printed(spec: DieSpec, printed: int) -> int:
    """The face value of what is printed on the die (a zero-is-ten d10 reads 0 as 10)."""
    if spec.zero_is_ten and printed == 0:
        return spec.sides
    return printed


def check_face(die: str, spec: DieSpec, face: int) -> None:
    """Refuse a face the die does not have."""
    if not 1 <= face <= spec.sides:
        raise Refusal("dice.no_such_face", f"{die} has faces 1-{spec.sides}, not {face}",
                      die=die, face=face)


def effective_level(level: int, clovers: int, clovers_apply: bool = True) -> int:
    """The level a bunny faces: the weapon's level less its clovers (never below 0)."""
    return max(0, level - clovers) if clovers_apply else max(0, level)


def survives(face: int, level: int) -> bool:
    """A bunny lives only by rolling higher than the level it faces."""
    return face > level


def survival_chance(level: int, sides: int = 12) -> Fraction:
    """Chance to live at ``level`` on a fair die of ``sides``: (sides - level) / sides."""
    level = min(max(level, 0), sides)
    return Fraction(sides - level, sides)


def kill_chance(level: int, sides: int = 12) -> Fraction:
    """Chance to die at ``level``: level / sides (clamped to 0..1)."""
    return 1 - survival_chance(level, sides)


def roll_needed(level: int, sides: int = 12) -> bool:
    """A roll decides only when neither outcome is certain: at level 0 every roll lives, at
    ``sides`` or above none does."""
    return 0 < level < sides


def outcome_if_certain(level: int, sides: int = 12) -> bool | None:
    """True (lives) or False (dies) when no roll is needed; None when a roll decides."""
    if level <= 0:
        return True
    if level >= sides:
        return False
    return None
