"""The ``warren`` command line: a thin layer over the engine and the store.

Every command has help with an example; `docs/cli.md` is generated from this help
(``python -m logstore.cli.clidoc``) and a test keeps the two in step.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any

import click

from engine.rules import WarrenError
from logstore.cli.common import (
    WarrenGroup,
    db_option,
    echo_json,
    json_option,
    open_store,
    parse_options,
    parse_perspective,
    progress,
)


@click.group(cls=WarrenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="warren")
def main() -> None:
    """warren: replay, audit and analyse games of the bunny card-game family.

    Every game is an append-only event log. warren replays a log to any turn, checks each
    event against the rules, and explains every change by the rule that caused it.

    Example: warren simulate bunnies --games 20 --seed 7 --out games/ && warren check games/
    """


# -- check ---------------------------------------------------------------------------
@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@json_option
def check(paths: tuple[Path, ...], as_json: bool) -> None:
    """Check record files: readable, hash chain intact, every event legal.

    A folder means every *.jsonl below it. With --json, one object per record per line:
    path, ok, game_id, ruleset, events, chain, broken_at, violation, error, disputed_claims.
    Exit 0 when all are fine, 1 when a rule is broken, a chain is broken or a claimed
    consequence is disputed, 2 when a file is unreadable (the highest code wins).

    Example: warren check fixtures/bunnies --json
    """
    from logstore.store.checking import check_path, record_paths, result_to_json

    files = list(record_paths(paths))
    missing = [p for p in paths if not p.exists()]
    empty = [p for p in paths if p.is_dir() and not any(f.is_relative_to(p) for f in files)]
    for folder in empty:
        click.echo(f"{folder}: no *.jsonl records in this folder", err=True)
    worst = 0
    counts = {"ok": 0, "illegal": 0, "broken": 0, "unreadable": 0, "disputed": 0}
    out = sys.stdout.buffer
    with progress(len(files), "checking") as advance:
        for path in files:
            result = check_path(path)
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
            if as_json:
                out.write(result_to_json(result) + b"\n")
            else:
                click.echo(_check_line(result))
            advance(1)
    if (missing and not files) or empty:
        worst = max(worst, 2)
    if not as_json:
        click.echo(f"{len(files)} record(s): {counts['ok']} ok, {counts['illegal']} illegal, "
                   f"{counts['broken']} broken chain, {counts['disputed']} with disputed claims, "
                   f"{counts['unreadable']} unreadable", err=True)
    sys.exit(worst)


def _check_line(result: Any) -> str:
    if result.error is not None:
        return click.style("unreadable ", fg="red") + result.error
    head = f"{result.path}: {result.game_id} ({result.ruleset}, {result.events} events, {result.chain})"
    if result.chain == "broken":
        where = "header" if result.broken_at == 0 else f"seq {result.broken_at}"
        return click.style("broken     ", fg="red") + f"{head}: hash chain broken at {where}"
    if result.violation is not None:
        v = result.violation
        return click.style("illegal    ", fg="yellow") + f"{head}: seq {v.seq}: {v.rule}: {v.message}"
    if result.disputed_claims:
        first = result.disputed_claims[0]
        more = f" (+{len(result.disputed_claims) - 1} more)" if len(result.disputed_claims) > 1 else ""
        return (click.style("disputed   ", fg="yellow")
                + f"{head}: claim at seq {first.seq} [{first.rule}]: {first.message}{more}")
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


@main.command()
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
@db_option
def simulate(ruleset: str, games: int, seed: int, out: Path | None, into_store: bool,
             players: str | None, bots: str, max_events: int, options: tuple[str, ...],
             db: Path | None) -> None:
    """Play games with bots and write sealed records (or import them).

    Chance is drawn from a generator seeded by (seed, game number) and recorded in the
    events, so every file replays without randomness and passes `warren check`.

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
    store = open_store(db) if into_store else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    written = 0
    with progress(games, "simulating") as advance:
        for i in range(games):
            game = simulate_one(rs, seed, i, players=counts[i % len(counts)], bots=bot_kinds,
                                options=opts, max_events=max_events)
            data = b"".join(game.lines())
            if out is not None:
                target = out / f"{game.header.game_id}.jsonl"
                tmp = target.with_suffix(".jsonl.tmp")
                tmp.write_bytes(data)
                os.replace(tmp, target)  # never a half-written record
            else:
                store.import_bytes(data, f"<simulated {game.header.game_id}>")
            written += 1
            advance(1)
    where = str(out) if out is not None else "the store"
    click.echo(f"simulated {written} {ruleset} game(s) into {where}", err=True)


