"""``warren players`` (who plays, who wins, the same person under two names) and ``warren
ratings`` (each player's rating per ruleset, and the chances of a new table)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from logstore.cli.common import db_option, echo_json, json_option, open_store

if TYPE_CHECKING:
    from logstore.players.figures import Figures, League

BOTS_HELP = "Count simulated games too (their seats are bots, left out by default)."


def _league(db: Path | None, bots: bool) -> League:
    from logstore.analytics.views import connect
    from logstore.cli.analytics import _db, _refreshing
    from logstore.players.figures import league

    path = _db(db)
    with _refreshing(path) as advance:
        con, _ = connect(path, progress=advance)
    try:
        with open_store(path, create=False) as store:
            return league(store, con, bots=bots)
    finally:
        con.close()


@click.group(invoke_without_command=True, subcommand_metavar="[COMMAND] [ARGS]...")
@click.option("--ruleset", "-r", default=None, help="Only this ruleset's games.")
@click.option("--bots", is_flag=True, help=BOTS_HELP)
@db_option
@json_option
@click.pass_context
def players(ctx: click.Context, ruleset: str | None, bots: bool, db: Path | None, as_json: bool) -> None:
    """The players of the store: games, wins and when each last played.

    A player is a person across games, known by the name a record gives a seat (spacing
    and case aside). `players show NAME` gives one player's figures; `merge` and `rename`
    fix names written two ways, without touching any record.

    Example: warren players --ruleset bunnies
    """
    if ctx.invoked_subcommand is not None:
        return
    if ruleset is not None:
        from engine.registry import get_ruleset

        get_ruleset(ruleset)
    found = _league(db, bots)
    from logstore.players.figures import finished_said

    rows: list[dict[str, Any]] = []
    rates_said: list[str] = []
    for fig in sorted(found.figures.values(), key=lambda f: f.player.casefold()):
        rate = fig.by_ruleset.get(ruleset) if ruleset is not None else fig.overall
        games = [g for g in fig.games if ruleset is None or g.ruleset == ruleset]
        if not games:
            continue
        rows.append({"player": fig.player, "aliases": fig.aliases, "games": len(games),
                     "finished": 0 if rate is None else rate.n, "wins": 0 if rate is None else rate.wins,
                     "win_rate": None if rate is None else rate.to_dict(),
                     "last_played": max(g.played for g in games)})
        rates_said.append(finished_said(rate))
    if as_json:
        echo_json(rows)
        return
    if not rows:
        click.echo("no players: import games recorded at the table (simulated ones are bots: --bots)")
        return
    width = max(len(r["player"]) for r in rows)
    for r, said in zip(rows, rates_said, strict=True):
        also = f"  (also written {', '.join(repr(a) for a in r['aliases'])})" if r["aliases"] else ""
        click.echo(f"{r['player']:<{width}}  {r['games']:>4} game(s)  {said}  last played "
                   f"{r['last_played'][:10]}{also}")


@players.command("show")
@click.argument("name")
@click.option("--bots", is_flag=True, help=BOTS_HELP)
@db_option
@json_option
def show(name: str, bots: bool, db: Path | None, as_json: bool) -> None:
    """One player's figures: per ruleset, by seat and by player count, head to head,
    streaks, and what each game counts of its own (carrots taken, wins as Werebunny...).

    Example: warren players show Ann
    """
    from logstore.store.analyses import luck_and_decisions

    found = _league(db, bots)
    player = found.book.find(name)
    fig = found.figures[player]
    with open_store(db, create=False) as store:
        analysed = luck_and_decisions(store.conn, [(g.game_id, g.ruleset, g.seat) for g in fig.games
                                                   if not g.results_only])
    if as_json:
        echo_json({**fig.to_dict(), "ratings": {r: _rating_dict(rs[player]) for r, rs in found.ratings.items()
                                                if player in rs},
                   "luck_and_decisions": {r: a.to_dict() for r, a in analysed.items()}})
        return
    for line in describe(fig, found):
        click.echo(line)
    for line in luck_said(analysed):
        click.echo(line)


def luck_said(analysed: dict[str, Any]) -> list[str]:
    """Luck and decisions per ruleset in words (points of win chance a game, 95% interval)."""
    from engine.registry import get_ruleset

    if not analysed:
        return ["  luck and decisions: none of these games is analysed yet (warren analyse --all)"]
    lines = ["  luck and decisions (the referee's analyses: points of win chance a game, 95% interval):"]
    for ruleset, a in analysed.items():
        luck, decisions = _points(a.luck, a.luck_interval), _points(a.decisions, a.decisions_interval)
        lines.append(f"    {get_ruleset(ruleset).title}, {a.games} game(s): luck {luck}, "
                     f"own decisions {decisions}")
    return lines


def _points(mean: float, interval: tuple[float, float] | None) -> str:
    return f"{mean:+.1f}" + (f" ({interval[0]:+.1f} to {interval[1]:+.1f})" if interval else "")


def _rating_dict(r: Any) -> dict[str, Any]:
    from logstore.players.ratings import PROVISIONAL

    return {"mu": r.mu, "sigma": r.sigma, "rating": r.ordinal, "games": r.games,
            "provisional": r.games < PROVISIONAL}


def describe(fig: Figures, found: League) -> list[str]:
    """A player's figures in words, players by name and games by title."""
    from engine.registry import get_ruleset
    from logstore.players.figures import finished_said

    lines = [f"{fig.player}: {len(fig.games)} game(s), {finished_said(fig.overall)}"
             + (f"; also written {', '.join(repr(a) for a in fig.aliases)}" if fig.aliases else "")]
    only = sum(g.results_only for g in fig.games)
    if only:
        lines.append(f"  {only} of the games are results only (from a play logger: no record to replay "
                     "or judge)")
    lines.append(f"  best streak {fig.best_streak} win(s) in a row; now {fig.streak}")
    for ruleset, rate in sorted(fig.by_ruleset.items()):
        title = get_ruleset(ruleset).title
        rating = found.ratings.get(ruleset, {}).get(fig.player)
        lines.append(f"  {title}: {finished_said(rate)}"
                     + (f"; rating {rating.mu:.1f} ({rating.mu - 2 * rating.sigma:.1f} to "
                        f"{rating.mu + 2 * rating.sigma:.1f})" if rating is not None else ""))
        by_seat = sorted(fig.by_seat.get(ruleset, {}).items())
        seats = "; ".join(f"seat {s + 1}: {r.said()}" for s, r in by_seat)
        lines.append(f"    by seat (1 is the first seat): {seats}")
        by_count = sorted(fig.by_count.get(ruleset, {}).items())
        counts = "; ".join(f"{c} players: {r.said()}" for c, r in by_count)
        lines.append(f"    by table size: {counts}")
        for key, value in fig.own.get(ruleset, {}).items():
            if isinstance(value, list):
                value = ", ".join(f"{card} ({n})" for card, n in value)
            lines.append(f"    {key}: {value}")
    if fig.head_to_head:
        lines.append("  head to head (finished games together: ahead / behind / level, level being "
                     "neither ahead: both won or both lost with no score between them):")
        for other, h in sorted(fig.head_to_head.items()):
            lines.append(f"    against {other}: {h.games} game(s): {h.ahead} / {h.behind} / {h.level}")
    return lines


