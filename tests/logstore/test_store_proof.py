"""A store that proves its own history: every way of changing a store file behind warren's
back that a plain SQL client or the file's owner has is either refused by the database or
named by ``warren verify`` (game and column), and ``warren export`` never seals what warren
did not write (logstore.store.proof, logstore.store.audit)."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.record import canon, canon_event
from engine.simulate import SimulatedGame, simulate_one
from logstore.cli import main
from logstore.store import proof, schema
from logstore.store.errors import StoreError
from logstore.store.event_store import Store
from logstore.store.lines import SPAN
from logstore.store.snapshots import snapshot_key

ALL_TRIGGERS = "SELECT name FROM sqlite_master WHERE type = 'trigger'"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def sims() -> list[SimulatedGame]:
    return [simulate_one(BUNNIES, 31, i) for i in range(3)]


@pytest.fixture
def db(tmp_path: Path, sims: list[SimulatedGame]) -> Path:
    path = tmp_path / "warren.db"
    with Store(path) as store:
        for i, game in enumerate(sims):
            store.import_bytes(b"".join(game.lines()), f"{i}.jsonl")
    return path


def owner(db: Path) -> sqlite3.Connection:
    """The file's owner with plain sqlite3, every trigger dropped first."""
    conn = sqlite3.connect(db)
    for (name,) in conn.execute(ALL_TRIGGERS).fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    return conn


def key_of(conn: sqlite3.Connection, game_id: str) -> int:
    return int(conn.execute("SELECT key FROM game_keys WHERE game_id = ?", (game_id,)).fetchone()[0])


def verify_json(db: Path, *ids: str) -> tuple[int, list[dict[str, object]]]:
    code, out, _ = run("verify", "--db", str(db), "--json", *ids)
    return code, [json.loads(line) for line in out.splitlines()]


def columns(found: list[dict[str, object]], game_id: str) -> set[str]:
    row = next(r for r in found if r.get("game_id") == game_id)
    return {str(f["column"]) for f in row["findings"]}  # type: ignore[union-attr, index]


