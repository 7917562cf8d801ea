"""``warren dashboard`` (serve the Streamlit app on a store) and ``warren demo`` (fill the
default store with the shipped and simulated games, then serve it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, open_store, progress
from logstore.cli.games import replay

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable

    from logstore.store import Store

ROOT = Path(__file__).resolve().parents[2]
"""The folder that holds the ``logstore`` and ``dashboard`` packages (and, in a checkout,
``fixtures/``)."""


DEFAULT_PORT = 8501
"""Streamlit's usual port, where the dashboard goes unless told otherwise."""
PORTS_TRIED = 20
"""Without --port, the ports tried from DEFAULT_PORT on, for the first free one."""
ADDRESS = "127.0.0.1"


class PortTaken(WarrenError):
    """The port asked for is in use by another program (perhaps another dashboard)."""


def port_is_free(port: int, address: str = ADDRESS) -> bool:
    """Can a server listen on ``address:port`` now? (Bound the way Streamlit binds it.)"""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def choose_port(requested: int | None) -> int:
    """The port to serve on: the one asked for, refused if it is taken (so the address
    printed is never another program's), else the first free one from DEFAULT_PORT."""
    if requested is not None:
        if not port_is_free(requested):
            raise PortTaken(f"port {requested} is already in use on {ADDRESS} (another program, perhaps "
                            "another warren dashboard, is serving there): stop it, or give another --port")
        return requested
    for port in range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED):
        if port_is_free(port):
            if port != DEFAULT_PORT:
                click.echo(f"port {DEFAULT_PORT} is in use; serving on {port} instead", err=True)
            return port
    raise PortTaken(f"ports {DEFAULT_PORT} to {DEFAULT_PORT + PORTS_TRIED - 1} are all in use on {ADDRESS}: "
                    "give a free one with --port")


def dashboard_command(db: Path, port: int, address: str = ADDRESS) -> list[str]:
    """The streamlit command line that serves warren's dashboard on ``db``."""
    app = ROOT / "dashboard" / "app.py"
    return [
        sys.executable, "-m", "streamlit", "run", str(app),
        "--server.headless", "true", "--server.port", str(port), "--server.address", address,
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        "--theme.base", "light", "--client.toolbarMode", "minimal",
    ]


STOP_SECONDS = 5.0
"""How long the server has to stop when asked, before it is killed."""


def _die_with_parent() -> None:
    """In the server's process: end it if warren itself ends, however (Linux: even SIGKILL)."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _Stopped(Exception):
    """SIGTERM or SIGHUP reached warren while it served."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server: SIGTERM, then SIGKILL if it has not stopped in STOP_SECONDS."""
    import subprocess

    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serve_dashboard(db: Path, port: int | None, meanwhile: Callable[[], None] | None = None,
                    *, exported: Path | None = None) -> None:
    """Serve the dashboard on ``port`` (None: the first free one) until Ctrl+C, SIGTERM or
    SIGHUP, each of which stops the server too: a stopped warren never leaves Streamlit
    serving its port (on Linux not even when warren is killed outright). ``meanwhile`` runs
    once the server is started, while it serves (a signal stops it as it stops the server).
    ``exported``: serve the tables of this export (warren export-parquet) instead of ``db``."""
    import signal
    import subprocess

    chosen = choose_port(port)
    env = {**os.environ, "WARREN_DB": str(db.resolve())}
    env.pop("WARREN_PARQUET", None)
    source = f"store {db}"
    if exported is not None:
        env["WARREN_PARQUET"] = str(exported.resolve())
        source = f"export {exported}: its statistics and SQL"
    click.echo(f"warren dashboard on http://{ADDRESS}:{chosen}/  ({source}; Ctrl+C stops it)")
    # preexec_fn is safe here: this process runs no other thread yet.
    linux = sys.platform.startswith("linux")
    proc = subprocess.Popen(dashboard_command(db, chosen), env=env,
                            preexec_fn=_die_with_parent if linux else None)
    asked: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        # Raised out of the wait below, as Ctrl+C raises KeyboardInterrupt: the wait holds
        # the process's lock, so stopping (and waiting) here would wait on itself.
        raise _Stopped(signum)

    wanted = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]
    before = {s: signal.signal(s, stop) for s in wanted}
    try:
        if meanwhile is not None:
            meanwhile()
        code = proc.wait()
    except KeyboardInterrupt:
        asked.append(signal.SIGINT)
        code = 0
    except _Stopped as stopped:
        asked.append(stopped.signum)
        code = 0
    finally:
        _stop(proc)
        for s, handler in before.items():
            signal.signal(s, handler)
    if asked:
        return  # stopped as asked: a clean end
    if code not in (0, -2, 130):  # not a clean stop, nor Ctrl+C
        raise WarrenError(f"the dashboard stopped with exit code {code} (its messages are above)")


PORT_HELP = (f"Port to serve on (localhost only). Default: {DEFAULT_PORT}, or the next free one if it is in "
             "use; a port given here that is in use is refused.")


@click.command()
@click.option("--port", type=click.IntRange(1, 65535), default=None, help=PORT_HELP)
@click.option("--parquet", "exported", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Serve the tables of this export (warren export-parquet, here or on Spark) instead "
                   "of a store: the Overview, Stats and SQL pages.")
