"""A picture of a KinderBunnies position in words (``warren replay``): where the game stands,
the carrot pile and the decks, the card being settled, then each player and the end, as one
perspective's view shows them (words.py says the events and the changes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.killer.words import CardWords, plural
from engine.kinderbunnies.words import LEVELS, _count, _plain, settling_text, vocabulary
from engine.wording import Names, and_list, seat_name, seats_text, value_text


def _hand_text(hand: Any, w: CardWords) -> str:
    if isinstance(hand, int):
        return plural(hand, "card") + " face down" if hand else "empty"
    return f"{plural(len(hand), 'card')}: {w.cards(hand)}" if hand else "empty"


def seat_lines(view: Mapping[str, Any], seat: int, names: Names, w: CardWords) -> list[str]:
    """One player: the hand as the view shows it, then what lies face up in front of him."""
    name = seat_name(seat, names)
    marks = []
    if view.get("active") == seat:
        marks.append("to play")
    skips = (view.get("skips") or [])[seat] if seat < len(view.get("skips") or []) else 0
    if skips:
        marks.append(f"misses the next {plural(skips, 'turn')}")
    head = name + (f" ({', '.join(marks)})" if marks else "") + f": hand {_hand_text(view['hands'][seat], w)}"
    bunnies = view["table"][seat]
    carrots = view["carrots"][seat]
    bucks = view["bucks"][seat]
    buck_cards = view["buck_cards"][seat]
    return [head,
            f"  bunnies: {w.cards(bunnies) if bunnies else 'none'}",
            f"  carrots: {and_list([w.carrot(c) for c in carrots]) if carrots else 'none'}; "
            f"{w.dolla(bucks)}" + (f" ({w.cards(buck_cards)})" if buck_cards else "")]


def render(view: Mapping[str, Any], names: Names, w: CardWords) -> str:
    """A picture of a view in words (``warren replay``): where the game stands, the carrot
    pile and the decks, the card being settled, then each player, and the end."""
    level = LEVELS.get(str(view.get("level")), _plain(view.get("level")))
    active = view.get("active")
    lines = [f"KinderBunnies, {level} game · seq {view['seq']} · turn {view['turn']} · "
             f"{'the deal' if view.get('dealing') else _plain(view['phase'])} · to play: "
             f"{seat_name(active, names) if isinstance(active, int) else 'nobody'}"]
    pile = view.get("carrot_pile") or []
    lines.append(f"carrot pile: {w.carrot_labels(pile)}" + (f" ({len(pile)})" if pile else ""))
    discard = view.get("discard") or []
    top = f" (top: {w.card(discard[-1])})" if discard else ""
    decks = (f"draw pile {plural(_count(view['draw_pile']), 'card')}; discard pile "
             f"{plural(len(discard), 'card')}{top}")
    if view.get("orange"):
        decks += f"; Orange deck {plural(_count(view['orange']), 'card')} face down"
    lines.append(decks)
    if view.get("settling"):
        lines.append(f"in play: {settling_text(view['settling'], names, w)}")
    if view.get("forced") is not None:
        lines.append(f"to play now (Buy Back): {w.card(view['forced'])}")
    for seat in range(len(view["hands"])):
        lines.extend(seat_lines(view, seat, names, w))
    if view.get("magic") is not None:
        lines.append(f"the bottom Orange card names {w.carrot(view['magic'])}")
    if view.get("over"):
        winners = view.get("winners") or []
        said = f"over: {'the winner' if len(winners) == 1 else 'the winners'}: {seats_text(winners, names)}"
        if view.get("scores"):
            said += "; scores: " + value_text(vocabulary(w), "scores", view["scores"], names)
        lines.append(said)
    return "\n".join(lines)
