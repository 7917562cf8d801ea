"""What a value holds, said by its type: the meanings warren's words read.

A view or a fact is a msgspec Struct whose fields say what they hold: ``Seat`` (a player,
written by name), ``Card`` (written by its name and number, or by its face), ``Money``,
``Face`` (what a die shows) and the others below, each an ``Annotated`` type whose
:class:`Meaning` the generic words (engine.wording) look up in the game's writers. The
JSON is the Struct's own (an annotation changes nothing in it), so ``--json`` reads as it
always has; only the words learn from the types.

A game names the meanings it has of its own (a Killer Bunnies Quest stake, a KinderBunnies
card being settled) with :class:`Meaning` too, and gives their writers in its vocabulary.

Pure: no I/O, no game imported.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin, get_type_hints

import msgspec

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Meaning:
    """What a value stands for at the table (a seat, a card, a sum of money), which decides
    how it reads; the JSON does not change."""

    name: str

    def __repr__(self) -> str:
        return f"Meaning({self.name!r})"


SEAT = Meaning("seat")
SEATS = Meaning("seats")
PER_SEAT = Meaning("per seat")
CARD = Meaning("card")
CARDS = Meaning("cards")
MONEY = Meaning("money")
FACE = Meaning("face")
ROLL = Meaning("roll")
DIE = Meaning("die")
DICE = Meaning("dice")
CARROT = Meaning("carrot")
CARROTS = Meaning("carrots")
PLACE = Meaning("place")
PLACES = Meaning("places")
UNITS = Meaning("units")
COUNT_OF_CARDS = Meaning("count of cards")
SUBJECT = Meaning("one player's own record")
"""A record of one seat's own (with a ``seat`` field): what changes in it is that player's."""

Seat = Annotated[int, SEAT]
"""A player, by seat (0 first); written as the player's name."""
Seats = Annotated[list[int], SEATS]
"""Players, by seat; written ``Ann, Bo and Cy``."""
PerSeat = Annotated[list[T], PER_SEAT]
"""One entry per seat, seat 0 first; written ``Ann 2, Bo 0``."""
Card = Annotated[int | str, CARD]
"""A card: its number in the game's catalogue, or its code; ``"?"`` where it was not seen."""
Cards = Annotated[Sequence[Card | None], CARDS]
"""Cards, in the order the view keeps them."""
Money = Annotated[int, MONEY]
"""A sum of the game's money (Dolla, Bunny Bucks)."""
Face = Annotated[int, FACE]
"""What one die shows."""
Roll = Annotated[list[int], ROLL]
"""What the dice of one roll show, die by die."""
Die = Annotated[str, DIE]
"""A die, by its colour."""
Dice = Annotated[list[str], DICE]
"""Dice, by colour."""
Carrot = Annotated[str, CARROT]
"""A carrot, by the letter or name printed on it."""
Carrots = Annotated[list[str], CARROTS]
"""Carrots, by letter."""
Place = Annotated[int, PLACE]
"""A place of the Bunny Circle (0 first)."""
Places = Annotated[list[int], PLACES]
"""Places of the Bunny Circle."""
Units = Annotated[int, UNITS]
"""Units of a supply (cabbage, water)."""
CountOfCards = Annotated[int, COUNT_OF_CARDS]
"""How many cards (a hidden hand, a pile seen from its back)."""

Perspective = Annotated[int, SEAT] | str
"""Who looks: a seat, ``referee`` or ``spectator``."""


class Facts(msgspec.Struct, kw_only=True):
    """The facts every game's effects and refusals name alike; a game's facts Struct adds
    its own (a fact's key is one of its fields)."""

    seat: Seat
    actor: Seat


class View(msgspec.Struct, kw_only=True):
    """The public head of every view: who looks, and where the game stands
    (:meth:`engine.ruleset.GameState.position_view`)."""

    perspective: Perspective
    seq: int
    round: int
    turn: int
    phase: str
    active: Seat | None
    over: bool


R = TypeVar("R")


