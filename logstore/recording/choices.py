"""The actions the rules allow now, as pickers: what the Record page offers to click.

:meth:`TableSession.offers` lists every action the rules allow now, whole (``lay 9C 9D``,
``vote true``). A scorekeeper picks faster field by field: the seat, the kind of action,
then each field from the values the offers give it (the cards that may be laid, the seats
that may be named, yes or no). :func:`action_choices` groups the offers so; a field only
JSON can write (a Trust No Bunny stage) is typed. :func:`build_action` turns the values
picked back into the event: the offer that has them, or, when no offer has that
combination, the event as picked, for the rules to judge (and refuse with their rule).

Owed chance the table saw part of (Trust No Bunny's first mayor, a die) is given the same
way: :func:`template_fields` says what to ask for each field the table saw.
"""

from __future__ import annotations

import json
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

from engine.dispute.notation import event_fields, event_tag, positional_fields
from engine.record import Event, event_to_dict
from engine.rules import WarrenError
from engine.ruleset import Ruleset

if TYPE_CHECKING:
    from logstore.recording.session import ChanceTemplate, Offer, TableSession

PickKind = Literal["one", "several", "typed"]


@dataclass(frozen=True, slots=True)
class FieldChoice:
    """One field of an action, as a picker asks for it."""

    name: str
    kind: PickKind
    """``one`` value of ``values``, ``several`` of them (a list field: the cards laid, a
    team), or ``typed`` (JSON or a notation value; blank leaves an optional field out)."""
    values: tuple[Any, ...] = ()
    """What may be picked, in the order the offers list it (empty for ``typed``)."""
    required: bool = True

    @property
    def fixed(self) -> bool:
        """Every offer gives the field the same single value: nothing to pick."""
        return self.kind == "one" and len(self.values) == 1


@dataclass(frozen=True, slots=True)
class ActionChoice:
    """One kind of action of one seat, with the offers it comes from."""

    seat: int | None
    tag: str
    offers: tuple[Offer, ...]
    fields: tuple[FieldChoice, ...]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _distinct(values: Sequence[Any]) -> tuple[Any, ...]:
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(_key(value), value)
    return tuple(seen.values())


def _field_order(ruleset: Ruleset[Any, Any], tag: str) -> list[str]:
    """The fields of an action in the order its notation writes them."""
    names = [spec.name for spec in event_fields(ruleset.events_by_type[tag])]
    positional = list(positional_fields(ruleset, tag))
    return positional + [n for n in names if n not in positional]


def _fields_of(ruleset: Ruleset[Any, Any], tag: str, offers: Sequence[Offer]) -> tuple[FieldChoice, ...]:
    specs = {spec.name: spec for spec in event_fields(ruleset.events_by_type[tag])}
    out = []
    records = [event_to_dict(o.event) for o in offers]
    for name in _field_order(ruleset, tag):
        spec = specs[name]
        given = [r.get(name) for r in records]
        if spec.kind == "complex" or (not spec.required and all(g is None for g in given)):
            # Only JSON can write it, or the offers leave it out (a card nobody saw):
            # typed where the table knows it, left blank where it does not.
            out.append(FieldChoice(name, "typed", required=spec.required))
        elif spec.kind == "list":
            out.append(FieldChoice(name, "several", _distinct([v for g in given if g for v in g]),
                                   spec.required))
        else:
            out.append(FieldChoice(name, "one", _distinct(given), spec.required))
    return tuple(out)


def action_choices(ruleset: Ruleset[Any, Any], offers: Sequence[Offer]) -> list[ActionChoice]:
    """The offers grouped by seat and kind of action, in the order they are offered."""
    groups: dict[tuple[int | None, str], list[Offer]] = {}
    for offer in offers:
        groups.setdefault((offer.seat, event_tag(type(offer.event))), []).append(offer)
    return [ActionChoice(seat, tag, tuple(group), _fields_of(ruleset, tag, group))
            for (seat, tag), group in groups.items()]


def seats_of(choices: Sequence[ActionChoice]) -> list[int | None]:
    """The seats the choices are for, in order, each once."""
    return list(dict.fromkeys(c.seat for c in choices))


def typed_value(text: str) -> Any:
    """A typed field as the notation reads a value: JSON when it looks like JSON
    (``{"unblocked": 1}``, ``[1, 2]``), else the word itself (``9C``, ``?``, ``3``: the
    record's type converts it)."""
    text = text.strip()
    if text[:1] in "[{\"":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise WarrenError(f"cannot read {text!r}: not valid JSON ({exc.msg} at column "
                              f"{exc.colno})") from None
    return text


