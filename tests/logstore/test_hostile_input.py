"""What a hostile or careless user gives warren: deeply nested JSON, files that are not
files, huge files of nothing, a full disk, a read-only store, somebody else's database,
records imported twice, branches without their parent. Every file gets its line in the
report, bad input never stops the other files, and nothing ends in a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.reader import read_record
from engine.record import RecordError, event_to_dict, header_to_dict, seal
from engine.simulate import SimulatedGame, simulate_one
from logstore.cli import main
from logstore.store.branches import create_branch
from logstore.store.errors import StoreError
from logstore.store.event_store import Store

ROOT = Path(__file__).resolve().parents[2]
DEEP = 5000


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def games() -> list[SimulatedGame]:
    return [simulate_one(BUNNIES, 21, i) for i in range(3)]


def nested_header(game: SimulatedGame) -> bytes:
    line = json.dumps({**header_to_dict(game.header), "options": {"x": 0}})
    return line.replace('{"x": 0}', '{"x": ' + "[" * DEEP + "]" * DEEP + "}").encode() + b"\n"


# -- 1. deeply nested JSON ------------------------------------------------------------------
@pytest.mark.parametrize("fast", [True, False])
def test_deep_nesting_is_a_record_error_not_a_recursion_error(games: list[SimulatedGame], fast: bool) -> None:
    lines = games[0].lines()
    with pytest.raises(RecordError, match="nested too deeply") as caught:
        read_record(nested_header(games[0]) + b"".join(lines[1:]), "deep.jsonl", fast=fast)
    assert caught.value.line == 1
    deep_claim = b'{"actor":null,"claims":[{"x":' + b"[" * DEEP + b"]" * DEEP + b'}],"seq":1,"type":"deal"}\n'
    with pytest.raises(RecordError, match="nested too deeply") as caught:
        read_record(lines[0] + deep_claim, "deep.jsonl", fast=fast)
    assert caught.value.line == 2


def test_check_reports_a_nested_file_as_unreadable_and_goes_on(
        tmp_path: Path, games: list[SimulatedGame]) -> None:
    (tmp_path / "a-deep.jsonl").write_bytes(nested_header(games[0]) + b"".join(games[0].lines()[1:]))
    (tmp_path / "b-good.jsonl").write_bytes(b"".join(games[1].lines()))
    code, out, _ = run("check", str(tmp_path), "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 2  # unreadable, not "a rule is broken"
    assert [Path(line["path"]).name for line in lines] == ["a-deep.jsonl", "b-good.jsonl"]
    assert "nested too deeply" in lines[0]["error"] and lines[1]["ok"]


def test_import_goes_on_after_a_nested_file_and_reports_every_file(
        tmp_path: Path, games: list[SimulatedGame]) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a-good.jsonl").write_bytes(b"".join(games[0].lines()))
    (folder / "b-deep.jsonl").write_bytes(nested_header(games[1]) + b"".join(games[1].lines()[1:]))
    (folder / "c-good.jsonl").write_bytes(b"".join(games[2].lines()))
    code, out, _ = run("import", str(folder), "--db", str(tmp_path / "w.db"), "--json")
    report = {Path(r["path"]).name: r for r in map(json.loads, out.splitlines())}
    assert code == 1
    assert set(report) == {"a-good.jsonl", "b-deep.jsonl", "c-good.jsonl"}
    assert report["a-good.jsonl"]["ok"] and report["c-good.jsonl"]["ok"]
    assert "nested too deeply" in report["b-deep.jsonl"]["reason"]


# -- 8. files that are not files, and files of nothing -------------------------------------------
def test_check_refuses_a_device_and_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    # In a child process with a time limit: before, a FIFO nobody writes to hung for ever.
    done = subprocess.run([sys.executable, "-m", "logstore.cli", "check", "/dev/zero", str(fifo), "--json"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 2, done.stderr
    assert "a device, not a record file" in lines[0]["error"]
    assert "a FIFO, not a record file" in lines[1]["error"]
    assert "Traceback" not in done.stderr


def _peak_rss_kb(path: Path) -> tuple[int, dict[str, Any]]:
    code = ("import json, resource, sys; from logstore.store.checking import check_file, result_to_dict; "
            f"r, _ = check_file({str(path)!r}); "
            "print(json.dumps([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, result_to_dict(r)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    peak, result = json.loads(done.stdout)
    return peak, result


def test_memory_does_not_grow_with_a_file_of_nothing(tmp_path: Path, games: list[SimulatedGame]) -> None:
    # 64 MB of newlines (the report saw 1.8 GB for 250 MB), then the same after a header.
    baseline, _ = _peak_rss_kb(tmp_path / "missing.jsonl")
    blank = tmp_path / "blank.jsonl"
    with open(blank, "wb") as handle:
        for _ in range(64):
            handle.write(b"\n" * (1 << 20))
    peak, result = _peak_rss_kb(blank)
    assert "empty file" in result["error"]
    assert peak - baseline < 32 * 1024, (peak, baseline)
    after_header = tmp_path / "after-header.jsonl"
    with open(after_header, "wb") as handle:
        handle.write(games[0].lines()[0])
        for _ in range(64):
            handle.write(b"{}\n" * (1 << 18))
    peak, result = _peak_rss_kb(after_header)
    assert f"{after_header}:2: " in result["error"]
    assert peak - baseline < 32 * 1024, (peak, baseline)


def test_a_line_longer_than_a_record_line_is_refused(tmp_path: Path, games: list[SimulatedGame]) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(games[0].lines()[0] + b'{"x":"' + b"a" * (3 << 20) + b'"}\n')
    code, out, _ = run("check", str(path), "--json")
    assert code == 2 and "long.jsonl:2: line longer than 1 MiB" in json.loads(out)["error"]


# -- 8. the store: writes that cannot happen -------------------------------------------------------
def test_a_full_disk_is_reported_with_what_was_kept(tmp_path: Path, games: list[SimulatedGame]) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for i, game in enumerate(games):
        (folder / f"{i}.jsonl").write_bytes(b"".join(game.lines()))
    with Store(tmp_path / "w.db") as store:
        store.import_paths([folder / "0.jsonl"])
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is nearly full
        results = store.import_paths([folder / "1.jsonl", folder / "2.jsonl"])
        assert [r.ok for r in results] == [False, False]
        assert "is full" in str(results[0].reason) and "nothing of it was kept" in str(results[0].reason)
        assert "stopped taking writes" in str(results[1].reason)
        assert [g.game_id for g in store.games()] == [games[0].header.game_id]
        assert store.verify() == [(games[0].header.game_id, "sealed", None)]


def _read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every SQLite connection opens read-only, as an immutable file or a read-only mount
    would have it (root ignores file permissions, so the tests ask SQLite directly)."""
    real = sqlite3.connect

    def connect(path: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if str(path).startswith("file:"):
            return real(path, *args, **kwargs)
        return real(f"file:{path}?mode=ro", *args, **{**kwargs, "uri": True})

    monkeypatch.setattr(sqlite3, "connect", connect)


def test_a_read_only_store_says_so_on_import_and_still_answers_queries(
        tmp_path: Path, games: list[SimulatedGame], monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.db"
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(games[0].lines()))
    assert run("import", str(record), "--db", str(db))[0] == 0
    assert run("query", "SELECT count(*) AS n FROM games", "--db", str(db), "-f", "csv")[0] == 0
    other = tmp_path / "h.jsonl"
    other.write_bytes(b"".join(games[1].lines()))
    run("import", str(other), "--db", str(db))  # the projections are now behind
    _read_only(monkeypatch)
    code, out, _ = run("import", str(record), "--db", str(db))
    assert code == 0 and "1 already in the store" in out
    third = tmp_path / "i.jsonl"
    third.write_bytes(b"".join(games[2].lines()))
    code, out, _ = run("import", str(third), "--db", str(db))
    assert code == 1 and "is read-only" in out
    code, out, err = run("query", "SELECT count(*) AS n FROM games", "--db", str(db), "-f", "csv")
    assert code == 0 and out.splitlines() == ['"n"', "1"]  # as projected before the store went read-only
    assert "read-only" in err and "as they were" in err


def test_another_applications_database_is_left_alone(tmp_path: Path, games: list[SimulatedGame]) -> None:
    db = tmp_path / "other-app.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(games[0].lines()))
    code, _, err = run("import", str(record), "--db", str(db))
    assert code == 2 and "another application's SQLite database (tables: invoices)" in err
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["invoices"]
    conn.close()
    assert run("import", str(record), "--db", str(db), "--adopt-db")[0] == 0


def test_reimporting_what_is_stored_is_not_an_error_but_another_game_under_its_id_is(
        tmp_path: Path, games: list[SimulatedGame]) -> None:
    db = str(tmp_path / "w.db")
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(games[0].lines()))
    assert run("import", str(record), "--db", db)[0] == 0
    code, out, _ = run("import", str(record), "--db", db)
    assert code == 0 and "imported 0 game(s) (0 events), 1 already in the store, refused 0" in out
    header, events = header_to_dict(games[1].header), [event_to_dict(e) for e in games[1].events]
    impostor = tmp_path / "impostor.jsonl"
    impostor.write_bytes(b"".join(seal({**header, "game_id": games[0].header.game_id}, events)))
    code, out, _ = run("import", str(impostor), "--db", db)
    assert code == 1 and "refused" in out and "already in" in out


