"""A redacted record judges the game as the full record does, or is not written."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.reader import check_events, read_record
from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.rules import WarrenError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("name", ["triplets", "trades-both-ways", "weapons-tour"])
def test_a_quest_record_made_at_the_table_with_every_order_redacts_to_a_legal_record(name: str) -> None:
    """A record made at the table whose set-up names every order is whole from its set-up
    on: the table form of it writes the deal out as draws, so it checks legal."""
    path = FIXTURES / "killer-bunnies-quest" / f"{name}.jsonl"
    record = read_record(path.read_bytes(), str(path))
    assert record.header.source == "recorded"
    rs = get_ruleset(record.header.ruleset)
    assert check_events(rs, record.header, record.events) is None
    for perspective in [*range(len(record.header.players)), "spectator"]:
        header, events = redact_game(rs, record.header, record.events, perspective)
        assert check_events(rs, header, events) is None, f"as {perspective} saw it"


def test_a_legal_game_whose_copy_would_read_illegal_is_refused_in_words() -> None:
    """A Bunnies steal of an uncovered blind card (steal_from hand_or_blind) cannot be written
    as the table saw it (an unseen steal is from the hand, R-BUN-17): refused, not written."""
    path = FIXTURES / "bunnies" / "steal-takes-the-last-card.jsonl"
    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("bunnies")
    assert check_events(rs, record.header, record.events) is None
    with pytest.raises(WarrenError, match="is legal, but the game as the table saw it would read illegal"):
        redact_game(rs, record.header, record.events, "spectator")
