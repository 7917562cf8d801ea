"""Record: a game recorded at the table as it is played, in the browser.

Start a game or resume one being recorded (``/record?game=ID``). Entering an event reruns
only the recording fragment: the board, the pickers, the record so far. Every append names
the seq the page showed, so two devices recording one game never fork it
(dashboard.record_view).
"""

from __future__ import annotations

import streamlit as st

from dashboard import data, record_start, record_view
from dashboard.tables import md
from dashboard.titles import page_title

page_title("Record")

st.title("Record")

rows = data.games_or_stop(allow_empty=True)

game_id = record_start.chosen_game()
row = record_start.recordable(rows, game_id) if game_id else None
if game_id and row is None:
    record_start.leave()

if row is None:
    st.caption("Record a game at the table as it is played: only what the table sees, each event "
               "checked by the rules and stored at once, sealed. What nobody saw (the deal, the "
               "hands) stays unknown.")
    left, right = st.columns([3, 2])
    with left, st.container(border=True, key="rec_start_box"):
        record_start.start_form()
    with right, st.container(border=True, key="rec_resume_box"):
        record_start.resume_form(rows)
    st.stop()

with st.container(horizontal=True, vertical_alignment="center", gap="small", key="rec_head"):
    st.caption(f"{md(record_start.title_of(row['ruleset']))} · {md(', '.join(row['players']))} · "
               f"game {md(row['game_id'])} · recorded at the table, seen as the table sees it · "
               f"store {md(data.store_path().name)}")
    if st.button("Replay it", key="rec_replay", icon=":material/play_circle:",
                 help="Open this game on the Replay page"):
        st.session_state.pop("pos_seq", None)
        st.switch_page("screens/replay.py", query_params={"game": row["game_id"]})
    st.button("Another game", key="rec_leave", icon=":material/add:", on_click=record_start.leave,
              help="Start or resume another game (this one stays in the store)")


@st.fragment
def at_the_table(game_id: str) -> None:
    record_view.recording(game_id)


at_the_table(row["game_id"])
