"""Small tables of text (effects, rules, facts) as HTML whose cells wrap, so no rule's
paraphrase or ruling's question is ever cut off mid-word."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import streamlit as st

from logstore.textsafe import markdown

CSS = """<style>
.wr-text-table {border-collapse: collapse; width: 100%; font-size: 0.85rem; line-height: 1.35;
  font-family: system-ui, sans-serif;}
.wr-text-table th, .wr-text-table td {padding: 4px 8px; overflow-wrap: anywhere;
  min-width: min(5.5em, 12vw);}
.wr-text-table th {text-align: left; font-weight: 600; color: #444; border-bottom: 2px solid #ddd;}
@media (max-width: 640px) {
  .wr-text-table th, .wr-text-table td {padding: 4px 4px;}
  .wr-text-table th {overflow-wrap: normal;}
  .wr-text-table td.id {min-width: 6.5em;}
}
.wr-text-table td {border-bottom: 1px solid #eee; vertical-align: top;}
.wr-text-table tr.current td {background: #fff3c4; font-weight: 600;}
</style>"""
"""A text table fits its column at any width. Cells wrap between words, a rule id at its
hyphens; a word longer than its cell breaks inside itself only as a last resort (a rule id
kept on one line ran the effects table 75 px past its column at 820 px). ``anywhere`` alone
let the table squeeze a short column to a letter or two ("card play ed"): the minimum width
keeps a short word whole, and shrinks with a phone's screen. On a phone, where a table has
the screen's width to itself, a header and a rule id never break inside a word ("even/t",
"TNB-DRA/W-1" at 390 px): a header is a word or two; a rule id's column is wide enough for
the part between two hyphens, where the browser breaks it first."""


def html_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, *,
               current: int | None = None, classes: dict[str, str] | None = None) -> str:
    """Rows (dicts of plain values) as an HTML table; ``current`` highlights one row;
    ``classes`` gives a column a CSS class."""
    if not rows:
        return ""
    columns = list(columns or rows[0].keys())
    # Rule ids and event numbers break only at their hyphens.
    classes = {"rule": "id", "event": "id", **(classes or {})}
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = []
    for i, row in enumerate(rows):
        cells = "".join(
            (f'<td class="{classes[c]}">' if c in classes else "<td>") + escape(_text(row.get(c))) + "</td>"
            for c in columns)
        body.append(f'<tr class="current">{cells}</tr>' if i == current else f"<tr>{cells}</tr>")
    return f'{CSS}<table class="wr-text-table"><tr>{head}</tr>{"".join(body)}</table>'


def _text(value: Any) -> str:
    if value is None:
        return ""
    return str(value)


def show(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, **kwargs: Any) -> None:
    """Draw :func:`html_table` on the page (nothing for no rows)."""
    if rows:
        st.html(html_table(rows, columns, **kwargs))


def md(text: object) -> str:
    """Text from a record, the store or a link (a player's name, a game id, an event in
    words, an error that quotes them) made literal inside Markdown (logstore.textsafe): a
    name like ``bo_2_`` stays as typed, and ``[log in](http://...)``, ``![](http://...)``,
    ``:red[...]`` or ``$...$`` show as the characters they are."""
    return markdown(str(text))


def bullets(lines: Sequence[str]) -> str:
    """Lines of text as an HTML list (each escaped)."""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f'<ul style="margin:0 0 8px 0;padding-left:1.2em;font-size:0.88rem;line-height:1.4">{items}</ul>'
