"""Everything an import does before it touches the database: decode the record, verify its
hash chain, replay it with the rules, and lay out the rows.

It is a pure function of the file's bytes, so it can run in another process while this one
writes the previous game (see ``Store.import_paths(workers=...)``), and a refused record costs
no write lock at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import msgspec

from engine.reader import GameVisitor, read_record, walk
from engine.record import Chain, Event, Header, Record
from engine.registry import get_ruleset
from engine.rules import Violation, WarrenError
from engine.ruleset import GameState, Ruleset
from logstore.store import lines
from logstore.store.errors import BrokenChain, DuplicateGame
from logstore.store.reading import Prepended, open_record, read_for_store
from logstore.store.snapshots import SNAPSHOT_EVERY, dump_state

_actor = attrgetter("actor")
_untyped = msgspec.json.Decoder()
_tag_maps: dict[str, dict[type[Event], str]] = {}


@dataclass(slots=True)
class ReplayVerdict:
    """What replaying a whole stored game with the rules found: the verdict kept in its
    ``games`` row (not :class:`engine.dispute.Verdict`, the answer about one proposed action)."""

    n_events: int
    ok: bool
    violation_seq: int | None
    violation_rule: str | None
    violation_message: str | None
    over: bool
    winners: list[int] | None
    scores: list[int] | None


NEW_GAME = ReplayVerdict(0, True, None, None, None, False, None, None)


@dataclass(slots=True)
class Prepared:
    """A record ready to be written: one ``games`` row and one ``events`` row per line."""

    path: str
    header: Header
    chain: Chain
    verdict: ReplayVerdict
    texts: list[str]
    """Each line as stored (terminator kept), the header first."""
    types: list[str]
    actors: list[int | None]
    snapshots: list[tuple[int, bytes]]
    """(seq, serialised state) every SNAPSHOT_EVERY events."""
    seals: list[tuple[int, str]] = field(default_factory=list)
    """The record's seal lines as text, each with the number of events before it."""
    parts: list[tuple[str, bytes | None, str]] = field(default_factory=list)
    """Each line split around its hash, as the store keeps it (logstore.store.lines), made
    where the record is prepared (a helper process, on a large import)."""

    def split(self) -> list[tuple[str, bytes | None, str]]:
        return self.parts or [lines.split(text) for text in self.texts]

    @property
    def game_id(self) -> str:
        return self.header.game_id


def tags(ruleset: Ruleset[Any, Any]) -> dict[type[Event], str]:
    """Event class -> its ``type`` tag (the ``type`` column of its stored lines)."""
    found = _tag_maps.get(ruleset.slug)
    if found is None:
        found = {}
        for event_type in ruleset.record_types:
            tag = event_type.__struct_config__.tag  # msgspec types a tag as str | int | None
            if not isinstance(tag, str):
                raise TypeError(f"{event_type.__name__}: an event type is tagged with its type name")
            found[event_type] = tag
        _tag_maps[ruleset.slug] = found
    return found


def judge_game(
    ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event]
) -> tuple[ReplayVerdict, list[tuple[int, bytes]]]:
    """Replay every event with the rules: the verdict, and a snapshot every K events."""
    judged = walk(ruleset, header, events, _Judge(ruleset, len(events)))
    return judged.verdict, judged.snapshots


class _Judged:
    __slots__ = ("snapshots", "verdict")

    def __init__(self, verdict: ReplayVerdict, snapshots: list[tuple[int, bytes]]) -> None:
        self.verdict = verdict
        self.snapshots = snapshots


class _Judge(GameVisitor[_Judged]):
    """The store's walk over a game: its verdict, and a snapshot every K events."""

    every = SNAPSHOT_EVERY

    def __init__(self, ruleset: Ruleset[Any, Any], n_events: int) -> None:
        self.ruleset = ruleset
        self.n_events = n_events
        self.snapshots: list[tuple[int, bytes]] = []
        self.violation: Violation | None = None
        self.verdict = NEW_GAME

    def visit_position(self, state: GameState) -> None:
        if not state.over:
            self.snapshots.append((state.seq, dump_state(self.ruleset, state)))

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.violation = violation

    def end_game(self, state: GameState) -> None:
        violation = self.violation
        outcome = self.ruleset.outcome(state) if violation is None else None
        self.verdict = ReplayVerdict(
            n_events=self.n_events,
            ok=violation is None,
            violation_seq=None if violation is None else violation.seq,
            violation_rule=None if violation is None else violation.rule,
            violation_message=None if violation is None else violation.message,
            over=bool(state.over),
            winners=None if outcome is None else list(outcome.winners),
            scores=None if outcome is None or outcome.scores is None else list(outcome.scores),
        )

    def result(self) -> _Judged:
        return _Judged(self.verdict, self.snapshots)


