"""How many cores a helper process could have to itself right now."""

from __future__ import annotations

import os


def idle_cores() -> int:
    """Cores left after this process and the machine's current load (1-minute average), at
    most 4. On a busy machine a helper only competes with the others, so callers start one
    only when this is at least 1."""
    cores = os.cpu_count() or 1
    try:
        busy = os.getloadavg()[0]
    except (OSError, AttributeError):  # no load average on this platform
        busy = 0.0
    return max(0, min(4, round(cores - 1 - busy)))
