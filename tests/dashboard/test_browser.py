"""End to end in a real browser: Debian's chromium driven by Playwright, 1440 and 820 px wide
(and a replay and the Record page at a phone's 390 px).

Every page is opened by its own address; a game is stepped (a fragment rerun, not the whole
page), seen from a seat, a dispute judged, a what-if branch made, a ruling saved and opened
again, a chart downloaded as PNG and its data as CSV, SQL run; games are recorded at the
table (Bunnies, with a refusal, an undo and the download; Trust No Bunny's start up to the
first night) and two tabs record one game, the stale one told, nothing forked. Any console error or warning
fails the test, but for one: Streamlit's frontend, opened at a page's address, first asks
for its server under that path (``/replay/_stcore/health``) and gets a 404 before it tries
the root; that probe is Streamlit's own and is allowed, nothing else. No control may show a
cut label, at any width, and no element may pass the room it has (its column's right edge,
or the window's). What the browser waited for is timed and written down, not asserted.

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
         ("/record", "Record"), ("/stats", "Statistics"), ("/sql", "SQL"), ("/players", "Players"))
BUNNIES_GAME = "bunnies-2026-000001"
TNB_GAME = "trust-no-bunny-2026-000001"
LAY_2_FIXTURE = "bunnies-fixture-illegal-BUN-LAY-2-nine-on-a-queen"
PHONE = 390
"""A phone: the Record page and a replay are tried at this width too."""
TIMINGS: list[dict[str, Any]] = []
"""What the browser waited for, in seconds: each page opened, each step, the Stats page of
one game. Written down (to $WARREN_BROWSER_TIMINGS if set, as JSON Lines), never asserted:
the machine's load decides them as much as warren does (docs/performance.md names them)."""
PROBE = re.compile(r"/[a-z]+/_stcore/(health|host-config)$")
"""Streamlit's own first try for its server under a page's path (see the module docstring)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store the dashboard serves (the Record page writes to it)."""
    from tests.dashboard.conftest import build_demo_store

    return build_demo_store(tmp_path_factory.mktemp("browser") / "warren.db")


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
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


@pytest.fixture(scope="module", autouse=True)
def timings() -> Iterator[list[dict[str, Any]]]:
    TIMINGS.clear()
    yield TIMINGS
    target = os.environ.get("WARREN_BROWSER_TIMINGS")
    if target and TIMINGS:
        import json

        with open(target, "a", encoding="utf-8") as out:
            out.writelines(json.dumps(t) + "\n" for t in TIMINGS)


def _timed(tab: Tab, what: str, since: float) -> None:
    TIMINGS.append({"what": what, "width": tab.width, "seconds": round(time.perf_counter() - since, 3)})


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
        if self.width in (WIDTHS[0], PHONE):
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
        # every chart drawn first (Vega draws after the page has settled): a chart not drawn
        # yet measures nothing
        self.page.wait_for_function(CHARTS_DRAWN, timeout=15_000)
        assert not self.console, "\n".join(self.console)
        cut = self.page.evaluate(CUT_LABELS)
        assert not cut, f"cut labels at {self.width} px: {cut}"
        wide = self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 1, f"the page is {wide} px wider than the window at {self.width} px"
        over = self.page.evaluate(OVERFLOWING)
        assert not over, f"cut at {self.width} px (element, its right edge, where its room ends): {over}"


CHARTS_DRAWN = """() => Array.from(document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
  .every(c => c.querySelector('canvas, svg.marks'))"""


CUT_LABELS = """() => Array.from(document.querySelectorAll(
    'button p, [data-testid="stMarkdownContainer"] strong, [data-testid="stWidgetLabel"] p, ' +
    '.wr-text-table td, .wr-text-table th, [data-testid="stButtonGroup"] > div'))
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.innerText)"""
"""Visible labels and text-table cells whose text is wider than their box (shown cut, or with
an ellipsis), and rows of picker buttons scrolled sideways: a cell or a row wraps instead."""


