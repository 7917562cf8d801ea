"""Every header option has bounds, declared on its type, and a value outside them is refused.

A sealed, legal record can carry any option value, and warren's own ``simulate --option``
writes what it is given: ``deck={"1": 1000000000}`` once made the referee view build a
billion-card list. So each numeric option (and each number inside a list or map option,
and the length of the list or map) carries msgspec bounds on its annotation::

    hand_size: Annotated[int, Meta(ge=1, le=20)] = 7

``msgspec.convert`` enforces them when a header's options are read
(``Ruleset.options``), before any state is built; :func:`refusal` turns the error into a
message naming the option and its bounds; and the contract suite holds every registered
ruleset to :func:`unbounded` being empty, so a new game cannot forget one. The bounds are
documented in docs/rulings.md with each ruleset's options.
"""

from __future__ import annotations

import re

import msgspec
import msgspec.inspect as mi

_PATH = re.compile(r"at `\$\.([A-Za-z_][A-Za-z0-9_]*)")


def _number_bounds(t: mi.IntType | mi.FloatType) -> str | None:
    low = t.ge if t.ge is not None else t.gt
    high = t.le if t.le is not None else t.lt
    if low is None or high is None:
        return None
    return f"{low}..{high}"


def _describe(t: mi.Type) -> str | None:
    """Words for the bounds of a type, or None if something in it is unbounded."""
    if isinstance(t, mi.UnionType):
        parts = [p for p in t.types if not isinstance(p, mi.NoneType)]
        described = [_describe(p) for p in parts]
        return None if None in described else " or ".join(d for d in described if d)
    if isinstance(t, mi.IntType | mi.FloatType):
        return _number_bounds(t)
    if isinstance(t, mi.TupleType):
        described = [_describe(item) for item in t.item_types]
        return None if None in described else f"{len(t.item_types)} values"
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.DictType | mi.SetType | mi.FrozenSetType):
        if t.max_length is None:
            return None
        inner = _describe(t.value_type if isinstance(t, mi.DictType) else t.item_type)
        if inner is None:
            return None
        low = t.min_length or 0
        length = f"{low}" if low == t.max_length else f"{low} to {t.max_length}"
        return f"{length} values" + (f", each {inner}" if inner else "")
    if isinstance(t, mi.StrType):
        return "" if t.max_length is not None else None
    if isinstance(t, mi.LiteralType | mi.BoolType | mi.NoneType | mi.EnumType):
        return ""  # a choice among names, or a flag: no size of its own
    return None  # anything else (a struct, any value at all): not known to be bounded


def bounds(options_type: type[msgspec.Struct]) -> dict[str, str | None]:
    """Option name -> its bounds in words ("1..20", "5 values, each 0..35"), None where a
    field is unbounded, "" where it needs none (a choice among names, a flag)."""
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    return {f.encode_name: _describe(f.type) for f in info.fields}


def unbounded(options_type: type[msgspec.Struct]) -> list[str]:
    """The options that can grow without limit (the contract suite wants none)."""
    return [name for name, said in bounds(options_type).items() if said is None]


def refusal(slug: str, options_type: type[msgspec.Struct], exc: msgspec.ValidationError) -> str:
    """A clear message for options that do not convert: which option, its bounds, why."""
    text = str(exc)
    found = _PATH.search(text)
    if found is not None:
        name = found.group(1)
        said = bounds(options_type).get(name)
        if said:
            return f"bad option for {slug}: {name} must be {said} ({text})"
    return f"bad option for {slug}: {text}"




class Question(msgspec.Struct, frozen=True):
    """One option a table chooses before it plays, as the recorder asks it."""

    name: str
    default: object
    allowed: tuple[object, ...] = ()
    """The values it may take, where they are few (a choice, a flag); else empty."""
    bounds: str = ""
    """Its bounds in words (``1..20``), where it is a number."""
    listed: bool = False
    """Several values, typed comma-separated (Odyssey's decks)."""


def _choice(t: mi.Type) -> tuple[object, ...] | None:
    if isinstance(t, mi.LiteralType):
        return tuple(t.values)
    if isinstance(t, mi.BoolType):
        return (True, False)
    return None


def questions(options_type: type[msgspec.Struct],
              defaults: dict[str, object] | None = None) -> list[Question]:
    """The options a table chooses (a choice among names, a flag, a bounded number, a list
    of names), in the order the ruleset declares them, each with its default (``defaults``
    first: what a new record would get, e.g. Odyssey's decks). Options that only a file or
    a set-up variant gives (a catalogue hash, a map of deck lists, a custom set-up left
    unset) are not asked: ``--option`` gives them."""
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    out: list[Question] = []
    for f in info.fields:
        default: object = (defaults or {}).get(f.encode_name, f.default)
        if default is msgspec.NODEFAULT and f.default_factory is not msgspec.NODEFAULT:
            default = f.default_factory()
        if default is msgspec.NODEFAULT or default is None:
            continue
        t = f.type
        choice = _choice(t)
        if choice is not None:
            out.append(Question(f.encode_name, default, choice))
        elif isinstance(t, mi.IntType):
            out.append(Question(f.encode_name, default, bounds=_number_bounds(t) or ""))
        elif isinstance(t, mi.ListType | mi.VarTupleType) \
                and isinstance(t.item_type, mi.StrType | mi.LiteralType):
            allowed = _choice(t.item_type) or ()
            out.append(Question(f.encode_name, list(default) if isinstance(default, tuple) else default,
                                allowed, listed=True))
    return out
