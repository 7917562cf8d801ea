"""What lets a store prove its own history to the owner of the warren key.

The triggers (logstore.store.schema) stop every client but warren from writing the core
tables: each write there calls :data:`WRITER`, an SQL function only warren's own connection
defines, so a plain ``sqlite3`` client, Datasette or DuckDB gets "no such function" and
nothing is written. The owner of the file can still drop the triggers. What catches that:

- ``proofs``: per game, an HMAC-SHA256 under the warren key (the snapshots' key,
  :func:`logstore.store.snapshots.snapshot_key`, kept outside the store) over the game's id,
  its number, every stored line with its ``type`` and ``actor`` columns, its seal lines and
  its whole ``games`` row. warren writes it in the same transaction as every change to the
  game (import, append, recheck).
- ``store_proof``: one row, an HMAC over how many games the store holds, so a game deleted
  whole (its lines, its row and its proof) is caught too; game numbers run 1, 2, 3... without
  a gap (a trigger), so a game deleted from the middle leaves a hole.
- ``signer``: a short fingerprint of the key that signed, so a store written under another
  key (copied from another machine or user) is told apart from a tampered one: its proofs
  cannot be checked here, which ``warren verify`` says, and ``warren verify --adopt`` signs
  it with this key after every other check passed.

``warren verify`` checks these beside what it re-derives from the lines themselves
(logstore.store.audit); ``warren export`` writes only a game whose proof holds.
"""

from __future__ import annotations

import hmac
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from hashlib import sha256
from typing import Literal

import msgspec

from logstore.store import lines
from logstore.store.snapshots import snapshot_key

WRITER = "writes_by_warren_only"
"""The SQL function every trigger guarding the core tables calls: defined on warren's own
connections only (:func:`allow_writes`), so any other client's write there fails with
"no such function: writes_by_warren_only"."""

TABLES = """
CREATE TABLE IF NOT EXISTS proofs (
    key INTEGER PRIMARY KEY,          -- game_keys.key
    signer TEXT NOT NULL,             -- the fingerprint of the key that signed (signer())
    digest BLOB NOT NULL              -- HMAC-SHA256 over the game's lines and row (game_digest)
);

CREATE TABLE IF NOT EXISTS store_proof (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    games INTEGER NOT NULL,           -- games stored (numbered 1..games)
    signer TEXT NOT NULL,
    digest BLOB NOT NULL              -- HMAC-SHA256 over the count
);
"""

GAME_COLUMNS = (
    "game_id, ruleset, source, created, players, n_events, chain, ok, violation_seq, "
    "violation_rule, violation_message, over, winners, scores, imported_at, parent_game, "
    "parent_seq, options"
)
"""The ``games`` columns, in the order the store reads them (and a proof covers them)."""

_COLUMNS = f"SELECT {lines.SEQ_SQL}, l.type, l.actor, {lines.LINE_SQL} {lines.LINES_OF} " \
           "WHERE k.key = ? ORDER BY l.id"
_json = msgspec.json.encode

Standing = Literal["proved", "tampered", "foreign", "missing"]
"""What a game's proof says: it holds under this key; it does not (something changed the
game behind warren's back); it was signed with another key; there is none."""


def _one() -> int:
    return 1


def allow_writes(conn: sqlite3.Connection) -> None:
    """Let this connection write the core tables (it is warren's own)."""
    conn.create_function(WRITER, 0, _one, deterministic=True)


def signer() -> str:
    """The fingerprint of this process's warren key: not the key, nothing it can be found from."""
    return _fingerprint(snapshot_key())


@cache
def _fingerprint(key: bytes) -> str:
    return hmac.new(key, b"warren signer", sha256).hexdigest()[:16]


def _sign(what: bytes) -> bytes:
    return hmac.new(snapshot_key(), what, sha256).digest()


def _lines_digest(rows: Iterable[tuple[int, str, int | None, str]],
                  seals: Iterable[tuple[int, str]]) -> str:
    """The sha256 of a game's stored lines (seq, type, actor, text) and its seal lines."""
    body = sha256()
    body.update("".join(f"{seq}\x1f{kind}\x1f{actor}\x1f{text}\x1e"
                        for seq, kind, actor, text in rows).encode())
    body.update("".join(f"seal {before}\x1f{text}\x1e" for before, text in seals).encode())
    return body.hexdigest()


def _signed(game_id: str, key: int, lines_digest: str, row: Sequence[object] | None) -> bytes:
    facts = _json([game_id, key, lines_digest, None if row is None else list(row)])
    return _sign(b"warren game\x00" + facts)


def _row(conn: sqlite3.Connection, game_id: str) -> Sequence[object] | None:
    found: Sequence[object] | None = conn.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)).fetchone()
    return found


