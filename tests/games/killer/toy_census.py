"""A toy primitive, written once, in a file of its own: the acceptance test of
engine.killer.primitive plays it in the three Killer Bunnies games (test_toy_primitive.py).

``census``: the player names another player and is told how many bunnies that player has in
play; refused when nobody (or the player himself, or nobody at the table) is named, and when
the player has fewer than ``at_least`` bunnies of his own.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.killer.catalogue import effects as fx
from engine.killer.primitive import E, Port, Primitive, S, X
from engine.killer.refusal import refuse
from engine.rules import Effect


class Census(Primitive, tag="census", frozen=True, kw_only=True):
    """Name another player: how many bunnies he has in play is said."""

    family: ClassVar[fx.Family] = "turns"
    takes: ClassVar[tuple[str, ...]] = ("player",)
    at_least: int = 0
    """The bunnies of his own the player needs to play it."""

    def check(self, port: Port[S, X, E], state: S, frame: X, event: E) -> None:
        rule, seat = port.rule(state, frame), port.player(frame)
        named = port.named(frame, event, "player")
        if named is None:
            refuse(rule, "the census names a player: name him")
        if named == seat or named not in port.players(state):
            refuse(rule, f"the census names another player at the table, not seat {named}",
                   player=named)
        mine = len(port.bunnies(state, seat))
        if mine < self.at_least:
            refuse(rule, f"seat {seat} needs {self.at_least} bunnies of his own for a census and "
                   f"has {mine}", seat=seat, bunnies=mine)

    def apply(self, port: Port[S, X, E], state: S, frame: X, out: list[Effect]) -> None:
        named = port.chosen(frame, "player")
        out.append(Effect(port.rule(state, frame), "census",
                          {"seat": port.player(frame), "player": named,
                           "count": len(port.bunnies(state, named))}))

    def options(self, port: Port[S, X, E], state: S, seat: int) -> list[dict[str, Any]]:
        return [{port.field("player"): p} for p in port.players(state) if p != seat]
