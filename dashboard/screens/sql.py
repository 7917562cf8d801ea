"""SQL: ask warren's tables anything, in a sandbox (SELECT only, warren's tables only)."""

from __future__ import annotations

import csv
import io

import streamlit as st

from dashboard import data
from engine.rules import WarrenError

st.title("SQL")
st.caption("SELECT queries over warren's tables (games, seat_results, turns, effects, events; "
           "see docs/analytics.md). Files, extensions and settings are out of reach; each query "
           "has a time and a memory limit.")

data.games_or_stop(allow_empty=True)

EXAMPLE = ("SELECT ruleset, n_players, count(*) AS games, avg(n_events) AS avg_events\n"
           "FROM games GROUP BY ruleset, n_players ORDER BY ruleset, n_players")
sql = st.text_area("Query", value=EXAMPLE, height=140, key="sql_text")
seconds = st.number_input("Time limit (seconds)", 1.0, 60.0, 10.0, step=1.0, key="sql_seconds")
if st.button("Run", key="sql_run", type="primary") or "sql_result" in st.session_state:
    if st.session_state.get("sql_last") != (sql, seconds):
        try:
            table = data.run_query(sql, seconds)
            st.session_state["sql_result"] = (table.column_names, table.to_pylist())
            st.session_state.pop("sql_error", None)
        except WarrenError as exc:
            st.session_state["sql_error"] = str(exc)
            st.session_state.pop("sql_result", None)
        st.session_state["sql_last"] = (sql, seconds)
    if "sql_error" in st.session_state:
        st.error(st.session_state["sql_error"])
    elif "sql_result" in st.session_state:
        columns, result = st.session_state["sql_result"]
        st.caption(f"{len(result)} row(s)")
        st.dataframe(result, hide_index=True, key="sql_table")
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=columns)
        writer.writeheader()
        writer.writerows(result)
        st.download_button("Download CSV", buffer.getvalue().encode(), file_name="warren-query.csv",
                           mime="text/csv", key="sql_csv")
