"""The "who could it be?" chart: each player's chance of being a Werebunny, round by round,
as the chosen perspective could work it out (engine.suspicion)."""

from __future__ import annotations

from typing import Any

import altair as alt
import streamlit as st

from dashboard import data
from engine.ruleset import Perspective
from engine.suspicion import suspects_of, suspicion_by_round


@st.cache_data(show_spinner=False, max_entries=64)
def _round_ends(path: str, game_id: str, stamp: float, perspective: Perspective) -> list[dict[str, Any]]:
    """The answer at the end of every round of the whole game (computed once per perspective)."""
    game = data.load_game(game_id)
    return [{"round": a.round, "seq": a.seq, "pairs": a.pairs, "probabilities": a.probabilities}
            for a in suspicion_by_round(game.replay, perspective)]


def suspicion_rows(game: data.LoadedGame, seq: int, perspective: Perspective) -> list[dict[str, Any]]:
    """Rounds finished by ``seq``, then the answer at ``seq`` itself for the round under way."""
    ends = _round_ends(str(data.store_path()), game.record.header.game_id, data.store_stamp(), perspective)
    answers = [a for a in ends if a["seq"] < seq]
    state = game.replay.state_at(seq)
    report = suspects_of(game.ruleset)(state, perspective)
    answers = [a for a in answers if a["round"] != state.round]
    answers.append({"round": state.round, "seq": seq, "pairs": len(report.pairs),
                    "probabilities": dict(report.probabilities)})
    rows = []
    for answer in answers:
        for seat, p in sorted(answer["probabilities"].items()):
            rows.append({"round": answer["round"], "seat": seat, "player": game.names[seat],
                         "probability": p, "pairs": answer["pairs"], "seq": answer["seq"]})
    return rows


PANEL_WIDTH = 125
PANELS_PER_ROW = 2
"""Small multiples, one panel per player, two to a row: the chart fits a phone's column
(358 px at 390; four to a row ran 654 px wide there, cutting two players off), and lines
that would lie on top of each other (a spectator's uniform chances) each keep a panel of
their own."""


def chart(rows: list[dict[str, Any]]) -> alt.FacetChart:
    line = (
        alt.Chart()
        .mark_line(point=True)
        .encode(
            x=alt.X("round:O", title="end of round", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("probability:Q", title="chance", scale=alt.Scale(domain=[0, 1]),
                    axis=alt.Axis(format="%", tickCount=3)),
            color=alt.Color("player:N", legend=None, sort=alt.SortField("seat")),
            tooltip=["player:N", "round:O", alt.Tooltip("probability:Q", format=".0%"), "pairs:Q"],
        )
        .properties(width=PANEL_WIDTH, height=90)
    )
    # Altair's chart methods are untyped: the result is the FacetChart it builds.
    built: alt.FacetChart = line.facet(
        facet=alt.Facet("player:N", title=None, sort=alt.SortField("seat"),
                        header=alt.Header(labelFontWeight="bold", labelLimit=PANEL_WIDTH)),
        columns=PANELS_PER_ROW, data=alt.Data(values=rows),
    )
    return built


@st.cache_data(show_spinner=False)
def _spec() -> dict[str, Any]:
    """The chart's Vega-Lite spec without its data, built and validated by Altair once: each
    step then only ships new rows (Altair's validation would cost a step ~20 ms)."""
    spec: dict[str, Any] = chart([]).to_dict()
    spec.pop("data", None)
    spec.pop("datasets", None)
    return spec


def show(game: data.LoadedGame, seq: int, perspective: Perspective) -> None:
    suspects = game.ruleset.capabilities.suspects
    if suspects is None:
        return
    rows = suspicion_rows(game, seq, perspective)
    if not rows:
        return
    report = suspects(game.replay.state_at(seq), perspective, game.names)
    st.markdown("**Who could it be?** Each player's chance of being a Werebunny, round by round, as "
                "the chosen perspective can work it out")
    st.vega_lite_chart(rows, _spec(), key="suspicion_chart", width="content")
    st.caption(f"Model: {report.model}. {len(report.pairs)} pair(s) still consistent at this position."
               + ("  Deductions: " + "; ".join(report.deductions) if report.deductions else ""))
