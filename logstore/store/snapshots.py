"""Engine states stored as snapshots, so that replaying a stored game can start near the
position wanted instead of at event 1.

A state is stored with the ruleset's typed codec (engine.codec): MessagePack of a schema
built from the state class's annotations. Loading creates only the types the schema names
and checks every value, so a store file from somebody else cannot run code here; a state
class that changed since the snapshot was written has another fingerprint (the
``layout`` column), and its old snapshots are ignored and rebuilt, never half-loaded.
Snapshots are derived data: one that does not load is skipped, and the events are replayed.
"""

from __future__ import annotations

from typing import Any

from engine.codec import CodecError
from engine.ruleset import GameState, Ruleset

SNAPSHOT_EVERY = 256
"""The store keeps a snapshot every K events: resuming a stored game applies fewer than K."""


def layout(ruleset: Ruleset[Any, Any]) -> str:
    """What a snapshot must match to be loaded: the codec's fingerprint of the state class."""
    return ruleset.codec.fingerprint


def dump_state(ruleset: Ruleset[Any, Any], state: GameState) -> bytes:
    return ruleset.codec.encode(state)


def load_state(ruleset: Ruleset[Any, Any], data: bytes) -> GameState | None:
    """The state in ``data`` if it is one of this ruleset's states; else None."""
    try:
        state: GameState = ruleset.codec.decode(data)
    except CodecError:
        # "No usable snapshot": the caller replays from the events.
        return None
    return state
