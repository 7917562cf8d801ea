"""Quest's port for a primitive written once (engine.killer.primitive): where its pieces
live and which rule a card answers to.

A card resolves in a :class:`~engine.killer_bunnies_quest.state.Ctx`: its player is
``by``, a named player is kept in ``player`` and a bunny the card goes on in ``host``. A
card answers to its own rule, or KBQ-CARD-CUSTOM for a card of a user's deck file
(engine.killer_bunnies_quest.table.card_rule); the flow discards the card once its effects
are done unless one of them keeps it (``keep``), so nothing moves it first.
"""

from __future__ import annotations

from typing import ClassVar

from engine.killer.primitive import KeptChoices, Primitive
from engine.killer_bunnies_quest import table
from engine.killer_bunnies_quest.catalogue import QUEST
from engine.killer_bunnies_quest.state import Ctx, QuestState


class QuestPort(KeptChoices):
    fields: ClassVar[dict[str, str]] = {"player": "player", "bunny": "on"}
    """The play's field for each of the kit's choices."""
    kept: ClassVar[dict[str, str]] = {"player": "player", "bunny": "host"}
    """Where the check keeps each one."""
    game = "killer-bunnies-quest"

    def player(self, frame: Ctx) -> int:
        return frame.by

    def rule(self, state: QuestState, frame: Ctx) -> str:
        return table.card_rule(state, frame.card)

    def players(self, state: QuestState) -> list[int]:
        return [s for s in range(state.n) if state.seats[s].present]

    def bunnies(self, state: QuestState, seat: int) -> list[int]:
        spaces = state.circle.spaces
        return [b for b in state.circle.order if spaces[b].owner == seat]

    def settle(self, state: QuestState, frame: Ctx) -> None:
        return None


PORT = QuestPort()

ADOPTED: tuple[type[Primitive], ...] = ()
"""The primitives written once (engine.killer.primitive) this game plays: one line each."""

for _kind in ADOPTED:
    QUEST.adopt(_kind, PORT)
