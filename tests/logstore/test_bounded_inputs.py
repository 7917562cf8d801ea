"""Bounded and exact: odd files where warren reads an export or its key, a paste gone wrong
in the recorder, paths that are no plain files, and names that only look alike."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.record import RecordError, event_to_dict, header_to_dict, player_key, seal
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store.event_store import Store
from logstore.store.files import OutputError, write_file
from tests.logstore.analytics_corpus import fill

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("export")
    db = folder / "warren.db"
    fill(db, games=3)
    code, _, err = run("export-parquet", str(folder / "out"), "--db", str(db))
    assert code == 0, err
    return folder / "out"


def damaged_copy(export: Path, tmp_path: Path, how: str) -> Path:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(export, copy)
    part = next((copy / "games").glob("ruleset=*/")) / "zz.parquet"
    if how == "not parquet":
        part.write_text("hello")
    elif how == "empty":
        part.write_bytes(b"")
    elif how == "link":
        part.symlink_to(next((export / "games").glob("ruleset=*/*.parquet")))
    elif how == "fifo":
        os.mkfifo(part)
    return copy


@pytest.mark.parametrize("how", ["not parquet", "empty", "link", "fifo"])
def test_an_export_with_an_odd_part_is_refused_by_name(export: Path, tmp_path: Path, how: str) -> None:
    copy = damaged_copy(export, tmp_path, how)
    for args in (["query", "SELECT count(*) FROM games", "--parquet", str(copy)],
                 ["stats", "--parquet", str(copy)]):
        code, out, err = run(*args)
        assert code == 2, (args, out, err)
        assert "zz.parquet" in err and "Traceback" not in err, err
        assert len(err.strip().splitlines()) == 1, err
    assert run("query", "SELECT count(*) AS n FROM games", "--parquet", str(export), "-f", "csv")[1] \
        .splitlines()[1] == "3"


def test_the_dashboard_refuses_an_odd_export_before_serving(export: Path, tmp_path: Path) -> None:
    copy = damaged_copy(export, tmp_path, "not parquet")
    code, _, err = run("dashboard", "--parquet", str(copy), "--port", "1")
    assert code == 2 and "zz.parquet is not a Parquet file" in err


def test_a_fifo_for_a_key_file_is_passed_over_with_a_warning(tmp_path: Path) -> None:
    key = tmp_path / "snapshot.key"
    os.mkfifo(key)
    env = {**os.environ, "WARREN_SNAPSHOT_KEY": str(key)}
    game = simulate_one(BUNNIES, 51, 0)
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(game.lines()))
    db = tmp_path / "w.db"
    for args in (["import", str(record), "--db", str(db)], ["verify", "--db", str(db)],
                 ["simulate", "bunnies", "--games", "1", "--into-store", "--db", str(db)]):
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "logstore.cli", *args], env=env, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert time.monotonic() - started < 60
        assert "cannot be used" in done.stderr and "not a regular file" in done.stderr, done.stderr


def test_a_long_paste_costs_time_in_proportion(tmp_path: Path) -> None:
    from logstore.recording.entries import read_entry
    from logstore.recording.session import TableSession
    from tests.logstore.test_recorder import table_header

    store = Store(tmp_path / "w.db")
    session = TableSession.start(store, table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0},
                                                     game_id="ann-bo"))
    session.enter(read_entry(session, ""))
    pasted = "lay " + "9 " * 50_000  # 100 KB
    with pytest.raises(Exception, match=r"cannot read action 'lay 9 9 .*… \(100,00\d characters\)") as said:
        read_entry(session, pasted)
    assert len(str(said.value)) < 400
    # Words are tried in runs of a card name's length at most: 10x the paste is about 10x the
    # work, not 100x (counted in calls, not seconds).
    import cProfile
    import pstats

    def calls(n: int) -> int:
        profile = cProfile.Profile()
        profile.enable()
        with pytest.raises(Exception, match="cannot read action"):
            read_entry(session, "lay " + "9 " * n)
        profile.disable()
        return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]

    assert calls(20_000) < 15 * calls(2_000)


def test_a_path_through_a_file_and_a_descriptor_of_this_process(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(OutputError, match="a-file is a file, not a folder"):
        write_file(blocker / "x.jsonl", "data")
    out = tmp_path / "stdout.txt"
    code = ("from logstore.store.files import write_file; import sys; "
            "sys.stdout.write('first\\n'); sys.stdout.flush(); write_file('/proc/self/fd/1', 'second\\n')")
    with out.open("w") as handle:
        subprocess.run([sys.executable, "-c", code], stdout=handle, check=True, cwd=ROOT)
    assert out.read_text() == "first\nsecond\n"
    assert out.is_file() and not out.is_symlink()


def test_replay_redact_and_dispute_name_a_fifo_for_what_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    for args in (["replay", str(fifo)], ["redact", str(fifo), "--as", "0", "-o", str(tmp_path / "r.jsonl")],
                 ["dispute", "claims", str(fifo)], ["check", str(fifo)]):
        code, out, err = run(*args)
        assert code == 2 and "a FIFO, not a record file" in out + err, (args, out, err)


def test_a_name_holding_a_comma_can_be_predicted(tmp_path: Path) -> None:
    game = simulate_one(BUNNIES, 52, 0)
    head = header_to_dict(game.header)
    head["source"] = "recorded"
    head["players"] = [{"seat": 0, "name": "Lee, Ann"}, {"seat": 1, "name": "Bo"}]
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(seal(head, [event_to_dict(e) for e in game.events])))
    db = tmp_path / "w.db"
    assert run("import", str(record), "--db", str(db))[0] == 0
    code, out, err = run("ratings", "--ruleset", "bunnies", "--predict", '"Lee, Ann",Bo', "--db", str(db))
    assert code == 0, err
    assert "Lee, Ann:" in out and "Bo:" in out


def test_one_name_in_two_unicode_spellings_is_one_player(tmp_path: Path) -> None:
    composed, decomposed = "José", unicodedata.normalize("NFD", "José")
    assert composed != decomposed and player_key(composed) == player_key(decomposed)
    game = simulate_one(BUNNIES, 53, 0)
    head = header_to_dict(game.header)
    head["players"] = [{"seat": 0, "name": composed}, {"seat": 1, "name": decomposed}]
    record = tmp_path / "g.jsonl"
    record.write_bytes(b"".join(seal(head, [event_to_dict(e) for e in game.events])))
    from engine.reader import read_record

    with pytest.raises(RecordError, match="named twice"):
        read_record(record.read_bytes(), str(record))


def recorded(seed: int, names: list[str], path: Path) -> Path:
    game = simulate_one(BUNNIES, seed, 0)
    head = header_to_dict(game.header)
    head["source"] = "recorded"
    head["players"] = [{"seat": i, "name": n} for i, n in enumerate(names)]
    path.write_bytes(b"".join(seal(head, [event_to_dict(e) for e in game.events])))
    return path


def test_a_renamed_player_is_found_by_the_new_name_whatever_came_after(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    assert run("import", str(recorded(54, ["Ann", "Bo"], tmp_path / "a.jsonl")), "--db", str(db))[0] == 0
    code, _, err = run("players", "rename", "Ann", "Annie", "--db", str(db))
    assert code == 0, err
    assert run("import", str(recorded(55, ["Annie", "Cy"], tmp_path / "b.jsonl")), "--db", str(db))[0] == 0
    code, out, err = run("players", "--json", "--db", str(db))
    assert code == 0, err
    import json

    rows = json.loads(out)
    names = [r["player"] for r in rows]
    assert sorted(names) == ["Annie", "Bo", "Cy"]  # one Annie, with both games
    assert next(r for r in rows if r["player"] == "Annie")["games"] == 2
