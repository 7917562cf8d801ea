"""End to end in a real browser: Debian's chromium driven by Playwright.

Opens the dashboard, steps through a game, switches perspective, asks for a dispute
verdict, and saves screenshots (to $WARREN_SCREENSHOTS if set, e.g. docs/img, else a
temporary folder).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from logstore.cli.dashboard import dashboard_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from tests.dashboard.conftest import build_demo_store

    db = build_demo_store(tmp_path_factory.mktemp("browser") / "warren.db")
    port = _free_port()
    env = {**os.environ, "WARREN_DB": str(db)}
    proc = subprocess.Popen(dashboard_command(db, port), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("the dashboard did not start")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = os.environ.get("WARREN_SCREENSHOTS")
    folder = Path(target) if target else tmp_path_factory.mktemp("shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser_page(server: str) -> Iterator[object]:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        yield context.new_page()
        browser.close()


def _wait(pg: object, text: str, timeout: int = 30_000) -> None:
    pg.get_by_text(text).first.wait_for(timeout=timeout)  # type: ignore[attr-defined]


def test_step_through_a_game_in_the_browser(server: str, browser_page: object, shots: Path) -> None:
    pg = browser_page  # type: ignore[assignment]
    pg.goto(f"{server}/games")
    _wait(pg, "Replay this game")
    pg.get_by_text("Length (events)").wait_for(timeout=30_000)
    time.sleep(1.5)
    pg.screenshot(path=str(shots / "games.png"))

    game = "bunnies-2026-000001"
    pg.goto(f"{server}/replay?game={game}&seq=0")
    _wait(pg, "Before the first event.")
    for _ in range(3):
        pg.get_by_role("button", name="Next ▶").click()
        time.sleep(0.4)
    _wait(pg, "Event 3", 15_000)
    assert "seq=3" in pg.url
    pg.goto(f"{server}/replay?game={game}&seq=25&as=0")
    _wait(pg, "Event 25")
    pg.get_by_role("button", name="Next ▶").wait_for(timeout=30_000)
    pg.get_by_text("Jump to turn").wait_for(timeout=30_000)
    time.sleep(1.0)
    assert "hidden" in pg.content()
    pg.screenshot(path=str(shots / "replay.png"))


def test_trust_no_bunny_replay_with_the_suspicion_chart(
    server: str, browser_page: object, shots: Path
) -> None:
    pg = browser_page  # type: ignore[assignment]
    pg.goto(f"{server}/replay?game=trust-no-bunny-2026-000001&seq=60&as=spectator")
    _wait(pg, "Who could it be?")
    _wait(pg, "Wall")
    pg.get_by_role("button", name="Next ▶").wait_for(timeout=30_000)
    time.sleep(1.5)  # let Vega draw the chart
    pg.screenshot(path=str(shots / "replay-trust-no-bunny.png"))


def test_settle_a_dispute_in_the_browser(server: str, browser_page: object, shots: Path) -> None:
    pg = browser_page  # type: ignore[assignment]
    game = "bunnies-fixture-illegal-BUN-LAY-2-nine-on-a-queen"
    pg.goto(f"{server}/disputes?game={game}&seq=4")
    _wait(pg, "Propose the event recorded next")
    pg.get_by_role("button", name="Propose the event recorded next").click()
    time.sleep(0.5)
    pg.get_by_role("button", name="Judge").click()
    _wait(pg, "BUN-LAY-2")
    assert "does not equal or beat" in pg.content()
    time.sleep(1.0)
    pg.screenshot(path=str(shots / "disputes.png"))


def test_stats_and_sql_pages_in_the_browser(server: str, browser_page: object, shots: Path) -> None:
    pg = browser_page  # type: ignore[assignment]
    pg.goto(f"{server}/stats")
    _wait(pg, "Win rate by seat position", 90_000)
    time.sleep(1.0)
    pg.screenshot(path=str(shots / "stats.png"))
    pg.goto(f"{server}/sql")
    _wait(pg, "Run")
    pg.get_by_role("button", name="Run").click()
    _wait(pg, "row(s)")
    time.sleep(1.0)
    pg.screenshot(path=str(shots / "sql.png"))


def test_quest_replay_judge_and_branch_in_the_browser(
    server: str, browser_page: object, shots: Path
) -> None:
    pg = browser_page  # type: ignore[assignment]
    pg.goto(f"{server}/replay?game=killer-bunnies-quest-2026-000001&seq=120&as=1")
    _wait(pg, "Event 120")
    _wait(pg, "players (clockwise)")
    pg.get_by_role("button", name="Next ▶").click()
    _wait(pg, "Event 121", 15_000)
    time.sleep(1.0)
    pg.screenshot(path=str(shots / "replay-killer-bunnies-quest.png"))
    content = pg.content()
    assert "Kaballa" in content and "carrots left" in content and "face down" in content

    game = "kbq-illegal-buying-from-a-closed-market"
    pg.goto(f"{server}/disputes?game={game}&seq=22")
    _wait(pg, "Propose the event recorded next")
    pg.get_by_role("button", name="Propose the event recorded next").click()
    time.sleep(0.5)
    pg.get_by_role("button", name="Judge").click()
    _wait(pg, "KBQ-MKT-4")
    assert "market is closed" in pg.content()
    time.sleep(1.0)
    pg.screenshot(path=str(shots / "disputes-killer-bunnies-quest.png"))

    box = pg.get_by_role("textbox", name="Proposed action(s)")
    box.fill("flip actor=0")
    box.press("Control+Enter")
    time.sleep(0.5)
    pg.get_by_role("button", name="Judge").click()
    _wait(pg, "LEGAL")
    pg.get_by_role("button", name="Open branch").click()
    _wait(pg, "Stored branch")
