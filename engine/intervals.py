"""95% intervals for the rates and differences the statistics report.

A rate ``k / n`` gets the Wilson score interval, which stays inside 0..1 and is honest for
a handful of cases, where the textbook ``p ± 1.96·sqrt(p(1-p)/n)`` is not (it gives 0..0
for 0 of 5). A difference of two rates gets Newcombe's hybrid score interval (his method
10, 1998), built from the two Wilson intervals: again honest for small or lopsided groups,
such as the seven seats that never laid an ace. The canned SQL computes the Wilson
interval itself where a report promises one (``win_rate_by_seat.sql``); these give the
same figures, for the charts of reports that give only the counts.
"""

from __future__ import annotations

from math import sqrt

Z = 1.96
"""The normal quantile of a two-sided 95% interval."""


def wilson(k: float, n: float, z: float = Z) -> tuple[float, float] | None:
    """The Wilson score interval of ``k`` successes in ``n`` trials (None for no trials)."""
    if n <= 0:
        return None
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def newcombe(k1: float, n1: float, k2: float, n2: float, z: float = Z) -> tuple[float, float] | None:
    """The interval of ``k1/n1 - k2/n2`` (Newcombe's hybrid score method), None when either
    group is empty."""
    first, second = wilson(k1, n1, z), wilson(k2, n2, z)
    if first is None or second is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = first, second
    d = p1 - p2
    return d - sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
