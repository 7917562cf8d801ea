"""The store as the projections read it: what changed, each game's version, and the stored
lines of many games at once.

Everything derived from the store (the analytics projections, the players' tables) reads it
through these calls and keeps its own bookkeeping elsewhere; nothing outside the store runs
SQL on its tables. The change counter is the store's own (a trigger on ``games`` bumps it on
every import, append and recheck, ``bump_changes`` on a player merge or rename), so "is
anything new since I last looked?" is one row read, however large the store.

A worker process reads through a :class:`StoreReader`: its own read-only connection to the
file, never the writer's.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.reader import array_decoder
from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import Ruleset
from logstore.store import lines

# One query per chunk gives, per game, all its stored lines joined (header first), their
# types and their actors. It reads the lines' table itself, not the ``events`` view, and
# rebuilds each line with the view's own expression (lines.LINE_SQL): the view's seq column
# is not needed here, and skipping it saves about 6% of the read (500 Bunnies games: 178 to
# 182 ms against 190 to 191 ms). Each game's lines are
# found by the range of their integer keys, so each group is concatenated in seq order; a
# game that ever comes back out of order is read again row by row
# (:meth:`StoreReader.game_in_order`).
_CHUNK_SQL = (
    f"SELECT k.game_id, CAST(group_concat({lines.LINE_SQL}, '') AS BLOB), group_concat(l.type, ','), "
    f"group_concat(ifnull(l.actor, ''), ','), count(*), min(l.id) - k.key * {lines.SPAN}, "
    f"max(l.id) - k.key * {lines.SPAN} "
    f"{lines.LINES_OF} WHERE k.game_id IN (SELECT value FROM json_each(?)) "
    "GROUP BY k.game_id ORDER BY k.game_id"
)

VERDICT_SQL = "g.ok || ':' || ifnull(g.violation_seq, '') || ':' || g.over"
"""A game's verdict as one text: it changes when a recheck judges the game otherwise."""


class FeedError(WarrenError):
    """Stored lines that cannot be read as a whole game (run ``warren verify``)."""


@dataclass(slots=True)
class StoredGame:
    """One stored game as a chunk read gives it."""

    game_id: str
    data: bytes
    """Every stored line, header first, terminators kept."""
    types: str
    """Each line's ``type`` column (``header`` first), joined by commas."""
    actors: str
    """Each line's actor as text, ``""`` for none, joined by commas."""
    lines: int


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the store knows of a game beyond its lines."""

    chain: str
    imported_at: str
    parent_game: str | None
    parent_seq: int | None


@dataclass(frozen=True, slots=True)
class GameVersion:
    """What a derived table must match to be up to date with a game."""

    game_id: str
    ruleset: str
    n_events: int
    verdict: str


class StoreReader:
    """Reading games out of a store: the writer's own connection, or a read-only one of a
    worker's (:meth:`open`)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    @classmethod
    def open(cls, path: str | Path) -> StoreReader:
        """A read-only connection of this process's own to the store at ``path``."""
        return cls(sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, timeout=30))

    def close(self) -> None:
        self.conn.close()

    def games(self, game_ids: list[str]) -> list[StoredGame]:
        """The stored lines of these games, one query for the whole chunk (by game id)."""
        out = []
        for game_id, data, types, actors, count, lo, hi in self.conn.execute(_CHUNK_SQL,
                                                                             (json.dumps(game_ids),)):
            if lo != 0 or hi != count - 1:
                raise FeedError(f"game {game_id!r}: its stored lines are not seq 0..{count - 1}; "
                                "run `warren verify`")
            out.append(StoredGame(game_id, data, types, actors, count))
        return out

    def game_in_order(self, game_id: str) -> StoredGame:
        """One game's stored lines, read line by line in seq order (the slow, sure way)."""
        rows = self.conn.execute(f"SELECT {lines.LINE_SQL}, l.type, l.actor {lines.LINES_OF} "
                                 "WHERE k.game_id = ? ORDER BY l.id",
                                 (game_id,)).fetchall()
        return StoredGame(game_id, "".join(r[0] for r in rows).encode(), ",".join(r[1] for r in rows),
                          ",".join("" if r[2] is None else str(r[2]) for r in rows), len(rows))

    def facts(self, game_ids: list[str]) -> dict[str, GameFacts]:
        """Chain, import time and branch point of these games."""
        rows = self.conn.execute(
            "SELECT game_id, chain, imported_at, parent_game, parent_seq FROM games "
            "WHERE game_id IN (SELECT value FROM json_each(?))", (json.dumps(game_ids),),
        ).fetchall()
        return {r[0]: GameFacts(*r[1:]) for r in rows}

    def versions(self) -> list[GameVersion]:
        """Every game's version, by ruleset then game id."""
        return [GameVersion(*r) for r in self.conn.execute(
            f"SELECT g.game_id, g.ruleset, g.n_events, {VERDICT_SQL} FROM games g "
            "ORDER BY g.ruleset, g.game_id")]

    def rulesets(self) -> list[str]:
        """The rulesets of the stored games, sorted."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT ruleset FROM games ORDER BY 1")]

    def change_count(self) -> int:
        """How many writes the store has counted (imports, appends, rechecks, player changes)."""
        row = self.conn.execute("SELECT count FROM changes WHERE id = 1").fetchone()
        return 0 if row is None else int(row[0])

    def identity(self) -> str:
        """This store's own id ("" before its first write): a store file replaced by another
        at the same path has another, so what was derived from the first is not taken for
        the second's."""
        row = self.conn.execute("SELECT store FROM changes WHERE id = 1").fetchone()
        return "" if row is None else str(row[0])


# -- stored lines as events: the one place they are decoded --------------------------------------
def decode_joined(ruleset: Ruleset[Any, Any], body: bytes, count: int, first: int = 1) -> list[Event] | None:
    """A game's stored event lines (joined, terminators kept) decoded in one call, or None.

    A stored line never holds a raw newline inside its JSON (strings escape it), so each
    ``\\n`` ends a line and turning them into commas gives one JSON array. None when that
    does not give ``count`` events numbered ``first``, ``first + 1``... (the caller then reads
    line by line: :func:`decode_lines`).
    """
    try:
        events: list[Event] = array_decoder(ruleset).decode(
            b"[" + body.rstrip(b"\r\n").replace(b"\n", b",") + b"]")
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    if len(events) != count:
        return None
    for i, event in enumerate(events, start=first):
        if event.seq != i:
            return None
    return events


def decode_lines(ruleset: Ruleset[Any, Any], game_id: str, lines: Iterable[str | bytes],
                 first: int = 1) -> list[Event]:
    """Stored event lines decoded one by one, numbered ``first``, ``first + 1``...; a line that
    no longer reads as an event of the game, or one out of order, is a :class:`FeedError`."""
    decode = ruleset.event_decoder.decode
    try:
        events: list[Event] = [decode(line) for line in lines if line.strip()]
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FeedError(f"game {game_id!r}: a stored line no longer decodes: {exc}") from None
    if [e.seq for e in events] != list(range(first, first + len(events))):
        raise FeedError(f"game {game_id!r}: its stored events are not in seq order")
    return events


BUMP_SQL = ("INSERT INTO changes (id, count, store) VALUES (1, 1, lower(hex(randomblob(16)))) "
            "ON CONFLICT(id) DO UPDATE SET count = count + 1")
"""Count one change (inside the writer's transaction)."""
