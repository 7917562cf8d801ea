"""What every ``warren`` command shares: error handling, the common options, JSON output,
progress bars and opening the store."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from engine.rules import WarrenError
from engine.ruleset import Perspective

if TYPE_CHECKING:
    from rich.console import Console

    from logstore.store.event_store import Store

F = TypeVar("F", bound=Callable[..., Any])

EXIT_ILLEGAL = 1
"""A rule is broken, a verdict is illegal or a claim is disputed."""
EXIT_USAGE = 2
"""Bad input: an unreadable record, an unknown game, a bad option."""


class WarrenGroup(click.Group):
    """Turns every user-facing error into a one-line message and exit code 2 (no traceback)."""

    def invoke(self, ctx: click.Context) -> Any:
        from engine.killer.catalogue.loader import deck_problems
        from engine.registry import problems
        from logstore.textsafe import ShownText, clean

        said = {*problems(), *deck_problems()}  # told by an earlier command of this process
        # Names and words from records reach the terminal through this guard, whichever
        # command prints them (logstore.textsafe); a record exported to stdout goes to its
        # buffer, byte for byte.
        stdout = sys.stdout
        sys.stdout = ShownText(stdout)
        try:
            return super().invoke(ctx)
        except WarrenError as exc:
            click.echo(f"Error: {clean(str(exc), lines=True)}", err=True)
            ctx.exit(EXIT_USAGE)
        except BrokenPipeError:  # e.g. `warren export X | head`
            sys.stderr.close()
            ctx.exit(0)
        finally:
            sys.stdout = stdout
            _say_plugin_problems(said)


def _say_plugin_problems(said: set[str]) -> None:
    """Name each refused or broken plugin, and each deck file of a user's folder that was left
    out, once, after the command (which went on without them). Deck folders named by
    ``WARREN_DECKS`` are read here if the command did not (its work may have run in helper
    processes), so a bad file is never passed over in silence."""
    from engine.killer.catalogue.loader import deck_problems
    from engine.registry import problems
    from logstore.textsafe import clean

    if os.environ.get("WARREN_DECKS"):
        with contextlib.suppress(WarrenError):
            from engine.killer_bunnies_odyssey.library import library

            library()
    from logstore.store.snapshots import key_problem

    found = problems() + deck_problems() + [p for p in (key_problem(),) if p is not None]
    for message in dict.fromkeys(found):
        if message in said:
            continue
        with contextlib.suppress(ValueError, OSError):  # stderr closed after a broken pipe
            click.echo(f"warning: {clean(message, lines=True)}", err=True)


def db_option(func: F) -> F:
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
        help="Store file (default: $WARREN_DB or ./warren.db).",
    )(func)


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")(func)


def open_store(db: Path | None, create: bool = True, *, adopt: bool = False) -> Store:
    from logstore.store import schema
    from logstore.store.event_store import Store, default_db_path

    path = db if db is not None else default_db_path()
    version = schema.version_of(path)
    if version is not None and 0 < version < schema.LINES_SPLIT:
        # Opening brings it up, once: its lines are split and the file compacted, which
        # takes a while for a large store (about 16 s per 10,000 games here).
        with contextlib.suppress(ValueError, OSError):
            click.echo(f"warren: bringing the store {path} up to format {schema.SCHEMA_VERSION} "
                       "(once: its lines are stored smaller); a large store takes a few minutes",
                       err=True)
    return Store(db, create=create, adopt=adopt)


@contextmanager
def progress(total: int | None, label: str, lines: bool = False) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr when it is a terminal; silent otherwise. ``lines``: the
    command writes a line for each item to standard output as it goes; when that is the same
    terminal, those lines are the progress, and a bar drawn between them would be cut into
    them (and its last line cleared over one of theirs): no bar then."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    if not sys.stderr.isatty() or (lines and sys.stdout.isatty()):
        def silent(n: int = 1) -> None:
            """No terminal, no bar: nothing to advance."""

        yield silent
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True, console=err_console()) as bar:
        task = bar.add_task(label, total=total)

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        yield advance


def err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def parse_perspective(text: str) -> Perspective:
    if text == "referee":
        return "referee"
    if text == "spectator":
        return "spectator"
    try:
        return int(text)
    except ValueError:
        raise WarrenError(f"--as takes a seat number, 'referee' or 'spectator', not {text!r}") from None


def parse_options(pairs: tuple[str, ...]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise WarrenError(f"--option takes KEY=VALUE, not {pair!r}")
        key, value = pair.split("=", 1)
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options
