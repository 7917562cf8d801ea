"""The Stats page's win chance added: each card (or kind of play, or seat) as a point with
its 95% interval as an error bar, sorted, named as the game names it, with n in the tooltip;
the ones of too few plays listed apart rather than drawn (logstore.analytics.wpa)."""

from __future__ import annotations

from typing import Any

import altair as alt

TOO_FEW = "too few plays to tell"

AXES = {
    "card": ("Chance added over a typical card of its kind (points)", "card"),
    "kind": ("Change of the player's chance across the turn (points)", "kind of play"),
    "seat": ("Chance at the first position (points)", "seat"),
    "role": ("Change of the player's chance across the turn (points)", "side"),
    "player": ("Chance added across the player's own turns, per game (points)", "player"),
}


def impact_chart(rows: list[dict[str, Any]], by: str, top: int = 40) -> alt.LayerChart | None:
    """The chart of the rows with enough plays (at most ``top`` of them, most points first,
    then the least: the cards that did most either way); None when none has."""
    shown = [r for r in rows if not r["too_few"] and r["points"] is not None]
    if not shown:
        return None
    if len(shown) > top:
        shown = shown[: top // 2] + shown[-(top - top // 2):]
    title, what = AXES[by]
    data = [{"what": r["what"], "points": r["points"],
             "low": r["low"] if r["low"] is not None else r["points"],
             "high": r["high"] if r["high"] is not None else r["points"], "n": r["plays"],
             "won": "" if r["win_rate"] is None else f"{r['win_rate']:.0f}% of {r['games']} games"}
            for r in shown]
    order = [d["what"] for d in (data if by != "seat" else sorted(data, key=lambda d: d["what"]))]
    base = alt.Chart(alt.Data(values=data)).encode(
        y=alt.Y("what:N", sort=order, title=what, axis=alt.Axis(labelLimit=260)),
        tooltip=[alt.Tooltip("what:N", title=what), alt.Tooltip("points:Q", title="points", format="+.1f"),
                 alt.Tooltip("low:Q", title="95% from", format="+.1f"),
                 alt.Tooltip("high:Q", title="95% to", format="+.1f"), alt.Tooltip("n:Q", title="n"),
                 alt.Tooltip("won:N", title="its player won")],
    )
    bars = base.mark_rule(strokeWidth=2, opacity=0.6).encode(x=alt.X("low:Q", title=title), x2="high:Q")
    dots = base.mark_point(filled=True, size=60).encode(x="points:Q")
    layers = [bars, dots]
    if by != "seat":
        zero = alt.Chart(alt.Data(values=[{"x": 0}])).mark_rule(strokeDash=[4, 4], color="gray")
        layers.insert(0, zero.encode(x="x:Q"))
    return alt.LayerChart(layer=layers).properties(height=max(120, 18 * len(data)))


def too_few(rows: list[dict[str, Any]]) -> list[str]:
    """Names of the rows of too few plays, with their n."""
    return [f"{r['what']} ({r['plays']})" for r in rows if r["too_few"]]
