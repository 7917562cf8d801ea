"""The store read by tools nobody here wrote: plain sqlite3 answers the documented queries
within a budget counted in SQLite's own steps (not seconds), the views people read give
names and lines without line ends, and Datasette shows every table's and column's meaning
(logstore.store.described)."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.record import event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.cli import main
from logstore.store import described
from logstore.store.event_store import Store

DOC = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
GAMES = 150
STEP = 100
"""The progress handler counts one step per this many SQLite instructions."""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tools") / "warren.db"
    with Store(path) as store:
        for i in range(GAMES):
            store.import_bytes(b"".join(simulate_one(BUNNIES, 81, i).lines()), f"{i}.jsonl")
        for i in range(2):
            game = simulate_one(get_ruleset("trust-no-bunny"), 81, i, players=5)
            store.import_bytes(b"".join(game.lines()), f"tnb-{i}.jsonl")
        game = simulate_one(BUNNIES, 82, 0)
        head = header_to_dict(game.header)
        head.update(source="recorded", game_id="ann-bo", players=[{"seat": 0, "name": "Ann"},
                                                                    {"seat": 1, "name": "Bo"}])
        store.import_bytes(b"".join(seal(head, [event_to_dict(e) for e in game.events])), "ann-bo.jsonl")
    return path


def steps(conn: sqlite3.Connection, sql: str) -> tuple[int, list[tuple[object, ...]]]:
    counted = [0]

    def tick() -> int:
        counted[0] += 1
        return 0

    conn.set_progress_handler(tick, STEP)
    try:
        rows = conn.execute(sql).fetchall()
    finally:
        conn.set_progress_handler(None, STEP)
    return counted[0] * STEP, rows


def documented_queries() -> list[str]:
    """The ``sqlite3 warren.db "..."`` lines of docs/analytics.md."""
    return [m.group(1) for m in re.finditer(r'^sqlite3 warren\.db "(.+)"$', DOC.read_text(), re.M)]


def test_the_documented_queries_stay_within_their_budget(db: Path) -> None:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)  # plain: no function of warren's
    lines = conn.execute("SELECT count(*) FROM event_lines").fetchone()[0]
    queries = documented_queries()
    assert len(queries) == 3
    for sql in queries:
        sql = sql.replace("bunnies-7-000003", "ann-bo")
        used, rows = steps(conn, sql)
        assert rows, sql
        # A look at every line at most once, each finding its game by one lookup: a few dozen
        # instructions a line (the ranges alone walked every game for every line of a type).
        assert used <= 40 * lines, (sql, used, lines)
    # Datasette's own shapes of a filter: a count over a subquery, and a page of rows.
    for sql in ("SELECT count(*) FROM (SELECT * FROM game_events WHERE \"type\" = 'pickup')",
                "SELECT count(*) FROM (SELECT * FROM events WHERE \"type\" = 'pickup')",
                "SELECT count(*) FROM (SELECT * FROM events WHERE actor = 1)",
                "SELECT count(*) FROM (SELECT * FROM game_events WHERE ruleset = 'trust-no-bunny')"):
        used, _ = steps(conn, sql)
        assert used <= 40 * lines, (sql, used, lines)
    used, rows = steps(conn, "SELECT count(*) FROM game_events WHERE game_id = 'ann-bo'")
    assert used <= 40 * rows[0][0] + 2000  # one game's lines only  # type: ignore[operator]


def test_the_views_read_by_name(db: Path) -> None:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    row = conn.execute("SELECT players, status, winners, n_players FROM results "
                       "WHERE game_id = 'ann-bo'").fetchone()
    with Store(db) as store:
        game = store.game("ann-bo")
    assert row[0] == "Ann, Bo" and row[3] == 2
    assert row[1] == ("over" if game.over else "in play")
    assert row[2] == ", ".join(["Ann", "Bo"][w] for w in (game.winners or []))
    lines = conn.execute("SELECT player, actor, line FROM game_events WHERE game_id = 'ann-bo' ORDER BY seq"
                         ).fetchall()
    assert all(not line.endswith(("\n", "\r")) for _, _, line in lines)
    assert {p for p, a, _ in lines if a is not None} == {"Ann", "Bo"}
    assert all((p is None) == (a is None) for p, a, _ in lines)


def test_every_column_says_what_it_holds(db: Path, tmp_path: Path) -> None:
    from logstore.players import plays

    copy = tmp_path / "copy.db"
    with Store(db) as store:
        store.conn.execute(f"VACUUM INTO '{copy}'")
    conn = sqlite3.connect(copy)
    plays.install(conn)  # made by the first import of plays
    every = {**described.READABLE, **described.STORE}
    for name, (about, columns) in every.items():
        assert about, name
        have = [r[1] for r in conn.execute(f"PRAGMA table_info({name})")]
        assert have and set(have) == set(columns), (name, have)
        assert all(columns.values()), name


def test_the_document_matches() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert described.write_into(text) == text, "regenerate: python -m logstore.store.described"


def test_warren_metadata_serves_datasette(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "metadata.json"
    result = CliRunner().invoke(main, ["metadata", "--db", str(db), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    meta = json.loads(out.read_text())
    tables = meta["databases"]["warren"]["tables"]
    assert tables["results"]["columns"]["winners"].startswith("the winners' names")
    datasette = pytest.importorskip("datasette.app")

    async def look() -> list[tuple[int, str]]:
        ds = datasette.Datasette([str(db)], metadata=meta)
        answers = []
        paths = ("/warren/game_events.json?type=pickup&_size=3", "/warren/events.json?type=pickup&_size=3",
                 "/warren/results.json?_size=3", "/warren/results")
        for path in paths:
            got = await ds.client.get(path)
            answers.append((got.status_code, got.text))
        return answers

    answers = asyncio.run(look())
    assert [code for code, _ in answers] == [200, 200, 200, 200], [t[:300] for _, t in answers]
    assert "players and winners by name" in answers[3][1]
