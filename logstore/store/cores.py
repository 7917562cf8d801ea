"""How many cores warren's work on one machine may use.

A check or an import of a folder of many records starts helper processes, one fewer than
the cores this process may run on: its affinity mask (``os.sched_getaffinity``, which a
container's or a ``taskset``'s limit narrows), or ``os.cpu_count()`` where the platform has
no mask. It used to start a helper only when the one-minute load average said a core was
idle, but that average still counts the user's previous command: on a quiet 2-core machine
the check ran on one core. Under load the operating system shares the cores between the
processes; the output order and the exit codes never depend on how many there are.
"""

from __future__ import annotations

import os

MAX_HELPERS = 4
"""Helper processes at most, however many cores (past that, writing the answers in order
is the bottleneck, not judging them)."""


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity mask on this platform
        return max(1, os.cpu_count() or 1)


def helper_count() -> int:
    """Helper processes to start beside this one for work on many records."""
    return max(0, min(MAX_HELPERS, usable_cores() - 1))
