"""``warren model``: the win-chance model of each ruleset, fitted on the store's games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.rules import WarrenError
from logstore.cli.common import WarrenGroup, db_option, echo_json, json_option, open_store

if TYPE_CHECKING:
    from logstore.analytics.winmodel import WinModel


@click.group(cls=WarrenGroup, context_settings={"help_option_names": ["-h", "--help"]})
def model() -> None:
    """The win-chance model of each ruleset and player count, fitted on the store's games.

    It reads the key figures the projections hold at the end of every turn (bunnies,
    carrots, Dolla, Civ points...) and answers at once where `warren analyse` plays
    positions out (docs/analysis.md, The model).

    Example: warren model fit --ruleset kinderbunnies && warren model show
    """


@model.command()
@click.option("--ruleset", "rulesets", multiple=True, help="A ruleset (again for more; default: every one "
              "the store has games of).")
@click.option("--players", type=int, default=None, help="Only this player count (default: every count with "
              "enough games).")
@click.option("--check", type=click.IntRange(0, 1000), default=20, show_default=True,
              help="Held-out positions compared with the rollout analysis (0: none).")
@db_option
@json_option
def fit(rulesets: tuple[str, ...], players: int | None, check: int, db: Path | None, as_json: bool) -> None:
    """Fit the model on the store's finished games, keep it, and print its calibration.

    One game in five is held out: on those, the Brier score beside the base rate (every
    player at 1 / players), the reliability by decile, and the mean gap in points from the
    rollout analysis on a sample of positions. A model needs 60 finished, legal games of
    its ruleset and player count; fewer are named, not fitted.

    Example: warren model fit --ruleset bunnies --check 10
    """
    from engine.registry import get_ruleset
    from logstore.analytics import winmodel
    from logstore.analytics.views import connect
    from logstore.analytics.wpa import bounded
    from logstore.cli.analytics import _db, _refreshing

    path = _db(db)
    fitted: list[WinModel] = []
    skipped: list[str] = []
    with open_store(path, create=False) as store:
        counts = _counts(store)
        wanted = list(rulesets) or sorted(counts)
        for slug in wanted:
            get_ruleset(slug)  # an unknown ruleset is named with the known ones
            sizes = [players] if players is not None else sorted(counts.get(slug, {}))
            if not sizes:
                skipped.append(f"{slug}: the store has no games of it")
                continue
            with _refreshing(path) as advance:
                con, _ = connect(path, ruleset=slug, progress=advance, wpa=False)
            with bounded(con):  # a store's worth of turns is sampled: memory stays put
                for n in sizes:
                    try:
                        found = winmodel.fit(con, slug, n, corpus={"changes": store.change_count()})
                    except winmodel.ModelError as exc:
                        if rulesets and players is not None:
                            raise
                        skipped.append(str(exc))
                        continue
                    if check:
                        positions = winmodel.positions(con, slug, n)
                        found.check["rollouts"] = winmodel.against_rollouts(found, positions, store.record,
                                                                            sample=check)
                    winmodel.keep(store.conn, found)
                    fitted.append(found)
    if as_json:
        echo_json({"fitted": [_said(m) for m in fitted], "skipped": skipped})
        return
    for m in fitted:
        for line in _lines(m):
            click.echo(line)
    for reason in skipped:
        click.echo(f"not fitted: {reason}")
    if not fitted and not skipped:
        raise WarrenError("nothing to fit: the store has no games")


@model.command()
@click.option("--ruleset", default=None, help="Only this ruleset's models.")
@db_option
@json_option
def show(ruleset: str | None, db: Path | None, as_json: bool) -> None:
    """The models the store keeps: corpus, calibration, and the weight of each feature.

    Example: warren model show --ruleset bunnies --json
    """
    from logstore.analytics import winmodel

    with open_store(db, create=False) as store:
        models = winmodel.kept(store.conn, ruleset)
    if as_json:
        echo_json([_said(m) for m in models])
        return
    if not models:
        click.echo("no model is kept: `warren model fit` fits one")
    for m in models:
        for line in _lines(m, weights=True):
            click.echo(line)


@model.command()
@click.option("--ruleset", default=None, help="Only this ruleset's models (default: every kept model).")
@click.option("--players", type=int, default=None, help="Only this player count.")
@click.option("--by", type=click.Choice(["card", "kind", "seat", "role", "player"]), default="card",
              show_default=True,
              help="card: each card (Bunnies: each rank and multiple) by the chance it added beyond its "
              "kind of play; kind: each kind of play; seat: each seat's chance at the first position "
              "beside its win rate; role: Trust No Bunny's two sides; player: each player's chance "
              "added across his own turns, per game (luck and decisions together).")
@click.option("--top", type=click.IntRange(1), default=None, help="Only the first N lines of each model.")
@click.option("--spark", "master", default=None, metavar="MASTER",
              help="Work out the tables the figures read (the turn chances; for kind, role and player the "
              "events' changes too) on Spark (local[2], spark://...) from the store's projection parts; the "
              "same figures as here.")
@db_option
@json_option
def wpa(ruleset: str | None, players: int | None, by: str, top: int | None, master: str | None,
        db: Path | None, as_json: bool) -> None:
    """What each card, kind of play and seat did to its player's chance of winning (win
    chance added), from the kept models over every finished game of the store.

    A card's figure is the mean change of its player's chance across the turns it was
    played in, beyond a typical card of its kind of play (the median of their means), in
    points, with its 95% interval and
    the number of plays; beside it the win rate of the games its player played it in
    (docs/analytics.md says what each figure credits). Fewer than 10 plays: too few.

    Example: warren model wpa --ruleset kinderbunnies --by card --top 10
    """
    from logstore.analytics import winmodel
    from logstore.analytics import wpa as wpa_tables
    from logstore.analytics.views import connect
    from logstore.cli.analytics import _db, _refreshing

    path = _db(db)
    with open_store(path, create=False) as store:
        models = [m for m in winmodel.kept(store.conn, ruleset) if players is None or m.players == players]
    if not models:
        raise WarrenError("no model is kept" + (f" for {ruleset}" if ruleset else "") +
                          ": `warren model fit` fits one first")
    with _refreshing(path) as advance:
        con, _ = connect(path, progress=advance, wpa=False)
    with wpa_tables.bounded(con) as scratch:
        if master is not None:
            from logstore.analytics.spark import wpa_tables as on_spark

            # what the figures read: the turn chances, and for a kind, a side or a player the
            # events' changes too
            needs = ("turn_chances",) if by in ("card", "seat") else ("event_wpa",)
            on_spark(path, master, models, con, scratch, needs)
        else:
            wpa_tables.create_views(con, models)
        found = [(m, wpa_tables.impacts(con, m, by))  # type: ignore[arg-type]
                 for m in models]
    if as_json:
        echo_json([{"ruleset": m.ruleset, "players": m.players, "by": by,
                    "rows": [i.to_dict() for i in rows[:top]]} for m, rows in found])
        return
    from engine.registry import get_ruleset

    for m, rows in found:
        click.echo(f"{get_ruleset(m.ruleset).title}, {m.players} players, by {by} "
                   f"(points of the player's chance; 95% interval; n):")
        if not rows:
            click.echo("  nothing to show (no finished, legal games of the model's player count)")
        for row in rows[:top]:
            click.echo("  " + _impact_line(row, by))


def _impact_line(row: Any, by: str) -> str:
    def pts(x: float | None) -> str:
        return "?" if x is None else f"{x:+.1f}" if by != "seat" else f"{x:.1f}"

    if row.too_few:
        figure = f"too few plays ({row.plays})"
    else:
        figure = f"{pts(row.points)} ({pts(row.low)} to {pts(row.high)}; n {row.plays})"
    win = "" if row.win_rate is None else \
        f"; won {row.win_rate:.0f}% of {row.games} games ({row.win_low:.0f} to {row.win_high:.0f})"
    what = {"seat": "chance at the first position", "player": "added a game"}.get(by, "added")
    return f"{row.what}: {what} {figure}{win}"


def _counts(store: Any) -> dict[str, dict[int, int]]:
    counts: dict[str, dict[int, int]] = {}
    for row in store.games():
        if row.over and row.ok:
            n = len(row.players)
            counts.setdefault(row.ruleset, {})[n] = counts.get(row.ruleset, {}).get(n, 0) + 1
    return counts


def _said(m: WinModel) -> dict[str, Any]:
    import json

    data: dict[str, Any] = json.loads(m.to_json())
    return data


def _lines(m: WinModel, *, weights: bool = False) -> list[str]:
    from engine.registry import get_ruleset

    title = get_ruleset(m.ruleset).title
    c = m.check
    lines = [f"{title}, {m.players} players: fitted on {m.corpus.get('games')} games "
             f"({m.corpus.get('positions')} positions), {m.corpus.get('held_out_games')} held out",
             f"  held out: Brier {c.get('brier')} beside {c.get('base_brier')} for 1/{m.players} each, "
             f"over {c.get('positions')} positions"]
    rolled = c.get("rollouts")
    if rolled and rolled.get("mean_abs_points") is not None:
        lines.append(f"  beside the rollout analysis ({rolled['positions']} positions, {rolled['rollouts']} "
                     f"plays each): {rolled['mean_abs_points']} points apart on average")
    lines.append("  decile     predicted  observed      n")
    for row in c.get("reliability", []):
        lines.append(f"  {row['decile']:9}  {row['predicted']:9.2f}  {row['observed']:8.2f}  {row['n']:5}")
    if weights:
        lines.append("  weights (per standard deviation of each feature):")
        for name, w in sorted(zip(m.features, m.coef, strict=True), key=lambda p: -abs(p[1])):
            lines.append(f"    {name:20} {w:+.3f}")
    return lines
