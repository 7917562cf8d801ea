"""Commands on record files and the store they go into: ``check``, ``simulate``, ``import``,
``export``, ``ls`` and ``verify``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, echo_json, json_option, open_store, parse_options, progress
from logstore.store.files import write_file

if TYPE_CHECKING:
    from logstore.store.checking import CheckResult
    from logstore.store.event_store import GameRow


# -- check ---------------------------------------------------------------------------
@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@json_option
@click.option("--spark", "master", metavar="MASTER", default=None,
              help="Judge the records on Spark at this master URL (local[2], spark://host:7077, "
                   "yarn): the same lines and exit code; paths may be any Spark reads (hdfs://...).")
def check(paths: tuple[str, ...], as_json: bool, master: str | None) -> None:
    """Check record files: readable, hash chain intact, every event legal.

    A folder means every *.jsonl below it (checked with both cores when there are many and
    a core is idle; the output keeps their order). With --json, one object per record per
    line: path, ok, game_id, ruleset, events, chain, broken_at, violation, error,
    disputed_claims, undetermined for a game recorded at the table with checks that need a
    card nobody saw, and last_seal for a record cut after its last seal line (its chain is
    broken at the seq after its last event). A format 1 record, which has no seal lines, is
    "open". Exit 0 when all are fine (undetermined checks included: no rule is known to be
    broken), 1 when a rule is broken, a chain is broken or a claimed consequence is
    disputed, 2 when a file is unreadable (the highest code wins).

    With --spark MASTER the records are judged by warren on Spark's workers (warren
    installed there at the same version: docs/analytics.md, "Scale-out"); the lines, their
    order and the exit code are the ones given without it.

    Example: warren check fixtures/bunnies --json
    """
    from logstore.store.checking import check_files, result_to_json
    from logstore.store.reading import record_paths

    # A URL (hdfs://, s3a://...) is only read by Spark's own file systems (--spark).
    local_paths = tuple(Path(p) for p in paths if "://" not in p or master is None)
    files = list(record_paths(local_paths))
    missing = [p for p in local_paths if not p.exists()]
    empty = [p for p in local_paths if p.is_dir() and not any(f.is_relative_to(p) for f in files)]
    for folder in empty:
        click.echo(f"{folder}: no *.jsonl records in this folder", err=True)
    worst = 0
    counts = {"ok": 0, "illegal": 0, "broken": 0, "unreadable": 0, "disputed": 0, "undetermined": 0}
    out = sys.stdout.buffer
    results: Iterable[tuple[CheckResult, Any]]
    if master is None:
        results, total = check_files(files), len(files)
    else:  # Spark lists a URL's folder itself: count what it judged
        results = _spark_check(master, paths)
        total = len(results)
    with progress(total, "checking", lines=True) as advance:
        for result, end in results:
            worst = max(worst, result.exit_code)
            if result.error is not None:
                counts["unreadable"] += 1
            elif result.chain == "broken":
                counts["broken"] += 1
            elif result.violation is not None:
                counts["illegal"] += 1
            elif result.disputed_claims:
                counts["disputed"] += 1
            else:
                counts["ok"] += 1
                if result.undetermined:
                    counts["undetermined"] += 1
            if as_json:
                out.write(result_to_json(result) + b"\n")
            else:
                click.echo(_check_line(result, end))
            advance(1)
    if (missing and not files) or empty:
        worst = max(worst, 2)
    if not as_json:
        click.echo(f"{total} record(s): {counts['ok']} ok, {counts['illegal']} illegal, "
                   f"{counts['broken']} broken chain, {counts['disputed']} with disputed claims, "
                   f"{counts['unreadable']} unreadable" + _undetermined_note(counts["undetermined"]),
                   err=True)
    sys.exit(worst)


def _spark_check(master: str, paths: tuple[str, ...]) -> list[tuple[CheckResult, Any]]:
    """Every record's verdict from Spark, as the local check gives them (logstore.analytics.spark)."""
    import msgspec

    from logstore.analytics.spark import check_records, session, spark_errors
    from logstore.store.checking import CheckResult

    spark = session(master, "warren check")
    click.echo(f"judging the records on Spark at {master}", err=True)
    try:
        with spark_errors(master):
            verdicts = check_records(spark, [p if "://" in p else Path(p) for p in paths])
    finally:
        spark.stop()
    return [(msgspec.json.decode(v.line, type=CheckResult), v.end) for v in verdicts]


def _undetermined_note(count: int) -> str:
    return f"; {count} ok with undetermined checks" if count else ""



