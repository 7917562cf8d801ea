"""What-if branches in the store, and stored games opened for disputes.

A branch is a game of its own: a full, sealed record whose header names its parent game
and the last parent seq it keeps (``branch: {game_id, seq}``), holding the parent's events
up to that seq and then the alternative events. It is stored like any game (its own
append-only stream in ``events``), so it can be replayed, checked, exported, queried and
branched from again.

What the record cannot hold is kept in the ``branches`` table beside it, append-only like
the events: how many parent events the alternatives stand in for, where the parent's
recorded continuation stopped being legal on the branch (as judged when the branch was
made), who made it and why. A branch re-imported into another store without that row is
still a branch (its header says so); :func:`list_branches` then derives what it can from
the records and recomputes the divergence.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from typing import Any

from engine.dispute import BranchDivergence, BranchPlan, Dispute, plan_branch
from engine.record import Event, Header, decode_header, event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.rules import WarrenError
from logstore.store import lines
from logstore.store.errors import StoreError, UnknownGame
from logstore.store.event_store import Store
from logstore.store.schema import append_only

BRANCH_MARK = "~"
"""Branch ids are ``<parent>~<n>``: the parent stays readable in the id."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS branches (
    game_id TEXT PRIMARY KEY,          -- the branch, stored as a game
    parent_game TEXT NOT NULL,
    parent_seq INTEGER NOT NULL,       -- the last parent event the branch keeps
    alternatives INTEGER NOT NULL,     -- events the branch adds after parent_seq
    replaced INTEGER NOT NULL,         -- parent events they stand in for
    continuation INTEGER NOT NULL,     -- parent events after those
    continued INTEGER NOT NULL,        -- of which stay legal on the branch, in a row
    divergence_parent_seq INTEGER,     -- the first that does not (null: all stay legal)
    divergence_seq INTEGER,            -- ... and the seq it would have on the branch
    divergence_rule TEXT,
    divergence_message TEXT,
    author TEXT,
    note TEXT,
    created TEXT NOT NULL
);
""" + append_only("branches", "branches") + """
CREATE TRIGGER IF NOT EXISTS branches_no_replace BEFORE INSERT ON branches
WHEN EXISTS (SELECT 1 FROM branches WHERE game_id = NEW.game_id)
BEGIN SELECT RAISE(ABORT, 'warren branches are append-only: the branch is already registered'); END;
"""

_COLUMNS = (
    "game_id", "parent_game", "parent_seq", "alternatives", "replaced", "continuation",
    "continued", "divergence_parent_seq", "divergence_seq", "divergence_rule",
    "divergence_message", "author", "note", "created",
)


def now() -> str:
    """The current time, RFC 3339 UTC (the clock is read here, never in the engine)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def install(conn: sqlite3.Connection) -> None:
    """Create the branches table and its triggers if they are missing (writers only)."""
    conn.executescript(SCHEMA)


def _present(store: Store) -> bool:
    """Has this store a branches table? Readers ask instead of creating it."""
    return store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'branches'").fetchone() is not None


