"""The Killer Bunnies Quest board: the Bunny Circle drawn as a ring, each player's run cards,
saved cards, supplies, Dolla and carrots, Kaballa's Market and the piles, as one perspective
knows them (the view is already filtered: others' hands and run cards come as backs).

Cards are named from the catalogue the game was played with (found by the content hash the
view names; numbers when it is not loaded).
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, label
from engine.killer.words import CardWords

COLOURS = {"blue": "#3b6ea5", "green": "#2e8b57", "orange": "#e67e22", "yellow": "#f1c40f",
           "violet": "#8e44ad", "red": "#c0392b"}
"""Bunny colours as drawn; a wild bunny (Free Agent) is striped."""

QUEST_CSS = """
<style>
.kb-card {display: inline-block; min-width: 30px; max-width: 100%; padding: 2px 5px; margin: 1px;
  border: 1px solid #888; border-radius: 4px; background: #fff; font-size: 0.75rem; color: #222;
  white-space: normal; overflow-wrap: anywhere;}
.kb-card.back {background: repeating-linear-gradient(45deg, #7b241c, #7b241c 4px, #a93226 4px, #a93226 8px);
  color: #fff; min-width: 24px;}
.kb-card.flipped {outline: 3px solid #f1c40f;}
.kb-market {border: 1px solid #ddd; border-radius: 8px; padding: 6px 10px; margin: 6px 0;}
.kb-market.closed {background: #fdecea;}
</style>
"""


def _deck_words(view: dict[str, Any]) -> CardWords | None:
    """The words for the catalogue the view names (None when it cannot be loaded)."""
    try:
        from engine.killer_bunnies_quest import words
        from engine.killer_bunnies_quest.catalogue import deck_for
        from engine.killer_bunnies_quest.options import QuestOptions

        found = words.deck_of_view(view)
        if found is not None:
            return words.words_of(found)
        deck = deck_for(QuestOptions(deck_set=view.get("deck_set", "blue-starter"),
                                     printing=view.get("printing", "current")))
        if deck.catalogue.content_hash == view.get("catalogue"):
            return words.words_of(deck)
    except Exception:  # a board never fails a page: numbers stand in
        return None
    return None


def _deck_names(w: CardWords | None) -> dict[int, str]:
    """Card number -> name, from the catalogue the view names."""
    return {} if w is None else {n: c.name for n, c in w.by_number.items()}


def _waiting_words(view: dict[str, Any], players: list[str], w: CardWords | None) -> str:
    from engine.killer_bunnies_quest import words

    try:
        return words.waiting_text(view["waiting"], players, w or CardWords({}))
    except Exception:  # a board never fails a page: the frame's name stands in
        return str(view["waiting"].get("frame", ""))


def _tile(number: int | str | None, names: dict[int, str], *, extra: str = "") -> str:
    if number is None:
        return ""
    if number == "back":
        return '<span class="kb-card back" title="face down">&nbsp;</span>'
    name = names.get(number, "") if isinstance(number, int) else ""
    # The card by its name, whole (a long one wraps, never cut); its number on hover only.
    title = f' title="{escape(name)} (card {number})"' if name else ""
    text = escape(name) if name else escape(str(number))
    return f'<span class="kb-card{extra}"{title}>{text}</span>'


def _ring(view: dict[str, Any], names: dict[int, str], players: list[str]) -> str:
    """The circle as positioned tiles (plain HTML and CSS: the dashboard's HTML sanitiser
    keeps styles, not SVG), clockwise from the top, the market in the middle."""
    circle = view["circle"]
    size = 400
    centre = size / 2
    radius = 150
    waiting = view.get("waiting") or {}

    def at(px: float) -> str:
        # Positions as shares of the ring, which shrinks to a phone's width (it was 400 px
        # whatever the room, and ran past a 390 px screen).
        return f"{100 * px / size:.2f}%"

    parts = [f'<div class="kb-ring" title="Bunny Circle" style="position:relative;'
             f'width:min({size}px,100%);aspect-ratio:1/1;margin:4px auto">'
             f'<div style="position:absolute;left:{at(centre - radius)};top:{at(centre - radius)};'
             f'width:{at(2 * radius)};height:{at(2 * radius)};border:2px dashed #ccc;'
             'border-radius:50%;box-sizing:border-box"></div>']
    m = view["market"]
    parts.append(f'<div style="position:absolute;left:{at(centre - 80)};top:{at(centre - 22)};'
                 f'width:{at(160)};text-align:center;font-size:0.8rem">Bunny Circle<br>'
                 f"market {'open' if m['open'] else 'CLOSED'} · {len(m['carrots'])} carrots left"
                 "</div>")
    if not circle:
        parts.append(f'<div style="position:absolute;left:{at(centre - 80)};top:{at(centre + 20)};'
                     f'width:{at(160)};text-align:center;color:#999">no bunny yet</div>')
    for i, b in enumerate(circle):
        angle = -math.pi / 2 + 2 * math.pi * i / len(circle)
        x, y = centre + radius * math.cos(angle), centre + radius * math.sin(angle)
        fill = COLOURS.get(b["colour"] or "", "#999")
        aimed = waiting.get("on") == b["bunny"] or waiting.get("target") == b["bunny"]
        border = "3px solid #000" if aimed else "2px dashed #fff" if b["wild"] else "2px solid #fff"
        owner = b["owner"]
        who = players[owner] if 0 <= owner < len(players) else f"seat {owner}"
        marks = [_modifier_mark(names.get(card, "")) for card in b["under"]]
        if b["feeds"]:
            marks.append("feed " + ",".join(f"{f['cabbage']}c/{f['water']}w" for f in b["feeds"]))
        if b["roaming"]:
            marks.append("roaming " + ", ".join(names.get(c, f"card {c}") for c in b["roaming"]))
        if b["dormant"]:
            marks.append("dormant")
        under = ", ".join(names.get(c, f"card {c}") for c in b["under"]) or "nothing"
        title = (f"{b['name']} of {who}: {b['colour'] or 'wild'} {b['kind'] or ''} bunny; under it: "
                 f"{under}" + (f"; {' '.join(marks)}" if marks else ""))
        parts.append(f'<div title="{escape(title)}" style="position:absolute;'
                     f'left:calc({at(x)} - 27px);top:calc({at(y)} - 27px);width:54px;height:54px;'
                     f'border-radius:50%;background:{fill};'
                     f'border:{border};color:#fff;text-align:center;font-size:0.55rem;'
                     'letter-spacing:-0.2px;line-height:1.05;display:flex;flex-direction:column;'
                     'justify-content:center;align-items:center;white-space:nowrap">'
                     # The kind whole (a long one wraps); the bunny's name and the rest on hover.
                     f'{escape(b["kind"] or "wild")}</div>'
                     # 84 px: a name under the rightmost bunny stays inside a phone's ring
                     f'<div style="position:absolute;left:calc({at(x)} - 42px);top:calc({at(y)} + 28px);'
                     'width:84px;'
                     f'text-align:center;font-size:0.68rem;overflow-wrap:anywhere">{escape(who)}'
                     f'{"<br>" + escape(" ".join(marks)) if marks else ""}</div>')
    parts.append("</div>")
    return "".join(parts)


def _modifier_mark(name: str) -> str:
    lowered = name.lower()
    if "clover" in lowered:
        return "clover"
    if "halo" in lowered:
        return "halo"
    if "suit" in lowered:
        return "suit"
    return "modifier"


def _seat(s: dict[str, Any], player: str, view: dict[str, Any], names: dict[int, str]) -> str:
    active = " active" if view.get("active") == s["seat"] else ""
    flipped = view.get("flipped")
    chips = []
    if not s["present"]:
        chips.append('<span class="wr-chip">not in the game</span>')
    if s["triplet"]:
        chips.append('<span class="wr-chip" style="background:#d5f5e3">triplet</span>')
    if s["lose_turns"]:
        chips.append(f'<span class="wr-chip">loses {s["lose_turns"]} turn(s)</span>')
    if view.get("winners") and s["seat"] in view["winners"]:
        chips.append('<span class="wr-chip" style="background:#f9e79f">Magic Carrot: wins</span>')
    hand = s["hand"]
    hand_html = (" ".join(_tile(c, names) for c in hand) or "(empty)") if isinstance(hand, list) \
        else f"{hand} card(s) face down"
    run = (f"top {_tile(s['top'], names) or '—'} bottom {_tile(s['bottom'], names) or '—'}"
           + (f" flipped {_tile(flipped, names, extra=' flipped')}"
              if flipped is not None and view.get("active") == s["seat"] else ""))
    owed = ", ".join(f"{v} {k}" for k, v in s["owed"].items())
    lines = [
        f"run: {run}",
        f"hand: {hand_html}",
        "saved: " + (" ".join(_tile(c, names) for c in s["saved"]) or "—"),
        f"{s['dolla']} Dolla ({len(s['money'])} card{'' if len(s['money']) == 1 else 's'}) · "
        f"{s['cabbage_units']} cabbage · "
        f"{s['water_units']} water" + (f" · owed by the bank: {escape(owed)}" if owed else ""),
        "carrots: " + (" ".join(_tile(c, names) for c in s["carrots"]) or "—"),
    ]
    return (f'<div class="wr-seat{active}" style="min-width:260px;flex:1">'
            f"<b>{s['seat']}: {escape(player)}</b> {''.join(chips)}<br>"
            f'<span style="font-size:0.85rem">{"<br>".join(lines)}</span></div>')


def render_html(view: dict[str, Any], names: list[str]) -> str:
    """HTML for a Quest view (already filtered to one perspective)."""
    w = _deck_words(view)
    cards = _deck_names(w)
    m = view["market"]
    piles = view["piles"]
    parts = [CSS, QUEST_CSS, '<div class="wr-board">']
    parts.append(f'<div class="wr-row" style="gap:16px;align-items:flex-start">{_ring(view, cards, names)}'
                 '<div style="flex:1;min-width:260px">')
    closed = "" if m["open"] else " closed"
    coupon = f" · half price for seat {m['half_price']}" if m.get("half_price") is not None else ""
    parts.append(f'<div class="kb-market{closed}"><b>Kaballa\'s Market</b> '
                 f"{'open' if m['open'] else 'closed'}: cabbage {m['cabbage']}, water "
                 f"{m['water']}, carrot {m['carrot']} Dolla{coupon}<br>carrots for sale: "
                 + (" ".join(_tile(c, cards) for c in m["carrots"]) or "none") + "</div>")
    parts.append(label("piles") + f"draw pile {piles['draw']} · discard {len(piles['discard'])}"
                 f" · cabbage deck {piles['cabbage_deck']} · water deck {piles['water_deck']}"
                 f" · small carrot deck {piles['magic_deck']} (hidden until the end)")
    if view.get("abducted"):
        parts.append(label("held by the aliens") + _tile(view["abducted"][0], cards))
    waiting = view.get("waiting")
    if waiting:
        # The same words as warren replay's "in play" line (engine.killer_bunnies_quest.words).
        parts.append(label("in play") + escape(_waiting_words(view, names, w)))
    if view.get("roamers"):
        parts.append(label("roaming") + " ".join(
            f"{_tile(r['card'], cards)} on {r['host']} ({r['direction'].replace('_', '-')})"
            for r in view["roamers"]))
    if view.get("magic_carrot") is not None:
        # The view names the carrot by its number; the tile shows its large card.
        carrot = None if w is None else w.carrots.get(view["magic_carrot"])
        parts.append(label("the Magic Carrot") + (_tile(carrot, cards) if carrot is not None
                                                  else escape(f"carrot {view['magic_carrot']}")))
    parts.append("</div></div>")
    parts.append(label("players (clockwise)"))
    parts.append('<div class="wr-row" style="align-items:stretch">'
                 + "".join(_seat(s, names[s["seat"]] if s["seat"] < len(names) else "", view, cards)
                           for s in view["seats"]) + "</div>")
    parts.append("</div>")
    return "".join(parts)
