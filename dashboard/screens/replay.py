"""Replay: step through a game as any perspective saw it."""

from __future__ import annotations

import streamlit as st

from dashboard import data, position, suspicion_chart, timeline
from dashboard.boards import board_html

st.title("Replay")

rows = data.games_or_stop()

game_id, game = position.open_game(rows)

top = st.columns([3, 2])
with top[1]:
    seen = position.perspective_picker(game.names)
with top[0]:
    header = game.record.header
    st.caption(f"{game.ruleset.title} · {len(header.players)} players · {header.source} · "
               f"created {header.created} · chain {game.record.chain}")

position.init_seq(game)
seq = position.step_controls(game)
position.sync_url(game_id, seq, seen)

state = game.replay.state_at(seq)
view = game.ruleset.view(state, seen)

left, right = st.columns([3, 2])
with left:
    p = game.replay.position(seq)
    active = "—" if p.active is None else f"seat {p.active} ({game.names[p.active]})"
    st.markdown(f"**Round {p.round} · turn {p.turn} · phase `{p.phase}` · to play: {active}**")
    st.html(board_html(game.ruleset.slug, view, game.names))
    outcome = game.ruleset.outcome(state)
    if outcome is not None:
        winners = ", ".join(f"seat {w} ({game.names[w]})" for w in outcome.winners)
        st.success(f"Game over ({outcome.reason}, {outcome.rule}): won by {winners}"
                   + (f"; scores {outcome.scores}" if outcome.scores else ""))
with right:
    timeline.show_current(game, seq, seen)
    st.html(timeline.event_window(game, seq, seen))
    violation = game.replay.violation
    if violation is not None:
        st.error(f"Event {violation.seq} breaks {violation.rule}: {violation.message}. "
                 f"Replay stops at {game.replay.last_seq}.")

suspicion_chart.show(game, seq, seen)

with st.expander("This position as data (what the chosen perspective knows)"):
    st.json(view, expanded=False)
