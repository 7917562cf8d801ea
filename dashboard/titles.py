"""Each page's browser tab title: the page, the game it shows (from its address), warren.

Several tabs of warren open at once (a replay beside its dispute, two games side by side)
read apart by their titles: "Replay · bunnies-7-000003 · warren".
"""

from __future__ import annotations

import streamlit as st


def page_title(page: str) -> None:
    """Title the browser tab for ``page`` and the game its address names, if any."""
    game = st.query_params.get("game")
    st.set_page_config(page_title=" · ".join(part for part in (page, game, "warren") if part))
