"""KinderBunnies' port for a primitive written once (engine.killer.primitive).

A turn's card is checked and played in a :class:`~engine.kinderbunnies.cards.Turn`: its
player is ``seat``, the rule it answers to is ``rule`` (its own card rule, else its kind's),
a named player is kept in ``owner`` and a named bunny in ``on``. The played card leaves the
hand for the discard pile before it acts, as every turn's card of the game does here.
"""

from __future__ import annotations

from typing import ClassVar

from engine.killer.primitive import KeptChoices, Primitive
from engine.kinderbunnies.cards import KINDER, Turn, played
from engine.kinderbunnies.state import KinderState


class KinderPort(KeptChoices):
    fields: ClassVar[dict[str, str]] = {"player": "player", "bunny": "on"}
    """The play's field for each of the kit's choices."""
    kept: ClassVar[dict[str, str]] = {"player": "owner", "bunny": "on"}
    """Where the check keeps each one."""
    game = "kinderbunnies"

    def player(self, frame: Turn) -> int:
        return frame.seat

    def rule(self, state: KinderState, frame: Turn) -> str:
        return frame.rule

    def players(self, state: KinderState) -> list[int]:
        return list(range(state.n))

    def bunnies(self, state: KinderState, seat: int) -> list[int]:
        return list(state.table[seat])

    def settle(self, state: KinderState, frame: Turn) -> None:
        played(state, frame)


PORT = KinderPort()

ADOPTED: tuple[type[Primitive], ...] = ()
"""The primitives written once (engine.killer.primitive) this game plays: one line each."""

for _kind in ADOPTED:
    KINDER.adopt(_kind, PORT)
