"""A plain-text picture of an Odyssey position in words (``warren replay``): each player's
Civ points, hand, run cards, draw pile and saved cards, the Bunny Circle and the Center
Circle with their pieces, the roll the game waits for, the winners, as one perspective's
view shows them."""

from __future__ import annotations

from typing import Any

from engine.killer.words import CardWords
from engine.killer_bunnies_odyssey.views import HIDDEN
from engine.wording import and_list, possessive


def render(view: dict[str, Any], names: list[str], w: CardWords | None = None,
           phase: str | None = None) -> str:
    """A plain-text picture of a view (the CLI's ``replay``) in words: every card it shows
    by name and code where ``w`` knows it (``Technology (WB01)``), by code otherwise; what it
    hides as it hides it. A card in play is followed by its piece number, which is how an
    action names it. ``phase``: the phase as the table says it (Ruleset.phase_text)."""
    def said(card: Any) -> str:
        return w.card(card) if w is not None and isinstance(card, str) and w.name(card) else str(card)

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    def piece(c: dict[str, Any]) -> str:
        points = c["points"]
        return (f"{said(c['card'])}, {possessive(who(c['owner']))}, {points} "
                f"point{'' if points == 1 else 's'} (piece {c['piece']})")

    def run_card(card: Any) -> str:
        return "none" if card is None else "face down" if card == HIDDEN else said(card)

    head = (f"after event {view['seq']} · round {view['round']}, turn {view['turn']} · "
            f"{phase or view['phase']}{' · over' if view['over'] else ''} · "
            f"hands of {view['hand_size']}")
    lines = [head]
    for s in view["seats"]:
        mark = "*" if view["active"] == s["seat"] else " "
        hand = (f"{s['hand']} cards" if isinstance(s["hand"], int)
                else ", ".join(map(said, s["hand"])) or "no card")
        saved = ", ".join(f"{said(x['card'])}{' (used this round)' if x['used'] else ''}"
                          for x in s["saved"]) or "none"
        draw = s["draw"] if isinstance(s["draw"], int) else len(s["draw"])
        lines.append(f"{mark} {who(s['seat'])} ({s['deck']} deck): Civ points {s['civ']} on the d20, "
                     f"total {s['total']}; hand {hand}; top run card {run_card(s['run']['top'])}, "
                     f"bottom run card {run_card(s['run']['bottom'])}; draw pile {draw} cards; "
                     f"saved {saved}")
    circle = "; ".join(piece(c) for c in view["circle"]) or "empty"
    center = "; ".join(piece(c) + (f", with {and_list([said(o['card']) for o in c['occupants']])} "
                                   "inside" if c["occupants"] else "")
                       for c in view["center"]) or "empty"
    lines.append(f"Bunny Circle: {circle}")
    lines.append(f"Center Circle: {center}")
    if view["strike"]:
        st = view["strike"]
        in_play = {c["piece"]: said(c["card"]) for c in [*view["circle"], *view["center"]]}
        targets = st["targets"] if isinstance(st["targets"], list) else [st["targets"]]
        aimed = and_list([in_play.get(t, f"piece {t}") for t in targets])
        lines.append(f"waiting for the {st['die']} roll: {said(st['card'])} of {who(st['player'])}, "
                     f"aimed at {aimed}")
    if view["winners"]:
        lines.append(f"winners: {and_list([who(s) for s in view['winners']])}")
    return "\n".join(lines)
