"""The Record page, driven through Streamlit's AppTest: a game started and recorded at the
table with the pickers and the typed notation, a refusal with its rule, an undetermined
entry, undo and a correction, the sealed record downloaded, a game resumed by its link, and
a second device's append refused as stale, never forked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.recording.session import TableSession, table_header
from logstore.store import Store
from logstore.store.checking import check_bytes
from tests.dashboard.conftest import APP, build_store, html_text, texts

LAY_2 = get_ruleset("bunnies").rulebook["BUN-LAY-2"]
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A store of its own (these tests write games), holding two simulated games."""
    path = build_store(tmp_path / "warren.db", games=2)
    monkeypatch.setenv("WARREN_DB", str(path))
    yield path


@pytest.fixture()
def downloads(monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """What each download button of a run would hand the browser, by file name."""
    served: dict[str, bytes] = {}
    original = MemoryMediaFileStorage.load_and_get_id

    def spy(self: MemoryMediaFileStorage, path_or_data: Any, mimetype: str, kind: Any,
            filename: str | None = None) -> str:
        if filename is not None and isinstance(path_or_data, bytes):
            served[filename] = path_or_data
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", spy)
    return served


def page(**params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("screens/record.py").run()
    assert not at.exception, at.exception
    return at


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run(at)


def pills(at: AppTest, label: str) -> Any:
    return next(p for p in at.get("button_group") if p.proto.label == label)


def typed(at: AppTest, text: str) -> AppTest:
    at.text_input(key="rec_text").input(text)
    return click(at, "rec_enter")


def game_of(at: AppTest) -> str:
    value = at.query_params["game"]
    return value[0] if isinstance(value, list) else value


def start(names: list[str], ruleset: str = "bunnies", **options: Any) -> AppTest:
    at = page()
    if ruleset != "bunnies":
        at.selectbox(key="rec_ruleset").select(ruleset)
        run(at)
        at.number_input(key=f"rec_count_{ruleset}").set_value(len(names))
        run(at)
    for seat, name in enumerate(names):
        at.text_input(key=f"rec_name_{seat}").input(name)
    for name, value in options.items():
        widget = next(w for w in at.get("selectbox") if w.key == f"rec_opt_{ruleset}_{name}")
        widget.select(value)
    return click(at, "rec_start")


def shown(at: AppTest) -> str:
    return "\n".join([texts(at.markdown), texts(at.caption), texts(at.success), texts(at.warning),
                      texts(at.error), texts(at.info), html_text(at)])


def test_record_a_bunnies_game_refused_entry_undo_and_download(store: Path,
                                                               downloads: dict[str, bytes]) -> None:
    at = start(["Ann", "Bo"], first_seat=0)
    game = game_of(at)
    with Store(store) as s:
        header = s.record(game).header
    assert header.source == "recorded" and [p.name for p in header.players] == ["Ann", "Bo"]
    assert header.options == {"first_seat": 0}
    assert "Next: the deal, recorded by the table." in shown(at)
    assert "wr-board" in html_text(at)  # the ruleset's board, as the table sees it

    click(at, "rec_chance")  # the deal, nobody's cards seen
    assert "Recorded event 1: the deal: 7 cards each" in texts(at.success)
    click(at, "rec_record")  # Ann draws: the one action offered
    assert "Recorded event 2: Ann draws a card" in texts(at.success)
    cards = pills(at, "Cards")
    assert cards.options[:4] == ["2♣", "2♦", "2♥", "2♠"]
    cards.set_value(["9C"])
    run(at)
    assert "To record: **Ann lays 9♣**" in texts(at.markdown)
    click(at, "rec_record")
    click(at, "rec_record")  # Bo draws
    assert "Recorded event 4: Bo draws a card" in texts(at.success)

    typed(at, "lay 5C")  # refused: nothing is written
    refusal = texts(at.error)
    assert "Refused** by **BUN-LAY-2**: Bo may not lay: 5♣ does not equal or beat the top card 9♣" in refusal
    assert LAY_2.text in refusal and "Nothing was written" in refusal
    assert at.text_input(key="rec_text").value == "lay 5C"  # kept, to be put right
    with Store(store) as s:
        assert s.game(game).n_events == 4

    typed(at, "Bo: pickup")  # the seat prefix of the CLI; legal only if Bo could not lay
    assert "Recorded event 5: Bo picks up the face-up pile" in texts(at.success)
    doubt = texts(at.warning)
    assert "Undetermined** by **BUN-PICKUP-1**" in doubt and "no card of rank 9 or higher" in doubt
    assert at.text_input(key="rec_text").value == ""

    click(at, "rec_undo")  # a correction striking the pickup
    assert "Recorded event 6: the table strikes event 5 (undone at the table)" in texts(at.success)
    assert "(struck at event 6)" in html_text(at)
    assert "waiting for Bo: lay" in texts(at.markdown)

    with Store(store) as s:
        sealed = s.export(game)
    assert downloads[f"{game}.jsonl"] == sealed  # the download is the store's sealed record
    checked = check_bytes(sealed, f"{game}.jsonl")
    assert checked.ok and checked.chain == "sealed" and checked.events == 6


def test_an_earlier_entry_is_corrected(store: Path) -> None:
    at = start(["Ann", "Bo"], first_seat=0)
    game = game_of(at)
    click(at, "rec_chance")
    click(at, "rec_record")
    typed(at, "lay 9C")
    at.selectbox(key="rec_pick_fix_seq").select(3)
    at.text_input(key="rec_pick_fix_text").input("lay 8C")
    at.text_input(key="rec_pick_fix_reason").input("it was the eight")
    click(at, "rec_fix_go")
    assert "Recorded event 4: the table corrects event 3 (it was the eight)" in texts(at.success)
    assert "(corrected at event 4: Ann lays 8♣)" in html_text(at)
    with Store(store) as s:
        assert s.state_at(game).pile == ["8C"]  # type: ignore[attr-defined]
    at.radio(key="rec_pick_fix_how").set_value("strike it")
    at.text_input(key="rec_pick_fix_reason").input("")
    click(at, "rec_fix_go")
    assert "Not recorded: say why" in texts(at.error)
    typed(at, "draw")
    typed(at, "lay TC")  # Bo's ten beats the eight
    at.selectbox(key="rec_pick_fix_seq").select(3)
    at.radio(key="rec_pick_fix_how").set_value("replace it")
    at.text_input(key="rec_pick_fix_text").input("lay KC")
    at.text_input(key="rec_pick_fix_reason").input("it was the king")
    click(at, "rec_fix_go")  # a king there makes Bo's ten illegal: refused, nothing written
    refusal = texts(at.error)
    assert "Refused** by **BUN-LAY-2**" in refusal and "once the correction is applied" in refusal
    with Store(store) as s:
        assert s.game(game).n_events == 6


def test_a_second_device_appending_first_is_told_not_forked(store: Path) -> None:
    at = start(["Ann", "Bo"], first_seat=0)
    game = game_of(at)
    click(at, "rec_chance")
    with Store(store) as s:  # another device records Ann's draw meanwhile
        TableSession(s, game).enter("draw")
    click(at, "rec_record")  # this page still offers the draw it showed
    stale = texts(at.warning)
    assert "Not recorded**: another device recorded meanwhile" in stale
    assert "this page showed event 1; the game is now at event 2: 2: Ann draws a card" in stale
    assert "waiting for Ann: lay" in texts(at.markdown)  # the fresh position
    with Store(store) as s:
        assert s.game(game).n_events == 2
        assert check_bytes(s.export(game), game).ok
    with Store(store) as s:
        TableSession(s, game).enter("lay 9C")
    run(at)  # any rerun says the page is behind
    assert "Another device has recorded 1 event(s)" in texts(at.warning)
    click(at, "rec_refresh")
    assert "Refreshed: another device recorded 3: Ann lays 9♣" in texts(at.info)
    assert "waiting for Bo: draw" in texts(at.markdown)


def test_a_game_is_resumed_by_its_link_and_other_links_are_explained(store: Path) -> None:
    with Store(store) as s:
        TableSession.start(s, table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0},
                                           game_id="at-the-club"))
        simulated = next(g.game_id for g in s.games() if g.source == "simulated")
    at = page()
    assert at.selectbox(key="rec_resume").options == ["at-the-club (Ann, Bo; 0 events)"]
    at = page(game="at-the-club")
    assert "Next: the deal" in shown(at) and "game at-the-club" in texts(at.caption)
    at = page(game="no-such-game")
    assert any("There is no game 'no-such-game'" in e.value for e in at.error)
    assert at.button(key="rec_start")  # back to starting one
    at = page(game=simulated)
    assert any("was not recorded at the table" in e.value for e in at.error)