OVERFLOWING = """() => {
  const room = document.documentElement.clientWidth;
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const out = [];
  for (const e of document.querySelectorAll('[data-testid="stMain"] *')) {
    // a chart is measured by what it draws on (its canvas, or its svg), not by its marks
    const drawn = e.tagName === 'CANVAS' || (e.tagName === 'svg' && e.classList.contains('marks'));
    if (e.offsetParent === null) continue;
    if (!drawn && e.closest('svg, canvas, [data-testid="stVegaLiteChart"]')) continue;
    // a slider's thumb carries an input nobody sees (opacity 0) past the track's end
    if (getComputedStyle(e).opacity === '0') continue;
    if (e.tagName === 'INPUT' && e.closest('[data-testid="stSlider"]')) continue;
    // a data frame's resize handle sits on its edge by design; the frame scrolls itself
    if (e.parentElement && e.parentElement.closest('[data-testid="stDataFrameResizable"]')) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // Its room: the column it sits in (a table wider than its column ran over the next
    // one), else the window; a box the reader can scroll sideways holds what it holds.
    // a chart's own box scrolls what it cannot fit (vega-embed): the chart must fit anyway
    let end = room, p = drawn ? e.closest('[data-testid="stVegaLiteChart"]').parentElement : e.parentElement;
    for (; p; p = p.parentElement) {
      // the page's own scroller is the window: its room is the window's
      if (p.getAttribute('data-testid') === 'stMain') break;
      if (scrolls(p)) { end = null; break; }
      if (p.getAttribute('data-testid') === 'stColumn') {
        end = Math.min(room, p.getBoundingClientRect().right);
        break;
      }
    }
    if (end !== null && r.right > end + 1) {
      const holder = e.closest('[data-testid]');
      const what = (holder && holder !== e ? holder.getAttribute('data-testid') + ' > ' : '') +
        (e.getAttribute('data-testid') || e.tagName.toLowerCase()) +
        (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
      const text = (e.innerText || '').slice(0, 40).replace(/\\s+/g, ' ');
      out.push(`${what} "${text}" ${Math.round(r.right)} > ${Math.round(end)}`);
    }
  }
  // the innermost elements say where it is; their parents repeat it
  return out.slice(0, 12);
}"""
"""Every element whose right edge passes the room it has: its column's, or the window's; a
Vega chart by the canvas (or svg) it is drawn on (the suspicion chart, 654 px wide in a
358 px column, went unseen while charts were skipped).
The document's own width misses them (a 399 px table in a 307 px column, overflow visible,
ran 75 px past an 820 px window and the page did not widen). What sits in a box that
scrolls sideways (Streamlit's data frames, a text table made to scroll) is allowed."""


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the module (Playwright's sync API allows one at a time)."""
    with playwright.sync_playwright() as p:
        found = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield found
        found.close()


def _new_tab(browser: Any, server: str, width: int, height: int) -> Tab:
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    found = Tab(context.new_page(), width)
    _listen(found, server)
    return found


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda w: f"{w}px")
def tab(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Tab]:
    found = _new_tab(browser, server, request.param, 1400)
    yield found
    found.page.context.close()


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
        since = time.perf_counter()
        pg.goto(server + path)
        pg.get_by_role("heading", name=heading, exact=True).wait_for(timeout=90_000)
        pg.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=90_000)
        _timed(fresh, f"open {path}", since)
        fresh.settled()
        assert "Page not found" not in pg.content(), path
        assert "Deploy" not in pg.locator("header").inner_text(), path  # no developer toolbar
        # each tab titled with its page (and the game its address names), not all "warren"
        assert pg.title() == ("warren" if path == "/" else f"{heading} · warren"), path
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
    assert pg.title() == f"Replay · {BUNNIES_GAME} · warren"  # the page and the game, in the tab
    fresh.reruns.clear()
    for n in range(1, 4):
        since = time.perf_counter()
        pg.get_by_role("button", name="Next").click()
        fresh.wait(f"Event {n} of ")
        _timed(fresh, "step, Bunnies", since)  # from the click until the new position shows
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


