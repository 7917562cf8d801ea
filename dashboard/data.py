"""The dashboard's only door to warren's data: the logstore library, cached per session.

Nothing here touches SQLite directly; every read and every write (rulings, branches, games
recorded at the table) goes through logstore.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from engine.record import Record
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.rules import WarrenError
from engine.ruleset import Perspective, Ruleset
from logstore.textsafe import markdown

if TYPE_CHECKING:
    import pyarrow as pa

    from logstore.analytics.views import PartsCatalog
    from logstore.store import Store
    from logstore.store.filling import Filling


def store_path() -> Path:
    """The store the dashboard serves: $WARREN_DB (set by `warren dashboard --db`) or ./warren.db."""
    from logstore.store import default_db_path

    return Path(os.environ.get("WARREN_DB") or default_db_path())


def exported_folder() -> Path | None:
    """The export the dashboard serves instead of a store: $WARREN_PARQUET (set by
    `warren dashboard --parquet`), or None. An export holds the tables only, so only the
    Overview, Stats and SQL pages are served on it."""
    value = os.environ.get("WARREN_PARQUET")
    return Path(value) if value else None


EXPORT_PAGES = ("overview", "stats", "sql")
"""The pages served on an export: it holds the tables, not the records a replay, a dispute
or a recording needs."""


def source_label() -> str:
    """What the dashboard reads, in a few words for a caption."""
    folder = exported_folder()
    return f"export {folder}" if folder is not None else f"store {store_path()}"


def _source() -> tuple[str, bool]:
    """Where the tables come from: ``(path, True)`` for an export, ``(store path, False)``."""
    folder = exported_folder()
    return (str(folder), True) if folder is not None else (str(store_path()), False)


def _parts(path: str, exported: bool) -> PartsCatalog:
    """The tables' parts: an export's as they are, or a store's projections, refreshed first."""
    from logstore.analytics.views import exported_parts, list_parts

    return exported_parts(Path(path)) if exported else list_parts(Path(path))


class StoreUnavailable(WarrenError):
    """No store, or a file that is not a warren store."""


def open_store() -> Store:
    """A Store for this rerun (opened read-write; the dashboard writes rulings and branches)."""
    from logstore.store import Store

    path = store_path()
    if not path.exists():
        raise StoreUnavailable(
            f"There is no store at {path}. Run `warren demo` to create one, or start the "
            "dashboard with `warren dashboard --db PATH`.")
    try:
        return Store(path, create=False)
    except WarrenError as exc:
        raise StoreUnavailable(f"{path} cannot be opened as a warren store: {exc}") from None
    except Exception as exc:  # a corrupt file surfaces as sqlite3.DatabaseError
        raise StoreUnavailable(f"{path} cannot be opened as a warren store: {exc}") from None


def store_stamp() -> float:
    """Changes whenever the store file (or the export's files) change, so cached reads are
    refreshed."""
    folder = exported_folder()
    if folder is not None:
        return max((p.stat().st_mtime for p in folder.glob("*/ruleset=*/*.parquet")), default=0.0)
    path = store_path()
    stamps = [p.stat().st_mtime for p in (path, Path(str(path) + "-wal")) if p.exists()]
    return max(stamps, default=0.0)


def filling() -> Filling | None:
    """How far `warren demo` has got adding simulated games to this store, if it is at it."""
    from logstore.store.filling import read_filling

    if exported_folder() is not None:
        return None  # an export is written whole, never filled while served
    return read_filling(store_path())


@st.cache_resource(show_spinner=False, max_entries=4)
def _games(path: str, stamp: float) -> list[dict[str, Any]]:
    # A resource, not data: one shared list (read-only by convention), so a rerun does not
    # copy a hundred thousand rows.
    from dataclasses import asdict

    with open_store() as store:
        return [asdict(row) for row in store.games()]


@st.cache_resource(show_spinner=False, max_entries=4)
def _exported_games(path: str, stamp: float) -> list[dict[str, Any]]:
    """An export's games as the pages read a store's (the facts its ``games`` table keeps)."""
    from logstore.analytics.duck import arrow
    from logstore.analytics.views import connect_exported

    try:
        con, _catalog = connect_exported(Path(path))
    except WarrenError as exc:
        raise StoreUnavailable(str(exc)) from None
    try:
        table = arrow(con, "SELECT game_id, ruleset, source, created, n_events, ok, over, violation_seq, "
                           "violation_rule, parent_game, parent_seq FROM games ORDER BY game_id")
    finally:
        con.close()
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def games() -> list[dict[str, Any]]:
    folder = exported_folder()
    if folder is not None:
        return _exported_games(str(folder), store_stamp())
    return _games(str(store_path()), store_stamp())


