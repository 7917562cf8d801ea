"""The dashboard's drawing of a Carrot Nim position."""

from __future__ import annotations

from html import escape
from typing import Any


def render_html(view: dict[str, Any], names: list[str]) -> str:
    rows = zip(names, view["taken"], strict=True)
    taken = "".join(f"<li>{escape(name)}: {n} carrots</li>" for name, n in rows)
    return f"<div class='carrot-nim'><p>Pile: {view['pile']} carrots left</p><ul>{taken}</ul></div>"
