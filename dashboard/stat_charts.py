"""An Altair chart for each canned statistic, chosen from the shape of its result.

A stat file may name its chart in its opening comment (``-- chart: bar x=COL y=COL
color=COL ci=LOW,HIGH``); otherwise the first rate-like column is plotted against the
columns that identify a row. ``ci`` names the columns of a confidence interval the SQL
computes: it is drawn as an error bar on each bar. Rulesets are never mixed in one chart:
the page draws one chart per ruleset (:func:`by_ruleset`).

The page shows each stat's title above its chart, so the chart itself has none; the PNG
export adds it back (:func:`chart_png`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pyarrow as pa

RATE_WORDS = ("win_rate", "rate", "share", "probability", "mean", "avg")
NUMERIC = (pa.types.is_integer, pa.types.is_floating, pa.types.is_decimal)
FEW_BARS = 12
FEW_BARS_WIDTH = 36
"""Up to FEW_BARS bars are drawn FEW_BARS_WIDTH px wide, not stretched across the chart."""
SHORT_LABEL = 4
LEVEL_LETTERS = 60
"""Category labels are written level when they are short (SHORT_LABEL letters at most) or
few (LEVEL_LETTERS letters in all); otherwise they are slanted so they do not collide."""


def _is_number(table: pa.Table, column: str) -> bool:
    kind = table.schema.field(column).type
    return any(test(kind) for test in NUMERIC)


def chart_hint(description: str) -> dict[str, str]:
    """``chart: bar x=a y=b color=c ci=lo,hi`` from a stat's description, as a dict."""
    for line in description.splitlines():
        line = line.strip()
        if line.startswith("chart:"):
            words = line.removeprefix("chart:").split()
            hint = {"mark": words[0]} if words and "=" not in words[0] else {}
            for word in words:
                key, is_pair, value = word.partition("=")
                if is_pair:
                    hint[key] = value
            return hint
    return {}


def choose_encoding(table: pa.Table, description: str) -> dict[str, str]:
    hint = chart_hint(description)
    columns = table.column_names
    if {"x", "y"} <= hint.keys() and hint["x"] in columns and hint["y"] in columns:
        if "ci" in hint and not all(c in columns for c in hint["ci"].split(",")):
            hint.pop("ci")
        return hint
    numbers = [c for c in columns if _is_number(table, c)]
    labels = [c for c in columns if c not in numbers and c != "ruleset"]
    y = next((c for word in RATE_WORDS for c in numbers if word in c), None)
    if y is None:
        y = next((c for c in reversed(numbers) if c not in ("games", "n")), numbers[-1] if numbers else "")
    keys = [c for c in numbers if c != y and c in ("n_players", "play_order", "round", "night", "length",
                                                    "events", "bucket", "bunnies", "kind")]
    x = (labels[:1] or keys[:1] or [c for c in columns if c != y][:1] or [y])[0]
    wanted = ("n_players", "side", "kind")
    color = next((c for c in wanted if c in columns and c not in (x, y)), "")
    return {"mark": "bar", "x": x, "y": y, "color": color}


