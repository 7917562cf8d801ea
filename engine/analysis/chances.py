"""Each seat's chance to win from a position: sampled worlds played to their end.

From each world (engine.analysis.worlds) the simulation bots play the game out
``rollouts`` times, chance drawn afresh each time; a seat scores 1 for a win, ``1/k`` for a
win shared by ``k`` seats (a tie), 0 otherwise, as the ruleset's outcome says. In a game
played in sides (Trust No Bunny) the winning side's players all win, so each scores 1. A
rollout that reaches :data:`MAX_ROLLOUT_EVENTS` without an end scores ``1/n`` for each of
the ``n`` seats (``1/2`` in a game of two sides): nobody was shown ahead. A seat's chance
is the mean score, with the Wilson 95% interval over ``worlds x rollouts`` plays
(engine.intervals).

The bots are ``greedy`` by default (every ruleset declares a greedy value function), so a
chance is the chance *under those bots*: docs/analysis.md says what that means for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.analysis.worlds import world_rng, worlds
from engine.intervals import wilson
from engine.record import Event
from engine.rules import RuleViolation
from engine.ruleset import GameState, Ruleset
from engine.simulate import play_from

__all__ = ["BOT", "MAX_ROLLOUT_EVENTS", "ROLLOUTS", "WORLDS", "Chances", "chances", "score"]

WORLDS = 100
"""Worlds sampled at each position, by default."""
ROLLOUTS = 4
"""Plays from each world, by default: 400 plays, so a 95% interval is at most 4.9 points
either side of its chance (1.96 x sqrt(0.25 / 400))."""
BOT = "greedy"
"""The bot every seat is played by in a rollout, by default."""
MAX_ROLLOUT_EVENTS = 5000
"""A rollout stops here if the game has not ended (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Chances:
    """Every seat's chance to win from one position, in points (0-100)."""

    points: list[float]
    low: list[float]
    high: list[float]
    plays: int
    """How many plays stand behind each figure (worlds x rollouts)."""
    unfinished: int = 0
    """Plays that reached the cap without an end."""

    def to_dict(self) -> dict[str, Any]:
        return {"points": self.points, "low": self.low, "high": self.high, "plays": self.plays,
                "unfinished": self.unfinished}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chances:
        return cls(list(data["points"]), list(data["low"]), list(data["high"]), int(data["plays"]),
                   int(data.get("unfinished", 0)))


def score(ruleset: Ruleset[Any, Any], state: GameState, seats: int) -> list[float] | None:
    """Each seat's share of the win at a finished position (None while it goes on)."""
    outcome = ruleset.outcome(state) if state.over else None
    if outcome is None:
        return None
    winners = [w for w in outcome.winners if 0 <= w < seats]
    if not winners:
        return [0.0] * seats
    # A side's win is each of its players' win (TNB-END-*); a tie is shared.
    share = 1.0 if ruleset.capabilities.sides is not None else 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(seats)]


def _unfinished(ruleset: Ruleset[Any, Any], seats: int) -> list[float]:
    """A rollout the cap stopped: nobody shown ahead (each of two sides, or each seat, even)."""
    return [0.5 if ruleset.capabilities.sides is not None else 1.0 / seats] * seats


def chances(ruleset: Ruleset[Any, Any], known: GameState, seats: int, *, worlds_n: int = WORLDS,
            rollouts: int = ROLLOUTS, seed: int = 0, key: object = 0, bot: str = BOT,
            then: Sequence[Event] = ()) -> Chances:
    """Every seat's chance from the position ``known`` (see the module docstring). With
    ``then``, the chance after those events are played in each world, their random part
    (a blind steal's card) drawn afresh (a world where one is refused counts for nothing;
    none at all gives no plays). ``key`` tells positions apart,
    so that two positions of one game draw their own worlds."""
    then = tuple(then)
    ended = score(ruleset, known, seats) if not getattr(known, "partial", False) else None
    if ended is not None and not then:
        points = [100.0 * s for s in ended]
        return Chances(points, points[:], points[:], 1)
    totals = [0.0] * seats
    plays = unfinished = 0
    kinds = [bot] * seats
    for w, world in enumerate(worlds(ruleset, known, worlds_n, seed, key)):
        try:
            for i, event in enumerate(then):
                # numbered on from the world (a seat's record may number its events otherwise)
                event = msgspec.structs.replace(event, seq=world.seq + 1)
                ruleset.apply(world, ruleset.randomize(world, event, world_rng(seed, key, "then", w, i)))
        except RuleViolation:
            continue
        for r in range(rollouts):
            play = ruleset.copy_state(world) if r < rollouts - 1 else world
            play_from(ruleset, play, kinds, world_rng(seed, key, "rollout", w, r), MAX_ROLLOUT_EVENTS)
            shares = score(ruleset, play, seats)
            if shares is None:
                unfinished += 1
                shares = _unfinished(ruleset, seats)
            for s in range(seats):
                totals[s] += shares[s]
            plays += 1
    return _said(totals, plays, unfinished)


def _said(totals: Sequence[float], plays: int, unfinished: int) -> Chances:
    points, low, high = [], [], []
    for total in totals:
        interval = wilson(total, plays) or (0.0, 1.0)
        points.append(round(100.0 * total / plays, 2) if plays else 0.0)
        low.append(round(100.0 * interval[0], 2))
        high.append(round(100.0 * interval[1], 2))
    return Chances(points, low, high, plays, unfinished)
