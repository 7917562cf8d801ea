"""warren's dashboard: step through games, settle disputes, read the statistics.

Run with ``warren dashboard`` (or ``streamlit run dashboard/app.py``). Every page has its
own address (``/games``, ``/replay?game=...&seq=...``, ``/record?game=...``), so a link opens it directly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

# `streamlit run dashboard/app.py` puts dashboard/ on sys.path, not the project root.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HERE = Path(__file__).resolve().parent
SCREENS = HERE / "screens"

# The favicon is a file of warren's own: a Material icon there (or a page's, used when none is
# set) is fetched from the network, and warren runs offline.
st.set_page_config(page_title="warren", page_icon=str(HERE / "favicon.png"), layout="wide")
# No developer menu (Deploy, Rerun...) for the people reading a game: `warren dashboard` says
# the same on its command line, this covers `streamlit run`.
st.set_option("client.toolbarMode", "minimal")

from dashboard import data  # noqa: E402 - after the path above is set

PAGES = [
    st.Page(SCREENS / "overview.py", title="Overview", icon=":material/home:", default=True,
            url_path="overview"),
    st.Page(SCREENS / "games.py", title="Games", icon=":material/table_rows:", url_path="games"),
    st.Page(SCREENS / "replay.py", title="Replay", icon=":material/play_circle:", url_path="replay"),
    st.Page(SCREENS / "disputes.py", title="Disputes", icon=":material/gavel:", url_path="disputes"),
    st.Page(SCREENS / "record.py", title="Record", icon=":material/edit_note:", url_path="record"),
    st.Page(SCREENS / "stats.py", title="Stats", icon=":material/bar_chart:", url_path="stats"),
    st.Page(SCREENS / "players.py", title="Players", icon=":material/groups:", url_path="players"),
    st.Page(SCREENS / "sql.py", title="SQL", icon=":material/database:", url_path="sql"),
]

if data.exported_folder() is not None:  # `warren dashboard --parquet`: the tables' pages only
    # by title: the default page's url_path is "" whatever it was given
    PAGES = [p for p in PAGES if p.title.lower() in data.EXPORT_PAGES]

st.navigation(PAGES, position="top").run()
