"""Plugins that break, exit or claim a shipped slug: warren's own games win, a broken
plugin is named once and skipped, and no command (``demo`` included) dies of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WARREN = [sys.executable, "-c", "from logstore.cli import main; main()"]


def _distribution(site: Path, name: str, entry_points: str, modules: dict[str, str]) -> None:
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    for module, code in modules.items():
        (site / f"{module}.py").write_text(code)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("hostile-site")
    _distribution(site, "bad_games", "[warren.rulesets]\nbroken-game = bad_broken:RULESET\n"
                  "exiting-game = bad_exit:RULESET\nbunnies = bad_exit:RULESET\n",
                  {"bad_broken": "raise RuntimeError('this plugin is broken')\n",
                   "bad_exit": "import sys\nsys.exit(7)\n"})
    return site


def warren(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run([*WARREN, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)


def test_a_shipped_slug_is_kept_and_the_claimant_named(hostile: Path, tmp_path: Path) -> None:
    done = warren(hostile, "rules", "bunnies", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "BUN-LAY-2" in done.stdout
    assert "bad_games" in done.stderr and "'bunnies' is warren's own" in done.stderr
    assert done.stderr.count("'bunnies' is warren's own") == 1


def test_a_broken_or_exiting_plugin_is_refused_with_its_cause(hostile: Path, tmp_path: Path) -> None:
    for slug, cause in (("broken-game", "RuntimeError: this plugin is broken"), ("exiting-game", "exit(7)")):
        done = warren(hostile, "rules", slug, cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert cause in done.stderr and "bad_games" in done.stderr and "Traceback" not in done.stderr


def test_demo_goes_on_without_the_broken_plugins(hostile: Path, tmp_path: Path) -> None:
    done = warren(hostile, "demo", "--no-serve", "--games", "1", "--db", str(tmp_path / "w.db"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for slug in ("broken-game", "exiting-game"):
        assert sum(slug in line for line in done.stderr.splitlines() if line.startswith("warning:")) == 1
    assert "Traceback" not in done.stderr
