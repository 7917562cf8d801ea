"""``warren dispute`` speaks the table's words for every ruleset: a rerun's differences, a
branch's alternatives and divergence, an explanation's effects, a verdict's proposed action
and position, with players by name and cards by name (faces for Bunnies), no JSON, no
hashes, no seat numbers; the data stays under ``--json``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from logstore.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

RERUNS = [
    ("bunnies/race-to-go-out.jsonl", "steal_from=hand_or_blind"),
    ("killer-bunnies-quest/gambles.jsonl", "reshuffle_supplies=true"),
    ("killer-bunnies-odyssey/board.jsonl", "hand_size=7"),
    ("kinderbunnies/advanced-re-roll.jsonl", "youngest=1"),
    ("trust-no-bunny/defences-down.jsonl", "rejection_raise=one"),
]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.output


def assert_words(text: str, players: int) -> None:
    assert not re.search(r"\b[0-9a-f]{64}\b", text), text      # no hash
    assert "{" not in text and '":' not in text, text          # no JSON
    assert not re.search(r"\w=\[|\[\d", text), text            # no key=value, no list literal
    for m in re.finditer(r"\bseats? (\d+)", text):
        assert int(m[1]) >= players, text


def players_of(path: Path) -> int:
    return len(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["players"])


@pytest.mark.parametrize(("name", "option"), RERUNS, ids=[r[0].split("/")[0] for r in RERUNS])
def test_a_rerun_tells_its_differences_in_words(name: str, option: str) -> None:
    path = FIXTURES / name
    text = run("dispute", "rerun", str(path), "--option", option)
    assert "options changed: " in text and "_" not in text.splitlines()[1], text
    assert_words(text, players_of(path))
    data = json.loads(run("dispute", "rerun", str(path), "--option", option, "--json"))
    assert data["changed"], data  # the data itself keeps the record's spelling


def test_the_odyssey_rerun_names_cards_and_leaves_out_the_deck_hash() -> None:
    text = run("dispute", "rerun", str(FIXTURES / "killer-bunnies-odyssey/board.jsonl"), "--option",
               "hand_size=7")
    assert "Agriculture (WG01)" in text and "Ada holds 5 cards" in text
    assert "deck hash [ODY-DECK-2] (deck: green; seat: Bo)" in text


@pytest.mark.parametrize(("name", "option"), RERUNS, ids=[r[0].split("/")[0] for r in RERUNS])
def test_explain_tells_the_effects_in_words(name: str, option: str) -> None:
    path = FIXTURES / name
    text = run("dispute", "explain", str(path), "5")
    assert "notation:" not in text and "phase " not in text.splitlines()[0], text
    assert_words(text, players_of(path))


def test_a_verdict_proposes_in_words_and_reads_the_position_player_by_player() -> None:
    path = FIXTURES / "killer-bunnies-quest/illegal-KBQ-TRADE-4-seq-14-run-card-traded.jsonl"
    text = run("dispute", "verdict", str(path), "--at", "13", "--action", "trade 1 give=92 get=38",
               "--seat", "0")
    assert "proposed: Ada trades with Bo: gives 2 Dolla (92), gets Bow & Arrow (38)" in text, text
    assert "bunnies: Ada 1, Bo 1, Cy 1" in text and "Dolla: Ada 2 Dolla, Bo 0 Dolla" in text, text
    assert "card 0" not in text
    assert_words(text, 3)


def test_a_branch_tells_its_alternative_and_divergence_in_words(tmp_path: Path) -> None:
    path = FIXTURES / "bunnies/race-to-go-out.jsonl"
    text = run("dispute", "branch", str(path), "--at", "6", "--action", "steal 7C", "--out",
               str(tmp_path / "b.jsonl"))
    assert "event 7: Bo steals 7♣ from Ada -> card stolen [BUN-BUNNY-3]" in text, text
    assert "divergence: the parent's event 9 (Ada lays 7♣ 7♦ 7♥ 7♠)" in text, text
    assert "7♣ is not in Ada's hand" in text
    assert_words(text, 2)
    refused = CliRunner().invoke(main, ["dispute", "branch", str(path), "--at", "6", "--action", "pickup",
                                        "--out", str(tmp_path / "c.jsonl")])
    assert refused.exit_code == 1
    assert "proposed: Bo picks up the face-up pile" in refused.output, refused.output
    assert_words(refused.output, 2)
