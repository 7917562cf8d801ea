"""The Trust No Bunny board: the wolves tonight, the Wall and Tower, the houses round the
table (mayor, proposed team, guards, who is still to act, votes once the vote is complete,
each player's secrets as this perspective knows them), the round's proposals and the nights'
results. "To act" is the game's pending decisions (Ruleset.pending, through the view's
``waiting_on``), the same answer as the page's header.
"""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, label, legend
from engine.trust_no_bunny.words import thing
from engine.wording import seat_name, seats_text

ROLE_CHIP = {"werebunny": ("Werebunny", "#f5b7b1", "#78281f"),
             "townsfolk": ("Townsfolk", "#d6eaf8", "#1b4f72")}


def _chip(text: str, background: str = "#eee", colour: str = "#222") -> str:
    return f'<span class="wr-chip" style="background:{background};color:{colour}">{escape(text)}</span>'


CHIPS = {
    "mayor": ("mayor", "#fcf3cf", "#7d6608"),
    "proposed": ("proposed guard", "#e8daef", "#4a235a"),
    "guard": ("on guard", "#d6eaf8", "#1b4f72"),
    "to_act": ("to act", "#d5f5e3", "#145a32"),
}


def _team(team: list[int] | None, names: list[str]) -> str:
    return "none (the timer ran out)" if team is None else escape(seats_text(team, names))


def _bar(name: str, now: int, full: int, colour: str) -> str:
    share = 0 if full <= 0 else max(0, min(100, round(100 * now / full)))
    return (f'<div><b>{escape(name)}</b> {now} of {full} '
            f'<span class="wr-bar"><div style="width:{share}%;background:{colour}"></div></span></div>')


