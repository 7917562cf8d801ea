"""Files warren writes for a user are written whole, under a name nobody can guess, and
never through a symbolic link planted beside them (``F.tmp`` used to be predictable: a link
there to another file had that file overwritten)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store.files import OutputError, write_file

GAME = simulate_one(BUNNIES, 31, 0)
GAME_ID = GAME.header.game_id


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def stored(tmp_path: Path) -> str:
    db = tmp_path / "w.db"
    record = tmp_path / "game.jsonl"
    record.write_bytes(b"".join(GAME.lines()))
    assert run("import", str(record), "--db", str(db))[0] == 0
    return str(db)


def plant(target: Path, victim: Path) -> list[Path]:
    """Links an attacker could plant where the old code wrote its temporary file."""
    victim.write_text("precious")
    links = []
    for name in (target.name + ".tmp", target.stem + ".jsonl.tmp"):
        link = target.with_name(name)
        if not link.exists() and not link.is_symlink():
            link.symlink_to(victim)
            links.append(link)
    return links


def untouched(victim: Path, links: list[Path]) -> None:
    assert victim.read_text() == "precious"
    assert all(link.is_symlink() for link in links)


WRITERS: dict[str, Callable[[str, Path], list[str]]] = {
    "export": lambda db, out: ["export", GAME_ID, "-o", str(out), "--db", db],
    "dispute branch --out": lambda db, out: [
        "dispute", "branch", GAME_ID, "--at", "3", "--action", json.dumps(
            {k: v for k, v in json.loads(GAME.lines()[4]).items() if k not in ("hash", "seq")}),
        "--replaces", "0", "--out", str(out), "--db", db],
    "rulings export": lambda db, out: ["dispute", "rulings", "--export", str(out), "--db", db],
    "query --out": lambda db, out: ["query", "SELECT 1 AS one", "-f", "json", "-o", str(out), "--db", db],
}


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_planted_link_is_never_written_through(name: str, stored: str, tmp_path: Path) -> None:
    out = tmp_path / "out" / "result.jsonl"
    out.parent.mkdir()
    victim = tmp_path / "victim.txt"
    links = plant(out, victim)
    code, _, err = run(*WRITERS[name](stored, out))
    assert code == 0, err
    untouched(victim, links)
    assert out.is_file() and not out.is_symlink()
    assert out.read_bytes() or name == "rulings export"  # no rulings yet: an empty bundle
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == []  # nothing left over


def test_a_link_at_the_destination_itself_is_replaced_not_followed(stored: str, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "exported.jsonl"
    out.symlink_to(victim)
    assert run("export", GAME_ID, "-o", str(out), "--db", stored)[0] == 0
    assert victim.read_text() == "precious"
    assert not out.is_symlink() and out.read_bytes() == b"".join(GAME.lines())


def test_simulate_out_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    out.mkdir()
    first = simulate_one(BUNNIES, 5, 0).header.game_id
    victim = tmp_path / "victim.txt"
    links = plant(out / f"{first}.jsonl", victim)
    assert run("simulate", "bunnies", "--games", "2", "--seed", "5", "--out", str(out))[0] == 0
    untouched(victim, links)
    assert (out / f"{first}.jsonl").read_bytes() == b"".join(simulate_one(BUNNIES, 5, 0).lines())


def test_a_failed_write_leaves_the_old_file_and_no_scraps(tmp_path: Path) -> None:
    target = tmp_path / "kept.txt"
    target.write_text("old")

    class Boom(Exception):
        pass

    from logstore.store.files import replacing

    with pytest.raises(Boom), replacing(target) as handle:
        handle.write(b"half")
        raise Boom
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"]
    with pytest.raises(OutputError, match="cannot write"):
        write_file(target / "below-a-file.txt", b"x")


def test_a_generated_folder_is_checked_then_brought_up_to_date(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from logstore.store.files import sync_folder

    folder = tmp_path / "fixtures"
    (folder / "deep").mkdir(parents=True)
    same, changed, new = folder / "same.jsonl", folder / "deep" / "changed.jsonl", folder / "new.jsonl"
    same.write_bytes(b"a\n")
    changed.write_bytes(b"old\n")
    (folder / "gone.jsonl").write_bytes(b"x\n")
    (folder / "README.md").write_text("kept: not a generated kind of file")
    wanted = {same: b"a\n", changed: b"new\n", new: b"n\n"}
    assert sync_folder(folder, wanted, check=True, script="make.py") == 1
    said = capsys.readouterr().err
    assert "changed.jsonl: differs" in said and "new.jsonl: differs" in said
    assert "gone.jsonl: not written" in said
    assert "same.jsonl" not in said and changed.read_bytes() == b"old\n"  # a check writes nothing
    assert sync_folder(folder, wanted, check=False, script="make.py") == 0
    assert "3 files, 2 written, 1 removed" in capsys.readouterr().out
    kept = {p.name for p in folder.rglob("*") if p.is_file()}
    assert kept == {"same.jsonl", "changed.jsonl", "new.jsonl", "README.md"}
    assert changed.read_bytes() == b"new\n"
    assert sync_folder(folder, wanted, check=True, script="make.py") == 0
