"""The family kit's effect interpreter: what each primitive of the effect vocabulary does in a
game, as tables keyed by the primitive's type (never an ``isinstance`` chain), and the one
resolver every game plays a card's primitives with (:meth:`Interpreter.check_card`,
:meth:`Interpreter.resolve`).

Every Killer Bunnies game makes one :class:`Interpreter` and registers, per primitive:

- a **check** (``@interp.check(fx.Feed)``): refuses a play whose choices the primitive cannot
  take, before anything changes (a refused play leaves the state as it was);
- an **apply** (``@interp.apply(fx.Feed)``): carries it out and says what changed;
- an **outcome** for a primitive that rolls (``@interp.outcome(fx.RollMatches)``): what the
  faces decide once the dice are in;
- its **options** (``@interp.options(fx.Feed)``): every set of choices a play of it may name,
  which the legal-move lists and the bots try against the checks;
- the choices it **takes** (``interp.takes(fx.Feed, "on")``): a play naming any other is
  refused by the card's own rule; where they depend on the primitive's own fields, a
  function of the primitive says so (``@interp.takes_by(fx.GainCiv)``);
- what the game **vets** when a deck loads (``@interp.vets(fx.RollBands)``): the problems
  of a primitive this game cannot play as written, beyond the kit's own
  (``CardEffect.problems``).

The primitives are grouped by family (each names its own, ``CardEffect.family``: circle,
combat, feeding, carrots, money, rolls, hands, turns). Which primitives a game plays is what
its interpreter has an apply for (:meth:`Interpreter.plays`); a deck file using another is
refused when it loads (:meth:`Interpreter.unplayed`), and docs/catalogue.md lists them per
game from these tables.

**Resolving a card** is the same walk in every game, so it is written once here: first the
card's primitives are checked in order against the play's choices, before anything changes
(:meth:`Interpreter.check_card`; a kit mechanic's :class:`~engine.killer.refusal.Refusal`
becomes the game's rule through its map of the kit's codes); then they are applied in order
from the card's *continuation*, the list of its primitives still to apply, taken from the
front (:meth:`Interpreter.resolve`), until the game says the card waits (for a die, a
choice, another frame to resolve first). A game keeps the continuation where its state
keeps what it waits on (Quest's frame of a card's effects on its stack; KinderBunnies'
card has one primitive and its waits are its task; an Odyssey card waits only after its
last primitive, for its strike) and gives the resolver only what differs: its map of
the kit's codes, what its frame notes as each primitive is entered, and when the card waits.

The mechanics the games share (the Bunny Circle, attacks and their areas, feeding's
demands, roll-offs, dice, supplies and money as units, run cards, piles, trades) live in
the kit's own modules (engine.killer.circle, attack, feeding, rolls, dice, units, run,
piles, trading) and the primitives of every game call them; a game's adapter is its state,
its rule ids and the named hooks of what is truly its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar, get_args

from engine.killer.catalogue import effects as fx
from engine.killer.primitive import Port, Primitive
from engine.killer.refusal import Refusal, as_violation

S = TypeVar("S")
"""A game's state."""
X = TypeVar("X")
"""What a primitive is played in: the card, its player, the choices checked so far."""
E = TypeVar("E")
"""The event that plays the card (its choices)."""

Check = Callable[[S, X, Any, E], None]
Apply = Callable[[S, X, Any, list[Any]], None]
Outcome = Callable[[S, Any, Any, list[int], list[Any]], list[fx.AnyEffect]]
"""What the faces decide; its second argument is the game's frame that waited for the dice."""
Options = Callable[[S, int, Any], list[Any]]
"""The choice sets (event fields) a play of a primitive by a seat may name."""
TakesBy = Callable[[Any, frozenset[str]], frozenset[str]]
"""The choices a play of this primitive may name, given its kind's."""
Vet = Callable[[Any], list[str]]
"""What this game cannot play of a primitive as a deck file writes it."""
Enter = Callable[[S, X, int, Any], None]
"""What a game's frame notes as the resolver enters a card's primitive (its index, itself)."""
UNPLAYED = "card.unplayed"
"""The kit's refusal of a card whose primitive the game does not play (a deck loaded while a
primitive written once was adopted, played after the game forgot it)."""
NO_RULES: Mapping[str, str] = {}
"""A game that maps none of the kit's refusal codes (one left unmapped surfaces loudly)."""
F = TypeVar("F", bound=Callable[..., Any])

