"""How the store keeps a line: split around its hash, which is stored as 32 bytes.

Half of a stored event line used to be its hash in hex (64 characters of a line of about 130),
and every line carried its game id. The store now keeps, per line, the text before
``"hash":"``, the hash as bytes and the text after its closing quote (``event_lines``), under
one integer: the game's number in the store (``game_keys``) times :data:`SPAN`, plus the
line's seq. A game's lines lie together in seq order, and since games are numbered as they
come, every import appends at the end of the table, which keeps its pages full. The
``events`` view puts the lines back together, byte for byte, for every reader (the export,
the chain check, the replays). A line whose hash is not 64 lowercase hex digits (a
hand-written record, a line with no hash) is kept whole.

Only warren writes lines, through :func:`split` (SQLite 3.40 has no ``unhex()``, so a plain
SQL client cannot split a line; the view refuses writes with a message saying so).
"""

from __future__ import annotations

from collections.abc import Iterable

from logstore.store.errors import StoreError

FIELD = '"hash":"'
"""The text before a line's hash value (canonical JSON, engine.record)."""

SPAN = 1 << 24
"""Seqs a game may have (16,777,216 lines); ``event_lines.id = key * SPAN + seq``."""

SHIFT = 24
"""``SPAN == 1 << SHIFT``: a line's game number is ``id >> SHIFT``."""

LINES_OF = (f"FROM game_keys AS k JOIN event_lines AS l "
            f"ON l.id BETWEEN k.key * {SPAN} AND k.key * {SPAN} + {SPAN - 1} AND k.key = l.id >> {SHIFT}")
"""Every game (``k``) and its lines (``l``), in seq order within a game. The join says both
ways how a line finds its game, so SQLite can go either way: from a game to its lines (a
range of integers, for a filter on the game) or from each line to its game (one lookup,
for a filter on the line's type or actor; with the range alone it scanned every game for
every line of the type: 3.4 s for a count in sqlite3 on a store of 1,500 games, 0.05 s now)."""
SEQ_SQL = f"l.id - k.key * {SPAN}"
"""The seq of a line ``l`` of the game ``k``."""
_ID = f"(SELECT key FROM game_keys WHERE game_id = ?) * {SPAN} + ?"
"""The integer of (game_id, seq)."""

LINE_SQL = ("CASE WHEN l.hash IS NULL THEN l.head "
            "ELSE l.head || '\"hash\":\"' || lower(hex(l.hash)) || '\"' || l.tail END")
"""The line, rebuilt in SQL from an ``event_lines`` row ``l`` (the ``events`` view)."""
LINE_AT = f"SELECT {LINE_SQL} FROM event_lines AS l WHERE l.id = {_ID}"
"""The line of (game_id, seq): one row, looked up by its integer."""
LINES_FROM = f"SELECT {LINE_SQL} FROM event_lines AS l WHERE l.id BETWEEN {_ID} AND {_ID} ORDER BY l.id"
"""A game's lines from one seq to another: (game_id, first, game_id, last)."""
GAME_LINES = f"SELECT {SEQ_SQL}, {LINE_SQL} {LINES_OF} WHERE k.game_id = ? ORDER BY l.id"
"""(seq, line) of every line of a game, in seq order."""
LAST_LINE = GAME_LINES.replace("ORDER BY l.id", "ORDER BY l.id DESC LIMIT 1")
"""(seq, line) of a game's last line."""


SNAPSHOT_LINE = f"(SELECT key FROM game_keys WHERE game_id = s.game_id) * {SPAN} + s.seq"
"""The integer of the line a snapshot ``s`` follows."""

INSERT_SQL = "INSERT INTO event_lines VALUES (?, ?, ?, ?, ?, ?)"
"""A row of :func:`rows_of`."""


class TooLong(StoreError):
    """A game of more lines than the store keeps under one number."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} has more than {SPAN - 1:,} events, more than a store "
                         "keeps for one game")


def split(line: str) -> tuple[str, bytes | None, str]:
    """``(head, hash, tail)`` with ``head + FIELD + hash.hex() + '"' + tail == line`` (what
    :data:`LINE_SQL` rebuilds); or
    ``(line, None, "")`` for a line without a 64-digit lowercase hex hash."""
    at = line.find(FIELD)
    if at < 0:
        return line, None, ""
    start = at + 8  # len(FIELD)
    digits = line[start:start + 64]
    try:
        digest = bytes.fromhex(digits)
    except ValueError:
        return line, None, ""
    # fromhex also takes capitals and spaces, which would not come back the same
    if len(digest) != 32 or line[start + 64:start + 65] != '"' or digest.hex() != digits:
        return line, None, ""
    return line[:at], digest, line[start + 65:]


Row = tuple[int, str, "int | None", str, "bytes | None", str]


def rows_of(key: int, rows: Iterable[tuple[str, int, str, int | None, str]]) -> list[Row]:
    """``event_lines`` rows for the game numbered ``key`` from ``(game_id, seq, type, actor,
    line)`` rows (the game id is the key's)."""
    out = []
    base = key * SPAN
    for game_id, seq, kind, actor, line in rows:
        if seq >= SPAN:
            raise TooLong(game_id)
        head, digest, tail = split(line)
        out.append((base + seq, kind, actor, head, digest, tail))
    return out


def split_rows(game_id: str, key: int, types: list[str], actors: list[int | None],
               parts: list[tuple[str, bytes | None, str]]) -> list[Row]:
    """``event_lines`` rows of a whole game numbered ``key`` whose lines are already split."""
    if len(parts) > SPAN:
        raise TooLong(game_id)
    base = key * SPAN
    return [(base + seq, kind, actor, head, digest, tail)
            for seq, (kind, actor, (head, digest, tail)) in enumerate(zip(types, actors, parts, strict=True))]
