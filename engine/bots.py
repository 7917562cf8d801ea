"""Simulation bots. They choose among the legal actions a ruleset lists.

A bot decides; chance (the card a random steal takes) is then filled in by the ruleset
from the simulator's seeded generator, so a bot can never pick what chance decides.
"""

from __future__ import annotations

import random
from typing import Any

from engine.capabilities import Bot, ValueFunction
from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import Ruleset

__all__ = ["BOTS", "Bot", "RandomBot", "ValueBot", "make_bot"]


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, ruleset: Any, state: Any, seat: int, actions: list[Event]) -> Event:
        return self.rng.choice(actions)


class ValueBot:
    """The action a value function rates highest; ties broken at random. Without a value
    function (a ruleset that declares none for this bot) it plays like the random bot."""

    def __init__(self, rng: random.Random, name: str, value: ValueFunction | None) -> None:
        self.rng = rng
        self.name = name
        self.value = value

    def choose(self, ruleset: Any, state: Any, seat: int, actions: list[Event]) -> Event:
        value = self.value
        if value is None:
            return self.rng.choice(actions)
        scored = [(value(state, action), i) for i, action in enumerate(actions)]
        best = max(s for s, _ in scored)
        return actions[self.rng.choice([i for s, i in scored if s == best])]


BOTS = ("random", "greedy", "prolong")
"""The generic bots every ruleset can seat; ``greedy`` and ``prolong`` follow the value
functions a ruleset declares (Capabilities.values)."""


def make_bot(kind: str, rng: random.Random, ruleset: Ruleset[Any, Any] | None = None) -> Bot:
    """A bot by name. A ruleset's own bots (Capabilities.bots) come first, so a game can
    have a smarter player than the generic value-driven one."""
    caps = ruleset.capabilities if ruleset is not None else None
    if caps is not None and kind in caps.bots:
        return caps.bots[kind](rng)
    if kind == "random":
        return RandomBot(rng)
    if kind in ("greedy", "prolong"):
        return ValueBot(rng, kind, caps.values.get(kind) if caps is not None else None)
    known = sorted({*BOTS, *(caps.bots if caps is not None else ())})
    raise WarrenError(f"unknown bot {kind!r} (known: {', '.join(known)})")
