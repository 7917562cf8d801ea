"""Players: who plays, who wins, from which seat and against whom, and their ratings.

``/players`` lists the players and predicts a table; ``/players?player=Ann`` is one
player's page: the rating over time with its uncertainty, the figures by game, seat and
table size with their intervals, head to head, and the player's games with links to their
replays.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import altair as alt
import streamlit as st

from dashboard import data
from dashboard.tables import md
from dashboard.titles import page_title
from engine.registry import get_ruleset
from engine.rules import WarrenError
from logstore.players.figures import finished_said
from logstore.players.ratings import PROVISIONAL

page_title("Players")

st.title("Players")
data.games_or_stop()
try:
    found = data.players_league()
except WarrenError as exc:
    st.error(f"The players' figures could not be computed: {md(exc)}")
    st.stop()
if not found.figures:
    st.info("No players yet: the games in the store were all played by bots. Import games recorded "
            "at the table (their headers name the players), or record one on the Record page.")
    st.stop()


def _title(slug: str) -> str:
    try:
        return get_ruleset(slug).title
    except WarrenError:
        return slug


def _rate(rate: Any) -> str:
    return rate.said() if rate is not None else "no finished game"


def _value(value: Any) -> str:
    """A figure as text: a list of (card, times) pairs as ``Blue Perky Bunny (3), ...``."""
    if isinstance(value, list):
        return ", ".join(f"{card} ({n})" for card, n in value)
    return str(value)


def _link(name: str) -> str:
    return f"./players?player={quote(name)}"


asked = st.query_params.get("player")
if asked:
    try:
        player = found.book.find(asked)
    except WarrenError as exc:
        st.error(md(exc))
        st.stop()
    fig = found.figures[player]
    st.subheader(md(player))
    also = f" · also written {md(', '.join(repr(a) for a in fig.aliases))}" if fig.aliases else ""
    st.caption(f"{len(fig.games)} game(s) · {finished_said(fig.overall)} (a rate counts finished, legal "
               f"games only) · best streak {fig.best_streak}, now {fig.streak}{also}")
    st.page_link("screens/players.py", label="All players", icon=":material/arrow_back:")
    played = sorted(fig.by_ruleset)
    if played:
        ruleset = st.selectbox("Game", played, format_func=_title, key="player_ruleset")
        rating = found.ratings.get(ruleset, {}).get(player)
        if rating is not None and rating.history:
            provisional = " (provisional: too few games yet)" if rating.games < PROVISIONAL else ""
            st.markdown(f"**Rating in {_title(ruleset)}**: {rating.mu:.1f}, very likely between "
                        f"{rating.mu - 2 * rating.sigma:.1f} and {rating.mu + 2 * rating.sigma:.1f}, after "
                        f"{rating.games} game(s){provisional}. A new player starts at 25 (openskill, "
                        "Weng-Lin; the band below is one sigma each way).")
            history: list[dict[str, Any]] = [{"game": i + 1, "played": p[:10], "game_id": g, "mu": mu,
                                              "low": mu - s, "high": mu + s}
                       for i, (_, p, g, mu, s) in enumerate(rating.history)]
            # Explicit domains: Vega would otherwise warn of an infinite extent while it draws.
            x_domain = [1, max(2, len(history))]
            y_domain = [min(float(h["low"]) for h in history) - 1, max(float(h["high"]) for h in history) + 1]
            base = alt.Chart(alt.Data(values=history)).encode(
                x=alt.X("game:Q", title="games rated, in the order played", axis=alt.Axis(tickMinStep=1),
                        scale=alt.Scale(domain=x_domain)))
            band = base.mark_area(opacity=0.25).encode(
                y=alt.Y("low:Q", title="rating (mu)", scale=alt.Scale(domain=y_domain)), y2="high:Q")
            line = base.mark_line(point=True).encode(
                y="mu:Q", tooltip=["played:N", "game_id:N", alt.Tooltip("mu:Q", format=".1f")])
            st.altair_chart((band + line).properties(height=240), width="stretch")
        analysed = data.luck_and_decisions([(g.game_id, g.ruleset, g.seat) for g in fig.games
                                            if not g.results_only]).get(ruleset)
        if analysed is not None:
            def _pts(mean: float, interval: tuple[float, float] | None) -> str:
                return f"{mean:+.1f}" + (f" ({interval[0]:+.1f} to {interval[1]:+.1f})" if interval else "")

            st.markdown(f"**Luck and decisions**, over {analysed.games} analysed game(s): luck "
                        f"{_pts(analysed.luck, analysed.luck_interval)}, own decisions "
                        f"{_pts(analysed.decisions, analysed.decisions_interval)} points of win chance a "
                        "game (95% interval; the referee's analyses, docs/analysis.md)")
        else:
            st.caption("No game of theirs is analysed yet: `warren analyse --all` works the store's games "
                       "out, and this shows what luck and their own decisions did for them.")
        seats = [{"seat": f"seat {s + 1}", "won": r.wins, "games": r.n, "rate": r.rate or 0.0,
                  "low": (r.interval or (0, 0))[0], "high": (r.interval or (0, 0))[1]}
                 for s, r in sorted(fig.by_seat.get(ruleset, {}).items())]
        cols = st.columns(2)
        with cols[0]:
            st.markdown("**Win rate by seat** (95% interval; seat 1 is the first seat)")
            chart = alt.Chart(alt.Data(values=seats))
            bars = chart.mark_bar().encode(
                x=alt.X("seat:N", title=None),
                y=alt.Y("rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1])),
                tooltip=["seat:N", "won:Q", "games:Q"])
            rules = chart.mark_rule().encode(x="seat:N", y="low:Q", y2="high:Q")
            st.altair_chart((bars + rules).properties(height=220), width="stretch")
        with cols[1]:
            st.markdown("**By table size**")
            by_count = sorted(fig.by_count.get(ruleset, {}).items())
            st.dataframe([{"players": n, "won": _rate(r)} for n, r in by_count],
                         hide_index=True, width="stretch", key="player_counts")
            own = fig.own.get(ruleset, {})
            if own:
                st.markdown(f"**{_title(ruleset)}'s own figures**")
                st.dataframe([{"what": k, "value": _value(v)} for k, v in own.items()],
                             hide_index=True, width="stretch", key="player_own")
    if fig.head_to_head:
        st.markdown("**Head to head** (finished games together: who finished ahead; level: neither, "
                    "both won or both lost with no score between them)")
        h2h = [{"against": other, "games": h.games, "ahead": h.ahead, "behind": h.behind, "level": h.level,
                "page": _link(other)} for other, h in sorted(fig.head_to_head.items())]
        st.dataframe(h2h, hide_index=True, width="stretch", key="player_h2h", column_config={
            "page": st.column_config.LinkColumn("page", display_text="open"),
            "level": st.column_config.NumberColumn(
                "level", help="Finished games together where neither finished ahead: both won or both "
                "lost, and no score tells them apart")})
    st.markdown("**Games**")
    games = [{"played": g.played[:16].replace("T", " "), "game": _title(g.ruleset), "seat": g.seat + 1,
              "players": g.n_players,
              "result": ("won" if g.won else "lost" if g.won is False else "not finished")
              + (" (results only: no record to replay)" if g.results_only else ""),
              "replay": None if g.results_only else f"./replay?game={quote(g.game_id)}"}
             for g in sorted(fig.games, key=lambda g: g.played, reverse=True)]
    st.dataframe(games, hide_index=True, width="stretch", key="player_games",
                 column_config={"replay": st.column_config.LinkColumn("replay", display_text="replay")})
    st.stop()

rows = [{"player": f.player, "games": len(f.games), "won": finished_said(f.overall),
         "last played": (f.last_played or "")[:10], "also written": ", ".join(f.aliases),
         "page": _link(f.player)}
        for f in sorted(found.figures.values(), key=lambda f: f.player.casefold())]
st.caption(f"{len(rows)} players · bots (simulated games) and seats named by number alone (\"player 3\") "
           "are left out · won: of the finished, legal games, with the 95% interval")
st.dataframe(rows, hide_index=True, width="stretch", key="players_table",
             column_config={"page": st.column_config.LinkColumn("page", display_text="open")})

st.subheader("Who is the favourite tonight?")
with st.container(horizontal=True, gap="small", key="predict_form"):
    rated = sorted(found.ratings)
    game = st.selectbox("Game", rated, format_func=_title, key="predict_ruleset", width=320)
    chosen = st.multiselect("Players at the table", sorted(found.figures, key=str.casefold),
                            key="predict_players", width=420)
try:
    table_rules = get_ruleset(game) if game else None
except WarrenError:  # a ruleset whose plugin is gone: its ratings stay, its table is not checked
    table_rules = None
low, high = (table_rules.min_players, table_rules.max_players) if table_rules is not None else (2, 99)
if len(chosen) >= 2 and not low <= len(chosen) <= high:
    # a table the game does not allow has no favourite (two-player Bunnies, five to eight
    # for Trust No Bunny)
    allowed = f"{low}" if low == high else f"{low} to {high}"
    st.warning(f"{md(_title(game))} is played by {allowed} players, not {len(chosen)}: "
               "choose a table the game allows.", icon=":material/group_off:")
elif len(chosen) >= 2:
    from logstore.players.ratings import MODEL_NAME, predict

    odds = predict(found.ratings.get(game, {}), chosen)
    table = [{"player": p, "chance": c} for p, c in sorted(odds.items(), key=lambda kv: -kv[1])]
    chart = alt.Chart(alt.Data(values=table)).mark_bar().encode(
        x=alt.X("chance:Q", title="chance to win", axis=alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1]),
                scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("player:N", sort="-x", title=None),
        tooltip=["player:N", alt.Tooltip("chance:Q", format=".0%")])
    st.altair_chart(chart.properties(height=40 * len(table) + 30), width="stretch")
    st.caption(f"From the ratings ({MODEL_NAME}); a player never rated in this game counts as a new player.")
else:
    st.caption("Choose two players or more.")