def by_ruleset(rows: Sequence[dict[str, Any]]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """The rows split by ruleset (one chart each: rounds of one game and turns of another
    never share an axis); rows without a ruleset column stay together."""
    if not rows or "ruleset" not in rows[0]:
        return [(None, list(rows))]
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(str(row["ruleset"]), []).append(row)
    return sorted(groups.items())


def _words(column: str) -> str:
    return column.replace("_", " ")


def _domain(values: list[float]) -> list[float]:
    """An axis's extent, given rather than left to Vega: zero and every value in it (a view
    Vega redraws before its data arrives would otherwise scale over nothing and warn)."""
    lo, hi = min([0.0, *values]), max([0.0, *values])
    if lo == hi:
        hi = lo + 1.0
    return [lo, hi]


def stat_chart(rows: list[dict[str, Any]], table: pa.Table, description: str) -> alt.LayerChart:
    """One chart of ``rows`` (one ruleset's), without a title; error bars where the stat
    gives an interval. Rows whose plotted value is missing are left out (Vega cannot scale
    an axis over nothing)."""
    enc = choose_encoding(table, description)
    x, y, color = enc["x"], enc["y"], enc.get("color", "")
    if color == "ruleset":
        color = ""  # one chart is one ruleset's (by_ruleset): a colour for it says nothing
    line = enc.get("mark") == "line"
    values = [r for r in rows if r.get(y) is not None and r.get(x) is not None]
    x_type = "Q" if line and _is_number(table, x) else ("O" if _is_number(table, x) else "N")
    longest = max((len(str(r[x])) for r in values), default=0)
    categories = len({r[x] for r in values})
    level = longest <= SHORT_LABEL or categories * longest <= LEVEL_LETTERS
    x_axis = alt.Axis(labelAngle=0 if level else -40, labelLimit=120, labelOverlap=True)
    tooltip = [alt.Tooltip(f"{c}:{'Q' if _is_number(table, c) else 'N'}", title=_words(c))
               for c in table.column_names if c != "ruleset"][:8]
    ci = enc.get("ci", "")
    extent = [float(r[c]) for r in values for c in (y, *ci.split(",")) if c and r.get(c) is not None]
    x_scale: Any = alt.Undefined
    if x_type == "Q":
        x_scale = alt.Scale(domain=_domain([float(r[x]) for r in values]))
    encoding: dict[str, Any] = {
        "x": alt.X(f"{x}:{x_type}", title=_words(x), sort=None, axis=x_axis, scale=x_scale),
        # stack=None: every bar stands on the axis (groups sit side by side, never on top).
        "y": alt.Y(f"{y}:Q", title=_words(y), stack=None, scale=alt.Scale(domain=_domain(extent))),
        "tooltip": tooltip,
    }
    grouped = bool(color) and color != x and not line
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=_words(color),
                                      legend=alt.Legend(orient="bottom", direction="horizontal"))
        if grouped:
            encoding["xOffset"] = alt.XOffset(f"{color}:N")
    base = alt.Chart(alt.Data(values=values))
    bars = len({(r[x], r.get(color)) for r in values})
    # A few bars keep a bar's width; many share the axis between them.
    marks = base.mark_line(point=True) if line else (base.mark_bar(size=FEW_BARS_WIDTH) if bars <= FEW_BARS
                                                     else base.mark_bar())
    layers = [marks.encode(**encoding)]
    if ci:
        low, high = ci.split(",")
        interval: dict[str, Any] = {"x": encoding["x"], "y": alt.Y(f"{low}:Q", title=_words(y)),
                                    "y2": alt.Y2(f"{high}:Q"), "tooltip": tooltip}
        if grouped:
            interval["xOffset"] = encoding["xOffset"]
        whisker = {k: v for k, v in interval.items() if k not in ("y", "y2")}
        layers.append(base.mark_rule(color="#222", strokeWidth=1.5).encode(**interval))
        for end in (low, high):
            layers.append(base.mark_tick(color="#222", thickness=1.5, size=10).encode(
                **whisker, y=alt.Y(f"{end}:Q")))
    chart = alt.layer(*layers).properties(height=260)
    assert isinstance(chart, alt.LayerChart)  # properties() of a layer is a layer
    return chart


def chart_png(chart: alt.LayerChart, title: str) -> bytes:
    """The chart as a PNG with its title (vl-convert renders Vega-Lite offline, no browser)."""
    import json

    import vl_convert

    # DuckDB's sums are DECIMAL (Python Decimal), which vl-convert's JSON cannot take: the
    # spec goes through JSON with them as plain numbers (the browser's copy is already so).
    spec = json.loads(json.dumps(chart.properties(title=title, width=640).to_dict(), default=_plain))
    return bytes(vl_convert.vegalite_to_png(spec, scale=2))


def _plain(value: Any) -> Any:
    from decimal import Decimal

    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