FAMILIES: tuple[fx.Family, ...] = get_args(fx.Family)
"""The families of primitives, in the order a reader meets them (each primitive names its
own: ``CardEffect.family``)."""


_INTERPRETERS: list[Interpreter[Any, Any, Any]] = []
"""Every game's interpreter (an adopted primitive stays in the vocabulary while one plays it)."""


class Interpreter(Generic[S, X, E]):
    """One game's tables of what each primitive does (see the module's docstring)."""

    def __init__(self, game: str) -> None:
        self.game = game
        _INTERPRETERS.append(self)
        self.checks: dict[type, Check[S, X, E]] = {}
        self.applies: dict[type, Apply[S, X]] = {}
        self.outcomes: dict[type, Outcome[S]] = {}
        self.choices: dict[type, Options[S]] = {}
        self.fields: dict[type, frozenset[str]] = {}
        self.refined: dict[type, TakesBy] = {}
        self.vetting: dict[type, Vet] = {}
        self.adopted: dict[type, Port[S, X, E]] = {}
        """The primitives written once (engine.killer.primitive) this game plays, and its port."""

    def _register(self, table: dict[type, Any], kinds: tuple[type, ...]) -> Callable[[F], F]:
        def register(fn: F) -> F:
            for kind in kinds:
                if kind in table:
                    raise ValueError(f"{self.game}: {kind.__name__} is registered twice")
                table[kind] = fn
            return fn
        return register

    # Each decorator is typed with the game's own state, frame and event, so mypy checks a
    # registered function's signature against the table it goes in (the effect is Any: one
    # function may serve several primitives).

    def check(self, *kinds: type[fx.CardEffect]) -> Callable[[Check[S, X, E]], Check[S, X, E]]:
        """Register the check of these primitives."""
        return self._register(self.checks, kinds)

    def apply(self, *kinds: type[fx.CardEffect]) -> Callable[[Apply[S, X]], Apply[S, X]]:
        """Register what these primitives do."""
        return self._register(self.applies, kinds)

    def outcome(self, *kinds: type[fx.CardEffect]) -> Callable[[Outcome[S]], Outcome[S]]:
        """Register what the faces decide for these rolling primitives."""
        return self._register(self.outcomes, kinds)

    def options(self, *kinds: type[fx.CardEffect]) -> Callable[[Options[S]], Options[S]]:
        """Register the choices a play of these primitives may name."""
        return self._register(self.choices, kinds)

    def takes(self, kind: type[fx.CardEffect], *fields: str) -> None:
        """The choices (event fields) a play of this primitive may name."""
        self.fields[kind] = frozenset(fields)

    def takes_by(self, *kinds: type[fx.CardEffect]) -> Callable[[TakesBy], TakesBy]:
        """Register how the choices of these primitives depend on their own fields."""
        return self._register(self.refined, kinds)

    def vets(self, *kinds: type[fx.CardEffect]) -> Callable[[Vet], Vet]:
        """Register what this game refuses of these primitives when a deck loads."""
        return self._register(self.vetting, kinds)

    def adopt(self, kind: type[Primitive], port: Port[S, X, E]) -> None:
        """Play ``kind``, a primitive written once, in this game through its ``port``: the
        check, apply and options tables take the class's own, its choices are the port's
        fields for them, and deck files may name its tag (fx.VOCABULARY)."""
        if kind in self.adopted:
            raise ValueError(f"{self.game}: {kind.__name__} is adopted twice")
        if kind.apply is Primitive.apply:
            raise TypeError(f"{self.game}: {kind.__name__} says nothing of what it does (no apply)")

        def check(state: S, frame: X, effect: Primitive, event: E) -> None:
            effect.check(port, state, frame, event)

        def apply(state: S, frame: X, effect: Primitive, out: list[Any]) -> None:
            port.settle(state, frame)
            effect.apply(port, state, frame, out)

        def options(state: S, seat: int, effect: Primitive) -> list[Any]:
            return effect.options(port, state, seat)

        fx.VOCABULARY.add(kind)
        self.check(kind)(check)
        self.apply(kind)(apply)
        self.options(kind)(options)
        self.takes(kind, *(port.field(choice) for choice in kind.takes))
        self.adopted[kind] = port

    def forget(self, kind: type[Primitive]) -> None:
        """Stop playing an adopted primitive (a test's toy; the kit's vocabulary forgets it
        once no game plays it)."""
        if self.adopted.pop(kind, None) is None:
            return
        for table in (self.checks, self.applies, self.choices, self.fields, self.refined,
                      self.vetting):
            table.pop(kind, None)
        if not any(kind in interp.adopted for interp in _INTERPRETERS):
            fx.VOCABULARY.remove(kind)

    def family_of(self, kind: type[fx.CardEffect]) -> str:
        """The primitive's family (its own, the kit's and an adopted one's alike)."""
        return kind.family

    # -- reading the tables -------------------------------------------------------------------

    def rolled(self, effect: fx.AnyEffect) -> Outcome[S]:
        return self.outcomes[type(effect)]

    def options_of(self, effect: fx.AnyEffect) -> Options[S] | None:
        return self.choices.get(type(effect))

    def takes_of(self, effect: fx.AnyEffect,
                 default: frozenset[str] = frozenset()) -> frozenset[str]:
        """The choices (event fields) a play of ``effect`` may name: its kind's, as its own
        fields refine them; ``default`` for a kind that registered none."""
        takes = self.fields.get(type(effect), default)
        refine = self.refined.get(type(effect))
        return refine(effect, takes) if refine is not None else takes

    def problems_of(self, effect: fx.AnyEffect) -> list[str]:
        """What this game cannot play of ``effect`` as written (nested primitives apart)."""
        vet = self.vetting.get(type(effect))
        return vet(effect) if vet is not None else []

    # -- resolving a card (see the module's docstring) -----------------------------------------

    def check_card(self, state: S, frame: X, effects: Sequence[fx.AnyEffect], event: E,
                   kit_rules: Mapping[str, str] = NO_RULES,
                   enter: Enter[S, X] | None = None) -> None:
        """The check pass: each primitive of the card, in order, refuses the choices of
        ``event`` it cannot take, before anything changes; a primitive with nothing to check
        passes, one the game does not play is refused (:data:`UNPLAYED`). ``enter`` is told
        of each primitive first; a kit refusal is raised as the game's rule (``kit_rules``)."""
        checks = self.checks  # a dict read per primitive: every card played passes here
        i = -1
        for effect in effects:
            if enter is not None:
                i += 1
                enter(state, frame, i, effect)
            check = checks.get(type(effect))
            if check is None:
                self._played(effect, kit_rules)
            else:
                try:
                    check(state, frame, effect, event)
                except Refusal as refusal:
                    raise as_violation(refusal, kit_rules) from None

    def _played(self, effect: fx.AnyEffect, kit_rules: Mapping[str, str]) -> None:
        """A primitive with nothing to check passes, if the game plays it (one adopted, then
        forgotten, is refused)."""
        if type(effect) not in self.applies:
            tag = fx.tag_of(effect)
            raise as_violation(Refusal(UNPLAYED, "the card cannot be played this way: this game "
                                       f"does not play its {tag!r}", effect=tag), kit_rules)

    def resolve(self, state: S, frame: X, todo: list[fx.AnyEffect], out: list[Any],
                waits: Callable[[], bool] | None = None, enter: Enter[S, X] | None = None,
                start: int = 0) -> bool:
        """The apply pass: the card's continuation ``todo`` (its primitives still to apply,
        the ``start``-th of the card first) is applied from the front, each taken off before
        it acts, until ``waits`` says the card waits; True when nothing is left of it."""
        applies = self.applies  # the hot loop: a dict read per primitive
        i = start
        while todo:
            effect = todo.pop(0)
            if enter is not None:
                enter(state, frame, i, effect)
            i += 1
            applies[type(effect)](state, frame, effect, out)
            if waits is not None and waits():
                return not todo
        return True

    def plays(self) -> frozenset[type]:
        """The primitives this game plays."""
        return frozenset(self.applies)

    def unplayed(self, effects: Iterable[fx.AnyEffect]) -> list[str]:
        """The tags of the primitives in ``effects`` (nested ones included) this game does not
        play, each once, in the order met."""
        out: list[str] = []
        for e in fx.walk(list(effects)):
            tag = fx.tag_of(e)
            if type(e) not in self.applies and tag not in out:
                out.append(tag)
        return out