def test_a_branch_whose_parent_is_not_stored_is_refused(tmp_path: Path, games: list[SimulatedGame]) -> None:
    with Store(tmp_path / "a.db") as store:
        store.import_bytes(b"".join(games[0].lines()), "parent.jsonl")
        info, _ = create_branch(store, games[0].header.game_id, 5, [event_to_dict(games[0].events[5])],
                                replaces=0)
        branch = store.export(info.game_id)
    with Store(tmp_path / "b.db") as other:
        with pytest.raises(StoreError, match=r"which is not in .* import the parent first"):
            other.import_bytes(branch, "branch.jsonl")
        assert other.games() == []
        # A parent under that name whose events differ is not the branch's parent either.
        header, events = header_to_dict(games[1].header), [event_to_dict(e) for e in games[1].events]
        other.import_bytes(b"".join(seal({**header, "game_id": games[0].header.game_id}, events)), "p.jsonl")
        with pytest.raises(StoreError, match="is not its parent"):
            other.import_bytes(branch, "branch.jsonl")


def test_a_crash_while_saving_a_branch_leaves_nothing_and_a_rerun_makes_one(
        tmp_path: Path, games: list[SimulatedGame], monkeypatch: pytest.MonkeyPatch) -> None:
    from logstore.store import branches

    with Store(tmp_path / "a.db") as store:
        store.import_bytes(b"".join(games[0].lines()), "parent.jsonl")
        parent = games[0].header.game_id

        def crash(conn: sqlite3.Connection, info: Any) -> None:
            raise KeyboardInterrupt  # the process stopped between the game and its row

        monkeypatch.setattr(branches, "insert_row", crash)
        with pytest.raises(KeyboardInterrupt):
            create_branch(store, parent, 5, [event_to_dict(games[0].events[5])], replaces=0)
        assert [g.game_id for g in store.games()] == [parent]
        monkeypatch.undo()
        info, _ = create_branch(store, parent, 5, [event_to_dict(games[0].events[5])], replaces=0)
        assert info.game_id == f"{parent}~1"
        assert [b.game_id for b in branches.list_branches(store)] == [f"{parent}~1"]
        assert branches.branch_info(store, info.game_id).registered