@dataclass(slots=True)
class BranchInfo:
    """A stored branch: where it leaves its parent and where the parent's play stops fitting."""

    game_id: str
    parent_game: str
    parent_seq: int
    alternatives: int
    replaced: int
    continuation: int
    continued: int
    divergence_parent_seq: int | None
    divergence_seq: int | None
    divergence_rule: str | None
    divergence_message: str | None
    author: str | None
    note: str | None
    created: str
    registered: bool = True
    """False when the store has the branch's record but not its row (re-imported): the
    figures were derived from the records now."""
    already: bool = False
    """True when :func:`create_branch` found this very branch stored already (the same
    alternatives after the same seq of the same game) and stored no copy of it."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def divergence(self) -> str:
        if self.divergence_rule is None:
            return f"the parent's continuation ({self.continuation} events) stays legal"
        return (f"parent seq {self.divergence_parent_seq} is illegal on the branch (its seq "
                f"{self.divergence_seq}) by {self.divergence_rule}: {self.divergence_message}")


# -- stored games opened for disputes ----------------------------------------------------------
def stored_header(store: Store, game_id: str) -> Header:
    row = store.conn.execute(
        lines.LINE_AT, (game_id, 0)
    ).fetchone()
    if row is None:
        raise UnknownGame(game_id, str(store.path))
    return decode_header(row[0].encode(), f"{store.path}#{game_id}")


def stored_dispute(store: Store, game_id: str, *, with_events: bool = False) -> Dispute:
    """A stored game opened for disputes.

    Positions come from the store's snapshots (:meth:`Store.state_at`), so a verdict costs
    a seek from the nearest snapshot, not a replay from the start. With ``with_events`` the
    whole record is decoded as well (explaining events, turns).
    """
    row = store.game(game_id)
    header = stored_header(store, game_id)
    ruleset = get_ruleset(header.ruleset)
    last = row.n_events if row.ok else (row.violation_seq or 1) - 1
    if with_events:
        record = store.record(game_id)
        return Dispute.of_record(ruleset, record.header, record.events)
    from engine.replay import Violation

    violation = None if row.ok else Violation(
        row.violation_seq or 0, row.violation_rule or "", row.violation_message or "")
    return Dispute(ruleset, header, last_seq=last, violation=violation,
                   state_at=lambda seq: store.state_at(game_id, seq))


# -- making branches ----------------------------------------------------------------------------
def next_branch_id(store: Store, parent: str) -> str:
    """``<parent>~1``, ``<parent>~2``...: the first id not yet stored."""
    n = 1
    while f"{parent}{BRANCH_MARK}{n}" in store:
        n += 1
    return f"{parent}{BRANCH_MARK}{n}"


def branch_lines(plan: BranchPlan) -> list[bytes]:
    """The branch as a sealed record."""
    return seal(header_to_dict(plan.header), [event_to_dict(e) for e in plan.events])


def create_branch(
    store: Store,
    parent: str,
    at: int,
    actions: Sequence[str | dict[str, Any] | Event],
    *,
    seat: int | None = None,
    replaces: int | None = None,
    game_id: str | None = None,
    author: str | None = None,
    note: str | None = None,
    created: str | None = None,
) -> tuple[BranchInfo, BranchPlan]:
    """Fork stored game ``parent`` after seq ``at`` with ``actions`` and store the branch.

    The branch record is imported as a game (whole or not at all), then registered in
    ``branches``. Raises :class:`engine.dispute.IllegalAlternative` when an alternative is
    illegal, and a store error when ``at`` is not a position of the parent.
    """
    install(store.conn)
    record = store.record(parent)
    ruleset = get_ruleset(record.header.ruleset)
    start = store.state_at(parent, at)  # refuses a position the parent does not have
    branch_id = game_id or next_branch_id(store, parent)
    if branch_id in store:
        raise StoreError(f"a game {branch_id!r} is already stored; choose another branch name")
    stamp = created or now()
    plan = plan_branch(ruleset, record.header, record.events, at, actions, game_id=branch_id,
                       created=stamp, seat=seat, replaces=replaces, start=start)
    if game_id is None:
        same = _same_branch(store, parent, at, plan)
        if same is not None:
            # Opening the same what-if twice opens the one stored; a copy would only be
            # counted twice.
            return replace(same, already=True), plan
    info = _info(plan, author, note, stamp)
    # The game and its branches row in one transaction: a crash leaves neither, never an
    # unregistered branch that a rerun would duplicate.
    store.import_bytes(b"".join(branch_lines(plan)), f"<branch {branch_id} of {parent}>",
                       also=lambda conn: insert_row(conn, info))
    return info, plan


def _same_branch(store: Store, parent: str, at: int, plan: BranchPlan) -> BranchInfo | None:
    """A stored branch of ``parent`` after ``at`` whose events are the plan's, or None."""
    import msgspec

    def bodies(events: Sequence[Event]) -> list[Any]:
        out = []
        for e in events:
            body = msgspec.to_builtins(e)
            body.pop("hash", None)
            out.append(body)
        return out

    wanted = bodies(plan.events)
    for info in list_branches(store, parent):
        if info.parent_seq == at and bodies(store.record(info.game_id).events) == wanted:
            return info
    return None


