"""Projections: derived by replay, equal to what the engine says, refreshed incrementally."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from engine.record import event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.simulate import simulate_one
from logstore.analytics import projection_rows, projections
from logstore.analytics.projections import TABLES, Projections, analytics_dir, rebuild, refresh
from logstore.analytics.views import connect
from logstore.store import Store, schema
from tests.logstore.analytics_corpus import fill


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "warren.db"
    fill(path, games=6)
    return path


def _rows(db: Path, sql: str) -> list[tuple]:
    con, _ = connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _count_replays(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    replayed: list[str] = []
    original = projection_rows._Chunk.replay

    def counting(self, header, events, facts, stored):  # type: ignore[no-untyped-def]
        replayed.append(header.game_id)
        return original(self, header, events, facts, stored)

    monkeypatch.setattr(projection_rows._Chunk, "replay", counting)
    return replayed


def test_every_table_is_written_for_every_game(db: Path) -> None:
    with Store(db) as store:
        report = refresh(store)
        stored = {g.game_id: g for g in store.games()}
    assert report.games == 6 and report.replaced == 0
    for table in TABLES:
        if table == "players":  # one row per player, not per game
            continue
        games = {r[0] for r in _rows(db, f"SELECT DISTINCT game_id FROM {table}")}
        assert games == set(stored), table
    players = {r[0] for r in _rows(db, "SELECT player FROM players")}
    assert players == {n for g in stored.values() for n in g.players}
    events = _rows(db, "SELECT count(*) FROM events")[0][0]
    assert events == sum(g.n_events + 1 for g in stored.values())  # header lines included


def test_games_and_seats_agree_with_the_engine(db: Path) -> None:
    rs = get_ruleset("bunnies")
    with Store(db) as store:
        records = {g.game_id: store.record(g.game_id) for g in store.games()}
    rows = _rows(db, "SELECT game_id, winners, scores, n_events, turns, rounds, over, ok, end_rule "
                     "FROM games ORDER BY game_id")
    assert len(rows) == len(records)
    for game_id, winners, scores, n_events, turns, rounds, over, ok, end_rule in rows:
        record = records[game_id]
        final = Replay(rs, record.header, record.events).final
        outcome = rs.outcome(final)
        assert outcome is not None and over and ok
        assert winners == str(outcome.winners).replace(" ", "")
        assert scores == str(outcome.scores).replace(" ", "")
        assert end_rule == outcome.rule
        assert (n_events, turns, rounds) == (len(record.events), final.turn, final.round)
        seats = _rows(db, f"SELECT seat, won, score, play_order FROM seat_results "
                          f"WHERE game_id = '{game_id}' ORDER BY seat")
        assert [(s, w, sc) for s, w, sc, _ in seats] == [
            (s, s in outcome.winners, outcome.scores[s]) for s in range(2)]
        first_actor = next(e.actor for e in record.events if e.actor is not None)
        assert [o for s, _, _, o in seats][first_actor] == 1


def test_turns_cover_every_event_and_carry_the_key_figures(db: Path) -> None:
    rs = get_ruleset("bunnies")
    with Store(db) as store:
        game_id = store.games()[0].game_id
        record = store.record(game_id)
    turns = _rows(db, f"SELECT turn, first_seq, last_seq, events, pile, stock FROM turns "
                      f"WHERE game_id = '{game_id}' ORDER BY first_seq")
    # contiguous: each turn starts right after the one before, the last ends at the last event
    assert turns[0][1] == 1 and turns[-1][2] == len(record.events)
    for before, after in itertools.pairwise(turns):
        assert after[1] == before[2] + 1
    assert all(n == last - first + 1 for _, first, last, n, _, _ in turns)
    seats = _rows(db, f"SELECT turn, hand, blinds_left, bunnies FROM turn_seats WHERE game_id = '{game_id}' "
                      "ORDER BY turn, seat")
    by_turn: dict[int, list[tuple]] = {}
    for turn, *figures in seats:
        by_turn.setdefault(turn, []).append(tuple(figures))
    # the engine's own key figures at the end of each turn, from one fold
    state = rs.setup(record.header)
    ends = {last: turn for turn, _first, last, _n, _pile, _stock in turns}
    tables = {turn: (pile, stock) for turn, _f, _l, _n, pile, stock in turns}
    for event in record.events:
        rs.apply(state, event)
        turn = ends.get(event.seq)
        if turn is not None:
            figures = rs.key_figures(state)
            assert tables[turn] == (figures["pile"], figures["stock"]), turn
            assert by_turn[turn] == list(
                zip(figures["hand"], figures["blinds_left"], figures["bunnies"], strict=True)), turn
    # and every event knows its turn
    assert _rows(db, f"SELECT count(*) FROM events e JOIN turns t ON t.game_id = e.game_id "
                     f"AND e.seq BETWEEN t.first_seq AND t.last_seq AND t.turn = e.turn "
                     f"WHERE e.game_id = '{game_id}'")[0][0] == len(record.events)


def test_effects_are_the_ones_apply_returns(db: Path) -> None:
    rs = get_ruleset("bunnies")
    with Store(db) as store:
        records = [store.record(g.game_id) for g in store.games()]
    expected = []
    for record in records:
        state = rs.setup(record.header)
        for event in record.events:
            expected += [(record.game_id, event.seq, e.rule, e.kind) for e in rs.apply(state, event)]
    got = _rows(db, "SELECT game_id, seq, rule, kind FROM effects ORDER BY game_id, seq, rule, kind")
    assert got == sorted(expected)


def test_seat_items_count_what_each_seat_laid(db: Path) -> None:
    with Store(db) as store:
        record = store.record(store.games()[0].game_id)
    laid: dict[tuple[int, str], list[int]] = {}
    for e in record.events:
        if type(e).__name__ == "Lay":
            for card in e.cards:
                laid.setdefault((e.actor, card), []).append(e.seq)
    got = _rows(db, f"SELECT seat, value, uses, first_seq FROM seat_items WHERE game_id = '{record.game_id}' "
                    "AND type = 'lay' AND field = 'cards' ORDER BY seat, value")
    assert got == [(seat, card, len(seqs), min(seqs)) for (seat, card), seqs in sorted(laid.items())]
    # chance events (the deal) name no seat's cards
    assert _rows(db, "SELECT count(*) FROM seat_items WHERE type = 'deal'")[0][0] == 0


def test_refresh_replays_only_new_games(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(db) as store:
        refresh(store)
    replayed = _count_replays(monkeypatch)
    new = fill(db, games=3, start=100)
    with Store(db) as store:
        report = refresh(store)
        again = refresh(store)
    assert sorted(replayed) == sorted(new)
    assert report.games == 3 and report.replaced == 0
    assert again.games == 0
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 9
    assert _rows(db, "SELECT count(*), count(DISTINCT game_id) FROM seat_results")[0] == (18, 9)


def test_a_game_that_grows_is_projected_again_without_duplicates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "warren.db"
    fill(db, games=3)
    rs = get_ruleset("bunnies")
    game = simulate_one(rs, 11, 0)
    half = len(game.events) // 2
    lines = seal(header_to_dict(game.header), [event_to_dict(e) for e in game.events[:half]])
    with Store(db) as store:
        store.import_bytes(b"".join(lines), "<half>")
        refresh(store)
        assert _rows(db, f"SELECT over FROM games WHERE game_id = '{game.header.game_id}'") == [(False,)]
        replayed = _count_replays(monkeypatch)
        store.append(game.header.game_id, game.events[half:], expect_seq=half)
        report = refresh(store)
    assert replayed == [game.header.game_id]
    assert report.replaced == 1
    gid = game.header.game_id
    assert _rows(db, f"SELECT count(*), bool_and(over) FROM games WHERE game_id = '{gid}'") == [(1, True)]
    assert _rows(db, f"SELECT count(*) FROM events WHERE game_id = '{gid}'")[0][0] == len(game.events) + 1
    assert _rows(db, f"SELECT count(*) FROM seat_results WHERE game_id = '{gid}'")[0][0] == 2
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 4


def test_rebuild_gives_the_same_tables_as_incremental_refreshes(tmp_path: Path) -> None:
    db = tmp_path / "warren.db"
    fill(db, games=3)
    with Store(db) as store:
        refresh(store)
    fill(db, games=3, start=50)
    with Store(db) as store:
        refresh(store)
    before = {t: sorted(_rows(db, f"SELECT * FROM {t}"), key=repr) for t in TABLES}
    with Store(db) as store:
        report = rebuild(store)
    assert report.rebuilt and report.games == 6
    after = {t: sorted(_rows(db, f"SELECT * FROM {t}"), key=repr) for t in TABLES}
    assert before == after


def test_a_part_no_commit_names_is_removed_and_never_read(db: Path) -> None:
    with Store(db) as store:
        refresh(store)
    stray = analytics_dir(db) / "games" / "ruleset=bunnies" / "part-999999-dead-000000.parquet"
    pq.write_table(pq.read_table(next((analytics_dir(db) / "games").rglob("*.parquet"))), stray)
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 6  # not listed, so not read
    fill(db, games=1, start=70)
    with Store(db) as store:
        refresh(store)
    assert not stray.exists()
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 7


def test_many_small_refreshes_are_merged(tmp_path: Path) -> None:
    db = tmp_path / "warren.db"
    for i in range(projections.MAX_SMALL_PARTS + 2):
        fill(db, games=1, start=i)
        with Store(db) as store:
            refresh(store)
    with Store(db) as store:
        parts = Projections(store).parts()
    assert 1 <= len(parts["games"]) <= projections.MAX_SMALL_PARTS
    assert _rows(db, "SELECT count(*), count(DISTINCT game_id) FROM games")[0] == (10, 10)
    on_disk = {p for p in (analytics_dir(db) / "games").rglob("*.parquet")}
    assert on_disk == set(parts["games"])


def test_an_illegal_game_stops_at_its_violation(tmp_path: Path) -> None:
    db = tmp_path / "warren.db"
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "bunnies"
    illegal = sorted(fixture.glob("illegal-BUN-LAY-2-*.jsonl"))
    if not illegal:
        pytest.skip("the illegal fixture is not shipped in this checkout")
    with Store(db) as store:
        row = store.import_bytes(illegal[0].read_bytes(), str(illegal[0]))
        refresh(store)
    assert not row.ok
    got = _rows(db, f"SELECT ok, over, violation_seq, violation_rule, applied, n_events FROM games "
                    f"WHERE game_id = '{row.game_id}'")
    assert got == [(False, False, row.violation_seq, "BUN-LAY-2", row.violation_seq - 1, row.n_events)]
    # the events from the violation on are stored but belong to no turn
    assert _rows(db, f"SELECT min(seq) FROM events WHERE game_id = '{row.game_id}' AND turn IS NULL"
                 ) == [(row.violation_seq,)]
    assert _rows(db, f"SELECT count(*) FROM seat_results WHERE game_id = '{row.game_id}' AND won IS NULL"
                 ) == [(2,)]


def test_every_shipped_record_has_the_store_s_verdict_in_the_projections(tmp_path: Path) -> None:
    """Illegal examples of every kind, corrections among them (a malformed one ends its game
    at REC-FIX-2), recorded games with unknowns: the games table says what the store says."""
    db = tmp_path / "warren.db"
    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    with Store(db) as store:
        store.import_paths(sorted(fixtures.rglob("*.jsonl")))
        rows = {g.game_id: g for g in store.games()}
        refresh(store)
    assert any(g.violation_rule == "REC-FIX-2" for g in rows.values())
    got = {r[0]: r[1:] for r in _rows(db, "SELECT game_id, ok, violation_seq, violation_rule FROM games")}
    assert got == {g: (r.ok, r.violation_seq, r.violation_rule) for g, r in rows.items()}


@pytest.mark.parametrize("slug", ["bunnies", "trust-no-bunny"])
def test_any_ruleset_is_projected_through_the_generic_contract(tmp_path: Path, slug: str) -> None:
    from engine.registry import known_slugs

    if slug not in known_slugs():
        pytest.skip(f"ruleset {slug} is not registered")
    rs = get_ruleset(slug)
    db = tmp_path / "warren.db"
    ids = fill(db, slug, games=3, players=rs.min_players)
    with Store(db) as store:
        refresh(store)
    con, _ = connect(db)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == 3
        n = con.execute("SELECT count(*) FROM seat_results").fetchone()[0]
        assert n == 3 * rs.min_players
        # one turn_seats row per seat and turn
        assert con.execute("SELECT count(*) FROM turn_seats").fetchone()[0] == \
            rs.min_players * con.execute("SELECT count(*) FROM turns").fetchone()[0]
        names = {c[0] for c in con.execute("DESCRIBE turn_seats").fetchall()} | \
            {c[0] for c in con.execute("DESCRIBE turns").fetchall()}
    finally:
        con.close()
    with Store(db) as store:
        record = store.record(ids[0])
    figures = rs.key_figures(Replay(rs, record.header, record.events).final)
    for name in figures:
        assert name in names or f"figure_{name}" in names, name


def test_the_analytics_folder_sits_beside_the_store(db: Path) -> None:
    with Store(db) as store:
        refresh(store)
    assert analytics_dir(db) == db.parent / "warren.db.analytics"
    assert duckdb.execute(
        f"SELECT count(*) FROM read_parquet('{analytics_dir(db)}/games/*/*.parquet')").fetchone()[0] == 6


def test_export_parquet_writes_every_table_partitioned_by_ruleset(db: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from logstore.cli import main

    out = tmp_path / "exported"
    result = CliRunner().invoke(main, ["export-parquet", str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    for table in TABLES:
        files = list((out / table).glob("ruleset=*/*.parquet"))
        assert [f.parent.name for f in files] == ["ruleset=bunnies"], table
        exported = duckdb.execute(
            f"SELECT count(*) FROM read_parquet('{out}/{table}/*/*.parquet', hive_partitioning = true)"
        ).fetchone()[0]
        assert exported == _rows(db, f"SELECT count(*) FROM {table}")[0][0], table
        assert "ruleset" not in pq.read_schema(files[0]).names  # it lives in the folder name
    only = CliRunner().invoke(main, ["export-parquet", str(tmp_path / "two"), "--db", str(db),
                                     "--table", "games", "--table", "nope"])
    assert only.exit_code == 2 and "no table 'nope'" in only.output


def test_a_store_whose_analytics_folder_is_gone_is_projected_again(db: Path) -> None:
    import shutil

    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 6
    shutil.rmtree(analytics_dir(db))
    assert _rows(db, "SELECT count(*) FROM games")[0][0] == 6


def test_any_write_to_the_games_table_makes_the_projections_stale(db: Path) -> None:
    with Store(db) as store:
        projections = Projections(store)
        assert not projections.is_current()
        projections.refresh()
        assert projections.is_current()
        store.recheck(store.games()[0].game_id)  # a verdict written again counts as a change
        assert not projections.is_current()
        projections.refresh()
        projections.close()
    # the counting triggers dropped (as sqlite-utils' transform does): the store recreates them
    # when it is next opened and counts a change, so every game is looked at again
    with Store(db) as store:
        for name in schema.COUNTING:
            store.conn.execute(f"DROP TRIGGER {name}")
    with Store(db) as store, Projections(store) as again:
        assert {r[0] for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")} >= schema.COUNTING
        assert not again.is_current()
        assert again.refresh().games == 0  # nothing had changed: looked at, not replayed
        assert again.is_current()


def test_the_projections_keep_their_bookkeeping_out_of_the_store(db: Path) -> None:
    with Store(db) as store:
        refresh(store)
        names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
    assert not any(n.startswith("analytics") for n in names)  # the store holds only its own
    assert (analytics_dir(db) / "catalog.sqlite").is_file()
    # and nothing in the analytics package reaches for the store's connection or its tables
    root = Path(projections.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert "store.conn" not in text and ".conn.execute" not in text.replace("self.conn.execute", ""), path


def test_a_store_of_format_3_hands_the_bookkeeping_over(tmp_path: Path) -> None:
    """An older store kept the projections' bookkeeping (and their change triggers) in its own
    file: opened now, it drops them, counts its changes itself, and the projections are built
    again from their own catalog."""
    db = tmp_path / "old.db"
    fill(db, games=3)
    conn = sqlite3.connect(db)
    conn.executescript("""
        DROP TRIGGER games_counted_insert; DROP TRIGGER games_counted_update; DROP TABLE changes;
        CREATE TABLE analytics_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE analytics_games (game_id TEXT PRIMARY KEY);
        CREATE TABLE analytics_parts (file TEXT PRIMARY KEY);
        CREATE TRIGGER analytics_games_inserted AFTER INSERT ON games
            BEGIN INSERT OR REPLACE INTO analytics_state VALUES ('store_changes', '1'); END;
        PRAGMA user_version = 3;
    """)
    conn.close()
    with Store(db) as store:
        names = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
        assert not any(n.startswith("analytics") for n in names)
        assert "changes" in names and names >= schema.COUNTING
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert refresh(store).games == 3


class _Figures:
    """A ruleset's figure layout, enough for the projections' figure columns."""

    slug = "figures"
    figure_names = ("hand", "pile", "label", "score")
    seat_figures = frozenset({"hand", "score"})

    def figure_width(self, seats: int) -> int:
        return len(self.figure_names) + len(self.seat_figures) * (seats - 1)


def test_flat_figures_match_the_rows_they_came_from() -> None:
    """Rows of games with 2, 3 and 2 seats again, a seat figure with unknowns (None) and one
    of mixed types: each column holds, turn by turn and seat by seat, what the rows said."""
    import numpy as np

    rs = _Figures()
    games = [  # (seats, rows): hand per seat, pile, label, score per seat
        (2, [(5, 7, 10, "a", 1, 2), (4, None, 9, "b", 1, 3)]),
        (3, [(1, 2, 3, 8, "c", "x", 0, 1.5), (0, 2, 3, 7, "d", 4, 0, 2), (0, 1, 3, 6, "e", 5, 6, 7)]),
        (2, [(9, 9, 1, "f", 0, 0)]),
    ]
    flat = [v for _, rows in games for row in rows for v in row]
    seats = [n for n, _ in games]
    turns = np.asarray([len(rows) for _, rows in games], dtype=np.int64)
    per_turn, per_seat = projection_rows._flat_figures(rs, flat, seats, turns)  # type: ignore[arg-type]
    expected_turn: dict[str, list] = {"pile": [], "label": []}
    expected_seat: dict[str, list] = {"hand": [], "score": []}
    for n, rows in games:
        for row in projection_rows_as_dicts(rs, n, rows):
            expected_turn["pile"].append(row["pile"])
            expected_turn["label"].append(row["label"])
            for seat in range(n):
                expected_seat["hand"].append(row["hand"][seat])
                expected_seat["score"].append(row["score"][seat])
    assert [name for name, _ in per_turn] == ["pile", "label"]
    assert [name for name, _ in per_seat] == ["hand", "score"]
    assert {name: col.to_pylist() for name, col in per_turn} == expected_turn
    hand = dict(per_seat)["hand"]
    assert hand.to_pylist() == expected_seat["hand"] and hand.null_count == 1
    # score mixes numbers and a word: Arrow cannot type it, so it is JSON text
    assert dict(per_seat)["score"].to_pylist() == [json.dumps(v) for v in expected_seat["score"]]
    with pytest.raises(projection_rows.AnalyticsError, match="another width"):
        projection_rows._flat_figures(rs, flat[:-1], seats, turns)  # type: ignore[arg-type]


def projection_rows_as_dicts(rs: _Figures, seats: int, rows: list[tuple]) -> list[dict]:
    """The rows as key_figures shows them (per-seat figures as lists), by the engine's own
    unpacking."""
    from engine.ruleset import Ruleset

    out = []
    for row in rows:
        fake = type("Fake", (), {"figure_names": rs.figure_names, "seat_figures": rs.seat_figures,
                                 "slug": rs.slug, "figure_width": Ruleset.figure_width,
                                 "figure_row": lambda self, state, row=row: row})()
        out.append(Ruleset.key_figures(fake, None))  # type: ignore[arg-type]
    assert all(len(d["hand"]) == seats for d in out)
    return out


def test_bunnies_key_figures_list_each_seat() -> None:
    rs = get_ruleset("bunnies")
    game = simulate_one(rs, 3, 0)
    state = Replay(rs, game.header, game.events).final
    figures = rs.key_figures(state)
    assert list(figures) == ["hand", "blinds_left", "bunnies", "pile", "stock"]
    assert figures["hand"] == [len(state.hands[0]), len(state.hands[1])]
    assert figures["pile"] == len(state.pile)


def test_a_batch_is_split_so_that_every_worker_has_two_slabs() -> None:
    assert projections.slab_games(2000, 2) == 500
    assert projections.slab_games(20_000, 2) == projections.WORKER_SLAB_GAMES
    assert projections.slab_games(2000, 1) == projections.SLAB_GAMES
    assert projections.slab_games(100, 2) == projections.MIN_SLAB_GAMES


def test_rows_with_a_list_per_seat_inside_are_still_read() -> None:
    """A ruleset that names its figures but not its per-seat ones gives lists inside its rows:
    each column is typed as a whole, a list column stays one, mixed values become JSON text."""
    rows = [([1, 2], 5, "a"), ([3, 4], 6, 7)]
    flat = [v for row in rows for v in row]
    columns = dict(projection_rows._figure_rows(("hand", "pile", "odd"), flat))
    assert columns["hand"].to_pylist() == [[1, 2], [3, 4]]
    assert columns["pile"].to_pylist() == [5, 6]
    assert columns["odd"].to_pylist() == ['"a"', "7"]
    with pytest.raises(projection_rows.AnalyticsError, match="another length"):
        projection_rows._figure_rows(("hand", "pile", "odd"), flat[:-1])


def test_another_store_at_the_same_path_is_projected_afresh(tmp_path: Path) -> None:
    """The projections' catalog outlives a store file removed by hand; a new store at the
    same path, even with as many changes counted, is not taken for the old one."""
    db = tmp_path / "warren.db"
    first = fill(db, games=3, seed=3)
    with Store(db) as store:
        refresh(store)
    db.unlink()
    second = fill(db, games=3, seed=4, start=10)
    assert not set(first) & set(second)
    with Store(db) as store:
        report = refresh(store)
    assert report.rebuilt and report.games == 3
    assert sorted(r[0] for r in _rows(db, "SELECT game_id FROM games")) == sorted(second)


def _two_rulesets(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Eight games of two rulesets, cut into slabs of two games for two workers."""
    fill(db, games=4)
    fill(db, "trust-no-bunny", games=4)
    monkeypatch.setattr(projections, "MIN_SLAB_GAMES", 1)


