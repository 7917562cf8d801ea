"""What a scorekeeper types, read the same way by ``warren record`` and the Record page.

An entry is the ruleset's short notation (engine.dispute.notation), with two additions of
the recorder's own:

* a seat prefix, ``2: guard 3 4`` or ``Ann: ready``, says who acts when several seats may
  (a number is the seat, a word a player's name, case ignored);
* while chance is owed, the entry is typed over the table's template
  (:meth:`logstore.recording.session.TableSession.chance_template`): ``roles first_mayor=2``
  gives what the table saw and keeps the rest as the table did not see it; an empty entry
  accepts a template the table saw nothing of.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from engine.dispute.notation import read_action
from engine.record import Event, event_to_dict
from engine.rules import WarrenError

if TYPE_CHECKING:
    from logstore.recording.session import ChanceTemplate, TableSession

_SEAT_PREFIX = re.compile(r"^\s*([^:\s][^:]*?)\s*:\s+(.*)$")


def player_names(given: str | Sequence[str]) -> list[str]:
    """Players in seat order, from a comma-separated line or a list: blanks dropped, each
    name once (a seat prefix names a player, so two players of one name could not be told
    apart)."""
    raw = given.split(",") if isinstance(given, str) else list(given)
    names = [n.strip() for n in raw if n.strip()]
    if not names:
        raise WarrenError("name the players, comma-separated, in seat order")
    seen: dict[str, str] = {}
    for name in names:
        if name.lower() in seen:
            raise WarrenError(f"two players are called {name!r}: give each player a name of their own")
        seen[name.lower()] = name
    return names


def seat_of(names: Sequence[str], line: str) -> tuple[str, int | None]:
    """``2: guard 3`` or ``Ann: ready``: the action, and the seat that acts (None when the
    line names no seat: the rules then take the one seat to act, or the table)."""
    match = _SEAT_PREFIX.match(line)
    if match is None or "=" in match.group(1):
        return line, None
    who = match.group(1)
    if who.isdigit():
        return match.group(2), int(who)
    lowered = [n.lower() for n in names]
    if who.lower() in lowered:
        return match.group(2), lowered.index(who.lower())
    return line, None


def _over_template(session: TableSession, template: Event, seen: dict[str, Any]) -> Event:
    body = {**event_to_dict(template), **seen, "seq": session.seq + 1}
    body.pop("hash", None)
    event: Event = msgspec.convert(body, session.ruleset.event_union, strict=False)
    return event


def fill_template(session: TableSession, template: Event, seen: dict[str, Any]) -> Event:
    """The owed chance event: ``template`` (as the table saw it) with the fields the table
    saw, ``seen``, put in. Values are converted as the record would write them (``"2"``
    for seat 2); a value that cannot be one is a :class:`WarrenError` naming it."""
    try:
        return _over_template(session, template, seen)
    except msgspec.ValidationError as exc:
        given = " ".join(f"{k}={v}" for k, v in seen.items())
        raise WarrenError(f"cannot read {event_to_dict(template)['type']} {given}: {exc}") from None


def merge_template(session: TableSession, template: Event, line: str) -> Event:
    """What the scorekeeper typed for owed chance, over the table's template: the typed
    fields replace the template's (``roles first_mayor=2``)."""
    proposed = read_action(session.ruleset, line)
    tag = event_to_dict(template)["type"]
    if proposed.tag != tag:
        raise WarrenError(f"the table owes a {tag} now, not a {proposed.tag}")
    # Cards typed by name read as the record writes them (the card drawn: ``draw card=Sword``).
    fields = {k: session.ruleset.read_value(tag, k, v) for k, v in proposed.fields.items()}
    try:
        return _over_template(session, template, fields)
    except msgspec.ValidationError as exc:
        raise WarrenError(f"cannot read {line!r}: {exc}") from None


def seen_fields(template: ChanceTemplate) -> list[str]:
    """The fields of owed chance the table saw and must give (the record's own ``seq`` and
    ``hash`` left out)."""
    return [name for name in template.fields if name not in ("seq", "hash")]


def read_entry(session: TableSession, line: str, template: ChanceTemplate | None = None) -> Event:
    """The event a typed entry stands for at the session's position (module docstring).

    ``template`` is the chance owed now, if the caller has it already. Raises a
    :class:`WarrenError` (an :class:`engine.dispute.ActionError` for bad notation) when the
    entry does not read; whether the rules allow it is :meth:`TableSession.judge`'s to say.
    """
    line = line.strip()
    if template is None:
        template = session.chance_template()
    if template is not None:
        if line:
            return merge_template(session, template.event, line)
        if not template.complete:
            raise WarrenError(f"the table saw part of this {event_to_dict(template.event)['type']}: "
                              f"give {', '.join(seen_fields(template))}")
        return template.event
    if not line:
        raise WarrenError("type an action, e.g. one the rules allow now")
    text, seat = seat_of(session.names, line)
    return session.read(text, seat)
