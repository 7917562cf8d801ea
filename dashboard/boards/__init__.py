"""One board drawing per ruleset; a plain table for a ruleset without one."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from dashboard.boards import bunnies, trust_no_bunny

Board = Callable[[dict[str, Any], list[str]], str]

BOARDS: dict[str, Board] = {
    "bunnies": bunnies.render_html,
    "trust-no-bunny": trust_no_bunny.render_html,
}


def _generic(view: dict[str, Any], names: list[str]) -> str:
    rows = "".join(f"<tr><td><b>{escape(str(k))}</b></td><td>{escape(str(v))}</td></tr>"
                   for k, v in view.items())
    return f"<table>{rows}</table>"


def board_html(ruleset: str, view: dict[str, Any], names: list[str]) -> str:
    return BOARDS.get(ruleset, _generic)(view, names)
