"""The ``warren`` command line (see :mod:`logstore.cli.records`)."""

from logstore.cli.records import dashboard_command, main

__all__ = ["dashboard_command", "main"]
