"""Engine states stored as snapshots, so that replaying a stored game can start near the
position wanted instead of at event 1.

A state is stored with the ruleset's typed codec (engine.codec): MessagePack of a schema
built from the state class's annotations. Loading creates only the types the schema names
and checks every value, so a store file from somebody else cannot run code here; a state
class that changed since the snapshot was written has another fingerprint (the
``layout`` column), and its old snapshots are ignored and rebuilt, never half-loaded.

A snapshot stands for the events before it, so it carries what ties it to them: ``after``,
the :func:`anchor` of the event line it follows (the sha256 of that line's stored text), and
``digest``, an HMAC-SHA256 over the game, the seq, the layout, the anchor and the state
itself, under a key that is not in the store (:func:`snapshot_key`). A snapshot is loaded
only if both still match: a byte of it edited, a snapshot of another game or position moved
in, a state re-encoded and its digest recomputed (a plain hash anybody can recompute; the
key nobody has who has only the store file), or a store copied from another machine or
user, whose snapshots were signed with another key: each is skipped and the events are
replayed instead, and ``warren verify`` rebuilds them. ``verify`` also replays every game
and compares each snapshot with the state its events give. Snapshots are derived data: one
that does not load is skipped, and the events are replayed.

The key: 32 random bytes in ``warren/snapshot.key`` under the user's config folder
(``$XDG_CONFIG_HOME``, else ``~/.config``), or the file ``$WARREN_SNAPSHOT_KEY`` names,
created on first use readable by its user only. A key file that others may read, or that
cannot be read or created, is not used: this process then signs with a key of its own that
dies with it, so its snapshots are trusted by nobody after it (slower, never wrong).
"""

from __future__ import annotations

import errno
import hmac
import os
import secrets
import stat
from functools import cache
from hashlib import sha256
from pathlib import Path
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


KEY_ENV = "WARREN_SNAPSHOT_KEY"
"""The environment variable that names another key file (tests, several users' services)."""

KEY_BYTES = 32


def key_path() -> Path:
    """Where the snapshot key lives (see the module docstring)."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "warren" / "snapshot.key"


_problem: list[str] = []


def key_problem() -> str | None:
    """Why this process signs with a key of its own, if it does (the key file could not be
    used): the command line says so, since nothing signed now is trusted after it."""
    return _problem[0] if _problem else None


@cache
def snapshot_key() -> bytes:
    """The key snapshots (and the store's proofs, logstore.store.proof) are signed with
    (read, or created on first use; see the module docstring). Cached for the process."""
    path = key_path()
    _problem.clear()  # said of an earlier key (a test, a process that changed WARREN_SNAPSHOT_KEY)
    for _ in range(2):
        try:
            return _read_key(path)
        except FileNotFoundError:
            pass
        except OSError as exc:
            _problem[:] = [f"the warren key file {path} cannot be used ({exc.strerror or exc}): "
                           "what this run signed (snapshots, the store's proofs) is trusted by no "
                           "later run; `warren verify --adopt` signs it again with a usable key"]
            break
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # another process made it just now: read that one
        except OSError as exc:
            _problem[:] = [f"the warren key file {path} cannot be created ({exc.strerror or exc}): "
                           "what this run signed is trusted by no later run"]
            break
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(KEY_BYTES))
    return secrets.token_bytes(KEY_BYTES)  # this process's own: trusted by nobody after it


def _read_key(path: Path) -> bytes:
    # Non-blocking: a FIFO put where the key file goes would otherwise hang every command.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise PermissionError(errno.EPERM, "not a regular file")
        if info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise PermissionError(errno.EPERM, "others may read it, or it is not this user's")
        key = handle.read(KEY_BYTES + 1)
    if len(key) != KEY_BYTES:
        raise PermissionError(errno.EPERM, f"it does not hold a key of {KEY_BYTES} bytes")
    return key


def digest(game_id: str, seq: int, shape: str, after: str, state: bytes) -> str:
    """The digest a snapshot row carries: any change to any of its columns changes it, and
    nobody without the key (:func:`snapshot_key`) can make one that holds."""
    head = f"warren snapshot\x00{game_id}\x00{seq}\x00{shape}\x00{after}\x00".encode()
    return hmac.new(snapshot_key(), head + state, sha256).hexdigest()


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