def picked_fields(choice: ActionChoice, picked: dict[str, Any]) -> dict[str, Any]:
    """The fields of the action as picked: fixed fields filled in, several values put in
    the order the offers list them, blank typed fields left out; a required field nothing
    was picked for is a :class:`WarrenError` naming it."""
    fields: dict[str, Any] = {}
    for spec in choice.fields:
        value = spec.values[0] if spec.fixed else picked.get(spec.name)
        if spec.kind == "typed":
            if isinstance(value, str):
                value = typed_value(value) if value.strip() else None
        elif spec.kind == "several":
            order = {_key(v): i for i, v in enumerate(spec.values)}
            value = sorted(value or [], key=lambda v: order.get(_key(v), len(order))) or None
        if value is None:
            if spec.required and not (spec.kind == "one" and None in spec.values):
                raise WarrenError(f"nothing picked yet: {spec.name.replace('_', ' ')}")
            continue
        fields[spec.name] = value
    return fields


def _same(spec: FieldChoice, value: Any) -> str:
    """A value as compared with an offer's: the values of a list in any order."""
    if spec.kind == "several" and isinstance(value, list):
        return _key(sorted(_key(v) for v in value))
    return _key(value)


def build_action(session: TableSession, choice: ActionChoice, picked: dict[str, Any]) -> Event:
    """The event the picked values stand for: the offer that has exactly them, else the
    event as picked (not one the rules offer: :meth:`TableSession.judge` will say why)."""
    fields = picked_fields(choice, picked)
    wanted = {spec.name: _same(spec, fields.get(spec.name)) for spec in choice.fields}
    for offer in choice.offers:
        record = event_to_dict(offer.event)
        if all(_same(spec, record.get(spec.name)) == wanted[spec.name] for spec in choice.fields):
            return offer.event
    return session.read({"type": choice.tag, **fields}, choice.seat)


# -- owed chance the table saw part of ------------------------------------------------------------
def _options(tp: Any) -> tuple[Any, ...] | None:
    """The values a field of type ``tp`` can take, where they are few and known."""
    origin = get_origin(tp)
    if origin is Literal:
        return get_args(tp)
    if tp is bool:
        return (True, False)
    if origin in (Union, types.UnionType):
        found: list[Any] = []
        for arg in get_args(tp):
            if arg is type(None):
                found.append(None)
                continue
            some = _options(arg)
            if some is None:
                return None
            found.extend(some)
        return tuple(found)
    return None


def template_fields(ruleset: Ruleset[Any, Any], template: ChanceTemplate, n_seats: int) -> list[FieldChoice]:
    """What to ask for each field of owed chance the table saw: a seat (the first mayor),
    seats, a value of a few (a die's faces, yes or no), or a typed value."""
    from logstore.recording.entries import seen_fields

    specs = {spec.name: spec for spec in event_fields(type(template.event))}
    vocab = ruleset.vocabulary
    out = []
    for name in seen_fields(template):
        spec = specs.get(name)
        if spec is None:
            continue
        few = _options(spec.type)
        if spec.kind == "scalar" and vocab.names_seat(name):
            out.append(FieldChoice(name, "one", tuple(range(n_seats)), spec.required))
        elif spec.kind == "scalar" and few is not None and None not in few:
            out.append(FieldChoice(name, "one", few, spec.required))
        elif spec.kind == "list" and vocab.names_seats(name):
            out.append(FieldChoice(name, "several", tuple(range(n_seats)), spec.required))
        else:
            out.append(FieldChoice(name, "typed", required=spec.required))
    return out


def template_values(fields: Sequence[FieldChoice], picked: dict[str, Any]) -> dict[str, Any]:
    """The fields of owed chance as given (typed ones read as :func:`typed_value`); a
    field not given is a :class:`WarrenError` naming it."""
    out: dict[str, Any] = {}
    for spec in fields:
        value = spec.values[0] if spec.fixed else picked.get(spec.name)
        if spec.kind == "typed" and isinstance(value, str):
            value = typed_value(value) if value.strip() else None
        if value is None or (spec.kind == "several" and not value and spec.required):
            raise WarrenError(f"give the {spec.name.replace('_', ' ')}: the table saw it")
        out[spec.name] = value
    return out
