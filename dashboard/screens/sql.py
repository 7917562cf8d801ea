"""SQL: ask warren's tables anything, in a sandbox (SELECT only, warren's tables only).

The query runs when Run is pressed (a form), never while it is being typed. The schema
browser lists the tables the sandbox lets a query read, with their columns and what each
means (read from the tables' own schemas).
"""

from __future__ import annotations

import csv
import io

import streamlit as st

from dashboard import data, tables
from dashboard.schema_docs import DUCKDB_SQL, meaning, table_docs
from dashboard.tables import md
from dashboard.titles import page_title
from engine.rules import WarrenError

page_title("SQL")

st.title("SQL")

data.games_or_stop(allow_empty=True)

try:
    schema = data.schema()
except WarrenError as exc:
    st.error(f"The tables cannot be listed: {md(exc)}")
    st.stop()
docs = table_docs()
st.caption(f"One SELECT over warren's tables ({', '.join(schema)}), in DuckDB's SQL "
           f"([reference]({DUCKDB_SQL})). Files, extensions and settings are out of reach; each query has "
           "a time and a memory limit.")

EXAMPLE = ("SELECT ruleset, n_players, count(*) AS games, avg(n_events) AS avg_events\n"
           "FROM games GROUP BY ruleset, n_players ORDER BY ruleset, n_players")

left, right = st.columns([3, 2])
with left, st.form("sql_form", border=False):
    sql = st.text_area("Query", value=EXAMPLE, height=160, key="sql_text")
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        seconds = st.number_input("Time limit (seconds)", 1.0, 60.0, 10.0, step=1.0, key="sql_seconds",
                                  width=180)
        ran = st.form_submit_button("Run", type="primary", icon=":material/play_arrow:")
with right:
    st.markdown("**Tables**")
    st.caption("Click a table for its columns and what each means.")
    for name, columns in schema.items():
        about = docs.get(name, ("", {}))[0]
        with st.expander(f"{name}" + (f": {about}" if about else ""), key=f"sql_schema_{name}"):
            tables.show([{"column": c, "type": t.lower(), "meaning": meaning(name, c)}
                         for c, t in columns])

if ran:
    try:
        result = data.run_query(sql, seconds)
        st.session_state["sql_result"] = (result.column_names, result.to_pylist())
        st.session_state.pop("sql_error", None)
    except WarrenError as exc:
        st.session_state["sql_error"] = str(exc)
        st.session_state.pop("sql_result", None)
if "sql_error" in st.session_state:
    st.error(md(st.session_state["sql_error"]), icon=":material/error:")
elif "sql_result" in st.session_state:
    columns, result_rows = st.session_state["sql_result"]
    st.caption(f"{len(result_rows)} row(s)")
    st.dataframe(result_rows, hide_index=True, key="sql_table")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    writer.writerows(result_rows)
    st.download_button("Download CSV", buffer.getvalue().encode(), file_name="warren-query.csv",
                       mime="text/csv", key="sql_csv", icon=":material/download:", on_click="ignore")
