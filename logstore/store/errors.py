"""Errors a user can cause in the store; each says which game and why."""

from __future__ import annotations

from engine.rules import WarrenError


class StoreError(WarrenError):
    """Any store problem a user can cause (a missing store, a refused import or append)."""


class UnknownGame(StoreError):
    """A game id the store does not hold."""

    def __init__(self, game_id: str, db: str) -> None:
        super().__init__(f"no game {game_id!r} in {db} (`warren ls` lists the stored games)")
        self.game_id = game_id


class DuplicateGame(StoreError):
    """An import or a new game whose id is already stored."""

    def __init__(self, game_id: str, db: str) -> None:
        super().__init__(f"game {game_id!r} is already in {db}; a stored game is never replaced")
        self.game_id = game_id


class BrokenChain(StoreError):
    """A sealed record whose hash chain does not hold: refused, never stored."""

    def __init__(self, path: str, game_id: str, seq: int, *, cut: bool = False) -> None:
        if cut:
            message = (f"{path}: game {game_id!r}: the record ends after seq {seq - 1} without its "
                       "closing seal line: lines are missing at the end; refused")
        else:
            where = "the header" if seq == 0 else f"seq {seq}"
            message = (f"{path}: hash chain of game {game_id!r} is broken at {where} "
                       f"(line {seq + 1}): the record was edited after it was sealed; refused")
        super().__init__(message)
        self.path = path
        self.game_id = game_id
        self.seq = seq
        self.cut = cut


class StaleSeq(StoreError):
    """An append that expected to follow a seq which is no longer the game's last."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id!r}: the append expected to follow seq {expected}, but the last "
            f"stored seq is {actual} (another writer got there first); re-read the game and retry"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class StoreUnwritable(StoreError):
    """The store cannot be written at all: a full disk, a read-only file or mount. Nothing of
    the write in progress is stored (SQLite rolls it back), and what was stored before is."""


def unwritable(exc: Exception, db: object, what: str) -> StoreError:
    """The store error for an SQLite failure while writing ``db``: what happened in words."""
    text = str(exc)
    lowered = text.lower()
    if "full" in lowered or "disk i/o error" in lowered:
        return StoreUnwritable(f"the disk holding {db} is full (or failing: SQLite says {text!r}); "
                               f"{what}, and nothing of it was kept; what was stored before is intact")
    if "readonly" in lowered or "read-only" in lowered:
        return StoreUnwritable(f"{db} is read-only (file permissions, a read-only mount or an "
                               f"immutable file); {what}")
    if "locked" in lowered or "busy" in lowered:
        return StoreError(f"{db} is busy: another writer held it too long; {what} (try again)")
    return StoreError(f"{db}: SQLite error {text!r}; {what}")
