"""The interpreter's tables are typed: a check, apply, outcome or options function registered
with the wrong signature for its game is a mypy error (the tables took ``Any`` once, and a
wrong function was only found when a card played it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")
ROOT = Path(__file__).resolve().parents[2]

GAME = '''
from __future__ import annotations

from typing import Any

from engine.killer.catalogue import effects as fx
from engine.killer.interpreter import Interpreter

TOY: Interpreter[list[int], str, bytes] = Interpreter("toy")


@TOY.check(fx.Feed)
def _check(state: list[int], ctx: str, effect: fx.Feed, event: bytes) -> None:
    return None


@TOY.apply(fx.Feed)
def _apply(state: list[int], ctx: str, effect: fx.Feed, out: list[Any]) -> None:
    return None


@TOY.options(fx.Feed)
def _options(state: list[int], seat: int, effect: fx.Feed) -> list[Any]:
    return []
'''

WRONG = '''

@TOY.apply(fx.Attack)
def _wrong(state: dict[str, int], ctx: str, effect: fx.Attack, out: list[Any]) -> None:
    return None
'''


def _mypy(tmp_path: Path, text: str) -> tuple[str, int]:
    module = tmp_path / "toy_game.py"
    module.write_text(text, encoding="utf-8")
    # In a process of its own: mypy raises the recursion limit of the process it runs in.
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir",
                           str(tmp_path / "cache"), "--follow-imports", "silent", str(module)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return done.stdout + done.stderr, done.returncode


def test_a_function_of_the_right_shape_is_accepted_and_a_wrong_one_refused(tmp_path: Path) -> None:
    said, code = _mypy(tmp_path, GAME)
    assert code == 0, said
    said, code = _mypy(tmp_path, GAME + WRONG)
    assert code == 1 and "arg-type" in said and "dict[str, int]" in said, said
