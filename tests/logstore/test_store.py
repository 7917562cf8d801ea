"""The event store: append-only in the database, whole-or-nothing imports, byte-exact export,
expected-seq appends, verdicts, verification and snapshots."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils

from engine.reader import read_record
from engine.record import RecordError, canon_event, event_to_dict, header_to_dict, seal, seal_line, unsealed
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.rules import RuleViolation
from engine.simulate import SimulatedGame, simulate_one
from logstore.store import (
    BrokenChain,
    DuplicateGame,
    StaleSeq,
    Store,
    StoreError,
    UnknownGame,
    default_db_path,
)
from logstore.store.reading import read_for_store
from logstore.store.schema import TRIGGERS

BUNNIES = get_ruleset("bunnies")


@pytest.fixture(scope="module")
def sims() -> list[SimulatedGame]:
    return [simulate_one(BUNNIES, 11, i) for i in range(4)]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    with Store(tmp_path / "warren.db") as opened:
        yield opened  # type: ignore[misc]


def sealed_bytes(game: SimulatedGame) -> bytes:
    return b"".join(game.lines())


def referee(state: Any) -> dict[str, Any]:
    return BUNNIES.view(state, "referee")


def swap_actor(line: bytes) -> bytes:
    """The same line claiming the other seat acted: an edit the hash chain must catch."""
    if b'"actor":0' in line:
        return line.replace(b'"actor":0', b'"actor":1')
    return line.replace(b'"actor":1', b'"actor":0')


def continued(lines: list[bytes], more: list[dict[str, Any]]) -> list[bytes]:
    """A closed record's lines with ``more`` events chained on after its seal line, closed
    again: what the store exports after an append."""
    out = list(lines)
    last = json.loads(lines[-1])
    prev = last.get("hash")
    for event in more:
        body = {k: v for k, v in event.items() if k != "hash"}
        if prev is not None:
            prev = hashlib.sha256(prev.encode() + canon_event(body)).hexdigest()
            body["hash"] = prev
        out.append(canon_event(body) + b"\n")
    out.append(seal_line(prev, last["events"] + len(more)))
    return out


def dicts(game: SimulatedGame) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return header_to_dict(game.header), [event_to_dict(e) for e in game.events]


def with_game_id(game: SimulatedGame, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, events = dicts(game)
    return {**header, "game_id": game_id}, events


# -- export gives back the imported bytes --------------------------------------------------
def test_export_equals_import_for_a_sealed_record(store: Store, sims: list[SimulatedGame]) -> None:
    data = sealed_bytes(sims[0])
    row = store.import_bytes(data, "game.jsonl")
    assert (row.chain, row.ok, row.n_events) == ("sealed", True, len(sims[0].events))
    assert store.export(row.game_id) == data


@pytest.mark.parametrize("variant", ["crlf", "no-final-newline", "non-ascii", "line-separator"])
def test_export_equals_import_byte_for_byte(store: Store, sims: list[SimulatedGame], variant: str) -> None:
    header, events = with_game_id(sims[1], f"g-{variant}")
    if variant in ("non-ascii", "line-separator"):
        # U+2028 is a line break to str.splitlines but not to a JSON Lines reader.
        name = "Zoë 🐇 Lapin" if variant == "non-ascii" else "Ann\u2028Bo\x1cb"
        header["players"] = [{"seat": 0, "name": name}, header["players"][1]]
    data = b"".join(seal(header, events))
    if variant == "crlf":
        data = data.replace(b"\n", b"\r\n")
    if variant == "no-final-newline":
        data = data.rstrip(b"\n")
    row = store.import_bytes(data, f"{variant}.jsonl")
    assert row.chain == "sealed" and row.ok
    assert store.export(row.game_id) == data
    assert store.record(row.game_id).header.players[0].name == header["players"][0]["name"]


def test_unsealed_record_is_stored_as_unsealed(store: Store, sims: list[SimulatedGame]) -> None:
    data = b"".join(unsealed(*dicts(sims[0])))
    row = store.import_bytes(data, "hand.jsonl")
    assert row.chain == "unsealed" and row.ok
    assert store.export(row.game_id) == data
    assert store.verify(row.game_id) == [(row.game_id, "unsealed", None)]


def test_hand_written_record_with_spaces_is_read_exactly(store: Store, sims: list[SimulatedGame]) -> None:
    header, events = dicts(sims[0])
    seal_line = {"kind": "seal", "events": len(events)}
    data = "".join(json.dumps(x, indent=None) + "\n" for x in [header, *events, seal_line]).encode()
    row = store.import_bytes(data, "spaced.jsonl")
    assert row.chain == "unsealed" and row.n_events == len(events)
    assert store.export(row.game_id) == data


# -- what an import refuses -------------------------------------------------------------------
def test_duplicate_game_is_refused_and_the_first_kept(store: Store, sims: list[SimulatedGame]) -> None:
    data = sealed_bytes(sims[0])
    store.import_bytes(data, "a.jsonl")
    with pytest.raises(DuplicateGame, match=sims[0].header.game_id):
        store.import_bytes(data, "b.jsonl")
    with pytest.raises(DuplicateGame):
        store.import_record(read_record(data, "c.jsonl"))
    assert len(store.games()) == 1
    assert store.export(sims[0].header.game_id) == data


def test_broken_chain_is_refused_naming_the_seq(store: Store, sims: list[SimulatedGame]) -> None:
    lines = sims[0].lines()
    # Change what an event says, not its hash: one card swapped for another in a lay.
    seq = next(i for i, line in enumerate(lines) if i > 5 and b'"type":"lay"' in line)
    line = lines[seq]
    card = line.split(b'"cards":["')[1][:2]
    other = b"2C" if card != b"2C" else b"3C"
    lines[seq] = line.replace(b'"cards":["' + card, b'"cards":["' + other)
    data = b"".join(lines)
    with pytest.raises(BrokenChain, match=f"broken at seq {seq}") as caught:
        store.import_bytes(data, "edited.jsonl")
    assert caught.value.seq == seq
    assert store.games() == []
    assert store.conn.execute("SELECT count(*) FROM events").fetchone()[0] == 0


def test_tampered_header_is_refused_as_broken_at_the_header(store: Store, sims: list[SimulatedGame]) -> None:
    lines = sims[0].lines()
    lines[0] = lines[0].replace(b"random-bot-0", b"fancy-bot-0")
    with pytest.raises(BrokenChain, match="the header") as caught:
        store.import_bytes(b"".join(lines), "edited.jsonl")
    assert caught.value.seq == 0


def test_illegal_game_is_stored_with_its_verdict(store: Store, sims: list[SimulatedGame]) -> None:
    header, events = with_game_id(sims[2], "illegal")
    # The second event is the first player's draw; give it to the other seat.
    assert events[1]["type"] == "draw"
    events[1]["actor"] = 1 - events[1]["actor"]
    data = b"".join(seal(header, events))
    row = store.import_bytes(data, "illegal.jsonl")
    assert (row.ok, row.status) == (False, "violation")
    assert (row.violation_seq, row.violation_rule) == (2, "BUN-TURN-1")
    assert row.chain == "sealed" and not row.over and row.winners is None
    assert store.game("illegal") == row
    assert store.export("illegal") == data
    with pytest.raises(StoreError, match="illegal event at seq 2"):
        store.append("illegal", [], expect_seq=row.n_events)


def test_finished_game_records_winners_and_scores(store: Store, sims: list[SimulatedGame]) -> None:
    row = store.import_bytes(sealed_bytes(sims[0]), "a.jsonl")
    state = Replay(BUNNIES, sims[0].header, sims[0].events).final
    outcome = BUNNIES.outcome(state)
    assert outcome is not None
    assert row.over and row.status == "over"
    assert (row.winners, row.scores) == (outcome.winners, outcome.scores)


def test_import_paths_reports_every_file_and_never_raises(tmp_path: Path, sims: list[SimulatedGame]) -> None:
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    (folder / "b.jsonl").write_bytes(sealed_bytes(sims[0]))
    (folder / "sub" / "a.jsonl").write_bytes(sealed_bytes(sims[1]))
    (folder / "c.jsonl").write_bytes(sealed_bytes(sims[0]))  # the same game again
    (folder / "d.jsonl").write_bytes(b'{"warren": 1, "kind": "header"\n')
    edited = sims[2].lines()
    edited[3] = swap_actor(edited[3])
    (folder / "e.jsonl").write_bytes(b"".join(edited))
    spaced = sims[3].lines()
    spaced[3] = spaced[3].replace(b'"seq":3,', b'"seq": 3, ')
    (folder / "f.jsonl").write_bytes(b"".join(spaced))
    (folder / "notes.txt").write_text("not a record")
    ticks: list[int] = []
    with Store(tmp_path / "w.db") as store:
        results = store.import_paths([folder, tmp_path / "missing.jsonl"], progress=ticks.append)
    by_name = {Path(r.path).name: r for r in results}
    assert [Path(r.path).name for r in results] == ["b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl", "f.jsonl",
                                                    "a.jsonl", "missing.jsonl"]
    assert ticks == [1] * 7
    assert by_name["b.jsonl"].ok and by_name["a.jsonl"].ok
    assert by_name["b.jsonl"].events == len(sims[0].events)
    assert not by_name["c.jsonl"].ok and "already in" in str(by_name["c.jsonl"].reason)
    assert not by_name["d.jsonl"].ok and "d.jsonl:1" in str(by_name["d.jsonl"].reason)
    assert not by_name["e.jsonl"].ok and "broken at seq 3" in str(by_name["e.jsonl"].reason)
    # Spaces change the bytes, not the canonical form the hash covers: still sealed, and
    # exported as it came.
    assert by_name["f.jsonl"].ok
    with Store(tmp_path / "w.db") as store:
        assert store.export(sims[3].header.game_id) == (folder / "f.jsonl").read_bytes()
        assert store.game(sims[3].header.game_id).chain == "sealed"
    assert not by_name["missing.jsonl"].ok and "cannot read" in str(by_name["missing.jsonl"].reason)


# -- append-only, in the database itself -----------------------------------------------------
@pytest.fixture
def stored(tmp_path: Path, sims: list[SimulatedGame]) -> tuple[Path, str, bytes]:
    db = tmp_path / "warren.db"
    data = sealed_bytes(sims[0])
    with Store(db) as store:
        store.import_bytes(data, "a.jsonl")
    return db, sims[0].header.game_id, data


APPEND_ONLY = "append-only"


def test_plain_sqlite3_cannot_update_delete_or_replace(stored: tuple[Path, str, bytes]) -> None:
    db, game_id, data = stored
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA recursive_triggers").fetchone()[0] == 0
    attempts = [
        ("UPDATE events SET line = 'x' WHERE game_id = ? AND seq = 3", (game_id,)),
        ("DELETE FROM events WHERE game_id = ? AND seq = 3", (game_id,)),
        ("DELETE FROM events", ()),
        ("INSERT OR REPLACE INTO events VALUES (?, 3, 'draw', 0, 'x')", (game_id,)),
        ("REPLACE INTO events VALUES (?, 3, 'draw', 0, 'x')", (game_id,)),
        ("INSERT OR IGNORE INTO events VALUES (?, 3, 'draw', 0, 'x')", (game_id,)),
        ("INSERT INTO events VALUES (?, 99999, 'draw', 0, 'x')", (game_id,)),  # a gap
        # the table under the view (logstore.store.lines): the game's number * 2^24 + seq
        ("UPDATE event_lines SET head = 'x' WHERE id % 16777216 = 3", ()),
        ("DELETE FROM event_lines", ()),
        ("INSERT OR REPLACE INTO event_lines SELECT id + 3, 'draw', 0, 'x', NULL, '' FROM event_lines "
         "WHERE id % 16777216 = 0", ()),
        ("INSERT INTO event_lines SELECT id + 99999, 'draw', 0, 'x', NULL, '' FROM event_lines "
         "WHERE id % 16777216 = 0", ()),
        ("INSERT INTO event_lines SELECT id + 16777216 * 1000, 'draw', 0, 'x', NULL, '' FROM event_lines "
         "WHERE id % 16777216 = 0", ()),  # the first line of a game the store does not know
        ("DELETE FROM game_keys", ()),
        ("INSERT OR REPLACE INTO game_keys (game_id) VALUES (?)", (game_id,)),
        ("UPDATE games SET players = '[]' WHERE game_id = ?", (game_id,)),
        ("DELETE FROM games", ()),
        ("INSERT OR REPLACE INTO games (game_id, ruleset, source, created, players, options, chain, "
         "imported_at, n_events, ok, over) VALUES (?, 'bunnies', 'recorded', 'x', '[]', '{}', 'sealed', "
         "'x', 0, 1, 0)", (game_id,)),
    ]
    for sql, args in attempts:
        with pytest.raises(sqlite3.DatabaseError, match="warren"):
            conn.execute(sql, args)
        conn.rollback()
    conn.close()
    with Store(db) as store:
        assert store.export(game_id) == data
        assert store.verify() == [(game_id, "sealed", None)]


def test_sqlite_utils_cannot_update_delete_or_replace(stored: tuple[Path, str, bytes]) -> None:
    db, game_id, data = stored
    sdb = sqlite_utils.Database(db)
    events = sdb["event_lines"]  # the table under the events view (logstore.store.lines)
    keys = sdb["game_keys"]
    key = keys.rows_where("game_id = ?", [game_id]).__next__()["key"]  # type: ignore[attr-defined]
    line = key * 16777216 + 3
    row = {"id": line, "type": "draw", "actor": 0, "head": "x", "hash": None, "tail": ""}
    attempts = [
        lambda: events.update(line, {"head": "x"}),  # type: ignore[attr-defined]
        lambda: events.delete(line),  # type: ignore[attr-defined]
        lambda: events.delete_where("id >= ?", [key * 16777216]),  # type: ignore[attr-defined]
        lambda: events.insert(row, replace=True),  # type: ignore[attr-defined]
        lambda: events.upsert(row, pk="id"),  # type: ignore[attr-defined]
        lambda: keys.update(key, {"game_id": "other"}),  # type: ignore[attr-defined]
        lambda: keys.delete(key),  # type: ignore[attr-defined]
        lambda: keys.insert({"key": key, "game_id": game_id}, replace=True),  # type: ignore[attr-defined]
        lambda: sdb["games"].delete(game_id),  # type: ignore[attr-defined]
    ]
    for attempt in attempts:
        with pytest.raises(sqlite3.DatabaseError, match="warren"):
            attempt()
    sdb.close()
    with Store(db) as store:
        assert store.export(game_id) == data


def test_verdict_columns_are_warrens_to_recompute(stored: tuple[Path, str, bytes]) -> None:
    db, game_id, _ = stored
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="writes_by_warren_only"):
        conn.execute("UPDATE games SET ok = 0, violation_rule = 'X' WHERE game_id = ?", (game_id,))
    conn.execute("DROP TRIGGER games_by_warren_update")  # the file's owner can
    conn.execute("UPDATE games SET ok = 0, violation_rule = 'X' WHERE game_id = ?", (game_id,))
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.game(game_id).status == "violation"
        # A verdict warren did not write is not judged over (nor signed) by recheck...
        with pytest.raises(StoreError, match="behind warren's back"):
            store.recheck(game_id)
        # ...but adopting the game writes it anew from the replay, and signs it.
        assert store.adopt(game_id).sound
        assert store.game(game_id).status == "over"
        assert store.recheck(game_id)[0].status == "over"


def test_opening_the_store_restores_triggers_a_transform_dropped(stored: tuple[Path, str, bytes]) -> None:
    db, game_id, _ = stored
    sdb = sqlite_utils.Database(db)
    sdb["games"].transform(types={"n_events": int})  # type: ignore[attr-defined]
    assert [t.name for t in sdb.triggers if t.table == "games"] == []
    sdb.close()
    with Store(db) as store:
        assert {t.name for t in store.db.triggers} == set(TRIGGERS)
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="never deleted"):
        conn.execute("DELETE FROM games WHERE game_id = ?", (game_id,))
    conn.close()


def test_verify_finds_a_line_edited_after_dropping_the_triggers(stored: tuple[Path, str, bytes]) -> None:
    db, game_id, _ = stored
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute(
        "UPDATE event_lines SET head = replace(head, '\"actor\":0', '\"actor\":1') "
        "WHERE id = (SELECT key FROM game_keys WHERE game_id = ?) * 16777216 + 5", (game_id,),
    )
    conn.commit()
    conn.close()
    with Store(db) as store:
        assert store.verify(game_id) == [(game_id, "broken", 5)]


# -- appends -------------------------------------------------------------------------------
def test_live_recording_gives_the_simulators_bytes(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[3]
    created = store.create_game(game.header)
    assert (created.n_events, created.chain, created.status) == (0, "sealed", "ok")
    last = 0
    events = [event_to_dict(e) for e in game.events]
    for start in range(0, len(events), 50):
        batch = [{k: v for k, v in e.items() if k != "seq"} for e in events[start:start + 50]]
        last = store.append(game.header.game_id, batch, expect_seq=last)
    assert last == len(events)
    assert store.export(game.header.game_id) == sealed_bytes(game)
    row = store.game(game.header.game_id)
    assert row.over and row.n_events == len(events)
    assert store.verify(game.header.game_id) == [(game.header.game_id, "sealed", None)]


def test_stale_expected_seq_is_refused(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[0]
    game_id = game.header.game_id
    store.create_game(game.header)
    assert store.append(game_id, [game.events[0]], expect_seq=0) == 1
    with pytest.raises(StaleSeq, match="expected to follow seq 0, but the last stored seq is 1") as caught:
        store.append(game_id, [game.events[1]], expect_seq=0)
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    with pytest.raises(StaleSeq):
        store.append(game_id, [game.events[1]], expect_seq=2)
    assert store.game(game_id).n_events == 1
    assert store.append(game_id, [game.events[1]], expect_seq=1) == 2


def test_illegal_append_stores_nothing_of_the_batch(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[0]
    game_id = game.header.game_id
    store.create_game(game.header)
    store.append(game_id, [game.events[0]], expect_seq=0)
    draw = event_to_dict(game.events[1])
    wrong_seat = {**draw, "seq": 3, "actor": 1 - draw["actor"]}
    with pytest.raises(RuleViolation) as caught:
        store.append(game_id, [draw, wrong_seat], expect_seq=1)
    assert (caught.value.rule, caught.value.seq) == ("BUN-TURN-1", 3)
    assert store.game(game_id).n_events == 1
    header, events = dicts(game)
    assert store.export(game_id) == b"".join(seal(header, events[:1]))


def test_append_refuses_malformed_events(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[0]
    game_id = game.header.game_id
    store.create_game(game.header)
    deal = event_to_dict(game.events[0])
    with pytest.raises(StoreError, match="names seq 5"):
        store.append(game_id, [{**deal, "seq": 5}], expect_seq=0)
    with pytest.raises(StoreError, match="bad event"):
        store.append(game_id, [{**deal, "type": "juggle"}], expect_seq=0)
    with pytest.raises(StoreError, match="does not continue the chain"):
        store.append(game_id, [{**deal, "hash": "0" * 64}], expect_seq=0)
    with pytest.raises(StoreError, match="actor 7"):
        store.append(game_id, [{"type": "draw", "actor": 7}], expect_seq=0)
    with pytest.raises(UnknownGame, match="nope"):
        store.append("nope", [deal], expect_seq=0)
    assert store.game(game_id).n_events == 0


@pytest.mark.parametrize("style", [b"\r\n", b""])
def test_append_keeps_the_record_style(store: Store, sims: list[SimulatedGame], style: bytes) -> None:
    game = sims[0]
    header, events = dicts(game)
    lines = seal(header, events[:9])  # closed after 9 events
    data = b"".join(lines)
    data = data.replace(b"\n", b"\r\n") if style else data.rstrip(b"\n")
    store.import_bytes(data, "partial.jsonl")
    game_id = game.header.game_id
    store.append(game_id, game.events[9:12], expect_seq=9)
    exported = store.export(game_id)
    # The imported seal stays where it was; the events chain on from it; the export closes
    # the record again.
    whole = b"".join(continued(lines, events[9:12]))
    assert exported == (whole.replace(b"\n", b"\r\n") if style else whole.rstrip(b"\n"))
    record = read_record(exported)
    assert (record.chain, record.end, [s for s, _ in record.seals]) == ("sealed", "closed", [9, 12])


def test_append_to_an_unsealed_game_writes_unsealed_lines(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[0]
    header, events = dicts(game)
    store.import_bytes(b"".join(unsealed(header, events[:5])), "u.jsonl")
    store.append(header["game_id"], events[5:8], expect_seq=5)
    assert store.export(header["game_id"]) == b"".join(continued(unsealed(header, events[:5]), events[5:8]))
    assert store.verify(header["game_id"])[0][1] == "unsealed"


def test_create_game_twice_is_a_duplicate(store: Store, sims: list[SimulatedGame]) -> None:
    store.create_game(sims[0].header)
    with pytest.raises(DuplicateGame):
        store.create_game(sims[0].header)


# -- reading back --------------------------------------------------------------------------
def test_unknown_game_says_which(store: Store) -> None:
    for call in (store.game, store.export, store.record, store.verify):
        with pytest.raises(UnknownGame, match="no game 'ghost'"):
            call("ghost")


def test_games_lists_by_ruleset(store: Store, sims: list[SimulatedGame]) -> None:
    for i, game in enumerate(sims[:3]):
        store.import_bytes(sealed_bytes(game), f"{i}.jsonl")
    assert [g.game_id for g in store.games()] == sorted(g.header.game_id for g in sims[:3])
    assert store.games("bunnies") == store.games()
    assert store.games("trust-no-bunny") == []
    row = store.games()[0]
    assert row.players == [p.name for p in sims[0].header.players] and row.source == "simulated"


def test_record_decodes_what_was_stored(store: Store, sims: list[SimulatedGame]) -> None:
    data = sealed_bytes(sims[0])
    store.import_bytes(data, "a.jsonl")
    record = store.record(sims[0].header.game_id)
    assert record.events == read_record(data).events and record.chain == "sealed"
    assert record.header == read_record(data).header


# -- the fast reader agrees with the exact one ---------------------------------------------
def _variants(game: SimulatedGame) -> list[bytes]:
    lines = game.lines()
    header, events = dicts(game)
    out = [b"".join(lines), b"".join(unsealed(header, events))]
    for seq in (0, 1, 3, len(lines) - 1):
        edited = list(lines)
        edited[seq] = edited[seq].replace(b'":', b'": ', 1)  # legal JSON, not canonical
        out.append(b"".join(edited))
        hashed = list(lines)
        at = hashed[seq].index(b'"hash":"') + 8
        digit = b"0" if hashed[seq][at:at + 1] != b"0" else b"1"
        hashed[seq] = hashed[seq][:at] + digit + hashed[seq][at + 1:]
        out.append(b"".join(hashed))
    claim = [{"hash": "ab" * 32, "kind": "x"}]  # a nested "hash" the cut must not confuse
    claims = [{**e, "claims": claim} if i == 4 else e for i, e in enumerate(events)]
    out.append(b"".join(seal(header, claims)))
    nulls = list(lines)
    nulls[2] = nulls[2].replace(b'"actor"', b'"claims":null,"actor"')
    out.append(b"".join(nulls))
    # An edit at seq 5 and a line without its hash at seq 9: the first wins.
    both = list(lines)
    both[5] = swap_actor(both[5])
    body = read_record(b"".join(lines)).events[8]
    both[9] = canon_event({k: v for k, v in event_to_dict(body).items() if k != "hash"}) + b"\n"
    out.append(b"".join(both))
    return out


def test_fast_reader_agrees_with_read_record(sims: list[SimulatedGame]) -> None:
    variants = _variants(sims[0])
    assert len(set(variants)) == len(variants)
    for data in variants:
        exact = read_record(data, "x", fast=False)
        fast, texts = read_for_store(data, "x")
        assert (fast.chain, fast.broken_at) == (exact.chain, exact.broken_at)
        assert fast.events == exact.events and fast.lines == exact.lines and fast.seals == exact.seals
        assert texts == [line.decode() for line in fast.lines] and fast.data() == data


@pytest.mark.parametrize("data", [
    b"", b"\n\n", b"\x00\x01binary", b"\xff\xfe not utf-8\n", b'{"warren": 1}\n', b"[1, 2]\n",
])
def test_fast_reader_refuses_what_read_record_refuses(data: bytes) -> None:
    with pytest.raises(RecordError) as exact:
        read_record(data, "bad.jsonl")
    with pytest.raises(RecordError) as fast:
        read_for_store(data, "bad.jsonl")
    assert str(fast.value) == str(exact.value)


def test_fast_reader_refuses_bad_event_lines_like_read_record(sims: list[SimulatedGame]) -> None:
    lines = sims[0].lines()
    cases = {
        "blank line": [*lines[:4], b"\n", *lines[4:]],
        "gap": [*lines[:4], *lines[5:]],
        "duplicate": [*lines[:4], lines[3], *lines[4:]],
        "bad json": [*lines[:4], b'{"seq": 4,\n', *lines[5:]],
        "two on a line": [*lines[:3], lines[3].rstrip(b"\n") + b"," + lines[4], *lines[5:]],
        "unknown type": [*lines[:4], lines[4].replace(b'"type":"', b'"type":"x'), *lines[5:]],
    }
    for name, case in cases.items():
        data = b"".join(case)
        with pytest.raises(RecordError) as exact:
            read_record(data, "bad.jsonl")
        with pytest.raises(RecordError) as fast:
            read_for_store(data, "bad.jsonl")
        assert str(fast.value) == str(exact.value), name


# -- snapshots -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def long_game() -> SimulatedGame:
    game = simulate_one(BUNNIES, 5, 0, bots=("prolong", "prolong"), max_events=900)
    assert len(game.events) > 600
    return game


def test_snapshots_every_k_events_and_state_at_matches_replay(store: Store, long_game: SimulatedGame) -> None:
    store.import_bytes(sealed_bytes(long_game), "long.jsonl")
    game_id = long_game.header.game_id
    seqs = [r[0] for r in store.conn.execute("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))]
    assert seqs == list(range(256, len(long_game.events) + 1, 256))
    replay = Replay(BUNNIES, long_game.header, long_game.events)
    for seq in (0, 255, 256, 300, 600, 899, len(long_game.events)):
        assert referee(store.state_at(game_id, seq)) == referee(replay.state_at(seq))
    with pytest.raises(StoreError, match=r"positions 0\.\."):
        store.state_at(game_id, len(long_game.events) + 1)


class _Payload:
    """Unpickling this would create a folder: a stand-in for any code a file could run."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (os.mkdir, (str(self.marker),))


