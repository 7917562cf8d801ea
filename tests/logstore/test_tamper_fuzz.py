"""The long runs (``pytest -m slow``): a store edited at random by its owner is always found
out by ``warren verify``, and hostile names of any characters never reach a terminal or a
page as anything but text."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bunnies import RULESET as BUNNIES
from engine.record import event_to_dict, header_to_dict, seal
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store.event_store import Store
from logstore.textsafe import clean, markdown

pytestmark = pytest.mark.slow

EDITS = [
    ("event_lines", "head"), ("event_lines", "tail"), ("event_lines", "type"), ("event_lines", "actor"),
    ("event_lines", "hash"), ("games", "winners"), ("games", "ok"), ("games", "n_events"),
    ("games", "players"), ("games", "created"), ("games", "over"), ("games", "violation_rule"),
    ("seals", "line"), ("game_keys", "game_id"), ("proofs", "digest"), ("store_proof", "games"),
]


KEYS = {"event_lines": ("id",), "games": ("game_id",), "seals": ("game_id", "seq"), "game_keys": ("key",),
        "proofs": ("key",), "store_proof": ("id",)}


@pytest.fixture(scope="module")
def clean_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fuzz") / "warren.db"
    with Store(path) as store:
        for i in range(3):
            store.import_bytes(b"".join(simulate_one(BUNNIES, 61, i).lines()), f"{i}.jsonl")
    return path


def _tamper(db: Path, table: str, column: str, pick: int, value: object, delete: bool) -> bool:
    """One owner's edit; whether it changed anything."""
    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f"DROP TRIGGER {name}")
    keys = KEYS[table]
    where = " AND ".join(f"{k} = ?" for k in keys)
    rows = conn.execute(f"SELECT {', '.join(keys)} FROM {table} ORDER BY {', '.join(keys)}").fetchall()
    if not rows:
        return False
    row = rows[pick % len(rows)]
    if delete:
        changed = conn.execute(f"DELETE FROM {table} WHERE {where}", row).rowcount
    else:
        before = conn.execute(f"SELECT {column} FROM {table} WHERE {where}", row).fetchone()[0]
        if before == value or (isinstance(before, bytes) and isinstance(value, str)
                               and before == value.encode()):
            return False
        try:
            changed = conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value, *row)).rowcount
        except sqlite3.IntegrityError:  # NOT NULL, UNIQUE, CHECK: the database itself refuses
            return False
    conn.commit()
    conn.close()
    return bool(changed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edit=st.sampled_from(EDITS), pick=st.integers(0, 10_000),
       value=st.one_of(st.integers(-3, 600), st.text(max_size=12), st.binary(min_size=32, max_size=32),
                       st.none()),
       delete=st.booleans())
def test_any_edit_of_the_store_is_found_by_verify(clean_store: Path, tmp_path_factory: pytest.TempPathFactory,
                                                  edit: tuple[str, str], pick: int, value: object,
                                                  delete: bool) -> None:
    db = tmp_path_factory.mktemp("edit") / "warren.db"
    shutil.copy(clean_store, db)
    table, column = edit
    if not _tamper(db, table, column, pick, value, delete):
        return
    result = CliRunner().invoke(main, ["verify", "--db", str(db), "--json"])
    assert result.exit_code != 0, (edit, pick, value, delete, result.output[-600:])


OBEYED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=20).filter(str.strip), min_size=2, max_size=2,
                      unique_by=lambda n: " ".join(n.split()).casefold()))
def test_any_name_is_shown_as_text(names: list[str], tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in names:
        assert not OBEYED.search(clean(name))
        said = markdown(name)
        assert not re.search(r"(?<!\\)[\[\]<$]", said.replace("\\\\", ""))
    game = simulate_one(BUNNIES, 62, 0)
    head = header_to_dict(game.header)
    head["source"] = "recorded"
    head["players"] = [{"seat": i, "name": n} for i, n in enumerate(names)]
    data = b"".join(seal(head, [event_to_dict(e) for e in game.events]))
    db = tmp_path_factory.mktemp("names") / "warren.db"
    try:
        with Store(db) as store:
            store.import_bytes(data, "names.jsonl")
    except Exception:
        return  # a header the reader refuses (a name it cannot take) is its own test's matter
    for args in (["ls"], ["players"], ["ratings", "--ruleset", "bunnies"]):
        result = CliRunner().invoke(main, [*args, "--db", str(db)])
        assert not OBEYED.search(result.stdout.replace("\n", "").replace("\t", "")), (args, names)
