"""The Killer Bunnies Odyssey board: the Bunny Circle, the Center Circle with its cities and
their occupants, each player's saved Resources by colour (the ones used this round set
aside), his Civ score as a bar towards 60, his hand and run positions as his perspective
knows them. A card the view shows is named on its tile (short, the full name on hover) with its
Card Identification Number, from the deck library the game was played with (a code means one
card there); a card the view hides stays a back."""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, label, row
from engine.killer.words import CardWords
from engine.killer_bunnies_odyssey.words import library_words
from engine.wording import and_list

TARGET = 60
"""The total that ends the game (ODY-END-1)."""
COLOUR = {"blue": "#2e6fd8", "green": "#2e9e4f", "red": "#c0392b", "yellow": "#d4a017",
          "violet": "#8e44ad", "orange": "#e67e22"}
OWNER = ["#2e6fd8", "#2e9e4f", "#c0392b", "#d4a017", "#8e44ad", "#e67e22"]

ODY_CSS = """
<style>
.wo-card {display: inline-flex; flex-direction: column; justify-content: center; align-items: center;
  min-width: 54px; height: 58px; padding: 2px 4px; border: 2px solid #888; border-radius: 6px;
  background: #fff; font-size: 0.72rem; text-align: center; color: #222;}
.wo-card b {font-size: 0.8rem;}
.wo-card.city {min-width: 96px; height: auto; min-height: 48px; border-style: double; border-width: 4px;}
.wo-card.back {background: repeating-linear-gradient(45deg, #555, #555 4px, #777 4px, #777 8px);
  color: #fff;}
.wo-card.used {opacity: 0.4;}
.wo-res {display: inline-block; width: 18px; height: 18px; border-radius: 4px; margin-right: 2px;
  vertical-align: middle;}
.wo-res.used {opacity: 0.3; outline: 1px dashed #555;}
.wo-civ {height: 16px; background: #eee; border-radius: 8px; overflow: hidden; width: 260px;
  display: inline-flex; vertical-align: middle;}
.wo-civ > .d20 {background: #27ae60;} .wo-civ > .play {background: #82e0aa;}
.wo-inside {display: flex; gap: 2px; flex-wrap: wrap; justify-content: center; margin-top: 2px;}
.wo-mini {font-size: 0.65rem; padding: 0 3px; border: 1px solid #aaa; border-radius: 3px;
  background: #f8f8f8;}
</style>
"""


def _words() -> CardWords:
    """The names of the library's cards; none when the library cannot be read (a board never
    fails a page: codes stand in)."""
    try:
        return library_words()
    except Exception:
        return CardWords({})


def _short(name: str, width: int = 16) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def _name(code: Any, w: CardWords) -> str:
    return (w.name(code) or "") if isinstance(code, str) else ""


def _mini(item: dict[str, Any], w: CardWords, text: str) -> str:
    name = item.get("name") or _name(item["card"], w)
    return f'<span class="wo-mini" title="{escape(name)}">{text}</span>'


def _piece(item: dict[str, Any], names: list[str], w: CardWords, *, city: bool = False) -> str:
    owner = item.get("owner", 0)
    colour = OWNER[owner % len(OWNER)]
    extra = ""
    if city:
        inside = "".join(_mini(o, w, f'{escape(_short(o.get("name") or _name(o["card"], w) or o["card"]))} '
                                  f'{_points(o["points"])}')
                         for o in item.get("occupants", []))
        extra = (f'<div class="wo-inside">{inside}</div>' if inside else "") + \
            f'<div>{len(item.get("occupants", []))}/{item.get("capacity") or 0}</div>'
    else:
        under = " ".join(_mini(u, w, escape(_short(u.get("name") or _name(u["card"], w) or u["card"])))
                         for u in item.get("under", []))
        on = " ".join(_mini(o, w, escape(_short(o.get("name") or _name(o["card"], w) or o["card"])))
                      for o in item.get("on", []))
        extra = (f"<div>under {under}</div>" if under else "") + \
            (f'<div style="color:#c0392b">feed {on}</div>' if on else "")
    who = names[owner] if owner < len(names) else f"seat {owner}"
    # name first, code after; the piece number is how an action names what is in play
    title = escape(f'{item["name"]} ({item["card"]}), {who}\'s, {_points(item["points"])}, '
                   f'piece {item["piece"]}')
    return (f'<span class="wo-card{" city" if city else ""}" style="border-color:{colour}" '
            f'title="{title}"><b>{escape(_short(item["name"]))}</b>{escape(item["card"])}'
            f'<span>piece {item["piece"]} · {_points(item["points"])}</span>{extra}</span>')


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _card(code: str, w: CardWords) -> str:
    """A card the view shows, face up: its code and its name (short; in full on hover)."""
    name = _name(code, w)
    if not name:
        return f'<span class="wo-card"><b>{escape(code)}</b></span>'
    return (f'<span class="wo-card" title="{escape(name)} ({escape(code)})"><b>{escape(_short(name))}</b>'
            f'{escape(code)}</span>')


