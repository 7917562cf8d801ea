"""The Bunnies board, drawn as the two players sit at the table: the player across at the
top, the one looking (or seat 0) nearest, and between them the shared blind cards, the
face-up pile and the stock. Each player's four blind cards lie in a row, columns 1 to 4 as
the dealer sees them; the left shared card lies across column 2 of both rows, the right one
across column 3, the top one across those two (engine.bunnies.layout). A legend says what
each kind of tile means; hovering a blind card says whose it is and what covers it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, card, label, legend, row
from engine.bunnies.layout import COVERED_BY, OWN_SLOTS
from engine.bunnies.words import RANK_WORDS, slot_text
from engine.wording import seat_name

PILE_SHOWN = 8
"""The face-up pile shows its top cards, fanned; the count says how many lie below."""


def _place(slot: str, names: list[str], cell: dict[str, Any] | None) -> str:
    """What a blind card's tile says on hover."""
    where = slot_text(slot, names)
    where = where[0].upper() + where[1:]
    if cell is None:
        return f"{where}: gone (it has left the table)"
    state = "face down, not seen from here" if cell["card"] == "??" else "face down, known from here"
    cover = COVERED_BY.get(slot)
    covered = f"; covered by the {cover} shared card" if cell["covered"] and cover else ""
    return f"{where}: {state}{covered}"


def _blind(blinds: dict[str, dict[str, Any]], slot: str, names: list[str]) -> str:
    cell = blinds.get(slot)
    place = _place(slot, names, cell)
    if cell is None:
        return card(None, place=place)
    return card(cell["card"], covered=cell["covered"], known=cell["card"] != "??", place=place)


def _seat(view: dict[str, Any], seat: int, names: list[str], *, near: bool) -> str:
    """One player's side of the table: name, bunnies, hand and blind-card row. The nearer
    player's blind cards lie between the middle and the hand, as at the table."""
    hand = view["hands"][seat]
    bunnies = view["bunnies"][seat]
    active = view["active"] == seat and not view["over"]
    chips = ['<span class="wr-chip turn">to play</span>'] if active else []
    chips.append(f'<span class="wr-chip">bunnies: {len(bunnies)}'
                 + (" (" + ", ".join(RANK_WORDS.get(r, r) for r in bunnies) + ")" if bunnies else "")
                 + "</span>")
    if view["scores"]:
        chips.append(f'<span class="wr-chip">score {view["scores"][seat]}</span>')
    seat_no = f"<small style='white-space:nowrap'>seat {seat}</small>"
    head = f"<div><b>{escape(seat_name(seat, names))}</b> {seat_no} {''.join(chips)}</div>"
    if isinstance(hand, list):
        hand_html = label(f"hand ({len(hand)})") + row([card(c) for c in hand] or ["<i>empty</i>"])
    else:
        shown = min(hand, 20)
        hand_html = (label(f"hand ({hand} cards, not seen from here)")
                     + row([card("??") for _ in range(shown)] + ([f"+{hand - shown}"] if hand > shown else [])
                           or ["<i>empty</i>"]))
    blinds = label("blind cards") + row([_blind(view["blinds"], s, names) for s in OWN_SLOTS[seat]])
    body = blinds + hand_html if near else hand_html + blinds
    return f'<div class="wr-seat{" active" if active else ""}">{head}{body}</div>'


def _middle(view: dict[str, Any], names: list[str]) -> str:
    """The shared blind cards (top lying across left and right), the pile and the stock."""
    blinds = view["blinds"]
    tiles = {s: _blind(blinds, s, names) for s in ("left", "right", "top")}
    shared = ('<div style="position:relative;width:96px;height:74px">'
              f'<div style="position:absolute;left:0;top:0">{tiles["left"]}</div>'
              f'<div style="position:absolute;left:44px;top:0">{tiles["right"]}</div>'
              f'<div style="position:absolute;left:22px;top:16px;z-index:2">{tiles["top"]}</div></div>')
    pile = view["pile"]
    shown = pile[-PILE_SHOWN:]
    below = len(pile) - len(shown)
    fan = "".join(card(c, top=(i == len(shown) - 1)) for i, c in enumerate(shown)) or card(None)
    stock = view["stock"]
    n_stock = len(stock) if isinstance(stock, list) else stock
    return ('<div class="wr-table">'
            f'<div>{label("shared blind cards")}{shared}</div>'
            f'<div>{label(f"face-up pile ({len(pile)})")}<div class="wr-fan">{fan}'
            + (f'<span class="wr-count">+{below} below</span>' if below else "") + "</div></div>"
            f'<div>{label(f"stock ({n_stock})")}<div class="wr-fan">'
            + (card("??") if n_stock else card(None)) + "</div></div></div>")


LEGEND = legend([
    (card("QH"), "a card, face shown"),
    (card("??"), "face down, not seen from here"),
    (card("7D", known=True), "blind card known from here"),
    (card("??", covered=True), "covered: a shared card still lies on it"),
    (card(None), "empty place: the card has left the table"),
    (card("9C", top=True), "top of the face-up pile"),
    ('<span class="wr-chip turn">to play</span>', "whose go it is"),
])


def render_html(view: dict[str, Any], names: list[str]) -> str:
    """HTML for a Bunnies view (already filtered to one perspective)."""
    near = view["perspective"] if view["perspective"] in (0, 1) else 0
    far = 1 - near
    return "".join([CSS, '<div class="wr-board">', _seat(view, far, names, near=False), _middle(view, names),
                    _seat(view, near, names, near=True), LEGEND, "</div>"])
