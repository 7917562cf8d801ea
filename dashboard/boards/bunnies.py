"""The Bunnies board: hands, the blind-card layout, the pile, the bunnies."""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, card, label, row
from engine.bunnies.layout import OWN_SLOTS


def _blind_row(blinds: dict[str, dict[str, Any]], slots: tuple[str, ...]) -> str:
    tiles = []
    for slot in slots:
        cell = blinds.get(slot)
        if cell is None:
            tiles.append(card(None, slot=slot))
        else:
            tiles.append(card(cell["card"], covered=cell["covered"], slot=slot))
    return row(tiles)


def render_html(view: dict[str, Any], names: list[str]) -> str:
    """HTML for a Bunnies view (already filtered to one perspective)."""
    blinds = view["blinds"]
    parts = [CSS, '<div class="wr-board">']
    for seat in (1, 0):  # seat 1 across the table, seat 0 nearest
        hand = view["hands"][seat]
        active = " active" if view["active"] == seat else ""
        bunnies = view["bunnies"][seat]
        parts.append(f'<div class="wr-seat{active}"><b>seat {seat}: {escape(names[seat])}</b> '
                     f'<span class="wr-chip">bunnies {len(bunnies)}</span>'
                     + "".join(f'<span class="wr-chip">🐇 {escape(r)}</span>' for r in bunnies)
                     + (f'<span class="wr-chip">score {view["scores"][seat]}</span>'
                        if view["scores"] else ""))
        if isinstance(hand, list):
            parts.append(label(f"hand ({len(hand)})") + row([card(c) for c in hand] or ["(empty)"]))
        else:
            parts.append(label(f"hand ({hand}, hidden)") + row([card("??") for _ in range(min(hand, 20))]))
        parts.append(label("blind cards") + _blind_row(blinds, OWN_SLOTS[seat]))
        parts.append("</div>")
        if seat == 1:
            parts.append(label("shared blind cards (left, right, top)")
                         + _blind_row(blinds, ("left", "right", "top")))
    pile = view["pile"]
    stock = view["stock"]
    n_stock = len(stock) if isinstance(stock, list) else stock
    parts.append(label(f"face-up pile ({len(pile)})   ·   stock: {n_stock} cards"))
    parts.append(row([card(c, top=(i == len(pile) - 1)) for i, c in enumerate(pile)] or ["(empty)"]))
    parts.append("</div>")
    return "".join(parts)