@db_option
def dashboard(port: int | None, exported: Path | None, db: Path | None) -> None:
    """Serve the dashboard for a store on localhost: replay, disputes, stats, SQL.

    Prints the address it serves on. A --port that another program uses is refused
    (exit 2); without --port, the first free port from 8501 on is taken. With --parquet DIR
    it serves an export's tables instead (its statistics and SQL; replaying a game needs its
    records in a store).

    Example: warren dashboard --db club.db --port 8600

    On an export: warren dashboard --parquet exported/
    """
    from logstore.store.event_store import default_db_path

    if exported is not None:
        if db is not None:
            raise click.UsageError("give --db (a store) or --parquet (an export), not both")
        from logstore.analytics.views import exported_parts

        exported_parts(exported)  # refuses a folder that is not an export, here and now
        serve_dashboard(default_db_path(), port, exported=exported)
        return
    path = db or default_db_path()
    if not path.exists():
        raise WarrenError(f"there is no store at {path}: run `warren demo` or `warren import PATH` first")
    open_store(path, create=False).close()  # refuses a file that is not a warren store, here and now
    serve_dashboard(path, port)


# -- demo ------------------------------------------------------------------------------
def fixtures_dir() -> Path:
    return ROOT / "fixtures"


DEMO_GAMES = 300
"""Simulated games per ruleset that `warren demo` adds to an empty store."""


@click.command()
@click.option("--games", type=click.IntRange(min=0), default=DEMO_GAMES, show_default=True,
              help="Simulated games per ruleset to add when the store is new.")
@click.option("--port", type=click.IntRange(1, 65535), default=None, help=PORT_HELP)
@click.option("--no-serve", is_flag=True,
              help="Fill the store and print a replay; do not start the dashboard.")
@db_option
def demo(games: int, port: int | None, no_serve: bool, db: Path | None) -> None:
    """Fill a store with the shipped games (and simulated ones), then open the dashboard.

    The store is ./warren.db (or $WARREN_DB), or the one --db names. On a new or empty
    store: imports every record under fixtures/ (illegal examples included, with their
    verdicts; about 2 s), then serves the dashboard on localhost at once, prints its
    address, and adds --games simulated games per ruleset while it serves (about 40 s for
    the default; the Overview shows how far it has got). With --no-serve it adds them
    first, then prints a replay.

    Example: warren demo --games 100 --no-serve
    """
    from logstore.store.event_store import default_db_path

    path = db or default_db_path()
    with open_store(path) as store:
        new = not store.games()
        if new:
            _import_fixtures(store)
        rows = store.games()
    if no_serve:
        if new:
            _simulate(path, games)
            with open_store(path) as store:
                rows = store.games()
        click.echo(f"store {path}: {len(rows)} game(s)")
        finished = [r for r in rows if r.ok and r.over]
        if finished:
            game_id = finished[0].game_id
            click.echo(f"\n$ warren replay {game_id}\n")
            click.get_current_context().invoke(replay, source=game_id, to_seq=None, turn=None,
                                               perspective="referee", db=path, as_json=False)
        return
    click.echo(f"store {path}: {len(rows)} game(s)")
    # Serve at once on what is in; the simulated games arrive while the dashboard is open
    # (the Overview shows how far they have got).
    serve_dashboard(path, port, meanwhile=(lambda: _simulate(path, games)) if new and games else None)


def _import_fixtures(store: Store) -> None:
    from logstore.store.reading import record_paths

    folder = fixtures_dir()
    files = list(record_paths([folder])) if folder.is_dir() else []
    with progress(len(files), "importing fixtures") as advance:
        results = store.import_paths(files, progress=advance)
    if folder.is_dir():
        imported = sum(r.ok for r in results)
        click.echo(f"imported {imported} of {len(files)} fixture record(s) from {folder}")
        for r in results:
            if not r.ok:  # the broken-chain example is refused, as `warren import` refuses it
                reason = (r.reason or "").removeprefix(f"{r.path}: ")
                click.echo(f"  refused {Path(r.path).name}: {reason}")
    else:
        click.echo(f"no fixtures/ folder at {folder} (warren installed without its repository): "
                   "only simulated games")


FILLING_EVERY = 10
"""The Overview's progress is rewritten every so many simulated games."""


def _simulate(path: Path, games: int) -> None:
    """Add ``games`` simulated games of every ruleset to the store, saying how far it has got
    beside the store (logstore.store.filling) for the Overview."""
    from engine.registry import all_rulesets
    from engine.simulate import simulate_one
    from logstore.store.filling import clear_filling, write_filling

    rulesets = all_rulesets() if games else []
    target = games * len(rulesets)
    added = skipped = done = 0
    try:
        with open_store(path) as store, progress(target, "simulating games") as advance:
            write_filling(path, 0, target)
            for rs in rulesets:
                counts = list(range(rs.min_players, min(rs.max_players, 8) + 1))
                for i in range(games):
                    game = simulate_one(rs, 2026, i, players=counts[i % len(counts)],
                                        bots=("greedy", "random"))
                    if game.header.game_id in store:
                        skipped += 1  # a fixture under the same id (fixtures/*/simulated)
                    else:
                        store.import_bytes(b"".join(game.lines()), f"<demo {game.header.game_id}>")
                        added += 1
                    done += 1
                    advance(1)
                    if done % FILLING_EVERY == 0:
                        write_filling(path, done, target)
    finally:
        clear_filling(path)
    if rulesets:
        slugs = ", ".join(r.slug for r in rulesets)
        click.echo(f"simulated {games} game(s) per ruleset ({slugs}): {added} added"
                   + (f", {skipped} skipped because the store already holds a game of that id "
                      "(the fixtures' simulated corpus uses the same seed)" if skipped else ""))
