"""What a ruleset offers beyond the contract, declared and typed.

The contract (engine.ruleset.Ruleset) is what every game must answer. A game may offer
more: bots of its own, value functions for the generic bots, hints for the dispute
notation, a "who could it be?" analysis for secret teams. A ruleset declares these in one
:class:`Capabilities` record, so callers ask ``ruleset.capabilities.suspects`` instead of
probing with ``getattr``, and a type checker sees what each one takes and gives.

Boards (the dashboard's drawing of a position) and canned statistics (SQL reports) are
found the same way a ruleset is, through entry points (``warren.boards``,
``warren.stats``; engine.registry), because they live above the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from engine.record import Event

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)

Perspective = int | Literal["referee", "spectator"]
"""Who is looking: a seat number, the omniscient referee, or a spectator (public only)."""


class Bot(Protocol):
    """A simulated player: picks one of the legal actions it is offered."""

    name: str

    def choose(self, ruleset: Any, state: Any, seat: int, actions: list[Event]) -> Event: ...


BotFactory = Callable[[random.Random], Bot]
"""Makes a bot from the simulator's seeded generator."""

ValueFunction = Callable[[Any, Event], float]
"""Rates an action at a state for a value-driven bot (higher is better)."""


@dataclass(frozen=True, slots=True)
class SuspectReport:
    """The "who could it be?" answer for one perspective at one position."""

    perspective: Perspective
    pairs: list[tuple[int, int]]
    """Every secret pair consistent with what the perspective knows, lower seat first."""
    probabilities: dict[int, float]
    """Seat -> chance of belonging to the secret team under :attr:`model`."""
    model: str
    deductions: list[str] = field(default_factory=list)
    """The facts that ruled pairs out, in words (players by name where the caller gave the
    names), in the order they were found."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (seats as keys become strings in JSON; here they stay ints)."""
        return {
            "perspective": self.perspective,
            "model": self.model,
            "pairs": [list(p) for p in self.pairs],
            "probabilities": dict(self.probabilities),
            "deductions": list(self.deductions),
        }


class Suspects(Protocol[S_contra]):
    def __call__(self, state: S_contra, perspective: Perspective, names: Sequence[str] | None = None,
                 /) -> SuspectReport:
        """The answer for ``perspective``; its deductions name the players by ``names``."""
        ...


@dataclass(frozen=True, slots=True)
class Capabilities(Generic[S]):
    """Everything optional a ruleset offers (all empty by default)."""

    bots: Mapping[str, BotFactory] = field(default_factory=dict)
    """Bots of the game's own, by name; they come before the generic ones of the same name."""
    values: Mapping[str, ValueFunction] = field(default_factory=dict)
    """Value functions for the generic value-driven bots: ``greedy``, ``prolong``..."""
    suspects: Suspects[S] | None = None
    """The "who could it be?" analysis, for games with secret teams."""
    action_notation: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Event type -> the fields bare values fill in the dispute notation, in order."""
    table_events: frozenset[str] | None = None
    """Event types recorded by the table (a null actor); None lets the notation find out."""
    event_rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Event type -> the rules it answers to (default: the rule ids its docstring cites)."""
    sides: Callable[[S], list[str] | None] | None = None
    """For a game played in sides (Trust No Bunny: Werebunnies and Townsfolk), the side of
    each seat at a position, once the position knows them all (None while it does not: a
    game recorded at the table whose roles nobody saw)."""
    redacts: bool = False
    """The game can write a record as one seat, or the table, saw it (``Ruleset.redact``,
    engine.redact). Without it ``warren redact`` refuses: a game whose redaction was never
    written must not hand out its whole record under the name of a redacted one."""
