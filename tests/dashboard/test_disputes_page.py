"""The disputes page, driven through Streamlit's AppTest: verdicts, legal actions, what-if
branches, rulings and their links."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from streamlit.testing.v1 import AppTest

from engine.dispute import Dispute
from engine.registry import get_ruleset
from logstore.store import Store, rulings
from logstore.store.branches import list_branches, stored_dispute
from tests.dashboard.conftest import APP, build_store, html_text, texts

LAY_2 = get_ruleset("bunnies").rulebook["BUN-LAY-2"]
TNB_GAME = Path(__file__).resolve().parents[2] / "fixtures" / "trust-no-bunny" / "fifth-night-survived.jsonl"


@pytest.fixture(scope="module")
def dispute_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Its own store: these tests write rulings and branches.
    path = build_store(tmp_path_factory.mktemp("disputes") / "warren.db", games=2)
    with Store(path) as s:
        s.import_bytes(TNB_GAME.read_bytes(), str(TNB_GAME))
    return path


@pytest.fixture()
def env(dispute_store: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WARREN_DB", str(dispute_store))
    yield dispute_store


def page(**params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page("screens/disputes.py").run()
    assert not at.exception, at.exception
    return at


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def opened(store: Path) -> tuple[str, Dispute]:
    with Store(store) as s:
        game = s.games()[0].game_id
        return game, stored_dispute(s, game, with_events=True)


def laid_too_low(d: Dispute) -> tuple[int, int, str]:
    """A position, the seat to act and a card in its hand that does not beat the pile's top."""
    for seq in range(d.last_seq):
        state = d.state_at(seq)
        for seat in d.ruleset.to_act(state):
            for card in d.ruleset.view(state, "referee")["hands"][seat]:
                verdict = d.verdict(f"lay {card}", at=seq, seat=seat)
                if verdict.rule is not None and verdict.rule.id == "BUN-LAY-2":
                    return seq, seat, f"lay {card}"
    raise AssertionError("no position where a lay is too low")


def propose(at: AppTest, action: str) -> AppTest:
    at.text_area(key="dsp_action").input(action)
    at.button(key="dsp_judge").click()
    return run(at)