def _said(result: Any, message: str) -> str:
    """A rule's message as the table says it: players by name, cards as the game names them.
    Verdicts travel without the players' names (the ``--json`` line carries none), so the
    names are read again from the header of the few records that have something to say."""
    from engine.reader import header_of
    from engine.registry import get_ruleset

    if not result.ruleset:
        return message
    try:
        with open(result.path, "rb") as f:
            header = header_of(f.read(HEAD), result.path)
    except OSError:
        header = None
    names = [p.name for p in header.players] if header is not None else None
    try:
        return get_ruleset(result.ruleset).say(message, names)
    except WarrenError:
        return message


HEAD = 1 << 16
"""The header is the first line; a record's first 64 KiB hold it."""


def _check_line(result: CheckResult, end: str | None = None) -> str:
    if result.error is not None:
        return click.style("unreadable ", fg="red") + result.error
    # A format 1 record has no seal lines: nothing says it is complete (docs/record-format.md).
    how = f"{result.chain}, open" if end == "open" else result.chain
    head = f"{result.path}: {result.game_id} ({result.ruleset}, {result.events} events, {how})"
    if end == "cut":
        last = result.last_seal
        covers = "no seal line is left" if last is None else f"its last seal line covers {last} events"
        return (click.style("cut        ", fg="red")
                + f"{head}: the record ends after seq {result.events} without its closing seal "
                f"line ({covers}): lines are missing at the end")
    if result.chain == "broken":
        where = "header" if result.broken_at == 0 else f"seq {result.broken_at}"
        return click.style("broken     ", fg="red") + f"{head}: hash chain broken at {where}"
    if result.violation is not None:
        v = result.violation
        said = _said(result, v.message)
        return click.style("illegal    ", fg="yellow") + f"{head}: seq {v.seq}: {v.rule}: {said}"
    if result.disputed_claims:
        first = result.disputed_claims[0]
        more = f" (+{len(result.disputed_claims) - 1} more)" if len(result.disputed_claims) > 1 else ""
        return (click.style("disputed   ", fg="yellow")
                + f"{head}: claim at seq {first.seq} [{first.rule}]: {_said(result, first.message)}{more}")
    if result.undetermined:
        doubt = result.undetermined[0]
        more = f" (+{len(result.undetermined) - 1} more)" if len(result.undetermined) > 1 else ""
        return (click.style("ok?        ", fg="cyan")
                + f"{head}: undetermined at seq {doubt.seq} [{doubt.rule}]: "
                f"{_said(result, doubt.needs)}{more}")
    return click.style("ok         ", fg="green") + head


# -- simulate -------------------------------------------------------------------------
def _parse_players(text: str | None, lo: int, hi: int) -> list[int | None]:
    if text is None:
        return [None]
    try:
        a, b = text.split("..", 1) if ".." in text else (text, text)
        first, last = int(a), int(b)
    except ValueError:
        raise WarrenError(f"--players takes N or A..B, not {text!r}") from None
    # Bounds first: a range is only built once it is known to be small.
    if not lo <= first <= last <= hi:
        raise WarrenError(f"--players must be within {lo}..{hi}, got {text}")
    return list(range(first, last + 1))


def _deck_names(text: str) -> list[str]:
    """Deck ids as given, or the id of each deck file named by path (its folder joins the deck
    library through WARREN_DECKS for this run). A deck file is checked whole first, as
    ``warren deck check`` checks it (the record reader's care: a regular file, bounded)."""
    from engine.killer_bunnies_odyssey.library import library

    names = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        path = Path(item)
        if path.suffix == ".toml" or path.is_file():
            name = library().check_file(path).id
            folder = str(path.resolve().parent)
            known = [p for p in os.environ.get("WARREN_DECKS", "").split(os.pathsep) if p]
            if folder not in known:
                os.environ["WARREN_DECKS"] = os.pathsep.join([*known, folder])
            names.append(str(name))
        else:
            names.append(item)
    if not names:
        raise WarrenError("--decks names at least one deck, e.g. --decks blue,violet")
    return names


