"""``warren dashboard`` and ``warren demo`` on the command line: the port they serve on is
the one they print, a port in use is refused, and the demo's counts add up."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from logstore.cli import dashboard as dashboard_cli
from logstore.cli import main


@pytest.fixture()
def busy_port() -> Iterator[int]:
    """A port another program listens on."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield int(server.getsockname()[1])


class FakeServer:
    """A server process that ends at once with ``code`` (nothing is started)."""

    code = 0

    def __init__(self, command: list[str], **kwargs: Any) -> None:
        self.command = command
        self.returncode: int | None = None

    def wait(self, timeout: float | None = None) -> int:
        self.returncode = self.code
        return self.code

    def poll(self) -> int | None:
        return self.returncode

    def terminate(self) -> None:
        self.returncode = -15

    def kill(self) -> None:
        self.returncode = -9


@pytest.fixture()
def served(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The streamlit command lines `warren dashboard` would run (nothing is started)."""
    runs: list[list[str]] = []

    class Recorded(FakeServer):
        def __init__(self, command: list[str], **kwargs: Any) -> None:
            super().__init__(command)
            runs.append(command)

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    return runs


def _port_of(command: list[str]) -> int:
    return int(command[command.index("--server.port") + 1])


def test_a_port_in_use_is_refused_with_exit_2(app_env: Path, busy_port: int, served: list[list[str]]) -> None:
    result = CliRunner().invoke(main, ["dashboard", "--db", str(app_env), "--port", str(busy_port)])
    assert result.exit_code == 2, result.output
    assert f"port {busy_port} is already in use" in result.output
    assert "warren dashboard on" not in result.output and served == []


def test_without_a_port_the_next_free_one_is_served_and_printed(
        app_env: Path, busy_port: int, served: list[list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dashboard_cli, "DEFAULT_PORT", busy_port)
    result = CliRunner().invoke(main, ["dashboard", "--db", str(app_env)])
    assert result.exit_code == 0, result.output
    port = _port_of(served[0])
    assert port != busy_port
    assert f"port {busy_port} is in use; serving on {port} instead" in result.output
    assert f"warren dashboard on http://127.0.0.1:{port}/" in result.output


def test_the_dashboard_hides_the_deploy_button(app_env: Path, served: list[list[str]]) -> None:
    CliRunner().invoke(main, ["dashboard", "--db", str(app_env)])
    command = served[0]
    assert command[command.index("--client.toolbarMode") + 1] == "minimal"


def test_a_dashboard_that_fails_to_start_is_an_error(app_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing(FakeServer):
        code = 1

    monkeypatch.setattr(subprocess, "Popen", Failing)
    result = CliRunner().invoke(main, ["dashboard", "--db", str(app_env)])
    assert result.exit_code == 2 and "stopped with exit code 1" in result.output


def test_the_demo_says_what_it_skipped_and_its_counts_add_up(tmp_path: Path, served: list[list[str]]) -> None:
    db = tmp_path / "demo.db"
    result = CliRunner().invoke(main, ["demo", "--games", "25", "--no-serve", "--db", str(db)])
    assert result.exit_code == 0, result.output
    out = result.output
    fixtures = sorted(dashboard_cli.fixtures_dir().rglob("*.jsonl"))
    assert f"of {len(fixtures)} fixture record(s)" in out
    assert "refused broken-chain-edited-lay.jsonl: hash chain" in out
    imported = int(re.search(r"imported (\d+) of", out).group(1))  # type: ignore[union-attr]
    added, skipped = map(int, re.search(r": (\d+) added, (\d+) skipped", out).groups())  # type: ignore[union-attr]
    refused = out.count("\n  refused ")
    assert imported + refused == len(fixtures) and refused >= 1  # each refusal said, with its reason
    from engine.registry import all_rulesets

    assert added + skipped == len(all_rulesets()) * 25  # every registered ruleset
    total = int(re.search(r"store .*: (\d+) game", out).group(1))  # type: ignore[union-attr]
    assert total == imported + added


def _streamlit_on(port: int) -> list[int]:
    """The pids of processes whose command line serves ``port`` (the dashboard's server)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(words) and str(port).encode() in words:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
def test_stopping_warren_stops_the_server_and_frees_the_port(app_env: Path, signum: int) -> None:
    """`kill PID` of `warren dashboard` left its Streamlit child serving, owned by init."""
    import sys
    import time
    import urllib.request

    port = dashboard_cli.choose_port(None)
    proc = subprocess.Popen([sys.executable, "-c", "from logstore.cli import main; main()", "dashboard",
                             "--db", str(app_env), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the dashboard did not start"
            time.sleep(0.3)
        assert _streamlit_on(port)
        proc.send_signal(signum)
        assert proc.wait(timeout=30) in (0, -signum, 128 + signum)
        deadline = time.monotonic() + 15
        while _streamlit_on(port) or not dashboard_cli.port_is_free(port):
            assert time.monotonic() < deadline, "the server is still serving after warren stopped"
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in _streamlit_on(port):
            os.kill(pid, signal.SIGKILL)


def test_the_demo_serves_before_it_simulates_and_says_how_far_it_has_got(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first run served nothing for 40 s while it simulated: now the server starts on the
    shipped records and the simulated games arrive while it serves, their progress beside
    the store for the Overview (and gone once they are in)."""
    from logstore.store import Store
    from logstore.store import filling as filling_mod

    db = tmp_path / "demo.db"
    at_start: list[int] = []
    progress: list[tuple[int, int]] = []

    class Counting(FakeServer):
        def __init__(self, command: list[str], **kwargs: Any) -> None:
            super().__init__(command)
            with Store(db) as store:
                at_start.append(len(store.games()))

    real_write = filling_mod.write_filling

    def write(store: Path, done: int, target: int) -> None:
        real_write(store, done, target)
        found = filling_mod.read_filling(store)
        assert found is not None and (found.done, found.target) == (done, target)
        progress.append((done, target))

    monkeypatch.setattr(subprocess, "Popen", Counting)
    monkeypatch.setattr(filling_mod, "write_filling", write)
    monkeypatch.setattr(dashboard_cli, "FILLING_EVERY", 4)
    result = CliRunner().invoke(main, ["demo", "--games", "4", "--db", str(db)])
    assert result.exit_code == 0, result.output
    imported = int(re.search(r"imported (\d+) of", result.output).group(1))  # type: ignore[union-attr]
    assert at_start == [imported]  # served on the shipped records alone
    from engine.registry import all_rulesets

    target = 4 * len(all_rulesets())
    assert progress[0] == (0, target) and progress[-1] == (target, target)
    assert filling_mod.read_filling(db) is None and not filling_mod.filling_path(db).exists()
    with Store(db) as store:
        assert len(store.games()) > imported


def test_a_filling_whose_process_has_gone_is_not_shown(tmp_path: Path) -> None:
    import json

    from logstore.store.filling import filling_path, read_filling, write_filling

    db = tmp_path / "warren.db"
    assert read_filling(db) is None
    write_filling(db, 3, 10)
    now = read_filling(db)
    assert now is not None and now.fraction == 0.3
    proc = subprocess.Popen(["true"])  # a process that has ended
    proc.wait()
    filling_path(db).write_text(json.dumps({"done": 3, "target": 10, "pid": proc.pid}))
    assert read_filling(db) is None
    filling_path(db).write_text("{not json")
    assert read_filling(db) is None
