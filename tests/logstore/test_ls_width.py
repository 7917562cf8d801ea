"""`warren ls` fits the terminal it is shown on: at 100 columns every line is at most 100
characters and every game id is whole (its other columns wrap)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from logstore.cli import main
from logstore.store import Store
from tests.logstore.analytics_corpus import fill


def test_ls_fits_a_hundred_column_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.db"
    fill(db, "killer-bunnies-quest", games=3)
    with Store(db) as store:
        ids = [row.game_id for row in store.games(None)]
    monkeypatch.setenv("COLUMNS", "100")
    shown = CliRunner().invoke(main, ["ls", "--db", str(db)], catch_exceptions=False)
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100, max(lines, key=len)
    assert all(any(game in line for line in lines) for game in ids)


def test_ls_piped_without_a_width_gives_the_table_room(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "w.db"
    fill(db, "bunnies", games=2)
    monkeypatch.delenv("COLUMNS", raising=False)
    shown = CliRunner().invoke(main, ["ls", "--db", str(db)], catch_exceptions=False)
    assert shown.exit_code == 0 and "bunnies" in shown.stdout
