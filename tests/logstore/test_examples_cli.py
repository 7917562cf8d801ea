"""``warren examples``: the shipped records copied into any folder, never over a user's file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from logstore.cli import main
from logstore.cli.dashboard import fixtures_dir


def test_examples_are_copied_then_left_alone(tmp_path: Path) -> None:
    dest = tmp_path / "ex"
    first = CliRunner().invoke(main, ["examples", str(dest), "--json"])
    assert first.exit_code == 0, first.output
    shipped = sorted(p.relative_to(fixtures_dir()) for p in fixtures_dir().rglob("*.jsonl"))
    assert sorted(p.relative_to(dest) for p in dest.rglob("*.jsonl")) == shipped
    assert json.loads(first.output)["written"] == len(list(dest.rglob("*.*")))
    sample = dest / "bunnies" / "first-goes.jsonl"
    assert sample.read_bytes() == (fixtures_dir() / "bunnies" / "first-goes.jsonl").read_bytes()
    again = CliRunner().invoke(main, ["examples", str(dest)])
    assert again.exit_code == 0 and ", 0 written" in again.output


def test_a_file_of_the_user_is_kept_and_named(tmp_path: Path) -> None:
    dest = tmp_path / "ex"
    (dest / "bunnies").mkdir(parents=True)
    mine = dest / "bunnies" / "first-goes.jsonl"
    mine.write_text("my own notes\n")
    result = CliRunner().invoke(main, ["examples", str(dest)])
    assert result.exit_code == 1
    assert f"kept {mine}" in result.output
    assert mine.read_text() == "my own notes\n"
    assert (dest / "bunnies" / "dealer-opens-option.jsonl").is_file()  # the others are written


def test_the_copies_check_as_the_shipped_ones_do(tmp_path: Path) -> None:
    dest = tmp_path / "ex"
    CliRunner().invoke(main, ["examples", str(dest)])
    ours = CliRunner().invoke(main, ["check", str(dest / "bunnies"), "--json"])
    shipped = CliRunner().invoke(main, ["check", str(fixtures_dir() / "bunnies"), "--json"])
    assert ours.exit_code == shipped.exit_code == 1  # the illegal examples are illegal
    def verdicts(output: str) -> list[tuple]:
        rows = [json.loads(line) for line in output.splitlines()]
        return [(Path(r["path"]).name, r["ok"], r["chain"], r["violation"]) for r in rows]

    assert verdicts(ours.output) == verdicts(shipped.output)
