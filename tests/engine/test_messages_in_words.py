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


@pytest.mark.parametrize("path", ILLEGAL, ids=lambda p: p.stem)
def test_the_refusal_of_an_illegal_fixture_reads_in_the_table_s_words(path: Path) -> None:
    checked = check_path(path)
    if checked.violation is None:
        pytest.skip("refused before its rules (a broken chain)")
    names = [p["name"] for p in json.loads(path.read_text(encoding="utf-8").splitlines()[0])["players"]]
    said = get_ruleset(checked.ruleset).say(checked.violation.message, names)
    assert not re.search(r"\bseats? \d", said), said
    assert not re.search(r"\bcard \d+\b(?! \()", said), said  # a card by its name, its number after
    if checked.ruleset == "bunnies":
        assert not re.search(r"\b[2-9TJQKA][CDHS]\b", said), said  # faces, 9♣, never 9C
    assert "{" not in said and "Expected" not in said


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
