"""End to end in a real browser: Debian's chromium driven by Playwright, 1440 and 820 px wide.

Every page is opened by its own address; a game is stepped (a fragment rerun, not the whole
page), seen from a seat, a dispute judged, a what-if branch made, a ruling saved and opened
again, a chart downloaded as PNG and its data as CSV, SQL run. Any console error or warning
fails the test, but for one: Streamlit's frontend, opened at a page's address, first asks
for its server under that path (``/replay/_stcore/health``) and gets a 404 before it tries
the root; that probe is Streamlit's own and is allowed, nothing else. No control may show a
cut label, at either width.

At 1440 px the README's screenshots are taken, to $WARREN_SCREENSHOTS if set (e.g.
docs/img), else to a temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from logstore.cli.dashboard import dashboard_command

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")

LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTHS = (1440, 820)
"""A desktop and a tablet."""
PAGES = (("/", "warren"), ("/games", "Games"), ("/replay", "Replay"), ("/disputes", "Disputes"),
         ("/stats", "Statistics"), ("/sql", "SQL"))
BUNNIES_GAME = "bunnies-2026-000001"
TNB_GAME = "trust-no-bunny-2026-000001"
LAY_2_FIXTURE = "bunnies-fixture-illegal-BUN-LAY-2-nine-on-a-queen"
PROBE = re.compile(r"/[a-z]+/_stcore/(health|host-config)$")
"""Streamlit's own first try for its server under a page's path (see the module docstring)."""


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


@dataclass
class Tab:
    """A browser tab at one width, with everything its console said and its reruns."""

    page: Any
    width: int
    console: list[str] = field(default_factory=list)
    reruns: list[str] = field(default_factory=list)
    """The fragment id of each rerun the page asked for ("" for the whole page)."""

    def shot(self, folder: Path, name: str) -> None:
        if self.width == WIDTHS[0]:
            time.sleep(1.0)  # let Vega finish drawing
            self.page.screenshot(path=str(folder / name))

    def wait(self, text: str, timeout: int = 30_000) -> None:
        self.page.get_by_text(text).first.wait_for(timeout=timeout)

    def settled(self) -> None:
        """The last rerun has finished (Streamlit's status widget is gone)."""
        self.page.wait_for_timeout(300)
        self.page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=30_000)

    def clean(self) -> None:
        """No console error or warning, no cut label, nothing wider than the window."""
        assert not self.console, "\n".join(self.console)
        cut = self.page.evaluate(CUT_LABELS)
        assert not cut, f"cut labels at {self.width} px: {cut}"
        wide = self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 1, f"the page is {wide} px wider than the window at {self.width} px"


CUT_LABELS = """() => Array.from(document.querySelectorAll(
    'button p, [data-testid="stMarkdownContainer"] strong, [data-testid="stWidgetLabel"] p, ' +
    '.wr-text-table td, .wr-text-table th'))
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.innerText)"""
"""Visible labels and text-table cells whose text is wider than their box (shown cut, or with
an ellipsis): a cell wraps instead."""


def _listen(tab: Tab, server: str) -> None:
    from streamlit.proto.BackMsg_pb2 import BackMsg

    def on_console(message: Any) -> None:
        if message.type not in ("error", "warning"):
            return
        where = (message.location or {}).get("url", "")
        if "404" in message.text and PROBE.search(where):
            return  # Streamlit's own probe under a page's path (module docstring)
        tab.console.append(f"{message.type}: {message.text} ({where})")

    def on_socket(socket_: Any) -> None:
        def sent(payload: bytes | str) -> None:
            if isinstance(payload, bytes):
                msg = BackMsg()
                msg.ParseFromString(payload)
                if msg.WhichOneof("type") == "rerun_script":
                    tab.reruns.append(msg.rerun_script.fragment_id)

        socket_.on("framesent", sent)

    tab.page.on("console", on_console)
    tab.page.on("pageerror", lambda exc: tab.console.append(f"page error: {exc}"))
    tab.page.on("websocket", on_socket)


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda w: f"{w}px")
def tab(request: pytest.FixtureRequest, server: str) -> Iterator[Tab]:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        context = browser.new_context(viewport={"width": request.param, "height": 1400},
                                      accept_downloads=True)
        found = Tab(context.new_page(), request.param)
        _listen(found, server)
        yield found
        browser.close()


@pytest.fixture()
def fresh(tab: Tab) -> Iterator[Tab]:
    """The tab, its console read anew for one test and checked at its end."""
    tab.console.clear()
    tab.reruns.clear()
    yield tab
    tab.clean()


