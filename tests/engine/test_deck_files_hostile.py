"""Deck files are read as warily as records: regular files only, a size cap, bounded
nesting and counts, ids from a safe alphabet and unique across the library, and a bad file
in a user's deck folder is left out and named, never fatal to unrelated records."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from logstore.cli import main

ROOT = Path(__file__).resolve().parents[2]
ODYSSEY = ROOT / "fixtures" / "killer-bunnies-odyssey"
HEAD = 'format = 1\n[deck]\nid = "{id}"\ntitle = "a house deck"\nkind = "personal"\n'
GOOD = (HEAD.format(id="house")
        + '\n[[card]]\nid = "hx-giant-bunny"\ncode = "HX01"\ncopies = 2\nname = "Giant Bunny"\n'
        'type = "run"\ncost = { blue = 4 }\npoints = 7\ncreature = { species = "bunny" }\n\n'
        '[[list]]\ncard = "WB01"\ncopies = 30\n\n[[list]]\ncard = "WG01"\ncopies = 28\n')


def check(path: Path | str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["deck", "check", str(path)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


HOSTILE = {
    "deep": "format = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n",
    "deep-tables": "format = 1\nx = " + "{a = " * 800 + "1" + "}" * 800 + "\n",
    "nested-not-too-deep": "format = 1\nx = " + "[" * 40 + "]" * 40 + "\n",
    "empty-id": HEAD.format(id=""),
    "path-id": HEAD.format(id="../../../etc/passwd"),
    "huge-id": HEAD.format(id="a" * 100_000),
    "card-id": GOOD.replace('id = "hx-giant-bunny"', 'id = "../x"'),
    "list-name": GOOD.replace('card = "WG01"', 'card = "' + "W" * 5000 + '"'),
    "too-many": HEAD.format(id="many") + '[[list]]\ncard = "WB01"\ncopies = 0\n' * 2001,
}
SAID = {
    "deep": "nested deeper than 16", "deep-tables": "nested deeper than 16",
    "nested-not-too-deep": "nested deeper than 16", "empty-id": "the deck id ''",
    "path-id": "lower-case words", "huge-id": "at most 64", "card-id": "the card id",
    "list-name": "at most 64", "too-many": "at most 2000",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_deck_file_is_refused_plainly(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text(HOSTILE[name])
    code, said = check(path)
    assert code == 1 and SAID[name] in said and len(said) < 2000, said


def test_binary_and_other_encodings_are_refused(tmp_path: Path) -> None:
    latin1 = "format = 1\n# caf\xe9\n".encode("latin-1")
    for name, data in (("binary", bytes(range(256))), ("latin1", latin1)):
        path = tmp_path / f"{name}.toml"
        path.write_bytes(data)
        code, said = check(path)
        assert code == 1 and "not UTF-8" in said


def test_devices_fifos_and_huge_files_are_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    # /dev/zero was read until memory ran out, and a FIFO waited for a writer forever.
    for path, said in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                       (big, "larger than 1024 KiB")):
        code, out = check(path)
        assert code == 1 and said in out, out
    code, out = check(tmp_path)
    assert code == 2 and "is a directory" in out


def test_a_deck_that_reuses_a_library_id_is_refused(tmp_path: Path) -> None:
    blue = (ROOT / "engine" / "killer_bunnies_odyssey" / "decks" / "blue.toml").read_text()
    (tmp_path / "blue.toml").write_text(blue)  # 'blue' deck check called ok
    code, said = check(tmp_path / "blue.toml")
    assert code == 1 and "deck id 'blue' is already the deck of" in said
    reused = GOOD.replace('id = "hx-giant-bunny"', 'id = "wb-technology"')
    (tmp_path / "reused.toml").write_text(reused)
    code, said = check(tmp_path / "reused.toml")
    assert code == 1 and "card id 'wb-technology' is already a card of deck 'blue'" in said
    (tmp_path / "good.toml").write_text(GOOD)
    assert check(tmp_path / "good.toml")[0] == 0


def test_list_entries_cost_linear_time(tmp_path: Path) -> None:
    """20,000 entries of copies = 0 took 16 s: a file now holds at most 2,000 entries, and an
    entry of no copies is refused where it stands."""
    path = tmp_path / "many.toml"
    path.write_text(HEAD.format(id="many") + '[[list]]\ncard = "WB01"\ncopies = 0\n' * 2000)
    code, said = check(path)
    assert code == 1 and "must be 1 or more" in said


def _warren(*args: str, decks: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WARREN_DECKS": str(decks)}
    return subprocess.run([sys.executable, "-c", "from logstore.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=decks.parent, timeout=300)


def test_a_bad_file_in_a_deck_folder_is_named_and_skipped(tmp_path: Path) -> None:
    """One bad file in WARREN_DECKS made every Odyssey record unreadable (exit 2)."""
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "a-good.toml").write_text(GOOD)
    (decks / "broken.toml").write_text(HOSTILE["deep"])
    (decks / "binary.toml").write_bytes(b"\xff\xfe\x00")
    shipped = ROOT / "engine" / "killer_bunnies_odyssey" / "decks"
    (decks / "blue.toml").write_text((shipped / "blue.toml").read_text())
    (decks / "zero.toml").write_text(HEAD.format(id="zero") + '[[list]]\ncard = "WB01"\ncopies = 0\n')
    done = _warren("check", str(ODYSSEY / "two-player-border-dispute.jsonl"), "--json", decks=decks)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning: deck file left out")]
    for name in ("broken.toml", "binary.toml", "blue.toml", "zero.toml"):
        assert sum(name in w for w in warnings) == 1, done.stderr
    assert "a-good.toml" not in done.stderr and "Traceback" not in done.stderr
    played = _warren("simulate", "killer-bunnies-odyssey", "--games", "1", "--players", "2", "--decks",
                     "house,blue", "--seed", "3", "--out", str(tmp_path / "games"), decks=decks)
    assert played.returncode == 0, played.stderr


def test_simulate_with_a_bad_deck_file_says_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(HOSTILE["deep"])
    result = CliRunner().invoke(main, ["simulate", "killer-bunnies-odyssey", "--games", "1", "--players", "2",
                                       "--decks", f"{bad},blue", "--out", str(tmp_path / "g")])
    assert result.exit_code == 2 and "nested deeper than 16" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
