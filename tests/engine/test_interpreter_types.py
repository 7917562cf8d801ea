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


PORTED = '''
from __future__ import annotations

from engine.killer_bunnies_odyssey.cards import ODYSSEY
from engine.killer_bunnies_odyssey.port import PORT as ODYSSEY_PORT
from engine.killer_bunnies_quest.catalogue import QUEST
from engine.killer_bunnies_quest.port import PORT as QUEST_PORT
from engine.kinderbunnies.cards import KINDER
from engine.kinderbunnies.port import PORT as KINDER_PORT
from tests.games.killer.toy_census import Census

QUEST.adopt(Census, QUEST_PORT)
KINDER.adopt(Census, KINDER_PORT)
ODYSSEY.adopt(Census, ODYSSEY_PORT)
'''

CROSSED = '''
QUEST.adopt(Census, KINDER_PORT)
'''


def test_a_primitive_written_once_is_adopted_through_each_game_s_own_port(tmp_path: Path) -> None:
    """The toy primitive (tests/games/killer/toy_census.py) is checked by mypy --strict against
    the Port protocol, and each game's port against its interpreter: a port of another game
    (whose frames and states are others) is an error."""
    said, code = _mypy(tmp_path, PORTED)
    assert code == 0, said
    said, code = _mypy(tmp_path, PORTED + CROSSED)
    assert code == 1 and "arg-type" in said and "KinderPort" in said, said
