"""Engine states stored as snapshots, so that replaying a stored game can start near the
position wanted instead of at event 1.

States are plain slots objects holding lists, dicts and sets, so pickle serialises them
quickly. A store file can come from someone else, though, and unpickling can run code; the
loader therefore accepts exactly one class, the ruleset's state class, and refuses every
other global. Snapshots are derived data: a snapshot that does not load is ignored and
can be rebuilt from the events at any time.
"""

from __future__ import annotations

import hashlib
import io
import pickle
from typing import Any, TypeVar

from engine.ruleset import GameState

State = TypeVar("State", bound=GameState)

SNAPSHOT_FORMAT = 1
"""Bumped when the way states are serialised changes, so old snapshots are ignored."""

SNAPSHOT_EVERY = 256
"""The store keeps a snapshot every K events: resuming a stored game applies fewer than K."""


class _StateOnly(pickle.Unpickler):
    def __init__(self, data: bytes, allowed: type) -> None:
        super().__init__(io.BytesIO(data))
        self._allowed = allowed

    def find_class(self, module: str, name: str) -> Any:
        cls = self._allowed
        if module == cls.__module__ and name == cls.__qualname__:
            return cls
        raise pickle.UnpicklingError(f"snapshot refers to {module}.{name}, not a warren state")


def layout(state_type: type[GameState]) -> str:
    """What a snapshot must match to be loaded: the serialisation format and the state
    class with its slots. A state class that gains or loses a field makes every older
    snapshot of it unusable (ignored, then rebuilt), never half-loaded."""
    slots = sorted({name for cls in state_type.__mro__ for name in getattr(cls, "__slots__", ())})
    digest = hashlib.sha256(",".join(slots).encode()).hexdigest()[:16]
    return f"{SNAPSHOT_FORMAT}:{state_type.__module__}.{state_type.__qualname__}:{digest}"


def dump_state(state: GameState) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def load_state(data: bytes, state_type: type[State]) -> State | None:
    """The state in ``data`` if it is a ``state_type`` and nothing else; else None."""
    try:
        state = _StateOnly(data, state_type).load()
    except Exception:
        # Any failure means "no usable snapshot": the caller replays from the events.
        return None
    return state if type(state) is state_type else None