def by_identity(fn: Callable[[Any], R]) -> Callable[[Any], R]:
    """``fn`` of a type hint, remembered by the hint's identity: hints are made once, with
    the Structs that declare them, and hashing a typing object costs more than what is
    remembered (the words ask for every value they say). The hint is kept with its answer,
    so an identity is never reused while it is remembered."""
    memo: dict[int, tuple[Any, R]] = {}

    def remembered(hint: Any) -> R:
        found = memo.get(id(hint))
        if found is not None and found[0] is hint:
            return found[1]
        answer = fn(hint)
        memo[id(hint)] = (hint, answer)
        return answer

    remembered.__doc__ = fn.__doc__
    remembered.__name__ = fn.__name__
    return remembered


@by_identity
def meaning_of(hint: Any) -> tuple[Meaning | None, Any]:
    """The meaning a type hint carries (None if it carries none) and the type beneath it."""
    if get_origin(hint) is Annotated:
        base, *extras = get_args(hint)
        for extra in extras:
            if isinstance(extra, Meaning):
                return extra, base
        return None, base
    return None, hint


@by_identity
def arms(hint: Any) -> tuple[Any, ...]:
    """The arms of a union (``Card | None`` -> ``Card``, ``None``); a hint that is not a
    union is its own single arm."""
    if get_origin(hint) in (Union, types.UnionType):
        return get_args(hint)
    return (hint,)


Check = Callable[[object], bool]


@by_identity
def checker(hint: Any) -> Check:
    """A test of plain data against ``hint`` (as far as a list's first item), made once per
    hint (the words ask it for every value they say)."""
    _, base = meaning_of(hint)
    origin = get_origin(base) or base
    if origin in (Union, types.UnionType):
        each = tuple(checker(a) for a in get_args(base))
        return lambda v: any(check(v) for check in each)
    if origin in (list, Sequence):
        args = get_args(base)
        item = checker(args[0]) if args else None
        return lambda v: isinstance(v, list) and (not v or item is None or item(v[0]))
    if origin is dict:
        return lambda v: isinstance(v, dict)
    if base is Any:
        return lambda v: True
    if base is None or base is type(None):
        return lambda v: v is None
    if isinstance(origin, type) and issubclass(origin, msgspec.Struct):
        return lambda v: isinstance(v, dict | origin)
    if origin is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    if isinstance(origin, type):
        kind = origin
        return lambda v: isinstance(v, kind)
    return lambda v: False


@by_identity
def item_hint(hint: Any) -> Any:
    """The hint of one item of a list hint (``PerSeat[Money]`` -> ``Money``), or None."""
    if hint is None:
        return None
    _, base = meaning_of(hint)
    if get_origin(base) in (list, Sequence):
        (item,) = get_args(base)
        return item
    return None


@by_identity
def struct_of(hint: Any) -> type[msgspec.Struct] | None:
    """The Struct a hint (under any meaning) holds, if it holds one."""
    if hint is None:
        return None
    _, base = meaning_of(hint)
    return base if isinstance(base, type) and issubclass(base, msgspec.Struct) else None


@cache
def fields(struct: type[msgspec.Struct]) -> Mapping[str, Any]:
    """The Struct's fields by the name they have in the JSON, each with its type hint
    (meanings kept)."""
    hints = get_type_hints(struct, include_extras=True)
    names = dict(zip(struct.__struct_fields__, struct.__struct_encode_fields__, strict=True))
    return {names[f]: hints[f] for f in struct.__struct_fields__}


def hints_of(structs: Iterable[type[msgspec.Struct]]) -> dict[str, Any]:
    """Every key of ``structs`` (their fields, and the fields of the Structs they hold) with
    its hint; where two say what one key holds, the first one's word stands."""
    out: dict[str, Any] = {}
    seen: set[type[msgspec.Struct]] = set()

    def walk(struct: type[msgspec.Struct]) -> None:
        if struct in seen:
            return
        seen.add(struct)
        inner: list[type[msgspec.Struct]] = []
        for key, hint in fields(struct).items():
            out.setdefault(key, hint)
            for arm in arms(meaning_of(hint)[1]):
                held = struct_of(arm) or struct_of(item_hint(arm))
                if held is not None:
                    inner.append(held)
        for held in inner:
            walk(held)

    for struct in structs:
        walk(struct)
    return out
