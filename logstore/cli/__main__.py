"""``python -m logstore.cli ...`` is ``warren ...``."""

from logstore.cli import main

main(prog_name="warren")
