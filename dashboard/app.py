"""warren's dashboard: step through games, settle disputes, read the statistics.

Run with ``warren dashboard`` (or ``streamlit run dashboard/app.py``).
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

st.set_page_config(page_title="warren", page_icon="🐇", layout="wide")

PAGES = [
    st.Page(HERE / "screens" / "games.py", title="Games", icon=":material/table_rows:", default=True,
            url_path="games"),
    st.Page(HERE / "screens" / "replay.py", title="Replay", icon=":material/play_circle:", url_path="replay"),
    st.Page(HERE / "screens" / "disputes.py", title="Disputes", icon=":material/gavel:", url_path="disputes"),
    st.Page(HERE / "screens" / "stats.py", title="Stats", icon=":material/bar_chart:", url_path="stats"),
    st.Page(HERE / "screens" / "sql.py", title="SQL", icon=":material/search:", url_path="sql"),
]

st.navigation(PAGES).run()
