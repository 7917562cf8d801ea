"""Recording a game at the table: the session, the recorder's loop, and `warren record`
driven through its real prompts (prompt_toolkit's own pipe input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from engine.record import FORMAT_VERSION
from logstore.cli import main
from logstore.cli.record import run_recorder
from logstore.recording.session import Refusal, TableSession, table_header
from logstore.store import StaleSeq, Store
from logstore.store.checking import check_path


def scripted(answers: list[str]):  # type: ignore[no-untyped-def]
    """An ``ask`` that gives the answers in turn, then stops the recorder (end of input)."""
    pending = list(answers)

    def ask(question: str, choices: list[str]) -> str:
        if not pending:
            raise EOFError
        return pending.pop(0)

    return ask


@pytest.fixture()
def session(tmp_path: Path) -> TableSession:
    store = Store(tmp_path / "w.db")
    header = table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0}, game_id="ann-bo")
    return TableSession.start(store, header, out=tmp_path / "ann-bo.jsonl")


def test_a_scorekeeper_records_a_bunnies_game_nobody_saw_the_hands_of(session: TableSession) -> None:
    out: list[str] = []
    run_recorder(session, scripted(["", "draw", "lay 9C", "draw", "lay 5C", "pickup", ":undo miscounted",
                                    "pickup"]), out.append)
    text = "\n".join(out)
    assert "refused by BUN-LAY-2: Bo may not lay: 5♣ does not equal or beat the top card 9♣" in text  # faces
    assert "undetermined [BUN-PICKUP-1]: legal only if Bo's hand held no card of rank 9 or higher" in text
    assert "entry 5 struck (miscounted)" in text
    assert session.seq == 7  # deal, draw, lay, draw, pickup, the undo, the pickup again
    checked = check_path(session.out)  # type: ignore[arg-type]
    assert checked.ok and checked.chain == "sealed" and checked.events == 7
    assert [u.rule for u in checked.undetermined] == ["BUN-PICKUP-1"]  # the struck pickup is not judged
    header = json.loads(session.out.read_text().splitlines()[0])  # type: ignore[union-attr]
    assert header["source"] == "recorded" and header["warren"] == FORMAT_VERSION
    # how to go on, with the file it writes (--resume alone forgot --out)
    assert f"can be resumed with --resume ann-bo --out {session.out}" in text


def test_the_deal_is_proposed_as_the_table_saw_it(session: TableSession) -> None:
    template = session.chance_template()
    assert template is not None and template.complete
    assert set(template.event.hands[0]) == {"?"}  # type: ignore[attr-defined]
    session.enter(template.event)
    assert session.chance_template() is None
    assert {o.notation for o in session.offers()} == {"draw"}


def test_an_illegal_entry_writes_nothing(session: TableSession) -> None:
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    verdict = session.enter("lay 9C")
    assert isinstance(verdict, Refusal) and verdict.rule == "BUN-DRAW-1" and verdict.text
    assert session.seq == 1 and session.store.game("ann-bo").n_events == 1


def test_two_devices_recording_one_game_never_fork_it(session: TableSession) -> None:
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    other = TableSession(session.store, "ann-bo")
    other.enter("draw")
    with pytest.raises(StaleSeq):
        session.enter("draw")
    session.refresh()
    assert session.seq == 2 and session.state.phase == "lay"


def test_a_correction_replaces_an_earlier_entry(session: TableSession) -> None:
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    session.enter("draw")
    session.enter("lay 9C")
    session.correct(3, "lay 8C", "it was the eight")
    assert session.state.pile == ["8C"]  # type: ignore[attr-defined]
    assert check_path(session.out).ok  # type: ignore[arg-type]


def test_warren_record_through_its_prompts(tmp_path: Path) -> None:
    db, out = tmp_path / "w.db", tmp_path / "g.jsonl"
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        # the players, then Enter for each option asked (hand size, what may be stolen), the deal
        pipe.send_text("Ann, Bo\n" "\n\n" "\n" "draw\n" "lay 9C\n" "draw\n" "lay 4D\n" ":quit\n")
        result = CliRunner().invoke(main, ["record", "bunnies", "--option", "first_seat=0", "--game-id", "t1",
                                           "--out", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "refused by BUN-LAY-2" in result.output and "resumed with --resume t1" in result.output
    checked = check_path(out)
    assert checked.ok and checked.events == 4
    assert CliRunner().invoke(main, ["check", str(out)]).exit_code == 0


def test_warren_redact_writes_the_game_as_the_table_saw_it(tmp_path: Path) -> None:
    runner = CliRunner()
    games = tmp_path / "games"
    simulated = runner.invoke(main, ["simulate", "bunnies", "--games", "1", "--seed", "3",
                                     "--out", str(games)])
    assert simulated.exit_code == 0
    source = next(games.glob("*.jsonl"))
    for who in ("spectator", "0", "1"):
        out = tmp_path / f"as-{who}.jsonl"
        done = runner.invoke(main, ["redact", str(source), "--out", str(out), "--as", who, "--json"])
        assert done.exit_code == 0, done.output
        checked = check_path(out)
        assert checked.ok and checked.violation is None, who
        assert json.loads(out.read_text().splitlines()[0])["source"] == "recorded"
    done = runner.invoke(main, ["redact", str(source), "--out", str(tmp_path / "x.jsonl"), "--as", "referee"])
    assert done.exit_code == 2 and "referee saw everything" in done.output


def test_chance_the_table_saw_is_typed_in_and_bad_values_are_told_not_raised(tmp_path: Path) -> None:
    store = Store(tmp_path / "w.db")
    header = table_header("trust-no-bunny", ["Ann", "Bo", "Cy", "Di", "Ed"], game_id="tnb-table")
    session = TableSession.start(store, header)
    template = session.chance_template()
    assert template is not None and not template.complete and "first_mayor" in template.fields
    out: list[str] = []
    run_recorder(session, scripted(["roles first_mayor=x", "roles first_mayor=2", ""]), out.append)
    text = "\n".join(out)
    assert "not recorded: cannot read 'roles first_mayor=x'" in text
    assert session.seq == 2  # the roles as typed, then the offers nobody saw
    assert session.state.mayor == 2  # type: ignore[attr-defined]


def test_a_quest_game_is_recorded_by_the_names_of_its_cards(tmp_path: Path) -> None:
    """Cards were typed by catalogue number ("play 17"): now by name, and Tab and ``?``
    offer names, in words, never a number where the name will do."""
    import msgspec

    from engine.dispute.notation import format_action
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    rs = get_ruleset("killer-bunnies-quest")
    game = simulate_one(rs, 3, 1, players=2, bots=("random",), max_events=60)
    header = msgspec.structs.replace(game.header, game_id="by-names", source="recorded")
    session = TableSession.start(Store(tmp_path / "w.db"), header)
    names = [p.name for p in header.players]
    offered: list[str] = []
    typed: list[str] = []

    questions: list[str] = []

    def ask(question: str, choices: list[str]) -> str:
        offered.extend(choices)
        questions.append(question)
        if session.seq >= 40 or len(typed) > 200:
            raise EOFError
        event = game.events[session.seq]
        if event.actor is None:
            return format_action(session.ruleset, event)  # chance, as the record has it
        line = f"{names[event.actor]}: {format_action(session.ruleset, event, named=True)}"
        typed.append(line)
        return line

    out: list[str] = []
    run_recorder(session, ask, out.append)
    assert session.seq >= 40, "\n".join(out[-5:])
    assert not any(line.startswith("not recorded") or line.startswith("refused") for line in out), out
    recorded = Store(tmp_path / "w.db").export("by-names").decode().splitlines()[1:41]
    original = b"".join(game.lines()).decode().splitlines()[1:41]
    strip = [{k: v for k, v in json.loads(line).items() if k != "hash"} for line in recorded]
    assert strip == [{k: v for k, v in json.loads(line).items() if k != "hash"} for line in original]
    words = session.ruleset.card_words()  # type: ignore[attr-defined]
    runs = [e for e in game.events if type(e).__name__ == "Runs"]
    for event in runs:  # the run cards went in by their names, not their numbers
        line = next(t for t in typed if t.startswith(f"{names[event.actor]}: runs "))
        for card in (event.top, event.bottom):  # type: ignore[attr-defined]
            assert words.name(card).replace("'", "") in line and f" {card} " not in f"{line} "
    assert any(c.startswith("runs ") and not c.split(" ", 1)[1][0].isdigit() for c in offered)
    listing: list[str] = []
    run_recorder(session, scripted(["?"]), listing.append)
    assert any(": type `" in line for line in listing)  # each action in words, then what to type
    # A chance prompt says whose draw or roll it is ("[22] draw (unseen by the table)" did not).
    chances = [q for q in questions if "the table saw" in q or "unseen by the table" in q]
    owned = [q for q in chances if any(f"] {n}'s " in q for n in names)]
    assert owned, chances[:5]
    corrected: list[str] = []
    run_recorder(session, scripted([":correct 99 draw -- miscounted"]), corrected.append)
    assert f"not recorded: there is no entry 99: this game has entries 1 to {session.seq}" in corrected


def _bunnies_after(session: TableSession, *lines: str) -> None:
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    for line in lines:
        assert not isinstance(session.enter(line), Refusal), line


def test_a_correction_that_breaks_a_later_entry_offers_to_correct_it_too(session: TableSession) -> None:
    # Ann lays 9♣, Bo draws and lays 10♣ over it. Saying Ann laid a king instead makes
    # Bo's 10♣ illegal; the recorder asks for that entry in the same batch.
    _bunnies_after(session, "draw", "lay 9C", "draw", "lay TC")
    out: list[str] = []
    run_recorder(session, scripted([":correct 3 lay KC -- it was the king", "lay AC", ":quit"]), out.append)
    text = "\n".join(out)
    assert "with that correction entry 5 would break BUN-LAY-2" in text
    assert "entry 3 corrected (it was the king)" in text and "entry 5 corrected (it was the king)" in text
    assert session.state.pile == ["KC", "AC"]  # type: ignore[attr-defined]
    assert check_path(session.out).ok  # type: ignore[arg-type]


def test_giving_up_a_correction_that_breaks_a_later_entry_writes_nothing(session: TableSession) -> None:
    _bunnies_after(session, "draw", "lay 9C", "draw", "lay TC")
    before = session.seq
    out: list[str] = []
    run_recorder(session, scripted([":correct 3 lay KC -- it was the king", "", ":quit"]), out.append)
    assert "nothing was corrected" in "\n".join(out) and session.seq == before


def test_a_stale_session_shows_what_it_missed_and_goes_on(session: TableSession) -> None:
    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    other = TableSession(session.store, "ann-bo")
    out: list[str] = []

    def ask(question: str, choices: list[str]) -> str:
        if session.seq == 1 and other.seq == 1:
            other.enter("draw")  # the other device records while this one waits
            return "draw"  # typed here for the same turn: stale
        if session.seq == 2 and ":show" not in asked:
            asked.append(":show")
            return ":show"
        raise EOFError

    asked: list[str] = []
    run_recorder(session, ask, out.append)
    text = "\n".join(out)
    assert "meanwhile, 1 event(s) were recorded on another device:" in text
    assert "  2: Ann draws a card" in text
    assert "not recorded: the game had moved on; type 'draw' again if it still stands" in text
    assert session.seq == 2 and session.store.game("ann-bo").n_events == 2


def test_resume_goes_on_writing_the_record_file(tmp_path: Path) -> None:
    db, out = tmp_path / "w.db", tmp_path / "g.jsonl"
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("Ann, Bo\n" "\n" ":quit\n")  # --defaults: no option asked
        CliRunner().invoke(main, ["record", "bunnies", "--defaults", "--game-id", "t2",
                                  "--out", str(out), "--db", str(db)])
    assert len(out.read_text().splitlines()) >= 2
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text("draw\n" ":quit\n")
        result = CliRunner().invoke(main, ["record", "--resume", "t2", "--db", str(db)])
    assert f"also written to {out.resolve()}" in result.output, result.output
    assert check_path(out).events == 2  # the deal and the draw, written by the resumed session


def test_notation_errors_say_the_field_and_what_it_takes(session: TableSession) -> None:
    from logstore.recording.entries import read_entry

    session.enter(session.chance_template().event)  # type: ignore[union-attr]
    with pytest.raises(Exception) as caught:
        read_entry(session, "flip")
    said = str(caught.value)
    assert "flip needs its slot" in said
    assert "Object missing" not in said and "`" not in said and "$." not in said


def test_the_recorder_asks_the_options_with_their_defaults(tmp_path: Path) -> None:
    from logstore.cli.record import ask_options

    asked: list[str] = []
    answers = ["advanced", "bo", "", "maybe", "yes"]  # level, youngest by name, default, a wrong answer

    def ask(question: str, choices: list[str]) -> str:
        asked.append(question)
        return answers.pop(0)

    said: list[str] = []
    chosen = ask_options("kinderbunnies", {}, ["Ann", "Bo"], ask, said.append)
    assert chosen == {"level": "advanced", "youngest": 1, "beginner_bad_news": True}
    assert asked[0] == "level [beginner] (advanced, beginner, really-advanced): "
    assert asked[1] == "youngest [Ann] (Ann or Bo): "  # a seat, by its player's name
    assert [s for s in said if s.startswith("not taken")] == ["not taken: 'maybe': answer yes or no"]
    assert asked[3] == asked[4]
    # an option given beforehand is not asked
    assert ask_options("kinderbunnies", {"level": "beginner", "youngest": 0, "carrot_pick": "top",
                                         "beginner_bad_news": False}, ["Ann", "Bo"], ask, said.append)


def test_what_the_table_saw_of_chance_is_asked_for_whatever_the_game_id(tmp_path: Path) -> None:
    """The first mayor of Trust No Bunny is dealt in the open: the template asks for it.
    Found by drawing outcomes; with 4 draws, game 'tnb-71' drew the same mayor in all four and
    was told the table had seen nothing (one five-player game in 125)."""
    store = Store(tmp_path / "w.db")
    for game_id in ["tnb-71", *(f"tnb-{i}" for i in range(40))]:
        header = table_header("trust-no-bunny", ["A", "B", "C", "D", "E"], game_id=game_id)
        template = TableSession.start(store, header).chance_template()
        assert template is not None and not template.complete and template.fields == ["first_mayor"], game_id


def test_a_blind_card_stolen_unseen_is_recorded_by_its_slot(tmp_path: Path) -> None:
    # under steal_from hand_or_blind the table sees which blind card leaves, not its face
    header = table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0, "steal_from": "hand_or_blind"},
                          game_id="blind")
    session = TableSession.start(Store(tmp_path / "w.db"), header, out=tmp_path / "blind.jsonl")
    _bunnies_after(session, "draw", "lay 9C 9D 9H 9S")  # a bunny: Ann's steal is owed
    assert {"steal ? 1.0", "steal ? 1.3"} <= {o.notation for o in session.offers()}
    refused = session.enter("steal ? 1.1")  # under the left shared card
    assert isinstance(refused, Refusal) and refused.rule == "BUN-BUNNY-3"
    taken = session.enter("steal ? 1.3")
    assert not isinstance(taken, Refusal) and taken.said == "Ann steals Bo's blind card 4"
    assert "1.3" not in session.state.blinds  # type: ignore[attr-defined]
    assert check_path(session.out).ok  # type: ignore[arg-type]
