"""Output options write a FIFO, a device or standard output as a stream, replace only
regular files, and refuse a folder (logstore.store.files)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from logstore.cli import main
from logstore.store.files import OutputError, write_file

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
RECORD = FIXTURES / "bunnies" / "first-goes.jsonl"


def _drain(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, got


def test_a_fifo_is_written_as_a_stream_and_stays_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    reader, got = _drain(fifo)
    write_file(fifo, b"hello\n")
    reader.join(10)
    assert got == [b"hello\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["p"]  # no temporary file left beside it


def test_commands_write_to_a_fifo_without_replacing_it(tmp_path: Path) -> None:
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    reader, got = _drain(fifo)
    result = CliRunner().invoke(main, ["redact", str(RECORD), "--out", str(fifo)])
    reader.join(20)
    assert result.exit_code == 0, result.output
    assert got and b'"kind":"seal"' in got[0]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_device_is_never_replaced_and_a_full_one_is_a_clear_error() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    before = os.stat("/dev/full")
    with pytest.raises(OutputError, match="cannot write /dev/full"):
        write_file("/dev/full", b"x" * 100_000)
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    write_file("/dev/null", b"nothing")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_dash_is_standard_output(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    write_file("-", b"to stdout\n")
    assert capfdbinary.readouterr().out == b"to stdout\n"
    assert not Path("-").exists()


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="it is a folder"):
        write_file(tmp_path, b"x")
    result = CliRunner().invoke(main, ["redact", str(RECORD), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_regular_file_is_still_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"old")
    link = tmp_path / "link"
    link.symlink_to(target)
    write_file(link, b"new")
    assert target.read_bytes() == b"old"  # the link itself is replaced, never written through
    assert link.read_bytes() == b"new" and not link.is_symlink()