def test_an_illegal_action_shows_its_rule(env: Path) -> None:
    game, d = opened(env)
    seq, _seat, action = laid_too_low(d)
    at = propose(page(game=game, seq=str(seq)), action)
    errors = texts(at.error)
    assert "Illegal" in errors and "BUN-LAY-2" in errors
    shown = texts(at.markdown)
    assert LAY_2.text in shown and LAY_2.source in shown  # its paraphrase and its section
    # The deciding facts in words and card faces: the pile's top and what was laid.
    drawn = html_text(at)
    assert "<td>top card</td>" in drawn and "<td>laid</td>" in drawn
    card = action.split()[1]
    face = ("10" if card[0] == "T" else card[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]
    assert f"<td>{face}</td>" in drawn and '["' not in drawn


def test_the_legal_list_is_the_engines_and_a_pick_is_judged_legal(env: Path) -> None:
    game, d = opened(env)
    seq, seat, _ = laid_too_low(d)
    at = page(game=game, seq=str(seq))
    listed = d.legal(seat, at=seq).notations
    assert listed and at.radio(key="dsp_legal").options == listed
    at.radio(key="dsp_legal").set_value(listed[-1])
    run(at)
    assert at.text_area(key="dsp_action").value == listed[-1]
    assert "Legal" in texts(at.success) and not at.error
    other = 1 - seat  # off their turn: the list is empty and says why
    at.selectbox(key="dsp_seat").set_value(other)
    run(at)
    assert d.legal(other, at=seq).notations == []
    assert f"{d.names[other]} has nothing to do now" in texts(at.info)


def test_a_pick_is_judged_for_its_seat_when_several_seats_act_at_once(env: Path) -> None:
    with Store(env) as s:
        game = next(g.game_id for g in s.games() if g.ruleset == "trust-no-bunny")
        d = stored_dispute(s, game, with_events=True)
    seq = next(q for q in range(d.last_seq) if len(d.ruleset.to_act(d.state_at(q))) > 1)
    first = d.ruleset.to_act(d.state_at(seq))[0]
    at = page(game=game, seq=str(seq))
    assert "may act now" in texts(at.caption)
    listed = d.legal(first, at=seq).notations
    assert at.radio(key="dsp_legal").options == listed
    at.radio(key="dsp_legal").set_value(listed[0])
    run(at)
    said = texts(at.success)
    assert f"**Legal** · {d.names[first]} " in said and not at.error, said
    assert "actor=" not in said and "`" not in said  # the action in words, not its notation


def test_bad_action_text_gives_a_message(env: Path) -> None:
    game, _ = opened(env)
    at = page(game=game, seq="5")
    for bad, why in [("frobnicate 3", "not an action of bunnies"), ('{"type": "lay", ', "not valid JSON"),
                     ("lay QH actor=7", "seat"), ("[1, 2]", "JSON list of actions")]:
        propose(at, bad)
        assert "Cannot judge this action" in texts(at.error) and why in texts(at.error), bad


def test_a_branch_is_stored_and_stepped_beside_the_original(env: Path) -> None:
    game, d = opened(env)
    seq, seat, _ = laid_too_low(d)
    recorded = d.events()[seq]
    alternative = next(n for n in d.legal(seat, at=seq).notations
                       if d.verdict(n, at=seq, seat=seat).action != d.verdict(recorded, at=seq).action)
    at = propose(page(game=game, seq=str(seq)), alternative)
    at.text_input(key="dsp_branch_by").input("Ada")
    at.button(key="dsp_branch_make").click()
    run(at)
    with Store(env) as s:
        stored = [b for b in list_branches(s, game) if b.parent_seq == seq and b.author == "Ada"]
        assert len(stored) == 1
        info = stored[0]
        branch = s.record(info.game_id)
    assert f"Stored branch {info.game_id}" in texts(at.success)
    assert at.selectbox(key="dsp_branch").value == info.game_id
    assert len(branch.events) == seq + 1 and branch.header.branch is not None
    # Another lay changes the hand, so a later recorded lay stops fitting: the report names
    # the first recorded event no longer legal on the branch, and its rule.
    assert info.divergence_rule is not None
    report = texts(at.warning)
    assert f"parent event {info.divergence_parent_seq}" in report and info.divergence_rule in report
    assert (at.session_state["dsp_cmp_p_seq"], at.session_state["dsp_cmp_b_seq"]) == (seq, seq)
    at.button(key="dsp_cmp_both_next").click()
    run(at)
    assert (at.session_state["dsp_cmp_p_seq"], at.session_state["dsp_cmp_b_seq"]) == (seq + 1, seq + 1)
    at.button(key="dsp_cmp_b_next").click()
    run(at)
    assert at.session_state["dsp_cmp_b_seq"] == seq + 2 and at.session_state["dsp_cmp_p_seq"] == seq + 1
    captions = texts(at.caption)
    assert f"event {seq + 2} of " in captions and f"event {seq + 1} of " in captions
    boards = [h.proto.body for h in at.get("html") if "wr-board" in h.proto.body]
    assert len(boards) == 3  # the position, the original and the branch


def test_an_illegal_alternative_stores_no_branch(env: Path) -> None:
    game, d = opened(env)
    seq, _seat, action = laid_too_low(d)
    with Store(env) as s:
        before = len(list_branches(s))
    at = propose(page(game=game, seq=str(seq)), action)
    at.button(key="dsp_branch_make").click()
    run(at)
    assert "No branch was stored" in texts(at.error) and "BUN-LAY-2" in texts(at.error)
    with Store(env) as s:
        assert len(list_branches(s)) == before


def test_a_ruling_is_saved_listed_and_its_link_reopens_it(env: Path) -> None:
    game, d = opened(env)
    seq, _seat, action = laid_too_low(d)
    at = propose(page(game=game, seq=str(seq)), action)
    at.text_input(key="dsp_question").input("May the low card go on the pile?")
    at.text_input(key="dsp_by").input("the judge")
    at.text_area(key="dsp_note").input("The engine is right.")
    at.button(key="dsp_save").click()
    run(at)
    with Store(env) as s:
        saved = [r for r in rulings.list_rulings(s, game) if r.question == "May the low card go on the pile?"]
    assert len(saved) == 1
    ruling = saved[0]
    assert (ruling.seq, ruling.status, ruling.rule, ruling.decided_by) == (seq, "illegal", "BUN-LAY-2",
                                                                          "the judge")
    assert f"Saved ruling {ruling.ruling_id}" in texts(at.success)
    assert at.query_params["ruling"] in ([ruling.ruling_id], ruling.ruling_id)
    table = at.dataframe[-1].value
    row = table[table["ruling"] == ruling.ruling_id].iloc[0]
    assert row["question"] == ruling.question and row["engine"] == "illegal by BUN-LAY-2"
    link = dict(parse_qsl(urlsplit(row["open"]).query))
    assert link == {"game": game, "seq": str(seq), "ruling": ruling.ruling_id}
    assert urlsplit(row["open"]).path.endswith("disputes")

    again = page(**link)  # a new visitor opens the shared link
    assert again.session_state["pos_seq"] == seq and again.session_state["pos_game"] == game
    banner = texts(again.info)
    assert ruling.ruling_id in banner and ruling.question in banner and "BUN-LAY-2" in banner
    assert "BUN-LAY-2" in texts(again.error)  # its action is proposed and judged again
    shown = again.dataframe[-1].value
    assert shown[shown["ruling"] == ruling.ruling_id].iloc[0]["shown"] == "shown here"
    assert all(str(column).strip() for column in shown.columns)  # every column has a header


def test_a_ruling_link_alone_opens_its_game_and_position(env: Path) -> None:
    with Store(env) as s:
        game = [g.game_id for g in s.games() if g.ruleset == "bunnies"][-1]
        d = stored_dispute(s, game, with_events=True)
        found = d.verdict(d.events()[0], at=0)  # the deal, as recorded
        made = rulings.save(s, rulings.make_ruling(game, 0, "Who deals?", "table", "2024-01-01T00:00:00Z",
                                                   verdict=found))
    at = page(ruling=made.ruling_id)
    assert at.session_state["pos_game"] == game and at.session_state["pos_seq"] == 0
    assert made.ruling_id in texts(at.info) and "Legal" in texts(at.success)
    at.button(key="pos_next").click()
    run(at)
    at.button(key="dsp_ruling_back").click()
    run(at)
    assert at.session_state["pos_seq"] == 0

    first, _ = opened(env)
    at = page(game=first, seq="2")  # from another game, through the list of all rulings
    at.radio(key="dsp_rulings_scope").set_value("all games")
    run(at)
    at.selectbox(key="dsp_ruling_pick").set_value(made.ruling_id)
    at.button(key="dsp_ruling_open").click()
    run(at)
    assert (at.session_state["pos_game"], at.session_state["pos_seq"]) == (game, 0)
    assert at.query_params["ruling"] in ([made.ruling_id], made.ruling_id)
    assert made.ruling_id in texts(at.info)


def test_a_ruling_needs_a_question(env: Path) -> None:
    game, _ = opened(env)
    at = page(game=game, seq="3")
    at.text_input(key="dsp_by").input("judge")
    at.button(key="dsp_save").click()
    run(at)
    assert "The ruling was not saved" in texts(at.error) and "question" in texts(at.error)


def test_bad_links_and_stores_are_explained(env: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = opened(env)
    at = page(game=game, seq="4", ruling="R-000000000000")
    assert "no ruling 'R-000000000000'" in texts(at.warning) and "ruling" not in at.query_params
    at = page(game="no-such-game")
    assert "no game 'no-such-game'" in texts(at.error)
    at = page(game=game, seq="999999")
    assert "not in this game" in texts(at.warning)
    monkeypatch.setenv("WARREN_DB", str(tmp_path / "absent.db"))
    assert "There is no store" in texts(page().error)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"not a store" * 100)
    monkeypatch.setenv("WARREN_DB", str(corrupt))
    assert "cannot be opened as a warren store" in texts(page().error)
    empty = tmp_path / "empty.db"
    Store(empty).close()
    monkeypatch.setenv("WARREN_DB", str(empty))
    assert "The store is empty" in texts(page().info)


def test_a_reference_from_the_cli_opens_its_ruling(env: Path) -> None:
    game, d = opened(env)
    with Store(env) as s:
        made = rulings.save(s, rulings.make_ruling(game, 7, "Pasted?", "judge", "2024-02-02T00:00:00Z",
                                                   verdict=d.verdict(d.events()[7], at=7)))
    assert made.ref.startswith("warren://game/")
    at = page(game=game, seq="1")
    at.text_input(key="dsp_ref").input(made.ref)
    run(at)
    assert (at.session_state["pos_game"], at.session_state["pos_seq"]) == (game, 7)
    assert made.ruling_id in texts(at.info)
    at.text_input(key="dsp_ref").input("warren://game/no-such-game?seq=3")
    run(at)
    assert "Cannot open that reference" in texts(at.error) and "no-such-game" in texts(at.error)
    at.text_input(key="dsp_ref").input("warren://game/x?seq=three")
    run(at)
    assert "seq is a number" in texts(at.error)


def test_a_game_picked_by_hand_stays_picked(env: Path) -> None:
    with Store(env) as s:
        first, second = [g.game_id for g in s.games()][:2]
    at = page(game=first, seq="3")
    at.selectbox(key="pos_game").set_value(second)
    run(at)
    assert at.session_state["pos_game"] == second and at.query_params["game"] in ([second], second)
    run(at)  # the URL now names the picked game, so it is not taken back
    assert at.session_state["pos_game"] == second


def test_the_start_linked_is_explained(env: Path) -> None:
    game, _ = opened(env)
    at = page(game=game, seq="0")
    assert at.session_state["pos_seq"] == 0
    shown = texts(at.info) + texts(at.markdown) + texts(at.caption)
    assert "the game is over" not in shown
    assert "nothing has happened yet" in shown and "the table (chance)" in shown


def test_what_changed_is_in_words_with_names_and_faces(env: Path) -> None:
    game, d = opened(env)
    seq = next(s for s in range(1, d.last_seq) if type(d.events()[s - 1]).__name__ == "Lay")
    at = page(game=game, seq=str(seq))
    drawn = html_text(at)
    lay = d.events()[seq - 1]
    name = d.names[lay.actor]
    assert f"{name}'s hand: " in drawn and "face-up pile: +" in drawn
    assert "hands[" not in drawn and "null" not in drawn and "->" not in drawn
    assert f"{name} lays " in texts(at.markdown)


def test_the_ten_is_accepted_both_ways_and_a_wrong_card_is_named(env: Path) -> None:
    game, d = opened(env)
    seq, seat, _ = laid_too_low(d)
    at = page(game=game, seq=str(seq))
    held = d.ruleset.view(d.state_at(seq), "referee")["hands"][seat]
    ten = next((c for c in ["TC", "TD", "TH", "TS"] if c not in held), "TC")
    for typed in (f"lay 10{ten[1]}", f"lay T{ten[1]}"):
        propose(at, typed)
        verdict = d.verdict(typed, at=seq, seat=seat)
        assert verdict.action["cards"] == [ten]
        assert "Cannot judge" not in texts(at.error), typed
    propose(at, "lay 9X")
    assert "'9X' is not a card" in texts(at.error)


def test_a_game_opens_where_someone_acts_and_the_table_s_chance_lists_no_seat(env: Path) -> None:
    """The page opens at the first position where a seat acts (nothing is judged where the
    table records chance); linked to such a position, it says so, and never lists a seat's
    actions as if that seat were to act."""
    game, d = opened(env)
    first = next(q for q in range(d.last_seq) if d.ruleset.to_act(d.state_at(q)))
    assert first > 0  # the set-up and the deal come first
    at = page(game=game)
    assert f"**Event {first} · " in texts(at.markdown)
    at = page(game=game, seq="0")
    shown = texts(at.markdown)
    assert "**Legal actions** at seq 0" in shown and "Legal actions of" not in shown
    assert "the table records chance next" in texts(at.info)
