"""The CLI reference is generated from the code, and every command explains itself."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from logstore.cli import clidoc, main

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def _commands() -> list[str]:
    ctx = click.Context(main, info_name="warren")
    return sorted(main.list_commands(ctx))


def test_reference_matches_the_code() -> None:
    assert DOC.read_text() == clidoc.render(), "regenerate: python -m logstore.cli.clidoc > docs/cli.md"


@pytest.mark.parametrize("name", _commands())
def test_every_command_has_help_with_an_example(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert command is not None
    text = clidoc.command_help(name, command)
    assert command.help and len(command.help.strip()) > 20, f"{name} has no help"
    assert "Example: warren " in text, f"{name}'s help has no example"
    assert f"## warren {name}" in DOC.read_text(), f"{name} is missing from docs/cli.md"