EMPTY_STORE = "The store is empty. Import records with `warren import PATH` or run `warren demo`."


def games_or_stop(*, allow_empty: bool = False) -> list[dict[str, Any]]:
    """Every page's first step: the games, or a clear message and the page stops there."""
    try:
        rows = games()
    except StoreUnavailable as exc:
        st.error(markdown(str(exc)))
        st.stop()
    if not rows and not allow_empty:
        st.info(EMPTY_STORE)
        st.stop()
    return rows


@dataclass(frozen=True)
class LoadedGame:
    record: Record
    ruleset: Ruleset[Any, Any]
    replay: Replay[Any]

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.record.header.players]


@st.cache_resource(show_spinner=False, max_entries=32)
def _load(path: str, game_id: str, stamp: float) -> LoadedGame:
    with open_store() as store:
        record = store.record(game_id)
    ruleset = get_ruleset(record.header.ruleset).for_game(record.header)
    return LoadedGame(record, ruleset, Replay(ruleset, record.header, record.events))


def load_game(game_id: str) -> LoadedGame:
    """The decoded game, folded once per session and store version (seeks are then cheap)."""
    return _load(str(store_path()), game_id, store_stamp())


def perspective_options(names: list[str]) -> list[str]:
    return ["referee", "spectator", *[f"seat {i}: {n}" for i, n in enumerate(names)]]


def parse_perspective(label: str) -> Perspective:
    """A label of :func:`perspective_options` as the engine's perspective."""
    if label.startswith("seat "):
        return int(label.split(":", 1)[0].split()[1])
    return "spectator" if label == "spectator" else "referee"


def perspective_label(value: int | str, names: list[str]) -> str:
    if isinstance(value, int) and 0 <= value < len(names):
        return f"seat {value}: {names[value]}"
    return str(value)


# -- disputes: verdicts over the loaded game, rulings and branches through logstore ------------
if TYPE_CHECKING:
    from engine.dispute import BranchPlan, Dispute, Verdict
    from logstore.store.branches import BranchInfo
    from logstore.store.rulings import Ruling


def dispute_for(game: LoadedGame) -> Dispute:
    """The loaded game opened for disputes, over its replay's snapshots (no second fold)."""
    from engine.dispute import Dispute

    replay = game.replay
    return Dispute(game.ruleset, game.record.header, last_seq=replay.last_seq, state_at=replay.state_at,
                   events=replay.events, violation=replay.violation,
                   seq_for_turn=replay.seq_for_turn)


@st.cache_data(show_spinner=False)
def _rulings(path: str, stamp: float, game_id: str | None) -> tuple[list[Ruling], set[str]]:
    from logstore.store import rulings

    with open_store() as store:
        return rulings.list_rulings(store, game_id), rulings.superseded(store)


def rulings(game_id: str | None = None) -> tuple[list[Ruling], set[str]]:
    """The saved rulings (of one game or branch, if given) and the ids later ones supersede."""
    return _rulings(str(store_path()), store_stamp(), game_id)


def ruling(ruling_id: str) -> Ruling | None:
    """One saved ruling, or None."""
    from logstore.store import rulings as register

    with open_store() as store:
        return register.get(store, ruling_id)


def save_ruling(game_id: str, seq: int, question: str, decided_by: str, *, verdict: Verdict | None = None,
                turn: int | None = None, note: str | None = None, supersedes: str | None = None) -> Ruling:
    """Store a ruling for good (append-only) through logstore.store.rulings."""
    from logstore.store import rulings as register
    from logstore.store.branches import now

    with open_store() as store:
        made = register.make_ruling(game_id, seq, question, decided_by, now(), verdict=verdict, turn=turn,
                                    note=note, supersedes=supersedes)
        return register.save(store, made)


@st.cache_data(show_spinner=False)
def _branches(path: str, stamp: float, game_id: str) -> list[BranchInfo]:
    from logstore.store.branches import list_branches

    with open_store() as store:
        return [b for b in list_branches(store, game_id) if b.parent_game == game_id]


def branches_of(game_id: str) -> list[BranchInfo]:
    """The stored what-if branches made directly from ``game_id`` (BranchInfo rows)."""
    return _branches(str(store_path()), store_stamp(), game_id)