@click.command()
@click.argument("ruleset")
@click.option("--games", "-n", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed: the same seed gives the same files byte for byte.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write <game_id>.jsonl files into.")
@click.option("--into-store", is_flag=True, help="Import the games into the store instead.")
@click.option("--players", default=None, help="Players per game: N, or A..B to cycle (e.g. 5..8).")
@click.option("--bots", default="random,greedy", show_default=True,
              help="Bot kinds seated in turn: random, greedy, prolong (bunnies), heuristic "
                   "(trust-no-bunny).")
@click.option("--max-events", type=click.IntRange(min=1), default=5000, show_default=True,
              help="Stop a game that has not ended after this many events.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A header option (repeatable), e.g. --option steal_from=hand_or_blind.")
@click.option("--decks", default=None,
              help="Players' own decks, comma-separated, seat i playing the i-th (cycled): deck "
                   "ids or deck files (killer-bunnies-odyssey), e.g. --decks blue,violet.")
@db_option
def simulate(ruleset: str, games: int, seed: int, out: Path | None, into_store: bool,
             players: str | None, bots: str, max_events: int, options: tuple[str, ...],
             decks: str | None, db: Path | None) -> None:
    """Play games with bots and write sealed records (or import them).

    Chance is drawn from a generator seeded by (seed, game number) and recorded in the
    events, so every file replays without randomness and passes `warren check`. For games
    where every player brings his own deck, --decks names them (deck files by path join the
    deck library for the run).

    Example: warren simulate bunnies --games 200 --seed 7 --out games/
    """
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    if (out is None) == (not into_store):
        raise WarrenError("give exactly one of --out DIR or --into-store")
    rs = get_ruleset(ruleset)
    counts = _parse_players(players, rs.min_players, rs.max_players)
    bot_kinds = tuple(b.strip() for b in bots.split(",") if b.strip())
    if not bot_kinds:
        raise WarrenError("--bots names at least one bot kind, e.g. --bots random,greedy")
    opts = parse_options(options)
    if decks is not None:
        opts["decks"] = _deck_names(decks)
    store = open_store(db) if into_store else None
    written = 0
    with progress(games, "simulating") as advance:
        for i in range(games):
            game = simulate_one(rs, seed, i, players=counts[i % len(counts)], bots=bot_kinds,
                                options=opts, max_events=max_events)
            data = b"".join(game.lines())
            if out is not None:
                # Whole or not at all, and never through a link planted beside it.
                write_file(out / f"{game.header.game_id}.jsonl", data)
            elif store is not None:
                store.import_bytes(data, f"<simulated {game.header.game_id}>")
            written += 1
            advance(1)
    if store is not None:
        store.close()
    where = str(out) if out is not None else "the store"
    click.echo(f"simulated {written} {ruleset} game(s) into {where}", err=True)


# -- store commands -----------------------------------------------------------------------
@click.command(name="import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@db_option
@click.option("--adopt-db", is_flag=True,
              help="Add warren's tables to an SQLite file that holds another application's tables.")
@json_option
def import_(paths: tuple[Path, ...], db: Path | None, adopt_db: bool, as_json: bool) -> None:
    """Import record files (or folders of *.jsonl) into the store, each game whole or not at all.

    Games with an illegal event are imported with their verdict; unreadable records, broken
    hash chains and other games under a stored game id are refused, each with its reason
    (exit 1). A record already in the store is reported as such and is not an error. Every
    file gets its line, whatever happens to the others.

    Example: warren import fixtures/ --db club.db
    """
    from logstore.store.reading import record_paths

    files = list(record_paths(paths))
    if not files:
        raise WarrenError(f"no *.jsonl records under {', '.join(str(p) for p in paths)}")
    with open_store(db, adopt=adopt_db) as store, progress(len(files), "importing") as advance:
        results = store.import_paths(files, progress=advance)
    imported = [r for r in results if r.ok]
    already = [r for r in results if r.already_stored]
    refused = [r for r in results if not r.ok and not r.already_stored]
    if as_json:
        for r in results:
            echo_json({"path": str(r.path), "game_id": r.game_id, "ok": r.ok,
                        "events": r.events, "reason": r.reason, "already_stored": r.already_stored})
    else:
        for r in refused:
            click.echo(click.style("refused ", fg="red") + f"{r.reason}")
        click.echo(f"imported {len(imported)} game(s) ({sum(r.events for r in imported)} events), "
                   f"{len(already)} already in the store, refused {len(refused)}")
    sys.exit(1 if refused else 0)


@click.command()
@click.argument("game_id")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of standard output.")
@db_option
def export(game_id: str, out: Path | None, db: Path | None) -> None:
    """Export one game from the store, byte for byte as it was imported.

    Example: warren export bunnies-7-000003 -o game.jsonl
    """
    with open_store(db, create=False) as store:
        data = store.export(game_id)
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        write_file(out, data)
        click.echo(f"wrote {out} ({len(data)} bytes)", err=True)


@click.command(name="ls")
@click.option("--ruleset", "-r", default=None, help="Only games of this ruleset.")
@db_option
@json_option
def ls(ruleset: str | None, db: Path | None, as_json: bool) -> None:
    """List the games in the store.

    Example: warren ls --ruleset bunnies
    """
    if ruleset is not None:
        from engine.registry import get_ruleset

        get_ruleset(ruleset)  # an unknown slug is an error naming the known ones, as everywhere
    with open_store(db, create=False) as store:
        rows = store.games(ruleset)
    if as_json:
        for row in rows:
            echo_json(_row_dict(row))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table()
    table.add_column("game", no_wrap=True)
    for name in ("ruleset", "players", "events", "chain", "verdict", "winners"):
        table.add_column(name)
    for row in rows:
        verdict = "ok" if row.ok else f"{row.violation_rule} @ {row.violation_seq}"
        winners = "" if row.winners is None else ", ".join(
            row.players[w] if 0 <= w < len(row.players) else f"seat {w}" for w in row.winners)
        # Text, not markup: a name like "[link=...]" is shown as typed (rich would obey it).
        table.add_row(*(Text(cell) for cell in (row.game_id, row.ruleset, ", ".join(row.players),
                                                 str(row.n_events), row.chain, verdict, winners)))
    console = Console()
    # A terminal (or COLUMNS) gives the width: the game ids stay whole, the other columns
    # wrap. Piped without COLUMNS, the table gets room rather than a guessed 80 columns.
    sized = console.is_terminal or "COLUMNS" in os.environ
    Console(width=console.width if sized else max(console.width, 150)).print(table)
    click.echo(f"{len(rows)} game(s)", err=True)


def _row_dict(row: GameRow) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(row)


@click.command()
@click.argument("game_ids", nargs=-1)
@db_option
@click.option("--adopt", is_flag=True,
              help="Sign, with this warren key, the games whose only fault is a proof it cannot check "
                   "(a store copied from another machine or user) or verdict columns a replay gives "
                   "otherwise (written anew from the replay).")
@json_option
def verify(game_ids: tuple[str, ...], db: Path | None, adopt: bool, as_json: bool) -> None:
    """Prove the store's history: for every game (or the ones named) its hash chain and seal
    lines, every stored column derived again from its lines and the rules (event count, each
    line's type and actor, the header's facts, the verdict and winners), its proof (signed by
    warren under a key kept outside the store) and each snapshot against the state its events
    give; and, for the whole store, that no game was added or taken away behind warren's back.

    Each disagreement is named by game and column. A snapshot that does not match its events
    is rebuilt from them. Exit 1 when anything is found.

    Example: warren verify --json
    """
    from logstore.store.errors import StoreError
    from logstore.textsafe import clean

    with open_store(db, create=False) as store:
        targets = list(game_ids) or [row.game_id for row in store.games()]
        results = []
        with progress(len(targets), "verifying") as advance:
            for game_id in targets:
                found = store.audit(game_id)
                if adopt and not found.sound:
                    try:
                        found = store.adopt(game_id)
                    except StoreError as exc:
                        click.echo(clean(str(exc)), err=True)
                bad = store.check_snapshots(game_id) if found.chain != "broken" else []
                results.append((found, bad))
                advance(1)
        whole = store.store_findings() if not game_ids else []
    broken = changed = snapshots = 0
    for found, bad in results:
        broken += found.chain == "broken"
        changed += bool(found.findings)
        snapshots += bool(bad)
        if as_json:
            echo_json({"game_id": found.game_id, "chain": found.chain, "broken_at": found.broken_at,
                       "proof": found.standing, "findings": [f.to_dict() for f in found.findings],
                       "snapshots_rebuilt": bad})
            continue
        name = clean(found.game_id)
        if found.chain == "broken":
            click.echo(click.style("broken ", fg="red") + f"{name} at seq {found.broken_at}")
        for finding in found.findings:
            label = {"tampered": "changed ", "stale": "stale ", "foreign": "unproved "}[finding.kind]
            click.echo(click.style(label, fg="red") + f"{name}: {finding.column}: {clean(finding.message)}")
        if bad:
            seqs = ", ".join(str(s) for s in bad)
            click.echo(click.style("snapshot ", fg="red") + f"{name}: the snapshot(s) at seq {seqs} did "
                       "not match the game's events (edited in the store file); rebuilt from the events")
    for said in whole:
        if as_json:
            echo_json({"store": str(store.path), "foreign": said.foreign, "message": said.what})
        else:
            label = "unproved " if said.foreign else "changed "
            click.echo(click.style(label, fg="red") + f"the store: {said.what}")
    if not as_json:
        click.echo(f"{len(results)} game(s) verified, {broken} broken, {changed} with stored values "
                   f"their lines do not bear out{' (and the store as a whole)' if whole else ''}, "
                   f"{snapshots} with snapshots that did not match")
    sys.exit(1 if broken or changed or snapshots or whole else 0)
