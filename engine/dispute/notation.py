"""Proposed actions: read from JSON or the short notation, and written back as notation."""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
import types
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Union, get_args, get_origin

import msgspec

from engine.record import Event, event_to_dict
from engine.rules import RuleViolation, WarrenError
from engine.ruleset import GameState, Ruleset

COMMON_FIELDS = ("seq", "actor", "claims", "hash")
"""Fields every event has; the notation's positional values never fill them."""


class ActionError(WarrenError):
    """A proposed action that cannot be read: bad JSON or notation, an unknown type or field,
    a wrong value, or a seat that is not in the game."""


FieldKind = Literal["scalar", "list", "complex"]


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of an event type, as the notation sees it."""

    name: str
    type: Any
    required: bool
    kind: FieldKind
    """``scalar`` (one token), ``list`` (tokens, or one comma-separated token) or ``complex``
    (JSON only, e.g. a deal's hands)."""


def _kind(tp: Any) -> FieldKind:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        kinds = {_kind(a) for a in get_args(tp) if a is not type(None)}
        return kinds.pop() if len(kinds) == 1 else "complex"
    if origin is Literal or tp in (str, int, bool, float):
        return "scalar"
    if origin in (list, tuple, set, frozenset):
        args = [a for a in get_args(tp) if a is not Ellipsis]
        return "list" if args and all(_kind(a) == "scalar" for a in args) else "complex"
    return "complex"


def event_tag(event_type: type[Event]) -> str:
    return str(event_type.__struct_config__.tag)


@lru_cache(maxsize=256)
def event_fields(event_type: type[Event]) -> tuple[FieldSpec, ...]:
    """The fields a proposed action of this type fills (the common ones left out)."""
    return tuple(
        FieldSpec(f.name, f.type, f.required, _kind(f.type))
        for f in msgspec.structs.fields(event_type)
        if f.name not in COMMON_FIELDS
    )


def positional_fields(ruleset: Ruleset[Any, Any], tag: str) -> tuple[str, ...]:
    """Fields that bare values fill, in order.

    A ruleset may declare them as data, ``Capabilities(action_notation={"guard": ("defend",)})``;
    otherwise they are the event's required fields, then its optional ones, leaving out
    fields only JSON can express; a type with a required field that needs JSON (a deal)
    has no positional fields at all.
    """
    declared = ruleset.capabilities.action_notation
    if tag in declared:
        return tuple(declared[tag])
    specs = event_fields(ruleset.events_by_type[tag])
    if any(s.required and s.kind == "complex" for s in specs):
        return ()  # a type that needs JSON anyway (a deal) is written with named fields only
    ordered = [s for s in specs if s.required] + [s for s in specs if not s.required]
    return tuple(s.name for s in ordered if s.kind != "complex")


def action_usage(ruleset: Ruleset[Any, Any]) -> list[str]:
    """One notation line per event type, e.g. ``lay CARDS...``, ``flip SLOT``."""
    out = []
    for tag, event_type in ruleset.events_by_type.items():
        specs = {s.name: s for s in event_fields(event_type)}
        positional = positional_fields(ruleset, tag)
        parts = [tag]
        for i, name in enumerate(positional):
            spec = specs[name]
            word = name.upper()
            if spec.kind == "list":
                word += "..." if i == len(positional) - 1 else ",..."
            parts.append(word if spec.required else f"[{word}]")
        # JSON only where a field needs it (a deal's hands); a word or a list of words otherwise
        parts += [f"{name}=JSON" if spec.kind == "complex" else
                  f"{name}={name.upper()}" + (",..." if spec.kind == "list" else "")
                  for name, spec in specs.items() if name not in positional]
        out.append(" ".join(parts))
    return out


@dataclass(slots=True)
class ProposedAction:
    """A proposed action as read, before it gets its seq and actor."""

    tag: str
    fields: dict[str, Any]
    names_actor: bool
    """True when the text itself names the actor (``actor=1`` or a JSON ``actor``)."""
    actor: int | None
    text: str


def _known_types(ruleset: Ruleset[Any, Any]) -> str:
    return ", ".join(ruleset.events_by_type)


def _event_type(ruleset: Ruleset[Any, Any], tag: object, text: str) -> type[Event]:
    if not isinstance(tag, str) or tag not in ruleset.events_by_type:
        raise ActionError(
            f"cannot read action {_quoted(text)}: {tag!r} is not an action of {ruleset.slug} "
            f"(known: {_known_types(ruleset)})"
        )
    return ruleset.events_by_type[tag]


def _actor_value(value: Any, text: str) -> int | None:
    if value is None or (isinstance(value, str) and value.lower() in ("null", "none", "table", "-")):
        return None
    if isinstance(value, bool):
        raise ActionError(f"cannot read action {_quoted(text)}: the actor is a seat number or null")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ActionError(f"cannot read action {_quoted(text)}: the actor is a seat number or null, "
                          f"not {value!r}") from None


_YES = {"yes": True, "y": True, "no": False, "n": False}


def _token_value(token: str, spec: FieldSpec | None) -> Any:
    """A notation value: JSON when it looks like JSON, a list when the field is a list."""
    if token[:1] in "[{\"":
        try:
            return json.loads(token)
        except json.JSONDecodeError:
            pass
    if spec is None:
        return token
    if spec.kind == "list":
        element = next(iter(get_args(spec.type)), Any)
        return [_word(t, element) for t in token.split(",") if t != ""]
    return _word(token, spec.type)


def _word(token: str, tp: Any) -> Any:
    """One bare word for a scalar of type ``tp``: ``null`` for None where None is allowed,
    yes/no for booleans; anything else is converted by msgspec (``"3"`` to 3)."""
    options = get_args(tp) if get_origin(tp) in (Union, types.UnionType) else (tp,)
    if token == "null" and type(None) in options:
        return None
    if bool in options and token.lower() in _YES:
        return _YES[token.lower()]
    return token


def _read_json(ruleset: Ruleset[Any, Any], text: str) -> ProposedAction:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ActionError(f"cannot read action {_quoted(text)}: not valid JSON ({exc.msg} at "
                          f"column {exc.colno})") from None
    return read_action_dict(ruleset, obj, text)


def read_action_dict(ruleset: Ruleset[Any, Any], obj: Any, text: str | None = None) -> ProposedAction:
    """A proposed action given as a record-style dict (``seq`` and ``hash`` are ignored)."""
    shown = text if text is not None else json.dumps(obj, ensure_ascii=False)
    if not isinstance(obj, dict):
        raise ActionError(f"cannot read action {shown!r}: a JSON action is an object with a 'type'")
    tag = obj.get("type")
    _event_type(ruleset, tag, shown)
    fields = {k: v for k, v in obj.items() if k not in ("type", "seq", "hash", "actor")}
    names_actor = "actor" in obj
    actor = _actor_value(obj["actor"], shown) if names_actor else None
    return ProposedAction(tag, fields, names_actor, actor, shown)  # type: ignore[arg-type]  # read as JSON


_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
"""An apostrophe inside a word (Kaballa's Market) is a letter, not the start of a quote."""


def _read_notation(ruleset: Ruleset[Any, Any], text: str) -> ProposedAction:
    try:
        words = shlex.split(_APOSTROPHE.sub("\\\\'", text))
    except ValueError as exc:
        raise ActionError(f"cannot read action {_quoted(text)}: {exc}") from None
    if not words:
        raise ActionError("cannot read an empty action: give e.g. "
                          f"{action_usage(ruleset)[0]!r} or a JSON event")
    tag = words[0].lower().replace("-", "_")
    event_type = _event_type(ruleset, tag, text)
    specs = {s.name: s for s in event_fields(event_type)}
    positional = list(positional_fields(ruleset, tag))
    fields: dict[str, Any] = {}
    names_actor = False
    actor: int | None = None
    bare: list[str] = []
    for word in _join_named_cards(ruleset, tag, words[1:]):
        key, eq, value = word.partition("=")
        if eq and key.isidentifier():
            if key in ("actor", "seat") and key not in specs:
                names_actor, actor = True, _actor_value(value, text)
            elif key == "claims":
                fields["claims"] = _token_value(value, None)
            elif key not in specs:
                known = ", ".join(specs) or "none"
                raise ActionError(f"cannot read action {_quoted(text)}: {tag} has no field {key!r} "
                                  f"(fields: {known})")
            else:
                fields[key] = _token_value(value, specs[key])
        else:
            bare.append(word)
    bare = _join_card_names(ruleset, bare)
    free = [name for name in positional if name not in fields]
    i = 0
    for n, name in enumerate(free):
        if i >= len(bare):
            break
        spec = specs[name]
        if spec.kind == "list" and n == len(free) - 1:
            # The last positional list takes every value left: ``lay QH QS``.
            fields[name] = [v for t in bare[i:] for v in _token_value(t, spec)]
            i = len(bare)
        else:
            fields[name] = _token_value(bare[i], spec)
            i += 1
    if i < len(bare):
        if free and ruleset.is_card_field(free[0]):
            # Several words where one card was wanted: the start of a name (``the mad mad``)
            # is that card; a name mistyped says so, with the nearest names, rather than
            # "too many values".
            phrase = " ".join(bare)
            try:
                ruleset.read_value(tag, free[0], phrase)
            except WarrenError as exc:
                raise ActionError(f"cannot read action {_quoted(text)}: {exc}") from None
            for name in free:
                fields.pop(name, None)
            fields[free[0]] = phrase
            return ProposedAction(tag, fields, names_actor, actor, text)
        usage = next(u for u in action_usage(ruleset) if u.split()[0] == tag)
        raise ActionError(f"cannot read action {_quoted(text)}: too many values {_quoted(bare[i:])} "
                          f"(usage: {usage})")
    return ProposedAction(tag, fields, names_actor, actor, text)


def _quoted(text: object) -> str:
    """An entry quoted in a message, a long one cut (a paste gone wrong is not said back whole)."""
    shown = repr(text)
    return shown if len(shown) <= QUOTED else f"{shown[:QUOTED - 1]}… ({len(shown):,} characters)"


QUOTED = 80
"""The most characters of an entry a message quotes."""

NAME_WORDS = 12
"""The most words a card's name is looked for in (the longest in the catalogues has 6): an
entry's words are tried in runs of at most this many, so a long paste costs time in
proportion to its length, not to its square."""


def _join_named_cards(ruleset: Ruleset[Any, Any], tag: str, words: list[str]) -> list[str]:
    """Words with a card field's value that goes on over the next words joined into one
    (``on=Blue Sinister Bunny`` names one bunny), the longest run that names a card."""
    out: list[str] = []
    i = 0
    while i < len(words):
        key, eq, value = words[i].partition("=")
        if not (eq and key.isidentifier() and ruleset.is_card_field(key)):
            out.append(words[i])
            i += 1
            continue
        taken = 0
        for k in range(min(len(words) - i - 1, NAME_WORDS - 1), 0, -1):
            following = words[i + 1:i + 1 + k]
            if any("=" in w for w in following):
                continue
            phrase = " ".join([value, *following])
            try:
                ruleset.read_value(tag, key, phrase)
            except WarrenError:
                continue
            taken = k
            break
        out.append(" ".join([words[i], *words[i + 1:i + 1 + taken]]))
        i += 1 + taken
    return out


def _join_card_names(ruleset: Ruleset[Any, Any], bare: list[str]) -> list[str]:
    """Bare words with each run of them that makes one card's name joined into one value
    (``play Blue Perky Bunny`` plays one card), the longest run first."""
    out: list[str] = []
    i = 0
    while i < len(bare):
        for j in range(min(len(bare), i + NAME_WORDS), i + 1, -1):
            phrase = " ".join(bare[i:j])
            if ruleset.is_card_phrase(phrase):
                out.append(phrase)
                i = j
                break
        else:
            out.append(bare[i])
            i += 1
    return out


def read_action(ruleset: Ruleset[Any, Any], text: str | dict[str, Any]) -> ProposedAction:
    """Read a proposed action from JSON or the short notation.

    Notation: ``TYPE [VALUE ...] [field=value ...]``. The type is the record's event type
    (``end-turn`` is read as ``end_turn``). Bare values fill the type's positional fields in
    order (:func:`positional_fields`); the last positional list takes every value left, so
    ``lay QH QS`` lays two queens, ``flip 0.3`` turns up slot 0.3, ``steal 7H`` records the
    stolen card. ``field=value`` names a field: a list takes comma-separated values
    (``cards=QH,QS``) and anything may be given as JSON (``hands=[["2C"],["3C"]]``).
    ``actor=N`` (or ``seat=N``) names who acts; otherwise the caller decides (the seat to
    act). Booleans read ``true``/``false``/``yes``/``no``.
    """
    if isinstance(text, dict):
        return read_action_dict(ruleset, text)
    stripped = text.strip()
    if stripped.startswith("{"):
        return _read_json(ruleset, stripped)
    return _read_notation(ruleset, stripped)


_TYPE_WORDS = {"int": "a whole number", "float": "a number", "bool": "yes or no", "str": "a word",
               "array": "a list", "object": "named values", "null": "nothing"}
_MISSING = re.compile(r"Object missing required field `(\w+)`(?: - at `\$\.?([\w.\[\]]*)`)?")
_EXPECTED = re.compile(r"Expected `([^`]+)`(?:, got `(\w+)`)?(.*?)(?: - at `\$\.?([\w.\[\]]*)`)?$")


def _type_words(spelled: str) -> str:
    """msgspec's name of a type in words: ``int | null`` is "a whole number, or nothing"."""
    kinds = [_TYPE_WORDS.get(k.strip(), k.strip()) for k in spelled.split("|")]
    if "nothing" in kinds and len(kinds) > 1:
        kinds.remove("nothing")
        return " or ".join(kinds) + ", or nothing"
    return " or ".join(kinds)


def _where(path: str | None) -> str:
    """A field's place as msgspec writes it (``faces[0]``) in words: "the first of faces"."""
    if not path:
        return "the action"
    match = re.fullmatch(r"(\w+)\[(\d+)\](.*)", path)
    if match:
        nth = int(match[2]) + 1
        return f"value {nth} of {match[1]}"
    return path


def plainly(exc: msgspec.ValidationError, tag: str) -> str:
    """A decoder's refusal of a typed action in plain words, naming the field and what it
    takes: "Expected `int | null`, got `str` - at `$.carrot`" reads "carrot takes a whole
    number, or nothing, not a word"; "Object missing required field `seat`" reads "buy
    needs its seat"."""
    text = str(exc)
    missing = _MISSING.match(text)
    if missing:
        return f"{tag} needs its {missing[1]}" + (f" (in {_where(missing[2])})" if missing[2] else "")
    expected = _EXPECTED.match(text)
    if expected:
        want, got, more, at = expected.groups()
        said = f"{_where(at)} takes {_type_words(want)}{more.strip() and ' ' + more.strip().replace('`', '')}"
        return said + (f", not {_TYPE_WORDS.get(got, got)}" if got else "")
    return re.sub(r" - at `\$\.?([\w.\[\]]*)`", lambda m: f" (in {_where(m[1])})", text).replace("`", "")


def make_event(ruleset: Ruleset[Any, Any], proposed: ProposedAction, *, seq: int, actor: int | None) -> Event:
    """The typed event of a proposed action, or :class:`ActionError` saying what is wrong."""
    event_type = ruleset.events_by_type[proposed.tag]
    fields = {}
    for name, value in proposed.fields.items():
        try:
            # The game's own spellings (a ten typed as 10C) and its refusals ("not a card").
            fields[name] = value if name == "claims" else ruleset.read_value(proposed.tag, name, value)
        except WarrenError as exc:
            raise ActionError(f"cannot read action {_quoted(proposed.text)}: {exc}") from None
    body = {**fields, "seq": seq, "actor": actor}
    try:
        return msgspec.convert(body, event_type, strict=False)
    except msgspec.ValidationError as exc:
        usage = next(u for u in action_usage(ruleset) if u.split()[0] == proposed.tag)
        raise ActionError(f"cannot read action {proposed.text!r}: {plainly(exc, proposed.tag)} "
                          f"(usage: {usage})") from None


def check_seat(seat: int | None, n_seats: int, what: str = "seat") -> None:
    """Refuse a seat that is not at this table."""
    if seat is not None and not 0 <= seat < n_seats:
        raise ActionError(f"{what} {seat} is not in this game (seats 0..{n_seats - 1})")


def propose(
    ruleset: Ruleset[Any, Any],
    state: GameState,
    action: str | dict[str, Any] | Event,
    *,
    n_seats: int,
    seat: int | None = None,
) -> Event:
    """The event ``action`` stands for at ``state``: seq is the next one; the actor is the one
    the action names, else ``seat``, else the only seat to act (or the table when nobody is
    to act, e.g. before a deal)."""
    check_seat(seat, n_seats)
    next_seq = state.seq + 1
    if isinstance(action, Event):
        event = msgspec.structs.replace(action, seq=next_seq, hash=None)
        check_seat(event.actor, n_seats, "actor")
        return event
    proposed = read_action(ruleset, action)
    if proposed.names_actor:
        if seat is not None and proposed.actor != seat:
            raise ActionError(f"the action names actor {proposed.actor}, but the seat given is {seat}")
        actor = proposed.actor
    elif seat is not None:
        actor = seat
    else:
        actor = _default_actor(ruleset, state, proposed)
    check_seat(actor, n_seats, "actor")
    proposed = _in_play(ruleset, state, proposed, seq=next_seq, actor=actor)
    # A card typed by a name its copies share: the copy this actor can play.
    return ruleset.settle_copies(state, make_event(ruleset, proposed, seq=next_seq, actor=actor))


def _in_play(ruleset: Ruleset[Any, Any], state: GameState, proposed: ProposedAction, *, seq: int,
             actor: int | None) -> ProposedAction:
    """The action with what it names in play by name (``target=Sprout Bunny``) as the
    numbers the record writes (Ruleset.pieces_named). A name several pieces share is the
    first of them the rules allow here (each is tried on a copy), else the first."""
    def named(name: str, typed: Any) -> list[Any] | None:
        try:
            return ruleset.pieces_named(state, name, typed)
        except WarrenError as exc:  # a name no card has: the nearest names offered
            raise ActionError(f"cannot read action {_quoted(proposed.text)}: {exc}") from None

    def nothing(name: str, typed: Any) -> ActionError:
        card = ruleset.read_value(proposed.tag, name, typed)
        return ActionError(f"cannot read action {proposed.text!r}: nothing in play is "
                           f"{ruleset.card_text(card)}")

    fields = dict(proposed.fields)
    open_choice: list[tuple[str, list[Any]]] = []
    for name, typed in proposed.fields.items():
        if name == "claims":
            continue
        if isinstance(typed, list):
            chosen: list[Any] = []
            for item in typed:
                found = named(name, item)
                if found is None:
                    chosen.append(item)
                    continue
                left = [p for p in found if p not in chosen]
                if not left:
                    raise nothing(name, item)
                chosen.append(left[0])
            fields[name] = chosen
            continue
        found = named(name, typed)
        if found is None:
            continue
        if not found:
            raise nothing(name, typed)
        fields[name] = found[0]
        if len(found) > 1:
            open_choice.append((name, found))
    out = dataclasses.replace(proposed, fields=fields)
    for name, found in open_choice:
        for candidate in found:
            trial = dataclasses.replace(out, fields={**out.fields, name: candidate})
            try:
                ruleset.apply(ruleset.copy_state(state), make_event(ruleset, trial, seq=seq, actor=actor))
            except WarrenError:
                continue
            out = trial
            break
    return out


def _default_actor(ruleset: Ruleset[Any, Any], state: GameState, proposed: ProposedAction) -> int | None:
    """Who proposes an action that names nobody: the table for a table event (chance, a
    timer), else the one seat to act.

    A ruleset may declare its table events as data (``Capabilities(table_events=...)``);
    otherwise an action the rules accept from the table (a null actor) is taken as one.
    """
    declared = ruleset.capabilities.table_events
    to_act = ruleset.to_act(state)
    if declared is not None and proposed.tag in declared:
        return None
    if not to_act:
        return None
    if declared is None:
        trial = ruleset.copy_state(state)
        event = make_event(ruleset, proposed, seq=state.seq + 1, actor=None)
        try:
            ruleset.apply(trial, event)
        except (RuleViolation, KeyError, IndexError, TypeError, AttributeError):
            pass  # not the table's to record; the verdict will say why, by the seat's rules
        else:
            return None
    if len(to_act) > 1:
        raise ActionError(f"seats {to_act} may act now: say which one proposes {proposed.text!r} "
                          "(a seat, or actor=null for the table)")
    return to_act[0]


def json_token(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class _Named(str):
    """A card's name in a notation written for a person: written as it is, spaces and all."""


def _scalar_token(value: Any) -> str | None:
    """A value as one bare notation word, or None if it needs JSON."""
    if isinstance(value, _Named):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str) and value and re.fullmatch(r"[^\s=,'\"\[\]{}\\]+", value):
        return value
    return None


def format_action(ruleset: Ruleset[Any, Any], event: Event, *, with_actor: bool = False,
                  named: bool = False) -> str:
    """The short notation of an event; :func:`read_action` reads it back to the same event.
    ``named``: cards by their names where the game reads them so (``play Sword on=Blue
    Sinister Bunny``), as a person types them; a copy of a card several share reads back as
    the copy its player holds (:meth:`~engine.ruleset.Ruleset.settle_copies`)."""
    tag = event_tag(type(event))
    data = {k: v for k, v in event_to_dict(event).items() if k not in ("type", "seq", "actor", "hash")}
    if named:
        for name, value in data.items():
            if ruleset.is_card_field(name) and not isinstance(value, list | dict) and value is not None:
                token = ruleset.card_token(value)
                if token is not None:
                    data[name] = _Named(token)
    claims = data.pop("claims", None)
    specs = {s.name: s for s in event_fields(type(event))}
    positional = positional_fields(ruleset, tag)
    parts = [tag]
    for n, name in enumerate(positional):
        if name not in data:
            break
        value = data[name]
        if specs[name].kind == "list":
            tokens = [t for t in map(_scalar_token, value) if t is not None]
            if not value or len(tokens) < len(value):
                break
            if n == len(positional) - 1:
                parts.extend(tokens)
            else:
                parts.append(",".join(tokens))
        else:
            token = _scalar_token(value)
            if token is None:
                break
            parts.append(token)
        del data[name]
    for name, value in data.items():
        if specs.get(name) is not None and specs[name].kind == "list" and value:
            tokens = [t for t in map(_scalar_token, value) if t is not None]
            if len(tokens) == len(value):
                parts.append(f"{name}=" + ",".join(tokens))
                continue
        token = _scalar_token(value) if specs.get(name) is not None and specs[name].kind == "scalar" else None
        parts.append(f"{name}={token}" if token is not None else shlex.quote(f"{name}={json_token(value)}"))
    if claims:
        parts.append(shlex.quote(f"claims={json_token(claims)}"))
    if with_actor:
        parts.append(f"actor={'null' if event.actor is None else event.actor}")
    return " ".join(parts)
