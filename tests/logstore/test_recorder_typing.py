"""One reader for Enter, Tab and suggestions: what Tab completes a line to is what Enter
records, card names are read from their first words, and a mistyped word is answered
with the names it is like."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from engine.dispute import Dispute
from engine.registry import get_ruleset
from logstore.cli import main
from logstore.recording.completion import completions
from logstore.recording.entries import read_entry
from logstore.recording.session import TableSession, table_header
from logstore.recording.shorthand import AmbiguousEntry
from logstore.store import Store
from logstore.store.checking import check_path


def _bunnies_to_lay(tmp_path: Path) -> TableSession:
    session = TableSession.start(Store(tmp_path / "w.db"),
                                 table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0}, game_id="b"))
    session.enter(read_entry(session, ""))  # the deal, unseen
    session.enter(read_entry(session, "draw"))
    return session


def _kinder_to_play(tmp_path: Path) -> TableSession:
    session = TableSession.start(Store(tmp_path / "w.db"), table_header(
        "kinderbunnies", ["Ann", "Bo"], {"level": "beginner", "youngest": 0}, game_id="k"))
    while session.chance_template() is not None:
        session.enter(read_entry(session, ""))  # the deal, unseen
    return session


@pytest.mark.parametrize("typed", ["la", "lay q", "lay queen", "lay queen of c", "9", "p", "Ann: la"])
def test_every_line_tab_offers_is_one_enter_records(tmp_path: Path, typed: str) -> None:
    session = _bunnies_to_lay(tmp_path)
    offers = session.offers()
    found = completions(session, offers, typed)
    assert found, f"Tab offers nothing for {typed!r}"
    allowed = {(type(o.event), repr(o.event.__struct_fields__)) for o in offers}
    for completion in found:
        event = read_entry(session, completion.line)
        assert (type(event), repr(event.__struct_fields__)) in allowed
        assert completion.said.startswith("Ann ")
    # Enter reads the line typed as exactly the one completion, or names them all back
    try:
        entered = read_entry(session, typed)
    except AmbiguousEntry:
        assert len(found) > 1
    else:
        assert [read_entry(session, c.line) for c in found] == [entered]


def test_tab_completes_the_queens_and_enter_asks_which(tmp_path: Path) -> None:
    session = _bunnies_to_lay(tmp_path)
    lines = [c.line for c in completions(session, session.offers(), "lay queen")]
    assert lines[:4] == ["lay QC", "lay QD", "lay QH", "lay QS"]
    with pytest.raises(AmbiguousEntry, match="could be Ann lays Q♣; Ann lays Q♦"):
        read_entry(session, "lay queen")
    assert read_entry(session, "lay queen of clubs") == read_entry(session, "lay QC")


def test_a_terminal_tab_inserts_what_every_lay_shares_not_the_first_lay(tmp_path: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent, get_common_complete_suffix
    from prompt_toolkit.document import Document

    from logstore.cli.record import entry_completer
    from logstore.recording.completion import EntryChoices

    session = _bunnies_to_lay(tmp_path)
    completer = entry_completer(EntryChoices(session, session.offers()))
    document = Document("la")
    found = list(completer.get_completions(document, CompleteEvent(completion_requested=True)))
    assert len(found) > 4 and found[0].display_meta_text == "Ann lays 2♣"
    # what the first Tab inserts (prompt_toolkit inserts the part every completion shares)
    assert get_common_complete_suffix(document, found) == "y "
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("Ann, Bo\n" "\n\n" "\n" "draw\n" "lay 9C\n" ":quit\n")
        result = CliRunner().invoke(main, ["record", "bunnies", "--option", "first_seat=0", "--game-id", "t",
                                           "--out", str(tmp_path / "g.jsonl"),
                                           "--db", str(tmp_path / "t.db")])
    assert "recorded 3: Ann lays 9♣" in result.output, result.output
    assert check_path(tmp_path / "g.jsonl").events == 3


def test_the_first_words_of_one_card_s_name_are_that_card(tmp_path: Path) -> None:
    session = _kinder_to_play(tmp_path)
    recorded = session.enter(read_entry(session, "play blue perky"))
    assert "Blue Perky Bunny" in session.ruleset.describe(recorded.event, session.names)  # type: ignore[union-attr]
    # the dispute box reads the notation the same way (no "'blue' begins the names of")
    record = session.store.record("k")
    dispute = Dispute.of_record(session.ruleset, record.header, record.events)
    assert dispute.verdict("play blue perky", at=len(record.events) - 1).status == "legal"


def test_a_mistyped_word_is_answered_with_the_names_it_is_like(tmp_path: Path) -> None:
    reader = get_ruleset("kinderbunnies").card_reader()  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="did you mean Violet Hero Bunny"):
        reader.read("violt")
    with pytest.raises(Exception, match="did you mean Violet Perky Bunny"):
        reader.read("violt perky bunny")
    with pytest.raises(Exception, match=r"no card 'zzzz'$"):
        reader.read("zzzz")


def test_a_blind_card_is_typed_by_its_place_as_the_words_name_it(tmp_path: Path) -> None:
    header = table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0, "steal_from": "hand_or_blind"},
                          game_id="bl")
    session = TableSession.start(Store(tmp_path / "w.db"), header, out=tmp_path / "bl.jsonl")
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    for line in ("draw", "lay 9C 9D 9H 9S"):  # a bunny: Ann's steal is owed
        session.enter(line)
    # "Ann steals Bo's blind card 4": columns counted 1 to 4, as the words say them
    assert read_entry(session, "steal blind 4") == read_entry(session, "steal ? 1.3")
    assert read_entry(session, "steal blind card 1") == read_entry(session, "steal ? 1.0")
    lines = [c.line for c in completions(session, session.offers(), "steal bl")]
    assert sorted(lines) == ["steal ? 1.0", "steal ? 1.3"]  # the covered ones are not offered
