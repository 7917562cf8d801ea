"""The event list and the current event with its effects, as one perspective saw them, in
the game's own words (Ruleset.describe: the same text as ``warren replay``)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import data, tables
from engine.ruleset import Perspective


def describe(game: data.LoadedGame, seq: int, perspective: Perspective) -> str:
    """Event ``seq`` in words as ``perspective`` saw it ("Ann lays A♠"), told from the
    position it was played at where the replay reaches it (a game may name by it what the
    event names only by position: Ruleset.describe)."""
    before = game.replay.state_at(seq - 1) if seq - 1 <= game.replay.last_seq else None
    return game.ruleset.describe(game.record.events[seq - 1], game.names, perspective, before=before)


def details(game: data.LoadedGame, facts: dict[str, Any]) -> str:
    """An effect's or a verdict's facts in words, players by name, cards by face."""
    return "; ".join(game.ruleset.describe_fact(k, v, game.names) for k, v in facts.items())


def position(game: data.LoadedGame, facts: dict[str, Any]) -> str:
    """A verdict's position facts in words, a figure per seat read player by player."""
    return "; ".join(game.ruleset.describe_position_fact(k, v, game.names) for k, v in facts.items())


def effects_table(game: data.LoadedGame, seq: int, perspective: Perspective) -> list[dict[str, Any]]:
    """The effects of event ``seq`` as ``perspective`` learnt of them, one row each."""
    if seq < 1:
        return []
    step = game.replay.step(seq)
    rows = []
    for effect in step.effects:
        shown = game.ruleset.effect_view(effect, perspective)
        if shown is None:
            continue
        rule = game.ruleset.rulebook[shown.rule]
        rows.append({"effect": shown.kind.replace("_", " "), "rule": shown.rule,
                     "what the rule says": rule.text, "details": details(game, shown.data),
                     "source": rule.source})
    return rows


def event_window(game: data.LoadedGame, seq: int, perspective: Perspective, radius: int = 6,
                 marks: dict[int, str] | None = None) -> str:
    """A few events either side of the current one, the current one highlighted; ``marks``
    (event -> words) notes the turning points of a kept analysis (dashboard.chances_chart)."""
    last = game.replay.last_seq
    lo, hi = max(1, seq - radius), min(len(game.record.events), seq + radius)
    violation = game.replay.violation
    rows = []
    # one replay to the window's start, then event by event (not a replay per row)
    state = game.replay.state_at(lo - 1) if lo - 1 <= last else None
    for s in range(lo, hi + 1):
        event = game.record.events[s - 1]
        text = game.ruleset.describe(event, game.names, perspective, before=state)
        if state is not None and s <= last:
            game.ruleset.apply(state, event)
        else:
            state = None
        if s > last and violation is not None and s == violation.seq:
            text += f"  (illegal: {violation.rule})"
        if marks and s in marks:
            text += f"  (turning point: {marks[s]})"
        rows.append({"event": s, "what happened": text})
    current = seq - lo if lo <= seq <= hi else None
    return tables.html_table(rows, current=current)


def show_current(game: data.LoadedGame, seq: int, perspective: Perspective) -> None:
    if seq == 0:
        st.markdown("**The start**, before the first event.")
        return
    st.markdown(f"**Event {seq}**: {tables.md(describe(game, seq, perspective))}")
    rows = effects_table(game, seq, perspective)
    if rows:
        tables.show(rows, ["effect", "rule", "what the rule says", "details"])
    else:
        st.caption("No derived effects: the event changed only what it names.")
