"""``warren verify``'s look at one stored game: every stored column derived again from the
lines and the rules, and the game's proof (logstore.store.proof).

The lines are the truth; everything else in the store is derived from them, and each derived
value is compared with what the lines give now:

- the lines themselves: numbered 0, 1, 2... without a gap, a sound hash chain and seal lines;
- ``games.n_events``: the last seq;
- ``event_lines.type`` and ``actor``: the type and actor of each line's event;
- the header's facts in ``games`` (ruleset, source, created, players, options, chain, the
  branch's parent): the header line's own;
- the verdict in ``games`` (ok, the first violation, over, winners, scores): a replay with
  this warren's rules.

A verdict that differs while the proof holds is stale (the rules changed since the game was
judged: ``warren recheck``), not tampered; everything else that differs was changed behind
warren's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from engine.record import Chain, Header, Record, RecordError
from engine.registry import get_ruleset
from logstore.store import lines, proof
from logstore.store.importing import judge_game, line_columns
from logstore.store.reading import read_for_store

if TYPE_CHECKING:
    from logstore.store.event_store import Store

Kind = Literal["tampered", "stale", "foreign"]

_unjson = msgspec.json.Decoder().decode
_LINES = (f"SELECT {lines.SEQ_SQL}, l.type, l.actor {lines.LINES_OF} WHERE k.game_id = ? ORDER BY l.id")

MAX_LINE_FINDINGS = 5
"""Lines whose type or actor disagree that are named one by one (the rest are counted)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One stored value that the lines (or the proof) do not bear out."""

    column: str
    """``games.winners``, ``event_lines.type``, ``proof``..."""
    message: str
    """In words: what the store says and what the lines give."""
    kind: Kind = "tampered"
    seq: int | None = None
    stored: Any = None
    derived: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "kind": self.kind, "seq": self.seq, "stored": self.stored,
                "derived": self.derived, "message": self.message}


@dataclass(slots=True)
class Audit:
    """What ``warren verify`` found of one game."""

    game_id: str
    chain: Chain
    broken_at: int | None
    standing: proof.Standing
    findings: list[Finding] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return self.chain != "broken" and self.standing == "proved" and not self.findings


def _names(header: Header, seats: Any) -> str:
    if not isinstance(seats, list):
        return "nobody" if seats is None else str(seats)
    names = [header.players[s].name if isinstance(s, int) and 0 <= s < len(header.players)
             else f"seat {s}" for s in seats]
    return ", ".join(names) or "nobody"


def audit_game(store: Store, game_id: str) -> Audit:
    """Everything ``warren verify`` checks of one game (see the module docstring)."""
    conn = store.conn
    standing = store.standing(game_id)
    found: list[Finding] = []
    if standing == "tampered":
        found.append(Finding("proof", "the game's lines or its row changed after warren signed them"))
    elif standing == "missing":
        found.append(Finding("proof", "the game has no proof: it was not written by warren"))
    elif standing == "foreign":
        found.append(Finding("proof", "the game was signed with another warren key (copied from another "
                             "machine or user): its lines cannot be proved here", kind="foreign"))
    rows = conn.execute(_LINES, (game_id,)).fetchall()
    record, chain, broken_at = read_chain(store, game_id, [seq for seq, _, _ in rows])
    audit = Audit(game_id, chain, broken_at, standing, found)
    if record is None:
        return audit
    row = store.game(game_id)
    _compare_lines(record, rows, found)
    _compare_header(record, row, found)
    if record.chain != "broken":
        _compare_verdict(record, row, "stale" if standing == "proved" else "tampered", found)
    return audit


def read_chain(store: Store, game_id: str, seqs: list[int]) -> tuple[Record | None, Chain, int | None]:
    """The game's record read again from its stored lines (``seqs``: their numbers), with its
    chain and first broken seq; no record where the lines have a gap or do not read."""
    gap = next((i for i, seq in enumerate(seqs) if seq != i), None)
    if gap is not None:
        return None, "broken", gap
    try:
        record = read_for_store(store.stored_bytes(game_id), game_id)[0]
    except RecordError as exc:
        return None, "broken", max((exc.line or 1) - 1, 0)
    return record, record.chain, record.broken_at


def _compare_lines(record: Record, rows: list[tuple[int, str, int | None]], found: list[Finding]) -> None:
    ruleset = get_ruleset(record.header.ruleset)
    types, actors = line_columns(ruleset, record.events)
    named = 0
    off = 0
    for (seq, kind, actor), want_kind, want_actor in zip(rows, types, actors, strict=False):
        for column, stored, derived in (("type", kind, want_kind), ("actor", actor, want_actor)):
            if stored == derived:
                continue
            off += 1
            if named < MAX_LINE_FINDINGS:
                named += 1
                found.append(Finding(f"event_lines.{column}", f"line {seq}: the store's {column} column "
                                     f"says {stored!r}, the line itself {derived!r}", seq=seq,
                                     stored=stored, derived=derived))
    if off > named:
        found.append(Finding("event_lines", f"{off - named} more type or actor column(s) disagree with "
                             "their lines"))


def _compare_header(record: Record, row: Any, found: list[Finding]) -> None:
    header = record.header
    branch = header.branch
    facts: list[tuple[str, Any, Any]] = [
        ("ruleset", row.ruleset, header.ruleset),
        ("source", row.source, header.source),
        ("created", row.created, header.created),
        ("players", row.players, [p.name for p in header.players]),
        ("options", row.options, _unjson(msgspec.json.encode(header.options))),
        ("chain", row.chain, record.chain),
        ("parent_game", row.parent_game, None if branch is None else branch.game_id),
        ("parent_seq", row.parent_seq, None if branch is None else branch.seq),
        ("n_events", row.n_events, len(record.events)),
    ]
    for column, stored, derived in facts:
        if stored != derived:
            found.append(Finding(f"games.{column}", f"the store's {column} says {_said(stored)}, the "
                                 f"record's lines {_said(derived)}", stored=stored, derived=derived))


def _said(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return "none" if value is None else str(value)


def _compare_verdict(record: Record, row: Any, kind: Kind, found: list[Finding]) -> None:
    ruleset = get_ruleset(record.header.ruleset)
    verdict, _ = judge_game(ruleset, record.header, record.events)
    header = record.header
    after = " (the rules changed since it was judged: `warren recheck` judges it again)" \
        if kind == "stale" else ""
    facts: list[tuple[str, Any, Any, str, str]] = [
        ("ok", row.ok, verdict.ok, "legal" if row.ok else "illegal", "legal" if verdict.ok else "illegal"),
        ("violation_seq", row.violation_seq, verdict.violation_seq, _said(row.violation_seq),
         _said(verdict.violation_seq)),
        ("violation_rule", row.violation_rule, verdict.violation_rule, _said(row.violation_rule),
         _said(verdict.violation_rule)),
        ("violation_message", row.violation_message, verdict.violation_message,
         repr(row.violation_message), repr(verdict.violation_message)),
        ("over", row.over, verdict.over, "over" if row.over else "not over",
         "over" if verdict.over else "not over"),
        ("winners", row.winners, verdict.winners, _names(header, row.winners),
         _names(header, verdict.winners)),
        ("scores", row.scores, verdict.scores, _said(row.scores), _said(verdict.scores)),
    ]
    for column, stored, derived, said, says in facts:
        if stored != derived:
            found.append(Finding(f"games.{column}", f"the store says {said}, a replay of its lines "
                                 f"says {says}{after}", kind=kind, stored=stored, derived=derived))
