"""The store's tables and the triggers that keep the event log append-only.

``events`` (a view over ``event_lines`` and ``game_keys``, logstore.store.lines) gives every
header and event line as it arrived (terminator included), the header as seq 0; ``seals``
holds a record's seal lines (docs/record-format.md#seal-lines),
each keyed by the number of events before it, so an export is the lines concatenated in
seq order with each seal line after the event it follows. (A line appended to a record
that had no final newline carries its terminator in front instead, which keeps the
concatenation a valid record in the file's own style.) ``games`` holds the header's
facts, which never change, beside the verdict of the last replay, which is derived and may
be recomputed. ``snapshots`` holds derived engine states (see logstore.store.snapshots).

The triggers live in the database, so they hold for every client, not only for warren.
One BEFORE INSERT trigger requires each new line to be the game's last seq + 1: that
refuses a gap, and also an existing (game_id, seq), which is what stops ``INSERT OR
REPLACE`` from a plain sqlite3 connection (recursive triggers off, so the REPLACE's
hidden delete would not fire the DELETE trigger).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from logstore.store import lines, proof
from logstore.store.feed import BUMP_SQL

SCHEMA_VERSION = 6
"""Stored in ``PRAGMA user_version``; a newer store is refused by an older warren.
2 added ``seals``; 3 gave ``snapshots`` the hash of the line they follow and a digest; 4
counts the store's changes itself (``changes``) and leaves the projections' bookkeeping to
them; 5 keeps each line split around its hash, the hash as bytes, under the game's number
(``event_lines``, ``game_keys``; the ``events`` view rebuilds the lines); 6 signs each game and
the store (``proofs``, ``store_proof``: logstore.store.proof), lets only warren write the core
tables, numbers games without a gap, and adds the views a person reads in other tools
(``game_events``, ``results``: logstore.store.described)."""

LINE_TABLES = """
CREATE TABLE IF NOT EXISTS game_keys (
    key INTEGER PRIMARY KEY,          -- the game's number in this store, in the order games came
    game_id TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS event_lines (
    id INTEGER PRIMARY KEY,           -- game_keys.key * 2^24 + seq (0 is the header line)
    type TEXT NOT NULL,               -- 'header' for seq 0
    actor INTEGER,
    head TEXT NOT NULL,               -- the line before "hash":" (the whole line when hash is NULL)
    hash BLOB,                        -- the line's hash, 32 bytes
    tail TEXT NOT NULL                -- the line after the hash's closing quote, terminator included
);
"""
"""Where the lines live (logstore.store.lines)."""

SCHEMA = LINE_TABLES + proof.TABLES + """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    source TEXT NOT NULL,
    created TEXT NOT NULL,
    players TEXT NOT NULL,            -- JSON array of names in seat order
    options TEXT NOT NULL,            -- JSON object, as in the header
    chain TEXT NOT NULL CHECK (chain IN ('sealed', 'unsealed')),
    parent_game TEXT,                 -- what-if branches: the game and seq they leave
    parent_seq INTEGER,
    imported_at TEXT NOT NULL,
    -- the verdict of the last replay: derived from events, may be recomputed
    n_events INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    violation_seq INTEGER,
    violation_rule TEXT,
    violation_message TEXT,
    over INTEGER NOT NULL,
    winners TEXT,                     -- JSON array of seats, once the game is over
    scores TEXT                       -- JSON array, where the game keeps score
);
CREATE INDEX IF NOT EXISTS games_by_ruleset ON games (ruleset, game_id);

