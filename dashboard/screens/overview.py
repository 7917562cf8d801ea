"""Overview: what the store holds, and where each page leads."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import streamlit as st

from dashboard import data
from engine.registry import get_ruleset
from engine.rules import WarrenError

st.title("warren")
st.caption(f"Game records replayed, checked and explained · {data.source_label()}")

rows = data.games_or_stop()


@st.fragment(run_every=2.0)
def _filling() -> None:
    """While `warren demo` is adding simulated games: how far it has got. The rest of the
    dashboard already works on what is in; each page shows more games as they arrive."""
    now = data.filling()
    if now is None:
        if st.session_state.get("was_filling"):
            st.session_state["was_filling"] = False
            st.rerun()  # the last games are in: the whole page counts them
        return
    st.session_state["was_filling"] = True
    st.progress(now.fraction, text=f"Adding simulated games: {now.done:,} of {now.target:,}. Every page "
                                   "already works on the games that are in, and shows more as they arrive.")


if data.filling() is not None or st.session_state.get("was_filling"):
    _filling()

games = Counter(r["ruleset"] for r in rows if not r.get("parent_game"))
finished = Counter(r["ruleset"] for r in rows if not r.get("parent_game") and r["ok"] and r.get("over"))
illegal = Counter(r["ruleset"] for r in rows if not r.get("parent_game") and not r["ok"])
branches = Counter(r["ruleset"] for r in rows if r.get("parent_game"))


def _title(slug: str) -> str:
    try:
        return get_ruleset(slug).title
    except WarrenError:
        return slug


with st.container(horizontal=True, gap="medium"):
    for slug in sorted(games | branches):
        with st.container(border=True, width=320):
            st.markdown(f"**{_title(slug)}**")
            unfinished = games[slug] - finished[slug] - illegal[slug]
            st.markdown(f"{games[slug]:,} games: {finished[slug]:,} finished, {unfinished:,} unfinished, "
                        f"{illegal[slug]:,} stop at an illegal event; and {branches[slug]:,} what-if "
                        "branches")

exported = data.exported_folder() is not None
if exported:
    st.caption("An export's tables: the statistics and SQL pages read them. To replay a game or "
               "settle a dispute, import its records into a store (`warren import`) and serve that.")
else:
    try:
        n_rulings = len(data.rulings()[0])
    except WarrenError:
        n_rulings = 0
    st.caption(f"{n_rulings} saved ruling(s).")

st.subheader("Pages")
PAGES = (
    ("screens/games.py", ":material/table_rows:",
     "every game and branch, filtered, each opened with one click"),
    ("screens/replay.py", ":material/play_circle:",
     "a game event by event, as the referee, a spectator or any player knew it"),
    ("screens/disputes.py", ":material/gavel:",
     "was an action legal here, by which rule; what-if branches; rulings kept with a link"),
    ("screens/record.py", ":material/edit_note:",
     "a game recorded at the table as it is played, each event checked and stored at once"),
    ("screens/stats.py", ":material/bar_chart:", "the canned statistics, as charts with their data"),
    ("screens/players.py", ":material/groups:",
     "the people of the records: games, wins, ratings, head to head, plays from the loggers"),
    ("screens/sql.py", ":material/database:", "your own SELECT over warren's tables"),
)
for page, icon, what in PAGES:
    if exported and Path(page).stem not in data.EXPORT_PAGES:
        continue
    st.page_link(page, icon=icon, help=what)
    st.caption(what)
