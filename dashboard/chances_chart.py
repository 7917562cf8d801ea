"""Who was ahead: every player's chance to win over the game (engine.analysis), as the
chosen perspective could work it out, with its 95% interval as a band and the turning
points marked; a click on the chart goes to that event.

The analysis is worked out once per game, perspective and setting and kept in the store
(logstore.store.analyses); the page asks before working it out, since a long game takes a
minute or more.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import streamlit as st
from streamlit.errors import StreamlitAPIException

from dashboard import data, position
from dashboard.tables import md
from engine.analysis.timeline import Analysis, Settings
from engine.rules import WarrenError
from engine.ruleset import Perspective
from engine.wording import seat_label

QUICK = Settings(worlds=20, rollouts=2)
"""A first look: 40 plays a position (an interval up to 15 points either side)."""
FULL = Settings()
"""warren analyse's default: 400 plays a position (up to 5 points either side)."""
CHART_KEY = "chances_chart"
CLICKED = "chances_clicked"


def rows(result: Analysis) -> list[dict[str, Any]]:
    """One row per position shown (the start, every turn's start, the end) and player."""
    names = result.players
    marks = turning_marks(result)
    out = []
    for point in result.timeline:
        if not point.get("turn_start", True) and point["seq"] not in marks:
            continue
        c = point["chances"]
        for seat, name in enumerate(names):
            out.append({"seq": point["seq"], "turn": point["turn"], "seat": seat, "player": name,
                        "chance": c["points"][seat], "low": c["low"][seat], "high": c["high"][seat],
                        "note": marks.get(point["seq"], {}).get(seat, "")})
    return out


def turning_marks(result: Analysis) -> dict[int, dict[int, str]]:
    """For each turning point, the event that cost the seat most, in words: seq -> seat -> note."""
    names = result.players
    marks: dict[int, dict[int, str]] = {}
    for tp in result.turning_points:
        seat = tp["seat"]
        worst = min(tp["steps"], key=lambda st: st["delta"]) if tp["steps"] else None
        if worst is None:
            continue
        why = "luck" if worst["actor"] is None else (
            "own decision" if worst["own"] else f"{seat_label(worst['actor'], names)}'s decision")
        article = "an" if tp["label"][0] in "aeiou" else "a"
        marks.setdefault(worst["seq"], {})[seat] = (
            f"{names[seat]} {worst['delta']:+.0f} by {why}; {names[seat]} fell {tp['drop']:.0f} over the "
            f"turn, {article} {tp['label']}")
    return marks


def chart(data_rows: list[dict[str, Any]], seq: int) -> alt.LayerChart:
    base = alt.Chart(alt.Data(values=data_rows))
    color = alt.Color("player:N", sort=alt.SortField("seat"), scale=alt.Scale(scheme="tableau10"),
                      legend=alt.Legend(orient="top", title=None))
    x = alt.X("seq:Q", title="event", axis=alt.Axis(tickMinStep=1, format="d"))
    band = base.mark_area(opacity=0.15).encode(x=x, y=alt.Y("low:Q"), y2="high:Q", color=color)
    pick = alt.selection_point(name="at", fields=["seq"], on="click", nearest=True, empty=False)
    y = alt.Y("chance:Q", title="chance (points)", scale=alt.Scale(domain=[0, 100]),
              axis=alt.Axis(values=[0, 25, 50, 75, 100]))
    tooltip = ["player:N", alt.Tooltip("seq:Q", title="event"), "turn:Q",
               alt.Tooltip("chance:Q", format=".0f"), alt.Tooltip("low:Q", format=".0f"),
               alt.Tooltip("high:Q", format=".0f"), "note:N"]
    line = base.mark_line().encode(x=x, y=y, color=color)
    # The click goes to the nearest point (Vega-Lite's nearest works on point marks only).
    points = base.mark_point(size=30, filled=True).encode(x=x, y=y, color=color, tooltip=tooltip) \
        .add_params(pick)
    turned = base.transform_filter(alt.datum.note != "").mark_point(
        shape="triangle-down", size=140, filled=True).encode(x=x, y="chance:Q", color=color,
                                                            tooltip=["note:N"])
    now = alt.Chart(alt.Data(values=[{"seq": seq}])).mark_rule(strokeDash=[4, 3], color="gray") \
        .encode(x="seq:Q")
    # Altair's chart methods are untyped: the result is the LayerChart alt.layer builds.
    layered: alt.LayerChart = alt.layer(band, line, points, turned, now).properties(  # type: ignore[assignment]
        height=260)
    return layered


def take_click(last: int) -> None:
    """A point clicked on the chart moves the position there (before the step controls are
    drawn: a widget's value may not change after it is)."""
    state = st.session_state.get(CHART_KEY)
    picked: Any = None
    try:
        picked = state["selection"]["at"] if state else None
    except (KeyError, TypeError):
        picked = None
    if not picked:
        return
    seq = picked[0].get("seq") if isinstance(picked, list) else None
    if isinstance(seq, int | float) and st.session_state.get(CLICKED) != seq:
        st.session_state[CLICKED] = seq
        st.session_state[position.SEQ] = max(0, min(int(seq), last))