@players.command("merge")
@click.argument("name")
@click.argument("into")
@db_option
def merge_(name: str, into: str, db: Path | None) -> None:
    """Say that NAME and INTO are one player: NAME's games count for INTO. No record changes;
    the merge is the store's own event (append-only, like the event log).

    Example: warren players merge "Bob" "Bo"
    """
    from logstore.players.book import install, merge

    with open_store(db, create=False) as store:
        install(store.conn)
        one, other = merge(store, name, into)
    click.echo(f"{one} and {other} are one player now, {other}")


@players.command("rename")
@click.argument("name")
@click.argument("new")
@db_option
def rename_(name: str, new: str, db: Path | None) -> None:
    """Call the player known as NAME by the name NEW from now on (the old name still finds
    them). To join two players, merge them instead.

    Example: warren players rename "Cy" "Cyrus"
    """
    from logstore.players.book import install, rename

    with open_store(db, create=False) as store:
        install(store.conn)
        old, shown = rename(store, name, new)
    click.echo(f"{old} is called {shown} now")


@click.command()
@click.option("--ruleset", "-r", required=True, help="The ruleset whose ratings to show.")
@click.option("--predict", default=None, metavar="NAMES",
              help="Comma-separated players: each one's chance to win a new game of the ruleset "
                   "(a name holding a comma in double quotes: 'Ann,\"Lee, Bo\"').")
