"""The KinderBunnies board: each player's bunnies, Bunny Bucks and carrots, the hands as the
perspective knows them, the carrot pile, and the card being settled (a Safety Hazard waiting
for its roll, with the dice once rolled)."""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, label, row
from engine.kinderbunnies.catalogue import catalogue

_COLOUR = {"blue": "#3b6ea5", "green": "#27ae60", "orange": "#e67e22", "violet": "#8e44ad",
           "yellow": "#d4ac0d"}


def _tile(card: int | str, *, small: str = "") -> str:
    """A card as a tile with its name; a hidden card as a back."""
    if not isinstance(card, int):
        return '<span class="wr-card back" title="unknown card"></span>'
    c = catalogue().by_number.get(card)
    if c is None:
        return f'<span class="wr-card">{card}</span>'
    colour = _COLOUR.get(c.bunny.colour or "", "#222") if c.bunny else "#222"
    name = c.name.replace(" Bunny", "").replace("Safety Hazard", "Hazard")
    return (f'<span class="wr-card" title="{escape(c.name)} ({card})" style="width:64px;'
            f'font-size:0.62rem;color:{colour};text-align:center">{escape(name)}'
            f'{escape(small)}</span>')


def _carrot(letter: str) -> str:
    return (f'<span class="wr-card" style="width:26px;height:34px;color:#e67e22" '
            f'title="carrot {escape(letter)}">{escape(letter)}</span>')


def render_html(view: dict[str, Any], names: list[str]) -> str:
    """HTML for a KinderBunnies view (already filtered to one perspective)."""
    parts = [CSS, '<div class="wr-board">']
    level = str(view.get("level", "")).replace("-", " ")
    draw = view["draw_pile"]
    orange = view["orange"]
    parts.append(f'<div><span class="wr-chip">{escape(level)}</span>'
                 f'<span class="wr-chip">draw pile {draw if isinstance(draw, int) else len(draw)}</span>'
                 f'<span class="wr-chip">discard {len(view["discard"])}</span>'
                 + (f'<span class="wr-chip">Orange deck '
                    f'{orange if isinstance(orange, int) else len(orange)} (face down)</span>'
                    if orange else "")
                 + (f'<span class="wr-chip">winning carrot {escape(str(view["magic"]))}</span>'
                    if view.get("magic") else "") + "</div>")
    parts.append(label("carrot pile") + row([_carrot(x) for x in view["carrot_pile"]] or ["(empty)"]))
    settling = view.get("settling")
    if settling:
        what = f'{escape(settling["name"])} played by seat {settling["seat"]}'
        if settling.get("bunny") is not None:
            what += f' on bunny {settling["bunny"]} of seat {settling["owner"]}'
        wait = {"roll": "waiting for its roll", "hazard": "its owner may answer before the roll",
                "feed": "its owner may feed the bunny", "rolled": "rolled; a Re-Roll may answer"}
        parts.append(f'<div class="wr-seat active"><b>settling:</b> {what} '
                     f'<span class="wr-chip">{escape(wait.get(settling["step"], settling["step"]))}</span>'
                     + (f' dice {" ".join(str(f) for f in settling["faces"])}' if settling["faces"] else "")
                     + "</div>")
    for seat, name in enumerate(names):
        active = " active" if view["active"] == seat else ""
        won = " (wins)" if view.get("winners") and seat in view["winners"] else ""
        parts.append(f'<div class="wr-seat{active}"><b>seat {seat}: {escape(name)}{won}</b> '
                     f'<span class="wr-chip">bunnies {len(view["table"][seat])}</span>'
                     f'<span class="wr-chip">Bunny Bucks {view["bucks"][seat]}</span>'
                     f'<span class="wr-chip">carrots {len(view["carrots"][seat])}</span>'
                     + (f'<span class="wr-chip">misses {view["skips"][seat]} turn(s)</span>'
                        if view["skips"][seat] else "")
                     + (f'<span class="wr-chip">score {view["scores"][seat]}</span>'
                        if view.get("scores") else ""))
        parts.append(label("on the table") + row([_tile(b) for b in view["table"][seat]] or ["(no bunny)"]))
        if view["carrots"][seat]:
            parts.append(row([_carrot(x) for x in view["carrots"][seat]]))
        hand = view["hands"][seat]
        if isinstance(hand, list):
            parts.append(label(f"hand ({len(hand)})") + row([_tile(c) for c in hand] or ["(empty)"]))
        else:
            parts.append(label(f"hand ({hand}, hidden)") + row([_tile("?") for _ in range(min(hand, 8))]))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)
