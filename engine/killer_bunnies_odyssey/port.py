"""Odyssey's port for a primitive written once (engine.killer.primitive).

A play is planned, then carried out (engine.killer_bunnies_odyssey.cards): its player is the
plan's ``seat``; a choice the check reads is marked asked
(a play naming a choice no effect asks for is refused, ODY-CARD-1) and kept on the step
being checked (a named player in ``opponent``, a creature in ``target``). Every card answers
to ODY-CARD-1, the rule of playing a card with the choices it asks for; the card goes to
its player's discard pile once its effects are done unless one keeps it in play.
"""

from __future__ import annotations

from typing import Any

from engine.killer.primitive import Primitive
from engine.killer_bunnies_odyssey.cards import ODYSSEY, Plan
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards

FIELDS = {"player": "opponent", "bunny": "target"}
"""The play's field (and the step's) for each of the kit's choices."""


class OdysseyPort:
    game = "killer-bunnies-odyssey"

    def player(self, frame: Plan) -> int:
        return frame.seat

    def rule(self, state: OdysseyState, frame: Plan) -> str:
        return "ODY-CARD-1"

    def field(self, choice: str) -> str:
        return FIELDS[choice]

    def named(self, frame: Plan, event: Any, choice: str) -> Any:
        name = FIELDS[choice]
        frame.asked.add(name)
        value = getattr(event, name)
        setattr(frame.step, name, value)
        return value

    def chosen(self, frame: Plan, choice: str) -> Any:
        return getattr(frame.step, FIELDS[choice])

    def players(self, state: OdysseyState) -> list[int]:
        return list(range(len(state.seats)))

    def bunnies(self, state: OdysseyState, seat: int) -> list[int]:
        # the seat's bunnies in the Bunny Circle: other creatures and bunnies in a city are not
        # (as for the pink box, ODY-COND-1)
        bunny, pieces = cards(state).bunny, state.pieces
        return [b for b in state.circle.owned_by(seat) if bunny[pieces[b].kind]]

    def settle(self, state: OdysseyState, frame: Plan) -> None:
        return None


PORT = OdysseyPort()

ADOPTED: tuple[type[Primitive], ...] = ()
"""The primitives written once (engine.killer.primitive) this game plays: one line each."""

for _kind in ADOPTED:
    ODYSSEY.adopt(_kind, PORT)
