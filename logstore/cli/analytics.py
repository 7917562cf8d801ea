"""The analytics commands: ``warren query``, ``warren stats`` and ``warren export-parquet``.

Each brings the projections up to date first (only new or changed games are replayed),
then works on the Parquet parts with DuckDB (see logstore.analytics.views). DuckDB and
pyarrow are imported when one of these runs, not when ``warren`` starts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, progress

if TYPE_CHECKING:
    import pyarrow as pa

FORMATS = ("table", "csv", "json", "parquet")


def _db(db: Path | None) -> Path:
    from logstore.store.event_store import StoreError, default_db_path

    path = db if db is not None else default_db_path()
    if not path.is_file():
        raise StoreError(f"no warren store at {path} (import a record to create one)")
    return path


def _refreshing(db: Path) -> AbstractContextManager[Callable[[int], None]]:
    """A progress callback sized to the games a refresh will replay (silent when none)."""
    if not sys.stderr.isatty():
        return progress(None, "projecting")
    from logstore.analytics.views import stale_games

    return progress(stale_games(db) or None, "projecting")


def _write(table: pa.Table, fmt: str, out: Path | None, title: str | None = None) -> None:
    """Print or save an Arrow table as a table, CSV, JSON Lines or Parquet (a file is
    written whole, never through a planted link: logstore.store.files)."""
    from logstore.store.files import replacing, write_file

    if fmt == "parquet":
        if out is None:
            raise WarrenError("--format parquet writes a file: give --out FILE")
        import pyarrow.parquet as pq

        with replacing(out) as handle:
            pq.write_table(table, handle, compression="zstd")
        click.echo(f"wrote {table.num_rows} row(s) to {out}", err=True)
        return
    if fmt == "csv":
        import pyarrow.csv as pacsv

        if out is None:
            pacsv.write_csv(table, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            with replacing(out) as handle:
                pacsv.write_csv(table, handle)
        return
    if fmt == "json":
        import json

        lines = [json.dumps(row, ensure_ascii=False, default=str) for row in table.to_pylist()]
        text = "".join(line + "\n" for line in lines)
        if out is None:
            click.echo(text, nl=False)
        else:
            write_file(out, text)
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    view = Table(*table.column_names, title=title, title_justify="left")
    for row in table.to_pylist():
        view.add_row(*(Text("" if v is None else str(v)) for v in row.values()))
    if out is None:
        Console(width=max(100, 14 * len(table.column_names))).print(view)
    else:
        import io

        text_out = io.StringIO()
        Console(file=text_out, width=200).print(view)
        write_file(out, text_out.getvalue())


@click.command()
@click.argument("sql")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
              help="How to give the result: a table, CSV, JSON Lines or a Parquet file.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result to this file (required for --format parquet).")
@click.option("--timeout", type=click.FloatRange(min=0.1, max=24 * 3600.0), default=30.0, show_default=True,
              help="Stop the query after this many seconds.")
@click.option("--memory", default="1GB", show_default=True,
              help="DuckDB memory limit for the query: 16MB to 1PiB (MB, GB, MiB...).")
@click.option("--max-rows", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Refuse a result of more rows (its bytes count against --memory too).")
@click.option("--parquet", "exported", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Query the tables of this export (warren export-parquet, here or on Spark) "
                   "instead of the store.")
@db_option
def query(sql: str, fmt: str, out: Path | None, timeout: float, memory: str, max_rows: int,
          exported: Path | None, db: Path | None) -> None:
    """Run one SELECT over warren's tables with DuckDB, in a sandbox.

    The tables are games, seat_results, turns, turn_seats, effects, seat_items and events
    (every column is described in docs/analytics.md). Only a single SELECT runs: no file
    access, no ATTACH, INSTALL, LOAD, SET or PRAGMA, and the query is stopped at the time
    and memory limits; a result of more rows than --max-rows, or more bytes than --memory,
    is refused. New games are projected first. With --parquet DIR the tables are an
    export's (warren export-parquet, on this machine or on Spark).

    Example: warren query "SELECT ruleset, count(*) AS games FROM games GROUP BY ruleset"
    """
    from logstore.analytics.projections import cli_jobs
    from logstore.analytics.sandbox import Limits, Sandbox
    from logstore.analytics.views import list_parts

    if exported is not None:
        from logstore.analytics.views import exported_parts

        catalog = exported_parts(exported)
    else:
        path = _db(db)
        with _refreshing(path) as advance:
            catalog = list_parts(path, progress=advance, jobs=cli_jobs())
    if catalog.note is not None:
        click.echo(f"Note: {catalog.note}", err=True)
    with Sandbox(catalog, Limits(seconds=timeout, memory=memory, rows=max_rows)) as box:
        # Parquet keeps lists, maps and dates as such; text shows them as DuckDB writes them.
        table = box.run(sql, shown="parquet" if fmt == "parquet" else "text")
    _write(table, fmt, out)
    if fmt == "table":
        click.echo(f"{table.num_rows} row(s)", err=True)


@click.command()
@click.option("--ruleset", "-r", default=None, help="Only games of this ruleset (and its own stats).")
@click.option("--only", "only", multiple=True, metavar="NAME",
              help="Run only this stat (repeatable); see --list for the names.")
@click.option("--list", "list_only", is_flag=True, help="List the canned stats and what they show.")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS[:3]), default="table",
              show_default=True, help="A table per stat, or CSV / JSON Lines with a 'stat' column.")
@click.option("--rebuild", is_flag=True,
              help="Replay every game again first (after upgrading warren's rules).")
@click.option("--parquet", "exported", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Read the tables of this export (warren export-parquet, here or on Spark) "
                   "instead of the store.")
@db_option
def stats(ruleset: str | None, only: tuple[str, ...], list_only: bool, fmt: str, rebuild: bool,
          exported: Path | None, db: Path | None) -> None:
    """Print the canned statistics over every stored game.

    In this order: the questions players ask first (win rate by seat position with a 95%
    confidence interval, first-seat advantage by player skill, results by player count,
    game length, card impact); then each game's own reports: Bunnies (bunnies by kind,
    the going-out bonus, pile pick-ups, rank impact), Trust No Bunny (side wins, when
    the Wall falls, votes and accusations, Quirk failures), Killer Bunnies Quest
    (carrots and winning, deaths by cause, kill rate by weapon level, the market, seat
    advantage, triplets), KinderBunnies (Bad News losses, Safety Hazard survival, most
    carrots and winning) and Odyssey (burn rate, Civ over the rounds, kills by weapon,
    Resource colours); then how often each rule's effects fire and the games recorded at
    the table. `--ruleset` keeps one game's. `--list` names them all; each is a
    documented SQL file in logstore/analytics/stats_sql/, or in the package a plugin game
    declares in the entry-point group warren.stats. `--parquet DIR` reads an export's
    tables (warren export-parquet, on this machine or on Spark) instead of the store.

    Example: warren stats --ruleset bunnies --only win_rate_by_seat
    """
    from logstore.analytics.projections import cli_jobs
    from logstore.analytics.stats import all_stats, run_stat, stats_for
    from logstore.analytics.views import connect

    if list_only:
        for stat in all_stats():
            scope = stat.ruleset or "every ruleset"
            click.echo(f"{stat.name:<32} {stat.title} ({scope})")
        return
    if ruleset is not None:
        from engine.registry import get_ruleset

        get_ruleset(ruleset)  # an unknown slug is a clear error, not an empty report
    if exported is not None:
        from logstore.analytics.views import connect_exported

        con, catalog = connect_exported(exported, ruleset=ruleset)
    else:
        path = _db(db)
        with _refreshing(path) as advance:
            con, catalog = connect(path, ruleset=ruleset, rebuild=rebuild, progress=advance,
                                   jobs=cli_jobs())
    rulesets = [ruleset] if ruleset is not None else catalog.rulesets
    chosen = stats_for(rulesets, only)
    try:
        import pyarrow as pa

        for stat in chosen:
            result = run_stat(con, stat)
            if fmt == "table":
                _write(_cards_named(stat, result.table), "table", None, title=f"{stat.name}: {stat.title}")
                click.echo("")
            else:
                labelled = result.table.add_column(0, "stat", pa.array([stat.name] * result.table.num_rows))
                _write(labelled, fmt, None)
    finally:
        con.close()


def _cards_named(stat: Any, table: Any) -> Any:
    """A report whose rows are cards (its chart's ``names=1``), with each card's name beside
    its number or code, as the game names it in a sentence: the terminal's table is read by
    a person (``--format csv/json/parquet`` keep the rows as the SQL gives them)."""
    import re

    import pyarrow as pa

    from engine.registry import get_ruleset

    hint = re.search(r"^--\s*chart:.*\bnames=1\b.*\bx=(\w+)", stat.sql, re.M) or re.search(
        r"^--\s*chart:.*\bx=(\w+).*\bnames=1\b", stat.sql, re.M)
    if hint is None or hint[1] not in table.column_names:
        return table
    column = hint[1]
    slugs = table.column("ruleset").to_pylist() if "ruleset" in table.column_names \
        else [stat.ruleset] * table.num_rows
    said = []
    for slug, value in zip(slugs, table.column(column).to_pylist(), strict=True):
        try:
            said.append(get_ruleset(slug).card_text(value) if slug and value is not None else value)
        except WarrenError:
            said.append(value)
    return table.add_column(table.column_names.index(column) + 1, "card", pa.array(said, pa.string()))


@click.command(name="export-parquet")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("--table", "tables", multiple=True, metavar="TABLE",
              help="Export only this table (repeatable); default: every table.")
@click.option("--spark", "master", metavar="MASTER", default=None,
              help="Fold the games on Spark at this master URL (local[2], spark://host:7077, yarn) "
                   "instead of this machine; OUT may then be any path Spark writes.")
@click.option("--records", "records", multiple=True, metavar="PATH",
              help="With --spark: read these record files or folders of *.jsonl (any path Spark "
                   "reads; a file may hold many records) instead of the store (repeatable).")
@db_option
def export_parquet(out: str, tables: tuple[str, ...], master: str | None, records: tuple[str, ...],
                   db: Path | None) -> None:
    """Write the projections and the raw events as Parquet, partitioned by ruleset.

    Layout: OUT/<table>/ruleset=<slug>/*.parquet for the tables games, seat_results,
    turns, turn_seats, effects, seat_items and events, and, from a store, the players'
    players and player_seats and, where it keeps win models (warren model fit), the win
    chance added tables turn_chances, event_wpa and player_wpa. Every part of a table has
    the table's whole schema (each ruleset's figure columns, NULL elsewhere), so DuckDB,
    pandas, polars, pyarrow and Spark read each folder as one table with every column, no
    option given (docs/analytics.md).

    With --spark MASTER every game is folded by warren's own rules on Spark's workers
    (warren installed there at the same version) and the same tables are written: from
    the store, or from record files with --records (records that do not read, or whose
    chain is broken, are left out and named, as an import would refuse them; a game id met
    twice keeps its first record by path; exit 1 when any was left out).

    On Spark: warren export-parquet --spark 'local[2]' --records games/ exported/

    Example: warren export-parquet exported/ --table games --table seat_results
    """
    from logstore.analytics.projections import TABLES, cli_jobs
    from logstore.analytics.views import export_parquet as export

    if records and master is None:
        raise WarrenError("--records is read on Spark (--spark MASTER); to export records on this "
                          "machine, import them first: warren import PATH")
    if master is not None:
        _export_on_spark(master, out, tables, records, None if records else _db(db))
        return
    path = _db(db)
    target = Path(out)
    with _refreshing(path) as advance:
        written = export(path, target, tables=tables or TABLES, progress=advance, jobs=cli_jobs())
    for name, rows in written.items():
        click.echo(f"{name:<14} {rows:>12,} rows  {target / name}")


def _export_on_spark(master: str, out: str, tables: tuple[str, ...], records: tuple[str, ...],
                     store: Path | None) -> None:
    from logstore.analytics.spark import export_projections, session, spark_errors

    spark = session(master, "warren export-parquet")
    try:
        with spark_errors(master):
            report = export_projections(spark, out, records=records, store=store, tables=tables,
                                        say=lambda text: click.echo(text, err=True))
    finally:
        spark.stop()
    for name, rows in report.rows.items():
        click.echo(f"{name:<14} {rows:>12,} rows  {out.rstrip('/')}/{name}")
    click.echo(f"{report.games:,} game(s), {report.events:,} event(s) folded on Spark at {master}",
               err=True)
    if report.problem_count:
        for problem in report.problems:
            click.echo(f"left out: {problem}", err=True)
        more = report.problem_count - len(report.problems)
        if more > 0:
            click.echo(f"left out: {more:,} more", err=True)
        click.echo(f"{report.problem_count:,} record(s) left out (warren check names why)", err=True)
        sys.exit(1)


@click.command()
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the metadata to this file (default: standard output).")
@db_option
def metadata(out: Path | None, db: Path | None) -> None:
    """Datasette's metadata for the store: what each table, view and column holds, in words
    (the same descriptions as docs/analytics.md). Read the views results and game_events
    first: players and winners by name, fast for a filter on the ruleset, game, type or
    actor.

    Example: warren metadata -o metadata.json && datasette warren.db -m metadata.json
    """
    import json

    from logstore.store.described import datasette
    from logstore.store.event_store import default_db_path
    from logstore.store.files import write_file

    path = db if db is not None else default_db_path()
    text = json.dumps(datasette(path.stem), indent=2, ensure_ascii=False) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        write_file(out, text)
        click.echo(f"wrote {out}", err=True)
