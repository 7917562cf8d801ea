"""Every refusal a person reads names the players by name and the cards as the table names
them: the messages of every illegal fixture, through ``Ruleset.say``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.registry import get_ruleset
from engine.wording import seats_named
from logstore.store.checking import check_path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ILLEGAL = sorted(FIXTURES.rglob("*illegal*.jsonl"))


def assert_in_words(slug: str, said: str, players: int, actor: str | None = None) -> None:
    """A refusal as a person reads it: the player refused named (``actor``, where somebody
    acted), no seat numbers (but a seat nobody sits at), no card by its number or code
    alone, no Python or JSON literals (a list, a dict, ``key=value``, ``None``), no internal
    ids (``mystical_recipe``) or notation hints (``(on=...)``), no piece numbers."""
    if actor is not None:
        assert actor in said, f"{actor} is not named: {said}"
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", said), said  # an id, not a name
    assert not re.search(r"=|\bNone\b|\(it is \w+\)", said), said
    for m in re.finditer(r"\bseats? (\d+)", said):
        assert int(m[1]) >= players, said
    assert not re.search(r"(?<!blind )\bcard \d+(?![\d (♣♦♥♠])", said), said  # by name, number after
    assert not re.search(r"\[\d|\[\]|\{|\w=\[|\bnot \d+ or \d+\b|Expected", said), said
    assert not re.search(r"\bpiece \d", said), said
    assert not re.search(r"(?<![(\w])[A-Z]{2}\d{2}\b(?!\))", said), said  # Odyssey: name (code)
    if slug == "bunnies":
        assert not re.search(r"\b[2-9TJQKA][CDHS]\b", said), said  # faces, 9♣, never 9C
        assert not re.search(r"\bslot [01]\.[0-3]\b", said), said  # Bo's blind card 2


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_the_refusal_of_an_illegal_fixture_reads_in_the_table_s_words(path: Path) -> None:
    checked = check_path(path)
    if checked.violation is None:
        pytest.skip("refused before its rules (a broken chain)")
    lines = path.read_text(encoding="utf-8").splitlines()
    names = [p["name"] for p in json.loads(lines[0])["players"]]
    assert checked.ruleset is not None
    said = get_ruleset(checked.ruleset).say(checked.violation.message, names)
    refused = next((json.loads(line) for line in lines[1:]
                    if json.loads(line).get("seq") == checked.violation.seq), {})
    actor = refused.get("actor")
    assert_in_words(checked.ruleset, said, len(names), None if actor is None else names[actor])


def test_warren_check_names_the_players_of_an_illegal_record() -> None:
    from click.testing import CliRunner

    from logstore.cli import main

    path = FIXTURES / "killer-bunnies-quest"
    found = CliRunner().invoke(main, ["check", str(path / "illegal-KBQ-TRADE-1-seq-14-trade-on-a-third"
                                                  "-players-turn.jsonl")])
    assert "it is Ada's turn, not Bo's or Cy's" in found.output, found.output
    assert "seat " not in found.output


@pytest.mark.parametrize(("message", "said"), [
    ("it is seat 1's go, not seat 0's", "it is Bo's go, not Ann's"),
    ("seats 0, 1 and 2 may act", "Ann, Bo and Cy may act"),
    ("seat 0 or seats 1 or 2", "Ann or Bo or Cy"),
    ("seat 7 is not in the game", "seat 7 is not in the game"),
])
def test_seats_are_named_by_their_players(message: str, said: str) -> None:
    assert seats_named(message, ["Ann", "Bo", "Cy"]) == said


def test_cards_are_named_name_first() -> None:
    quest = get_ruleset("killer-bunnies-quest")
    assert quest.say("card 24 goes on an opponent's bunny, not on seat 0's own bunny 1", ["Ann"]) == \
        "Feed The Bunny 1/1 (24) goes on an opponent's bunny, not on Ann's own Blue Congenial Bunny (1)"
    assert quest.say("card 999 is no card", None) == "card 999 is no card"
    odyssey = get_ruleset("killer-bunnies-odyssey")
    assert odyssey.say("WG14 Thorn Sling has a pink box", None) == "Thorn Sling (WG14) has a pink box"
    bunnies = get_ruleset("bunnies")
    assert bunnies.say("'9C' does not equal or beat the top card QH", None) == \
        "9♣ does not equal or beat the top card Q♥"
