"""The Stats and SQL pages, driven through AppTest: honest charts (intervals drawn, one
ruleset per chart, cards only in card impact, no repeated title, level short labels) and a
SQL box that runs on Run, with a schema browser of the tables the sandbox names."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.stat_charts import MIN_N, TOO_FEW, by_ruleset, chart_hint
from engine.killer.catalogue.loader import CARD_CODE
from engine.registry import get_ruleset
from logstore.analytics.projections import TABLES
from logstore.analytics.stats import SECTIONS, all_stats, run_stat, section_of, stats_for
from logstore.analytics.views import connect
from logstore.store import Store
from tests.dashboard.conftest import APP, html_text, texts


def page(name: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page(f"screens/{name}.py").run()
    assert not at.exception, at.exception
    return at


def _charts(at: AppTest) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each chart's spec and its data (Streamlit ships inline data as Arrow IPC)."""
    out = []
    for chart in at.get("vega_lite_chart"):
        proto = chart.proto
        spec = json.loads(proto.spec)
        values = pa.ipc.open_stream(proto.data.data).read_all().to_pylist() if proto.data.data else []
        out.append((spec, values))
    return out


def _expected(store: Path, section: str) -> list[tuple[str, str | None, list[dict[str, Any]]]]:
    """(stat, ruleset, rows) for every chart the page should draw in one section on "every
    game", in page order: the stats of every ruleset the store holds."""
    con, catalog = connect(store)
    try:
        out = []
        for stat in stats_for(catalog.rulesets):
            if section_of(stat) != section:
                continue
            rows = run_stat(con, stat).table.to_pylist()
            out += [(stat.name, game, group) for game, group in by_ruleset(rows)] if rows else []
        return out
    finally:
        con.close()


def every_game(section: str) -> AppTest:
    """The Stats page on every game, showing one section of its reports."""
    at = page("stats")
    at.selectbox(key="stats_ruleset").set_value("every game").run()
    at.segmented_control(key="stats_section").set_value(section).run()
    assert not at.exception, at.exception
    return at


def _sections() -> list[tuple[AppTest, list[tuple[str, str | None, list[dict[str, Any]]]]]]:
    store = Path(os.environ["WARREN_DB"])
    return [(every_game(section), _expected(store, section)) for section in SECTIONS]


def _hint(name: str) -> dict[str, str]:
    return chart_hint(next(s for s in all_stats() if s.name == name).description)


