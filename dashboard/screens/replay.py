"""Replay: step through a game as any perspective saw it.

A step (a button, the slider, a jump to a turn, a click on the chances chart) reruns only
the position's fragment: the controls, the board, the timeline, the suspicion chart and
the chances chart. Choosing another game or
perspective reruns the page.
"""

from __future__ import annotations

import streamlit as st

from dashboard import chances_chart, data, position, suspicion_chart, timeline
from dashboard.boards import board_html
from dashboard.tables import md
from dashboard.titles import page_title
from engine.ruleset import HIDDEN_RULE, Perspective

page_title("Replay")

st.title("Replay")

rows = data.games_or_stop()

game_id, game = position.open_game(rows)

top = st.columns([3, 2])
with top[1]:
    seen = position.perspective_picker(game.names)
with top[0]:
    header = game.record.header
    st.caption(f"{game.ruleset.title} · {len(header.players)} players · {md(header.source)} · "
               f"created {md(header.created)} · chain {game.record.chain}")

position.init_seq(game)


@st.fragment
def at_position(game_id: str, game: data.LoadedGame, seen: Perspective) -> None:
    chances_chart.take_click(game.replay.last_seq)
    seq = position.step_controls(game)
    position.sync_url(game_id, seq, seen)
    state = game.replay.state_at(seq)
    view = game.ruleset.view(state, seen)
    left, right = st.columns([3, 2])
    with left:
        p = game.replay.position(seq)
        phase = game.ruleset.phase_text(p.phase)
        st.markdown(f"**Round {p.round} · turn {p.turn} · {md(phase)} · {md(position.acting(game, seq))}**")
        st.html(board_html(game.ruleset.slug, view, game.names))
        outcome = game.ruleset.outcome(state)
        if outcome is not None:
            st.success(md(game.ruleset.describe_outcome(outcome, game.names)), icon=":material/flag:")
    with right:
        timeline.show_current(game, seq, seen)
        st.html(timeline.event_window(game, seq, seen, marks=chances_chart.marks_for(game, seen)))
        violation = game.replay.violation_seen_by(seen, at=seq)  # what this perspective may know here
        if violation is not None:
            broken = "is" if violation.rule == HIDDEN_RULE else f"breaks {violation.rule}:"
            said = game.ruleset.say(violation.message, game.names)
            st.error(f"Event {violation.seq} {broken} {md(said)}. "
                     f"Replay stops at {game.replay.last_seq}.", icon=":material/block:")
    suspicion_chart.show(game, seq, seen)
    chances_chart.show(game, seq, seen)
    # Sent only when opened (a closed expander's JSON went to the browser at every step).
    as_data = st.expander("This position as data (what the chosen perspective knows)", key="rp_as_data",
                          on_change="rerun")
    if as_data.open:
        with as_data:
            st.json(view, expanded=False)


at_position(game_id, game, seen)