# -- 1: every page at its own address ------------------------------------------------------------------
def test_every_page_opens_at_its_own_address(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    for path, heading in PAGES:
        pg.goto(server + path)
        pg.get_by_role("heading", name=heading, exact=True).wait_for(timeout=90_000)
        fresh.settled()
        assert "Page not found" not in pg.content(), path
        assert "Deploy" not in pg.locator("header").inner_text(), path  # no developer toolbar
        if path == "/games":
            fresh.wait("Replay this game")
            fresh.shot(shots, "games.png")
        fresh.clean()


# -- steps, perspective, fragments ------------------------------------------------------------------------
def test_step_through_a_game_and_see_it_as_a_seat(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/replay?game={BUNNIES_GAME}")
    fresh.wait("The start")  # a game opens at its start
    fresh.settled()
    fresh.reruns.clear()
    for n in range(1, 4):
        pg.get_by_role("button", name="Next").click()
        fresh.wait(f"Event {n} of ")
        fresh.settled()
    assert "seq=3" in pg.url
    assert len(fresh.reruns) == 3 and all(fresh.reruns), fresh.reruns  # each step: the fragment only
    fresh.wait("the deal: 7 cards each")  # the timeline speaks the game's words
    pg.get_by_role("combobox", name="Seen by").click()
    pg.get_by_role("option", name=re.compile(r"^seat 0: ")).click()
    fresh.wait("not seen from here")
    fresh.settled()
    assert fresh.reruns[-1] == ""  # another perspective: the whole page
    assert "as=0" in pg.url
    fresh.clean()
    pg.goto(f"{server}/replay?game={BUNNIES_GAME}&seq=25&as=0")
    fresh.wait("Event 25 of ")
    fresh.settled()
    fresh.shot(shots, "replay.png")


def test_trust_no_bunny_replay_with_the_suspicion_chart(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/replay?game={TNB_GAME}&seq=60&as=spectator")
    fresh.wait("Who could it be?")
    fresh.wait("Wall")
    fresh.settled()
    chart = pg.locator('[data-testid="stVegaLiteChart"]').first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= fresh.width  # eight panels fit a tablet too
    fresh.shot(shots, "replay-trust-no-bunny.png")


# -- disputes: judge, branch, rule, reopen ------------------------------------------------------------------
def test_settle_a_dispute_branch_it_and_keep_a_ruling(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/disputes?game={LAY_2_FIXTURE}&seq=4")
    fresh.wait("Propose the event recorded next")
    fresh.settled()
    pg.get_by_role("button", name="Propose the event recorded next").click()
    fresh.settled()
    pg.get_by_role("button", name="Judge").click()
    fresh.wait("does not equal or beat")
    fresh.settled()
    assert "BUN-LAY-2" in pg.content() and "top card" in pg.content()
    pg.get_by_text("The facts the rule looked at").scroll_into_view_if_needed()
    fresh.shot(shots, "disputes.png")

    # A what-if: one of the listed legal actions instead of the recorded lay.
    option = pg.locator('[data-testid="stRadio"] [role="radiogroup"] label').first
    picked = option.inner_text().splitlines()[0].strip()
    option.click()
    box = pg.get_by_role("textbox", name="Proposed action(s)")
    playwright.expect(box).to_have_value(picked, timeout=30_000)
    fresh.settled()
    pg.get_by_role("button", name="Open branch").click()
    pg.get_by_text(re.compile("Stored branch|No branch was stored")).first.wait_for(timeout=30_000)
    assert "Stored branch" in pg.content(), pg.get_by_text("No branch was stored").first.inner_text()
    fresh.settled()
    fresh.wait("Branch · ")

    question = f"May the nine go on the queen? ({fresh.width} px)"
    pg.get_by_label("Question").fill(question)
    pg.get_by_label("Question").press("Enter")
    fresh.settled()
    pg.get_by_label("Decided by").fill("the judge")
    pg.get_by_label("Decided by").press("Enter")
    fresh.settled()
    pg.get_by_role("button", name="Save ruling").click()
    fresh.wait("Saved ruling R-")
    fresh.settled()
    ruling = re.search(r"Saved ruling (R-\w+)", pg.content())
    assert ruling is not None and f"ruling={ruling.group(1)}" in pg.url

    pg.goto(f"{server}/disputes?ruling={ruling.group(1)}")  # the shared link, in a new session
    fresh.wait(f"Ruling {ruling.group(1)}")
    fresh.wait(question)
    fresh.settled()
    assert "seq=4" in pg.url


# -- stats and SQL -------------------------------------------------------------------------------------------
def test_stats_charts_download_as_png_and_csv(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/stats")
    fresh.wait("Win rate by seat position", 90_000)
    fresh.settled()
    heading = pg.get_by_role("heading", name=re.compile("^Win rate by seat position"))
    heading.scroll_into_view_if_needed()
    heading.evaluate("e => e.scrollIntoView({block: 'start'})")  # its chart, intervals drawn
    fresh.shot(shots, "stats.png")
    with pg.expect_download() as png:
        pg.locator('[data-testid="stDownloadButton"] button', has_text="PNG").first.click()
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pg.expect_download() as data:
        pg.locator('[data-testid="stDownloadButton"] button', has_text="CSV").first.click()
    assert Path(data.value.path()).read_text().startswith("ruleset,")
    for _ in range(30):  # every chart comes into view once: none may warn as it draws
        pg.mouse.wheel(0, 900)
        pg.wait_for_timeout(100)
    pg.wait_for_timeout(800)


def test_sql_runs_on_run_and_downloads_csv(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/sql")
    fresh.wait("Tables")
    fresh.settled()
    box = pg.get_by_label("Query")
    box.fill("SELECT ruleset, count(*) AS games FROM games GROUP BY ruleset ORDER BY ruleset")
    fresh.settled()
    assert "row(s)" not in pg.content()  # typing does not run the query
    pg.get_by_role("button", name="Run").click()
    fresh.wait("row(s)")
    fresh.settled()
    fresh.shot(shots, "sql.png")
    pg.get_by_text("games: one row per stored game").click()  # the schema browser opens
    fresh.wait("the first illegal event and the rule it breaks")
    with pg.expect_download() as data:
        pg.get_by_role("button", name="Download CSV").click()
    assert Path(data.value.path()).read_text().splitlines()[0] == "ruleset,games"
