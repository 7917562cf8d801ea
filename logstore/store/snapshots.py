"""Engine states stored as snapshots, so that replaying a stored game can start near the
position wanted instead of at event 1.

A state is stored with the ruleset's typed codec (engine.codec): MessagePack of a schema
built from the state class's annotations. Loading creates only the types the schema names
and checks every value, so a store file from somebody else cannot run code here; a state
class that changed since the snapshot was written has another fingerprint (the
``layout`` column), and its old snapshots are ignored and rebuilt, never half-loaded.

A snapshot stands for the events before it, so it carries what ties it to them: ``after``,
the :func:`anchor` of the event line it follows (the sha256 of that line's stored text), and
``digest``, a sha256 over the game, the seq, the layout, the anchor and the state itself. A
snapshot is loaded only if both still match (a byte of it edited, or a snapshot of another
game or position moved in, is skipped and the events are replayed instead), and ``warren
verify`` replays every game and compares each snapshot with the state its events give, so
even a snapshot forged with a recomputed digest is found and rebuilt. Snapshots are derived
data: one that does not load is skipped, and the events are replayed.
"""

from __future__ import annotations

from hashlib import sha256
from typing import Any

from engine.codec import CodecError
from engine.ruleset import GameState, Ruleset

SNAPSHOT_EVERY = 256
"""The store keeps a snapshot every K events: resuming a stored game applies fewer than K."""


def layout(ruleset: Ruleset[Any, Any]) -> str:
    """What a snapshot must match to be loaded: the codec's fingerprint of the state class."""
    return ruleset.codec.fingerprint


def anchor(line: str) -> str:
    """What ties a snapshot to the event line it follows: the sha256 of the line as stored
    (its hash, if it has one, is part of it; an unsealed line is covered all the same)."""
    return sha256(line.encode()).hexdigest()


def digest(game_id: str, seq: int, shape: str, after: str, state: bytes) -> str:
    """The digest a snapshot row carries: any change to any of its columns changes it."""
    head = f"warren snapshot\x00{game_id}\x00{seq}\x00{shape}\x00{after}\x00".encode()
    return sha256(head + state).hexdigest()


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