# -- store commands -----------------------------------------------------------------------
@main.command(name="import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@db_option
@json_option
def import_(paths: tuple[Path, ...], db: Path | None, as_json: bool) -> None:
    """Import record files (or folders of *.jsonl) into the store, each game whole or not at all.

    Games with an illegal event are imported with their verdict; unreadable records, broken
    hash chains and game ids already in the store are refused, each with its reason.

    Example: warren import fixtures/ --db club.db
    """
    from logstore.store.checking import record_paths

    files = list(record_paths(paths))
    if not files:
        raise WarrenError(f"no *.jsonl records under {', '.join(str(p) for p in paths)}")
    with open_store(db) as store, progress(len(files), "importing") as advance:
        results = store.import_paths(files, progress=advance)
    imported = [r for r in results if r.ok]
    refused = [r for r in results if not r.ok]
    if as_json:
        for r in results:
            echo_json({"path": str(r.path), "game_id": r.game_id, "ok": r.ok,
                        "events": r.events, "reason": r.reason})
    else:
        for r in refused:
            click.echo(click.style("refused ", fg="red") + f"{r.reason}")
        click.echo(f"imported {len(imported)} game(s) ({sum(r.events for r in imported)} events), "
                   f"refused {len(refused)}")
    sys.exit(1 if refused else 0)


@main.command()
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
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, out)
        click.echo(f"wrote {out} ({len(data)} bytes)", err=True)


@main.command(name="ls")
@click.option("--ruleset", "-r", default=None, help="Only games of this ruleset.")
@db_option
@json_option
def ls(ruleset: str | None, db: Path | None, as_json: bool) -> None:
    """List the games in the store.

    Example: warren ls --ruleset bunnies
    """
    with open_store(db, create=False) as store:
        rows = store.games(ruleset)
    if as_json:
        for row in rows:
            echo_json(_row_dict(row))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table()
    table.add_column("game", no_wrap=True)
    for name in ("ruleset", "players", "events", "chain", "verdict", "winners"):
        table.add_column(name)
    for row in rows:
        verdict = "ok" if row.ok else f"{row.violation_rule} @ {row.violation_seq}"
        winners = "" if row.winners is None else ",".join(str(w) for w in row.winners)
        table.add_row(row.game_id, row.ruleset, ", ".join(row.players), str(row.n_events),
                      row.chain, verdict, winners)
    console = Console()
    # Piped or on a narrow terminal, give the table room rather than squeeze it to nothing.
    Console(width=max(console.width, 150)).print(table)
    click.echo(f"{len(rows)} game(s)", err=True)


def _row_dict(row: Any) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(row)


@main.command()
@click.argument("game_ids", nargs=-1)
@db_option
@json_option
def verify(game_ids: tuple[str, ...], db: Path | None, as_json: bool) -> None:
    """Re-check the hash chain of every game in the store (or the ones named).

    Exit 1 when any chain is broken.

    Example: warren verify --json
    """
    with open_store(db, create=False) as store:
        targets = list(game_ids) or [row.game_id for row in store.games()]
        results = []
        with progress(len(targets), "verifying") as advance:
            for game_id in targets:
                results.extend(store.verify(game_id))
                advance(1)
    broken = 0
    for game_id, chain, broken_at in results:
        broken += chain == "broken"
        if as_json:
            echo_json({"game_id": game_id, "chain": chain, "broken_at": broken_at})
        elif chain == "broken":
            click.echo(click.style("broken ", fg="red") + f"{game_id} at seq {broken_at}")
    if not as_json:
        click.echo(f"{len(results)} game(s) verified, {broken} broken")
    sys.exit(1 if broken else 0)


