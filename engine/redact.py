"""A game as the table, or one seat, saw it: the record a scorekeeper could have written.

``redact_game`` folds the full game and asks the ruleset, event by event, what the
perspective saw of it (``Ruleset.redact``): cards it never saw become ``"?"``, the shuffled
order of a deck is unknown, a secret role stays secret. The result is a record with
``source: "recorded"`` that checks as a game played at the table does.

Corrections are applied first: the redacted record is the corrected game, its events
numbered afresh, with no corrections left in it (a struck event is simply not there).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.capabilities import Perspective
from engine.corrections import Correction, Struck
from engine.record import Event, Header
from engine.rules import WarrenError
from engine.ruleset import Ruleset


def redact_game(ruleset: Ruleset[Any, Any], header: Header, events: list[Event],
                perspective: Perspective = "spectator") -> tuple[Header, list[Event]]:
    """The header and events of the game as ``perspective`` saw it (see the module docstring).

    ``perspective`` is a seat or ``"spectator"`` (the table: public information only).
    Stops at the first illegal event: what follows it never happened in a legal game.
    """
    if perspective == "referee":
        raise WarrenError("a redacted record is what a seat or the table saw; the referee saw everything")
    if isinstance(perspective, int) and not 0 <= perspective < len(header.players):
        raise WarrenError(f"seat {perspective} is not at this table (0..{len(header.players) - 1})")
    effective, _ = ruleset.effective(events)
    state = ruleset.setup(header)
    out: list[Event] = []
    for event in effective:
        if type(event) in (Correction, Struck):
            continue
        seen = ruleset.redact(event, perspective, state)
        try:
            ruleset.apply(state, event)
        except WarrenError:
            break
        out.append(msgspec.structs.replace(seen, seq=len(out) + 1, hash=None, claims=None))
    recorded = msgspec.structs.replace(header, source="recorded", hash=None)
    return recorded, out
