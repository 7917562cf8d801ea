"""The Stats and SQL pages, driven through AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
from streamlit.testing.v1 import AppTest

from logstore.analytics.stats import run_stat, stats_for
from logstore.analytics.views import connect
from tests.dashboard.conftest import APP


def page(name: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page(f"screens/{name}.py").run()
    assert not at.exception, at.exception
    return at


def _chart_rows(chart: object) -> tuple[dict, list[dict]]:
    """The chart's spec and its data (Streamlit ships inline data as Arrow IPC)."""
    proto = chart.proto  # type: ignore[attr-defined]
    spec = json.loads(proto.spec)
    values = pa.ipc.open_stream(proto.data.data).read_all().to_pylist() if proto.data.data else []
    return spec, values


def test_every_stat_has_a_chart_whose_data_is_the_query_result(app_env: Path) -> None:
    at = page("stats")
    charts = at.get("vega_lite_chart")
    con, _ = connect(app_env)
    try:
        stats = stats_for(["bunnies"])
        expected = {s.title: run_stat(con, s).table.to_pylist() for s in stats}
    finally:
        con.close()
    titles = {}
    for chart in charts:
        spec, values = _chart_rows(chart)
        titles[spec["title"]] = values
    shown = {t for t, rows in expected.items() if rows}
    assert shown <= set(titles), shown - set(titles)
    seat = next(s for s in stats if s.name == "win_rate_by_seat")
    assert titles[seat.title] == expected[seat.title]
    assert titles[seat.title], "the seat report has rows on this store"
    spec = next(json.loads(c.proto.spec) for c in charts if json.loads(c.proto.spec)["title"] == seat.title)
    assert spec["encoding"]["y"]["field"] == "win_rate"
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels.count("CSV") == labels.count("PNG") == len(shown)


def test_player_count_filter_narrows_the_rows(app_env: Path) -> None:
    at = page("stats")
    at.selectbox(key="stats_ruleset").set_value("bunnies").run()
    assert not at.exception
    at.multiselect(key="stats_players").set_value([2]).run()
    for chart in at.get("vega_lite_chart"):
        _, values = _chart_rows(chart)
        assert all(row.get("n_players", 2) == 2 for row in values)


def test_sql_box_answers_and_refuses(app_env: Path) -> None:
    at = page("sql")
    at.text_area(key="sql_text").set_value("SELECT count(*) AS n FROM games").run()
    at.button(key="sql_run").click().run()
    assert not at.error
    assert at.dataframe[0].value["n"][0] == 6
    for hostile, word in [("SELECT * FROM read_csv('/etc/passwd')", "outside warren's tables"),
                          ("COPY games TO '/tmp/x.csv'", "only SELECT"),
                          ("ATTACH '/tmp/x.db'", "only SELECT")]:
        at.text_area(key="sql_text").set_value(hostile).run()
        at.button(key="sql_run").click().run()
        assert at.error and word in at.error[0].value, (hostile, at.error)


def test_a_stat_chart_downloads_as_png() -> None:
    import pyarrow as pa

    from dashboard.stat_charts import chart_png, stat_chart

    rows = [{"ruleset": "bunnies", "n_players": 2, "play_order": 1, "win_rate": 0.55},
            {"ruleset": "bunnies", "n_players": 2, "play_order": 2, "win_rate": 0.45}]
    table = pa.Table.from_pylist(rows)
    png = chart_png(stat_chart("Win rate", rows, table, "chart: bar x=play_order y=win_rate"))
    assert png.startswith(b"\x89PNG") and len(png) > 1000
