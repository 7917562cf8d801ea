"""The ``warren`` command line: a thin layer over the engine and the store.

Every command has help with an example; `docs/cli.md` is generated from this help
(``python -m logstore.cli.clidoc``) and a test keeps the two in step.

The commands live in one module per group, each importing what it needs only when it
runs, so that starting ``warren`` stays cheap:

- :mod:`logstore.cli.records`: check, simulate, import, export, ls, verify;
- :mod:`logstore.cli.games`: replay, suspects, rules;
- :mod:`logstore.cli.analyse`: analyse (a game's chances, turning points, better moves);
- :mod:`logstore.cli.record`: record (a game at the table), redact;
- :mod:`logstore.cli.dispute`: the ``warren dispute ...`` group;
- :mod:`logstore.cli.deck`: the ``warren deck ...`` group (players' own deck files);
- :mod:`logstore.cli.analytics`: query, stats, export-parquet, metadata;
- :mod:`logstore.cli.model`: the ``warren model ...`` group (the win-chance model);
- :mod:`logstore.cli.dashboard`: dashboard, demo;
- :mod:`logstore.cli.common`: what they share (error handling, options, JSON, progress).
"""

from __future__ import annotations

import click

from logstore.cli import (
    analyse,
    analytics,
    dashboard,
    deck,
    dispute,
    examples,
    games,
    model,
    players,
    record,
    records,
)
from logstore.cli.common import WarrenGroup

__all__ = ["main"]


@click.group(cls=WarrenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="warren")
def main() -> None:
    """warren: replay, audit and analyse games of the bunny card-game family.

    Every game is an append-only event log. warren replays a log to any turn, checks each
    event against the rules, and explains every change by the rule that caused it.

    Example: warren simulate bunnies --games 20 --seed 7 --out games/ && warren check games/
    """


for command in (
    records.check, records.simulate, records.import_, records.export, records.ls, records.verify,
    games.replay, games.suspects, games.rules, analyse.analyse,
    record.record, record.redact,
    dispute.dispute, deck.deck,
    analytics.query, analytics.stats, analytics.export_parquet, analytics.metadata, model.model,
    dashboard.dashboard, dashboard.demo, examples.examples, players.players, players.ratings, players.plays,
):
    main.add_command(command)
