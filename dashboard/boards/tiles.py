"""Cards drawn as HTML tiles, shared by every board."""

from __future__ import annotations

from html import escape

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_NAME = {"T": "10"}

CSS = """
<style>
.wr-board {font-family: system-ui, sans-serif; line-height: 1.3;}
.wr-row {display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 2px 0 8px 0;}
.wr-label {font-size: 0.8rem; color: #666; margin-top: 6px;}
.wr-card {display: inline-flex; flex-direction: column; justify-content: center; align-items: center;
  width: 38px; height: 54px; border: 1px solid #888; border-radius: 5px; background: #fff;
  font-weight: 600; font-size: 0.95rem; box-shadow: 1px 1px 2px rgba(0,0,0,0.15); color: #222;}
.wr-card.red {color: #c0392b;}
.wr-card.back {background: repeating-linear-gradient(45deg, #3b6ea5, #3b6ea5 4px, #5784b8 4px, #5784b8 8px);
  color: #fff; font-size: 0.7rem;}
.wr-card.covered {opacity: 0.45;}
.wr-card.gone {background: none; border: 1px dashed #bbb; box-shadow: none; color: #bbb;}
.wr-card.top {outline: 3px solid #f1c40f;}
.wr-seat {border: 1px solid #ddd; border-radius: 8px; padding: 6px 10px; margin-bottom: 8px;}
.wr-seat.active {border-color: #27ae60; box-shadow: 0 0 0 2px rgba(39,174,96,0.25);}
.wr-chip {display: inline-block; padding: 1px 8px; border-radius: 10px; background: #eee;
  font-size: 0.8rem; margin-right: 4px;}
.wr-bar {height: 14px; background: #eee; border-radius: 7px; overflow: hidden; width: 220px;
  display: inline-block; vertical-align: middle;}
.wr-bar > div {height: 100%; background: #27ae60;}
</style>
"""


def card(code: str | None, *, covered: bool = False, top: bool = False, slot: str = "") -> str:
    """One card tile: a face (``QH``), a back (``??``) or an empty place (None)."""
    title = f' title="{escape(slot)}"' if slot else ""
    if code is None:
        return f'<span class="wr-card gone"{title}>{escape(slot)}</span>'
    classes = ["wr-card"]
    if covered:
        classes.append("covered")
    if top:
        classes.append("top")
    if code == "??":
        classes.append("back")
        return f'<span class="{" ".join(classes)}"{title}>{escape(slot)}</span>'
    rank, suit = code[:-1], code[-1]
    if suit in "HD":
        classes.append("red")
    face = f"{RANK_NAME.get(rank, rank)}<br>{SUIT_SYMBOL.get(suit, suit)}"
    return f'<span class="{" ".join(classes)}"{title}>{face}</span>'


def row(tiles: list[str]) -> str:
    return '<div class="wr-row">' + "".join(tiles) + "</div>"


def label(text: str) -> str:
    return f'<div class="wr-label">{escape(text)}</div>'
