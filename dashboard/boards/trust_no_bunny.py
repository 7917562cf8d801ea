"""The Trust No Bunny board: the houses, the mayor, the team and its votes, the wolves,
the Wall and Tower bars, and the nights' results, as one perspective knows them."""

from __future__ import annotations

from html import escape
from typing import Any

from dashboard.boards.tiles import CSS, label

ROLE_BADGE = {"werebunny": "🐺 Werebunny", "townsfolk": "🐰 Townsfolk"}


def _bar(name: str, now: int, full: int, colour: str) -> str:
    share = 0 if full <= 0 else max(0, min(100, round(100 * now / full)))
    return (f'<div><b>{escape(name)}</b> {now}/{full} '
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


def _house(seat: int, name: str, view: dict[str, Any], known: dict[int, dict[str, Any]],
           votes: list[bool | None] | None) -> str:
    chips = []
    if view["mayor"] == seat:
        chips.append('<span class="wr-chip">👑 mayor</span>')
    if view["team"] and seat in view["team"]:
        chips.append('<span class="wr-chip">🛡 proposed</span>')
    if seat in view["on_guard"]:
        chips.append('<span class="wr-chip" style="background:#d6eaf8">🏰 on guard</span>')
    if seat in view["waiting_on"]:
        chips.append('<span class="wr-chip" style="background:#fdebd0">⏳ to act</span>')
    if votes is not None and votes[seat] is not None:
        chips.append('<span class="wr-chip">' + ("✅ yes" if votes[seat] else "❌ no") + "</span>")
    reveal = view.get("reveal") or {}
    secret = known.get(seat)
    lines = []
    role = None
    if secret and secret.get("role"):
        role = secret["role"]
    elif reveal.get("werebunnies") is not None and view.get("over"):
        role = "werebunny" if seat in reveal["werebunnies"] else "townsfolk"
    if role:
        lines.append(ROLE_BADGE.get(role, role))
    if secret:
        trait = secret.get("quirk") or secret.get("mutation")
        if trait:
            lines.append(f"{'quirk' if secret.get('quirk') else 'mutation'}: {escape(str(trait))}")
        if secret.get("item"):
            lost = " (lost)" if secret.get("item_lost") else ""
            lines.append(f"item: {escape(str(secret['item']))}{lost}")
        hand = secret.get("hand")
        if hand is not None:
            lines.append("hand: " + (" ".join(f"<b>{c}</b>" for c in hand) or "(empty)"))
        if secret.get("partner") is not None:
            lines.append(f"partner: seat {secret['partner']}")
    active = " active" if seat in view["waiting_on"] else ""
    body = "<br>".join(lines) if lines else '<span style="color:#999">secrets hidden</span>'
    return (f'<div class="wr-seat{active}" style="min-width:180px;flex:1">'
            f"<b>🏠 {seat}: {escape(name)}</b><br>{''.join(chips)}<br>"
            f'<span style="font-size:0.85rem">{body}</span></div>')


def render_html(view: dict[str, Any], names: list[str]) -> str:
    table = view["table"]
    rnd = max(1, min(view["round"], len(table["wolves"])))
    parts = [CSS, '<div class="wr-board">']
    parts.append(f'<div class="wr-row" style="gap:24px">'
                 f'<div><span style="font-size:1.6rem">🐺 {view["wolves"]}</span> wolves tonight'
                 f' (table: {table["wolves"][rnd - 1]}, guards {table["guards"][rnd - 1]})</div>'
                 f'{_bar("Wall", view["wall"], table["wall"], "#8e6e53")}'
                 f'{_bar("Tower", view["tower"], table["tower"], "#5d6d7e")}</div>')
    current = [p for p in view["proposals"] if p["round"] == view["round"]]
    votes = current[-1]["votes"] if current else None
    if current and all(v is None for v in (votes or [])):
        votes = None
    known = _known_seats(view)
    parts.append(label("houses (clockwise)"))
    parts.append('<div class="wr-row" style="align-items:stretch">'
                 + "".join(_house(s, names[s], view, known, votes) for s in range(len(names)))
                 + "</div>")
    if current:
        rows = "".join(
            f"<tr><td>{p['mayor']}: {escape(names[p['mayor']])}</td><td>{p['team']}</td>"
            f"<td>{sum(1 for v in p['votes'] if v)} yes / {sum(1 for v in p['votes'] if v is False)} no</td>"
            f"<td>{'approved' if p['approved'] else 'rejected'}"
            f"{' (timer)' if p.get('timed_out') else ''}</td></tr>"
            for p in current if p.get("votes") and any(v is not None for v in p["votes"]))
        if rows:
            head = "<tr><th>mayor</th><th>team</th><th>votes</th><th></th></tr>"
            parts.append(label(f"round {view['round']} proposals") + f"<table>{head}{rows}</table>")
    if view["nights"]:
        rows = "".join(
            f"<tr><td>{n['night']}</td><td>{', '.join(str(g) for g in n['guards'])}</td>"
            f"<td>{n['wolves']}</td>"
            f"<td>{n.get('gnawed', 0)}</td><td>{n['unblocked']}</td><td>{n['wall_damage']}</td>"
            f"<td>{n['tower_damage']}</td><td>{n['wall']} / {n['tower']}</td></tr>"
            for n in view["nights"])
        parts.append(label("nights") + "<table><tr><th>night</th><th>guards</th><th>wolves</th>"
                     "<th>gnawed</th><th>got through</th><th>Wall dmg</th><th>Tower dmg</th>"
                     f"<th>Wall / Tower after</th></tr>{rows}</table>")
    if view.get("accusations"):
        parts.append(label(f"accusations: {len(view['accusations'])}"))
    parts.append("</div>")
    return "".join(parts)
