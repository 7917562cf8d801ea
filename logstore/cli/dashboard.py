"""``warren dashboard`` (serve the Streamlit app on a store) and ``warren demo`` (fill the
default store with the shipped and simulated games, then serve it)."""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from pathlib import Path

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, open_store, progress
from logstore.cli.games import replay

ROOT = Path(__file__).resolve().parents[2]
"""The folder that holds the ``logstore`` and ``dashboard`` packages (and, in a checkout,
``fixtures/``)."""


def dashboard_command(db: Path, port: int, address: str = "127.0.0.1") -> list[str]:
    """The streamlit command line that serves warren's dashboard on ``db``."""
    app = ROOT / "dashboard" / "app.py"
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


@click.command()
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
    return ROOT / "fixtures"


DEMO_GAMES = 300
"""Simulated games per ruleset that `warren demo` adds to an empty store."""


@click.command()
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
    from logstore.store.event_store import default_db_path
    from logstore.store.reading import record_paths

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
