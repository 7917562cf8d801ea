"""A game of Trust No Bunny recorded at the table, nobody's hand known, through the commands:
check, replay as a seat, a dispute verdict, suspects (R-TNB-22, docs/record-format.md)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
from click.testing import CliRunner

from logstore.cli import main
from logstore.recording.session import Refusal, TableSession, table_header
from logstore.store import Store
from logstore.store.checking import check_path

FOLDER = Path(__file__).resolve().parents[3] / "fixtures" / "trust-no-bunny"
TABLE = str(FOLDER / "recorded-table.jsonl")
DOUBT = str(FOLDER / "recorded-undetermined.jsonl")
EARLY = str(next(FOLDER.glob("illegal-TNB-REC-1-seq-*-recorded-stage-too-early.jsonl")))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def test_check_tells_a_clean_table_record_an_undetermined_one_and_a_mistake_apart() -> None:
    code, out = run("check", TABLE, DOUBT, EARLY, "--json")
    table, doubt, early = (json.loads(line) for line in out.splitlines())
    assert code == 1  # the mistake
    assert table["ok"] and table["violation"] is None and "undetermined" not in table
    needs = "the game goes on only if seats 0 and 4 are not both Werebunnies"
    assert doubt["ok"] and doubt["undetermined"] == [{"seq": 14, "rule": "TNB-ACC-4", "needs": needs}]
    assert not early["ok"] and early["violation"]["rule"] == "TNB-REC-1" and early["violation"]["seq"] == 23
    code, _ = run("check", TABLE, DOUBT, "--json")
    assert code == 0, "undetermined checks break no rule known"


def test_replay_as_a_seat_shows_what_the_table_knows_of_it() -> None:
    code, out = run("replay", TABLE, "--turn", "3", "--as", "2", "--json")
    assert code == 0
    view = json.loads(out)["view"]
    me = view["me"]
    assert me["role"] == "?" and me["quirk"] == "?" and me["item"] == "?"
    assert me["hand_size"][0] <= me["hand_size"][1]
    assert [n["unblocked"] for n in view["nights"]] == [1, 0]
    code, text = run("replay", TABLE, "--turn", "3", "--as", "2")
    assert code == 0 and "cards)" in text


def test_a_dispute_verdict_on_a_table_record() -> None:
    code, out = run("dispute", "verdict", TABLE, "--at", "21", "--action", "act actor=1", "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["rule"]["id"] == "TNB-NIGHT-1"
    code, out = run("dispute", "verdict", TABLE, "--at", "22", "--action", "sabotage 4 homebody actor=3",
                    "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["status"] == "undetermined"
    assert verdict["undetermined"] == [{"rule": "TNB-SAB-1", "needs": "legal only if seat 3 is a Werebunny"}]
    code, out = run("dispute", "verdict", TABLE, "--at", "23", "--action",
                    '{"type": "act", "actor": 4, "stage": {"unblocked": 40}}', "--json")
    assert code == 1 and json.loads(out)["rule"]["id"] == "TNB-RES-1"


def test_suspects_from_what_the_table_saw() -> None:
    code, out = run("suspects", TABLE, "--to", "66", "--as", "spectator", "--json")
    report = json.loads(out)
    assert code == 0 and [1, 3] in report["pairs"] and len(report["pairs"]) == 5
    assert any("19 wolves got through" in d for d in report["deductions"])


def test_a_scorekeeper_records_a_night_through_the_recording_session(tmp_path: Path) -> None:
    """The recorder's session offers what the table can write (``choose_item ?``, ``act``)
    and proposes each chance event as the table saw it: every card unknown, the first mayor
    to be typed in."""
    store = Store(tmp_path / "w.db")
    header = table_header("trust-no-bunny", ["Ann", "Ben", "Cat", "Dan", "Eve"], game_id="tnb-at-the-table")
    session = TableSession.start(store, header, out=tmp_path / "t.jsonl")
    roles = session.chance_template()
    assert roles is not None and not roles.complete and roles.fields == ["first_mayor"]
    assert not isinstance(session.enter(msgspec.structs.replace(roles.event, first_mayor=2)), Refusal)

    def chance() -> None:
        template = session.chance_template()
        assert template is not None and template.complete
        assert not isinstance(session.enter(template.event), Refusal)

    chance()  # the offers
    for seat in range(5):
        assert [o.notation for o in session.offers() if o.seat == seat] == ["choose_item ?"]
        session.enter("choose_item ?", seat)
    chance()  # the deal
    for seat in range(5):
        session.enter("ready", seat)
    session.enter("propose 2 3", 2)
    for seat in range(5):
        session.enter("vote yes", seat)
    assert {o.notation for o in session.offers()} == {"act"}
    for seat in range(4):
        session.enter("act", seat)
    refused = session.enter("act", 4)
    assert isinstance(refused, Refusal) and refused.rule == "TNB-REC-1"
    session.enter("act 'stage={\"unblocked\": 1, \"gnawed\": 1}'", 4)
    chance()  # the draw, nobody's cards seen
    checked = check_path(tmp_path / "t.jsonl")
    assert checked.ok and checked.chain == "sealed" and checked.events == 25