@click.option("--bots", is_flag=True, help=BOTS_HELP)
@db_option
@json_option
def ratings(ruleset: str, predict: str | None, bots: bool, db: Path | None, as_json: bool) -> None:
    """Each player's rating in a ruleset (openskill's Weng-Lin model, updated game by game
    in the order played), with its uncertainty; or the chances of a new table.

    Players are ordered by mu - 3 sigma, a value each is very likely above. The model and
    its parameters: docs/players.md.

    Example: warren ratings --ruleset bunnies --predict "Ann,Bo"
    """
    from engine.registry import get_ruleset
    from logstore.players.book import player_names
    from logstore.players.ratings import MODEL_NAME
    from logstore.players.ratings import predict as chances

    rs = get_ruleset(ruleset)
    found = _league(db, bots)
    table = found.ratings.get(ruleset, {})
    if predict is not None:
        names = player_names(next(csv.reader([predict], skipinitialspace=True), []), found.book)
        if len(names) < 2:
            raise click.UsageError("--predict names two players or more")
        odds = chances(table, names)
        if as_json:
            echo_json({"ruleset": ruleset, "model": MODEL_NAME, "chances": odds})
            return
        click.echo(f"a new game of {rs.title}, by the ratings ({MODEL_NAME}):")
        for name, p in sorted(odds.items(), key=lambda kv: -kv[1]):
            games = table[name].games if name in table else 0
            new = "" if games else " (never rated: a new player's rating)"
            click.echo(f"  {name}: {p:.0%} to win{new}")
        return
    from logstore.players.ratings import PROVISIONAL

    # established ratings first, best first; provisional ones (too few games) after them
    rows = sorted(table.values(), key=lambda r: (r.games < PROVISIONAL, -r.mu, r.player.casefold()))
    if as_json:
        echo_json({"ruleset": ruleset, "model": MODEL_NAME,
                   "ratings": [{"player": r.player, **_rating_dict(r)} for r in rows]})
        return
    if not rows:
        click.echo(f"no rated games of {rs.title}: a rating needs a finished, legal game recorded "
                   "at the table")
        return
    click.echo(f"{rs.title}: ratings ({MODEL_NAME}); a new player starts at 25. The range is where "
               f"the rating very likely lies (95%); provisional: fewer than {PROVISIONAL} rated games.")
    width = max(len(r.player) for r in rows)
    for i, r in enumerate(rows, 1):
        low, high = r.mu - 2 * r.sigma, r.mu + 2 * r.sigma
        note = "  provisional" if r.games < PROVISIONAL else ""
        click.echo(f"{i:>3}. {r.player:<{width}}  {r.mu:5.1f}  ({low:4.1f} to {high:4.1f})  "
                   f"{r.games} game(s){note}")


@click.group()
def plays() -> None:
    """Plays to and from a play logger (BG Stats, BoardGameGeek): the people's games written
    as the loggers keep them, and a BG Stats export read back as results-only plays, which
    count in the players' figures and ratings but have no record to replay or judge.

    Example: warren plays export --format bgstats -o plays.json
    """


@plays.command("export")
@click.option("--format", "fmt", type=click.Choice(["bgstats", "bgg-xml"]), default="bgstats",
              show_default=True, help="A BG Stats export (JSON) or BoardGameGeek play XML.")
@click.option("--ruleset", "-r", default=None, help="Only this ruleset's games.")
@click.option("--since", default=None, metavar="DATE",
              help="Only games played on or after DATE (YYYY-MM-DD).")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file (default: standard output).")
@db_option
def plays_export(fmt: str, ruleset: str | None, since: str | None, out: Path | None,
                 db: Path | None) -> None:
    """Write the people's finished games (recorded and results-only; not bots', not what-if
    branches) as a play logger keeps them, each player by the name warren's players give
    (merges and renames applied). The mapping, field by field: docs/players.md.

    Example: warren plays export --format bgg-xml --since 2026-01-01 -o plays.xml
    """
    import json
    from datetime import date

    from logstore.players.loggers import bgg_xml, bgstats, played_games
    from logstore.store.files import write_file

    if ruleset is not None:
        from engine.registry import get_ruleset

        get_ruleset(ruleset)
    if since is not None:
        try:
            date.fromisoformat(since)
        except ValueError:
            raise click.BadParameter(f"{since!r} is not a date YYYY-MM-DD", param_hint="--since") from None
    with open_store(db, create=False) as store:
        games = played_games(store, ruleset=ruleset, since=since)
    if fmt == "bgstats":
        text = json.dumps(bgstats(games), indent=1, ensure_ascii=False) + "\n"
    else:
        text = bgg_xml(games)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_file(out, text)
    click.echo(f"{len(games)} play(s) written", err=True)


@plays.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@db_option
@json_option
def plays_import(file: Path, db: Path | None, as_json: bool) -> None:
    """Read a BG Stats export: the plays of warren's five games (matched by name:
    docs/players.md) become results-only plays. A play imported before, or held by a
    recorded game of the same day and players, is not stored again; one such a game
    contradicts is reported and left out; other games' plays are counted and left out.
    All or nothing: a file with anything wrong changes nothing and says what.

    Example: warren plays import "BGStatsExport.json"
    """
    from logstore.players.plays import import_bgstats
    from logstore.store.reading import open_record

    try:
        with open_record(file) as stream:
            data = stream.read()
    except OSError as exc:
        raise click.ClickException(f"{file}: cannot read: {exc.strerror or exc}") from None
    with open_store(db) as store:
        report = import_bgstats(store, data, str(file))
    if as_json:
        echo_json({"stored": len(report.stored), "already": report.already, "recorded": report.recorded,
                   "contradicted": report.contradicted, "other_games": report.other_games})
        return
    click.echo(f"{len(report.stored)} play(s) stored, {report.already} already stored, {report.recorded} "
               "already recorded as games")
    for said in report.contradicted:
        click.echo(f"contradicted: {said}")
    for name, n in sorted(report.other_games.items()):
        click.echo(f"left out: {n} play(s) of {name} (not one of warren's games)")