def test_the_start_form_refuses_what_cannot_be_recorded(store: Path) -> None:
    at = start(["Ann", "ann"])
    assert any("two players are called 'ann'" in e.value for e in at.error)
    hand = at.number_input(key="rec_opt_bunnies_hand_size")  # a number, within the option's bounds
    assert (hand.value, hand.min, hand.max) == (7, 1, 20) and "Allowed: 1..20." in hand.help
    at = start(["Ann", ""])
    assert any("name all 2 players" in e.value for e in at.error)
    at = page()
    at.selectbox(key="rec_ruleset").select("trust-no-bunny")
    run(at)
    at.number_input(key="rec_count_trust-no-bunny").set_value(5)
    run(at)
    for seat, name in enumerate(FIVE):
        at.text_input(key=f"rec_name_{seat}").input(name)
    at.text_input(key="rec_opt_trust-no-bunny_wolves").input("[1, 2")
    click(at, "rec_start")
    assert any("option wolves" in e.value and "not JSON" in e.value for e in at.error)
    at.text_input(key="rec_opt_trust-no-bunny_wolves").input("")
    at.text_input(key="rec_opt_trust-no-bunny_wall").input("100000")  # out of the option's bounds
    click(at, "rec_start")
    assert any("bad option for trust-no-bunny: wall must be 1.." in e.value for e in at.error)
    at.text_input(key="rec_opt_trust-no-bunny_wall").input("3")
    click(at, "rec_start")
    with Store(store) as s:
        assert s.record(game_of(at)).header.options == {"wall": 3}