# -- replay ----------------------------------------------------------------------------
def load_source(source: str, db: Path | None) -> Any:
    """A record from a file path, or else from the store by game id."""
    from engine.record import read_record

    path = Path(source)
    if path.is_dir():
        raise WarrenError(f"{path} is a folder: give one record file or a game id")
    if path.is_file():
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise WarrenError(f"{path}: cannot read: {exc.strerror or exc}") from None
        return read_record(data, str(path))
    if source.endswith(".jsonl"):
        raise WarrenError(f"{source}: no such file")
    with open_store(db, create=False) as store:
        return store.record(source)


@main.command()
@click.argument("source")
@click.option("--to", "to_seq", type=int, default=None, help="Show the position after this seq.")
@click.option("--turn", type=int, default=None, help="Show the position at the start of this turn.")
@click.option("--as", "perspective", default="referee", show_default=True,
              help="Whose knowledge: a seat number, 'referee' (everything) or 'spectator'.")
@db_option
@json_option
def replay(source: str, to_seq: int | None, turn: int | None, perspective: str,
           db: Path | None, as_json: bool) -> None:
    """Replay a game (a file, or a game id in the store) to a position and show it.

    Shows the state as the chosen perspective knew it, and the last event with each effect
    and the rule that caused it.

    Example: warren replay bunnies-7-000003 --turn 14 --as 0
    """
    from engine.registry import get_ruleset
    from engine.replay import Replay, position_of

    if to_seq is not None and turn is not None:
        raise WarrenError("give --to or --turn, not both")
    record = load_source(source, db)
    rs = get_ruleset(record.header.ruleset)
    seen = parse_perspective(perspective)
    if isinstance(seen, int) and not 0 <= seen < len(record.header.players):
        raise WarrenError(f"--as {seen}: this game has seats 0..{len(record.header.players) - 1}")
    game = Replay(rs, record.header, record.events)
    if turn is not None:
        seq = game.seq_for_turn(turn)
    elif to_seq is not None:
        seq = to_seq
    else:
        seq = game.last_seq
    state = game.state_at(seq)
    view = rs.view(state, seen)  # type: ignore[arg-type]
    step = game.step(seq) if seq >= 1 else None
    # What the perspective saw of the last event and its effects (secret actions stay secret).
    seen_effects = [] if step is None else [
        shown for e in step.effects if (shown := rs.effect_view(e, seen)) is not None  # type: ignore[arg-type]
    ]
    names = [p.name for p in record.header.players]
    if as_json:
        echo_json({
            "game_id": record.header.game_id,
            "ruleset": rs.slug,
            "position": {**_struct_dict(position_of(state)), "turn_of_seq": game.turn_of_seq(seq)},
            "perspective": seen,
            "view": view,
            "event": None if step is None else rs.event_view(step.event, seen),  # type: ignore[arg-type]
            "effects": [
                {"rule": e.rule, "kind": e.kind, "data": e.data, "text": rs.rulebook[e.rule].text}
                for e in seen_effects
            ],
            "violation": None if game.violation is None else _struct_dict(game.violation),
            "outcome": None if rs.outcome(state) is None else _struct_dict(rs.outcome(state)),
        })
        return
    click.echo(f"{record.header.game_id} ({rs.title}), seen by {seen}")
    click.echo(rs.render(view, names))
    if step is not None:
        shown = rs.event_view(step.event, seen)  # type: ignore[arg-type]
        who = "table" if shown.get("actor") is None else f"seat {shown['actor']}"
        fields = " ".join(f"{k}={v}" for k, v in shown.items() if k not in ("seq", "type", "actor", "claims"))
        click.echo(f"\nlast event: seq {seq}: {who}: {shown['type']} {fields}".rstrip())
        for effect in seen_effects:
            click.echo(f"  -> {effect.kind} [{effect.rule}] {rs.rulebook[effect.rule].text}")
    if game.violation is not None and seq == game.last_seq:
        v = game.violation
        click.echo(click.style(f"\nnext event (seq {v.seq}) is illegal: {v.rule}: {v.message}", fg="red"))


