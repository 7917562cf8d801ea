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

from engine.dispute.notation import ActionError, event_fields, plainly, read_action
from engine.record import Event, event_to_dict
from engine.rules import WarrenError
from logstore.recording.shorthand import Entries, action_named

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
        tag = event_to_dict(template)["type"]
        raise WarrenError(f"cannot read {tag} {given}: {plainly(exc, tag)}") from None


def merge_template(session: TableSession, template: Event, line: str) -> Event:
    """What the scorekeeper typed for owed chance, over the table's template: the typed
    fields replace the template's (``roles first_mayor=2``)."""
    tag = event_to_dict(template)["type"]
    first = line.split(maxsplit=1)[0].lower().replace("-", "_")
    if first != tag and "=" not in line and not line.startswith("{"):
        # A bare value for the one thing the table saw (``Violet Perky Bunny`` for the card
        # a draw showed): the field it fills is the one the template asks for.
        field = _the_field(session, template)
        if field is None:
            raise WarrenError(f"the table owes the {tag} now, not {line!r}: Enter records it as nobody "
                              f"saw it, or type `{tag} FIELD=VALUE` for what the table saw")
        listed = any(f.name == field and f.kind == "list" for f in event_fields(type(template)))
        if session.ruleset.is_card_field(field):  # cards by name hold spaces: a comma between
            values = [v.strip() for v in line.split(",") if v.strip()]
        else:
            values = line.replace(",", " ").split()  # the dice of a roll one after another: ``8 5 2``
        owed = getattr(template, field, None)
        if listed and len(values) == 1 and values[0].isdigit() and isinstance(owed, list) \
                and len(owed) == len(values[0]) > 1:
            values = list(values[0])  # five dice jotted as ``85262``: one digit a die
        line = f"{tag} {field}=" + (",".join(values) if listed else line)
    proposed = read_action(session.ruleset, line)
    if proposed.tag != tag:
        raise WarrenError(f"the table owes a {tag} now, not a {proposed.tag}")
    # Cards typed by name read as the record writes them (the card drawn: ``draw card=Sword``);
    # a player typed by name where the record writes a seat (``setup first=Bo``) is that seat.
    fields = {k: _seat_named(session, template, k, session.ruleset.read_value(tag, k, v))
              for k, v in proposed.fields.items()}
    try:
        return _over_template(session, template, fields)
    except msgspec.ValidationError as exc:
        raise WarrenError(f"cannot read {line!r}: {plainly(exc, tag)}") from None


def _seat_named(session: TableSession, template: Event, field: str, value: Any) -> Any:
    """``value`` as the seat of the player it names, where the template holds a seat number
    in ``field`` and ``value`` is one of the players' names (case ignored)."""
    if not isinstance(value, str) or isinstance(getattr(template, field, None), bool) \
            or not isinstance(getattr(template, field, None), int) or session.ruleset.is_card_field(field):
        return value
    lowered = [n.lower() for n in session.names]
    return lowered.index(value.strip().lower()) if value.strip().lower() in lowered else value


def _the_field(session: TableSession, template: Event) -> str | None:
    """The one field a bare value typed for owed chance fills: the card of a draw the table
    saw, the die of a roll (None when the event has several)."""
    names = [f.name for f in event_fields(type(template)) if f.name not in ("seq", "hash", "actor")]
    cards = [n for n in names if session.ruleset.is_card_field(n)]
    if len(cards) == 1:
        return cards[0]
    return names[0] if len(names) == 1 else None


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
            return session.settle_copies(merge_template(session, template.event, line))
        if not template.complete:
            raise WarrenError(f"the table saw part of this {event_to_dict(template.event)['type']}: "
                              f"give {', '.join(seen_fields(template))}")
        return template.event
    if not line:
        raise WarrenError("type an action, e.g. one the rules allow now")
    text, seat = seat_of(session.names, line)
    try:
        return session.settle_copies(session.read(text, seat))
    except ActionError as exc:
        # Not the full notation: the start of one of the actions allowed now (``p``, ``9chs``,
        # ``vio``: logstore.recording.shorthand), else the notation's own error.
        offers = [o for o in session.offers() if seat is None or o.seat == seat]
        offer = Entries(session, offers).pick(text)
        if offer is not None:
            return msgspec.structs.replace(offer.event, seq=session.seq + 1, hash=None)
        named = action_named(session, offers, text)
        if named is None:
            raise
        try:
            return session.settle_copies(session.read(named, seat))
        except ActionError:
            raise exc from None
