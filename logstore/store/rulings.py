"""Rulings: what a judge or a table decided at a position of a stored game, kept for good.

A ruling names a game (or a branch), the position (after seq N; the turn is kept too), the
question, the action judged and the engine's verdict on it, who decided, a note and the
time. Rulings are append-only (triggers refuse UPDATE, DELETE and a second row with the
same id, from any client); a ruling that turns out wrong is answered by a new one that
``supersedes`` it.

A ruling's id is derived from its content (``R-`` and the first 12 hex digits of the sha256
of its canonical JSON), so it is the same in every store it is exported to, and an edited
ruling cannot keep its id. Its position reference, ``warren://game/<id>?seq=N&ruling=<rid>``,
is what the dashboard turns into a link.

Export writes one JSON object per line: every ruling (``"kind": "ruling"``), and every
branch a ruling or the store holds (``"kind": "branch"``, with its record and its row), so a
register re-imported into another store keeps its branches and its links.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.dispute import Verdict
from engine.record import canon
from engine.rules import WarrenError
from logstore.store import branches
from logstore.store.errors import StoreError
from logstore.store.event_store import Store
from logstore.store.schema import append_only

SCHEMA = """
CREATE TABLE IF NOT EXISTS rulings (
    ruling_id TEXT PRIMARY KEY,        -- R-<12 hex>: derived from the content below
    game_id TEXT NOT NULL,             -- a game or a branch
    seq INTEGER NOT NULL,              -- the position: after this seq
    turn INTEGER,
    question TEXT NOT NULL,
    action TEXT,                       -- JSON: the action judged, in record form
    status TEXT,                       -- the engine's verdict: legal, illegal or disputed
    rule TEXT,                         -- the rule that forbids it, if illegal
    verdict TEXT,                      -- JSON: the engine's whole verdict
    decided_by TEXT NOT NULL,
    note TEXT,
    created TEXT NOT NULL,
    supersedes TEXT,                   -- an earlier ruling this one replaces
    ref TEXT NOT NULL                  -- warren://game/<id>?seq=N&ruling=<rid>
);
CREATE INDEX IF NOT EXISTS rulings_by_game ON rulings (game_id, seq);
""" + append_only("rulings", "rulings") + """
CREATE TRIGGER IF NOT EXISTS rulings_no_replace BEFORE INSERT ON rulings
WHEN EXISTS (SELECT 1 FROM rulings WHERE ruling_id = NEW.ruling_id)
BEGIN SELECT RAISE(ABORT, 'warren rulings are append-only: the ruling id is already stored'); END;
"""

EXPORT_FORMAT = 1
"""Version of the export file's lines (``"warren_rulings": 1`` on each)."""

_CONTENT = ("game_id", "seq", "turn", "question", "action", "status", "rule", "verdict",
            "decided_by", "note", "created", "supersedes")
"""The fields a ruling's id is derived from (everything but the id and the reference)."""
_COLUMNS = ("ruling_id", *_CONTENT, "ref")
_JSON_COLUMNS = ("action", "verdict")


class RulingError(StoreError):
    """A ruling that cannot be saved or imported."""


def install(conn: sqlite3.Connection) -> None:
    """Create the rulings table and its triggers if they are missing (writers only)."""
    conn.executescript(SCHEMA)


def _present(store: Store) -> bool:
    """Has this store a rulings table? Readers ask instead of creating it."""
    return store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'rulings'").fetchone() is not None


def position_ref(game_id: str, seq: int, ruling_id: str | None = None) -> str:
    """The link to a position (and a ruling) that the dashboard resolves."""
    ref = f"warren://game/{quote(game_id, safe='')}?seq={seq}"
    return ref + (f"&ruling={quote(ruling_id, safe='')}" if ruling_id else "")


@dataclass(slots=True)
class Ruling:
    """One saved ruling."""

    game_id: str
    seq: int
    question: str
    decided_by: str
    created: str
    turn: int | None = None
    action: dict[str, Any] | None = None
    status: str | None = None
    rule: str | None = None
    verdict: dict[str, Any] | None = None
    note: str | None = None
    supersedes: str | None = None
    ruling_id: str = field(default="")
    ref: str = field(default="")

    def content(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in _CONTENT}

    def derived_id(self) -> str:
        return "R-" + hashlib.sha256(canon(self.content())).hexdigest()[:12]

    def seal(self) -> Ruling:
        """Fill in the id and the reference from the content."""
        self.ruling_id = self.derived_id()
        self.ref = position_ref(self.game_id, self.seq, self.ruling_id)
        return self

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        engine = self.status or "no verdict"
        if self.rule:
            engine += f" by {self.rule}"
        head = f"{self.ruling_id}  {self.game_id} @ seq {self.seq}"
        if self.turn is not None:
            head += f" (turn {self.turn})"
        text = (f"{head}: {self.question}\n"
                f"    engine: {engine}; decided by {self.decided_by} at {self.created}")
        if self.note:
            text += f"\n    note: {self.note}"
        if self.supersedes:
            text += f"\n    supersedes {self.supersedes}"
        return text + f"\n    {self.ref}"


