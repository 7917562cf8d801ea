"""A plain-text picture of a Bunnies position, from one perspective's view."""

from __future__ import annotations

from typing import Any

from engine.bunnies.layout import OWN_SLOTS


def _slot(blinds: dict[str, dict[str, Any]], slot: str) -> str:
    if slot not in blinds:
        return "  --  "
    cell = blinds[slot]
    card = cell["card"]
    return f"[{card}]" + ("c" if cell["covered"] else " ") + " "


def render(view: dict[str, Any], names: list[str]) -> str:
    """Hands, the blind-card layout (``c`` marks a covered card), the pile and the bunnies."""
    blinds = view["blinds"]
    active = view["active"]
    lines = [
        f"seq {view['seq']}  round {view['round']}  turn {view['turn']}  phase {view['phase']}"
        + (f"  to play: {names[active]}" if active is not None else ""),
    ]
    stock = view["stock"]
    lines.append(f"stock: {len(stock) if isinstance(stock, list) else stock} cards"
                 + (f" (top first: {' '.join(stock)})" if isinstance(stock, list) and stock else ""))
    pile = view["pile"]
    lines.append("pile:  " + (" ".join(pile) + f"   (top {pile[-1]})" if pile else "(empty)"))
    shared = "  ".join(f"{s}:{_slot(blinds, s).strip() or '--'}" for s in ("left", "right", "top"))
    for seat in (0, 1):
        hand = view["hands"][seat]
        held = " ".join(hand) if isinstance(hand, list) else f"{hand} cards (hidden)"
        row = "".join(_slot(blinds, s) for s in OWN_SLOTS[seat])
        bunnies = view["bunnies"][seat]
        lines.append(f"{names[seat]}:")
        lines.append(f"    hand:    {held}")
        lines.append(f"    blinds:  {row}")
        lines.append(f"    bunnies: {len(bunnies)}" + (f" ({' '.join(bunnies)})" if bunnies else ""))
    lines.append(f"shared blinds: {shared}")
    if view.get("bunny_action"):
        lines.append(f"bunny action available: {view['bunny_action']}")
    if view["over"]:
        lines.append(f"game over: seat {view['out']} went out; scores {view['scores']}")
    return "\n".join(lines)
