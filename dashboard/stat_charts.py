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

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import altair as alt
import pyarrow as pa

from engine.intervals import newcombe, wilson

RATE_WORDS = ("win_rate", "rate", "share", "probability", "mean", "avg")
NUMERIC = (pa.types.is_integer, pa.types.is_floating, pa.types.is_decimal)
FEW_BARS = 12
FEW_BARS_BAND = 0.6
"""Up to FEW_BARS bars are drawn FEW_BARS_BAND of their band wide, not the whole band."""
FIXED_BARS = 6
FEW_BARS_WIDTH = 36
"""Up to FIXED_BARS bars (none side by side) are drawn FEW_BARS_WIDTH px wide: six of them
fit a phone's axis, and on a desktop they stay bars rather than slabs."""
WHISKER_END = 8
"""The width of an interval's end ticks, px."""
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


N_ROOM = 0.18
N_ROOM_LYING = 0.3
"""Room past the longest bar, as a share of the axis, for the n written beyond it (a
standing bar's over it, a lying bar's after it)."""
TOO_FEW = "too few"
MIN_N = 20
"""The fewest cases a difference or rate is drawn from where the stat names no ``min``."""
REF_COLOUR = "#c0392b"


RULE_WORDS = 56
"""A rule on an axis is its paraphrase, cut at a word to about this many letters."""


def _short(text: str, letters: int = RULE_WORDS) -> str:
    if len(text) <= letters:
        return text.rstrip(".")
    return text[:letters].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _label_row(row: dict[str, Any], x: str, hint: dict[str, str], names: Callable[[Any], str] | None,
               rules: Callable[[str], str | None] | None) -> str:
    if hint.get("names") and names is not None:
        return names(row[x])
    if "rules" in hint and rules is not None and row.get(hint["rules"]):
        said = rules(str(row[hint["rules"]]))
        if said:
            return f"{_words(str(row[x]))}: {_short(said)}"
    return str(row[x])


def _n_of(row: dict[str, Any], n_columns: list[str]) -> int | None:
    found = [row.get(c) for c in n_columns]
    numbers = [int(v) for v in found if v is not None]
    return min(numbers) if numbers and len(numbers) == len(found) else None


def _interval(row: dict[str, Any], counts: dict[str, list[str]]) -> tuple[float | None, float | None]:
    """The 95% interval the hint asks for, from the row's counts (None where they are missing)."""
    found = [row.get(c) for columns in counts.values() for c in columns]
    if any(v is None for v in found):
        return None, None
    numbers = [float(v) for v in found if v is not None]
    interval = wilson(*numbers[:2]) if "wilson" in counts and len(numbers) == 2 else (
        newcombe(*numbers[:4]) if "newcombe" in counts and len(numbers) == 4 else None)
    return (round(interval[0], 4), round(interval[1], 4)) if interval else (None, None)


def chart_notes(description: str) -> list[str]:
    """What a reader needs to read the marks the hint adds: the reference tick, the counts,
    the groups too small to draw, the rows left out."""
    hint = chart_hint(description)
    notes = []
    if "ref" in hint:
        notes.append(f"The red tick on each bar is the {_words(hint['ref'])}.")
    if "ci" in hint or "wilson" in hint or "newcombe" in hint:
        notes.append("The black whiskers are the 95% interval.")
    if "n" in hint:
        counts = " and ".join(_words(c) for c in hint["n"].split(","))
        least = int(hint.get("min", MIN_N))
        notes.append(f"n is the {counts} each bar stands on" + (
            f"; a group of fewer than {least} is marked {TOO_FEW!r}, not drawn." if least > 1 else "."))
    if "top" in hint:
        notes.append(f"Only the {hint['top']} highest and {hint['top']} lowest are drawn; the data below "
                     "holds every row.")
    return notes


