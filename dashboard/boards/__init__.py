"""One board drawing per ruleset; a plain table for a ruleset without one.

Boards are plugins like rulesets: the entry-point group ``warren.boards`` maps a slug to
a function ``render_html(view, names) -> str`` (engine.registry), so a game installed
with ``pip`` brings its board along and this module names no game.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from engine.registry import BOARDS, load_plugin, plugins

Board = Callable[[dict[str, Any], list[str]], str]


def _generic(view: dict[str, Any], names: list[str]) -> str:
    rows = "".join(f"<tr><td><b>{escape(str(k))}</b></td><td>{escape(str(v))}</td></tr>"
                   for k, v in view.items())
    return f"<table>{rows}</table>"


def board_for(ruleset: str) -> Board:
    """The ruleset's board drawing, or a plain table of the view."""
    if ruleset not in plugins(BOARDS):
        return _generic
    board: Board = load_plugin(BOARDS, ruleset)
    return board


def board_html(ruleset: str, view: dict[str, Any], names: list[str]) -> str:
    return board_for(ruleset)(view, names)