def make_ruling(
    game_id: str,
    seq: int,
    question: str,
    decided_by: str,
    created: str,
    *,
    verdict: Verdict | None = None,
    turn: int | None = None,
    note: str | None = None,
    supersedes: str | None = None,
) -> Ruling:
    """A ruling with its id and reference, carrying the engine's verdict if one was asked."""
    if not question.strip():
        raise RulingError("a ruling needs the question it answers")
    if not decided_by.strip():
        raise RulingError("a ruling needs who decided it")
    v = None if verdict is None else verdict.to_dict()
    return Ruling(
        game_id=game_id, seq=seq, turn=turn, question=question, decided_by=decided_by,
        created=created, note=note, supersedes=supersedes,
        action=None if v is None else v["action"],
        status=None if v is None else v["status"],
        rule=None if v is None or v["rule"] is None else v["rule"]["id"],
        verdict=v,
    ).seal()


def _row(ruling: Ruling) -> list[Any]:
    out = []
    for column in _COLUMNS:
        value = getattr(ruling, column)
        out.append(json.dumps(value, ensure_ascii=False) if column in _JSON_COLUMNS and value is not None
                   else value)
    return out


def _from_row(row: Iterable[Any]) -> Ruling:
    values = dict(zip(_COLUMNS, row, strict=True))
    for column in _JSON_COLUMNS:
        if values[column] is not None:
            values[column] = json.loads(values[column])
    return Ruling(**values)


def save(store: Store, ruling: Ruling) -> Ruling:
    """Store a ruling for good. The game must be in the store and the position must exist."""
    install(store.conn)
    if ruling.ruling_id != ruling.derived_id():
        raise RulingError(f"ruling {ruling.ruling_id!r}: its id does not match its content "
                          "(was it edited after it was made?)")
    row = store.game(ruling.game_id)
    last = row.n_events if row.ok else (row.violation_seq or 1) - 1
    if not 0 <= ruling.seq <= last:
        raise RulingError(f"ruling on {ruling.game_id!r} at seq {ruling.seq}: "
                          f"the game has positions 0..{last}")
    if ruling.supersedes is not None and get(store, ruling.supersedes) is None:
        raise RulingError(f"ruling supersedes {ruling.supersedes!r}, which is not in this store")
    try:
        with store.conn:
            store.conn.execute(
                f"INSERT INTO rulings ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                _row(ruling),
            )
    except sqlite3.IntegrityError as exc:
        raise RulingError(f"ruling {ruling.ruling_id}: {exc}") from None
    return ruling


def get(store: Store, ruling_id: str) -> Ruling | None:
    if not _present(store):
        return None
    row = store.conn.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM rulings WHERE ruling_id = ?", (ruling_id,)
    ).fetchone()
    return None if row is None else _from_row(row)


def list_rulings(store: Store, game_id: str | None = None) -> list[Ruling]:
    """Rulings in the order they were made (of one game or branch, if given)."""
    if not _present(store):
        return []
    sql = f"SELECT {', '.join(_COLUMNS)} FROM rulings"
    args: tuple[Any, ...] = ()
    if game_id is not None:
        sql += " WHERE game_id = ?"
        args = (game_id,)
    rows = store.conn.execute(sql + " ORDER BY created, ruling_id", args).fetchall()
    return [_from_row(r) for r in rows]


def superseded(store: Store) -> set[str]:
    """Ids of rulings a later ruling replaces."""
    if not _present(store):
        return set()
    return {r[0] for r in store.conn.execute("SELECT supersedes FROM rulings WHERE supersedes IS NOT NULL")}


# -- export and import -------------------------------------------------------------------------
def export_lines(store: Store, game_id: str | None = None) -> list[str]:
    """The register as JSON lines: branches first (parents before children), then rulings."""
    chosen = list_rulings(store, game_id)
    if game_id is None:
        infos = branches.list_branches(store)
    else:
        wanted = {r.game_id for r in chosen} | {game_id}
        infos = [b for b in branches.list_branches(store) if b.game_id in wanted
                 or any(b.game_id == g for w in wanted for g, _ in branches.lineage(store, w))]
    depth = {b.game_id: len(branches.lineage(store, b.game_id)) for b in infos}
    lines = []
    for info in sorted(infos, key=lambda b: (depth[b.game_id], b.game_id)):
        lines.append(json.dumps({
            "warren_rulings": EXPORT_FORMAT, "kind": "branch", "branch": info.to_dict(),
            "record": store.export(info.game_id).decode(),
        }, ensure_ascii=False, sort_keys=True))
    for ruling in chosen:
        lines.append(json.dumps({"warren_rulings": EXPORT_FORMAT, "kind": "ruling", **ruling.to_dict()},
                                ensure_ascii=False, sort_keys=True))
    return lines


