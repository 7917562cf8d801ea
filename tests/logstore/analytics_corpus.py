"""Small stores for the analytics tests: simulated games imported through the real store."""

from __future__ import annotations

from pathlib import Path

from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.store import Store


def record_bytes(ruleset: str, seed: int, index: int, players: int | None = None) -> bytes:
    game = simulate_one(get_ruleset(ruleset), seed, index, players=players)
    return b"".join(game.lines())


def fill(db: Path, ruleset: str = "bunnies", games: int = 8, *, seed: int = 3, start: int = 0,
         players: int | None = None) -> list[str]:
    """Import ``games`` simulated games into the store at ``db``; their game ids."""
    ids = []
    with Store(db) as store:
        for i in range(start, start + games):
            row = store.import_bytes(record_bytes(ruleset, seed, i, players), f"<sim {i}>")
            ids.append(row.game_id)
    return ids
