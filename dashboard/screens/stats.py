"""Stats: the canned statistics as charts, each downloadable as PNG and its data as CSV.

One chart per ruleset a report covers (rounds of one game and turns of another never share
an axis); intervals the SQL computes are drawn as error bars.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import streamlit as st

from dashboard import data
from dashboard.stat_charts import by_ruleset, chart_notes, chart_png, stat_chart
from dashboard.tables import md
from dashboard.titles import page_title
from engine.registry import get_ruleset
from engine.rules import WarrenError

page_title("Statistics")

if TYPE_CHECKING:
    import pyarrow as pa

st.title("Statistics")

rows = data.games_or_stop()

EVERY = "every game"


def _game_title(slug: str | None) -> str:
    if slug is None:
        return ""
    try:
        return get_ruleset(slug).title
    except WarrenError:
        return slug


played = Counter(r["ruleset"] for r in rows if not r.get("parent_game"))
# One game at a time, by its name (the most played first chosen): a page of every game's
# reports is long, and rounds of one game never share an axis with turns of another anyway.
options = [*sorted(played, key=_game_title), EVERY]
cols = st.columns([2, 3])
choice = cols[0].selectbox("Game", options, index=options.index(max(played, key=lambda s: (played[s], s))),
                           key="stats_ruleset", format_func=lambda o: o if o == EVERY else _game_title(o))
ruleset = None if choice == EVERY else choice
try:
    results = data.stat_results(ruleset)
except WarrenError as exc:
    st.error(f"The statistics could not be computed: {md(exc)}")
    st.stop()

counts = sorted({int(n) for res in results if "n_players" in res["table"].column_names
                 for n in res["table"].column("n_players").to_pylist() if n is not None})
players = cols[1].multiselect("Player count", counts, key="stats_players",
                              help="Keep only rows for these player counts (where a report has them).")
st.caption(f"{sum(n for slug, n in played.items() if ruleset in (None, slug)):,} games · "
           "computed from projections rebuilt by replay; the data and SQL of each report are "
           "under its chart.")

SECTION_LABELS = {"questions": "The questions players ask",
                  "own": f"{_game_title(ruleset)}'s own" if ruleset else "Each game's own",
                  "more": "Rules and records", "wpa": "What each card did"}
present = [s for s in SECTION_LABELS if s == "wpa" or any(r["section"] == s for r in results)]
# A section is drawn only when chosen: the others cost nothing (a control, not tabs that
# would draw every chart out of sight).
section = st.segmented_control("Reports", present, default=present[0] if present else None,
                               format_func=SECTION_LABELS.__getitem__, key="stats_section",
                               required=True, label_visibility="collapsed")


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = table.to_pylist()
    if players and "n_players" in table.column_names:
        out = [r for r in out if r["n_players"] in players]
    return out


def _cards_of(slug: str | None) -> Callable[[Any], str] | None:
    """How the game names a card in a sentence (its face, its name): for the cards on an axis."""
    if slug is None:
        return None
    try:
        return get_ruleset(slug).card_text
    except WarrenError:
        return None


def _rules_of(slug: str | None) -> Callable[[str], str | None] | None:
    """A rule id's paraphrase in the game's rulebook: for the rules on an axis."""
    if slug is None:
        return None
    try:
        book = get_ruleset(slug).rulebook
    except WarrenError:
        return None
    return lambda rule_id: book[rule_id].text if rule_id in book else None


def _csv(rows_: list[dict[str, Any]], columns: list[str]) -> bytes:
    import csv

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows_)
    return buffer.getvalue().encode()


for result in (r for r in results if r["section"] == section):
    name = result["name"]
    table = result["table"]
    shown = _rows(table)
    slug = name.replace("/", "-")
    with st.container(border=True, key=f"stat_{name.replace('/', '_')}"):
        own_game = f" ({_game_title(result['ruleset'])})" if ruleset is None and result["ruleset"] else ""
        st.subheader(result["title"] + own_game)
        prose = "\n".join(line for line in result["description"].splitlines()
                          if not line.startswith("chart:"))
        st.caption(prose.split("\n\n")[0])
        if not shown:
            st.info("No rows yet for this report.", icon=":material/info:")
            continue
        groups = by_ruleset(shown)
        charts = []
        for game, group in groups:
            slug_of = game or result["ruleset"]
            chart = stat_chart(group, table, result["description"], names=_cards_of(slug_of),
                               rules=_rules_of(slug_of))
            if len(groups) > 1:
                st.markdown(f"**{_game_title(game)}**")
            st.altair_chart(chart, key=f"chart_{name}_{game}")
            charts.append((game, chart))
        notes = chart_notes(result["description"])
        if notes:
            st.caption(" ".join(notes))
        with st.container(horizontal=True, gap="small"):
            for game, chart in charts:
                several = len(groups) > 1
                title = result["title"] + (f" ({_game_title(game)})" if several else "")
                st.download_button(
                    "PNG" + (f" ({game})" if several else ""), data=partial(chart_png, chart, title),
                    file_name=f"{slug}{f'-{game}' if several else ''}.png", mime="image/png",
                    key=f"png_{name}_{game}", icon=":material/image:", on_click="ignore")
            st.download_button(
                # made when asked for, as the PNG is: a file made at every rerun is gone from
                # the server by the time an earlier page asks for it (a 404 in the console)
                "CSV", data=partial(_csv, shown, table.column_names), file_name=f"{slug}.csv",
                mime="text/csv", key=f"csv_{name}", icon=":material/download:", on_click="ignore")
        # Drawn only when opened: a closed expander's table still went to the browser.
        data_box = st.expander("data and SQL", key=f"data_{name}", on_change="rerun")
        if data_box.open:
            with data_box:
                st.dataframe(shown, hide_index=True, key=f"table_{name}")
                st.code(result["sql"], language="sql")


BY_LABELS = {"card": "cards", "kind": "kinds of play", "seat": "seats", "role": "sides", "player": "players"}


def _win_chance_added() -> None:
    """The section "What each card did": the win chance added per card, kind of play, seat
    (and Trust No Bunny side), from the store's win models (docs/analytics.md)."""
    from dashboard.wpa_chart import impact_chart, too_few

    if ruleset is None:
        st.info("Choose a game above: each game's cards have their own chart.", icon=":material/info:")
        return
    kinds = ["card", "kind", "seat", "player"] + (["role"] if ruleset == "trust-no-bunny" else [])
    by = st.segmented_control("By", kinds, default="card", format_func=BY_LABELS.__getitem__,
                              key="wpa_by", required=True)
    try:
        found = data.impacts(ruleset, by)
    except WarrenError as exc:
        st.error(f"The figures could not be worked out: {md(exc)}")
        return
    if found is None:
        st.info("These figures come from a store's win models: open the store, not an export.",
                icon=":material/info:")
        return
    if not found:
        st.info(f"No win model of {_game_title(ruleset)} is kept yet: `warren model fit --ruleset {ruleset}` "
                "fits one (it needs 60 finished games of a player count).", icon=":material/info:")
        return
    st.caption("The mean change of the player's chance of winning across the turns where it was played, "
               "beyond a typical card of its kind, with its 95% interval; beside it in the tooltip, n and "
               "the win rate of the games its player played it in, which credits a card with the hands "
               "that hold it. From the store's win model, over every finished game.")
    for model in found:
        if players and model["players"] not in players:
            continue
        rows_ = model["rows"]
        with st.container(border=True, key=f"wpa_{by}_{model['players']}"):
            st.subheader(f"{_game_title(ruleset)}, {model['players']} players: by {BY_LABELS[by]}")
            chart = impact_chart(rows_, by)
            if chart is None:
                st.info("Too few plays of any to tell.", icon=":material/info:")
            else:
                st.altair_chart(chart, key=f"wpa_chart_{by}_{model['players']}")
                st.caption(f"n = {sum(r['plays'] for r in rows_ if not r['too_few']):,} plays drawn.")
            few = too_few(rows_)
            if few:
                st.caption("Too few plays to tell (fewer than 10): " + md(", ".join(few)))


if section == "wpa":
    _win_chance_added()