def stat_chart(rows: list[dict[str, Any]], table: pa.Table, description: str,
               names: Callable[[Any], str] | None = None,
               rules: Callable[[str], str | None] | None = None) -> alt.LayerChart:
    """One chart of ``rows`` (one ruleset's), without a title; error bars where the stat
    gives an interval, a red tick where it names a reference value, each bar's n and
    groups under the minimum n written as too few. Rows whose plotted value is missing are
    left out (Vega cannot scale an axis over nothing).

    The hint's words (besides ``x``, ``y``, ``color``):

    - ``mark=barh``: bars lying down, for long names; ``xtitle=WORDS``: the category
      axis's title (underscores for spaces);
    - ``ci=LOW,HIGH``: an interval the SQL computes; ``wilson=K,N``: the interval of the
      rate K/N, ``newcombe=K1,N1,K2,N2``: of the difference K1/N1 - K2/N2, both computed
      here (engine.intervals) from the counts the report gives;
    - ``ref=COL``: the value each bar is to be read against (a fair share, an exact chance);
    - ``n=COL[,COL]``: the counts a bar stands on (the smaller is its n); ``min=K``: the
      fewest it is drawn from (else :data:`MIN_N`);
    - ``names=1``: the categories are cards, written as the game names them (``names``);
      ``rules=COL``: each category is written with the rule of column COL in words
      (``rules`` gives a rule id's paraphrase);
    - ``top=K``: only the K highest and K lowest bars."""
    enc = choose_encoding(table, description)
    hint = chart_hint(description)
    x, y, color = enc["x"], enc["y"], enc.get("color", "")
    if color == "ruleset":
        color = ""  # one chart is one ruleset's (by_ruleset): a colour for it says nothing
    line = enc.get("mark") == "line"
    lying = hint.get("mark") == "barh"
    n_columns = [c for c in hint.get("n", "").split(",") if c in table.column_names]
    least = int(hint.get("min", MIN_N)) if n_columns else 0
    ci = enc.get("ci", "")
    counts: dict[str, list[str]] = {k: [c for c in hint[k].split(",") if c in table.column_names]
                                    for k in ("wilson", "newcombe") if k in hint}
    if counts and not ci:
        ci = "ci_low,ci_high"
    ref = hint.get("ref", "") if hint.get("ref", "") in table.column_names else ""
    values = []
    for r in rows:
        if r.get(x) is None or (r.get(y) is None and not n_columns):
            continue
        row = dict(r)
        if counts:
            row["ci_low"], row["ci_high"] = _interval(row, counts)
        n = _n_of(row, n_columns) if n_columns else None
        row["n"] = n
        row["few"] = bool(n_columns) and (n is None or n < least or row.get(y) is None)
        row["label"] = _label_row(row, x, hint, names, rules)
        row["n_text"] = TOO_FEW if row["few"] else (f"n {n:,}" if n is not None else "")
        ends = [] if row["few"] else [row.get(c) for c in (y, *ci.split(","), ref) if c]
        row["top"] = max([0.0, *(float(v) for v in ends if v is not None)])
        values.append(row)
    if "top" in hint:
        k = int(hint["top"])
        drawn = sorted((r for r in values if not r["few"]), key=lambda r: float(r[y]), reverse=True)
        # The highest and the lowest of the groups large enough to draw (all of them when
        # there are few); when none is, a few of the groups, each said to be too few.
        values = ([*drawn[:k], *drawn[-k:]] if len(drawn) > 2 * k else drawn) or values[:2 * k]
    if lying:  # a list of names reads best from the largest down
        values.sort(key=lambda r: -float(r[y]) if r.get(y) is not None and not r["few"] else float("inf"))
    category = "label"
    numeric_x = _is_number(table, x) and not hint.get("names") and "rules" not in hint
    x_type = "Q" if line and numeric_x else ("O" if numeric_x else "N")
    longest = max((len(r[category]) for r in values), default=0)
    categories = len({r[category] for r in values})
    level = longest <= SHORT_LABEL or categories * longest <= LEVEL_LETTERS
    cat_axis = alt.Axis(labelAngle=0 if level or lying else -40, labelLimit=420 if lying else 120,
                        labelOverlap=not lying)
    tooltip = [alt.Tooltip(f"{c}:{'Q' if _is_number(table, c) else 'N'}", title=_words(c))
               for c in table.column_names if c != "ruleset"][:8]
    if hint.get("names") or "rules" in hint:
        tooltip.insert(0, alt.Tooltip("label:N", title=_words(x)))
    extent = [float(r[c]) for r in values if not r["few"]
              for c in (y, *ci.split(","), ref) if c and r.get(c) is not None]
    sort: Any = None
    if x_type == "Q":
        # padding: the marks at either end (a point, its whisker's ticks) stay inside the axis
        cat_scale: Any = alt.Scale(domain=_domain([float(r[x]) for r in values]), padding=WHISKER_END)
        cat_field = f"{x}:Q"
    else:
        cat_scale = alt.Undefined
        cat_field = f"{category}:{'O' if numeric_x else 'N'}"
        firsts = list(dict((r[category], r) for r in values).values())
        if numeric_x:  # bins and counts in their own order, whichever group has them first
            firsts.sort(key=lambda r: float(r[x]))
        sort = [r[category] for r in firsts]
    cat_title = hint.get("xtitle", "card" if hint.get("names") else _words(x)).replace("_", " ")
    # Lying bars: their names say what they are, and a title beside them would sit on them.
    cat = (alt.Y if lying else alt.X)(cat_field, title=None if lying else cat_title, sort=sort, axis=cat_axis,
                                      scale=cat_scale)
    val = alt.X if lying else alt.Y
    # stack=None: every bar stands on the axis (groups sit side by side, never on top).
    domain = _domain(extent)
    if n_columns:  # room past the longest bar for its n, which is never cut
        domain[1] += (domain[1] - domain[0]) * (N_ROOM_LYING if lying else N_ROOM)
    value_enc = val(f"{y}:Q", title=_words(y), stack=None, scale=alt.Scale(domain=domain))
    encoding: dict[str, Any] = {"y" if lying else "x": cat, "x" if lying else "y": value_enc,
                                "tooltip": tooltip}
    # Bars sit side by side only where a category holds several colours: a colour that
    # only sorts the categories (each cause its kind) offsets nothing.
    per_category = Counter(r[category] for r in values)
    grouped = bool(color) and color != x and not line and any(n > 1 for n in per_category.values())
    offset = alt.YOffset if lying else alt.XOffset
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=_words(color),
                                      legend=alt.Legend(orient="bottom", direction="horizontal"))
        if grouped:
            encoding["yOffset" if lying else "xOffset"] = offset(f"{color}:N")
    base = alt.Chart(alt.Data(values=values))
    drawn_rows = base.transform_filter("!datum.few")
    bars = len({(r[category], r.get(color)) for r in values})
    # A few bars keep a bar's width; many share the axis between them.
    # A handful of bars keep a bar's width (they would be slabs across a desktop's chart);
    # more take a share of their band, as bars side by side do: twelve fixed widths overran
    # a phone's 358 px axis.
    fixed = bars <= FIXED_BARS and not lying and not grouped and not line
    if line:
        marks = drawn_rows.mark_line(point=True)
    else:
        shared = bars <= FEW_BARS and not lying and not fixed
        marks = (drawn_rows.mark_bar(size=FEW_BARS_WIDTH) if fixed
                 else drawn_rows.mark_bar(width=alt.RelativeBandSize(FEW_BARS_BAND)) if shared
                 else drawn_rows.mark_bar())
    layers = [marks.encode(**encoding)]
    value_ch, value_2 = ("x", "x2") if lying else ("y", "y2")
    place = {k: v for k, v in encoding.items() if k not in (value_ch, "tooltip", "color")}
    if ci:
        low, high = ci.split(",")
        interval: dict[str, Any] = {**place, value_ch: val(f"{low}:Q", title=_words(y)),
                                    value_2: (alt.X2 if lying else alt.Y2)(f"{high}:Q"), "tooltip": tooltip}
        layers.append(drawn_rows.mark_rule(color="#222", strokeWidth=1.5).encode(**interval))
        for end in (low, high):
            layers.append(drawn_rows.mark_tick(color="#222", thickness=1.5, size=WHISKER_END).encode(
                **place, **{value_ch: val(f"{end}:Q")}))
    if ref:
        # over a fixed-width bar a little wider than it; else no size: three quarters of
        # its band (Vega-Lite's default), never wider than the axis has room for
        tick = (drawn_rows.mark_tick(color=REF_COLOUR, thickness=2.5, size=FEW_BARS_WIDTH + 8) if fixed
                else drawn_rows.mark_tick(color=REF_COLOUR, thickness=2.5))
        layers.append(tick.encode(
            **place, **{value_ch: val(f"{ref}:Q")}, tooltip=tooltip))
    if n_columns:
        # Each bar's n over its top (or its whisker's), a group too small to draw said so
        # in its place.
        at_foot = {**place, value_ch: val("top:Q")}
        text = (base.mark_text(align="left", dx=4, fontSize=10, color="#555") if lying
                else base.mark_text(baseline="bottom", dy=-2, fontSize=10, color="#555", angle=0))
        if not lying and (bars > FEW_BARS or grouped):  # narrow bars: their n runs upwards
            text = base.mark_text(align="left", baseline="middle", angle=270, dx=3, fontSize=10, color="#555")
        layers.append(text.encode(**at_foot, text="n_text:N"))
    chart = alt.layer(*layers).properties(height=max(260, 18 * bars + 40) if lying else 260)
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