def _plotted(group: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The query's rows a chart should hold: those with a category, and a value unless the
    chart counts them (a group too small to draw is shown as such)."""
    hint = _hint(name)
    return [r for r in group
            if r.get(hint["x"]) is not None and (r.get(hint["y"]) is not None or "n" in hint)]


def _own(values: list[dict[str, Any]], group: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chart's rows with only the query's columns (the chart adds its labels and counts)."""
    keys = set(group[0]) if group else set()
    return [{k: v for k, v in r.items() if k in keys} for r in values]


def test_each_chart_holds_one_ruleset_s_rows_of_its_query(demo_env: Path) -> None:
    drawn = 0
    for at, expected in _sections():
        charts = _charts(at)
        assert len(charts) == len(expected)
        drawn += len(charts)
        for (_spec, values), (name, game, group) in zip(charts, expected, strict=True):
            if "top" in _hint(name):  # only the highest and the lowest, all from the query
                assert all(r in group for r in _own(values, group))
                assert len(values) <= 2 * int(_hint(name)["top"])
            else:
                want = _plotted(group, name)
                if _hint(name).get("mark") == "barh":  # lying bars run from the largest down
                    assert sorted(map(str, _own(values, group))) == sorted(map(str, want)), name
                else:
                    assert _own(values, group) == want, name
            assert len({r.get("ruleset") for r in values}) <= 1, name  # never two games on one axis
            if game is not None:
                assert {r["ruleset"] for r in values} == {game}
        mixed = [name for name, game, _ in expected if game is not None]
        rulesets = {game for _, game, _ in expected if game is not None}
        if any(name == "game_length_histogram" for name, _g, _r in expected):
            assert mixed.count("game_length_histogram") == len(rulesets) >= 2  # one chart per game
    assert drawn >= 20


def test_the_page_opens_on_one_game_by_its_name_led_by_the_questions(demo_env: Path) -> None:
    """With every game it was 23,000 px and 53 charts, card impact first."""
    at = page("stats")
    box = at.selectbox(key="stats_ruleset")
    with Store(demo_env) as store:
        played = Counter(g.ruleset for g in store.games() if not g.parent_game)
    assert box.value == max(played, key=lambda s: (played[s], s))  # the most played game
    assert box.format_func(box.value) == get_ruleset(box.value).title
    assert [box.format_func(o) for o in box.options][-1] == "every game"
    assert at.segmented_control(key="stats_section").value == "questions"
    subheaders = [s.value for s in at.subheader]
    assert subheaders[:2] == ["Win rate by seat position, with a 95% confidence interval",
                              "First-seat advantage by player skill"]
    assert len(_charts(at)) <= 8
    own = at.segmented_control(key="stats_section").set_value("own").run()
    assert all(r.ruleset == box.value for r in [s for s in stats_for([box.value]) if section_of(s) == "own"])
    assert len(own.subheader) == len([s for s in stats_for([box.value]) if section_of(s) == "own"])


def test_every_rate_and_difference_is_drawn_with_its_interval_n_and_reference(demo_env: Path) -> None:
    """The win-rate chart did not draw the fair share its text builds on, the kill-rate and
    hazard charts no exact odds, rank and card impact bare differences from tiny groups."""
    pairs = [(chart, want) for at, expected in _sections()
             for chart, want in zip(_charts(at), expected, strict=True)]
    drawn = {"ref": 0, "ci": 0, "few": 0}
    for (spec, values), (name, _game, _rows) in pairs:
        hint = _hint(name)
        marks = [layer["mark"]["type"] for layer in spec["layer"]]
        value = hint["y"]
        along = "x" if hint.get("mark") == "barh" else "y"
        shown = [r for r in values if not r["few"]]
        if {"ci", "wilson", "newcombe"} & hint.keys():
            rule = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
            assert rule["encoding"][along]["field"] == "ci_low", name
            assert rule["encoding"][f"{along}2"]["field"] == "ci_high", name
            assert all(r["ci_low"] <= r[value] + 1e-4 and r[value] <= r["ci_high"] + 1e-4
                       for r in shown if r["ci_low"] is not None), name
            drawn["ci"] += 1
        else:
            assert "rule" not in marks, name
        if "ref" in hint:  # the reference the text names, drawn as a tick on each bar
            assert any(layer["mark"]["type"] == "tick" and layer["encoding"][along]["field"] == hint["ref"]
                       for layer in spec["layer"]), name
            drawn["ref"] += 1
        if "n" in hint:  # each bar's n written, and a group under the minimum not drawn but said
            least = int(hint.get("min", MIN_N))
            assert all(r["n_text"] == f"n {r['n']:,}" for r in shown), name
            assert all(r["n_text"] == TOO_FEW and (r["n"] is None or r["n"] < least or r[value] is None)
                       for r in values if r["few"]), name
            assert "text" in marks, name
            drawn["few"] += sum(r["few"] for r in values)
    assert drawn["ref"] >= 4 and drawn["ci"] >= 10 and drawn["few"] >= 1, drawn


def test_no_axis_shows_a_card_code_or_a_rule_id(demo_env: Path) -> None:
    """Bad News read "card 97-100", Odyssey's cards WB01, the deaths' legend cut rule ids."""
    rule_id = re.compile(r"^[A-Z]+-[A-Z-]+-?\d*$")
    for at, expected in _sections():
        for (spec, values), (name, game, _rows) in zip(_charts(at), expected, strict=True):
            labels = [str(r["label"]) for r in values]
            assert not any(rule_id.match(label) for label in labels), name
            if name == "card_impact":
                cards = {r["value"] for r in values}
                assert cards and all(r["label"] == get_ruleset(game).card_text(r["value"]) for r in values)
                if game in ("killer-bunnies-quest", "killer-bunnies-odyssey", "kinderbunnies"):
                    assert all(r["label"] != r["value"] and "(" in r["label"] for r in values), name
                if game == "bunnies":
                    assert all(r["label"][-1] in "♠♣♥♦" for r in values)
            if name == "kinderbunnies/bad_news_losses":
                assert sorted(labels) == ["Aliens", "Bears", "Candy", "Tornado"]
            if name == "killer-bunnies-quest/deaths_by_cause":
                assert "a weapon's roll" in labels
                assert spec["layer"][0]["encoding"]["color"]["field"] == "cause"


def test_charts_have_no_repeated_title_level_short_labels_and_no_stacking(demo_env: Path) -> None:
    at = every_game("questions")
    subheaders = texts(at.subheader)
    for spec, values in _charts(at):
        assert "title" not in spec  # the subheader above the chart says it once
        bars = spec["layer"][0]["encoding"]
        value, category = ("x", "y") if bars["x"].get("type") == "quantitative" and bars["y"].get(
            "type") != "quantitative" else ("y", "x")
        assert bars[value].get("stack", "absent") is None  # no stacked "_start/_end" fields to scale
        longest = max(len(str(r[bars[category]["field"]])) for r in values)
        if longest <= 4 or category == "y":
            assert bars[category]["axis"]["labelAngle"] == 0
    assert "Win rate by seat position" in subheaders


def test_card_impact_plots_cards_only(demo_env: Path) -> None:
    at = every_game("questions")
    expected = _expected(demo_env, "questions")
    charts = _charts(at)
    impact = [values for (spec, values), (name, _g, _r) in zip(charts, expected, strict=True)
              if name == "card_impact"]
    # a Bunnies card is rank and suit, a Quest card its number, an Odyssey card its Card
    # Identification Number (WB07): never a slot, an Item or a Quirk
    def is_card(ruleset: str, value: str) -> bool:
        if ruleset == "bunnies":
            return len(value) == 2
        if ruleset == "killer-bunnies-odyssey":
            return CARD_CODE.match(value) is not None
        return value.isdigit()

    assert impact and all(is_card(r["ruleset"], r["value"]) for values in impact for r in values)
    assert not {"left", "right", "top"} & {r["value"] for values in impact for r in values}


def test_player_count_filter_narrows_the_rows(app_env: Path) -> None:
    at = page("stats")
    at.selectbox(key="stats_ruleset").set_value("bunnies").run()
    assert not at.exception
    at.multiselect(key="stats_players").set_value([2]).run()
    for _spec, values in _charts(at):
        assert all(row.get("n_players", 2) == 2 for row in values)


def test_a_stat_chart_downloads_as_png_with_its_title() -> None:
    from dashboard.stat_charts import chart_png, stat_chart

    rows = [{"ruleset": "bunnies", "n_players": 2, "play_order": 1, "win_rate": 0.55, "ci_low": 0.4,
             "ci_high": 0.7},
            {"ruleset": "bunnies", "n_players": 2, "play_order": 2, "win_rate": 0.45, "ci_low": 0.3,
             "ci_high": 0.6}]
    table = pa.Table.from_pylist(rows)
    chart = stat_chart(rows, table, "chart: bar x=play_order y=win_rate ci=ci_low,ci_high")
    png = chart_png(chart, "Win rate by seat position")
    assert png.startswith(b"\x89PNG") and len(png) > 1000


# -- SQL ------------------------------------------------------------------------------------------------
def test_sql_runs_on_run_only_and_refuses_what_it_must(app_env: Path) -> None:
    at = page("sql")
    at.text_area(key="sql_text").input("SELECT count(*) AS n FROM games").run()
    assert "sql_result" not in at.session_state and not at.dataframe  # typing does not run it
    at.text_area(key="sql_text").input("SELECT count(*) AS n FROM games")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    assert not at.error
    assert at.dataframe[0].value["n"][0] == 6
    for hostile, word in [("SELECT * FROM read_csv('/etc/passwd')", "outside warren's tables"),
                          ("COPY games TO '/tmp/x.csv'", "only SELECT"),
                          ("ATTACH '/tmp/x.db'", "only SELECT")]:
        at.text_area(key="sql_text").input(hostile)
        at.button(key="FormSubmitter:sql_form-Run").click().run()
        assert at.error and word in at.error[0].value, (hostile, at.error)


def test_any_select_shows_and_a_large_result_is_refused(app_env: Path) -> None:
    at = page("sql")
    at.text_area(key="sql_text").input("SELECT [1, 2] AS l, {'x': 1} AS s, INTERVAL 3 DAY AS i, "
                                       "'infinity'::TIMESTAMP AS t, 1 AS a, 2 AS a")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    assert not at.error and not at.exception
    assert at.dataframe[0].value["t"][0] == "infinity" and at.dataframe[0].value["a_1"][0] == 2
    at.text_area(key="sql_text").input("SELECT repeat('x', 1000) FROM range(1000000)")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    assert at.error and "larger than 32 MB" in at.error[0].value


def test_the_schema_browser_lists_the_tables_the_error_names(app_env: Path) -> None:
    at = page("sql")
    listed = [e.label.split(":")[0] for e in at.expander]
    assert listed == list(TABLES)
    at.text_area(key="sql_text").input("SELECT * FROM nowhere")
    at.button(key="FormSubmitter:sql_form-Run").click().run()
    error = at.error[0].value.replace("\\", "")  # as shown: the page escapes what the query said
    assert "warren's tables: " + ", ".join(TABLES) in error
    assert ", ".join(TABLES) in texts(at.caption)
    drawn = html_text(at)
    assert "<td>game_id</td>" in drawn and "<td>violation_rule</td>" in drawn
    assert "the first illegal event and the rule it breaks" in drawn  # docs/analytics.md, linked in
    assert "duckdb.org" in texts(at.caption)


@pytest.mark.parametrize("table", TABLES)
def test_every_listed_table_answers(app_env: Path, table: str) -> None:
    from dashboard import data

    assert data.schema()[table], table


def test_every_chart_downloads_as_a_png(demo_env: Path) -> None:
    """DuckDB's sums are DECIMAL: vl-convert refused every chart holding one (win rate by
    seat among them), so its PNG button gave nothing."""
    from dashboard.stat_charts import chart_png, stat_chart

    con, catalog = connect(demo_env)
    try:
        drawn = 0
        for stat in stats_for(catalog.rulesets):
            table = run_stat(con, stat).table
            for _game, group in by_ruleset(table.to_pylist()):
                png = chart_png(stat_chart(group, table, stat.description), stat.title)
                assert png[:8] == b"\x89PNG\r\n\x1a\n", stat.name
                drawn += 1
    finally:
        con.close()
    assert drawn >= 20


def test_the_overview_shows_how_far_the_demo_has_got(app_env: Path) -> None:
    """`warren demo` serves before its simulated games are in: the Overview says how far."""
    from logstore.store.filling import clear_filling, write_filling

    write_filling(app_env, 120, 1500)  # this process: alive
    try:
        at = page("overview")
        bars = at.get("progress")
        assert len(bars) == 1 and "120 of 1,500" in bars[0].proto.text
    finally:
        clear_filling(app_env)
    assert not page("overview").get("progress")


def test_a_report_s_data_is_sent_only_when_its_box_is_opened(demo_env: Path) -> None:
    at = page("stats")
    assert not at.dataframe and not at.code  # nothing of the closed boxes reached the page
    first = at.get("expander")[0]
    key = next(k for k in at.session_state if str(k).startswith("data_"))
    at.session_state[key] = True
    at.run()
    assert len(at.dataframe) == 1 and "SELECT" in at.code[0].value, first


@pytest.fixture(scope="module")
def modelled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of 90 KinderBunnies games with its win model kept."""
    from click.testing import CliRunner

    from logstore.cli import main

    db = tmp_path_factory.mktemp("modelled") / "warren.db"
    for args in (["simulate", "kinderbunnies", "--games", "90", "--seed", "4", "--into-store"],
                 ["model", "fit", "--check", "0"]):
        result = CliRunner().invoke(main, [*args, "--db", str(db)], catch_exceptions=False)
        assert result.exit_code == 0, result.stderr
    return db


def test_what_each_card_did_is_drawn_with_its_interval_by_name(modelled: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from logstore.analytics import winmodel, wpa

    monkeypatch.setenv("WARREN_DB", str(modelled))
    at = page("stats")
    at.segmented_control(key="stats_section").set_value("wpa").run()
    assert not at.exception, at.exception
    charts = _charts(at)
    assert len(charts) == 1
    _spec, values = charts[0]
    con, _ = connect(modelled)
    try:
        model = winmodel.read_kept(modelled)[0]
        wpa.create_views(con, [model])
        expected = [i for i in wpa.impacts(con, model, "card") if not i.too_few]
    finally:
        con.close()
    assert [v["what"] for v in values] == [i.what for i in expected][:len(values)]
    assert all(v["low"] <= v["points"] <= v["high"] and v["n"] >= 10 for v in values)
    assert not any(re.search(r"\(\d+\) \(", v["what"]) for v in values)  # by name, not by copy
    at.segmented_control(key="wpa_by").set_value("seat").run()
    assert not at.exception, at.exception
    assert sorted(v["what"] for v in _charts(at)[0][1]) == ["seat 1", "seat 2"]


def test_without_a_model_the_section_says_how_to_fit_one(demo_env: Path) -> None:
    at = page("stats")
    at.segmented_control(key="stats_section").set_value("wpa").run()
    assert not at.exception, at.exception
    assert any("warren model fit" in i.value for i in at.info)