def forged_event(conn: sqlite3.Connection, game_id: str) -> tuple[int, str]:
    """A correctly chained line after the game's last stored line (and its seal)."""
    key = key_of(conn, game_id)
    last = conn.execute("SELECT line FROM seals WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                        (game_id,)).fetchone()[0]
    n = conn.execute(f"SELECT MAX(id) - {key} * {SPAN} FROM event_lines WHERE id BETWEEN ? AND ?",
                     (key * SPAN, key * SPAN + SPAN - 1)).fetchone()[0]
    prev = json.loads(last)["hash"]
    body = {"seq": n + 1, "type": "pass", "actor": 0}
    body["hash"] = hashlib.sha256(prev.encode() + canon_event(body)).hexdigest()
    return key * SPAN + n + 1, canon_event(body).decode() + "\n"


def test_a_clean_store_verifies(db: Path, sims: list[SimulatedGame]) -> None:
    code, found = verify_json(db)
    assert code == 0
    assert [r["proof"] for r in found] == ["proved"] * 3
    assert all(r["findings"] == [] for r in found)


def test_plain_sqlite3_cannot_write_a_line_after_the_seal(db: Path, sims: list[SimulatedGame]) -> None:
    game_id = sims[0].header.game_id
    conn = sqlite3.connect(db)
    at, line = forged_event(conn, game_id)
    with pytest.raises(sqlite3.DatabaseError, match="writes_by_warren_only"):
        conn.execute("INSERT INTO event_lines VALUES (?, 'pass', 0, ?, NULL, '')", (at, line))
    with pytest.raises(sqlite3.DatabaseError, match="writes_by_warren_only"):
        conn.execute("UPDATE games SET winners = '[1]' WHERE game_id = ?", (game_id,))
    conn.close()
    assert verify_json(db)[0] == 0


def test_a_line_slipped_in_after_the_seal_is_named_and_not_exported(
        db: Path, sims: list[SimulatedGame]) -> None:
    game_id = sims[0].header.game_id
    # Whoever defines the function warren's triggers ask for can write: the proof still tells.
    conn = sqlite3.connect(db)
    proof.allow_writes(conn)
    at, line = forged_event(conn, game_id)
    conn.execute("INSERT INTO event_lines VALUES (?, 'pass', 0, ?, NULL, '')", (at, line))
    conn.commit()
    conn.close()
    code, found = verify_json(db)
    assert code == 1
    assert "proof" in columns(found, game_id)
    assert columns(found, sims[1].header.game_id) == set()
    with Store(db) as store, pytest.raises(StoreError, match=r"behind warren's back.*warren verify"):
        store.export(game_id)
    code, out, err = run("export", "--db", str(db), game_id)
    assert code == 2 and out == "" and "warren verify" in err
    code, out, _ = run("verify", "--db", str(db))
    assert code == 1 and f"changed {game_id}: proof" in out


def test_a_game_cut_short_with_its_count_fixed_is_caught(db: Path, sims: list[SimulatedGame]) -> None:
    game_id = sims[1].header.game_id
    conn = owner(db)
    key = key_of(conn, game_id)
    n = len(sims[1].events)
    conn.execute("DELETE FROM event_lines WHERE id BETWEEN ? AND ?", (key * SPAN + n - 5, key * SPAN + n))
    conn.execute("DELETE FROM seals WHERE game_id = ?", (game_id,))
    conn.execute("UPDATE games SET n_events = ? WHERE game_id = ?", (n - 6, game_id))
    conn.commit()
    conn.close()
    code, found = verify_json(db)
    assert code == 1 and "proof" in columns(found, game_id)
    with Store(db) as store, pytest.raises(StoreError, match="warren verify"):
        store.export(game_id)


def test_forged_verdict_and_header_columns_are_named(db: Path, sims: list[SimulatedGame]) -> None:
    first, second = sims[0].header.game_id, sims[1].header.game_id
    with Store(db) as store:
        winners = store.game(first).winners
    assert winners is not None
    won = winners[0]
    conn = owner(db)
    conn.execute("UPDATE games SET winners = ?, ok = 0, violation_rule = 'BUN-X' WHERE game_id = ?",
                 (f"[{1 - won}]", first))
    conn.execute("UPDATE games SET players = '[\"Mallory\", \"Bo\"]' WHERE game_id = ?", (second,))
    conn.commit()
    conn.close()
    code, found = verify_json(db)
    assert code == 1
    assert {"proof", "games.winners", "games.ok", "games.violation_rule"} <= columns(found, first)
    assert {"proof", "games.players"} <= columns(found, second)
    code, out, _ = run("verify", "--db", str(db), first)
    names = [p.name for p in sims[0].header.players]
    assert f"games.winners: the store says {names[1 - won]}, a replay of its lines says {names[won]}" in out
    # What is derived is rebuilt from the lines by --adopt; the header's facts are not.
    code, _, err = run("verify", "--db", str(db), "--adopt")
    assert code == 1 and f"game {second!r} cannot be adopted" in err and "games.players" in err
    code, found = verify_json(db, first)
    assert code == 0 and found[0]["proof"] == "proved"


def test_a_header_rewritten_with_its_chain_recomputed_disagrees_with_its_row(
        db: Path, sims: list[SimulatedGame]) -> None:
    game = sims[2]
    game_id = game.header.game_id
    conn = owner(db)
    key = key_of(conn, game_id)
    header = json.loads(conn.execute("SELECT head || '\"hash\":\"' || lower(hex(hash)) || '\"' || tail "
                                     "FROM event_lines WHERE id = ?", (key * SPAN,)).fetchone()[0])
    header["players"][0]["name"] = "Mallory"
    header.pop("hash")
    header["hash"] = hashlib.sha256(canon(header)).hexdigest()
    prev = header["hash"]
    rows = conn.execute("SELECT id, head || '\"hash\":\"' || lower(hex(hash)) || '\"' || tail "
                        "FROM event_lines WHERE id BETWEEN ? AND ? ORDER BY id",
                        (key * SPAN + 1, key * SPAN + SPAN - 1)).fetchall()
    conn.execute("DELETE FROM event_lines WHERE id BETWEEN ? AND ?", (key * SPAN, key * SPAN + SPAN - 1))
    conn.execute("DELETE FROM seals WHERE game_id = ?", (game_id,))
    conn.execute("INSERT INTO event_lines VALUES (?, 'header', NULL, ?, NULL, '')",
                 (key * SPAN, canon(header).decode() + "\n"))
    for at, text in rows:
        body = json.loads(text)
        body.pop("hash")
        prev = body["hash"] = hashlib.sha256(prev.encode() + canon_event(body)).hexdigest()
        conn.execute("INSERT INTO event_lines VALUES (?, ?, ?, ?, NULL, '')",
                     (at, body["type"], body.get("actor"), canon_event(body).decode() + "\n"))
    conn.commit()
    conn.close()
    code, found = verify_json(db, game_id)
    assert code == 1 and found[0]["chain"] == "sealed"
    assert {"proof", "games.players"} <= columns(found, game_id)


def test_type_and_actor_columns_are_compared_with_their_lines(db: Path, sims: list[SimulatedGame]) -> None:
    game_id = sims[0].header.game_id
    conn = owner(db)
    key = key_of(conn, game_id)
    conn.execute("UPDATE event_lines SET type = 'correct' WHERE id = ?", (key * SPAN + 4,))
    conn.execute("UPDATE event_lines SET actor = 7 WHERE id = ?", (key * SPAN + 6,))
    conn.commit()
    conn.close()
    code, found = verify_json(db, game_id)
    assert code == 1
    seqs = {(f["column"], f["seq"]) for f in found[0]["findings"]}  # type: ignore[union-attr, index]
    assert {("event_lines.type", 4), ("event_lines.actor", 6)} <= seqs


def test_game_numbers_run_without_a_gap_and_fit_the_store(db: Path, sims: list[SimulatedGame],
                                                          tmp_path: Path) -> None:
    conn = sqlite3.connect(db)
    proof.allow_writes(conn)  # even warren's own connection keeps the numbering
    for key in ((1 << 39) - 1, 99):
        with pytest.raises(sqlite3.IntegrityError, match="numbers games 1, 2, 3"):
            conn.execute("INSERT INTO game_keys VALUES (?, 'forged')", (key,))
    conn.rollback()
    conn.close()
    game = simulate_one(BUNNIES, 32, 0)
    with Store(db) as store:
        store.import_bytes(b"".join(game.lines()), "new.jsonl")
        assert store.standing(game.header.game_id) == "proved"
    assert schema.KEY_LIMIT * SPAN + SPAN - 1 < 1 << 63


def test_a_game_deleted_whole_is_missed_by_the_store(db: Path, sims: list[SimulatedGame]) -> None:
    last = sims[2].header.game_id
    conn = owner(db)
    key = key_of(conn, last)
    every_line = (key * SPAN, key * SPAN + SPAN - 1)
    for sql, args in (("DELETE FROM event_lines WHERE id BETWEEN ? AND ?", every_line),
                      ("DELETE FROM seals WHERE game_id = ?", (last,)),
                      ("DELETE FROM snapshots WHERE game_id = ?", (last,)),
                      ("DELETE FROM proofs WHERE key = ?", (key,)),
                      ("DELETE FROM game_keys WHERE key = ?", (key,)),
                      ("DELETE FROM games WHERE game_id = ?", (last,))):
        conn.execute(sql, args)
    conn.commit()
    conn.close()
    code, found = verify_json(db)
    assert code == 1
    store_lines = [r for r in found if "store" in r]
    assert store_lines and "warren stored 3 game(s); the store now holds 2" in str(store_lines[0]["message"])


@pytest.fixture
def other_key(tmp_path: Path) -> Iterator[None]:
    before = os.environ["WARREN_SNAPSHOT_KEY"]
    os.environ["WARREN_SNAPSHOT_KEY"] = str(tmp_path / "other.key")
    snapshot_key.cache_clear()
    yield
    os.environ["WARREN_SNAPSHOT_KEY"] = before
    snapshot_key.cache_clear()


def test_a_store_from_another_key_is_unproved_until_adopted(db: Path, sims: list[SimulatedGame],
                                                            other_key: None) -> None:
    game_id = sims[0].header.game_id
    code, found = verify_json(db)
    assert code == 1 and {r.get("proof") for r in found if "game_id" in r} == {"foreign"}
    assert any(r.get("foreign") for r in found if "store" in r)
    with Store(db) as store, pytest.raises(StoreError, match=r"another warren key.*--adopt"):
        store.export(game_id)
    code, _, _ = run("verify", "--db", str(db), "--adopt")
    assert code == 0
    assert verify_json(db)[0] == 0
    with Store(db) as store:
        assert store.export(game_id) == b"".join(sims[0].lines())


def test_a_format_5_store_is_signed_when_brought_up(db: Path, sims: list[SimulatedGame]) -> None:
    conn = sqlite3.connect(db)
    for (name,) in conn.execute(ALL_TRIGGERS).fetchall():
        if "by_warren" in name or name == "game_keys_numbered":
            conn.execute(f"DROP TRIGGER {name}")
    conn.execute("DROP TABLE proofs")
    conn.execute("DROP TABLE store_proof")
    conn.execute("PRAGMA user_version = 5")
    conn.commit()
    conn.close()
    code, found = verify_json(db)
    assert code == 0 and [r["proof"] for r in found] == ["proved"] * 3
    assert schema.version_of(db) == schema.SCHEMA_VERSION
