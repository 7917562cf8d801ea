"""A primitive written once, in a file of its own, and played by every Killer Bunnies game
that lists it.

A :class:`Primitive` is a card effect (a tagged, frozen Struct like every primitive of the
vocabulary, engine.killer.catalogue.effects) that also carries what it does: its family,
the choices it takes, its check, its apply, the choices it offers, and its description (its
docstring, which the catalogue reference shows as it does every primitive's). It reaches
a game only through that game's :class:`Port`: a small typed adapter saying who plays the
card, which rule the card answers to, which event field holds a choice,
who is at the table and whose bunnies are in play, and the one policy where the rulebooks
differ for every card (where the played card goes: KinderBunnies' turn's card leaves the hand
for the discard pile before it acts; Quest and Odyssey discard it once its effects are done).

A game plays a primitive when its interpreter *adopts* it, in one explicit table per game
(``ADOPTED`` in the game's ``port.py``), never by importing a module for its side
effect: :meth:`engine.killer.interpreter.Interpreter.adopt` fills the game's check, apply
and options tables from the class and lets deck files name its tag
(:data:`engine.killer.catalogue.effects.VOCABULARY`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, TypeVar

from engine.killer.catalogue import effects as fx
from engine.rules import Effect

S = TypeVar("S")
X = TypeVar("X")
E = TypeVar("E")
S_contra = TypeVar("S_contra", contravariant=True)
X_contra = TypeVar("X_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)

CHOICES = ("player", "bunny")
"""The choices a primitive written once may take, in the kit's words; each game's port says
which field of its play event holds each one."""


class Port(Protocol[S_contra, X_contra, E_contra]):
    """What a primitive written once may ask of a game (see the module docstring)."""

    game: str

    def player(self, frame: X_contra) -> int:
        """The seat playing the card."""
        ...

    def rule(self, state: S_contra, frame: X_contra) -> str:
        """The rule id the card answers to."""
        ...

    def field(self, choice: str) -> str:
        """The play event's field that holds one of :data:`CHOICES`."""
        ...

    def named(self, frame: X_contra, event: E_contra, choice: str) -> Any:
        """At the check: the value the play names for ``choice`` (None: not named), noted on
        the frame for the apply."""
        ...

    def chosen(self, frame: X_contra, choice: str) -> Any:
        """At the apply: the value the check noted for ``choice``."""
        ...

    def players(self, state: S_contra) -> list[int]:
        """The seats in the game, in turn order from seat 0."""
        ...

    def bunnies(self, state: S_contra, seat: int) -> list[int]:
        """The seat's bunnies in play (card numbers, or the game's pieces)."""
        ...

    def settle(self, state: S_contra, frame: X_contra) -> None:
        """Where the played card goes before its effect, in games that move it then."""
        ...


class KeptChoices:
    """The part of a port whose frame keeps a choice in an attribute of its own: ``fields``
    names the play event's field of each choice, ``kept`` the frame's attribute."""

    fields: ClassVar[dict[str, str]]
    kept: ClassVar[dict[str, str]]

    def field(self, choice: str) -> str:
        return self.fields[choice]

    def named(self, frame: Any, event: Any, choice: str) -> Any:
        value = getattr(event, self.fields[choice])
        setattr(frame, self.kept[choice], value)
        return value

    def chosen(self, frame: Any, choice: str) -> Any:
        return getattr(frame, self.kept[choice])


class Primitive(fx.CardEffect, frozen=True, kw_only=True):
    """Base of a primitive written once (see the module docstring). A subclass names its tag
    (``class Tally(Primitive, tag="tally", frozen=True, kw_only=True)``), its fields, and
    overrides what it does; the kit's other primitives are still tables in each game."""

    family: ClassVar[fx.Family] = "turns"
    """Where a reader looks for it (engine.killer.interpreter.FAMILIES)."""
    takes: ClassVar[tuple[str, ...]] = ()
    """The choices (of :data:`CHOICES`) a play of it may name; any other is refused."""

    def check(self, port: Port[S, X, E], state: S, frame: X, event: E) -> None:
        """Refuse a play this primitive cannot take (nothing changes here): raise the family's
        refusal (engine.killer.refusal.refuse) with the rule the port names."""
        return None

    def apply(self, port: Port[S, X, E], state: S, frame: X, out: list[Effect]) -> None:
        """Carry it out, saying what changed in ``out``. Every primitive says what it does:
        a class that keeps this one is refused when a game adopts it."""
        raise TypeError(f"{type(self).__qualname__} says nothing of what it does")

    def options(self, port: Port[S, X, E], state: S, seat: int) -> list[dict[str, Any]]:
        """Every set of choices a play of it by ``seat`` may name, as event fields."""
        return [{}]