def create_branch(parent: str, at: int, actions: list[str | dict[str, Any]], *, seat: int | None = None,
                  replaces: int | None = None, author: str | None = None,
                  note: str | None = None) -> tuple[BranchInfo, BranchPlan]:
    """Fork stored game ``parent`` after seq ``at`` and store the branch through logstore.store.branches.

    Raises engine.dispute.IllegalAlternative when an alternative is illegal (nothing stored).
    """
    from logstore.store.branches import create_branch as make

    with open_store() as store:
        return make(store, parent, at, actions, seat=seat, replaces=replaces, author=author, note=note)


# -- analytics (through logstore.analytics.views and logstore.analytics.stats) ---------------------------
@st.cache_data(show_spinner="Refreshing the statistics...", max_entries=16)
def _stat_results(path: str, stamp: float, ruleset: str | None, exported: bool) -> list[dict[str, Any]]:
    from logstore.analytics.stats import run_stat, section_of, stats_for
    from logstore.analytics.views import open_views

    con = open_views(_parts(path, exported), ruleset=ruleset)
    try:
        present = [r[0] for r in con.execute("SELECT DISTINCT ruleset FROM games").fetchall()]
        out = []
        for stat in stats_for(present if ruleset is None else [ruleset]):
            result = run_stat(con, stat)
            out.append({"name": stat.name, "title": stat.title, "description": stat.description,
                        "ruleset": stat.ruleset, "sql": stat.sql, "table": result.table,
                        "seconds": result.seconds, "section": section_of(stat)})
        return out
    finally:
        con.close()


def stat_results(ruleset: str | None) -> list[dict[str, Any]]:
    """Every canned stat that applies, run on the store's projections (refreshed first), or
    on the export's tables."""
    path, exported = _source()
    return _stat_results(path, store_stamp(), ruleset, exported)


@st.cache_data(show_spinner=False, max_entries=16)
def _impacts(path: str, stamp: float, ruleset: str, by: str) -> list[dict[str, Any]]:
    from logstore.analytics import wpa
    from logstore.analytics.views import connect
    from logstore.analytics.winmodel import read_kept

    models = [m for m in read_kept(Path(path)) if m.ruleset == ruleset]
    if not models:
        return []
    con, _ = connect(Path(path), ruleset=ruleset)  # with the WPA views of the kept models
    try:
        return [{"players": m.players, "rows": [i.to_dict() for i in wpa.impacts(con, m, by)]}  # type: ignore[arg-type]
                for m in models]
    finally:
        con.close()


def impacts(ruleset: str, by: str) -> list[dict[str, Any]] | None:
    """What each card, kind of play or seat did to its player's chance, per kept model of
    ``ruleset`` (logstore.analytics.wpa); None where the pages read an export (the models
    live in a store)."""
    path, exported = _source()
    if exported:
        return None
    return _impacts(path, store_stamp(), ruleset, by)


RESULT_ROWS = 100_000
RESULT_BYTES = 32 << 20
"""The most a query's result may hold on the SQL page: a page holds it in the browser too
(Streamlit refuses a message over 200 MB, and the server keeps every session's)."""


def run_query(sql: str, seconds: float = 10.0) -> pa.Table:
    """A user's SELECT in the sandbox (warren's tables only, time and memory limits)."""
    from logstore.analytics.sandbox import Limits, Sandbox

    limits = Limits(seconds=seconds, rows=RESULT_ROWS, result_bytes=RESULT_BYTES)
    with Sandbox(_parts(*_source()), limits) as box:
        return box.run(sql, shown="text")


@st.cache_data(show_spinner=False)
def _schema(path: str, stamp: float, exported: bool) -> dict[str, list[tuple[str, str]]]:
    from logstore.analytics.projections import TABLES
    from logstore.analytics.sandbox import Limits, Sandbox

    with Sandbox(_parts(path, exported), Limits(seconds=10.0)) as box:
        listed = box.run("SELECT table_name, column_name, data_type FROM information_schema.columns "
                         "ORDER BY table_name, ordinal_position").to_pylist()
    found: dict[str, list[tuple[str, str]]] = {name: [] for name in TABLES}
    for row in listed:
        if row["table_name"] in found:
            found[row["table_name"]].append((row["column_name"], row["data_type"]))
    return found


def schema() -> dict[str, list[tuple[str, str]]]:
    """Every table the SQL box may read (the sandbox's, in order), with its columns and types."""
    path, exported = _source()
    return _schema(path, store_stamp(), exported)


# -- recording at the table (through logstore.recording) --------------------------------------------
if TYPE_CHECKING:
    from logstore.recording.session import TableSession