def _hand(hand: Any, w: CardWords) -> str:
    if isinstance(hand, list):
        return row([_card(c, w) if c != "?" else
                    '<span class="wo-card back">?</span>' for c in hand] or ["(empty)"])
    return row(['<span class="wo-card back"></span>'] * min(int(hand), 12) or ["(empty)"])


def _civ(seat: dict[str, Any]) -> str:
    d20 = max(0, min(seat["civ"], TARGET))
    total = max(0, min(seat["total"], TARGET))
    # the d20 keeps a player's Civ points; his total adds what he has in play (ODY-SCORE-1)
    return (f'<span class="wo-civ" title="Civ points {seat["civ"]} on the d20, total {seat["total"]} '
            f'of the {TARGET} that win">'
            f'<span class="d20" style="width:{100 * d20 / TARGET:.1f}%"></span>'
            f'<span class="play" style="width:{100 * max(0, total - d20) / TARGET:.1f}%"></span></span> '
            f'<span class="wr-chip">total {seat["total"]} / {TARGET}</span>'
            f'<span class="wr-chip">Civ points {seat["civ"]} (the d20)</span>')


def _saved(seat: dict[str, Any]) -> str:
    by_colour: dict[str, list[bool]] = {}
    others = []
    for item in seat["saved"]:
        if item["colour"]:
            by_colour.setdefault(item["colour"], []).append(item["used"])
        else:
            others.append(item)
    parts = []
    for colour in sorted(by_colour):
        used = by_colour[colour]
        marks = "".join(f'<span class="wo-res{" used" if u else ""}" style="background:'
                        f'{COLOUR.get(colour, "#999")}"></span>' for u in sorted(used))
        parts.append(f'<span class="wr-chip">{escape(colour)} {len(used)}'
                     f'{f" ({sum(used)} used this round)" if any(used) else ""}</span>{marks}')
    parts += [f'<span class="wo-card" title="{escape(o["name"])} ({escape(o["card"])})">'
              f'<b>{escape(_short(o["name"]))}</b>{escape(o["card"])}<br>'
              f'{escape(o["type"].replace("_", " "))}</span>' for o in others]
    return row(parts or ["(nothing saved)"])


def render_html(view: dict[str, Any], names: list[str]) -> str:
    """HTML for an Odyssey view (already filtered to one perspective)."""
    w = _words()
    parts = [CSS, ODY_CSS, '<div class="wr-board">']
    strike = view.get("strike")
    if strike:
        in_play = {c["piece"]: c["name"] for c in [*view["circle"], *view["center"]]}
        targets = strike["targets"] if isinstance(strike["targets"], list) else [strike["targets"]]
        aimed = and_list([in_play.get(t, f"piece {t}") for t in targets])
        player = names[strike["player"]] if strike["player"] < len(names) else f"seat {strike['player']}"
        parts.append(label(f"waiting for the {strike['die']} roll: {strike['name']} ({strike['card']}) "
                           f"of {player}, aimed at {aimed}"))
    parts.append(label(f"The Bunny Circle ({_count(len(view['circle']), 'creature')}, clockwise)"))
    parts.append(row([_piece(c, names, w) for c in view["circle"]] or ["(empty)"]))
    cities = _count(len(view["center"]), "city", "cities")
    parts.append(label(f"The Center Circle ({cities}, with their occupants)"))
    parts.append(row([_piece(c, names, w, city=True) for c in view["center"]] or ["(empty)"]))
    for seat in view["seats"]:
        s = seat["seat"]
        name = names[s] if s < len(names) else f"seat {s}"
        active = " active" if view["active"] == s else ""
        colour = OWNER[s % len(OWNER)]
        winner = (' <span class="wr-chip" style="background:#f9e79f">wins</span>'
                  if s in view.get("winners", []) else "")
        parts.append(f'<div class="wr-seat{active}" style="border-left: 6px solid {colour}">'
                     f'<b>{escape(name)}</b> <span class="wr-chip">{escape(seat["deck"])} '
                     f'deck</span>{winner} {_civ(seat)}')
        run = seat["run"]
        parts.append(label(f"run cards: top {_run(run['top'], w)}, bottom {_run(run['bottom'], w)} · "
                           f"draw pile {seat['draw'] if isinstance(seat['draw'], int) else len(seat['draw'])}"
                           f" · discard pile {len(seat['discard'])}"))
        parts.append(label("saved (face up)") + _saved(seat))
        parts.append(label("hand") + _hand(seat["hand"], w))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def _run(code: Any, w: CardWords) -> str:
    """A run position in the label: the card by name and code where the view shows it."""
    if not code:
        return "-"
    name = _name(code, w)
    return f"{_short(name)} ({code})" if name else str(code)


def _count(n: int, one: str, many: str | None = None) -> str:
    """``1 city``, ``3 cities``, ``0 creatures``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
