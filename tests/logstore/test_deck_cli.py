"""The command line for Odyssey: ``warren deck check``, ``warren simulate --decks`` and the
hand-size dispute through ``warren dispute verdict`` and ``rerun``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from logstore.cli import main

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "engine" / "killer_bunnies_odyssey" / "decks"
FIXTURES = ROOT / "fixtures" / "killer-bunnies-odyssey"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_deck_check_passes_the_starter_decks() -> None:
    code, out, _ = run("deck", "check", *(str(DECKS / f"{c}.toml") for c in ("blue", "violet")))
    assert code == 0
    assert "blue.toml: ok: deck 'blue', 60 cards, 30 different, hash " in out
    assert "violet.toml: ok" in out


def test_deck_check_refuses_a_bad_deck_with_file_line_and_reason(tmp_path: Path) -> None:
    short = tmp_path / "short.toml"
    short.write_text('format = 1\n\n[deck]\nid = "short"\ntitle = "short"\nkind = "personal"\n\n'
                     '[[list]]\ncard = "WB01"\ncopies = 40\n\n[[list]]\ncard = "QQ12"\ncopies = 20\n')
    code, out, _ = run("deck", "check", str(short))
    assert code == 1
    assert out.strip() == f"{short}:13: unknown card 'QQ12': no deck file of the library defines it"
    short.write_text(short.read_text().replace('"QQ12"', '"WB03"'))
    code, out, _ = run("deck", "check", str(short), "--json")
    answer = json.loads(out)
    assert code == 0 and answer["ok"] and answer["deck"] == "short" and answer["cards"] == 60
    assert answer["line"] is None and answer["error"] is None and len(answer["hash"]) == 64


def test_deck_check_of_a_deck_below_sixty(tmp_path: Path) -> None:
    small = tmp_path / "small.toml"
    small.write_text('format = 1\n[deck]\nid = "small"\ntitle = "s"\nkind = "personal"\n\n'
                     '[[list]]\ncard = "WB01"\ncopies = 59\n')
    code, out, _ = run("deck", "check", str(small))
    assert code == 1 and out.strip() == f"{small}:2: the deck holds 59 cards; a deck holds at least 60"


def test_deck_check_of_a_deck_above_three_hundred(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text('format = 1\n[deck]\nid = "big"\ntitle = "b"\nkind = "personal"\n\n'
                   '[[list]]\ncard = "WB01"\ncopies = 301\n')
    code, out, _ = run("deck", "check", str(big))
    said = f"{big}:2: the deck holds 301 cards; warren reads a deck of at most 300"
    assert code == 1 and out.strip() == said
    big.write_text(big.read_text().replace("301", "300"))
    code, out, _ = run("deck", "check", str(big))
    assert code == 0, out


def test_simulate_with_decks_is_reproducible_and_checks(tmp_path: Path) -> None:
    args = ["simulate", "killer-bunnies-odyssey", "--players", "2..6", "--games", "5", "--seed", "7",
            "--decks", "blue,violet,red,green,orange,yellow", "--max-events", "400"]
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(*args, "--out", str(a))[0] == 0
    assert run(*args, "--out", str(b))[0] == 0
    files = sorted(p.name for p in a.glob("*.jsonl"))
    assert len(files) == 5 and all((a / f).read_bytes() == (b / f).read_bytes() for f in files)
    code, out, _ = run("check", str(a), "--json")
    assert code == 0 and all(json.loads(line)["ok"] for line in out.splitlines())
    header = json.loads((a / files[0]).read_text().splitlines()[0])
    assert header["options"]["decks"][:2] == ["blue", "violet"]
    assert set(header["options"]["deck_hashes"]) == {"blue", "violet", "red", "green", "orange", "yellow"}


def test_simulate_with_a_deck_file_by_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARREN_DECKS", raising=False)  # the command adds the deck's folder to it
    deck = tmp_path / "mine" / "mine.toml"
    deck.parent.mkdir()
    deck.write_text('format = 1\n[deck]\nid = "mine"\ntitle = "mine"\nkind = "personal"\n\n'
                    '[[list]]\ncard = "WB01"\ncopies = 20\n\n[[list]]\ncard = "WB03"\ncopies = 2\n\n'
                    '[[list]]\ncard = "WB09"\ncopies = 2\n\n[[list]]\ncard = "WG01"\ncopies = 36\n')
    code, _, err = run("simulate", "killer-bunnies-odyssey", "--games", "1", "--seed", "1",
                       "--decks", f"{deck},blue", "--out", str(tmp_path / "out"), "--max-events", "200")
    assert code == 0, err
    game = next((tmp_path / "out").glob("*.jsonl"))
    header = json.loads(game.read_text().splitlines()[0])
    assert header["options"]["decks"] == ["mine", "blue"]
    assert header["options"]["deck_lists"]["mine"]["WG01"] == 36


def test_the_hand_size_dispute_shows_both_readings() -> None:
    game = FIXTURES / "mulligan-tie-and-hexascrewup.jsonl"
    code, out, _ = run("dispute", "verdict", str(game), "--at", "3", "--action", "draw actor=0")
    assert code == 1
    assert "ILLEGAL by ODY-HAND-1" in out and "under the 7-card reading it would be legal" in out
    code, out, _ = run("dispute", "rerun", str(game), "--option", "hand_size=7")
    assert code == 0
    assert "hand size 5 -> 7" in out and "first difference at event 4" in out and "ODY-HAND-1" in out