def _known_seats(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Secrets this perspective holds, per seat: its own (``me``) or all (``seats``)."""
    known: dict[int, dict[str, Any]] = {}
    for secret in view.get("seats") or []:
        known[secret["seat"]] = secret
    me = view.get("me")
    if me:
        known[me["seat"]] = me
    return known


def _house(seat: int, names: list[str], view: dict[str, Any], known: dict[int, dict[str, Any]],
           votes: list[bool | None] | None) -> str:
    chips = []
    if view["mayor"] == seat:
        chips.append(_chip(*CHIPS["mayor"]))
    if view["team"] and seat in view["team"]:
        chips.append(_chip(*CHIPS["proposed"]))
    if seat in view["on_guard"]:
        chips.append(_chip(*CHIPS["guard"]))
    if seat in view["waiting_on"]:
        chips.append(_chip(*CHIPS["to_act"]))
    if votes is not None and votes[seat] is not None:
        chips.append(_chip("voted yes", "#d5f5e3", "#145a32") if votes[seat] else _chip("voted no", "#fadbd8",
                                                                                        "#78281f"))
    reveal = view.get("reveal") or {}
    secret = known.get(seat)
    lines = []
    role = None
    if secret and secret.get("role"):
        role = secret["role"]
    elif reveal.get("werebunnies") is not None and view.get("over"):
        role = "werebunny" if seat in reveal["werebunnies"] else "townsfolk"
    if role in ROLE_CHIP:
        chips.append(_chip(*ROLE_CHIP[role]))
    if secret:
        trait = secret.get("quirk") or secret.get("mutation")
        if trait:
            lines.append(f"{'Quirk' if secret.get('quirk') else 'Mutation'}: {escape(thing(trait))}")
        if secret.get("item"):
            lost = " (lost)" if secret.get("item_lost") else ""
            lines.append(f"Item: {escape(thing(secret['item']))}{lost}")
        hand = secret.get("hand")
        if hand is not None:
            # a Trust No Bunny card is its value, the points it defends or weakens with
            lines.append("cards in hand (their values): " + (" ".join(f"<b>{c}</b>" for c in hand) or "none"))
        if secret.get("partner") is not None:
            lines.append(f"partner: {escape(seat_name(secret['partner'], names))}")
    active = " active" if seat in view["waiting_on"] else ""
    body = "<br>".join(lines) if lines else '<span style="color:#777">secrets not known from here</span>'
    return (f'<div class="wr-seat{active}" style="min-width:150px;flex:1 1 150px">'
            f"<b>{escape(seat_name(seat, names))}</b> <small style='white-space:nowrap'>seat {seat}</small>"
            f"<br>{''.join(chips)}<br>"
            f'<span style="font-size:0.85rem">{body}</span></div>')


LEGEND = legend([(_chip(*CHIPS[k]), {"mayor": "proposes tonight's guards",
                                      "proposed": "on the team put to the vote",
                                      "guard": "guards the Wall tonight",
                                      "to_act": "has still to act in this step"}[k]) for k in CHIPS])


def _damage(wall: int, tower: int) -> str:
    """A night's damage in words: ``Wall −2``, ``Wall −1, Tower −3``, ``none`` (never ``−0``)."""
    said = [f"{what} −{n}" for what, n in (("Wall", wall), ("Tower", tower)) if n]
    return ", ".join(said) or "none"


def render_html(view: dict[str, Any], names: list[str]) -> str:
    table = view["table"]
    rnd = max(1, min(view["round"], len(table["wolves"])))
    parts = [CSS, '<div class="wr-board">']
    parts.append(f'<div class="wr-row" style="gap:8px 24px">'
                 f'<div><span style="font-size:1.5rem;font-weight:700">{view["wolves"]}</span> wolves tonight'
                 f' <small>(night {rnd}: {table["wolves"][rnd - 1]} before rejections, '
                 f'{table["guards"][rnd - 1]} guards)</small></div>'
                 f'{_bar("Wall", view["wall"], table["wall"], "#8e6e53")}'
                 f'{_bar("Tower", view["tower"], table["tower"], "#5d6d7e")}</div>')
    current = [p for p in view["proposals"] if p["round"] == view["round"]]
    votes = current[-1]["votes"] if current else None
    if current and all(v is None for v in (votes or [])):
        votes = None
    if view["phase"] == "voting":
        # The vote under way is secret until it is complete; the last one's chips would
        # stand next to "to act" as if they were this vote's.
        votes = None
    known = _known_seats(view)
    parts.append(label("houses, clockwise from seat 0"))
    parts.append('<div class="wr-row" style="align-items:stretch">'
                 + "".join(_house(s, names, view, known, votes) for s in range(len(names)))
                 + "</div>")
    if current:
        rows = "".join(
            f"<tr><td>{escape(seat_name(p['mayor'], names))}</td>"
            f"<td>{_team(p['team'], names)}</td>"
            f"<td>{sum(1 for v in p['votes'] if v)} yes, {sum(1 for v in p['votes'] if v is False)} no</td>"
            f"<td>{'accepted' if p['approved'] else 'rejected'}"
            f"{' (timer)' if p.get('timed_out') else ''}</td></tr>"
            for p in current if p.get("votes") and any(v is not None for v in p["votes"]))
        if rows:
            head = "<tr><th>mayor</th><th>team</th><th>votes</th><th></th></tr>"
            parts.append(label(f"round {view['round']} proposals") + f"<table>{head}{rows}</table>")
    if view["nights"]:
        rows = "".join(
            f"<tr><td>{n['night']}</td><td>{escape(seats_text(n['guards'], names))}</td>"
            f"<td>{n['wolves']}</td><td>{n.get('gnawed', 0)}</td><td>{n['unblocked']}</td>"
            f"<td>{_damage(n['wall_damage'], n['tower_damage'])}</td>"
            f"<td>{n['wall']} / {n['tower']}</td></tr>"
            for n in view["nights"])
        # short headers, said in full under the table: seven columns fit a phone's column
        parts.append(label("nights") + '<div style="overflow-x:auto"><table><tr><th>night</th><th>guards</th>'
                     "<th>wolves</th><th>gnawed</th><th>through</th><th>damage</th>"
                     f"<th>after</th></tr>{rows}</table></div>"
                     "<div style='font-size:0.78rem;color:#555'>through: wolves that got past the guards; "
                     "after: the Wall's and the Tower's points when the night was over</div>")
    if view.get("accusations"):
        parts.append(label("accusations") + "<div style='font-size:0.85rem'>" + "<br>".join(
            f"round {a['round']}: {escape(seat_name(a['seat'], names))} accuses "
            f"{escape(seats_text(a['suspects'], names))}" for a in view["accusations"]) + "</div>")
    parts.append(LEGEND)
    parts.append("</div>")
    return "".join(parts)