def game_digest(conn: sqlite3.Connection, key: int) -> bytes | None:
    """The digest the game numbered ``key`` has now, computed from what is stored (None: no
    such game)."""
    found = conn.execute("SELECT game_id FROM game_keys WHERE key = ?", (key,)).fetchone()
    if found is None:
        return None
    game_id = found[0]
    seals = conn.execute("SELECT seq, line FROM seals WHERE game_id = ? ORDER BY seq", (game_id,))
    return _signed(game_id, key, _lines_digest(conn.execute(_COLUMNS, (key,)), seals), _row(conn, game_id))


def prove_game(conn: sqlite3.Connection, game_id: str,
               written: tuple[Sequence[str], Sequence[str], Sequence[int | None],
                              Sequence[tuple[int, str]]] | None = None) -> None:
    """Sign the game as it is stored now (inside the transaction that changed it).
    ``written``: the lines just written whole (texts, types, actors, seal lines), which
    are what the store now holds, so an import need not read them back."""
    key = conn.execute("SELECT key FROM game_keys WHERE game_id = ?", (game_id,)).fetchone()[0]
    if written is None:
        digest = game_digest(conn, key)
    else:
        texts, types, actors, seals = written
        rows = zip(range(len(texts)), types, actors, texts, strict=True)
        digest = _signed(game_id, key, _lines_digest(rows, seals), _row(conn, game_id))
    conn.execute("INSERT OR REPLACE INTO proofs VALUES (?, ?, ?)", (key, signer(), digest))


def _store_digest(games: int) -> bytes:
    return _sign(f"warren store\x00{games}".encode())


def prove_store(conn: sqlite3.Connection) -> None:
    """Sign the number of games the store holds (inside the transaction that added one)."""
    games = conn.execute("SELECT COALESCE(MAX(key), 0) FROM game_keys").fetchone()[0]
    conn.execute("INSERT OR REPLACE INTO store_proof VALUES (1, ?, ?, ?)",
                 (games, signer(), _store_digest(games)))


def prove_all(conn: sqlite3.Connection) -> int:
    """Sign every game and the store as they are (a store brought up to the format that keeps
    proofs, or adopted after ``warren verify``); the number of games signed."""
    keys = [k for (k,) in conn.execute("SELECT key FROM game_keys ORDER BY key")]
    me = signer()
    conn.executemany("INSERT OR REPLACE INTO proofs VALUES (?, ?, ?)",
                     ((k, me, game_digest(conn, k)) for k in keys))
    prove_store(conn)
    return len(keys)


def standing(conn: sqlite3.Connection, key: int) -> Standing:
    """Whether the game numbered ``key`` is as warren last wrote it (see :data:`Standing`)."""
    row = conn.execute("SELECT signer, digest FROM proofs WHERE key = ?", (key,)).fetchone()
    if row is None:
        return "missing"
    if row[0] != signer():
        return "foreign"
    now = game_digest(conn, key)
    return "proved" if now is not None and hmac.compare_digest(now, row[1]) else "tampered"


@dataclass(frozen=True, slots=True)
class StoreFinding:
    """Something wrong with the store as a whole (not one game's)."""

    what: str
    foreign: bool = False
    """Signed with another key: unproved here rather than proved wrong."""


def store_findings(conn: sqlite3.Connection) -> list[StoreFinding]:
    """What the store as a whole shows of games added or taken away behind warren's back."""
    out: list[StoreFinding] = []
    keys = [k for (k,) in conn.execute("SELECT key FROM game_keys ORDER BY key")]
    holes = [k for want, k in enumerate(keys, start=1) if k != want]
    if holes:
        out.append(StoreFinding(f"the games are not numbered 1 to {len(keys)} without a gap (a game "
                                f"before number {holes[0]} is gone)"))
    n_games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    if n_games != len(keys):
        out.append(StoreFinding(f"the store holds {n_games} game row(s) but {len(keys)} numbered game(s)"))
    orphans = conn.execute("SELECT COUNT(*) FROM proofs WHERE key NOT IN (SELECT key FROM game_keys)"
                           ).fetchone()[0]
    if orphans:
        out.append(StoreFinding(f"{orphans} game proof(s) belong to no stored game (a game was deleted)"))
    row = conn.execute("SELECT games, signer, digest FROM store_proof WHERE id = 1").fetchone()
    if row is None:
        if keys:
            out.append(StoreFinding("the store's own proof (how many games it holds) is missing"))
        return out
    games, who, digest = row
    if who != signer():
        out.append(StoreFinding("the store was signed with another warren key (copied from another "
                                "machine or user): how many games it held cannot be proved here",
                                foreign=True))
    elif not hmac.compare_digest(_store_digest(games), digest):
        out.append(StoreFinding("the store's own proof does not hold (its count of games was edited)"))
    elif games != len(keys):
        out.append(StoreFinding(f"warren stored {games} game(s); the store now holds {len(keys)}"))
    return out