def test_a_foreign_snapshot_is_never_unpickled(
    store: Store, long_game: SimulatedGame, tmp_path: Path
) -> None:
    store.import_bytes(sealed_bytes(long_game), "long.jsonl")
    game_id = long_game.header.game_id
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Payload(marker))
    pickle.loads(payload)  # the payload works when unpickled freely...
    marker.rmdir()
    store.conn.execute("BEGIN IMMEDIATE")
    store.conn.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (payload, game_id))
    store.conn.execute("COMMIT")
    assert store.load_snapshot(game_id, 600) is None
    assert not marker.exists()  # ...and the store never ran it
    replay = Replay(BUNNIES, long_game.header, long_game.events)
    assert referee(store.state_at(game_id, 600)) == referee(replay.state_at(600))


def test_snapshot_save_and_load(store: Store, sims: list[SimulatedGame]) -> None:
    game = sims[0]
    store.import_bytes(sealed_bytes(game), "a.jsonl")
    state = Replay(BUNNIES, game.header, game.events).state_at(40)
    store.save_snapshot(game.header.game_id, state)
    loaded = store.load_snapshot(game.header.game_id, 45)
    assert loaded is not None and loaded.seq == 40
    assert referee(loaded) == referee(state)
    store.drop_snapshots()
    assert store.load_snapshot(game.header.game_id, 45) is None


# -- opening -------------------------------------------------------------------------------
def test_default_path_follows_warren_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("WARREN_DB", raising=False)
    assert default_db_path() == Path("warren.db")
    monkeypatch.setenv("WARREN_DB", str(tmp_path / "club.db"))
    assert default_db_path() == tmp_path / "club.db"
    with Store() as store:
        assert store.path == tmp_path / "club.db"
    assert (tmp_path / "club.db").is_file()


def test_opening_what_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no warren store"):
        Store(tmp_path / "none.db", create=False)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a warren store"):
        Store(junk)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(StoreError, match="not a warren store"):
        Store(other, create=False)


def test_the_store_is_in_wal_mode(store: Store) -> None:
    assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