def test_worker_processes_give_the_tables_one_process_gives(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "warren.db"
    _two_rulesets(db, monkeypatch)
    tables = {}
    for jobs in (1, 2):
        with Store(db) as store:
            report = rebuild(store, jobs=jobs)
            parts = Projections(store).parts()
        assert report.games == 8
        tables[jobs] = {t: sorted(_rows(db, f"SELECT * FROM {t}"), key=repr) for t in TABLES}
        on_disk = set(analytics_dir(db).rglob("*.parquet*"))
        assert on_disk == {p for files in parts.values() for p in files}
    assert tables[1] == tables[2]
    assert len(tables[2]["games"]) == 8


def test_a_slab_that_fails_in_a_worker_leaves_no_part_behind(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "warren.db"
    _two_rulesets(db, monkeypatch)
    with Store(db) as store:
        doomed = sorted(g.game_id for g in store.games())[-1]
    original = projection_rows._Chunk.replay

    def failing(self, header, events, facts, stored):  # type: ignore[no-untyped-def]
        if header.game_id == doomed:
            raise projection_rows.AnalyticsError(f"game {doomed!r} cannot be projected")
        return original(self, header, events, facts, stored)

    monkeypatch.setattr(projection_rows._Chunk, "replay", failing)  # forked workers inherit it
    with Store(db) as store, pytest.raises(projection_rows.AnalyticsError, match="cannot be projected"):
        rebuild(store, jobs=2)
    with Store(db) as store:
        projected = Projections(store)
        parts = projected.parts()
        assert not projected.is_current()
        projected.close()
    on_disk = set(analytics_dir(db).rglob("*.parquet*"))
    assert on_disk == {p for files in parts.values() for p in files}  # no .tmp, no orphan
    monkeypatch.setattr(projection_rows._Chunk, "replay", original)
    with Store(db) as store:
        refresh(store, jobs=2)
    assert _rows(db, "SELECT count(*), count(DISTINCT game_id) FROM games")[0] == (8, 8)


def test_effect_data_is_cut_into_one_json_text_each() -> None:
    values = [{"note": "two\nlines", "cards": [1, {"x": None}]}, {}, {"seat": 2, "name": "Zoë"}]
    texts = projection_rows._json_texts(values)
    assert [json.loads(t) for t in texts.to_pylist()] == values
    assert texts.to_pylist()[1] == "{}"
    assert projection_rows._json_texts([]).to_pylist() == []
