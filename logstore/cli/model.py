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
                con, _ = connect(path, ruleset=slug, progress=advance)
            try:
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
            finally:
                con.close()
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
