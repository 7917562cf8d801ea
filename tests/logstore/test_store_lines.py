"""The store keeps each line split around its hash (logstore.store.lines): every line comes
back byte for byte, a store is smaller than the records it holds, and a store of format 4
(whole lines under their game id) is brought up to it when opened, with the chain and the
verdicts unchanged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from logstore.store import Store, lines, schema
from tests.logstore.analytics_corpus import fill

HASH = "0aeadb22505484235061f431de9cd344f06963a843bfe4bdfe92a482d2c8f438"


_LINE_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")))
"""What a JSON line may hold: no lone surrogates, no raw control characters."""


@given(_LINE_TEXT, _LINE_TEXT, st.sampled_from(["\n", "\r\n", ""]))
def test_a_split_line_is_rebuilt_by_the_view_byte_for_byte(before: str, after: str, end: str) -> None:
    """What the ``events`` view rebuilds in SQL from what :func:`lines.split` kept."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema.LINE_TABLES)
    cases = (f'{before}"hash":"{HASH}"{after}{end}', before + after + end,
             f'{before}"hash":"{HASH.upper()}"{after}', f'{before}"hash":"{HASH[:40]}"{after}')
    for seq, line in enumerate(cases):
        conn.execute(lines.INSERT_SQL, (seq, "x", None, *lines.split(line)))
        rebuilt = conn.execute(f"SELECT {lines.LINE_SQL} FROM event_lines AS l WHERE l.id = ?",
                               (seq,)).fetchone()[0]
        assert rebuilt == line
    if '"hash":"' not in before:
        assert lines.split(cases[0])[1] == bytes.fromhex(HASH)
    conn.close()


def test_only_a_64_digit_lowercase_hash_is_kept_as_bytes() -> None:
    assert lines.split(f'{{"actor":0,"hash":"{HASH}","seq":2}}\n') == (
        '{"actor":0,', bytes.fromhex(HASH), ',"seq":2}\n')
    for odd in (HASH.upper(), HASH[:63], HASH + "0", "x" * 64):
        line = f'{{"hash":"{odd}"}}\n'
        assert lines.split(line) == (line, None, "")


def test_a_game_of_more_lines_than_its_number_holds_is_refused_by_name() -> None:
    last = lines.SPAN - 1
    assert lines.rows_of(2, [("g", last, "draw", 0, "{}\n")])[0][0] == 3 * lines.SPAN - 1
    with pytest.raises(lines.TooLong, match="game 'g' has more than 16,777,215 events"):
        lines.rows_of(2, [("g", last + 1, "draw", 0, "{}\n")])


def _size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def test_a_store_is_smaller_than_the_records_it_holds(tmp_path: Path) -> None:
    """The whole file, its fixed pages (one or two a table and an index) included, once the
    store holds a few megabytes of records."""
    db = tmp_path / "warren.db"
    fill(db, "killer-bunnies-quest", games=40)
    with Store(db) as store:
        ids = [r.game_id for r in store.games()]
        records = sum(len(store.export(g)) for g in ids)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert _size(db) < records, (_size(db), records)


def _as_format_4(db: Path) -> None:
    """Rewrite a store the way warren of format 4 kept it: whole lines under the game id."""
    conn = sqlite3.connect(db)
    triggers = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN "
        "('events', 'event_lines', 'game_keys') OR name = 'seals_at_the_end'")]
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    conn.executescript("""
        CREATE TABLE old_events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
            actor INTEGER, line TEXT NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
        INSERT INTO old_events SELECT game_id, seq, type, actor, line FROM events;
        DROP VIEW game_events; DROP VIEW results;  -- format 6's, which format 4 had not
        DROP VIEW events; DROP TABLE event_lines; DROP TABLE game_keys;
        ALTER TABLE old_events RENAME TO events;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'warren events are append-only: DELETE refused'); END;
        PRAGMA user_version = 4;
    """)
    conn.close()


def test_a_store_of_format_4_is_brought_up_to_split_lines(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    fill(db, "kinderbunnies", games=4)
    with Store(db) as store:
        ids = [r.game_id for r in store.games()]
        exported = {g: store.export(g) for g in ids}
        verdicts = {g: store.verify(g) for g in ids}
    _as_format_4(db)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT type FROM sqlite_master WHERE name = 'events'").fetchone() == ("table",)
    conn.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        kinds = dict(store.conn.execute("SELECT name, type FROM sqlite_master WHERE name IN "
                                        "('events', 'event_lines', 'events_v4')").fetchall())
        assert kinds == {"events": "view", "event_lines": "table"}
        assert {g: store.export(g) for g in ids} == exported
        assert {g: store.verify(g) for g in ids} == verdicts
        hashed = store.conn.execute("SELECT count(*), count(hash) FROM event_lines").fetchone()
        assert hashed[0] == hashed[1] > 0  # every simulated line keeps its hash as bytes
        assert set(schema.TRIGGERS) <= {r[0] for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    fill(db, "kinderbunnies", games=2, start=4)  # and it takes new games as before
    with Store(db) as store:
        assert len(list(store.games())) == 6



def test_the_command_line_says_when_it_brings_an_older_store_up(tmp_path: Path) -> None:
    """Bringing a large store up takes minutes: the command says so, once, on stderr, and its
    own output is unchanged."""
    from click.testing import CliRunner

    from logstore.cli import main

    db = tmp_path / "old.db"
    fill(db, "bunnies", games=3)
    _as_format_4(db)
    first = CliRunner().invoke(main, ["ls", "--db", str(db), "--json"], catch_exceptions=False)
    assert first.exit_code == 0, first.output
    assert f"bringing the store {db} up to format {schema.SCHEMA_VERSION}" in first.stderr
    again = CliRunner().invoke(main, ["ls", "--db", str(db), "--json"], catch_exceptions=False)
    assert again.exit_code == 0 and again.stderr == "" and again.stdout == first.stdout
