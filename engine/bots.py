"""Simulation bots. They choose among the legal actions a ruleset lists.

A bot decides; chance (the card a random steal takes) is then filled in by the ruleset
from the simulator's seeded generator, so a bot can never pick what chance decides.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import Ruleset


class Bot(Protocol):
    name: str

    def choose(self, ruleset: Ruleset, state: Any, seat: int, actions: list[Event]) -> Event: ...


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, ruleset: Ruleset, state: Any, seat: int, actions: list[Event]) -> Event:
        return self.rng.choice(actions)


class ValueBot:
    """The action a ruleset's value function rates highest; ties broken at random."""

    def __init__(self, rng: random.Random, name: str, hook: str) -> None:
        self.rng = rng
        self.name = name
        self.hook = hook

    def choose(self, ruleset: Ruleset, state: Any, seat: int, actions: list[Event]) -> Event:
        value = getattr(ruleset, self.hook, None)
        if value is None:
            return self.rng.choice(actions)
        scored = [(value(state, action), i) for i, action in enumerate(actions)]
        best = max(s for s, _ in scored)
        return actions[self.rng.choice([i for s, i in scored if s == best])]


BOTS = ("random", "greedy", "prolong")


def make_bot(kind: str, rng: random.Random, ruleset: Ruleset | None = None) -> Bot:
    """A bot by name. A ruleset may provide its own bots (a ``bots`` mapping of name to a
    class taking the generator); those come first, so a game can have a smarter player
    than the generic value-driven one."""
    provided: dict[str, Any] = getattr(ruleset, "bots", None) or {}
    if kind in provided:
        return provided[kind](rng)  # type: ignore[no-any-return]
    if kind == "random":
        return RandomBot(rng)
    if kind == "greedy":
        return ValueBot(rng, "greedy", "greedy_value")
    if kind == "prolong":
        return ValueBot(rng, "prolong", "prolong_value")
    known = sorted({*BOTS, *provided})
    raise WarrenError(f"unknown bot {kind!r} (known: {', '.join(known)})")