-- type and actor as +l.type, +l.actor: a filter on them then scans the lines once, each
-- finding its game by one lookup, where SQLite would otherwise build an automatic index
-- on type and walk it once per game (14 s for a count over 1,500 games, Datasette's way)
CREATE VIEW IF NOT EXISTS events AS
    SELECT k.game_id AS game_id, """ + lines.SEQ_SQL + """ AS seq, +l.type AS type, +l.actor AS actor,
           """ + lines.LINE_SQL + """ AS line
    """ + lines.LINES_OF + """;

CREATE VIEW IF NOT EXISTS game_events AS
    SELECT e.game_id AS game_id, g.ruleset AS ruleset, e.seq AS seq, e.type AS type, e.actor AS actor,
           json_extract(g.players, '$[' || e.actor || ']') AS player,
           trim(e.line, char(13, 10)) AS line
    FROM games AS g JOIN events AS e ON e.game_id = g.game_id;

CREATE VIEW IF NOT EXISTS results AS
    SELECT g.game_id AS game_id, g.ruleset AS ruleset, g.created AS created, g.source AS source,
           json_array_length(g.players) AS n_players,
           (SELECT group_concat(p.value, ', ') FROM json_each(g.players) AS p) AS players,
           g.n_events AS events,
           CASE WHEN NOT g.ok THEN 'illegal at event ' || g.violation_seq || ' (' || g.violation_rule || ')'
                WHEN g.over THEN 'over' ELSE 'in play' END AS status,
           (SELECT group_concat(json_extract(g.players, '$[' || w.value || ']'), ', ')
            FROM json_each(g.winners) AS w) AS winners,
           g.scores AS scores, g.chain AS chain, g.parent_game AS branch_of
    FROM games AS g;

CREATE TABLE IF NOT EXISTS seals (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,             -- the events before the seal line (its place)
    line TEXT NOT NULL,               -- the raw seal line with its terminator
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    count INTEGER NOT NULL,           -- writes counted (logstore.store.feed: what derived data reads)
    store TEXT NOT NULL               -- this store's own random id, drawn at its first write
);

CREATE TABLE IF NOT EXISTS snapshots (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    layout TEXT NOT NULL,             -- see logstore.store.snapshots.layout
    state BLOB NOT NULL,
    after TEXT NOT NULL,              -- the anchor of the event line it follows (snapshots.anchor)
    digest TEXT NOT NULL,             -- sha256 over game, seq, layout, anchor and state
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""

WARREN_TABLES = frozenset({
    "games", "events", "game_keys", "event_lines", "seals", "snapshots", "branches", "rulings",
    "recordings", "analyses", "win_models",
    "changes", "player_changes", "plays", "proofs", "store_proof", "game_events", "results",
    # format 3 and before: the projections' bookkeeping, which now lives beside the store
    "analytics_state", "analytics_games", "analytics_parts",
})
"""Tables warren keeps in a store (the core's, branches', rulings', the players' changes and
the change counter): a file with tables of its own besides these is somebody else's database."""

MIGRATIONS: dict[int, str] = {
    # 1 -> 2: seals are a new table (created by SCHEMA).
    2: "",
    # 2 -> 3: snapshots are derived data; the old ones had no anchor, so they go.
    3: "DROP TABLE IF EXISTS snapshots",
    # 3 -> 4: the projections keep their bookkeeping in a catalog of their own (beside the
    # store, logstore.analytics.projections); the store counts its changes itself.
    4: "DROP TRIGGER IF EXISTS analytics_games_inserted; DROP TRIGGER IF EXISTS analytics_games_updated; "
       "DROP TABLE IF EXISTS analytics_state; DROP TABLE IF EXISTS analytics_games; "
       "DROP TABLE IF EXISTS analytics_parts",
    # 4 -> 5: the lines move into event_lines, split around their hash (_move_lines, after
    # these statements); the old table's triggers go with it, and SCHEMA creates the view in
    # its place.
    5: "DROP VIEW IF EXISTS game_events; DROP VIEW IF EXISTS results; "  # over events: made again
       "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete; "
       "DROP TRIGGER IF EXISTS events_in_order; DROP TRIGGER IF EXISTS seals_at_the_end; "
       "ALTER TABLE events RENAME TO events_v4; "
       + LINE_TABLES +
       "; INSERT INTO game_keys (game_id) SELECT game_id FROM games ORDER BY rowid",
    # 5 -> 6: proofs (logstore.store.proof), made after the statements; the events view
    # joins its lines both ways (logstore.store.lines.LINES_OF), so it is made anew.
    6: "DROP VIEW IF EXISTS events",
}
"""Version -> what brings a store of the version before up to it (then SCHEMA runs)."""

LINES_SPLIT = 5
"""The version whose step moves the lines into ``event_lines`` (run only on a table ``events``)."""

PROVED = 6
"""The version from which every game and the store are signed (logstore.store.proof): an older
store's games are signed as they are when it is brought up."""

SPAN = lines.SPAN
LINES_OF = lines.LINES_OF

# RAISE takes one string literal, so the message is assembled here ('' is a quote in SQL).
_IN_ORDER = (
    "warren events are append-only: a new line must be the game''s last seq + 1 "
    "(an existing seq is never replaced, a gap never opened)"
)

_VIEW_INSERT = (
    "warren events are append-only and written by warren only, which keeps each line split "
    "around its hash: INSERT into the events view refused"
)

def _refusing(name: str, when: str, table: str, what: str) -> str:
    """A trigger that refuses every ``when`` (``BEFORE UPDATE``...) on ``table``: "warren
    ``what``: UPDATE refused" (``what`` with a colon: the whole message)."""
    message = what if ":" in what else f"warren {what}: {when.split()[-1]} refused"
    return (f"CREATE TRIGGER IF NOT EXISTS {name} {when} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{message}'); END;")


def append_only(table: str, what: str) -> str:
    """The two triggers that keep one of warren's side tables append-only (branches, rulings,
    player changes, plays): UPDATE and DELETE refused, "warren ``what`` are append-only"."""
    return "\n".join(_refusing(f"{table}_no_{op.lower()}", f"BEFORE {op}", table, f"{what} are append-only")
                     for op in ("UPDATE", "DELETE"))


_WARREN_ONLY = (
    "warren writes this table itself (the lines, row and proof of a game change together, and "
    "the store signs them): write through warren"
)


def _warren_only(name: str, when: str, table: str) -> str:
    """A trigger that lets only warren's own connection ``when`` (``BEFORE INSERT``...) on
    ``table``: any other client has no function :data:`proof.WRITER`, so its statement fails
    before it writes anything (logstore.store.proof)."""
    return (f"CREATE TRIGGER IF NOT EXISTS {name} {when} ON {table} "
            f"WHEN {proof.WRITER}() IS NOT 1 BEGIN SELECT RAISE(ABORT, '{_WARREN_ONLY}'); END;")


_GUARDED = {
    "lines": ("event_lines", ("INSERT",)),
    "game_keys": ("game_keys", ("INSERT",)),
    "seals": ("seals", ("INSERT",)),
    "games": ("games", ("INSERT", "UPDATE")),
    "proofs": ("proofs", ("INSERT", "UPDATE", "DELETE")),
    "store_proof": ("store_proof", ("INSERT", "UPDATE", "DELETE")),
}
"""What only warren writes: table and statements (the others on these tables are refused to
everyone by the triggers below)."""

KEY_LIMIT = (1 << 63) // lines.SPAN - 1
"""The largest game number whose lines' integers fit SQLite's 64 bits."""

TRIGGERS: dict[str, str] = {
    **{name: _warren_only(name, f"BEFORE {op}", table)
       for short, (table, ops) in _GUARDED.items() for op in ops
       for name in (f"{short}_by_warren_{op.lower()}",)},
    "game_keys_numbered": f"""
        CREATE TRIGGER IF NOT EXISTS game_keys_numbered AFTER INSERT ON game_keys
        WHEN NEW.key IS NOT (SELECT MAX(key) FROM game_keys)
          OR (NEW.key > 1 AND NOT EXISTS (SELECT 1 FROM game_keys WHERE key = NEW.key - 1))
          OR NEW.key > {KEY_LIMIT}
        BEGIN SELECT RAISE(ABORT,
            'warren numbers games 1, 2, 3... in the order they come: that number is not the next'); END;
    """,
    "events_no_update": _refusing("events_no_update", "BEFORE UPDATE", "event_lines",
                                 'events are append-only'),
    "events_no_delete": _refusing("events_no_delete", "BEFORE DELETE", "event_lines",
                                 'events are append-only'),
    "events_in_order": f"""
        CREATE TRIGGER IF NOT EXISTS events_in_order BEFORE INSERT ON event_lines
        WHEN NEW.id IS NOT COALESCE(
            (SELECT MAX(id) FROM event_lines WHERE id BETWEEN (NEW.id / {SPAN}) * {SPAN}
                                                    AND (NEW.id / {SPAN}) * {SPAN} + {SPAN - 1}),
            (NEW.id / {SPAN}) * {SPAN} - 1) + 1
          OR NOT EXISTS (SELECT 1 FROM game_keys WHERE key = NEW.id / {SPAN})
        BEGIN SELECT RAISE(ABORT, '{_IN_ORDER}'); END;
    """,
    "events_view_no_insert": _refusing("events_view_no_insert", "INSTEAD OF INSERT", "events",
                                      _VIEW_INSERT),
    "events_view_no_update": _refusing("events_view_no_update", "INSTEAD OF UPDATE", "events",
                                      'events are append-only'),
    "events_view_no_delete": _refusing("events_view_no_delete", "INSTEAD OF DELETE", "events",
                                      'events are append-only'),
    "game_keys_fixed": _refusing("game_keys_fixed", "BEFORE UPDATE", "game_keys",
                                'game numbers never change'),
    "game_keys_no_delete": _refusing("game_keys_no_delete", "BEFORE DELETE", "game_keys",
                                    'game numbers are never deleted'),
    "game_keys_no_replace": """
        CREATE TRIGGER IF NOT EXISTS game_keys_no_replace BEFORE INSERT ON game_keys
        WHEN EXISTS (SELECT 1 FROM game_keys WHERE game_id = NEW.game_id)
          OR EXISTS (SELECT 1 FROM game_keys WHERE key = NEW.key)
        BEGIN SELECT RAISE(ABORT, 'warren game numbers are never replaced: game_id already stored'); END;
    """,
    "seals_no_update": _refusing("seals_no_update", "BEFORE UPDATE", "seals",
                                'seal lines are append-only'),
    "seals_no_delete": _refusing("seals_no_delete", "BEFORE DELETE", "seals",
                                'seal lines are append-only'),
    "seals_at_the_end": f"""
        CREATE TRIGGER IF NOT EXISTS seals_at_the_end BEFORE INSERT ON seals
        WHEN NEW.seq IS NOT (SELECT MAX(l.id) - k.key * {SPAN} {LINES_OF} WHERE k.game_id = NEW.game_id)
            OR EXISTS (SELECT 1 FROM seals WHERE game_id = NEW.game_id AND seq = NEW.seq)
        BEGIN SELECT RAISE(ABORT,
            'warren seal lines follow the game''s last line, once (never inserted in the past)'); END;
    """,
    "games_counted_insert": f"""
        CREATE TRIGGER IF NOT EXISTS games_counted_insert AFTER INSERT ON games
        BEGIN {BUMP_SQL}; END;
    """,
    "games_counted_update": f"""
        CREATE TRIGGER IF NOT EXISTS games_counted_update AFTER UPDATE ON games
        BEGIN {BUMP_SQL}; END;
    """,
    "games_no_delete": _refusing("games_no_delete", "BEFORE DELETE", "games",
                                'games are never deleted'),
    "games_no_replace": """
        CREATE TRIGGER IF NOT EXISTS games_no_replace BEFORE INSERT ON games
        WHEN EXISTS (SELECT 1 FROM games WHERE game_id = NEW.game_id)
        BEGIN SELECT RAISE(ABORT, 'warren games are never replaced: game_id already stored'); END;
    """,
    "games_header_fixed": """
        CREATE TRIGGER IF NOT EXISTS games_header_fixed BEFORE UPDATE OF
            game_id, ruleset, source, created, players, options, chain,
            parent_game, parent_seq, imported_at ON games
        BEGIN SELECT RAISE(ABORT,
            'warren games keep their header facts: only the verdict columns may change'); END;
    """,
}
"""Trigger name -> DDL. ``table.transform()`` in sqlite-utils drops triggers silently, so
every opening of a store recreates any that are missing."""

COUNTING = frozenset({"games_counted_insert", "games_counted_update"})
"""The triggers that count the store's changes (logstore.store.feed)."""


_MADE = re.findall(r"CREATE (?:TABLE|VIEW|INDEX) IF NOT EXISTS (\w+)", SCHEMA)
"""Every table, view and index SCHEMA makes."""


def missing_triggers(conn: sqlite3.Connection) -> list[str]:
    """The triggers (and, as ``schema:NAME``, the tables, views and indexes) a store lacks:
    opening it makes them again (a view dropped, a trigger a transform dropped)."""
    have = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    return [name for name in TRIGGERS if name not in have] + [f"schema:{n}" for n in _MADE if n not in have]


def install(conn: sqlite3.Connection) -> None:
    """Bring the store up to SCHEMA_VERSION and create what is missing (tables, indexes,
    triggers), in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        moved = False
        if version > 0:
            for step in range(version + 1, SCHEMA_VERSION + 1):
                if step == LINES_SPLIT and not _is_table(conn, "events"):
                    continue  # already split (a store whose version number says less)
                moved = moved or step == LINES_SPLIT
                for statement in MIGRATIONS.get(step, "").split(";"):
                    if statement.strip():
                        conn.execute(statement)
                if step == LINES_SPLIT:
                    _move_lines(conn)
        for statement in SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        missing = [name for name in missing_triggers(conn) if name in TRIGGERS]
        for name in missing:
            conn.execute(TRIGGERS[name])
        if 0 < version < PROVED:
            proof.prove_all(conn)
        if COUNTING & set(missing):
            # Writes made while the counter's triggers were missing went uncounted: count one
            # now, so whatever is derived from the store looks at every game again.
            conn.execute(BUMP_SQL)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if moved:
        # The old lines' pages are free now: give them back to the file system. Another
        # process holding the store open makes this wait, then give up; the pages are
        # reused by the next imports all the same.
        with contextlib.suppress(sqlite3.OperationalError):
            conn.execute("VACUUM")


def _move_lines(conn: sqlite3.Connection) -> None:
    """A format-4 store's whole lines into ``event_lines``, each split once, game by game in
    seq order (what the append-only triggers ask), then the old table goes."""
    old = conn.execute("SELECT k.key, e.game_id, e.seq, e.type, e.actor, e.line FROM events_v4 AS e "
                       "JOIN game_keys AS k ON k.game_id = e.game_id ORDER BY k.key, e.seq")

    def moved() -> Iterator[lines.Row]:
        for key, game_id, seq, kind, actor, line in old:
            if seq >= lines.SPAN:
                raise lines.TooLong(game_id)
            yield (key * lines.SPAN + seq, kind, actor, *lines.split(line))

    conn.executemany(lines.INSERT_SQL, moved())
    conn.execute("DROP TABLE events_v4")


def version_of(path: Path) -> int | None:
    """The store format of the file at ``path``, read without writing (None: no such file, or
    not an SQLite file warren can read)."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return None
    try:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return version


def _is_table(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute("SELECT type FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return row is not None and row[0] == "table"
