"""The store under several processes: concurrent appends, a writer killed mid-import,
and imports prepared in worker processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from engine.reader import check_events, read_record
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.store import Store, event_store, helpers, import_helper
from tests.logstore import hostile_folder, store_workers

BUNNIES = get_ruleset("bunnies")
SPAWN = multiprocessing.get_context("spawn")


def test_two_processes_appending_lose_nothing_and_interleave_nothing(tmp_path: Path) -> None:
    db = tmp_path / "warren.db"
    game = simulate_one(BUNNIES, 3, 0)
    game_id = game.header.game_id
    with Store(db) as store:
        store.create_game(game.header)
        store.append(game_id, [game.events[0]], expect_seq=0)  # the deal
    rounds, free = 12, 15
    barrier = SPAWN.Barrier(2)
    out = SPAWN.Queue()
    workers = [
        SPAWN.Process(target=store_workers.appender,
                      args=(str(db), game_id, seed, rounds, free, barrier, out))
        for seed in (1, 2)
    ]
    for w in workers:
        w.start()
    results = [out.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    # In lockstep both name the same expected seq: exactly one wins each round, the other
    # is told it is stale.
    assert sum(len(r[1]) for r in results) == rounds
    assert sum(r[2] for r in results) == rounds
    # Free-running, each retries until its events are in.
    assert [len(r[3]) for r in results] == [free, free]
    won = [seq for r in results for seq in (*r[1], *r[3])]
    assert sorted(won) == list(range(2, 2 + rounds + 2 * free))  # every seq once, no gap
    with Store(db) as store:
        assert store.game(game_id).n_events == 1 + rounds + 2 * free
        record = read_record(store.export(game_id))
        assert store.verify(game_id) == [(game_id, "sealed", None)]
    assert record.chain == "sealed"
    assert check_events(BUNNIES, record.header, record.events) is None


def test_a_writer_killed_mid_import_leaves_no_partial_game(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    games = [simulate_one(BUNNIES, 4, i) for i in range(5)]
    files = []
    for i, game in enumerate(games):
        path = folder / f"{i}.jsonl"
        path.write_bytes(b"".join(game.lines()))
        files.append(path)
    db = tmp_path / "warren.db"
    ready = SPAWN.Event()
    child = SPAWN.Process(target=store_workers.stalling_importer, args=(str(db), str(folder), 3, ready))
    child.start()
    assert ready.wait(timeout=120), "the importer never reached the third game"
    os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
    child.join(timeout=60)
    assert child.exitcode == -signal.SIGKILL

    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    counts = dict(conn.execute("SELECT game_id, count(*) FROM events GROUP BY game_id").fetchall())
    conn.close()
    ids = [g.header.game_id for g in games]
    # The first two committed whole; the third was cut off mid-write and left nothing.
    assert counts == {ids[0]: len(games[0].events) + 1, ids[1]: len(games[1].events) + 1}
    with Store(db) as store:
        assert [g.game_id for g in store.games()] == ids[:2]
        for path, game_id in zip(files[:2], ids, strict=False):
            assert store.export(game_id) == path.read_bytes()
        again = store.import_paths([folder])
        assert [r.ok for r in again] == [False, False, True, True, True]
        for path, game_id in zip(files, ids, strict=True):
            assert store.export(game_id) == path.read_bytes()


@pytest.mark.parametrize("fork", [True, False])
@pytest.mark.parametrize("workers", [1, 2])
def test_import_in_helper_processes_matches_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, fork: bool
) -> None:
    monkeypatch.setattr(helpers, "FORK", fork and helpers.FORK)
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(6):
        (folder / f"{i}.jsonl").write_bytes(b"".join(simulate_one(BUNNIES, 9, i).lines()))
    (folder / "3-again.jsonl").write_bytes((folder / "3.jsonl").read_bytes())
    (folder / "bad.jsonl").write_bytes(b"{not json\n")
    with Store(tmp_path / "one.db") as one, Store(tmp_path / "many.db") as many:
        one.import_bytes((folder / "0.jsonl").read_bytes(), "0.jsonl")
        many.import_bytes((folder / "0.jsonl").read_bytes(), "0.jsonl")
        ticks: list[int] = []
        expected = one.import_paths([folder], workers=0)

        def not_here(*args: object) -> None:
            raise AssertionError("a file was prepared in this process, not in a helper")

        # Every file through the helpers: this process waits for them rather than working.
        monkeypatch.setattr(helpers, "WORK_WHILE_WAITING", False)
        monkeypatch.setattr(event_store, "prepare_path", not_here)
        got = many.import_paths([folder], progress=ticks.append, workers=workers)
        assert ticks == [1] * len(got)
        assert [(r.path, r.game_id, r.ok, r.reason, r.events) for r in got] == [
            (r.path, r.game_id, r.ok, r.reason.replace("one.db", "many.db") if r.reason else None, r.events)
            for r in expected
        ]
        assert [r.ok for r in got] == [False, True, True, True, False, True, True, False]
        for row in one.games():
            assert many.export(row.game_id) == one.export(row.game_id)


@pytest.mark.parametrize("helper", ["/nonexistent/python", "/bin/false"])
def test_import_falls_back_to_one_process_when_helpers_fail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, helper: str
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(3):
        (folder / f"{i}.jsonl").write_bytes(b"".join(simulate_one(BUNNIES, 9, i).lines()))
    monkeypatch.setattr(sys, "executable", helper)  # cannot start / stops at once
    monkeypatch.setattr(helpers, "FORK", False)
    with Store(tmp_path / "w.db") as store:
        results = store.import_paths([folder], workers=1)
        assert [r.ok for r in results] == [True, True, True]
        assert len(store.games()) == 3


@pytest.mark.skipif(not helpers.FORK, reason="helpers are forked on Linux only")
def test_import_falls_back_to_one_process_when_a_forked_helper_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(5):
        (folder / f"{i}.jsonl").write_bytes(b"".join(simulate_one(BUNNIES, 9, i).lines()))

    def stops(*args: object) -> None:
        raise SystemExit(3)  # in the forked helper: it ends without answering

    monkeypatch.setattr(import_helper, "serve", stops)
    monkeypatch.setattr(helpers, "WORK_WHILE_WAITING", False)
    with Store(tmp_path / "w.db") as store:
        results = store.import_paths([folder], workers=2)
        assert [r.ok for r in results] == [True] * 5
        for i, row in enumerate(store.games()):
            assert store.export(row.game_id) == (folder / f"{i}.jsonl").read_bytes()


@pytest.mark.skipif(not helpers.FORK, reason="helpers are forked on Linux only")
def test_the_importing_process_works_while_the_helper_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A helper that is slow to start: this process prepares the files meanwhile, and the
    # results are those of one process, in order.
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(6):
        (folder / f"{i}.jsonl").write_bytes(b"".join(simulate_one(BUNNIES, 9, i).lines()))
    (folder / "bad.jsonl").write_bytes(b"{not json\n")
    here: list[str] = []
    real = event_store.prepare_path

    def counted(path: str, *args: Any) -> Any:
        here.append(path)
        return real(path, *args)

    monkeypatch.setattr(event_store, "prepare_path", counted)

    def never_ready(requests: BinaryIO, answers: BinaryIO) -> None:
        requests.read()  # in the forked helper: still starting when the import is done

    monkeypatch.setattr(import_helper, "serve", never_ready)
    with Store(tmp_path / "one.db") as one, Store(tmp_path / "two.db") as two:
        expected = one.import_paths([folder], workers=0)
        here.clear()
        got = two.import_paths([folder], workers=1)
        assert [(r.path, r.ok, r.reason, r.events) for r in got] == [
            (r.path, r.ok, r.reason, r.events) for r in expected]
        assert sorted(here) == sorted(str(p) for p in folder.iterdir())
        for row in one.games():
            assert two.export(row.game_id) == one.export(row.game_id)


@pytest.mark.parametrize(("fork", "all_in_helpers"), [(True, True), (False, True), (True, False)])
@pytest.mark.parametrize("workers", [1, 2])
def test_every_kind_of_record_imports_the_same_through_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, fork: bool, all_in_helpers: bool
) -> None:
    # Canonical and not, unsealed, format 1, CRLF, a key given twice, a broken chain, a cut
    # record, not JSON, a copy: the helpers (forked or fresh) give each the answer one
    # process gives, and store the same bytes.
    folder = tmp_path / "records"
    hostile_folder.write(folder)
    monkeypatch.setattr(helpers, "FORK", fork and helpers.FORK)
    with Store(tmp_path / "one.db") as one, Store(tmp_path / "many.db") as many:
        expected = one.import_paths([folder], workers=0)
        if all_in_helpers:
            def not_here(*args: object) -> None:
                raise AssertionError("a file was prepared in this process, not in a helper")

            monkeypatch.setattr(helpers, "WORK_WHILE_WAITING", False)
            monkeypatch.setattr(event_store, "prepare_path", not_here)
        got = many.import_paths([folder], workers=workers)
        assert [(r.path, r.game_id, r.ok, r.reason, r.events, r.violation) for r in got] == [
            (r.path, r.game_id, r.ok, r.reason and r.reason.replace("one.db", "many.db"), r.events,
             r.violation) for r in expected]
        assert [r.ok for r in got] == [True, True, True, True, False, False, False, False, True, False, False]
        assert got[-2].already_stored and got[-1].reason == (
            f"game {got[-1].game_id!r} is already in {tmp_path / 'many.db'}; a stored game is never replaced")
        for row in one.games():
            assert many.export(row.game_id) == one.export(row.game_id)
            assert many.game(row.game_id).chain == row.chain