def test_export_into_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path,
                                                                       games: list[SimulatedGame]) -> None:
    db = str(tmp_path / "w.db")
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(games[0].lines()))
    run("import", str(record), "--db", db)
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    code, _, err = run("export", games[0].header.game_id, "-o", str(blocker / "out.jsonl"), "--db", db)
    assert code == 2 and "cannot write" in err and "Traceback" not in err


# -- 4. a header option as a memory bomb -----------------------------------------------------------
def test_an_option_outside_its_bounds_is_refused_before_anything_is_built(tmp_path: Path) -> None:
    from engine.trust_no_bunny import RULESET as TNB

    game = simulate_one(TNB, 1, 0, players=5)
    header = {**header_to_dict(game.header), "options": {"deck": {"1": 1_000_000_000, "2": 16}}}
    bomb = tmp_path / "bomb.jsonl"
    bomb.write_bytes(b"".join(seal(header, [event_to_dict(e) for e in game.events])))
    code, out, _ = run("check", str(bomb), "--json")
    error = json.loads(out)["error"]
    assert code == 2 and "bad option for trust-no-bunny: deck must be 0 to 4 values, each 0..100" in error
    code, _, err = run("replay", str(bomb), "--as", "referee")
    assert code == 2 and "deck must be" in err
    # warren's own simulate wrote such records: it refuses the option now.
    code, _, err = run("simulate", "trust-no-bunny", "--games", "1", "--players", "5",
                       "--option", 'deck={"1": 1000000000}', "--out", str(tmp_path / "sim"))
    assert code == 2 and "deck must be" in err and not (tmp_path / "sim").exists()
    code, _, err = run("simulate", "bunnies", "--games", "1", "--option", "hand_size=100000",
                       "--out", str(tmp_path / "sim"))
    assert code == 2 and "hand_size must be 1..20" in err
