"""A held card or roll: it happens when the next event that is not an answer to it comes.

Quest holds a launched card that needs no die while the table may still answer it
(R-KBQ-32); KinderBunnies holds a roll while a Re-Roll may still be played (R-KIN-15). In
both, the next event that is not an answer first lets the held thing happen, then acts, on a
copy of the state that replaces it only if the event is legal: a refused event leaves the
position exactly as it was. Each game says what it holds and what answers it; the trying on a
copy is this one function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engine.rules import Effect


class Copyable(Protocol):
    def copy(self) -> Any: ...


T = TypeVar("T", bound=Copyable)


def after_held(state: T, event: Any, handler: Callable[[T, Any], tuple[Effect, ...]],
               release: Callable[[T, list[Effect]], None],
               adopt: Callable[[T, T], None]) -> tuple[Effect, ...]:
    """``event`` once what ``state`` holds has happened (``release`` lets it happen on the
    copy, saying its effects), tried on a copy that ``adopt`` makes the state only when the
    handler accepts the event."""
    trial: T = state.copy()
    out: list[Effect] = []
    release(trial, out)
    out.extend(handler(trial, event))
    adopt(state, trial)
    return tuple(out)
