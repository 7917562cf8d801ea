"""What each Stats chart draws, on a store of known content, rendered as a phone's column
(358 px) and a desktop's (900 px) by Vega itself (vl-convert's SVG): every bar inside its
axis, every n over its bar readable (not cut at the top), the bins of a histogram in their
order, the rows a chart stands on those of its query, and each game's card impact drawn."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import vl_convert

from dashboard.stat_charts import by_ruleset, chart_hint, chart_notes, stat_chart
from logstore.analytics.stats import Stat, run_stat, stats_for
from logstore.analytics.views import connect

WIDTHS = (358, 900)
TEXT_EM = 5.2
"""The width of one letter of a 10 px label, px (a reading of Vega's sans-serif)."""
_PLOT = re.compile(r'class="background" aria-hidden="true" d="M0\.5,0\.5h([\d.]+)v([\d.]+)')
_RECTS = re.compile(r'<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)</g>', re.S)
_RECT = re.compile(r'd="M(-?[\d.]+),(-?[\d.]+)h(-?[\d.]+)v(-?[\d.]+)')
_TEXTS = re.compile(r'<g class="mark-text role-mark[^"]*"[^>]*>(.*?)</g>', re.S)
_TEXT = re.compile(r'<text[^>]*transform="translate\((-?[\d.]+),(-?[\d.]+)\)'
                   r'(?: rotate\((-?\d+)\))?[^>]*>([^<]*)</text>')


def _charts(store: Path) -> Iterator[tuple[Stat, str | None, list[dict[str, Any]], Any]]:
    con, catalog = connect(store)
    try:
        for stat in stats_for(catalog.rulesets):
            result = run_stat(con, stat)
            for game, group in by_ruleset(result.table.to_pylist()):
                yield stat, game, group, stat_chart(group, result.table, stat.description)
    finally:
        con.close()


@pytest.fixture(scope="module")
def drawn(demo_store: Path) -> list[tuple[Stat, str | None, list[dict[str, Any]], Any]]:
    return list(_charts(demo_store))


def _svg(chart: Any, width: int) -> str:
    spec = json.loads(json.dumps(chart.properties(width=width).to_dict(), default=float))
    return str(vl_convert.vegalite_to_svg(spec))


def _outside(svg: str) -> list[str]:
    """What a rendered chart draws outside its plot: a bar not wholly inside the axes (a
    tick, a thin mark, is held by its middle: it is drawn across an axis's line at 0), an n
    label whose top is above the plot."""
    found = _PLOT.search(svg)
    assert found is not None
    width, height = float(found[1]), float(found[2])
    bad = []
    for group in _RECTS.finditer(svg):
        for x, y, w, h in (map(float, m) for m in _RECT.findall(group[1])):
            if min(w, h) <= 3:  # a tick: its middle inside
                if not (-0.6 <= x + w / 2 <= width + 0.6 and -0.6 <= y + h / 2 <= height + 0.6):
                    bad.append(f"tick at {x:.0f},{y:.0f}")
            elif x < -0.6 or y < -0.6 or x + w > width + 0.6 or y + h > height + 0.6:
                bad.append(f"bar {x:.0f},{y:.0f} {w:.0f}x{h:.0f} in {width:.0f}x{height:.0f}")
    for group in _TEXTS.finditer(svg):
        for x_, y_, turn, text in _TEXT.findall(group[1]):
            upright = turn in ("270", "-90")
            top = float(y_) - (len(text) * TEXT_EM if upright else 10)
            right = float(x_) + (0 if upright else len(text) * TEXT_EM / 2)  # centred or after a bar
            if top < -1 or not 0 <= float(x_) <= width + 1 or right > width + 1:
                bad.append(f"label {text!r} at {float(x_):.0f},{float(y_):.0f}")
    return bad


@pytest.mark.parametrize("width", WIDTHS)
def test_every_mark_of_every_chart_is_inside_its_axes(drawn: list, width: int) -> None:
    """The histogram's bars ran past the axis; "n 77" read "n 7", cut at the top."""
    problems = {f"{stat.name} ({game})": _outside(_svg(chart, width)) for stat, game, _rows, chart in drawn}
    assert not {k: v for k, v in problems.items() if v}
    assert len(problems) >= 30


def _data(chart: Any) -> list[dict[str, Any]]:
    spec = chart.to_dict()
    return list(spec["layer"][0]["data"]["values"] if "data" in spec["layer"][0] else spec["data"]["values"])


def test_the_histogram_s_bins_run_in_their_order(drawn: list) -> None:
    """Its 0 bin stood after 40: the categories were in the order a player count met them."""
    histograms = [(game, chart) for stat, game, _rows, chart in drawn if stat.name == "game_length_histogram"]
    assert len(histograms) >= 3
    for game, chart in histograms:
        bars = chart.to_dict()["layer"][0]["encoding"]["x"]
        order = [int(label) for label in bars["sort"]]
        assert order == sorted(order), game
        assert {r["rounds_from"] for r in _data(chart)} == set(order)


def test_each_chart_stands_on_its_query_s_rows(drawn: list) -> None:
    for stat, game, rows, chart in drawn:
        hint = chart_hint(stat.description)
        own = [{k: v for k, v in r.items() if k in rows[0]} for r in _data(chart)]
        if "top" in hint:  # the highest and the lowest of them
            assert all(r in rows for r in own), stat.name
        else:
            wanted = [r for r in rows if r.get(hint.get("x", "")) is not None] if "x" in hint else rows
            assert sorted(map(str, own)) == sorted(map(str, wanted)) or not hint, (stat.name, game)


def test_card_impact_is_drawn_for_every_game(drawn: list) -> None:
    """Empty for Quest, KinderBunnies and Trust No Bunny: their cards are numbers and values."""
    games = {game for stat, game, rows, _chart in drawn if stat.name == "card_impact" and rows}
    assert {"bunnies", "killer-bunnies-quest", "kinderbunnies", "trust-no-bunny"} <= games


def test_rank_impact_stands_on_every_seat() -> None:
    """Every group was 'too few' over 311 games: a seat that never laid a rank hardly exists."""
    from logstore.analytics.stats import all_stats

    stat = next(s for s in all_stats() if s.name == "bunnies/rank_impact")
    hint = chart_hint(stat.description)
    assert hint["n"] == "seats_won,seats_lost" and "ci" in hint
    histogram = next(s for s in all_stats() if s.name == "game_length_histogram")
    notes = " ".join(chart_notes(histogram.description))
    assert "fewer than 1" not in notes  # a minimum of one says nothing
