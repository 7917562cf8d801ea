"""A test game for the win chance added (logstore.analytics.wpa): Bunnies with one planted
rule, that laying a seven wins at once. Registered by the test that uses it (never an
installed ruleset)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.bunnies import Bunnies
from engine.bunnies.events import Lay
from engine.bunnies.handlers import _finish
from engine.bunnies.state import BunniesState
from engine.rules import Effect

PLANTED_RANK = "7"


class PlantedBunnies(Bunnies):
    slug: ClassVar[str] = "planted-bunnies"
    title: ClassVar[str] = "Bunnies with a planted seven"

    def build_handlers(self) -> dict[Any, Any]:
        handlers = dict(super().build_handlers())
        lay = handlers[Lay]

        def planted_lay(state: BunniesState, event: Lay) -> tuple[Effect, ...]:
            effects = lay(state, event)
            seat = event.actor
            if state.over or seat is None or not any(card[0] == PLANTED_RANK for card in event.cards):
                return effects
            out = list(effects)
            _finish(state, seat, out)
            assert state.scores is not None
            state.scores[seat] = max(state.scores) + 1  # the layer of a seven wins, whatever else
            return tuple(out)

        handlers[Lay] = planted_lay
        return handlers


RULESET = PlantedBunnies()
