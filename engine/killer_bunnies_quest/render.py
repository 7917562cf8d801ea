"""A picture of a Killer Bunnies Quest position in words (``warren replay``): where the game
stands, the market and the piles, the Bunny Circle, what is in play, then each player, as
one perspective's view shows them (words.py says the events and the changes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.killer.words import CardWords, plural
from engine.killer_bunnies_quest.words import (
    MARKET,
    _plain,
    _who,
    abducted_text,
    value_text,
    waiting_text,
    words_of_view,
)
from engine.wording import Names, seat_name, seats_text


def market_text(m: Mapping[str, Any], w: CardWords, names: Names) -> str:
    said = (f"{MARKET}: {'open' if m['open'] else 'closed'}; a cabbage card {w.dolla(m['cabbage'])}, "
            f"a water card {w.dolla(m['water'])}, a carrot {w.dolla(m['carrot'])}; carrots for sale: "
            f"{w.cards(m['carrots']) if m['carrots'] else 'none'}")
    if m.get("half_price") is not None:
        said += f"; half price for {seat_name(m['half_price'], names)}"
    return said


def circle_text(circle: Sequence[Mapping[str, Any]], names: Names, w: CardWords) -> str:
    if not circle:
        return "Bunny Circle: no bunny yet"
    return "Bunny Circle, clockwise: " + "; ".join(bunny_text(b, names, w) for b in circle)


def bunny_text(b: Mapping[str, Any], names: Names, w: CardWords) -> str:
    """One bunny of the circle with what lies under and on it."""
    said = w.bunny(b["bunny"], b.get("owner"), names)
    if b.get("under"):
        said += f", under it {w.cards(b['under'])}"
    if b.get("feeds"):
        said += f", to feed {value_text('feeds', b['feeds'], names, w)}"
    if b.get("roaming"):
        said += f", {w.cards(b['roaming'])} waiting on it"
    if b.get("dormant"):
        said += f", dormant under it {w.cards(b['dormant'])}"
    return said


def seat_lines(s: Mapping[str, Any], names: Names, w: CardWords) -> list[str]:
    """One player's cards, as the view shows them (another's hand is a count)."""
    name = seat_name(s["seat"], names)
    hand = s["hand"]
    held = plural(hand, "card") + " face down" if isinstance(hand, int) else (
        f"{plural(len(hand), 'card')}: {w.cards(hand)}" if hand else "empty")
    marks = []
    if not s.get("present", True):
        marks.append("not in the game")
    if s.get("triplet"):
        marks.append("has a Bunny Triplet")
    if s.get("lose_turns"):
        marks.append(f"loses {plural(s['lose_turns'], 'turn')}")
    head = f"{name}" + (f" ({', '.join(marks)})" if marks else "") + f": hand {held}"
    supplies = (f"{w.dolla(s['dolla'])}, {w.units('cabbage', s['cabbage_units'])}, "
                f"{w.units('water', s['water_units'])}")
    if s.get("owed"):
        supplies += f"; owed by the bank: {value_text('owed', s['owed'], names, w)}"
    lines = [head, f"  run: {w.run(s['top'], s['bottom'])}",
             f"  saved: {w.cards(s['saved']) if s['saved'] else 'none'}; {supplies}",
             f"  carrots: {w.cards(s['carrots']) if s['carrots'] else 'none'}"]
    if s.get("karma"):
        lines.append(f"  Bad Karma: {w.cards(s['karma'])}")
    return lines


def render(view: Mapping[str, Any], names: Names, fallback: CardWords, phase: str | None = None) -> str:
    """A picture of a view in words (``warren replay``): where the game stands, the market
    and the piles, the Bunny Circle, what is in play, then each player. ``phase``: the
    phase as the table says it (Ruleset.phase_text)."""
    w = words_of_view(view, fallback)
    lines = [f"after event {view['seq']} · round {view['round']}, turn {view['turn']} · "
             f"{phase or _plain(view['phase'])}"
             f" · to play: {_who(view.get('active'), names)}",
             market_text(view["market"], w, names)]
    p = view["piles"]
    top = f" (top: {w.card(p['discard'][-1])})" if p["discard"] else ""
    lines.append(f"piles: draw pile {plural(p['draw'], 'card')}; discard pile "
                 f"{plural(len(p['discard']), 'card')}{top}; cabbage deck {p['cabbage_deck']}, water "
                 f"deck {p['water_deck']}, small carrot deck {p['magic_deck']} (face down)")
    lines.append(circle_text(view["circle"], names, w))
    if view.get("abducted"):
        lines.append(f"held by the aliens: {abducted_text(view['abducted'], names, w)}")
    if view.get("flipped") is not None:
        lines.append(f"flipped: {w.card(view['flipped'])}")
    if view.get("waiting"):
        lines.append(f"in play: {waiting_text(view['waiting'], names, w)}")
    for r in view.get("roamers") or []:
        owner = next((b["owner"] for b in view["circle"] if b["bunny"] == r["host"]), None)
        lines.append(f"roaming: {w.card(r['card'])}, launched by {seat_name(r['launcher'], names)}, "
                     f"on {w.bunny(r['host'], owner, names)}, moving "
                     f"{value_text('direction', r['direction'], names, w)}")
    for s in view["seats"]:
        lines.extend(seat_lines(s, names, w))
    if view.get("magic_carrot") is not None:
        winners = view.get("winners") or []
        lines.append(f"the Magic Carrot: {w.carrot(view['magic_carrot'])}; "
                     + (f"the winner: {seats_text(winners, names)}" if winners else "no winner"))
    return "\n".join(lines)
