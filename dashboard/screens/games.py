"""Games: browse and filter every game and branch in the store, and open one."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import data
from dashboard.titles import page_title

page_title("Games")

# Rows drawn in the table at most; the filters narrow a large store down.
SHOWN_LIMIT = 5000

st.title("Games")

rows = data.games_or_stop()


def _winners(row: dict[str, Any]) -> str:
    if row.get("winners") is None:
        return ""
    return ", ".join(row["players"][w] for w in row["winners"])


rulesets = sorted({r["ruleset"] for r in rows})
with st.container(horizontal=True, gap="small", key="games_filters"):
    chosen = st.multiselect("Ruleset", rulesets, key="games_ruleset", width=260)
    player = st.text_input("Player name contains", key="games_player", width=200)
    winner = st.text_input("Winner name contains", key="games_winner", width=200)
    kind = st.selectbox("Show", ["games and branches", "games", "branches"], key="games_kind", width=200)
lengths = [r["n_events"] for r in rows]
lo, hi = min(lengths), max(lengths)
cols = st.columns(2)
length = cols[0].slider("Length (events)", lo, max(hi, lo + 1), (lo, max(hi, lo + 1)), key="games_length")
dates = sorted({r["created"][:10] for r in rows})
date_range = cols[1].select_slider("Created", options=dates, value=(dates[0], dates[-1]), key="games_dates") \
    if len(dates) > 1 else (dates[0], dates[0])


def keep(row: dict[str, Any]) -> bool:
    if chosen and row["ruleset"] not in chosen:
        return False
    if player and not any(player.lower() in name.lower() for name in row["players"]):
        return False
    if winner and winner.lower() not in _winners(row).lower():
        return False
    if kind == "games" and row.get("parent_game"):
        return False
    if kind == "branches" and not row.get("parent_game"):
        return False
    if not length[0] <= row["n_events"] <= length[1]:
        return False
    created: str = row["created"][:10]
    return bool(date_range[0] <= created <= date_range[1])


matching = [r for r in rows if keep(r)]
shown = matching[:SHOWN_LIMIT]
table = [
    {
        "open": f"./replay?game={r['game_id']}",
        "game": r["game_id"],
        "ruleset": r["ruleset"],
        "players": ", ".join(r["players"]),
        "events": r["n_events"],
        "verdict": "legal" if r["ok"] else f"{r['violation_rule']} at event {r['violation_seq']}",
        "winners": _winners(r),
        "created": r["created"],
        "branch of": f"{r['parent_game']} after event {r['parent_seq']}" if r.get("parent_game") else "",
    }
    for r in shown
]
st.caption(f"{len(matching):,} of {len(rows):,} games match"
           + (f"; the first {SHOWN_LIMIT:,} are listed" if len(matching) > SHOWN_LIMIT else ""))
st.dataframe(
    table, hide_index=True, width="stretch", key="games_table",
    column_config={
        "open": st.column_config.LinkColumn("open", display_text="replay", width="small",
                                            help="Open the game on the Replay page"),
        # Text columns fit their longest cell (the table scrolls sideways), never cut a word.
        "events": st.column_config.NumberColumn("events", width="small"),
    },
)

ids = [r["game_id"] for r in shown]
if ids:
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        pick = st.selectbox("Open a game", ids, key="games_open", width=420)
        if st.button("Replay this game", key="games_go", type="primary", icon=":material/play_arrow:"):
            st.session_state.pop("pos_seq", None)
            st.switch_page("screens/replay.py", query_params={"game": pick})
