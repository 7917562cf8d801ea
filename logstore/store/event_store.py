"""The event store: every game's record lines in one SQLite file, append-only.

Schema (details and the triggers in logstore.store.schema):

- ``events(game_id, seq, type, actor, line)``: one row per record line, the header as
  seq 0. ``line`` is the raw text with its terminator, so an export is the lines joined in
  seq order and gives back the imported file byte for byte (CRLF, a missing final
  newline and non-ASCII text included). ``type`` and ``actor`` are copied out for queries.
  It is a view: the lines are kept split around their hash, the hash as 32 bytes, under the
  game's number in the store (``event_lines``, ``game_keys``; logstore.store.lines), which
  keeps the store smaller than the records it holds. Triggers refuse UPDATE and DELETE,
  and any INSERT that is not the game's last seq + 1, whichever client writes.
- ``games``: the header's facts (fixed by a trigger) and the verdict of the last replay
  (derived: legal or the first violation, over, winners), one row per game.
- ``snapshots``: engine states every SNAPSHOT_EVERY events, derived and rebuildable, so
  resuming a long game for an append applies fewer than K events.

Why this way: the record lines are the truth and everything else is derived from them by
replay. An import decodes, verifies the hash chain and replays the whole game *before*
opening a write transaction, then writes it in one transaction, so a game is stored whole
or not at all. An append names the seq it expects to follow and checks it inside
``BEGIN IMMEDIATE``, so two writers can never interleave: the second gets
:class:`StaleSeq` and retries from the new state. WAL lets readers go on meanwhile.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from hashlib import sha256
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import msgspec
import sqlite_utils

from engine.corrections import Correction
from engine.reader import GameVisitor, walk
from engine.record import (
    CLOSED_FROM,
    Chain,
    Event,
    Header,
    Record,
    canon,
    canon_event,
    decode_header,
    event_to_dict,
    header_hash,
    header_to_dict,
    record_version,
    seal_line,
)
from engine.registry import get_ruleset
from engine.rules import RuleViolation, WarrenError
from engine.ruleset import GameState, Ruleset
from logstore.store import lines, proof, schema
from logstore.store.cores import helper_count
from logstore.store.errors import (
    BrokenChain,
    DuplicateGame,
    StaleSeq,
    StoreError,
    StoreUnwritable,
    UnknownGame,
    unwritable,
)
from logstore.store.feed import BUMP_SQL, StoreReader, decode_lines
from logstore.store.import_helper import prepared_by_helpers
from logstore.store.importing import (
    NEW_GAME,
    Prepared,
    Refused,
    ReplayVerdict,
    judge_game,
    peek_game_id,
    prepare,
    prepare_path,
    prepare_record,
    tags,
)
from logstore.store.reading import open_record, read_for_store, record_paths
from logstore.store.snapshots import SNAPSHOT_EVERY, anchor, digest, dump_state, layout, load_state

if TYPE_CHECKING:
    from logstore.store.audit import Audit

__all__ = [
    "DEFAULT_DB",
    "BrokenChain",
    "DuplicateGame",
    "GameRow",
    "ImportResult",
    "StaleSeq",
    "Store",
    "StoreError",
    "UnknownGame",
    "default_db_path",
]

DEFAULT_DB = "warren.db"
"""The store used when neither ``--db`` nor the WARREN_DB environment variable names one."""

PARALLEL_FROM = 32
"""From this many files on, import_paths prepares them in helper processes as well when a
core is idle (logstore.store.helpers: a forked helper is ready at once, and this process
prepares files itself until a helper is, so a helper never makes an import wait)."""

BUSY_TIMEOUT_S = 30.0
"""How long a writer waits for another writer's transaction before giving up."""

def default_db_path() -> Path:
    """WARREN_DB if set, else ``./warren.db``."""
    return Path(os.environ.get("WARREN_DB") or DEFAULT_DB)


@dataclass(slots=True)
class GameRow:
    """One stored game: its header's facts and the verdict of its replay."""

    game_id: str
    ruleset: str
    source: str
    created: str
    players: list[str]
    """Names in seat order."""
    n_events: int
    chain: Chain
    ok: bool
    """True when every stored event is legal."""
    violation_seq: int | None
    violation_rule: str | None
    violation_message: str | None
    over: bool
    winners: list[int] | None
    scores: list[int] | None
    imported_at: str
    parent_game: str | None
    parent_seq: int | None
    options: dict[str, Any]

    @property
    def status(self) -> Literal["violation", "over", "ok"]:
        """``violation`` (an illegal event is stored), ``over``, or ``ok`` (legal, in play)."""
        if not self.ok:
            return "violation"
        return "over" if self.over else "ok"


@dataclass(slots=True)
class ImportResult:
    """What became of one file given to :meth:`Store.import_paths`."""

    path: str
    game_id: str | None
    ok: bool
    """True when the game was stored (legal or not: see ``violation``)."""
    reason: str | None
    """Why it was refused (unreadable, broken chain, already stored), else None."""
    events: int
    violation: str | None = None
    """For a stored game with an illegal event: ``seq N RULE: message``."""
    already_stored: bool = False
    """The file is the very record already stored under its game id: nothing to do, and
    not an error (a different record with a stored game id is refused)."""


_GAME_COLUMNS = proof.GAME_COLUMNS
_VERDICT_COLUMNS = frozenset(f"games.{c}" for c in (
    "ok", "violation_seq", "violation_rule", "violation_message", "over", "winners", "scores"))