def _struct_dict(obj: Any) -> dict[str, Any]:
    import msgspec

    if hasattr(obj, "__struct_fields__"):
        return msgspec.to_builtins(obj)  # type: ignore[no-any-return]
    from dataclasses import asdict

    return asdict(obj)


# -- suspects --------------------------------------------------------------------------
@main.command()
@click.argument("source")
@click.option("--to", "to_seq", type=int, default=None,
              help="The position after this seq (default: the end).")
@click.option("--turn", type=int, default=None, help="The position at the start of this turn.")
@click.option("--as", "perspective", default="spectator", show_default=True,
              help="Whose knowledge: a seat number, 'spectator' (public facts) or 'referee'.")
@click.option("--rounds", is_flag=True, help="The answer at the end of every round up to the position.")
@db_option
@json_option
def suspects(source: str, to_seq: int | None, turn: int | None, perspective: str, rounds: bool,
             db: Path | None, as_json: bool) -> None:
    """Who could the Werebunnies be? Consistent pairs and each player's chance, for one perspective.

    The model is uniform over the Werebunny pairs that the perspective's knowledge does not
    rule out (docs/rulings.md, trust-no-bunny); the deductions that ruled pairs out are listed.

    Example: warren suspects trust-no-bunny-7-000002 --as 3 --turn 2
    """
    from engine.registry import get_ruleset
    from engine.replay import Replay
    from engine.suspicion import suspects_of, suspicion_by_round

    if to_seq is not None and turn is not None:
        raise WarrenError("give --to or --turn, not both")
    record = load_source(source, db)
    rs = get_ruleset(record.header.ruleset)
    ask = suspects_of(rs)
    seen = parse_perspective(perspective)
    names = [p.name for p in record.header.players]
    if isinstance(seen, int) and not 0 <= seen < len(names):
        raise WarrenError(f"--as {seen}: this game has seats 0..{len(names) - 1}")
    game = Replay(rs, record.header, record.events)
    seq = game.seq_for_turn(turn) if turn is not None else (game.last_seq if to_seq is None else to_seq)
    state = game.state_at(seq)
    report = ask(state, seen)
    by_round = suspicion_by_round(game, seen, upto=seq) if rounds else []  # type: ignore[arg-type]
    if as_json:
        echo_json({
            "game_id": record.header.game_id, "seq": seq, **report.to_dict(),
            "probabilities": {str(k): v for k, v in report.probabilities.items()},
            "rounds": [{"round": r.round, "seq": r.seq, "pairs": r.pairs,
                        "probabilities": {str(k): v for k, v in r.probabilities.items()}}
                       for r in by_round],
        })
        return
    click.echo(f"{record.header.game_id} at seq {seq} (round {state.round}), seen by {seen}")
    click.echo(f"model: {report.model}; {len(report.pairs)} consistent pair(s)")
    for s_, p in sorted(report.probabilities.items(), key=lambda kv: -kv[1]):
        bar = "#" * round(p * 40)
        click.echo(f"  seat {s_} {names[s_]:<16} {p:6.1%} {bar}")
    if len(report.pairs) <= 12:
        click.echo("pairs: " + ", ".join(f"{a}+{b}" for a, b in report.pairs))
    for line in report.deductions:
        click.echo(f"  - {line}")
    for r in by_round:
        probs = "  ".join(f"{k}:{v:.0%}" for k, v in sorted(r.probabilities.items()))
        click.echo(f"round {r.round} (seq {r.seq}, {r.pairs} pairs): {probs}")


# -- rules -----------------------------------------------------------------------------
@main.command()
@click.argument("ruleset")
@json_option
def rules(ruleset: str, as_json: bool) -> None:
    """List a ruleset's rules: id, paraphrase and rulebook section.

    Example: warren rules bunnies
    """
    from engine.registry import get_ruleset

    rs = get_ruleset(ruleset)
    for rule in rs.rulebook.values():
        if as_json:
            echo_json({"id": rule.id, "text": rule.text, "source": rule.source})
        else:
            click.echo(f"{rule.id:<14} {rule.text}\n{'':<14} ({rule.source})")


