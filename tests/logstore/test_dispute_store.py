"""Branches and rulings in the store: append-only, exported and imported again intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.dispute import IllegalAlternative
from engine.reader import read_record
from engine.record import event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.store import Store, branches, rulings
from logstore.store.checking import check_bytes
from logstore.store.errors import StoreError
from tests.engine.test_dispute_tables import _setup

BUNNIES = get_ruleset("bunnies")
KINGS = "dispute-bunnies-kings"


def _record(name: str) -> bytes:
    header, events = _setup("bunnies", name)
    return b"".join(seal(header_to_dict(header), [event_to_dict(e) for e in events]))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "w.db")
    s.import_bytes(_record("kings"), "kings.jsonl")
    game = simulate_one(BUNNIES, 9, 0)
    s.import_bytes(b"".join(game.lines()), "sim.jsonl")
    yield s
    s.close()


def _fresh(tmp_path: Path, name: str) -> Store:
    s = Store(tmp_path / name)
    s.import_bytes(_record("kings"), "kings.jsonl")
    return s


# -- branches --------------------------------------------------------------------------------------
def test_a_branch_is_stored_as_a_game_that_names_its_parent(store: Store) -> None:
    info, _ = branches.create_branch(store, KINGS, 2, ["lay AC"], author="judge", note="ace first",
                                        created="2026-03-01T10:00:00Z")
    assert info.game_id == f"{KINGS}~1" and info.parent_game == KINGS and info.parent_seq == 2
    assert (info.divergence_parent_seq, info.divergence_rule) == (5, "BUN-LAY-2")
    row = store.game(info.game_id)
    assert (row.parent_game, row.parent_seq, row.n_events, row.ok) == (KINGS, 2, 3, True)
    data = store.export(info.game_id)
    record = read_record(data)
    assert record.header.branch is not None and record.header.branch.game_id == KINGS
    assert record.chain == "sealed" and check_bytes(data, "branch.jsonl").ok
    parent = read_record(store.export(KINGS))
    unhashed = [{k: v for k, v in event_to_dict(e).items() if k != "hash"} for e in parent.events[:2]]
    assert [{k: v for k, v in event_to_dict(e).items() if k != "hash"} for e in record.events[:2]] == unhashed
    assert branches.branch_info(store, info.game_id) == info


def test_a_branch_of_a_branch(store: Store) -> None:
    first, _ = branches.create_branch(store, KINGS, 2, ["lay AC"])
    second, _ = branches.create_branch(store, first.game_id, 3, ["draw", "pickup"], replaces=0)
    assert second.game_id == f"{KINGS}~1~1" and second.parent_game == first.game_id
    assert store.game(second.game_id).n_events == 5
    assert branches.lineage(store, second.game_id) == [(KINGS, None), (first.game_id, 2), (second.game_id, 3)]
    assert {b.game_id for b in branches.list_branches(store, KINGS)} == {first.game_id, second.game_id}
    assert [b.game_id for b in branches.list_branches(store, first.game_id)] == [second.game_id]
    assert branches.stored_dispute(store, second.game_id).verdict("draw", at=5).legal


def test_the_same_branch_twice_opens_the_one_stored(store: Store) -> None:
    """Each "Open branch" with the same alternative stored another identical branch."""
    first, _ = branches.create_branch(store, KINGS, 2, ["lay AC"])
    again, _ = branches.create_branch(store, KINGS, 2, ["lay AC"])
    assert again.game_id == first.game_id and again.already and not first.already
    assert [b.game_id for b in branches.list_branches(store, KINGS)] == [first.game_id]
    named, _ = branches.create_branch(store, KINGS, 2, ["lay AC"], game_id="kings-ace-again")
    assert named.game_id == "kings-ace-again" and not named.already  # a name asked for is kept


def test_an_illegal_alternative_stores_nothing(store: Store) -> None:
    with pytest.raises(IllegalAlternative, match="BUN-LAY-2"):
        branches.create_branch(store, KINGS, 4, ["lay 3D"])
    assert branches.list_branches(store) == []
    assert f"{KINGS}~1" not in store


def test_a_branch_position_must_exist_in_the_parent(store: Store) -> None:
    with pytest.raises(StoreError):
        branches.create_branch(store, KINGS, 99, ["draw"])
    with pytest.raises(StoreError, match="no game"):
        branches.create_branch(store, "nope", 1, ["draw"])


def test_the_branches_table_is_append_only(store: Store) -> None:
    info, _ = branches.create_branch(store, KINGS, 2, ["lay AC"])
    conn = sqlite3.connect(store.path)
    for sql in ("UPDATE branches SET note = 'x'", "DELETE FROM branches",
                f"INSERT OR REPLACE INTO branches (game_id, parent_game, parent_seq, alternatives, replaced, "
                f"continuation, continued, created) VALUES ('{info.game_id}', 'g', 1, 1, 1, 0, 0, 't')"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)
    conn.close()
    with pytest.raises(StoreError):
        branches.register(store, info)


def test_a_reimported_branch_is_still_listed_with_its_divergence(store: Store, tmp_path: Path) -> None:
    info, _ = branches.create_branch(store, KINGS, 2, ["lay AC"])
    other = _fresh(tmp_path, "other.db")
    other.import_bytes(store.export(info.game_id), "branch.jsonl")
    (found,) = branches.list_branches(other)
    assert not found.registered
    assert (found.game_id, found.parent_game, found.parent_seq) == (info.game_id, KINGS, 2)
    assert (found.divergence_parent_seq, found.divergence_rule) == (5, "BUN-LAY-2")
    other.close()


def test_stored_verdicts_match_verdicts_from_the_record(store: Store) -> None:
    game_id = "bunnies-9-000000"
    stored = branches.stored_dispute(store, game_id)
    from engine.dispute import Dispute

    record = read_record(store.export(game_id))
    from_file = Dispute.of_record(BUNNIES, record.header, record.events)
    assert stored.last_seq == from_file.last_seq
    for at in range(0, stored.last_seq + 1, 17):
        for action in ("pickup", "draw", "lay 2C"):
            assert stored.verdict(action, at=at, seat=at % 2).to_dict() == \
                from_file.verdict(action, at=at, seat=at % 2).to_dict()


def test_reading_a_store_without_branches_or_rulings_creates_nothing(store: Store) -> None:
    assert branches.list_branches(store) == [] and rulings.list_rulings(store) == []
    assert rulings.get(store, "R-000000000000") is None and rulings.superseded(store) == set()
    tables = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "branches" not in tables and "rulings" not in tables


# -- rulings ---------------------------------------------------------------------------------------
def _rule(store: Store, seq: int, action: str, question: str, **kw: object) -> rulings.Ruling:
    d = branches.stored_dispute(store, kw.pop("game", KINGS))  # type: ignore[arg-type]
    verdict = d.verdict(action, at=seq)
    return rulings.save(store, rulings.make_ruling(
        d.header.game_id, seq, question, "judge", str(kw.pop("created", "2026-03-01T10:00:00Z")),
        verdict=verdict, turn=d.state_at(seq).turn, **kw))  # type: ignore[arg-type]


def test_a_ruling_keeps_the_verdict_and_a_stable_reference(store: Store) -> None:
    ruling = _rule(store, 4, "lay 3D", "May Ada lay the three?", note="no: the nine is on top")
    assert ruling.status == "illegal" and ruling.rule == "BUN-LAY-2"
    assert ruling.ruling_id == ruling.derived_id() and ruling.ruling_id.startswith("R-")
    assert ruling.ref == f"warren://game/{KINGS}?seq=4&ruling={ruling.ruling_id}"
    assert ruling.verdict is not None and ruling.verdict["facts"]["top"] == "9C"
    (stored,) = rulings.list_rulings(store, KINGS)
    assert stored == ruling
    assert rulings.get(store, ruling.ruling_id) == ruling


def test_rulings_are_append_only(store: Store) -> None:
    ruling = _rule(store, 4, "lay 3D", "May Ada lay the three?")
    conn = sqlite3.connect(store.path)
    for sql in ("UPDATE rulings SET note = 'x'", "DELETE FROM rulings",
                "INSERT OR REPLACE INTO rulings (ruling_id, game_id, seq, question, decided_by, created, "
                f"ref) VALUES ('{ruling.ruling_id}', 'g', 1, 'q', 'x', 't', 'r')"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)
    conn.close()
    with pytest.raises(rulings.RulingError, match="already stored"):
        rulings.save(store, ruling)


def test_a_ruling_is_corrected_by_one_that_supersedes_it(store: Store) -> None:
    first = _rule(store, 4, "lay 3D", "May Ada lay the three?")
    second = _rule(store, 4, "lay KC", "What could Ada lay?", supersedes=first.ruling_id,
                   created="2026-03-01T10:05:00Z")
    assert rulings.superseded(store) == {first.ruling_id}
    assert [r.ruling_id for r in rulings.list_rulings(store)] == [first.ruling_id, second.ruling_id]
    with pytest.raises(rulings.RulingError, match="not in this store"):
        _rule(store, 4, "lay KC", "?", supersedes="R-000000000000")


def test_a_ruling_needs_a_question_an_author_and_a_real_position(store: Store) -> None:
    with pytest.raises(rulings.RulingError, match="question"):
        rulings.make_ruling(KINGS, 1, " ", "judge", "2026-03-01T10:00:00Z")
    with pytest.raises(rulings.RulingError, match="who decided"):
        rulings.make_ruling(KINGS, 1, "q", "", "2026-03-01T10:00:00Z")
    with pytest.raises(rulings.RulingError, match=r"positions 0\.\.9"):
        rulings.save(store, rulings.make_ruling(KINGS, 12, "q", "judge", "2026-03-01T10:00:00Z"))
    edited = rulings.make_ruling(KINGS, 1, "q", "judge", "2026-03-01T10:00:00Z")
    edited.note = "changed after the id was made"
    with pytest.raises(rulings.RulingError, match="does not match its content"):
        rulings.save(store, edited)


def test_rulings_and_branches_survive_export_and_reimport(store: Store, tmp_path: Path) -> None:
    first, _ = branches.create_branch(store, KINGS, 2, ["lay AC"], author="judge", note="ace first")
    second, _ = branches.create_branch(store, first.game_id, 3, ["draw"], replaces=0)
    on_game = _rule(store, 4, "lay 3D", "May Ada lay the three?")
    on_branch = _rule(store, 4, "pickup", "Must Ada pick up?", game=second.game_id,
                      created="2026-03-01T11:00:00Z")
    path = tmp_path / "register.jsonl"
    assert rulings.export_file(store, path) == 4

    other = _fresh(tmp_path, "other.db")
    summary = rulings.import_file(other, path)
    assert (summary.rulings, summary.branches, summary.problems) == (2, 2, [])
    assert rulings.list_rulings(other) == [on_game, on_branch]
    assert branches.list_branches(other) == branches.list_branches(store)
    assert other.export(second.game_id) == store.export(second.game_id)
    again = rulings.import_file(other, path)
    assert (again.rulings, again.rulings_present, again.branches, again.branches_present) == (0, 2, 0, 2)
    copy = tmp_path / "again.jsonl"
    rulings.export_file(other, copy)
    assert copy.read_bytes() == path.read_bytes()
    other.close()


def test_an_edited_export_is_refused_whole(store: Store, tmp_path: Path) -> None:
    branches.create_branch(store, KINGS, 2, ["lay AC"])
    _rule(store, 4, "lay 3D", "May Ada lay the three?")
    path = tmp_path / "register.jsonl"
    rulings.export_file(store, path)
    path.write_text(path.read_text().replace("May Ada", "Might Ada"))
    other = _fresh(tmp_path, "other.db")
    with pytest.raises(rulings.RulingError, match=r"register\.jsonl:2: ruling .* does not match"):
        rulings.import_file(other, path)
    assert rulings.list_rulings(other) == [] and branches.list_branches(other) == []
    other.close()


def test_a_ruling_about_a_game_missing_from_the_store_is_refused(store: Store, tmp_path: Path) -> None:
    _rule(store, 40, "pickup", "Must Bo pick up?", game="bunnies-9-000000")
    path = tmp_path / "register.jsonl"
    rulings.export_file(store, path)
    other = _fresh(tmp_path, "other.db")
    with pytest.raises(rulings.RulingError, match="import the game first"):
        rulings.import_file(other, path)
    other.close()


@pytest.mark.parametrize(("text", "says"), [
    ("not json", "not valid JSON"),
    ('{"kind": "ruling"}', "not a line of a warren rulings export"),
    ('{"warren_rulings": 1, "kind": "vote"}', "unknown kind"),
    ('{"warren_rulings": 1, "kind": "ruling", "colour": 1}', "not a ruling"),
    ('{"warren_rulings": 1, "kind": "branch"}', "needs 'branch' and 'record'"),
])
def test_unreadable_export_lines_name_the_line(store: Store, text: str, says: str) -> None:
    with pytest.raises(rulings.RulingError, match=says) as err:
        rulings.import_lines(store, ["", text], "r.jsonl")
    assert "r.jsonl:2" in str(err.value)