@dataclass(slots=True)
class ImportSummary:
    rulings: int = 0
    rulings_present: int = 0
    branches: int = 0
    branches_present: int = 0
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def import_lines(store: Store, lines: Iterable[str], path: str = "<rulings>") -> ImportSummary:
    """Import an exported register. Idempotent: what is already stored is left as it is.

    Every line is read and checked before anything is stored: a line that cannot be read,
    a ruling whose id does not match its content, or a branch stored here with other events
    refuses the whole file, naming the line.
    """
    install(store.conn)
    branches.install(store.conn)
    items: list[tuple[str, branches.BranchInfo | Ruling, str | None]] = []
    for lineno, text in enumerate(lines, start=1):
        if text.strip():
            items.append(_read_line(store, text, f"{path}:{lineno}"))
    coming = {item.game_id for _, item, _ in items if isinstance(item, branches.BranchInfo)}
    for where, item, _ in items:
        if isinstance(item, Ruling) and item.game_id not in coming and item.game_id not in store:
            raise RulingError(f"{where}: ruling {item.ruling_id} is about game {item.game_id!r}, "
                              "which is not in this store (import the game first)")
    summary = ImportSummary()
    for where, item, record in items:
        if isinstance(item, Ruling):
            _import_ruling(store, item, where, summary)
        else:
            assert record is not None
            _import_branch(store, item, record, where, summary)
    return summary


def _read_line(store: Store, text: str, where: str) -> tuple[str, branches.BranchInfo | Ruling, str | None]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulingError(f"{where}: not valid JSON ({exc.msg})") from None
    if not isinstance(obj, dict) or obj.get("warren_rulings") != EXPORT_FORMAT:
        raise RulingError(f"{where}: not a line of a warren rulings export "
                          f"(expected \"warren_rulings\": {EXPORT_FORMAT})")
    kind = obj.get("kind")
    if kind == "branch":
        try:
            info = branches.BranchInfo(**obj["branch"])
            record = obj["record"]
        except (KeyError, TypeError) as exc:
            raise RulingError(f"{where}: a branch line needs 'branch' and 'record' ({exc})") from None
        if not isinstance(record, str):
            raise RulingError(f"{where}: a branch's 'record' is the record's text")
        if info.game_id in store and store.export(info.game_id).decode() != record:
            raise RulingError(f"{where}: branch {info.game_id!r} is stored here with other events")
        return where, info, record
    if kind == "ruling":
        fields = {k: v for k, v in obj.items() if k not in ("warren_rulings", "kind")}
        try:
            ruling = Ruling(**fields)
        except TypeError as exc:
            raise RulingError(f"{where}: not a ruling ({exc})") from None
        if ruling.ruling_id != ruling.derived_id():
            raise RulingError(f"{where}: ruling {ruling.ruling_id!r} does not match its content "
                              "(edited after export?); refused")
        return where, ruling, None
    raise RulingError(f"{where}: unknown kind {kind!r} (ruling or branch)")


def _import_branch(store: Store, info: branches.BranchInfo, record: str, where: str,
                   summary: ImportSummary) -> None:
    if info.game_id in store:
        summary.branches_present += 1
        registered = store.conn.execute("SELECT 1 FROM branches WHERE game_id = ?",
                                        (info.game_id,)).fetchone()
        if registered is None and info.registered:
            branches.register(store, info)
        return
    # The branch's record names its parent, which must be stored (the import refuses it
    # otherwise); its game and its row go in together or not at all.
    branches.install(store.conn)
    row = (lambda conn: branches.insert_row(conn, info)) if info.registered else None
    try:
        store.import_bytes(record.encode(), f"{where} (branch {info.game_id})", also=row)
    except WarrenError as exc:
        raise RulingError(f"{where}: branch {info.game_id!r} cannot be imported: {exc}") from None
    summary.branches += 1


def _import_ruling(store: Store, ruling: Ruling, where: str, summary: ImportSummary) -> None:
    if get(store, ruling.ruling_id) is not None:
        summary.rulings_present += 1
        return
    save(store, ruling)
    summary.rulings += 1


def export_file(store: Store, path: Path, game_id: str | None = None) -> int:
    from logstore.store.files import write_file

    lines = export_lines(store, game_id)
    write_file(path, "".join(line + "\n" for line in lines))
    return len(lines)


def import_file(store: Store, path: Path) -> ImportSummary:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulingError(f"{path}: cannot read: {exc}") from None
    return import_lines(store, text.splitlines(), str(path))
