"""Soak: K writers at once on one store, killed with SIGKILL at random moments and started
again, for a while; then the store must hold everything they saw committed and nothing
partial (``pytest -m slow``; WARREN_SOAK_SECONDS and WARREN_SOAK_WRITERS set the run).

What is checked at the end: SQLite's integrity check; every game's lines chain and close
(``verify``) and every snapshot matches its events; each game's row counts its stored
events; every branch is registered with its row (a branch and its row are written in one
transaction); every write a writer logged as done is in the store; every stored record
exports to a record that ``warren check`` reads whole. The test asserts no time.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logstore.store import Store
from logstore.store.branches import list_branches
from logstore.store.checking import check_bytes
from tests.logstore.soak_worker import LIVE

ROOT = Path(__file__).resolve().parents[2]


def _start(db: Path, seed: int, counts: Path) -> subprocess.Popen[bytes]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "tests.logstore.soak_worker", str(db), str(seed), str(counts)]
    return subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": path},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.slow
def test_writers_killed_at_random_lose_nothing_and_leave_nothing_partial(tmp_path: Path) -> None:
    seconds = float(os.environ.get("WARREN_SOAK_SECONDS", "30"))
    writers = int(os.environ.get("WARREN_SOAK_WRITERS", "4"))
    db = tmp_path / "soak.db"
    counts = tmp_path / "done.log"
    with Store(db) as store:
        from engine.record import FORMAT_VERSION, Header, Player

        for game_id in LIVE:
            store.create_game(Header(warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset="bunnies",
                                     options={}, players=[Player(seat=0, name="a"), Player(seat=1, name="b")],
                                     source="recorded", created="2026-12-01T00:00:00Z"))
    rng = random.Random(2026)
    seed = 1000
    running = []
    for _ in range(writers):
        seed += 1
        running.append(_start(db, seed, counts))
    kills = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(rng.uniform(0.1, 0.8))
        victim = rng.randrange(len(running))
        running[victim].send_signal(signal.SIGKILL)
        running[victim].wait()
        kills += 1
        seed += 1
        running[victim] = _start(db, seed, counts)
    for proc in running:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    done = counts.read_text().splitlines() if counts.exists() else []
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Store(db) as store:
        games = {g.game_id: g for g in store.games()}
        for game_id, chain, broken_at in store.verify():
            assert chain == "sealed" and broken_at is None, game_id
            assert store.check_snapshots(game_id, repair=False) == [], game_id
        for game_id, row in games.items():
            stored = store.conn.execute("SELECT count(*) - 1 FROM events WHERE game_id = ?",
                                        (game_id,)).fetchone()[0]
            assert row.n_events == stored, game_id
            exported = check_bytes(store.export(game_id), game_id)
            assert exported.error is None and exported.chain == "sealed", exported
        branches = {b.game_id: b for b in list_branches(store)}
        from logstore.analytics.projections import Projections, refresh

        refresh(store)  # whatever a killed refresh left, the next one completes
        assert Projections(store).is_current()
        assert all(b.registered for b in branches.values()), "a branch was stored without its row"
        imports = appends = made = refreshes = 0
        for line in done:
            what, *rest = line.split()
            if what == "import":
                imports += 1
                assert rest[0] in games
            elif what == "append":
                appends += 1
                assert games[rest[0]].n_events >= int(rest[1])
            elif what == "branch":
                made += 1
                assert rest[0] in branches
            elif what == "refresh":
                refreshes += 1
    assert kills > 0 and imports + appends + made > 0
    figures = (f"soak: {writers} writers, {seconds:.0f} s, {kills} kills; committed and found: "
               f"{imports} imports, {appends} appends, {made} branches, {refreshes} projection refreshes; "
               f"{len(games)} games in the store, every chain closed, every snapshot matching, no branch "
               "without its row, the projections current after one more refresh")
    print(figures)
    (tmp_path / "figures.txt").write_text(figures + "\n")