"""What a replay derives, and :meth:`Store.adopt` writes anew."""
_json = msgspec.json.encode
_unjson = msgspec.json.Decoder().decode
_union_types: dict[str, Any] = {}


def _now() -> str:
    # isoformat, not strftime: the same text, a fifth of the time (once per imported game)
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _json_or_null(value: list[int] | None) -> str | None:
    return None if value is None else _json(value).decode()


def _game_row(header: Header, chain: Chain, verdict: ReplayVerdict, imported_at: str) -> GameRow:
    branch = header.branch
    return GameRow(
        game_id=header.game_id, ruleset=header.ruleset, source=header.source, created=header.created,
        players=[p.name for p in header.players], n_events=verdict.n_events,
        chain=chain,
        ok=verdict.ok, violation_seq=verdict.violation_seq, violation_rule=verdict.violation_rule,
        violation_message=verdict.violation_message, over=verdict.over, winners=verdict.winners,
        scores=verdict.scores, imported_at=imported_at,
        parent_game=None if branch is None else branch.game_id,
        parent_seq=None if branch is None else branch.seq, options=dict(header.options),
    )


def _row_to_game(row: Sequence[Any]) -> GameRow:
    return GameRow(
        game_id=row[0], ruleset=row[1], source=row[2], created=row[3], players=_unjson(row[4]),
        n_events=row[5], chain=row[6], ok=bool(row[7]), violation_seq=row[8],
        violation_rule=row[9], violation_message=row[10], over=bool(row[11]),
        winners=None if row[12] is None else _unjson(row[12]),
        scores=None if row[13] is None else _unjson(row[13]),
        imported_at=row[14], parent_game=row[15], parent_seq=row[16], options=_unjson(row[17]),
    )


def _event_type(ruleset: Ruleset[Any, Any]) -> Any:
    """The type an appended event converts to: the game's events and corrections."""
    return ruleset.event_union


def _closing_seal(header_line: str, last_line: str, events: int) -> str:
    """The seal line that closes a stored record after its last line, in its style."""
    head = _unjson(header_line)
    prev = None
    if isinstance(head, dict) and head.get("hash") is not None:
        found = _unjson(last_line).get("hash")
        prev = found if isinstance(found, str) else ""
    trailing = last_line.endswith(("\n", "\r"))
    terminator = "\r\n" if (last_line if trailing else header_line).endswith("\r\n") else "\n"
    text = seal_line(prev, events, b"").decode()
    return text + terminator if trailing else terminator + text


