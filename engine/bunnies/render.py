"""A plain-text picture of a Bunnies position, from one perspective's view, in the table's
words: cards by their faces (10♣, A♠), a blind card face down or turned up, a covered one
said so, bunnies by their rank, players by name (the record's codes stay in ``--json``)."""

from __future__ import annotations

from typing import Any

from engine.bunnies.layout import OWN_SLOTS
from engine.bunnies.words import HIDDEN_FACE, RANK_WORDS, card_face
from engine.hidden import UNKNOWN


def _slot(blinds: dict[str, dict[str, Any]], slot: str) -> str:
    if slot not in blinds:
        return "gone"
    cell = blinds[slot]
    card = cell["card"]
    said = "face down" if card in (UNKNOWN, HIDDEN_FACE) else card_face(card)
    return said + (" (covered)" if cell["covered"] else "")


def _faces(cards: list[str]) -> str:
    return " ".join(card_face(c) for c in cards) or "none"


def _bunnies(ranks: list[str]) -> str:
    if not ranks:
        return "none"
    return ", ".join(f"a bunny of {RANK_WORDS.get(r[:1], r)}" for r in ranks)


def render(view: dict[str, Any], names: list[str]) -> str:
    """Hands, the blind-card layout (a covered card lies under another), the pile and the
    bunnies, in faces and words."""
    blinds = view["blinds"]
    active = view["active"]
    lines = [
        f"seq {view['seq']}  round {view['round']}  turn {view['turn']}  phase {view['phase']}"
        + (f"  to play: {names[active]}" if active is not None else ""),
    ]
    stock = view["stock"]
    count = len(stock) if isinstance(stock, list) else stock
    lines.append(f"stock: {count} card{'' if count == 1 else 's'}"
                 + (f" (top first: {_faces(stock)})" if isinstance(stock, list) and stock else ""))
    pile = view["pile"]
    lines.append("pile:  " + (f"{_faces(pile)}   (top {card_face(pile[-1])})" if pile else "empty"))
    shared = " · ".join(f"{s}: {_slot(blinds, s)}" for s in ("left", "right", "top"))
    for seat in (0, 1):
        hand = view["hands"][seat]
        held = _faces(hand) if isinstance(hand, list) else f"{hand} card{'' if hand == 1 else 's'}, face down"
        row = " · ".join(_slot(blinds, s) for s in OWN_SLOTS[seat])
        lines.append(f"{names[seat]}:")
        lines.append(f"    hand:    {held}")
        lines.append(f"    blinds:  {row}")
        lines.append(f"    bunnies: {_bunnies(view['bunnies'][seat])}")
    lines.append(f"shared blinds: {shared}")
    if view.get("bunny_action"):
        lines.append(f"bunny action available: {view['bunny_action']}")
    if view["over"]:
        out = view["out"]
        who = names[out] if isinstance(out, int) and 0 <= out < len(names) else "nobody"
        scores = ", ".join(f"{names[s]} {v} point{'' if v == 1 else 's'}"
                           for s, v in enumerate(view["scores"] or []) if s < len(names))
        lines.append(f"game over: {who} went out; scores: {scores}")
    return "\n".join(lines)
