"""Corrections: a record that was wrong is put right by another event, never by an edit.

A record is append-only (its hash chain proves it), yet a scorekeeper mistypes: the wrong
card, the wrong seat. A correction is an event like any other, in every game:

``{"seq": 57, "type": "correct", "actor": null, "corrects": 41, "reason": "it was the 9C",
"event": {"type": "lay", "actor": 1, "cards": ["9C"]}}``

``event`` is the event as it should have been (its seq is the corrected one's), or
``null`` to strike the event altogether (an entry that never happened: the recorder's
"undo"). Replay honours corrections: the game is folded as if the corrected event had been
recorded right in the first place (:func:`effective_events`), so every later event is
checked again against the corrected past, and the correction itself stands at its own seq
as a marker with an effect naming what it changed. Positions keep their seqs: a struck
event's seq becomes a position where nothing happened.

Rules every ruleset shares (merged into each ruleset's rulebook, ids ``REC-*``):
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.record import Event
from engine.rules import Effect, Rule, RuleViolation

CORE_RULES: tuple[Rule, ...] = (
    Rule("REC-FIX-1", "A correction replaces an earlier event of the same record, or strikes it; "
         "replay folds the game as corrected and checks every later event again.",
         "docs/record-format.md#corrections"),
    Rule("REC-FIX-2", "A correction names an earlier event that is not itself a correction, "
         "and gives a reason.", "docs/record-format.md#corrections"),
    Rule("REC-UNK-1", "Only a game recorded at the table (source \"recorded\") may leave a card "
         "unknown; a simulated or imported record names every card.",
         "docs/record-format.md#unknowns"),
    Rule("REC-UNK-2", "A card a record names where the card is already known must be that card, "
         "and each card of the game comes to light at most once.", "docs/record-format.md#unknowns"),
    Rule("REC-UNK-3", "A card turned face up for the whole table is named by the record.",
         "docs/record-format.md#unknowns"),
)


class Correction(Event, tag="correct", frozen=True):
    """A correction of an earlier event of this record (REC-FIX-1)."""

    corrects: int
    """The seq of the event it corrects."""
    reason: str
    """Why, in the recorder's words."""
    event: dict[str, Any] | None = None
    """The event as it should have been (``type``, ``actor`` and its fields), or null to strike it."""


class Struck(Event, tag="struck", frozen=True):
    """Where a struck event stood: nothing happened at this seq (never written in a record)."""

    by: int
    """The seq of the correction that struck it."""


def effective_events(events: Sequence[Event], decode: Any) -> tuple[Sequence[Event], RuleViolation | None]:
    """The events with every correction applied in place (see the module docstring).

    ``decode`` turns a corrected event's fields (a dict with ``seq`` added) into the
    ruleset's typed event. A malformed correction ends the effective record just before
    it and is returned as the violation at its seq (REC-FIX-2), so a replay still reports
    an earlier illegal event first.
    """
    if Correction not in set(map(type, events)):  # the common case, checked at C speed
        return events, None
    out = list(events)
    for i, event in enumerate(events):
        if type(event) is not Correction:
            continue
        target = event.corrects
        problem: str | None = None
        replacement: Event | None = None
        if not (type(target) is int and 1 <= target < event.seq) or type(events[target - 1]) is Correction:
            problem = f"a correction names an earlier event that is not a correction, not {target!r}"
        elif not event.reason.strip():
            problem = "a correction says why"
        elif event.event is None:
            replacement = Struck(seq=target, actor=None, by=event.seq)
        else:
            fields = {k: v for k, v in event.event.items() if k not in ("seq", "hash")}
            try:
                replacement = decode({**fields, "seq": target})
            except (msgspec.ValidationError, TypeError) as err:
                problem = f"the corrected event does not read as an event of this game: {err}"
            else:
                if type(replacement) is Correction:
                    problem = "a correction cannot put a correction in the place of an event"
        if problem is not None or replacement is None:
            exc = RuleViolation("REC-FIX-2", problem or "a correction names no event", corrects=target)
            exc.seq = event.seq
            return out[:i], exc
        out[target - 1] = replacement
    return out, None


def correction_marker(state: Any, event: Correction) -> tuple[Effect, ...]:
    """The correction at its own seq: nothing changes but the record of it (REC-FIX-1)."""
    what = "struck" if event.event is None else "replaced"
    return (Effect("REC-FIX-1", "corrected", {"corrects": event.corrects, "how": what,
                                               "reason": event.reason}),)


def struck_marker(state: Any, event: Struck) -> tuple[Effect, ...]:
    """A struck event's seq: nothing happened here (REC-FIX-1)."""
    return (Effect("REC-FIX-1", "struck", {"by": event.by}),)