def show(game: data.LoadedGame, seq: int, seen: Perspective) -> None:
    game_id = game.record.header.game_id
    who = "the referee" if seen == "referee" else "the table" if seen == "spectator" \
        else seat_label(int(seen), game.names)
    st.markdown(f"**Who was ahead?** Each player's chance to win, as {md(who)} could work it out")
    result = None
    for settings in (FULL, QUICK):
        try:
            result = data.kept_analysis(game_id, seen, settings)
        except WarrenError as exc:
            st.info(md(exc))
            return
        if result is not None:
            break
    if result is None:
        _first_look(game, seq, seen)
        holder = st.empty()
        with holder.container():
            cols = st.columns(2)
            quick = cols[0].button("Work out a quick look", key="chances_quick", icon=":material/insights:",
                                   help="20 worlds x 2 plays at each position: an interval up to 15 points "
                                        "wide either side")
            full = cols[1].button("Work out the full analysis", key="chances_full",
                                  help="100 worlds x 4 plays at each position (as warren analyse): up to 5 "
                                       "points either side; a long game takes minutes")
            if not (quick or full):
                st.caption("Not worked out yet for this perspective. warren deals the cards this perspective "
                           "did not see anew many times and plays each deal out with simulation bots.")
                return
        holder.empty()
        if _work_out(game_id, seen, FULL if full else QUICK) is None:
            return
        # Drawn again with the analysis kept: the chart, and the turning points in the event list.
        try:
            st.rerun(scope="fragment")
        except StreamlitAPIException:
            st.rerun()
        return
    if seen != "referee":
        st.caption(f"Only what {md(who)} could know is used: the cards {md(who)} did not see are dealt anew.")
    st.altair_chart(chart(rows(result), seq), key=CHART_KEY, on_select="rerun", selection_mode="at",
                    width="stretch")
    s = result.settings
    st.caption(f"{s.worlds} worlds x {s.rollouts} plays per position by {s.bot} bots (seed {s.seed}); "
               "the band is the 95% interval, a triangle a turning point. Click a point to go there. "
               "A chance is the chance under these bots, not under people (docs/analysis.md).")
    _illegal(result)


def _first_look(game: data.LoadedGame, seq: int, seen: Perspective) -> None:
    """The store's win model, at once: each player's chance at every turn's start from the
    figures of the position (no rollout, no interval)."""
    try:
        found = data.model_first_look(game.record.header.game_id, seen)
    except WarrenError:
        return
    if found is None:
        return
    points, corpus = found
    first = [{"seq": p["seq"], "turn": p["turn"], "seat": s, "player": name, "chance": p["chances"][s],
              "low": p["chances"][s], "high": p["chances"][s], "note": ""}
             for p in points for s, name in enumerate(game.names)]
    st.altair_chart(chart(first, seq), key="chances_model", width="stretch")
    st.caption(f"A first look from the store's win model (fitted on {corpus.get('games')} games of its "
               "players, from the figures at each turn's start: `warren model fit`); the analysis below "
               "plays the positions out.")


def _work_out(game_id: str, seen: Perspective, settings: Settings) -> Analysis | None:
    bar = st.progress(0.0, text="Dealing worlds and playing them out...")
    planned = {"total": 1, "done": 0}

    def total(n: int) -> None:
        planned["total"] = max(1, n)

    def advance(n: int = 1) -> None:
        planned["done"] += n
        bar.progress(min(1.0, planned["done"] / planned["total"]),
                     text=f"Playing positions out: {planned['done']} of {planned['total']}")

    try:
        result = data.work_out_analysis(game_id, seen, settings, progress=advance, total=total)
    except WarrenError as exc:
        bar.empty()
        st.info(md(exc))
        return None
    bar.empty()
    return result


def _illegal(result: Analysis) -> None:
    illegal = result.illegal
    if not illegal:
        return
    names = result.players
    before = illegal["before"]
    said = ", ".join(f"{n} {before['points'][i]:.0f}" for i, n in enumerate(names))
    lines = [f"**What the illegal event {illegal['seq']} changed.** Before it: {md(said)}. "
             f"Remedy: {md(illegal['remedy'])}."]
    if illegal.get("alternatives"):
        actor = seat_label(illegal["actor"], names)
        options = "; ".join(f"{o['action']} ({o['delta']:+.0f})" for o in illegal["alternatives"][:5])
        lines.append(f"{md(actor)}'s legal moves there: {md(options)}.")
    st.warning("  \n".join(lines), icon=":material/gavel:")


def marks_for(game: data.LoadedGame, seen: Perspective) -> dict[int, str]:
    """Turning points in words for the event list, from a kept analysis (none if none)."""
    game_id = game.record.header.game_id
    for settings in (FULL, QUICK):
        try:
            result = data.kept_analysis(game_id, seen, settings)
        except WarrenError:
            return {}
        if result is not None:
            return {seq: "; ".join(notes.values()) for seq, notes in turning_marks(result).items()}
    return {}
