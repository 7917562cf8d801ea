"""A game as the table, or one seat, saw it: the record a scorekeeper could have written.

``redact_game`` folds the full game and asks the ruleset, event by event, what the
perspective saw of it (``Ruleset.redact``): cards it never saw become ``"?"``, the shuffled
order of a deck is unknown, a secret role stays secret. The result is a record with
``source: "recorded"`` that checks as a game played at the table does.

Only a game that declares redaction (``Capabilities.redacts``) is redacted: any other is
refused, so no game hands out its whole record under the name of a redacted one.

Corrections are applied first: the redacted record is the corrected game, its events
numbered afresh, with no corrections left in it (a struck event is simply not there).

An illegal game keeps its illegal event, redacted, and ends there, so the copy is judged
illegal at the same seq by the same rule. Where what the perspective saw no longer shows
it illegal (a card played from a hand it never saw is only undetermined to it), the game
is refused rather than written shorter or cleaner than it was; a legal game whose copy
would read illegal is refused too.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.capabilities import Perspective
from engine.corrections import Correction, Struck
from engine.record import Event, Header
from engine.rules import RuleViolation, WarrenError
from engine.ruleset import Ruleset
from engine.wording import seat_label


def redact_game(ruleset: Ruleset[Any, Any], header: Header, events: list[Event],
                perspective: Perspective = "spectator") -> tuple[Header, list[Event]]:
    """The header and events of the game as ``perspective`` saw it (see the module docstring).

    ``perspective`` is a seat or ``"spectator"`` (the table: public information only).
    Raises :class:`WarrenError` for a game that does not declare redaction, and for an
    illegal game whose redacted copy would not be judged illegal where it was.
    """
    header_out, out, _ = redact_mapped(ruleset, header, events, perspective)
    return header_out, out


def redact_mapped(ruleset: Ruleset[Any, Any], header: Header, events: list[Event],
                  perspective: Perspective = "spectator") -> tuple[Header, list[Event], list[int]]:
    """:func:`redact_game`, and for each redacted event the index of the effective event of
    the full record it comes from: a table form may write several events for one of the
    full record (Killer Bunnies Quest's draws follow the event that drew them,
    :meth:`Ruleset.redact_chance`)."""
    if not ruleset.capabilities.redacts:
        raise WarrenError(f"warren cannot write a {ruleset.title} record as one seat saw it: "
                          f"the {ruleset.slug} ruleset does not declare redaction, and a copy "
                          "that kept every hidden card would not be a redacted record")
    if perspective == "referee":
        raise WarrenError("a redacted record is what a seat or the table saw; the referee saw everything")
    if isinstance(perspective, int) and not 0 <= perspective < len(header.players):
        raise WarrenError(f"seat {perspective} is not at this table (0..{len(header.players) - 1})")
    effective, bad_correction = ruleset.effective(events)
    state = ruleset.setup(header)
    out: list[Event] = []
    origin: list[int] = []
    illegal: RuleViolation | None = None
    hooked = type(ruleset).redact_chance is not Ruleset.redact_chance
    for index, event in enumerate(effective):
        if type(event) in (Correction, Struck):
            continue
        seen = ruleset.redact(event, perspective, state)
        before = ruleset.copy_state(state) if hooked else state
        effects: tuple[Any, ...] = ()
        try:
            effects = ruleset.apply(state, event)
        except RuleViolation as exc:
            illegal = exc
        first, then = ruleset.redact_chance(event, effects, perspective, before, state) \
            if hooked else ([], [])
        for written in [*first, seen, *([] if illegal is not None else then)]:
            out.append(msgspec.structs.replace(written, seq=len(out) + 1, hash=None, claims=None))
            origin.append(index)
        if illegal is not None:
            break
    else:
        if bad_correction is not None:
            raise WarrenError(f"{header.game_id} has a malformed correction at seq {bad_correction.seq} "
                              f"({bad_correction.rule}: {bad_correction.message}); correct the record "
                              "before redacting it")
    recorded = msgspec.structs.replace(header, source="recorded", hash=None)
    if illegal is not None:
        _same_verdict(ruleset, recorded, out, illegal)
    else:
        _still_legal(ruleset, recorded, out, perspective)
    return recorded, out, origin


def _still_legal(ruleset: Ruleset[Any, Any], header: Header, events: list[Event],
                 perspective: Perspective) -> None:
    """Refuse the redacted copy of a legal game that would read illegal: a copy that
    judges the game otherwise than the full record does is not the game as it was seen."""
    from engine.reader import check_events

    found = check_events(ruleset, header, events)
    if found is None:
        return
    names = [p.name for p in header.players]
    who = "the table" if perspective == "spectator" else seat_label(int(perspective), names)
    raise WarrenError(f"{header.game_id} is legal, but the game as {who} saw it would read illegal at its "
                      f"event {found.seq} ({found.rule}: {ruleset.say(found.message, names)}): warren does "
                      "not write a redacted copy that judges the game otherwise than the full record does")


def _same_verdict(ruleset: Ruleset[Any, Any], header: Header, events: list[Event],
                  illegal: RuleViolation) -> None:
    """Refuse a redacted illegal game unless its last event is illegal by the same rule."""
    from engine.reader import check_events

    found = check_events(ruleset, header, events)
    if found is not None and found.seq == len(events) and found.rule == illegal.rule:
        return
    said = "legal" if found is None else f"illegal at event {found.seq} by {found.rule}"
    raise WarrenError(f"{header.game_id} breaks {illegal.rule} at its event {len(events)}, but the game as "
                      f"this perspective saw it would read {said}: warren does not write a redacted copy "
                      "that judges the game otherwise than the full record does")