# -- dashboard -------------------------------------------------------------------------
def dashboard_command(db: Path, port: int, address: str = "127.0.0.1") -> list[str]:
    """The streamlit command line that serves warren's dashboard on ``db``."""
    app = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
    return [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true", "--server.port", str(port), "--server.address", address,
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--theme.base", "light",
    ]


def serve_dashboard(db: Path, port: int) -> None:
    import subprocess

    env = {**os.environ, "WARREN_DB": str(db.resolve())}
    click.echo(f"warren dashboard on http://127.0.0.1:{port}/  (store {db}; Ctrl+C stops it)")
    with suppress(KeyboardInterrupt):
        subprocess.run(dashboard_command(db, port), env=env, check=False)


@main.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True,
              help="Port to serve on (localhost only).")
@db_option
def dashboard(port: int, db: Path | None) -> None:
    """Serve the dashboard for a store on localhost: replay, disputes, stats, SQL.

    Example: warren dashboard --db club.db --port 8600
    """
    from logstore.store.event_store import default_db_path

    path = db or default_db_path()
    if not path.exists():
        raise WarrenError(f"there is no store at {path}: run `warren demo` or `warren import PATH` first")
    open_store(path, create=False).close()  # refuses a file that is not a warren store, here and now
    serve_dashboard(path, port)


# -- demo ------------------------------------------------------------------------------
def fixtures_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "fixtures"


DEMO_GAMES = 300
"""Simulated games per ruleset that `warren demo` adds to an empty store."""


@main.command()
@click.option("--games", type=click.IntRange(min=0), default=DEMO_GAMES, show_default=True,
              help="Simulated games per ruleset to add when the store is new.")
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True,
              help="Port for the dashboard.")
@click.option("--no-serve", is_flag=True,
              help="Fill the store and print a replay; do not start the dashboard.")
@db_option
def demo(games: int, port: int, no_serve: bool, db: Path | None) -> None:
    """Fill the default store with the shipped games (and simulated ones), then open the dashboard.

    On a new or empty store: imports every record under fixtures/ (illegal examples
    included, with their verdicts) and simulates --games games per ruleset. Then it serves
    the dashboard on localhost and prints its address (--no-serve prints a replay instead).

    Example: warren demo --games 100 --no-serve
    """
    from engine.registry import all_rulesets
    from engine.simulate import simulate_one
    from logstore.store.checking import record_paths
    from logstore.store.event_store import default_db_path

    path = db or default_db_path()
    with open_store(path) as store:
        if not store.games():
            folder = fixtures_dir()
            files = list(record_paths([folder])) if folder.is_dir() else []
            with progress(len(files), "importing fixtures") as advance:
                results = store.import_paths(files, progress=advance)
            click.echo(f"imported {sum(r.ok for r in results)} fixture record(s) from {folder}")
            rulesets = all_rulesets() if games else []
            with progress(games * len(rulesets), "simulating games") as advance:
                for rs in rulesets:
                    counts = list(range(rs.min_players, min(rs.max_players, 8) + 1))
                    for i in range(games):
                        game = simulate_one(rs, 2026, i, players=counts[i % len(counts)],
                                            bots=("greedy", "random"))
                        if f"{game.header.game_id}" not in store:
                            store.import_bytes(b"".join(game.lines()), f"<demo {game.header.game_id}>")
                        advance(1)
            click.echo(f"simulated {games} game(s) per ruleset ({', '.join(r.slug for r in rulesets)})")
        rows = store.games()
    click.echo(f"store {path}: {len(rows)} game(s)")
    if no_serve:
        finished = [r for r in rows if r.ok and r.over]
        if finished:
            game_id = finished[0].game_id
            click.echo(f"\n$ warren replay {game_id}\n")
            click.get_current_context().invoke(replay, source=game_id, to_seq=None, turn=None,
                                               perspective="referee", db=path, as_json=False)
        return
    serve_dashboard(path, port)


from logstore.cli.dispute import dispute  # noqa: E402  (a group of its own, registered last)

main.add_command(dispute)

from logstore.cli.analytics import export_parquet, query, stats  # noqa: E402  (analytics commands)

main.add_command(query)
main.add_command(stats)
main.add_command(export_parquet)
