"""A typed codec for engine states: bytes that load without running anybody's code.

States are ``__slots__`` classes (a fast fold mutates them in place; see engine.ruleset).
Every slot is annotated with a type msgspec can encode and decode: builtins, tuples, sets,
dicts, ``Literal``, msgspec Structs, dataclasses, and the ruleset's own event types. From
those annotations the codec builds a msgspec Struct *schema* once per state class, and a
state is stored as MessagePack of that schema.

Why not pickle: a snapshot may come from somebody else's store file, and unpickling runs
whatever the bytes name. Decoding here creates only the types the schema names, checks
every value against its annotation, and refuses anything else; a class that gains or loses
a field, or changes a field's type, gets a new :attr:`StateCodec.fingerprint`, so older
snapshots are recognised as stale instead of being half-loaded.

A field annotated with a type that decodes itself (a classmethod ``from_builtins``, such as
the open vocabulary of card effects, engine.killer.catalogue.effects.Open) is decoded by it.

A field annotated with the base :class:`engine.record.Event` (a state that keeps events,
such as a night's secret plays) is stored as the ruleset's own tagged union of event
types, so it decodes to the right event class.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import types
import typing
from collections.abc import Sequence
from typing import Any, Generic, TypeVar, Union, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from engine.record import Event
from engine.rules import WarrenError

CODEC_FORMAT = 1
"""Bumped when the encoding itself changes, so every older snapshot becomes stale."""

S = TypeVar("S")


class CodecError(WarrenError):
    """Bytes that are not a state of this kind (stale, damaged or foreign)."""


def slot_names(state_type: type) -> tuple[str, ...]:
    """Every slot of a state class and its bases, in a stable order (base slots first)."""
    names: list[str] = []
    for cls in reversed(state_type.__mro__):
        for name in cls.__dict__.get("__slots__", ()):
            if name not in names and not name.startswith("__"):
                names.append(name)
    return tuple(names)


def _hints(state_type: type) -> dict[str, Any]:
    hints: dict[str, Any] = {}
    for cls in reversed(state_type.__mro__):
        if cls is object:
            continue
        module = sys.modules.get(cls.__module__)
        namespace = dict(vars(module)) if module is not None else {}
        for name, annotation in inspect.get_annotations(cls).items():
            if isinstance(annotation, str):
                annotation = eval(annotation, namespace, dict(vars(cls)))
            hints[name] = annotation
    return hints


def decode_hook(kind: type, raw: Any) -> Any:
    """msgspec's ``dec_hook``: decode a field whose type decodes itself (see the module
    docstring)."""
    decode = getattr(kind, "from_builtins", None)
    if decode is None:
        raise NotImplementedError(f"no decoder for {kind!r}")
    return decode(raw)


def _substitute(tp: Any, union: Any) -> Any:
    """``tp`` with the base Event class replaced by the ruleset's union of event types."""
    if tp is Event:
        return union
    origin = get_origin(tp)
    if origin is None:
        return tp
    args = get_args(tp)
    if not args:
        return tp
    new = tuple(_substitute(a, union) for a in args)
    if new == args:
        return tp
    if origin in (Union, types.UnionType):
        return Union[new]  # noqa: UP007 - built from a tuple of types
    if origin is typing.Literal:
        return tp
    return origin[new if len(new) > 1 else new[0]]


def _shape(t: Any, seen: set[str]) -> str:
    """A canonical text of a msgspec type tree, naming each Struct in full once and by name
    after: ``repr`` of the tree spells a Struct out wherever it occurs, which grows with
    every union of cards and effects that shares parts (a card game's state once reached
    gigabytes of text)."""
    if isinstance(t, mi.StructType):
        name = f"{t.cls.__module__}.{t.cls.__qualname__}"
        if name in seen:
            return f"<{name}>"
        seen.add(name)
        head = (f"tag={t.tag!r},tag_field={t.tag_field!r},array_like={t.array_like},"
                f"forbid={t.forbid_unknown_fields}")
        body = ";".join(f"{f.encode_name}:{_shape(f.type, seen)}:{f.required}:{f.default!r}"
                        for f in t.fields)
        return f"{name}{{{head};{body}}}"
    if isinstance(t, msgspec.Struct):  # every other node of the type tree
        parts = ",".join(f"{k}={_shape(getattr(t, k), seen)}" for k in t.__struct_fields__)
        return f"{type(t).__name__}({parts})"
    if isinstance(t, tuple | list):
        return "(" + ",".join(_shape(x, seen) for x in t) + ")"
    if isinstance(t, type):
        return f"{t.__module__}.{t.__qualname__}"
    return repr(t)


class StateCodec(Generic[S]):
    """Encode and decode one state class (see the module docstring)."""

    def __init__(self, state_type: type[S], event_types: Sequence[type[Event]] = ()) -> None:
        self.state_type = state_type
        self.names = slot_names(state_type)
        hints = _hints(state_type)
        missing = [n for n in self.names if n not in hints]
        if missing:
            raise TypeError(f"{state_type.__qualname__}: every slot needs a type annotation "
                            f"for the state codec; missing: {missing}")
        union: Any = Union[tuple(event_types)] if event_types else Event  # noqa: UP007
        fields = [(name, _substitute(hints[name], union)) for name in self.names]
        self.schema: type[msgspec.Struct] = msgspec.defstruct(
            f"{state_type.__name__}Record", fields, kw_only=True, forbid_unknown_fields=True,
        )
        info = _shape(mi.type_info(self.schema), set()).replace(self.schema.__name__, "")
        digest = hashlib.sha256(f"{CODEC_FORMAT}:{info}".encode()).hexdigest()[:16]
        self.fingerprint = f"{CODEC_FORMAT}:{state_type.__module__}.{state_type.__qualname__}:{digest}"
        """What stored bytes must have been made with to be loaded by this codec."""
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder(self.schema, dec_hook=decode_hook)

    def record(self, state: S) -> msgspec.Struct:
        """The state as its schema: a value object (``==`` compares by content)."""
        return self.schema(**{name: getattr(state, name) for name in self.names})

    def encode(self, state: S) -> bytes:
        return self._encoder.encode(self.record(state))

    def decode(self, data: bytes) -> S:
        """The state held in ``data``; :class:`CodecError` if it is not one of this kind."""
        try:
            record = self._decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise CodecError(f"not a stored {self.state_type.__qualname__}: {exc}") from None
        state = self.state_type.__new__(self.state_type)
        for name in self.names:
            setattr(state, name, getattr(record, name))
        return state

    def equal(self, a: S, b: S) -> bool:
        """True when two states hold the same content (sets compared as sets)."""
        return self.record(a) == self.record(b)