class Store:
    """A warren store file. One per thread; any number of processes may share the file."""

    def __init__(self, path: str | Path | None = None, *, create: bool = True, adopt: bool = False) -> None:
        """Open (or, with ``create``, create) the store at ``path``. An SQLite file that
        holds another application's tables is refused unless ``adopt`` says to add
        warren's tables and triggers to it."""
        self.path = Path(path) if path is not None else default_db_path()
        if not create and not self.path.is_file():
            raise StoreError(f"no warren store at {self.path} (import a record to create one)")
        try:
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path}: {exc}") from None
        self.conn = conn
        proof.allow_writes(conn)
        try:
            self.db = sqlite_utils.Database(conn)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > schema.SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer warren (store format {version}, "
                    f"this warren reads up to {schema.SCHEMA_VERSION})"
                )
            tables = self.db.table_names() + self.db.view_names()
            if not create and "events" not in tables:
                raise StoreError(f"{self.path} is an SQLite file but not a warren store")
            foreign = [t for t in tables if t not in schema.WARREN_TABLES and not t.startswith("sqlite_")]
            if version == 0 and "events" not in tables and foreign and not adopt:
                shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
                raise StoreError(
                    f"{self.path} is another application's SQLite database (tables: {shown}); warren "
                    "will not add its tables and triggers to it. Give --db a new file, or, to add "
                    "them on purpose, import with --adopt-db")
            try:
                if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self.db.enable_wal()
                # WAL with synchronous=NORMAL: a commit is atomic and the file never corrupt;
                # a power cut may lose the last commits, never half of one.
                conn.execute("PRAGMA synchronous = NORMAL")
                if version < schema.SCHEMA_VERSION or schema.missing_triggers(conn):
                    schema.install(conn)
            except sqlite3.OperationalError as exc:
                error = unwritable(exc, self.path, "it needs to be brought up to this warren's format first")
                if isinstance(error, StoreUnwritable) and version == schema.SCHEMA_VERSION:
                    pass  # read-only but current: reading works, writes will say why they fail
                else:
                    raise error from None
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path} is not a warren store: {exc}") from None
        except BaseException:
            conn.close()
            raise

    # -- life cycle --------------------------------------------------------------------
    def close(self) -> None:
        self.conn.close()

    # -- what derived data reads (logstore.store.feed) -----------------------------------
    @property
    def reader(self) -> StoreReader:
        """Games' stored lines, versions and facts, read through this store's connection."""
        return StoreReader(self.conn)

    def change_count(self) -> int:
        """The store's change counter: every import, append, recheck and player change."""
        return self.reader.change_count()

    def bump_changes(self) -> None:
        """Count one change the ``games`` table does not see (a player merged or renamed):
        inside the caller's transaction, so it counts only if that commits."""
        self.conn.execute(BUMP_SQL)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _begin(self) -> None:
        """Take the write lock now, so no other writer can slip in between read and write."""
        self.conn.execute("BEGIN IMMEDIATE")

    def _rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    # -- importing ---------------------------------------------------------------------
    def import_bytes(self, data: bytes, path: str, *,
                     also: Callable[[sqlite3.Connection], None] | None = None) -> GameRow:
        """Decode, verify, judge and store one record file's bytes (see :meth:`import_record`).
        ``also``, if given, writes more rows in the same transaction (a branch's own row),
        so that the game and they are stored together or not at all."""
        game_id = peek_game_id(data)
        if game_id is not None and game_id in self:
            raise DuplicateGame(game_id, str(self.path))
        return self._write(prepare(data, path), also)

    def import_record(self, record: Record) -> GameRow:
        """Store a decoded record whole, in one transaction, with the verdict of its replay.

        Refuses a broken hash chain (:class:`BrokenChain`, naming the seq) and a game id
        already stored (:class:`DuplicateGame`). A game with an illegal event is stored,
        with its first violation as the verdict: a judge needs the game as it was played.
        """
        if record.game_id in self:
            raise DuplicateGame(record.game_id, str(self.path))
        texts = record.texts if record.texts is not None else [line.decode() for line in record.lines]
        return self._write(prepare_record(record, texts))

    def _write(self, game: Prepared, also: Callable[[sqlite3.Connection], None] | None = None) -> GameRow:
        """One transaction: the games row, every line, the snapshots; or nothing."""
        conn = self.conn
        game_id = game.game_id
        imported_at = _now()
        try:
            self._begin()
            try:
                key = self._insert_game(game.header, game.chain, game.verdict, imported_at)
            except sqlite3.IntegrityError:
                raise DuplicateGame(game_id, str(self.path)) from None
            if game.header.branch is not None:
                self._check_parent(game)
            rows = iter(lines.split_rows(game_id, key, game.types, game.actors, game.split()))
            # Each seal line goes in right after the event it follows (a trigger refuses
            # a seal line anywhere but after the game's last stored line).
            done = 0
            for before, text in game.seals:
                conn.executemany(lines.INSERT_SQL, islice(rows, before + 1 - done))
                conn.execute("INSERT INTO seals VALUES (?, ?, ?)", (game_id, before, text))
                done = before + 1
            conn.executemany(lines.INSERT_SQL, rows)
            if game.snapshots:
                self._insert_snapshots(game_id, get_ruleset(game.header.ruleset), game.snapshots,
                                       game.texts.__getitem__)
            if also is not None:
                also(conn)
            proof.prove_game(conn, game_id, (game.texts, game.types, game.actors, game.seals))
            proof.prove_store(conn)
            conn.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            self._rollback()
            raise unwritable(exc, self.path, f"game {game_id!r} was not stored") from None
        except BaseException:
            self._rollback()
            raise
        return _game_row(game.header, game.chain, game.verdict, imported_at)

    def _check_parent(self, game: Prepared) -> None:
        """A branch's header names its parent and the last parent event it keeps: the parent
        must be stored, have that event, and the branch must hold the parent's events up to
        it (the same events; the hashes differ, since the headers do)."""
        branch = game.header.branch
        assert branch is not None
        where = f"{game.path}: branch {game.game_id!r}"
        rows = self.conn.execute(
            lines.LINES_FROM, (branch.game_id, 1, branch.game_id, branch.seq)).fetchall()
        if branch.game_id not in self:
            raise StoreError(f"{where} names the parent game {branch.game_id!r}, which is not in "
                             f"{self.path}: import the parent first")
        if len(rows) != branch.seq or branch.seq > len(game.texts) - 1:
            raise StoreError(f"{where} leaves its parent {branch.game_id!r} after seq {branch.seq}, "
                             "which one of the two does not have")

        def body(line: str) -> Any:
            fields = _unjson(line)
            fields.pop("hash", None)
            return fields

        for seq, (row,) in enumerate(rows, start=1):
            if body(row) != body(game.texts[seq]):
                raise StoreError(f"{where}: its seq {seq} is not its parent {branch.game_id!r}'s seq "
                                 f"{seq}, though it claims to keep the parent's events up to {branch.seq}")

    def _insert_game(self, header: Header, chain: Chain, verdict: ReplayVerdict, imported_at: str) -> int:
        """The games row and the game's number in the store (its lines are kept under it)."""
        branch = header.branch
        self.conn.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}) VALUES ({', '.join('?' * 18)})",
            (
                header.game_id, header.ruleset, header.source, header.created,
                _json([p.name for p in header.players]).decode(), verdict.n_events, chain,
                int(verdict.ok), verdict.violation_seq, verdict.violation_rule,
                verdict.violation_message, int(verdict.over), _json_or_null(verdict.winners),
                _json_or_null(verdict.scores), imported_at,
                None if branch is None else branch.game_id, None if branch is None else branch.seq,
                _json(header.options).decode(),
            ),
        )
        cursor = self.conn.execute("INSERT INTO game_keys (game_id) VALUES (?)", (header.game_id,))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _insert_snapshots(
        self, game_id: str, ruleset: Ruleset[Any, Any], snapshots: Sequence[tuple[int, bytes]],
        line_at: Callable[[int], str],
    ) -> None:
        """Snapshots with what ties each to its events: the anchor of the line it follows
        (``line_at(seq)``, the stored text of event ``seq``) and its digest."""
        shape = layout(ruleset)
        rows = []
        for seq, blob in snapshots:
            after = anchor(line_at(seq))
            rows.append((game_id, seq, shape, blob, after, digest(game_id, seq, shape, after, blob)))
        self.conn.executemany("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?, ?, ?)", rows)

    def import_paths(
        self,
        paths: Iterable[Path],
        progress: Callable[[int], None] | None = None,
        *,
        workers: int | None = None,
    ) -> list[ImportResult]:
        """Import files, or every ``*.jsonl`` below a folder (sorted), one game per
        transaction, in order. Never raises for one bad file: its result says why.

        ``progress``, if given, is called with 1 after each file (an increment).
        ``workers`` > 0 decodes, verifies and judges files in that many helper processes
        while this one writes; by default, from PARALLEL_FROM files on, one helper fewer
        than the cores this process may use (at most 4: logstore.store.cores), else none.
        """
        files = [str(f) for f in record_paths(paths)]
        if workers is None:
            workers = helper_count() if len(files) >= PARALLEL_FROM else 0
        return self._write_all(self._prepared(files, workers), progress)

    def _prepared(self, files: list[str], workers: int) -> Iterator[Prepared | Refused]:
        # The stored game ids, read once: a file whose id is among them is not read further
        # (one that another writer stores meanwhile is still caught at its write).
        known = frozenset(r[0] for r in self.conn.execute("SELECT game_id FROM games"))
        db = str(self.path)
        if workers <= 0:
            for path in files:
                yield prepare_path(path, known.__contains__, db)
            return

        def here(path: str) -> Prepared | Refused:
            # As a helper prepares it: the same stored ids, the same store name in messages.
            return prepare_path(path, known.__contains__, db)

        yield from prepared_by_helpers(files, workers, known, db, here)

    def _already_stored(self, path: str, game_id: str) -> bool:
        """Is the file the very record stored under its game id (a re-import, not a clash)?"""
        try:
            with open_record(path) as stream:
                stored = self.stored_bytes(game_id)
                data = stream.read(len(stored) + 1)
        except (OSError, WarrenError):
            return False
        return data == stored

    def _write_all(
        self, games: Iterable[Prepared | Refused], progress: Callable[[int], None] | None
    ) -> list[ImportResult]:
        results = []
        stopped: str | None = None
        for game in games:
            if stopped is not None:
                result = ImportResult(game.path, game.game_id, False,
                                      f"{game.path}: not imported: the store stopped taking writes at "
                                      f"{stopped}", 0)
            elif isinstance(game, Refused):
                result = ImportResult(game.path, game.game_id, False, game.reason, 0)
                if game.stored and game.game_id is not None and self._already_stored(game.path, game.game_id):
                    result = ImportResult(game.path, game.game_id, False, "already in the store", 0,
                                          already_stored=True)
            else:
                try:
                    row = self._write(game)
                except DuplicateGame as exc:
                    result = ImportResult(game.path, game.game_id, False, str(exc), 0)
                    if self._already_stored(game.path, game.game_id):
                        result = ImportResult(game.path, game.game_id, False, "already in the store", 0,
                                              already_stored=True)
                except StoreUnwritable as exc:
                    # Nothing more can be written (a full disk, a read-only store): every game
                    # before this one is stored whole, this one and the rest not at all.
                    stopped = game.path
                    result = ImportResult(game.path, game.game_id, False,
                                          f"{game.path}: not imported: {exc}", 0)
                except StoreError as exc:
                    result = ImportResult(game.path, game.game_id, False, str(exc), 0)
                else:
                    violation = None
                    if not row.ok:
                        violation = f"seq {row.violation_seq} {row.violation_rule}: {row.violation_message}"
                    result = ImportResult(game.path, row.game_id, True, None, row.n_events, violation)
            results.append(result)
            if progress is not None:
                progress(1)
        return results

    # -- new games and appends -----------------------------------------------------------
    def create_game(self, header: Header, *, sealed: bool = True) -> GameRow:
        """Store a game with no events yet, to record it live with :meth:`append`.

        The header line is written canonically, with its hash unless ``sealed`` is False.
        """
        ruleset = get_ruleset(header.ruleset)
        try:
            ruleset.check_header(header)
        except WarrenError as exc:
            raise StoreError(f"cannot create game {header.game_id!r}: {exc}") from None
        head = {k: v for k, v in header_to_dict(header).items() if k != "hash"}
        if sealed:
            head["hash"] = header_hash(head)
        header = msgspec.convert(head, Header)
        chain: Chain = "sealed" if sealed else "unsealed"
        game = Prepared("<new game>", header, chain, NEW_GAME, [canon(head).decode() + "\n"],
                        ["header"], [None], [])
        return self._write(game)

    def append(self, game_id: str, events: Sequence[Event | dict[str, Any]], expect_seq: int) -> int:
        """Append events to a stored game and return the new last seq.

        ``expect_seq`` is the last seq the caller saw. If another writer has appended since,
        :class:`StaleSeq` is raised and nothing is stored: re-read the game and retry. Each
        event is an Event or a record dict; ``seq`` may be left out (it is the next one);
        ``hash`` is left out too (the store seals the line if the game is sealed). Every
        event is checked with the rules from the game's current state: the first illegal
        one raises :class:`RuleViolation` and nothing of the batch is stored.
        """
        conn = self.conn
        self._begin()
        try:
            last = conn.execute(lines.LAST_LINE, (game_id,)).fetchone()
            if last is None:
                raise UnknownGame(game_id, str(self.path))
            last_seq, last_line = last
            if last_seq != expect_seq:
                raise StaleSeq(game_id, expect_seq, last_seq)
            sealed_here = conn.execute(
                "SELECT line FROM seals WHERE game_id = ? AND seq = ?", (game_id, last_seq)).fetchone()
            if sealed_here is not None:
                last_line = sealed_here[0]  # the record's last line: the chain goes on from it
            self.require_proved(game_id)  # never sign, with new lines, what warren did not write
            row = self.game(game_id)
            if not row.ok:
                raise StoreError(
                    f"game {game_id!r} has an illegal event at seq {row.violation_seq} "
                    f"({row.violation_rule}); nothing can be appended after it"
                )
            header, state = self._resume(game_id, last_seq)
            ruleset = get_ruleset(header.ruleset)
            new = self._new_lines(ruleset, header, state, row.chain, last_line, events)
            if new.corrected:
                # The batch corrects the past: the game is judged again as corrected, and
                # the snapshots (states of the uncorrected past) are dropped.
                state = self._judge_corrected(game_id, ruleset, header, last_seq, new.events)
                conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
                new.snapshots = []
            key = conn.execute("SELECT key FROM game_keys WHERE game_id = ?", (game_id,)).fetchone()[0]
            conn.executemany(lines.INSERT_SQL, lines.rows_of(key, new.rows))
            if new.snapshots and not self._has_corrections(game_id):
                texts = {row[1]: row[4] for row in new.rows}
                self._insert_snapshots(game_id, ruleset, new.snapshots, texts.__getitem__)
            outcome = ruleset.outcome(state)
            conn.execute(
                "UPDATE games SET n_events = ?, over = ?, winners = ?, scores = ? WHERE game_id = ?",
                (
                    state.seq, int(state.over),
                    None if outcome is None else _json_or_null(outcome.winners),
                    None if outcome is None else _json_or_null(outcome.scores),
                    game_id,
                ),
            )
            proof.prove_game(conn, game_id)
            conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        return state.seq

    def _judge_corrected(self, game_id: str, ruleset: Ruleset[Any, Any], header: Header, last_seq: int,
                         new: list[Event]) -> GameState:
        """The state after ``new`` appended to the stored events, all corrections honoured;
        :class:`RuleViolation` if the corrected game is illegal at one of the new seqs."""
        events = [*self._stored_events(game_id, ruleset, last_seq), *new]
        effective, bad = ruleset.effective(events)
        state: GameState = ruleset.setup(header)
        try:
            ruleset.fold(state, effective)
        except RuleViolation as exc:
            if exc.seq is not None and exc.seq <= last_seq:
                # The correction makes an event already stored illegal: it stays out.
                exc.message = (f"{exc.message} (event {exc.seq}, once the correction is applied; "
                               "correct that event too, in the same batch)")
                exc.args = (f"{exc.rule}: {exc.message}",)
            raise
        if bad is not None:
            raise bad
        return state

    def _new_lines(
        self,
        ruleset: Ruleset[Any, Any],
        header: Header,
        state: GameState,
        chain: str,
        last_line: str,
        events: Sequence[Event | dict[str, Any]],
    ) -> _NewLines:
        """Check each event on ``state`` (which it advances) and write its line in the
        record's own style: its line terminator, and no final newline if it had none."""
        game_id = header.game_id
        sealed = chain == "sealed"
        prev = _unjson(last_line).get("hash") if sealed else ""
        if not isinstance(prev, str):
            raise StoreError(f"game {game_id!r}: its last line has no hash; run `warren verify`")
        trailing = last_line.endswith(("\n", "\r"))
        sample = last_line if trailing else self._header_line(game_id)
        terminator = "\r\n" if sample.endswith("\r\n") else "\n"
        union = _event_type(ruleset)
        tag_of = tags(ruleset)
        n_seats = len(header.players)
        out = _NewLines([], [])
        for given in events:
            seq = state.seq + 1
            body = event_to_dict(given) if isinstance(given, Event) else dict(given)
            claimed = body.pop("hash", None)
            if body.setdefault("seq", seq) != seq:
                raise StoreError(
                    f"game {game_id!r}: an event names seq {body['seq']}, but it would be {seq}"
                )
            try:
                event: Event = msgspec.convert(body, union)
            except msgspec.ValidationError as exc:
                raise StoreError(f"game {game_id!r}: bad event for seq {seq}: {exc}") from None
            if event.actor is not None and not 0 <= event.actor < n_seats:
                raise StoreError(f"game {game_id!r}: seq {seq}: actor {event.actor} is not a seat")
            out.events.append(event)
            if type(event) is Correction:
                out.corrected = True
            if out.corrected:
                state.seq = seq  # judged with the corrected game (Store._judge_corrected)
            else:
                try:
                    ruleset.apply(state, event)
                except RuleViolation as exc:
                    exc.seq = seq
                    raise
            body = event_to_dict(event)
            if sealed:
                prev = sha256(prev.encode() + canon_event(body)).hexdigest()
                if claimed is not None and claimed != prev:
                    raise StoreError(
                        f"game {game_id!r}: seq {seq}: the hash given does not continue the chain"
                    )
                body["hash"] = prev
            elif claimed is not None:
                raise StoreError(f"game {game_id!r} is unsealed: its events carry no hash")
            text = canon_event(body).decode()
            out.rows.append((game_id, seq, tag_of[type(event)], event.actor, text + terminator if trailing
                             else terminator + text))
            if seq % SNAPSHOT_EVERY == 0:
                out.snapshots.append((seq, dump_state(ruleset, state)))
        return out

    def _header_line(self, game_id: str) -> str:
        row = self.conn.execute(
            lines.LINE_AT, (game_id, 0)
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id, str(self.path))
        line: str = row[0]
        return line

    def _header(self, game_id: str) -> Header:
        return decode_header(self._header_line(game_id).encode(), game_id)

    # -- reading -----------------------------------------------------------------------
    def games(self, ruleset: str | None = None) -> list[GameRow]:
        """Every stored game (of one ruleset, if given), by game id."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games"
        if ruleset is None:
            rows = self.conn.execute(sql + " ORDER BY game_id").fetchall()
        else:
            rows = self.conn.execute(sql + " WHERE ruleset = ? ORDER BY game_id", (ruleset,)).fetchall()
        return [_row_to_game(r) for r in rows]

    def game(self, game_id: str) -> GameRow:
        """One stored game; :class:`UnknownGame` if there is none by that id."""
        row = self.conn.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise UnknownGame(game_id, str(self.path))
        return _row_to_game(row)

    def __contains__(self, game_id: object) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE game_id = ?", (game_id,)).fetchone() is not None

    def export(self, game_id: str) -> bytes:
        """The record exactly as it was imported (and appended to), byte for byte.

        A record of format 2 or later ends with a seal line (docs/record-format.md): an
        imported one has its own, kept with it; after events appended since (or for a game
        recorded live) the export writes the closing seal line, chained to the last line,
        in the record's own line style. It is not stored: the next append goes on from the
        record's last stored line, and the next export closes the record again.

        Only a game whose proof holds is exported (logstore.store.proof): lines that came
        into the store behind warren's back are refused, never sealed as if warren had
        judged them (:class:`StoreError`, which says to run ``warren verify``)."""
        self.require_proved(game_id)
        return self.stored_bytes(game_id)

    def stored_bytes(self, game_id: str) -> bytes:
        """The record's bytes as stored, proved or not: what warren itself reads a game from
        (a replay, ``warren verify``); what it hands out is :meth:`export`."""
        return "".join(self.export_lines(game_id)).encode()

    def standing(self, game_id: str) -> proof.Standing:
        """Whether the game is as warren last wrote it (logstore.store.proof)."""
        key = self.conn.execute("SELECT key FROM game_keys WHERE game_id = ?", (game_id,)).fetchone()
        if key is None:
            raise UnknownGame(game_id, str(self.path))
        return proof.standing(self.conn, key[0])

    def require_proved(self, game_id: str) -> None:
        """:class:`StoreError` unless the game's proof holds under this warren key."""
        found = self.standing(game_id)
        if found == "proved":
            return
        if found == "foreign":
            raise StoreError(
                f"game {game_id!r} in {self.path} was signed with another warren key (the store was "
                "copied from another machine or user), so this warren cannot prove its lines: "
                "`warren verify --adopt` checks it and signs it with this key")
        raise StoreError(
            f"game {game_id!r} in {self.path} was changed behind warren's back (its proof "
            f"{'is missing' if found == 'missing' else 'does not hold'}): run `warren verify` to "
            "see what changed")

    def export_lines(self, game_id: str) -> list[str]:
        """The record's lines as text, seal lines in their places (see :meth:`export`)."""
        rows = self.conn.execute(lines.GAME_LINES, (game_id,)).fetchall()
        if not rows:
            raise UnknownGame(game_id, str(self.path))
        texts = [r[1] for r in rows]
        seals = self.conn.execute(
            "SELECT seq, line FROM seals WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        out = texts
        if seals:
            out = []
            at = 0
            for before, text in seals:
                out.extend(texts[at:before + 1])
                out.append(text)
                at = before + 1
            out.extend(texts[at:])
        if record_version(texts[0]) >= CLOSED_FROM and (not seals or seals[-1][0] != len(texts) - 1):
            out.append(_closing_seal(texts[0], out[-1], len(texts) - 1))
        return out

    def record(self, game_id: str) -> Record:
        """The stored record, decoded again from its stored lines."""
        return read_for_store(self.stored_bytes(game_id), game_id)[0]

    def verify(self, game_id: str | None = None) -> list[tuple[str, Chain, int | None]]:
        """Re-check stored games' chains from their stored lines: ``(game_id, chain,
        broken_at)`` with chain ``sealed``, ``unsealed`` or ``broken`` and the first broken
        seq (``warren verify`` checks much more: :meth:`audit`).

        The triggers keep warren and every other client from editing a line, but a file
        can still be edited by other means (dropping the triggers first, a hex editor);
        this is how such an edit is found."""
        if game_id is None:
            ids = [r[0] for r in self.conn.execute("SELECT game_id FROM games ORDER BY game_id")]
        else:
            ids = [game_id]
        from logstore.store.audit import read_chain

        out: list[tuple[str, Chain, int | None]] = []
        for gid in ids:
            seqs = [seq for seq, _ in self.conn.execute(lines.GAME_LINES, (gid,))]
            if not seqs:
                raise UnknownGame(gid, str(self.path))
            stored = self.conn.execute("SELECT n_events FROM games WHERE game_id = ?", (gid,)).fetchone()
            if stored is not None and stored[0] > len(seqs) - 1 and seqs == list(range(len(seqs))):
                # Lines the game had are gone (the triggers were dropped first).
                out.append((gid, "broken", len(seqs)))
                continue
            _, chain, broken_at = read_chain(self, gid, seqs)
            out.append((gid, chain, broken_at))
        return out

    def audit(self, game_id: str) -> Audit:
        """Everything ``warren verify`` checks of one game: its chain, every stored column
        derived again from its lines, and its proof (logstore.store.audit)."""
        from logstore.store.audit import audit_game

        if game_id not in self:
            raise UnknownGame(game_id, str(self.path))
        return audit_game(self, game_id)

    def store_findings(self) -> list[proof.StoreFinding]:
        """What the store as a whole shows of games added or taken away behind warren's back."""
        return proof.store_findings(self.conn)

    def adopt(self, game_id: str) -> Audit:
        """Sign a game with this warren key after :meth:`audit` found nothing but a proof it
        cannot check (another key's, or none) and verdict columns a replay gives otherwise,
        which are written anew from the replay. Refused (:class:`StoreError`) for a broken
        chain or any other column that disagrees with the lines."""
        found = self.audit(game_id)
        if found.standing == "proved" and not found.findings:
            return found
        left = [f for f in found.findings if f.column != "proof" and f.kind == "tampered"
                and f.column not in _VERDICT_COLUMNS]
        if found.chain == "broken" or left:
            why = f"its chain is broken at seq {found.broken_at}" if found.chain == "broken" \
                else "; ".join(f"{f.column}: {f.message}" for f in left)
            raise StoreError(f"game {game_id!r} cannot be adopted: {why}")
        self._rejudge(game_id, sign_store=True)
        return self.audit(game_id)

    def _rejudge(self, game_id: str, *, sign_store: bool = False) -> None:
        """Replay a stored game and store its verdict and snapshots anew, signed, in one
        transaction (``sign_store``: the store's own proof too, as an adoption does)."""
        record = self.record(game_id)
        ruleset = get_ruleset(record.header.ruleset)
        verdict, snapshots = judge_game(ruleset, record.header, record.events)
        self._begin()
        try:
            self._write_verdict(game_id, verdict)
            self.conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            texts = record.texts or [line.decode() for line in record.lines]
            self._insert_snapshots(game_id, ruleset, snapshots, texts.__getitem__)
            proof.prove_game(self.conn, game_id)
            if sign_store:
                proof.prove_store(self.conn)
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _write_verdict(self, game_id: str, verdict: ReplayVerdict) -> None:
        self.conn.execute(
            "UPDATE games SET n_events = ?, ok = ?, violation_seq = ?, violation_rule = ?, "
            "violation_message = ?, over = ?, winners = ?, scores = ? WHERE game_id = ?",
            (
                verdict.n_events, int(verdict.ok), verdict.violation_seq, verdict.violation_rule,
                verdict.violation_message, int(verdict.over), _json_or_null(verdict.winners),
                _json_or_null(verdict.scores), game_id,
            ),
        )

    # -- states and snapshots ----------------------------------------------------------
    def state_at(self, game_id: str, seq: int | None = None) -> GameState:
        """The engine state of a stored game after ``seq`` (default: after its last legal
        event), resumed from the newest snapshot at or before it."""
        row = self.game(game_id)
        last = row.n_events if row.ok else (row.violation_seq or 1) - 1
        target = last if seq is None else seq
        if not 0 <= target <= last:
            raise StoreError(f"game {game_id!r} has legal positions 0..{last}, not {target}")
        return self._resume(game_id, target)[1]

    def _has_corrections(self, game_id: str) -> bool:
        return self.conn.execute(
            "SELECT 1 FROM events WHERE game_id = ? AND type = 'correct' LIMIT 1", (game_id,)
        ).fetchone() is not None

    def _stored_events(self, game_id: str, ruleset: Ruleset[Any, Any], upto: int) -> list[Event]:
        rows = self.conn.execute(
            lines.LINES_FROM, (game_id, 1, game_id, upto),
        ).fetchall()
        return decode_lines(ruleset, game_id, (r[0] for r in rows))

    def _resume(self, game_id: str, seq: int) -> tuple[Header, GameState]:
        header = self._header(game_id)
        ruleset = get_ruleset(header.ruleset)
        if self._has_corrections(game_id):
            # A correction rewrites the past: fold the game as corrected, from the start.
            effective, _ = ruleset.effective(self._stored_events(game_id, ruleset, seq))
            state = ruleset.setup(header)
            ruleset.fold(state, effective)
            return header, state
        state = self.load_snapshot(game_id, seq, header=header) or ruleset.setup(header)
        rows = self.conn.execute(
            lines.LINES_FROM, (game_id, state.seq + 1, game_id, seq),
        ).fetchall()
        ruleset.fold(state, decode_lines(ruleset, game_id, (r[0] for r in rows), first=state.seq + 1))
        return header, state

    def save_snapshot(self, game_id: str, state: GameState) -> None:
        """Keep ``state`` (the position after ``state.seq``) as a snapshot of the game."""
        self._begin()
        try:
            ruleset = get_ruleset(self._header(game_id).ruleset)
            line = self.conn.execute(lines.LINE_AT, (game_id, state.seq)).fetchone()
            if line is None:
                raise StoreError(f"game {game_id!r} has no event {state.seq} to keep a snapshot after")
            self._insert_snapshots(game_id, ruleset, [(state.seq, dump_state(ruleset, state))],
                                   lambda seq: str(line[0]))
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def load_snapshot(self, game_id: str, seq: int, *, header: Header | None = None) -> GameState | None:
        """The newest usable snapshot at or before ``seq``, or None. One that does not
        load as the ruleset's own state (another layout, a foreign object) is skipped."""
        header = header or self._header(game_id)
        ruleset = get_ruleset(header.ruleset)
        shape = layout(ruleset)
        rows = self.conn.execute(
            f"SELECT s.seq, s.state, s.after, s.digest, {lines.LINE_SQL} FROM snapshots AS s "
            f"JOIN event_lines AS l ON l.id = {lines.SNAPSHOT_LINE} "
            "WHERE s.game_id = ? AND s.seq <= ? AND s.layout = ? ORDER BY s.seq DESC",
            (game_id, seq, shape),
        ).fetchall()
        for at, blob, after, dig, line in rows:
            if after != anchor(line) or dig != digest(game_id, at, shape, after, blob):
                continue  # edited, or moved from another game or position: replay instead
            state = load_state(ruleset, blob)
            if state is not None and state.seq == at:
                return state
        return None

    def check_snapshots(self, game_id: str, *, repair: bool = True) -> list[int]:
        """Compare every snapshot of a game with the state its events give at that seq, and
        return the seqs of those that do not match (a digest or anchor that does not hold,
        a state that does not decode, or one that differs from the replayed state: forged,
        even with a recomputed digest). With ``repair`` the game's snapshots are then
        rebuilt from its events. Snapshots of an older layout are not judged (they are
        never loaded)."""
        header = self._header(game_id)
        ruleset = get_ruleset(header.ruleset)
        shape = layout(ruleset)
        rows = self.conn.execute(
            f"SELECT s.seq, s.state, s.after, s.digest, {lines.LINE_SQL} FROM snapshots AS s "
            f"LEFT JOIN event_lines AS l ON l.id = {lines.SNAPSHOT_LINE} "
            "WHERE s.game_id = ? AND s.layout = ? ORDER BY s.seq", (game_id, shape),
        ).fetchall()
        if not rows:
            return []
        record = self.record(game_id)
        stored: dict[int, GameState | None] = {}
        for at, blob, after, dig, line in rows:
            sound = line is not None and after == anchor(line) \
                and dig == digest(game_id, at, shape, after, blob)
            stored[at] = load_state(ruleset, blob) if sound else None
        # The game's own positions, from the reader's walk, against the stored ones.
        compared = walk(ruleset, header, record.events, _SnapshotCheck(ruleset, stored))
        bad = sorted(at for at in stored if at not in compared.matched)
        if bad and repair:
            _, snapshots = judge_game(ruleset, record.header, record.events)
            texts = record.texts or [line.decode() for line in record.lines]
            self._begin()
            try:
                self.conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
                if not self._has_corrections(game_id):
                    self._insert_snapshots(game_id, ruleset, snapshots, texts.__getitem__)
                self.conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return bad

    def drop_snapshots(self, game_id: str | None = None) -> None:
        """Forget snapshots; they are derived, and :meth:`recheck` writes them again."""
        self._begin()
        try:
            if game_id is None:
                self.conn.execute("DELETE FROM snapshots")
            else:
                self.conn.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def recheck(self, game_id: str | None = None) -> list[GameRow]:
        """Replay stored games again and store the new verdicts and snapshots (after a
        rules fix, say). The lines are untouched: only derived data changes."""
        ids = [game_id] if game_id is not None else [g.game_id for g in self.games()]
        out = []
        for gid in ids:
            self.require_proved(gid)  # a new verdict is signed: only over lines warren wrote
            self._rejudge(gid)
            out.append(self.game(gid))
        return out


@dataclass(slots=True)
class _NewLines:
    rows: list[tuple[str, int, str, int | None, str]]
    snapshots: list[tuple[int, bytes]]
    events: list[Event] = field(default_factory=list)
    corrected: bool = False
    """The batch holds a correction: its events are judged with the whole corrected game."""


class _SnapshotCheck(GameVisitor[Any]):
    """The positions a game's walk passes through, compared with its stored snapshots: a
    snapshot matches only where the walk reaches its seq, legally, in the same state (one
    at or after an illegal event has no position to match)."""

    every = SNAPSHOT_EVERY

    def __init__(self, ruleset: Ruleset[Any, Any], stored: dict[int, GameState | None]) -> None:
        self.equal = ruleset.codec.equal
        self.stored = stored
        self.matched: set[int] = set()
        if any(at % SNAPSHOT_EVERY for at in stored):  # spaced otherwise: look at every position
            self.every = 1

    def visit_position(self, state: GameState) -> None:
        snapshot = self.stored.get(state.seq)
        if snapshot is not None and self.equal(snapshot, state):
            self.matched.add(state.seq)

    def result(self) -> _SnapshotCheck:
        return self
