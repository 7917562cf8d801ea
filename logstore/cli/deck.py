"""``warren deck ...``: players' own deck files (Killer Bunnies and the Ultimate Odyssey).

A personal deck file is a deck file of the catalogue format with ``kind = "personal"``
(docs/odyssey-decks.md). ``warren deck check`` reads one against the deck library (warren's
starter decks and the folders named by ``WARREN_DECKS``) and says whether a game can be
played with it: at least 60 cards, every card known, every field valid. A problem is reported
as ``FILE:LINE: reason``.

Exit codes: 0 when every file is a playable deck, 1 when one is not, 2 for bad input.
"""

from __future__ import annotations

from pathlib import Path

import click

from engine.rules import WarrenError
from logstore.cli.common import EXIT_ILLEGAL, WarrenGroup, echo_json, json_option


@click.group(cls=WarrenGroup, context_settings={"help_option_names": ["-h", "--help"]})
def deck() -> None:
    """Players' own deck files (killer-bunnies-odyssey): check them before a game.

    Example: warren deck check my-deck.toml
    """


@deck.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@json_option
def check(files: tuple[Path, ...], as_json: bool) -> None:
    """Check personal deck files: size, cards the library does not know, bad fields.

    Prints "FILE: ok: N cards, M different, hash H" for a playable deck and "FILE:LINE: reason"
    for one that is not; --json prints one object per file ({"path", "ok", "deck", "cards",
    "hash", "line", "error"}).

    Example: warren deck check engine/killer_bunnies_odyssey/decks/blue.toml my-deck.toml
    """
    from engine.killer_bunnies_odyssey.library import library
    from engine.killer_bunnies_odyssey.personal import DeckError

    lib = library()
    worst = 0
    for path in files:
        try:
            found = lib.check_file(path)
        except DeckError as exc:
            worst = EXIT_ILLEGAL
            if as_json:
                echo_json({"path": str(path), "ok": False, "deck": None, "cards": None, "hash": None,
                           "line": exc.line, "error": exc.reason})
            else:
                click.echo(str(exc))
            continue
        except WarrenError as exc:
            worst = EXIT_ILLEGAL
            if as_json:
                echo_json({"path": str(path), "ok": False, "deck": None, "cards": None, "hash": None,
                           "line": None, "error": str(exc)})
            else:
                click.echo(f"{path}: {exc}")
            continue
        if as_json:
            echo_json({"path": str(path), "ok": True, "deck": found.id, "cards": found.size,
                       "hash": found.content_hash, "line": None, "error": None})
        else:
            click.echo(f"{path}: ok: deck {found.id!r}, {found.size} cards, {len(found.cards)} "
                       f"different, hash {found.content_hash[:12]}")
    if worst:
        raise SystemExit(worst)