def test_who_was_ahead_worked_out_drawn_and_clicked(server: str, fresh: Tab, shots: Path) -> None:
    """The chances chart: worked out on request (a quick look), kept for the next visitor
    (the other width finds it drawn), its turning points noted in the event list, and a
    click on the chart moves the position."""
    pg = fresh.page
    game = "kinderbunnies-fixture-really-advanced-to-the-last-carrot"
    pg.goto(f"{server}/replay?game={game}&seq=30&as=0")
    fresh.wait("Who was ahead?")
    fresh.settled()
    quick = pg.get_by_role("button", name="Work out a quick look")
    if quick.count():
        quick.click()
    chart = pg.locator(".st-key-chances_chart [data-testid='stVegaLiteChart'], "
                       "[data-testid='stVegaLiteChart']").last
    chart.wait_for(timeout=120_000)
    fresh.wait("the band is the 95% interval")
    fresh.settled()
    assert "Traceback" not in pg.content()
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box is not None and box["width"] <= fresh.width
    fresh.shot(shots, "replay-chances.png")
    pg.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.35)
    pg.wait_for_function("() => !location.search.includes('seq=30')", timeout=30_000)
    fresh.settled()
    assert "Event 30 of " not in pg.content()
    fresh.clean()


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
    # The tab of the other width opened this very branch first: then it is opened, not copied.
    answer = re.compile("Stored branch|stored already|No branch was stored")
    pg.get_by_text(answer).first.wait_for(timeout=30_000)
    assert re.search("Stored branch|stored already", pg.content()), \
        pg.get_by_text("No branch was stored").first.inner_text()
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
    since = time.perf_counter()
    pg.goto(f"{server}/stats")
    fresh.wait("Win rate by seat position", 90_000)
    pg.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=90_000)
    pg.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=90_000)
    _timed(fresh, "open /stats (one game)", since)
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
    # The promised reference line and counts are said under the chart that draws them.
    assert "The red tick on each bar is the fair share" in pg.content()
    assert "a group of fewer than 20 is marked" in pg.content()
    # Another game, picked by its name; its own reports, drawn only when asked for.
    picker = pg.get_by_role("combobox", name="Game")
    picker.click()
    picker.fill("Quest for")  # the picker finds a game by its name
    quest = "Killer Bunnies and the Quest for the Magic Carrot"
    pg.get_by_role("option").filter(has_text=quest).first.click()
    fresh.settled()
    since = time.perf_counter()
    pg.locator('[data-testid="stButtonGroup"] button').filter(has_text="Magic Carrot's own").click()
    fresh.wait("How bunnies die")
    pg.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=90_000)
    _timed(fresh, "Stats: one game's own reports", since)
    fresh.settled()
    assert "The red tick on each bar is the exact kill rate" in pg.content()
    for _ in range(12):
        pg.mouse.wheel(0, 900)
        pg.wait_for_timeout(100)
    pg.wait_for_timeout(800)


