"""The event list and the effects of the current event, as one perspective saw them."""

from __future__ import annotations

from html import escape
from typing import Any

import streamlit as st

from dashboard import data
from engine.ruleset import Perspective


def describe(game: data.LoadedGame, seq: int, perspective: Perspective) -> str:
    event = game.record.events[seq - 1]
    seen = game.ruleset.event_view(event, perspective)
    who = "table" if event.actor is None else f"seat {event.actor} ({game.names[event.actor]})"
    fields = " ".join(f"{k}={v}" for k, v in seen.items() if k not in ("seq", "type", "actor", "claims"))
    return f"{who}: {seen['type']} {fields}".rstrip()


def effects_table(game: data.LoadedGame, seq: int, perspective: Perspective) -> list[dict[str, Any]]:
    if seq < 1:
        return []
    step = game.replay.step(seq)
    rows = []
    for effect in step.effects:
        shown = game.ruleset.effect_view(effect, perspective)
        if shown is None:
            continue
        rule = game.ruleset.rulebook[shown.rule]
        rows.append({"effect": shown.kind, "rule": shown.rule, "what the rule says": rule.text,
                     "details": ", ".join(f"{k}={v}" for k, v in shown.data.items()),
                     "source": rule.source})
    return rows


def event_window(game: data.LoadedGame, seq: int, perspective: Perspective, radius: int = 6) -> str:
    """A few events either side of the current one, the current one highlighted."""
    last = game.replay.last_seq
    lo, hi = max(1, seq - radius), min(len(game.record.events), seq + radius)
    rows = []
    for s in range(lo, hi + 1):
        style = ' style="background:#fff3c4;font-weight:600"' if s == seq else ""
        mark = "▶" if s == seq else ""
        illegal = (s > last)
        text = escape(describe(game, s, perspective))
        if illegal and game.replay.violation is not None and s == game.replay.violation.seq:
            text += f' <span style="color:#c0392b">✗ {escape(game.replay.violation.rule)}</span>'
        rows.append(f"<tr{style}><td>{mark}</td><td>{s}</td><td>{text}</td></tr>")
    return ('<table style="width:100%;font-size:0.9rem"><tr><th></th><th>seq</th><th>event</th></tr>'
            + "".join(rows) + "</table>")


def show_current(game: data.LoadedGame, seq: int, perspective: Perspective) -> None:
    if seq == 0:
        st.caption("Before the first event.")
        return
    st.markdown(f"**Event {seq}** · {describe(game, seq, perspective)}")
    rows = effects_table(game, seq, perspective)
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch", key=f"effects_{seq}")
    else:
        st.caption("No derived effects: the event changed only what it names.")
