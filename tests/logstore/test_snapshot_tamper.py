"""Snapshots are tamper-evident: a snapshot edited in the store file (with plain sqlite3,
no warren involved) is never used, and ``warren verify`` compares every snapshot with the
state its events give, so even a forgery with a recomputed digest is found and rebuilt."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.dispute import judge
from engine.record import event_to_dict
from engine.simulate import SimulatedGame, simulate_one
from logstore.cli import main
from logstore.store import Store
from logstore.store.snapshots import SNAPSHOT_EVERY, anchor, digest, dump_state, layout


def _long_game() -> SimulatedGame:
    for index in range(40):
        game = simulate_one(BUNNIES, 13, index)
        if len(game.events) > SNAPSHOT_EVERY + 40:
            return game
    raise AssertionError("no simulated game longer than one snapshot interval")


GAME = _long_game()
GAME_ID = GAME.header.game_id
AT = SNAPSHOT_EVERY
NEXT = event_to_dict(GAME.events[AT])  # the recorded event right after the snapshot: legal


def fresh(seq: int) -> Any:
    state = BUNNIES.setup(GAME.header)
    BUNNIES.fold(state, GAME.events[:seq])
    return state


def forged_state() -> bytes:
    """The position one event earlier, passed off as the snapshot's: whoever must act next
    differs, so the recorded next event looks illegal on it."""
    state = fresh(AT - 1)
    state.seq = AT
    assert not judge(BUNNIES, state, NEXT, n_seats=2).legal
    return dump_state(BUNNIES, state)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.db"
    with Store(path) as store:
        store.import_bytes(b"".join(GAME.lines()), "long.jsonl")
        assert store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] >= 1
    return path


def edit_snapshot(db: Path, blob: bytes, *, recompute: bool) -> None:
    conn = sqlite3.connect(db)  # plain sqlite3: no warren code runs here
    if recompute:
        after = anchor(conn.execute("SELECT line FROM events WHERE game_id = ? AND seq = ?",
                                    (GAME_ID, AT)).fetchone()[0])
        shape = layout(BUNNIES)
        conn.execute("UPDATE snapshots SET state = ?, after = ?, digest = ? WHERE game_id = ? AND seq = ?",
                     (blob, after, digest(GAME_ID, AT, shape, after, blob), GAME_ID, AT))
    else:
        conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ? AND seq = ?", (blob, GAME_ID, AT))
    conn.commit()
    conn.close()


def verdict(db: Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["dispute", "verdict", GAME_ID, "--at", str(AT),
                                       "--action", json.dumps({k: v for k, v in NEXT.items() if k != "seq"}),
                                       "--db", str(db), "--json"], catch_exceptions=False)
    return result.exit_code, json.loads(result.stdout)


def test_an_edited_snapshot_is_not_used_and_the_verdict_stands(db: Path) -> None:
    assert verdict(db)[1]["legal"] is True
    edit_snapshot(db, forged_state(), recompute=False)
    with Store(db) as store:
        assert store.load_snapshot(GAME_ID, AT + 5) is None  # its digest no longer holds
        assert BUNNIES.codec.equal(store.state_at(GAME_ID, AT + 5), fresh(AT + 5))
    code, answer = verdict(db)
    assert code == 0 and answer["legal"] is True


def test_a_snapshot_moved_from_another_position_is_not_used(db: Path) -> None:
    with Store(db) as store:
        store.save_snapshot(GAME_ID, fresh(AT - 10))
    conn = sqlite3.connect(db)
    row = conn.execute("SELECT state, after, digest FROM snapshots WHERE game_id = ? AND seq = ?",
                       (GAME_ID, AT - 10)).fetchone()
    conn.execute("UPDATE snapshots SET state = ?, after = ?, digest = ? WHERE game_id = ? AND seq = ?",
                 (*row, GAME_ID, AT))
    conn.commit()
    conn.close()
    with Store(db) as store:
        loaded = store.load_snapshot(GAME_ID, AT)
        assert loaded is not None and loaded.seq == AT - 10  # the real one at AT - 10, not the copy


def test_verify_finds_a_forgery_with_a_recomputed_digest_and_rebuilds_it(db: Path) -> None:
    edit_snapshot(db, forged_state(), recompute=True)
    result = CliRunner().invoke(main, ["verify", "--db", str(db), "--json"], catch_exceptions=False)
    assert result.exit_code == 1
    line = json.loads(result.stdout)
    assert (line["chain"], line["snapshots_rebuilt"]) == ("sealed", [AT])
    with Store(db) as store:
        rebuilt = store.load_snapshot(GAME_ID, AT)
        assert rebuilt is not None and BUNNIES.codec.equal(rebuilt, fresh(AT))
    again = CliRunner().invoke(main, ["verify", "--db", str(db)], catch_exceptions=False)
    assert again.exit_code == 0 and "0 broken, 0 with stored values their lines do not bear out, 0 with " \
        "snapshots that did not match" in again.stdout
    assert verdict(db)[1]["legal"] is True


def test_a_snapshot_row_names_the_line_it_follows(db: Path) -> None:
    conn = sqlite3.connect(db)
    after, line = conn.execute(
        "SELECT s.after, e.line FROM snapshots s JOIN events e ON e.game_id = s.game_id AND e.seq = s.seq "
        "WHERE s.game_id = ? AND s.seq = ?", (GAME_ID, AT)).fetchone()
    conn.close()
    assert after == anchor(line)


def test_a_forgery_with_a_plain_hash_for_a_digest_is_never_loaded(db: Path) -> None:
    """Before snapshots were signed, re-encoding the state and recomputing the digest (a plain
    sha256) turned the verdict from illegal to legal for every command but ``verify``."""
    from hashlib import sha256

    blob = forged_state()
    conn = sqlite3.connect(db)
    after = anchor(conn.execute("SELECT line FROM events WHERE game_id = ? AND seq = ?",
                                (GAME_ID, AT)).fetchone()[0])
    head = f"warren snapshot\x00{GAME_ID}\x00{AT}\x00{layout(BUNNIES)}\x00{after}\x00".encode()
    conn.execute("UPDATE snapshots SET state = ?, after = ?, digest = ? WHERE game_id = ? AND seq = ?",
                 (blob, after, sha256(head + blob).hexdigest(), GAME_ID, AT))
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.load_snapshot(GAME_ID, AT + 5) is None
    code, answer = verdict(db)
    assert code == 0 and answer["legal"] is True


def test_a_store_signed_with_another_key_has_its_snapshots_replayed_then_rebuilt(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store copied from another user or machine: its snapshots are not trusted here."""
    from logstore.store import snapshots

    monkeypatch.setenv(snapshots.KEY_ENV, str(tmp_path / "elsewhere" / "snapshot.key"))
    snapshots.snapshot_key.cache_clear()
    try:
        with Store(db) as store:
            assert store.load_snapshot(GAME_ID, AT + 5) is None
            assert BUNNIES.codec.equal(store.state_at(GAME_ID, AT + 5), fresh(AT + 5))
        result = CliRunner().invoke(main, ["verify", "--db", str(db), "--json"], catch_exceptions=False)
        seqs = [row[0] for row in sqlite3.connect(db).execute("SELECT seq FROM snapshots ORDER BY seq")]
        game = json.loads(result.stdout.splitlines()[0])
        assert game["snapshots_rebuilt"] == seqs and AT in seqs
        assert game["proof"] == "foreign"  # nor can its lines be proved here (logstore.store.proof)
        with Store(db) as store:
            assert store.load_snapshot(GAME_ID, AT + 5) is not None  # signed with this key now
    finally:
        snapshots.snapshot_key.cache_clear()


def test_the_key_is_created_for_its_user_alone_and_a_shared_one_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import stat

    from logstore.store import snapshots

    path = tmp_path / "cfg" / "warren" / "snapshot.key"
    monkeypatch.delenv(snapshots.KEY_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    snapshots.snapshot_key.cache_clear()
    try:
        key = snapshots.snapshot_key()
        assert path.read_bytes() == key and len(key) == snapshots.KEY_BYTES
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        snapshots.snapshot_key.cache_clear()
        assert snapshots.snapshot_key() == key  # the same key in the next process
        os.chmod(path, 0o644)  # others may read it: anybody could sign with it
        snapshots.snapshot_key.cache_clear()
        assert snapshots.snapshot_key() != key
    finally:
        snapshots.snapshot_key.cache_clear()
