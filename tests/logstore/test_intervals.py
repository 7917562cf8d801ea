"""The 95% intervals the charts draw: Wilson for a rate, Newcombe's hybrid score for a
difference of two, checked against the figures of Newcombe (1998), Table II."""

from __future__ import annotations

import pytest

from engine.intervals import newcombe, wilson


def test_wilson_stays_inside_zero_to_one_and_is_not_empty_for_none_of_a_few() -> None:
    low, high = wilson(0, 10)  # type: ignore[misc]
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)  # the textbook gives 0..0
    low, high = wilson(10, 10)  # type: ignore[misc]
    assert high == 1.0 and low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) is None


@pytest.mark.parametrize(("counts", "expected"), [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((6, 7, 2, 7), (0.0582, 0.8062)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
])
def test_newcombe_gives_the_published_intervals(counts: tuple[int, int, int, int],
                                                expected: tuple[float, float]) -> None:
    low, high = newcombe(*counts)  # type: ignore[misc]
    assert (low, high) == pytest.approx(expected, abs=1.5e-4)  # the paper gives four places


def test_a_difference_from_an_empty_group_has_no_interval() -> None:
    assert newcombe(3, 10, 0, 0) is None