@contextmanager
def table_session(game_id: str, at_seq: int | None = None) -> Iterator[TableSession]:
    """The game being recorded, at the position this page last showed (``at_seq``; None for
    the stored last event): its appends expect that seq (logstore.recording.session)."""
    from logstore.recording.session import TableSession

    with open_store() as store:
        yield TableSession(store, game_id, at_seq=at_seq)


def start_table_game(slug: str, names: list[str], options: dict[str, Any], game_id: str | None) -> str:
    """Store a new game recorded at the table (sealed, no event yet); its id."""
    from logstore.recording.session import TableSession, table_header

    header = table_header(slug, names, options, game_id)
    with open_store() as store:
        TableSession.start(store, header)
    return header.game_id


# -- players (through logstore.players) ---------------------------------------------------------------
if TYPE_CHECKING:
    from logstore.players.figures import League


@st.cache_resource(show_spinner="Counting the players' games...", max_entries=4)
def _league(path: str, stamp: float) -> League:
    from logstore.analytics.views import connect
    from logstore.players.figures import league

    con, _ = connect(Path(path))
    try:
        with open_store() as store:
            return league(store, con)
    finally:
        con.close()


def players_league() -> League:
    """Every player's figures and ratings (bots left out), refreshed when the store changes."""
    return _league(str(store_path()), store_stamp())


# -- analysis of a game: the chances, kept in the store (logstore.store.analyses) -------------
if TYPE_CHECKING:
    from engine.analysis.timeline import Analysis, Settings


def kept_analysis(game_id: str, perspective: Perspective, settings: Settings) -> Analysis | None:
    """The store's analysis of the game from ``perspective`` with ``settings``, if it keeps
    one that still holds (read once per store version: every step of the Replay page asks)."""
    asked = (settings.worlds, settings.rollouts, settings.seed, settings.bot)  # what Streamlit can hash
    return _kept_analysis(str(store_path()), store_stamp(), game_id, perspective, asked)


@st.cache_resource(show_spinner=False, max_entries=64)
def _kept_analysis(path: str, stamp: float, game_id: str, perspective: Perspective,
                   asked: tuple[int, int, int, str]) -> Analysis | None:
    from engine.analysis.timeline import Settings
    from logstore.store import analyses

    worlds, rollouts, seed, bot = asked
    settings = Settings(worlds=worlds, rollouts=rollouts, seed=seed, bot=bot)
    with open_store() as store:
        record = store.record(game_id)
        return analyses.cached(store.conn, game_id, analyses.Question(perspective, settings),
                               analyses.record_digest(record))


def work_out_analysis(game_id: str, perspective: Perspective, settings: Settings,
                      progress: Any = None, total: Any = None) -> Analysis:
    """Work the analysis out (on every core) and keep it in the store."""
    from logstore.store import analyses

    with open_store() as store:
        record = store.record(game_id)
        result, _kept = analyses.answer(store.conn, record, analyses.Question(perspective, settings),
                                        progress=progress, total=total)
    return result


def chances_of_action(game_id: str, seq: int, action: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """Every seat's chance after event ``seq`` and after ``action`` there (the referee's)."""
    from logstore.store import analyses

    with open_store() as store:
        record = store.record(game_id)
    return analyses.changes(record, seq, action, settings)


def model_first_look(game_id: str,
                     perspective: Perspective) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """The store's win model's chances at every turn's start of the game, as ``perspective``
    knows it, and the model's corpus; None when no model of that ruleset and player count
    is kept (logstore.analytics.winmodel)."""
    return _model_first_look(str(store_path()), store_stamp(), game_id, perspective)


@st.cache_data(show_spinner=False, max_entries=32)
def _model_first_look(path: str, stamp: float, game_id: str,
                      perspective: Perspective) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    from logstore.analytics import winmodel

    with open_store() as store:
        record = store.record(game_id)
        model = winmodel.model_for(store.conn, record.header.ruleset, len(record.header.players))
    if model is None:
        return None
    return winmodel.first_look(model, record, perspective), model.corpus


def luck_and_decisions(seats: list[tuple[str, str, int]]) -> dict[str, Any]:
    """A player's luck and own decisions per ruleset, from the referee's kept analyses of
    ``seats`` (game id, ruleset, seat): logstore.store.analyses.luck_and_decisions."""
    from logstore.store.analyses import luck_and_decisions as found

    with open_store() as store:
        return dict(found(store.conn, seats))
