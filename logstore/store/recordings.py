"""Where a game recorded at the table is also written: the record file ``warren record
--out`` keeps up to date, remembered so that ``--resume`` goes on writing it.

One row per game (the last file named wins: a scorekeeper may move the file). This is a
note about the recording session, not part of the game: the events and their chain are
untouched, and a store without the table simply remembers no file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from logstore.store.event_store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS recordings (
    game_id TEXT PRIMARY KEY,
    out TEXT NOT NULL                  -- the record file kept up to date while recording
);
"""


def install(conn: sqlite3.Connection) -> None:
    """Create the table if it is missing (writers only)."""
    conn.executescript(SCHEMA)


def remember(store: Store, game_id: str, out: Path) -> None:
    """Keep ``out`` as the file ``game_id`` is recorded into."""
    install(store.conn)
    with store.conn:
        store.conn.execute("INSERT INTO recordings (game_id, out) VALUES (?, ?) "
                           "ON CONFLICT (game_id) DO UPDATE SET out = excluded.out",
                           (game_id, str(out.resolve())))


def remembered(store: Store, game_id: str) -> Path | None:
    """The file ``game_id`` was last recorded into, or None."""
    present = store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'recordings'").fetchone()
    if present is None:
        return None
    row = store.conn.execute("SELECT out FROM recordings WHERE game_id = ?", (game_id,)).fetchone()
    return None if row is None else Path(row[0])
