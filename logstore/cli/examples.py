"""``warren examples DEST``: the example records that come with warren, copied into a folder of
the user's choice, so that the README's tour (and any experiment) works from any folder."""

from __future__ import annotations

from pathlib import Path

import click

from engine.rules import WarrenError
from logstore.cli.common import echo_json, json_option
from logstore.cli.dashboard import fixtures_dir
from logstore.store.files import replacing


class NoExamples(WarrenError):
    """warren was installed without the folder of its example records."""


def example_files() -> dict[Path, bytes]:
    """The shipped example records and their READMEs, by path relative to their folder."""
    folder = fixtures_dir()
    if not folder.is_dir():
        raise NoExamples(f"there is no fixtures/ folder at {folder}: this warren was installed "
                         "without its repository, so it has no example records to copy")
    return {p.relative_to(folder): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix in (".jsonl", ".md")}


@click.command()
@click.argument("dest", type=click.Path(file_okay=False, path_type=Path))
@json_option
def examples(dest: Path, as_json: bool) -> None:
    """Copy the example records that come with warren into DEST (created if missing).

    Legal and illegal games of every ruleset, a record with a broken hash chain, games
    recorded at the table, and small simulated corpora, one folder per ruleset. A file
    already in DEST with the same bytes is left as it is; one with other bytes is kept
    and named (exit 1), never overwritten.

    Example: warren examples examples/ && warren check examples/ --json
    """
    wanted = example_files()
    written: list[str] = []
    same: list[str] = []
    kept: list[str] = []
    for rel, data in wanted.items():
        target = dest / rel
        if target.is_file() and not target.is_symlink():
            (same if target.read_bytes() == data else kept).append(str(target))
            continue
        if target.exists() or target.is_symlink():
            kept.append(str(target))
            continue
        with replacing(target) as out:  # a clear OutputError if DEST cannot be written
            out.write(data)
        written.append(str(target))
    if as_json:
        echo_json({"dest": str(dest), "written": len(written), "unchanged": len(same), "kept": kept})
    else:
        click.echo(f"{dest}: {len(wanted)} example file(s), {len(written)} written, "
                   f"{len(same)} already there")
        for path in kept:
            click.echo(f"  kept {path}: it is not the example of that name, so it was not overwritten")
    if kept:
        raise SystemExit(1)