def refuse_broken_chain(record: Record) -> None:
    """:class:`BrokenChain` for a record whose hash chain is broken, naming the seq (and
    whether the record was only cut after its last seal line)."""
    if record.chain == "broken":
        broken_at = record.broken_at or 0
        cut = record.end == "cut" and broken_at == len(record.events) + 1
        raise BrokenChain(record.path, record.header.game_id, broken_at, cut=cut)


def line_columns(ruleset: Ruleset[Any, Any],
                 events: Sequence[Event]) -> tuple[list[str], list[int | None]]:
    """Each stored line's ``type`` and ``actor`` columns, the header first."""
    return (["header", *map(tags(ruleset).__getitem__, map(type, events))],
            [None, *map(_actor, events)])


def prepare_record(record: Record, texts: list[str]) -> Prepared:
    """Judge a decoded record; refuse a broken chain (:class:`BrokenChain`, naming the seq)."""
    header = record.header
    refuse_broken_chain(record)
    ruleset = get_ruleset(header.ruleset)
    events = record.events
    verdict, snapshots = judge_game(ruleset, header, events)
    types, actors = line_columns(ruleset, events)
    seals = [(before, line.decode()) for before, line in record.seals]
    return Prepared(record.path, header, record.chain, verdict, texts, types, actors, snapshots, seals,
                    [lines.split(text) for text in texts])


def prepare(data: bytes, path: str) -> Prepared:
    """Decode, verify and judge one record file's bytes (``RecordError``, ``BrokenChain``)."""
    record, texts = read_for_store(data, path)
    return prepare_record(record, texts)


@dataclass(slots=True)
class Refused:
    """A file that cannot be imported, and why (a worker's answer)."""

    path: str
    game_id: str | None
    reason: str
    stored: bool = False
    """The file's game id is already in the store (it may be this very record: see
    ``Store.import_paths``, which tells a re-import from a different game)."""


HEAD_BYTES = 1 << 16
"""The first read of a file: its header line, to skip a stored game unread."""

_known: frozenset[str] = frozenset()
_db = ""


def start_worker(known: frozenset[str], db: str) -> None:
    """Pool initializer: the game ids already stored, so duplicates are skipped unread."""
    global _known, _db
    _known = known
    _db = db


def peek_game_id(data: bytes) -> str | None:
    """The game id on line 1 if it reads as a header; the full decode judges the rest."""
    end = data.find(b"\n")
    try:
        head = _untyped.decode(data if end < 0 else data[:end])
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    game_id = head.get("game_id") if isinstance(head, dict) else None
    return game_id if isinstance(game_id, str) else None


def prepare_path(path: str, known: Callable[[str], bool], db: str | None = None) -> Prepared | Refused:
    """Read and prepare one record file, as a stream; never raises for a bad file (or one
    whose game id ``known`` says is stored: it is not read further; ``db`` names the store
    in that answer, by default the one :func:`start_worker` was given)."""
    game_id = None
    try:
        with open_record(path) as stream:
            head = stream.read(HEAD_BYTES)  # one read, not a byte at a time (the file is raw)
            game_id = peek_game_id(head)
            if game_id is not None and known(game_id):
                stored_in = _db if db is None else db
                return Refused(path, game_id, str(DuplicateGame(game_id, stored_in)), stored=True)
            record = read_record(Prepended(head, stream), path, keep_text=True)
        assert record.texts is not None
        return prepare_record(record, record.texts)
    except OSError as exc:
        return Refused(path, game_id, f"{path}: cannot read: {exc.strerror or exc}")
    except MemoryError:
        return Refused(path, game_id, f"{path}: too large to read into memory")
    except WarrenError as exc:
        return Refused(path, game_id, str(exc))


def prepare_file(path: str) -> Prepared | Refused:
    """Read and prepare one file, in a worker process; never raises for a bad file."""
    return prepare_path(path, _known.__contains__)
