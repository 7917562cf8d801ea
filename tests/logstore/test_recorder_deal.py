"""A deal nobody at the table saw is one entry, and each option the recorder asks says what
it decides and what its values mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.options import questions
from engine.registry import get_ruleset, known_slugs
from logstore.cli.record import ask_options, run_recorder
from logstore.recording.entries import read_entry
from logstore.recording.session import TableSession, table_header
from logstore.store import Store
from logstore.store.checking import check_path
from tests.logstore.test_recorder import scripted


def test_one_enter_records_a_whole_kinderbunnies_deal(tmp_path: Path) -> None:
    session = TableSession.start(Store(tmp_path / "w.db"), table_header(
        "kinderbunnies", ["Ann", "Bo", "Cy"], {"level": "beginner", "youngest": 0}, game_id="k"),
        out=tmp_path / "k.jsonl")
    said: list[str] = []
    run_recorder(session, scripted([""]), said.append)
    assert "recorded 1-12: the deal, 12 cards nobody saw (4 to Ann, 4 to Bo, 4 to Cy)" in said
    assert session.chance_template() is None  # Ann's turn: the deal is over
    checked = check_path(tmp_path / "k.jsonl")
    assert checked.ok and checked.events == 12


def test_a_card_of_the_deal_the_table_saw_is_typed_and_the_rest_is_one_entry(tmp_path: Path) -> None:
    session = TableSession.start(Store(tmp_path / "w.db"), table_header(
        "kinderbunnies", ["Ann", "Bo"], {"level": "beginner", "youngest": 0}, game_id="k"))
    session.enter(read_entry(session, "Blue Hero Bunny"))  # the first card, seen
    dealt = session.enter_unseen_deal()
    assert len(dealt) == 7 and session.seq == 8
    with pytest.raises(Exception, match="no deal nobody saw is owed now"):
        session.enter_unseen_deal()


def test_a_quest_deal_at_the_table_is_one_entry(tmp_path: Path) -> None:
    session = TableSession.start(Store(tmp_path / "w.db"), table_header(
        "killer-bunnies-quest", ["Ann", "Bo"], {}, game_id="q"))
    session.enter(read_entry(session, "setup first=0"))  # the set-up: who goes first, seen
    dealt = session.enter_unseen_deal()
    assert len(dealt) == 14  # seven cards each, one at a time
    assert {a.event.seat for a in dealt} == {0, 1}  # type: ignore[attr-defined]


@pytest.mark.parametrize("slug", known_slugs())
def test_every_option_the_recorder_asks_is_explained(slug: str) -> None:
    ruleset = get_ruleset(slug)
    for question in questions(ruleset.options_type, ruleset.record_options({})):
        assert ruleset.option_help.get(question.name), f"{slug}: option {question.name} is not explained"


def test_the_carrot_pick_option_says_what_choose_and_top_mean() -> None:
    said: list[str] = []
    ask_options("kinderbunnies", {}, ["Ann", "Bo"], scripted(["", "", "", ""]), said.append)
    line = next(s for s in said if s.startswith("carrot pick:"))
    assert "choose = any carrot" in line and "top = the first letter left" in line