def _info(plan: BranchPlan, author: str | None, note: str | None, created: str) -> BranchInfo:
    d: BranchDivergence | None = plan.divergence
    assert plan.header.branch is not None
    return BranchInfo(
        game_id=plan.header.game_id, parent_game=plan.header.branch.game_id, parent_seq=plan.at,
        alternatives=len(plan.alternatives), replaced=plan.replaced,
        continuation=plan.continuation, continued=plan.continued,
        divergence_parent_seq=None if d is None else d.parent_seq,
        divergence_seq=None if d is None else d.branch_seq,
        divergence_rule=None if d is None else d.rule,
        divergence_message=None if d is None else d.message,
        author=author, note=note, created=created,
    )


def insert_row(conn: sqlite3.Connection, info: BranchInfo) -> None:
    """Write a branch's row in the transaction under way (the table refuses a second)."""
    values = [getattr(info, c) for c in _COLUMNS]
    try:
        conn.execute(
            f"INSERT INTO branches ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
            values,
        )
    except sqlite3.IntegrityError as exc:
        raise StoreError(f"branch {info.game_id!r}: {exc}") from None


def register(store: Store, info: BranchInfo) -> None:
    """Add a branch's row (once: the table refuses a second row for the same branch)."""
    install(store.conn)
    with store.conn:
        insert_row(store.conn, info)


# -- reading branches ---------------------------------------------------------------------------
def branch_info(store: Store, game_id: str) -> BranchInfo:
    """One branch, from its row, or derived from the records if it has none."""
    row = None if not _present(store) else store.conn.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM branches WHERE game_id = ?", (game_id,)
    ).fetchone()
    if row is not None:
        return BranchInfo(**dict(zip(_COLUMNS, row, strict=True)))
    game = store.game(game_id)
    if game.parent_game is None:
        raise WarrenError(f"{game_id!r} is a game, not a branch (its header names no parent)")
    return derive_info(store, game_id)


def derive_info(store: Store, game_id: str) -> BranchInfo:
    """What a branch's records say about it, the alternatives taken to replace as many parent
    events as they are (the default when branching)."""
    branch = store.record(game_id)
    assert branch.header.branch is not None
    parent_id, at = branch.header.branch.game_id, branch.header.branch.seq
    alternatives = len(branch.events) - at
    info = BranchInfo(game_id, parent_id, at, alternatives, alternatives, 0, 0, None, None, None, None,
                      None, None, branch.header.created, registered=False)
    if parent_id not in store:
        info.divergence_message = f"parent {parent_id!r} is not in this store"
        return info
    parent = store.record(parent_id)
    ruleset = get_ruleset(branch.header.ruleset)
    replay = Replay(ruleset, branch.header, branch.events)
    if replay.violation is not None:
        info.divergence_message = f"the branch itself is illegal at seq {replay.violation.seq}"
        return info
    plan = plan_branch(ruleset, parent.header, parent.events, at, branch.events[at:],
                       game_id=game_id, created=branch.header.created, start=replay.state_at(at))
    derived = _info(plan, None, None, branch.header.created)
    derived.registered = False
    return derived


def list_branches(store: Store, parent: str | None = None) -> list[BranchInfo]:
    """Every branch in the store (of ``parent``, if given, including branches of its
    branches), registered or not, by id."""
    rows = store.conn.execute(
        "SELECT game_id FROM games WHERE parent_game IS NOT NULL ORDER BY game_id"
    ).fetchall()
    infos = [branch_info(store, r[0]) for r in rows]
    if parent is None:
        return infos
    family = {parent}
    changed = True
    while changed:
        changed = False
        for info in infos:
            if info.parent_game in family and info.game_id not in family:
                family.add(info.game_id)
                changed = True
    return [i for i in infos if i.game_id in family and i.game_id != parent]


def lineage(store: Store, game_id: str) -> list[tuple[str, int | None]]:
    """The chain of parents from the root game down to ``game_id``: (game, seq left at)."""
    chain: list[tuple[str, int | None]] = []
    current: str | None = game_id
    seen = set()
    while current is not None and current not in seen:
        seen.add(current)
        row = store.game(current)
        chain.append((current, row.parent_seq))
        current = row.parent_game if row.parent_game in store else None
    return list(reversed(chain))