def test_a_trust_no_bunny_game_is_recorded_through_its_first_night(store: Path) -> None:
    at = start(FIVE, ruleset="trust-no-bunny")
    game = game_of(at)
    assert "the table saw the first mayor: give it here" in texts(at.caption)
    click(at, "rec_chance")
    assert "give the first mayor" in texts(at.error)
    pills(at, "First mayor").set_value(2)
    run(at)
    assert "To record: **the roles are dealt in secret; first mayor Cat**" in texts(at.markdown)
    click(at, "rec_chance")
    click(at, "rec_chance")  # the Items offered, unseen
    for seat, name in enumerate(FIVE):
        if seat < len(FIVE) - 1:  # the next seat still to choose (the last alone is not asked)
            assert at.radio(key="rec_pick_seat").value == seat
        assert "Item: unknown" in texts(at.caption)
        click(at, "rec_record")
        assert f"{name} chooses an Item" in texts(at.success)
    click(at, "rec_chance")  # the deal
    for name in FIVE:
        click(at, "rec_record")  # ready, the first kind offered
        assert f"{name} is ready" in texts(at.success)
    team = pills(at, "Proposed team")
    team.set_value([3, 2])
    run(at)
    assert "To record: **Cat proposes Cat and Dan as guards**" in texts(at.markdown)
    click(at, "rec_record")
    for name in FIVE:
        pills(at, "Accept").set_value(True)
        run(at)
        click(at, "rec_record")
        assert f"{name} votes" in texts(at.success)
    assert "voted yes" in html_text(at) and "To record: **Ann acts tonight" in texts(at.markdown)
    for name in FIVE[:-1]:  # the night: the table sees who acts, not what
        click(at, "rec_record")
        assert f"{name} acts tonight" in texts(at.success)
    click(at, "rec_record")  # the last action ends the night: the table saw its stage
    assert "Refused** by **TNB-REC-1**" in texts(at.error)
    at.text_input(key="rec_pick_4_act_stage").input('{"unblocked": 1, "gnawed": 1}')
    click(at, "rec_record")
    assert "Recorded event 24: Eve acts tonight" in texts(at.success)
    assert "Next: the draw, recorded by the table." in texts(at.markdown)
    with Store(store) as s:
        assert s.game(game).n_events == 24
        assert check_bytes(s.export(game), game).ok


def test_a_finished_game_shows_its_end_and_its_last_entry_can_still_be_undone(store: Path) -> None:
    ruleset = get_ruleset("bunnies")
    played = simulate_one(ruleset, 11, 0)
    header, events = redact_game(ruleset, played.header, played.events)  # as the table saw it
    with Store(store) as s:
        s.create_game(msgspec.structs.replace(header, game_id="finished", hash=None))
        last = s.append("finished", events, expect_seq=0)
    at = page(game="finished")
    assert any("Game over:" in m.value for m in at.success)
    assert any("The game is over" in m.value for m in at.info)
    assert not [b for b in at.get("button") if b.key in ("rec_record", "rec_chance")]
    assert "No game is being recorded in this store." in texts(page().caption)  # not offered to resume
    click(at, "rec_undo")
    assert f"Recorded event {last + 1}: the table strikes event {last}" in texts(at.success)
    assert at.button(key="rec_record")  # the game goes on from before the struck entry


def test_the_typed_box_hints_at_this_game_s_own_entries(store: Path) -> None:
    """The hint under "Or type the entry" comes from the game being recorded and the actions
    the rules allow now, not a mix of every game's notation."""
    at = start(["Ann", "Bo"], first_seat=0)

    def hint() -> str:  # the examples under the box (the box's own hint is short: a phone)
        return next(c.value for c in at.caption if c.value.startswith(("E.g.", "What the table saw")))

    assert "What the table saw" in hint()  # the deal: chance, typed as the table saw it
    click(at, "rec_chance")
    assert hint().startswith("E.g. draw") and "guard" not in hint() and "ready" not in hint()
    assert len(at.text_input(key="rec_text").placeholder) < 30


def test_who_plays_first_is_asked_by_name_and_its_default_said(store: Path) -> None:
    """The first seat silently defaulted to the second name, hidden among the options."""
    at = page()
    for seat, name in enumerate(["Ann", "Bo"]):
        at.text_input(key=f"rec_name_{seat}").input(name)
    run(at)
    first = at.selectbox(key="rec_opt_bunnies_first_seat")
    assert first.label == "Who plays first" and first.value == 1
    assert list(first.options) == ["Ann", "Bo"]  # the players, by name
    assert "By the rules: Bo" in texts(at.caption)
    assert at.text_input(key="rec_name_0").label == "Player 1"
