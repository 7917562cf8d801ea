"""A game from outside warren: installed with pip, found through its entry points.

The example plugin (tests/plugins/example, the game Carrot Nim) is installed into a
temporary folder, then used end to end: ``simulate``, ``check``, ``import``, ``replay``
from the command line, the whole contract suite, and the dashboard's replay page with the
plugin's own board. Nothing in warren names the game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "tests" / "plugins" / "example"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--target", str(target), str(PLUGIN)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return target


def _env(site: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), env.get("PYTHONPATH", "")])
    return env


WARREN = [sys.executable, "-c", "from logstore.cli import main; main()"]
"""The console script ``warren``, run by this interpreter."""


def warren(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*WARREN, *args], capture_output=True, text=True, env=_env(site), cwd=ROOT,
                          timeout=300)


def test_the_cli_plays_checks_stores_and_replays_a_plugin_game(installed: Path, tmp_path: Path) -> None:
    out = tmp_path / "games"
    done = warren(installed, "simulate", "carrot-nim", "--games", "3", "--seed", "5", "--players", "3",
                  "--out", str(out))
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob("*.jsonl"))
    assert len(files) == 3
    checked = warren(installed, "check", str(out), "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = [json.loads(line) for line in checked.stdout.splitlines()]
    assert all(r["ok"] and r["ruleset"] == "carrot-nim" and r["chain"] == "sealed" for r in lines)
    db = tmp_path / "warren.db"
    assert warren(installed, "import", str(out), "--db", str(db)).returncode == 0
    game = files[0].stem
    shown = warren(installed, "replay", game, "--to", "1", "--json", "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    view = json.loads(shown.stdout)["view"]
    assert view["pile"] == 15 and view["active"] in (0, 1, 2)
    # Its own canned statistics (entry point warren.stats) are listed and run with warren's.
    listed = warren(installed, "stats", "--list")
    assert listed.returncode == 0, listed.stderr
    assert "carrot-nim/takes_per_game" in listed.stdout and "win_rate_by_seat" in listed.stdout
    stats = warren(installed, "stats", "--ruleset", "carrot-nim", "--format", "json", "--db", str(db))
    assert stats.returncode == 0, stats.stderr
    rows = [json.loads(line) for line in stats.stdout.splitlines()]
    takes = [r for r in rows if r["stat"] == "carrot-nim/takes_per_game"]
    assert takes == [{"stat": "carrot-nim/takes_per_game", "carrots": 15, "games": 3,
                      "takes_min": takes[0]["takes_min"], "takes_mean": takes[0]["takes_mean"],
                      "takes_max": takes[0]["takes_max"]}]
    # a take removes 1 to 3 of the 15 carrots: between 5 and 15 takes
    assert 5 <= takes[0]["takes_min"] <= takes[0]["takes_mean"] <= takes[0]["takes_max"] <= 15
    assert any(r["stat"] == "win_rate_by_seat" for r in rows)
    # Without the plugin installed, the same record names an unknown ruleset, plainly.
    alone = subprocess.run([*WARREN, "check", str(files[0]), "--json"],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert alone.returncode == 2
    assert "unknown ruleset 'carrot-nim'" in json.loads(alone.stdout)["error"]


def test_the_contract_suite_runs_on_the_plugin(installed: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "carrot-nim",
         str(ROOT / "tests" / "contract" / "test_rulesets.py")],
        capture_output=True, text=True, env=_env(installed), cwd=ROOT, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


@pytest.fixture()
def plugin_in_process(installed: Path) -> Iterator[None]:
    sys.path.insert(0, str(installed))
    registry.refresh()
    yield
    sys.path.remove(str(installed))
    for name in [m for m in sys.modules if m.startswith("warren_example")]:
        del sys.modules[name]
    registry.refresh()


def test_the_dashboard_replays_a_plugin_game_with_its_board(plugin_in_process: None, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    from engine.simulate import simulate_one
    from logstore.store import Store
    from tests.dashboard.conftest import APP

    rs = registry.get_ruleset("carrot-nim")
    game = simulate_one(rs, 9, 0, players=2)
    db = tmp_path / "warren.db"
    with Store(db) as store:
        store.import_bytes(b"".join(game.lines()), "nim.jsonl")
    monkeypatch.setenv("WARREN_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["game"] = game.header.game_id
    at.query_params["seq"] = "2"
    at.switch_page("screens/replay.py").run()
    assert not at.exception, at.exception
    board = "".join(h.proto.body for h in at.get("html"))
    assert "carrot-nim" in board and "carrots left" in board
    # The Stats page shows the plugin's own report under the game's own section.
    stats = AppTest.from_file(str(APP), default_timeout=60)
    stats.switch_page("screens/stats.py").run()
    assert not stats.exception, stats.exception
    stats.segmented_control(key="stats_section").set_value("own").run()
    assert not stats.exception, stats.exception
    titles = [h.value for h in stats.subheader]
    assert "Carrot Nim: how many takes a game lasts, by the carrots in the pile at the start" in titles
