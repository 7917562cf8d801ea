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

    def __init__(self, path: str, game_id: str, seq: int) -> None:
        where = "the header" if seq == 0 else f"seq {seq}"
        super().__init__(
            f"{path}: hash chain of game {game_id!r} is broken at {where} "
            f"(line {seq + 1}): the record was edited after it was sealed; refused"
        )
        self.path = path
        self.game_id = game_id
        self.seq = seq


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
