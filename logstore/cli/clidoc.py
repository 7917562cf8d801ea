"""Generate docs/cli.md from the commands' own help: ``python -m logstore.cli.clidoc > docs/cli.md``."""

from __future__ import annotations

import click

from logstore.cli import main


def command_help(name: str, command: click.Command) -> str:
    ctx = click.Context(command, info_name=f"warren {name}", terminal_width=100,
                        max_content_width=100, help_option_names=["-h", "--help"])
    return command.get_help(ctx)


def render() -> str:
    ctx = click.Context(main, info_name="warren", terminal_width=100, max_content_width=100,
                        help_option_names=["-h", "--help"])
    parts = [
        "# warren command reference",
        "",
        "Generated from the commands' own help by `python -m logstore.cli.clidoc > docs/cli.md`;",
        "a test fails when this file and the code disagree.",
        "",
        "```",
        main.get_help(ctx),
        "```",
    ]
    for name in sorted(main.list_commands(ctx)):
        command = main.get_command(ctx, name)
        assert command is not None
        parts += ["", f"## warren {name}", "", "```", command_help(name, command), "```"]
        if isinstance(command, click.Group):  # a group's subcommands get a section each
            sub_ctx = click.Context(command, info_name=f"warren {name}")
            for sub in sorted(command.list_commands(sub_ctx)):
                subcommand = command.get_command(sub_ctx, sub)
                assert subcommand is not None
                parts += ["", f"## warren {name} {sub}", "", "```",
                          command_help(f"{name} {sub}", subcommand), "```"]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    click.echo(render(), nl=False)
