"""Code that runs in child processes for tests/logstore/test_store_processes.py.

It lives in an importable module (not in the test file) because the children are started
with ``spawn``: a fresh interpreter that imports what it runs.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from engine.registry import get_ruleset
from engine.ruleset import GameState
from logstore.store import StaleSeq, Store

BUNNIES = get_ruleset("bunnies")


def _choose(state: GameState, rng: random.Random) -> Any:
    assert not state.over and state.active is not None, "the game ended during the test"
    return rng.choice(BUNNIES.legal_actions(state, state.active))


def appender(db: str, game_id: str, seed: int, rounds: int, free: int, barrier: Any, out: Any) -> None:
    """Append ``rounds`` times in lockstep with another process (both naming the same
    expected seq), then ``free`` events as fast as it can, retrying on StaleSeq."""
    rng = random.Random(seed)
    lock_won: list[int] = []
    lock_stale = 0
    free_won: list[int] = []
    free_stale = 0
    with Store(db) as store:
        for _ in range(rounds):
            state = store.state_at(game_id)
            action = _choose(state, rng)
            barrier.wait(timeout=60)  # both have read the same position
            try:
                lock_won.append(store.append(game_id, [action], expect_seq=state.seq))
            except StaleSeq:
                lock_stale += 1
        for _ in range(free):
            while True:
                state = store.state_at(game_id)
                try:
                    free_won.append(store.append(game_id, [_choose(state, rng)], expect_seq=state.seq))
                    break
                except StaleSeq:
                    free_stale += 1
    out.put((seed, lock_won, lock_stale, free_won, free_stale))


class _StallingStore(Store):
    """A store that stops for good in the middle of writing its ``stall_in``-th game."""

    def __init__(self, path: str, stall_in: int, ready: Any) -> None:
        super().__init__(path)
        self.begun = 0
        self.ticks = 0
        self.stall_in = stall_in
        self.ready = ready
        # Called every 50 SQLite VM instructions: 40 calls is a few dozen rows in.
        self.conn.set_progress_handler(self._tick, 50)

    def _begin(self) -> None:
        super()._begin()
        self.begun += 1

    def _tick(self) -> int:
        if self.begun == self.stall_in and self.conn.in_transaction:
            self.ticks += 1
            if self.ticks == 40:
                self.ready.set()
                time.sleep(600)  # the parent kills us here
        return 0


def stalling_importer(db: str, folder: str, stall_in: int, ready: Any) -> None:
    _StallingStore(db, stall_in, ready).import_paths([Path(folder)])
