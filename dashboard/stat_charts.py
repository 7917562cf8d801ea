"""An Altair chart for each canned statistic, chosen from the shape of its result.

A stat file may name its chart in its opening comment (``-- chart: bar x=COL y=COL
color=COL``); otherwise the first rate-like column is plotted against the columns that
identify a row.
"""

from __future__ import annotations

from typing import Any

import altair as alt
import pyarrow as pa

RATE_WORDS = ("win_rate", "rate", "share", "probability", "mean", "avg")
NUMERIC = (pa.types.is_integer, pa.types.is_floating, pa.types.is_decimal)


def _is_number(table: pa.Table, column: str) -> bool:
    kind = table.schema.field(column).type
    return any(test(kind) for test in NUMERIC)


def chart_hint(description: str) -> dict[str, str]:
    """``chart: bar x=a y=b color=c`` from a stat's description, as a dict."""
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
        return hint
    numbers = [c for c in columns if _is_number(table, c)]
    labels = [c for c in columns if c not in numbers and c != "ruleset"]
    y = next((c for word in RATE_WORDS for c in numbers if word in c), None)
    if y is None:
        y = next((c for c in reversed(numbers) if c not in ("games", "n")), numbers[-1] if numbers else "")
    keys = [c for c in numbers if c != y and c in ("n_players", "play_order", "round", "night", "length",
                                                    "events", "bucket", "bunnies", "kind")]
    x = (labels[:1] or keys[:1] or [c for c in columns if c != y][:1] or [y])[0]
    wanted = ("n_players", "ruleset", "side", "kind")
    color = next((c for c in wanted if c in columns and c not in (x, y)), "")
    return {"mark": "bar", "x": x, "y": y, "color": color}


def stat_chart(title: str, rows: list[dict[str, Any]], table: pa.Table, description: str) -> alt.Chart:
    enc = choose_encoding(table, description)
    x, y, color = enc["x"], enc["y"], enc.get("color", "")
    base = alt.Chart(alt.Data(values=rows), title=title)
    mark = base.mark_line(point=True) if enc.get("mark") == "line" else base.mark_bar()
    encoding: dict[str, Any] = {
        "x": alt.X(f"{x}:{'Q' if enc.get('mark') == 'line' and _is_number(table, x) else 'N'}",
                   title=x.replace("_", " "), sort=None),
        "y": alt.Y(f"{y}:Q", title=y.replace("_", " ")),
        "tooltip": [f"{c}:{'Q' if _is_number(table, c) else 'N'}" for c in table.column_names][:8],
    }
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=color.replace("_", " "))
        if enc.get("mark") != "line" and color != x:
            encoding["xOffset"] = alt.XOffset(f"{color}:N")
    # Altair's chart methods are untyped: the result is the Chart it builds.
    chart: alt.Chart = mark.encode(**encoding).properties(height=280)
    return chart


def chart_png(chart: alt.Chart) -> bytes:
    """The chart as a PNG (vl-convert renders Vega-Lite offline, no browser needed)."""
    import vl_convert

    return bytes(vl_convert.vegalite_to_png(chart.to_dict(), scale=2))
