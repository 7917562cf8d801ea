"""Attacks: areas, levels per ring, clovers, protections and the survival arithmetic,
checked against the Blue Starter box's own cards."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.killer import attack, dice
from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import DeckLibrary
from engine.killer.circle import BunnyCircle
from engine.killer.refusal import Refusal

CARDS = Path(__file__).resolve().parents[3] / "engine" / "killer_bunnies_quest" / "cards"
BOX = DeckLibrary([CARDS]).catalogue("blue-starter")


def ring(n: int, under: dict[int, list[int]] | None = None) -> BunnyCircle:
    c = BunnyCircle()
    for b in range(1, n + 1):
        c.place(b, b % 3)
        c.space(b).under.extend((under or {}).get(b, []))
    return c


def guard(c: BunnyCircle):  # type: ignore[no-untyped-def]
    return lambda b: attack.guard_of(c.space(b).under, BOX.card)


def hits(card_id: str, c: BunnyCircle, target: int, boost: bool = False) -> list[attack.Exposure]:
    card = BOX.by_id[card_id]
    effect = card.effects[0]
    assert isinstance(effect, fx.Attack)
    levels = attack.ring_levels(effect.area, effect.level, len(c))
    if boost:
        levels = attack.boosted(levels, 9, 2, 1)
    tags = card.weapon.tags if card.weapon else []
    return attack.exposures(c, target, levels, guard(c), effect.category, tags, effect.clovers)


def test_the_rulebook_example_fluorine_gas_against_a_double_clover() -> None:
    # Quest §Lucky Clover Cards: level 9 against Lucky Clover Double: higher than 7 survives.
    c = ring(3, {2: [62]})
    [hit] = hits("fluorine-gas", c, 2)
    assert (hit.printed, hit.level) == (9, 7)
    assert not dice.survives(7, hit.level) and dice.survives(8, hit.level)
    assert dice.survival_chance(hit.level) == Fraction(5, 12)


def test_a_plain_weapon_reaches_only_its_target() -> None:
    c = ring(5)
    assert [h.bunny for h in hits("sword", c, 3)] == [3]


def test_sea_whiz_mount_hits_neighbours_a_level_lower() -> None:
    c = ring(5)
    found = {h.bunny: h.level for h in hits("sea-whiz-mount", c, 1)}
    assert found == {1: 10, 2: 9, 5: 9}


def test_nuclear_warhead_reaches_two_either_side_and_only_clovers_save() -> None:
    c = ring(7, {3: [63]})
    found = {h.bunny: h for h in hits("nuclear-warhead", c, 1)}
    assert sorted(found) == [1, 2, 3, 6, 7]
    assert found[1].certain(12) is False            # level 12: no roll can live
    assert found[3].level == 9 and found[3].certain(12) is None   # triple clover: roll


def test_stray_asteroid_reaches_three_either_side() -> None:
    c = ring(9)
    assert len(hits("stray-asteroid", c, 5)) == 7


def test_miniature_black_hole_reaches_every_bunny_one_level_less_per_ring() -> None:
    c = ring(8)
    found = {h.bunny: h.printed for h in hits("miniature-black-hole", c, 1)}
    assert found == {1: 11, 2: 10, 8: 10, 3: 9, 7: 9, 4: 8, 6: 8, 5: 7}


def test_the_halo_shields_from_harm_and_the_suit_from_gas_only() -> None:
    c = ring(3, {1: [58], 2: [151]})
    [haloed] = hits("sword", c, 1)
    assert haloed.shielded and haloed.certain(12) is True
    [suited_gas] = hits("fluorine-gas", c, 2)
    [suited_sword] = hits("sword", c, 2)
    assert suited_gas.shielded and not suited_sword.shielded


def test_clovers_never_take_a_level_below_zero_and_stack() -> None:
    c = ring(2, {1: [61, 62, 63, 141]})
    [hit] = hits("laser-gun", c, 1)
    assert hit.level == 0 and hit.certain(12) is True


def test_the_minilith_doubles_a_low_weapon_and_widens_it() -> None:
    c = ring(5)
    found = {h.bunny: h.level for h in hits("flame-thrower", c, 1, boost=True)}
    assert found == {1: 16, 2: 16, 5: 16}
    # a level-10 weapon is untouched
    assert {h.bunny for h in hits("sea-whiz-mount", c, 1, boost=True)} == {1, 2, 5}
    assert attack.boosted([10, 9], 9, 2, 1) == [10, 9]


def test_an_area_on_a_small_circle_counts_each_bunny_once() -> None:
    c = ring(2)
    assert [h.bunny for h in hits("nuclear-warhead", c, 1)] == [1, 2]


def test_a_no_roll_kill_reaches_its_area() -> None:
    c = ring(5)
    assert attack.reach(c, 3, fx.Adjacent()) == [(3, 0), (4, 1), (2, 1)]
    assert attack.reach(c, 3, fx.Single()) == [(3, 0)]


def test_dice_faces_and_certain_outcomes() -> None:
    spec = BOX.dice["black-d12"]
    dice.check_face("black-d12", spec, 12)
    with pytest.raises(Refusal) as err:
        dice.check_face("black-d12", spec, 13)
    assert err.value.code == "dice.no_such_face"
    assert [dice.roll_needed(lv) for lv in (0, 1, 11, 12)] == [False, True, True, False]
    assert dice.kill_chance(9) == Fraction(3, 4)
    assert dice.effective_level(9, 2, clovers_apply=False) == 9


def test_a_kinder_d10_reads_zero_as_ten() -> None:
    from engine.killer.catalogue.schema import DieSpec
    spec = DieSpec(sides=10, zero_is_ten=True)
    assert dice.face_of_printed(spec, 0) == 10 and dice.face_of_printed(spec, 7) == 7
