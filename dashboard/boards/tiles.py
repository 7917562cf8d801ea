"""Cards drawn as HTML tiles, shared by every board, with the legend that explains them.

Nothing here is an emoji: a machine without an emoji font would draw empty boxes. Suits are
the plain card-suit characters every text font has; everything else is words and colour.
"""

from __future__ import annotations

from html import escape

from engine.bunnies.words import card_face

CSS = """
<style>
.wr-board {font-family: system-ui, sans-serif; line-height: 1.3; color: #222;}
.wr-row {display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 2px 0 8px 0;}
.wr-label {font-size: 0.8rem; color: #555; margin-top: 6px;}
.wr-card {display: inline-flex; flex-direction: column; justify-content: center; align-items: center;
  width: 38px; height: 54px; border: 1px solid #888; border-radius: 5px; background: #fff;
  font-weight: 600; font-size: 0.95rem; box-shadow: 1px 1px 2px rgba(0,0,0,0.15); color: #222;
  position: relative; box-sizing: border-box; flex: none;}
.wr-card.red {color: #c0392b;}
.wr-card.back {background: repeating-linear-gradient(45deg, #3b6ea5, #3b6ea5 4px, #5784b8 4px, #5784b8 8px);}
.wr-card.covered::after {content: ""; position: absolute; inset: 0; border-radius: 4px;
  background: repeating-linear-gradient(-45deg, rgba(60,60,60,0.55) 0 3px, transparent 3px 7px);}
.wr-card.known {border: 2px solid #3b6ea5;}
.wr-card.gone {background: #fafafa; border: 1px dashed #aaa; box-shadow: none;}
.wr-card.top {outline: 3px solid #e1b000; outline-offset: 1px;}
.wr-seat {border: 1px solid #ddd; border-radius: 8px; padding: 6px 10px; margin-bottom: 8px;}
.wr-seat.active {border-color: #1e8449; box-shadow: 0 0 0 2px rgba(30,132,73,0.25);}
.wr-chip {display: inline-block; padding: 1px 8px; border-radius: 10px; background: #eee;
  font-size: 0.8rem; margin: 1px 4px 1px 0; white-space: nowrap;}
.wr-chip.turn {background: #d5f5e3; color: #145a32; font-weight: 600;}
.wr-bar {height: 14px; background: #eee; border-radius: 7px; overflow: hidden; width: 160px; max-width: 40vw;
  display: inline-block; vertical-align: middle;}
.wr-bar > div {height: 100%;}
.wr-legend {display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 0.78rem; color: #444;
  border-top: 1px solid #eee; padding-top: 6px; margin-top: 4px;}
.wr-legend > span {display: inline-flex; align-items: center; gap: 5px;}
.wr-legend .wr-card {width: 20px; height: 28px; font-size: 0.6rem; line-height: 1.05; box-shadow: none;}
.wr-table {display: flex; flex-wrap: wrap; gap: 10px 22px; align-items: flex-start; margin: 6px 0 10px 0;}
.wr-fan {display: flex; align-items: center;}
.wr-fan .wr-card {justify-content: flex-start; align-items: flex-start; padding: 2px 0 0 3px;
  line-height: 1.05;}
.wr-fan .wr-card + .wr-card {margin-left: -18px;}
.wr-count {font-size: 0.78rem; color: #555; margin-left: 6px;}
.wr-board table {border-collapse: collapse; font-size: 0.85rem; max-width: 100%;}
.wr-board th, .wr-board td {padding: 2px 8px; border-bottom: 1px solid #eee; text-align: left;
  vertical-align: top;}
@media (max-width: 640px) {
  .wr-board th, .wr-board td {padding: 2px 4px; font-size: 0.78rem;}
}
</style>
"""


def card(code: str | None, *, covered: bool = False, top: bool = False, known: bool = False,
         place: str = "") -> str:
    """One card tile: a face (``QH``), a back (``??``) or an empty place (None); ``known``
    marks a face-down card whose face this perspective knows. ``place`` says where it lies,
    in words, shown on hover."""
    title = f' title="{escape(place)}"' if place else ""
    if code is None:
        return f'<span class="wr-card gone"{title}></span>'
    classes = ["wr-card"]
    if covered:
        classes.append("covered")
    if top:
        classes.append("top")
    if known:
        classes.append("known")
    if code in ("??", "?"):
        classes.append("back")
        return f'<span class="{" ".join(classes)}"{title}></span>'
    face = card_face(code)
    rank, suit = face[:-1], face[-1]
    if code[-1] in "HD":
        classes.append("red")
    return f'<span class="{" ".join(classes)}"{title}>{escape(rank)}<br>{escape(suit)}</span>'


def row(tiles: list[str]) -> str:
    return '<div class="wr-row">' + "".join(tiles) + "</div>"


def label(text: str) -> str:
    return f'<div class="wr-label">{escape(text)}</div>'


def legend(items: list[tuple[str, str]]) -> str:
    """A legend: each item is a tile (HTML) and what it means."""
    return ('<div class="wr-legend">'
            + "".join(f"<span>{tile}{escape(text)}</span>" for tile, text in items) + "</div>")