def test_players_and_a_players_page(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/players")
    fresh.wait("Who is the favourite tonight?", 90_000)
    fresh.settled()
    fresh.shot(shots, "players.png")
    pg.goto(f"{server}/players?player=Ann")
    pg.get_by_role("heading", name="Ann", exact=True).wait_for(timeout=90_000)
    fresh.wait("Rating in")
    fresh.settled()
    assert "did you mean" not in pg.content()
    pg.wait_for_timeout(800)
    fresh.shot(shots, "player.png")


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


# -- Killer Bunnies Quest: its board, a verdict and a branch ------------------------------------------------
QUEST_GAME = "killer-bunnies-quest-2026-000001"
QUEST_FIXTURE = "kbq-illegal-buying-from-a-closed-market"


def test_quest_replay_judge_and_branch(server: str, fresh: Tab, shots: Path) -> None:
    pg = fresh.page
    pg.goto(f"{server}/replay?game={QUEST_GAME}&seq=120&as=1")
    fresh.wait("Event 120 of ")
    fresh.wait("players (clockwise)")
    fresh.settled()
    pg.get_by_role("button", name="Next").click()
    fresh.wait("Event 121 of ")
    fresh.settled()
    content = pg.content()
    assert "Kaballa" in content and "carrots left" in content and "face down" in content
    fresh.shot(shots, "replay-killer-bunnies-quest.png")
    fresh.clean()

    pg.goto(f"{server}/disputes?game={QUEST_FIXTURE}&seq=22")
    fresh.wait("Propose the event recorded next")
    fresh.settled()
    pg.get_by_role("button", name="Propose the event recorded next").click()
    fresh.settled()
    pg.get_by_role("button", name="Judge").click()
    fresh.wait("market is closed")
    fresh.settled()
    assert "KBQ-MKT-4" in pg.content()
    fresh.shot(shots, "disputes-killer-bunnies-quest.png")

    # A what-if: the flip the rules allow instead of the purchase.
    box = pg.get_by_role("textbox", name="Proposed action(s)")
    box.fill("flip actor=0")
    box.press("Control+Enter")
    fresh.settled()
    pg.get_by_role("button", name="Judge").click()
    fresh.wait("turns up the top run card")  # the action in the game's words
    fresh.settled()
    verdicts = " ".join(pg.locator('[data-testid="stAlert"]').all_inner_texts())
    assert "actor=" not in verdicts, verdicts  # it read "buy cabbage actor=0"
    pg.get_by_role("button", name="Open branch").click()
    # The tab of the other width opened this very branch first: then it is opened, not copied.
    answer = re.compile("Stored branch|stored already|No branch was stored")
    pg.get_by_text(answer).first.wait_for(timeout=30_000)
    assert re.search("Stored branch|stored already", pg.content()), \
        pg.get_by_text("No branch was stored").first.inner_text()
    fresh.settled()


# -- KinderBunnies and Odyssey: their boards in the browser --------------------------------------------
@pytest.mark.parametrize("game, seq, seen, shot", [
    ("kinderbunnies-fixture-really-advanced-to-the-last-carrot", 60, ["carrot pile", "on the table"],
     "replay-kinderbunnies.png"),
    ("odyssey-board", 70, ["The Bunny Circle", "The Center Circle"], "replay-killer-bunnies-odyssey.png"),
])
def test_card_game_boards_replay(server: str, fresh: Tab, shots: Path, game: str, seq: int,
                                 seen: list[str], shot: str) -> None:
    pg = fresh.page
    pg.goto(f"{server}/replay?game={game}&seq={seq}&as=0")
    fresh.wait(f"Event {seq} of ")
    for text in seen:
        fresh.wait(text)
    fresh.settled()
    pg.get_by_role("button", name="Next").click()
    fresh.wait(f"Event {seq + 1} of ")
    fresh.settled()
    assert "Traceback" not in pg.content()
    fresh.shot(shots, shot)


# -- recording at the table -------------------------------------------------------------------------------
def _pick(tab: Tab, label: str, option: str) -> None:
    """Click one of a picker's buttons (st.pills), by the picker's label and the option's text."""
    label_text = tab.page.get_by_text(label, exact=True)
    group = tab.page.locator('[data-testid="stButtonGroup"]').filter(has=label_text)
    group.locator("button").filter(has_text=re.compile(f"^{re.escape(option)}$")).click()
    tab.settled()


def _record(tab: Tab, seq: int, button: str = "Record") -> None:
    """Press a Record button and wait for the entry to be stored as event ``seq``."""
    tab.page.get_by_role("button", name=button, exact=True).click()
    tab.wait(f"Recorded event {seq}:")
    tab.settled()


def _type(tab: Tab, entry: str) -> None:
    box = tab.page.get_by_role("textbox", name="Or type the entry")
    box.fill(entry)
    box.press("Enter")
    tab.settled()


def _start(tab: Tab, server: str, game_id: str, names: list[str], ruleset: str | None = None,
           first_seat: str | None = None) -> None:
    pg = tab.page
    pg.goto(f"{server}/record")
    tab.wait("Start a game")
    tab.settled()
    if ruleset is not None:
        pg.get_by_role("combobox", name="Ruleset").click()
        pg.get_by_role("option", name=ruleset).click()
        tab.settled()
    for seat, name in enumerate(names):
        box = pg.get_by_role("textbox", name=f"Player {seat + 1}")
        box.fill(name)
        box.press("Enter")
        tab.settled()
    if first_seat is not None:  # asked beside the names, by name (not among the options)
        picker = pg.get_by_role("combobox", name="Who plays first")
        picker.click()
        if tab.width == PHONE:  # a phone lists the options in a sheet of its own: type instead
            picker.fill(first_seat)
            picker.press("Enter")
        else:
            pg.get_by_role("option", name=first_seat).click()
        tab.settled()
    box = pg.get_by_role("textbox", name="Game id (optional)")
    box.fill(game_id)
    box.press("Enter")
    tab.settled()
    pg.get_by_role("button", name="Start recording").click()
    tab.wait("Next: the ")
    tab.settled()
    assert f"game={game_id}" in pg.url


def test_record_a_bunnies_game_at_the_table(server: str, db: Path, fresh: Tab, shots: Path) -> None:
    from logstore.store import Store
    from logstore.store.checking import check_bytes

    pg = fresh.page
    game = f"club-{fresh.width}"
    _start(fresh, server, game, ["Ann", "Bo"], first_seat="Ann")
    fresh.reruns.clear()
    _record(fresh, 1, "Record it")  # the deal, nobody's cards seen
    _record(fresh, 2)  # Ann draws
    _pick(fresh, "Cards", "9♣")
    fresh.wait("To record: Ann lays 9♣")
    _record(fresh, 3)
    _record(fresh, 4)  # Bo draws
    assert fresh.reruns and all(fresh.reruns), fresh.reruns  # each entry: the recording fragment only
    _type(fresh, "lay 5C")
    fresh.wait("does not equal or beat the top card 9♣")
    assert "BUN-LAY-2" in pg.content() and "Nothing was written" in pg.content()
    pg.mouse.move(0, 0)  # no button drawn hovered in the screenshot
    fresh.shot(shots, "record.png")
    _type(fresh, "Bo: pickup")
    fresh.wait("Recorded event 5: Bo picks up the face-up pile")
    fresh.wait("no card of rank 9 or higher")  # undetermined: nobody saw Bo's hand
    fresh.settled()
    pg.get_by_role("button", name="Undo the last entry").click()
    fresh.wait("Recorded event 6: the table strikes event 5 (undone at the table)")
    fresh.settled()
    with pg.expect_download() as download:
        pg.get_by_role("button", name="Download the record").click()
    data = Path(download.value.path()).read_bytes()
    with Store(db) as store:
        assert data == store.export(game)  # the store's sealed record, byte for byte
    checked = check_bytes(data, f"{game}.jsonl")
    assert checked.ok and checked.chain == "sealed" and checked.events == 6


def test_two_tabs_recording_one_game_never_fork_it(server: str, db: Path, fresh: Tab) -> None:
    from logstore.store import Store
    from logstore.store.checking import check_bytes

    game = f"two-tabs-{fresh.width}"
    _start(fresh, server, game, ["Ann", "Bo"], first_seat="Ann")
    _record(fresh, 1, "Record it")
    other = Tab(fresh.page.context.new_page(), fresh.width)
    _listen(other, server)
    try:
        other.page.goto(f"{server}/record?game={game}")
        other.wait("waiting for Ann: draw")
        other.settled()
        _record(fresh, 2)  # the first tab records Ann's draw
        other.page.get_by_role("button", name="Record", exact=True).click()  # the second, its stale draw
        other.wait("another device recorded meanwhile")
        other.wait("the game is now at event 2: 2: Ann draws a card")
        other.wait("waiting for Ann: lay")  # the fresh position
        other.settled()
        with Store(db) as store:
            assert store.game(game).n_events == 2
        _pick(other, "Cards", "9♣")
        _record(other, 3)  # now the second tab is ahead
        _pick(fresh, "Cards", "9♥")
        fresh.page.get_by_role("button", name="Record", exact=True).click()
        fresh.wait("the game is now at event 3: 3: Ann lays 9♣")
        fresh.wait("waiting for Bo: draw")
        fresh.settled()
        with Store(db) as store:
            record = store.export(game)
        checked = check_bytes(record, game)
        assert checked.ok and checked.chain == "sealed" and checked.events == 3
        other.clean()
    finally:
        other.page.close()


def test_record_the_start_of_a_five_player_trust_no_bunny_game(server: str, fresh: Tab, shots: Path) -> None:
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    _start(fresh, server, f"tnb-club-{fresh.width}", names, ruleset="Trust No Bunny")
    fresh.wait("the table saw the first mayor")
    _type(fresh, "roles first_mayor=2")  # typed over the table's template, as warren record reads it
    fresh.wait("Recorded event 1: the roles are dealt in secret; first mayor Cat")
    fresh.settled()
    _record(fresh, 2, "Record it")  # the Items offered, nobody saw which
    for seat, name in enumerate(names):
        fresh.wait(f"{name}: choose item" if seat == len(names) - 1 else "Who acts")
        _record(fresh, 3 + seat)
    _record(fresh, 8, "Record it")  # the deal
    for seat in range(len(names)):
        _record(fresh, 9 + seat)  # ready, accusing nobody
    fresh.wait("Cat: propose")
    _pick(fresh, "Proposed team", "Cat")
    _pick(fresh, "Proposed team", "Dan")
    fresh.wait("To record: Cat proposes Cat and Dan as guards")
    _record(fresh, 14)
    for seat in range(len(names)):
        if seat == 3:  # the vote half recorded, for the README
            fresh.page.mouse.move(0, 0)
            fresh.shot(shots, "record-trust-no-bunny.png")
        _pick(fresh, "Accept", "yes")
        _record(fresh, 15 + seat)
    fresh.wait("To record: Ann acts tonight")  # the first night: the table sees who acts, not what
    assert "5 yes, 0 no" in fresh.page.content()


def test_record_the_start_of_a_quest_game_at_the_table(server: str, db: Path, fresh: Tab) -> None:
    """Quest as the table saw it (R-KBQ-40): the first player typed by name, the deal one
    draw at a time (another player's card unseen, the scorekeeper's own by name)."""
    from logstore.store import Store

    game = f"quest-club-{fresh.width}"
    _start(fresh, server, game, ["Ann", "Bo"], ruleset="Killer Bunnies and the Quest for the Magic Carrot")
    fresh.wait("the table saw the first to play")
    _type(fresh, "setup first=Bo")
    fresh.wait("Recorded event 1: the set-up: every deck is shuffled; Bo plays first")
    fresh.settled()
    _record(fresh, 2, "Record it")  # Bo's first card, unseen
    fresh.wait("Recorded event 2: Bo draws a card")
    _type(fresh, "Sword")  # the scorekeeper's own card, by name (the page says what the table saw)
    fresh.wait("Recorded event 3: Ann draws a card")
    fresh.settled()
    _record(fresh, 4, "Record it")  # Bo's second
    with Store(db) as store:
        events = store.record(game).events
    assert [type(e).__name__ for e in events] == ["Setup", "Draw", "Draw", "Draw"]
    assert [getattr(e, "card", None) for e in events[1:]] == ["?", 41, "?"]


# -- a phone: a replay and the Record page at 390 px ------------------------------------------------------
@pytest.fixture(scope="module")
def phone(browser: Any, server: str) -> Iterator[Tab]:
    found = _new_tab(browser, server, PHONE, 844)
    yield found
    found.page.context.close()


@pytest.mark.parametrize("game, seq", [(BUNNIES_GAME, 25), (QUEST_GAME, 120), (TNB_GAME, 60)])
def test_a_replay_reads_at_phone_width(server: str, phone: Tab, shots: Path, game: str, seq: int) -> None:
    phone.console.clear()
    pg = phone.page
    pg.goto(f"{server}/replay?game={game}&seq={seq}&as=0")
    phone.wait(f"Event {seq} of ")
    phone.settled()
    phone.clean()
    since = time.perf_counter()
    pg.get_by_role("button", name="Next").click()
    phone.wait(f"Event {seq + 1} of ")
    _timed(phone, f"step, {game.rsplit('-', 2)[0]}", since)
    phone.settled()
    phone.clean()
    if game == QUEST_GAME:
        phone.shot(shots, "phone-replay-killer-bunnies-quest.png")


def test_the_record_page_works_at_phone_width(server: str, phone: Tab, shots: Path) -> None:
    phone.console.clear()
    _start(phone, server, "club-phone", ["Ann", "Bo"], first_seat="Ann")
    phone.clean()
    # the entry first, above the board: recording an event needs no scroll past the board
    entry = phone.page.get_by_role("textbox", name="Or type the entry").bounding_box()
    board = phone.page.locator(".wr-board").first.bounding_box()
    assert entry is not None and board is not None and entry["y"] < board["y"], (entry, board)
    _record(phone, 1, "Record it")
    _record(phone, 2)
    _pick(phone, "Cards", "9♣")
    phone.wait("To record: Ann lays 9♣")
    _record(phone, 3)
    phone.clean()
    phone.page.mouse.move(0, 0)
    phone.shot(shots, "phone-record.png")
