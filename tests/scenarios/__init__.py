"""Games written by hand, one module per ruleset (the fixture scripts and the tests use
them): a chosen deal and actions in a short notation."""

from __future__ import annotations

from typing import Any

from engine.reader import check_events, read_record
from engine.ruleset import Ruleset


def miss(ruleset: Ruleset[Any, Any], data: bytes, name: str, rule: str | None) -> str | None:
    """How a hand-made record fails to show what it is made to show, or None: with ``rule``
    None it must be legal throughout; otherwise its last event must break ``rule`` (and
    nothing before it). The fixture scripts refuse to write a record that misses."""
    record = read_record(data, name)
    found = check_events(ruleset, record.header, record.events)
    if rule is None:
        return None if found is None else f"{name}: seq {found.seq} breaks {found.rule}: {found.message}"
    if found is not None and found.rule == rule and found.seq == len(record.events):
        return None
    got = "nothing" if found is None else f"{found.rule} at seq {found.seq}"
    return f"{name}: expected {rule} at seq {len(record.events)}, got {got}"
