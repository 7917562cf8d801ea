"""What each perspective knows of a game of Bunnies.

A seat sees its own hand, the cards of the face-up pile and the scored bunnies (they were
face up when laid), counts of everything else, and the blind cards it has looked at. A
spectator sees only what is public. The referee sees everything.
"""

from __future__ import annotations

from typing import Any

from engine.bunnies.layout import ALL_SLOTS, is_uncovered
from engine.bunnies.state import BunniesState
from engine.ruleset import Perspective

HIDDEN = "??"
"""How a face-down card the perspective has not seen is shown."""


def view(state: BunniesState, perspective: Perspective) -> dict[str, Any]:
    referee = perspective == "referee"
    seat = perspective if isinstance(perspective, int) else None
    hands: list[list[str] | int] = []
    for s in (0, 1):
        if referee or s == seat:
            hands.append(sorted(state.hands[s], key=_order))
        else:
            hands.append(len(state.hands[s]))
    blinds: dict[str, dict[str, Any]] = {}
    for slot in ALL_SLOTS:
        card = state.blinds.get(slot)
        if card is None:
            continue
        seen = referee or (seat is not None and slot in state.known[seat])
        blinds[slot] = {"card": card if seen else HIDDEN,
                        "covered": not is_uncovered(slot, state.blinds)}
    out: dict[str, Any] = {
        **state.position_view(perspective),
        "hands": hands,
        "blinds": blinds,
        "stock": list(reversed(state.stock)) if referee else len(state.stock),
        "pile": list(state.pile),
        "bunnies": [list(state.bunnies[0]), list(state.bunnies[1])],
        "bunny_action": state.owed,
        "scores": state.scores,
        "out": state.out,
    }
    return out


def _order(card: str) -> tuple[int, str]:
    from engine.bunnies.numbers import CARD_VALUE

    return CARD_VALUE[card], card[1]
