"""The Bunny Circle: placement anywhere, no repositioning, adjacency, distances, rings."""

from __future__ import annotations

import pytest

from engine.killer.circle import BunnyCircle
from engine.killer.refusal import Refusal


def circle_of(*bunnies: int, owner: int = 0) -> BunnyCircle:
    c = BunnyCircle()
    for b in bunnies:
        c.place(b, owner)
    return c


def test_a_bunny_enters_left_right_or_between() -> None:
    c = circle_of(1, 2)
    c.place(3, 1, at=1)          # between 1 and 2
    assert c.order == [1, 3, 2]
    c.place(4, 1, at=0)          # before the first
    c.place(5, 1)                # after the last
    assert c.order == [4, 1, 3, 2, 5]
    assert c.owned_by(1) == [4, 3, 5] and c.count(0) == 2


def test_placement_is_refused_off_the_circle_or_twice() -> None:
    c = circle_of(1, 2)
    with pytest.raises(Refusal) as err:
        c.place(3, 0, at=3)
    assert err.value.code == "circle.bad_position"
    with pytest.raises(Refusal) as err:
        c.place(2, 0)
    assert err.value.code == "circle.already_in"


def test_there_is_no_way_to_reposition_a_bunny() -> None:
    # Quest §Positioning Of Bunnies: placement happens once; the structure offers no move.
    assert not any(name in dir(BunnyCircle) for name in ("move", "reposition", "swap"))


def test_adjacent_bunnies_are_left_and_right_whoever_owns_them() -> None:
    c = BunnyCircle()
    for b, owner in ((1, 0), (2, 1), (3, 0), (4, 2)):
        c.place(b, owner)
    assert sorted(c.neighbours(1)) == [2, 4]
    assert sorted(c.neighbours(3)) == [2, 4]
    two = circle_of(1, 2)
    assert two.neighbours(1) == [2]
    assert circle_of(1).neighbours(1) == []


def test_spaces_away_count_positions_both_ways() -> None:
    c = circle_of(*range(1, 8))  # seven bunnies
    assert c.within(1, 2) == [(2, 1), (7, 1), (3, 2), (6, 2)]
    assert c.distance(1, 5) == 3 and c.distance(2, 7) == 2
    assert sorted(d for _, d in c.rings(1)) == [1, 1, 2, 2, 3, 3]
    assert c.step(7, "clockwise") == 1 and c.step(1, "counter_clockwise") == 7


def test_rows_have_no_geometry() -> None:
    c = BunnyCircle(layout="rows")
    c.place(1, 0)
    c.place(2, 1)
    with pytest.raises(Refusal) as err:
        c.neighbours(1)
    assert err.value.code == "circle.no_geometry"


def test_leaving_hands_back_the_cards_under_and_on_it() -> None:
    c = circle_of(1, 2)
    c.space(1).under.append(61)
    c.space(1).on.append(24)
    gone = c.remove(1)
    assert (gone.under, gone.on) == ([61], [24])
    assert 1 not in c and c.order == [2]
    with pytest.raises(Refusal) as err:
        c.space(1)
    assert err.value.code == "circle.no_such_bunny"


def test_a_bunny_changes_owner_in_place_with_its_modifiers() -> None:
    c = circle_of(1, 2, 3)
    c.space(2).under.append(58)
    c.change_owner(2, 4)
    assert c.order == [1, 2, 3] and c.owner(2) == 4 and c.space(2).under == [58]


def test_a_copy_is_independent() -> None:
    c = circle_of(1, 2)
    d = c.copy()
    d.place(3, 1)
    d.space(1).under.append(9)
    assert c.order == [1, 2] and c.space(1).under == []
