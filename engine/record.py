"""The game record: a JSON Lines file with a header line, then one event per line.

See ``docs/record-format.md`` for the field-by-field description. Chance is recorded, never
re-rolled; every line may carry a sha256 hash chained to the line before it, so an edit
anywhere is reported at the first line it breaks.

This module knows no game: the header, the event envelope, canonical bytes and the hash
chain. Decoding events needs a ruleset's event types; that is engine.reader's job.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

import msgspec

from engine.rules import WarrenError

FORMAT_VERSION = 2
"""The record format version this warren writes; older versions are upcast on read."""

CLOSED_FROM = 2
"""Records of this format version and later end with a seal line (``{"kind": "seal",
"events": n, ...}``): a record that does not is cut (docs/record-format.md#seal-lines).
Format 1 records, written before seal lines existed, read as before and are *open*."""

MAX_LINE_BYTES = 1 << 20
"""No line of a record is longer than this (1 MiB): a Trust No Bunny event is about 100
bytes and the largest deal a few kilobytes, so a longer line is not a record's, and
refusing it keeps a file of garbage from filling the memory."""

MAX_RECORD_LINES = 200_000
"""No record holds more lines than this: the longest game warren plays or has been shown is
a few thousand events (the simulator stops at 5,000), so a longer file is no game's record.
The reader stops at the first line past it, so what a file may make an import hold is
bounded whatever its length (a sealed record of 2.6 million events after its game's end
once took 1.67 GB to import)."""

Chain = Literal["sealed", "unsealed", "broken"]

End = Literal["closed", "open", "cut"]
"""How a record ends: ``closed`` by a seal line; ``open`` (a format 1 record, which has
none); ``cut`` (a format 2 record without its closing seal line: its end is missing)."""

# A claim value never holds a float: floats have two JSON spellings across encoders
# (1e16 vs 1e+16), which would make the canonical hash ambiguous.
ClaimValue = str | int | bool | None | list[str | int | bool | None]


class Player(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat at the table."""

    seat: int
    """0-based seat number, clockwise from the first seat."""
    name: str
    """The player's name as recorded."""


class Branch(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where a what-if branch leaves its parent game."""

    game_id: str
    """The parent game (or branch)."""
    seq: int
    """The last parent event the branch keeps; the branch's own events follow it."""


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
             omit_defaults=True):
    """Line 1 of every record."""

    warren: int
    """Record format version."""
    kind: Literal["header"]
    game_id: str
    """Unique id of the game."""
    ruleset: str
    """Slug of the ruleset, e.g. ``bunnies``."""
    options: dict[str, Any]
    """Variant choices (``{}`` for all defaults); every option has a documented default."""
    players: list[Player]
    source: Literal["simulated", "recorded", "imported"]
    created: str
    """RFC 3339 UTC time the record was created."""
    branch: Branch | None = None
    """Present on what-if branches only."""
    hash: str | None = None
    """sha256 of the canonical header without this field; absent on unsealed records."""


class Event(
    msgspec.Struct,
    frozen=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    kw_only=True,
    gc=False,
):
    """Fields shared by every event; each ruleset subclasses it once per event type."""

    seq: int
    """1, 2, 3... without gaps."""
    actor: int | None
    """The seat that acted, or null for chance and the table."""
    claims: list[dict[str, ClaimValue]] | None = None
    """Consequences the recorder claims followed; the engine checks them."""
    hash: str | None = None
    """sha256 of the previous line's hash and this event's canonical form."""


class Seal(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True,
           omit_defaults=True):
    """A seal line: the record (or the part of it before this line) is complete with
    ``events`` events. The last line of every record of format 2 and later."""

    kind: Literal["seal"]
    events: int
    """How many events come before this line."""
    hash: str | None = None
    """sha256 of the previous line's hash and this line's canonical form, as for an event;
    absent in an unsealed record."""


class RecordError(WarrenError):
    """A file that cannot be read as a record: where (file, line) and why."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_fast_canon = msgspec.json.Encoder(order="sorted")
_untyped = msgspec.json.Decoder()


def canon(obj: Any) -> bytes:
    """Canonical bytes of a JSON value, exactly as docs/record-format.md defines them."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def canon_event(obj: dict[str, Any]) -> bytes:
    """Canonical bytes of a float-free event: msgspec's sorted encoder, byte-equal to
    :func:`canon` on every value an event can hold (tested), and ~15x faster."""
    return _fast_canon.encode(obj)


def is_rfc3339(text: str) -> bool:
    """``text`` is an RFC 3339 date-time, whole (no trailing newline) and real (no month 13,
    no February 30; a leap second's 60 is allowed, as RFC 3339 allows it)."""
    found = _RFC3339.fullmatch(text)
    if found is None:
        return False
    year, month, day, hour, minute, second, off_h, off_m = (
        int(g) if g is not None else 0 for g in found.groups())
    try:
        date(year, month, day)
    except ValueError:
        return False
    return hour <= 23 and minute <= 59 and second <= 60 and off_h <= 23 and off_m <= 59


def header_hash(header: dict[str, Any]) -> str:
    body = {k: v for k, v in header.items() if k != "hash"}
    return hashlib.sha256(canon(body)).hexdigest()


def event_hash(prev_hash: str, event: dict[str, Any]) -> str:
    body = {k: v for k, v in event.items() if k != "hash"}
    return hashlib.sha256(prev_hash.encode() + canon_event(body)).hexdigest()


def seal_hash(prev_hash: str, events: int) -> str:
    """The hash of a seal line after ``events`` events, chained to the line before it."""
    return hashlib.sha256(prev_hash.encode() + canon_event({"events": events, "kind": "seal"})).hexdigest()


def seal_line(prev_hash: str | None, events: int, terminator: bytes = b"\n") -> bytes:
    """The canonical seal line that closes a record after ``events`` events: with its chained
    hash when ``prev_hash`` (the hash of the line before) is given, without for an unsealed
    record. Every writer of records closes them with this (simulate, the store's export, a
    recorder)."""
    body: dict[str, Any] = {"events": events, "kind": "seal"}
    if prev_hash is not None:
        body["hash"] = seal_hash(prev_hash, events)
    return canon_event(body) + terminator


def _from_1(header: dict[str, Any]) -> dict[str, Any]:
    # Format 2 added seal lines and changed nothing in the header.
    return {**header, "warren": 2}


# Upcasters turn a header (as a dict) of an older format version into the next version. The
# record keeps its own version (Record.version), which says whether it must end with a seal.
UPCASTERS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_1}


@dataclass(slots=True)
class Record:
    """A decoded record with its raw lines, ready to replay or store."""

    path: str
    header: Header
    events: list[Event]
    lines: list[bytes]
    """Raw header and event lines with their terminators (``lines[n]`` holds seq n); with
    the seal lines put back (:meth:`data`) they are the file, byte for byte."""
    chain: Chain
    broken_at: int | None
    """Seq of the first line whose hash does not match (0 for the header), else None. For a
    seal line that does not hold, or a missing closing seal, the seq of the first event it
    no longer vouches for (the number of events before it + 1)."""
    seals: list[tuple[int, bytes]] = field(default_factory=list)
    """Seal lines as ``(events before it, raw line)``, in order."""
    version: int = FORMAT_VERSION
    """The format version the record was written in (its header is upcast to this warren's)."""
    end: End = "closed"
    texts: list[str] | None = None
    """``lines`` as text, when the reader was asked to keep it (the store stores text)."""

    @property
    def game_id(self) -> str:
        return self.header.game_id

    @property
    def last_seal(self) -> int | None:
        """How many events the last seal line covers (None without a seal line)."""
        return self.seals[-1][0] if self.seals else None

    def raw_lines(self) -> list[bytes]:
        """Every line of the file in order, seal lines included."""
        if not self.seals:
            return list(self.lines)
        out: list[bytes] = []
        lines = self.lines
        at = 0
        for before, line in self.seals:
            out.extend(lines[at:before + 1])
            out.append(line)
            at = before + 1
        out.extend(lines[at:])
        return out

    def data(self) -> bytes:
        """The file, byte for byte."""
        return b"".join(self.raw_lines())


def _line_of_offset(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return out


def duplicate_key(line: bytes | str) -> str | None:
    """The first key that appears twice in one object of a JSON line (at any depth), or None.

    msgspec keeps the last of two equal keys and SQLite's ``json_extract`` the first, so a
    line with a duplicate key means two things to two readers: the reader refuses it. This
    costs a second parse, so readers ask it only of lines that are not canonical (a
    canonical line holds each key once by construction). Call it on valid JSON only."""
    try:
        json.loads(line, object_pairs_hook=_refuse_duplicates)
    except _DuplicateKey as found:
        return found.key
    except (ValueError, RecursionError):
        return None  # not for this check to judge: the decoder has already
    return None


def too_deep(path: str, line: int, what: str = "the line") -> RecordError:
    """The error for JSON nested deeper than the decoder's recursion limit (about a
    thousand levels; no record nests more than five)."""
    return RecordError(path, line, f"{what} is nested too deeply to be a record's (JSON arrays "
                       "and objects inside one another, hundreds of levels down)")


def read_header(line: bytes, path: str = "<record>") -> tuple[Header, int]:
    """Decode and validate line 1 of a record: the header (upcast to this warren's format)
    and the format version the record was written in."""
    try:
        raw = _untyped.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise RecordError(path, 1, f"header is not valid JSON ({exc})") from None
    except RecursionError:
        raise too_deep(path, 1, "the header") from None
    if not isinstance(raw, dict) or raw.get("kind") != "header":
        raise RecordError(path, 1, 'line 1 must be the header object ({"kind": "header", ...})')
    version = raw.get("warren")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(path, 1, "header has no integer format version in 'warren'")
    if version > FORMAT_VERSION:
        raise RecordError(
            path, 1, f"record format version {version} is newer than this warren ({FORMAT_VERSION})"
        )
    written = version
    if line.rstrip(b"\r\n") != _canon_or_none(raw):
        # Not warren's own canonical bytes: look for a key given twice (docs/record-format.md).
        twice = duplicate_key(line)
        if twice is not None:
            raise RecordError(path, 1, f"the header gives the key {twice!r} twice (each key once)")
    while version < FORMAT_VERSION:
        if version not in UPCASTERS:
            raise RecordError(path, 1, f"record format version {version} is not supported")
        raw = UPCASTERS[version](raw)
        version = raw["warren"]
    try:
        header = msgspec.convert(raw, Header)
    except msgspec.ValidationError as exc:
        raise RecordError(path, 1, f"bad header: {exc}") from None
    except RecursionError:
        raise too_deep(path, 1, "the header") from None
    if not is_rfc3339(header.created):
        raise RecordError(path, 1, f"bad header: 'created' is not an RFC 3339 time: {header.created!r}")
    seats = [p.seat for p in header.players]
    if seats != list(range(len(seats))):
        raise RecordError(path, 1, f"bad header: seats must be 0..{len(seats) - 1} in order, got {seats}")
    # A name is how a player is known across games (the store's players): each seat's name
    # is its own, spelling, case and spacing aside.
    seen: dict[str, Player] = {}
    for player in header.players:
        key = player_key(player.name)
        if not key:
            raise RecordError(path, 1, f"bad header: seat {player.seat} has no name")
        if key in seen:
            raise RecordError(path, 1, f"bad header: {player.name!r} is named twice (seats "
                              f"{seen[key].seat} and {player.seat}); give each player a name of their own")
        seen[key] = player
    return header, written


def player_key(name: str) -> str:
    """The name a player is known by across records: spacing collapsed, case folded and
    Unicode composed ("Ann  Lee" and "ann lee" are one player, and so are "José" typed as
    one letter é or as e and an accent)."""
    return unicodedata.normalize("NFC", " ".join(unicodedata.normalize("NFC", name).split()).casefold())


def shown_name(name: str) -> str:
    """A name as shown: spacing collapsed and Unicode composed, case kept."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def _canon_or_none(raw: dict[str, Any]) -> bytes | None:
    try:
        return canon(raw)
    except (ValueError, TypeError, RecursionError):
        return None


def decode_header(line: bytes, path: str = "<record>") -> Header:
    """Decode and validate line 1 of a record (upcasting older format versions)."""
    return read_header(line, path)[0]


def record_version(header_line: bytes | str) -> int:
    """The format version a stored header line was written in (it decodes: it was read)."""
    raw = _untyped.decode(header_line)
    version = raw.get("warren") if isinstance(raw, dict) else None
    return version if isinstance(version, int) else FORMAT_VERSION


def split_lines(data: bytes, path: str) -> list[bytes]:
    """Split a record into raw lines (terminators kept), refusing binary and non-UTF-8 data."""
    if not data.strip():
        raise RecordError(path, 1, "empty file: a record starts with a header line")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RecordError(path, _line_of_offset(data, nul), "binary data (NUL byte), not a JSON Lines record")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(path, _line_of_offset(data, exc.start), "not UTF-8 text") from None
    return data.splitlines(keepends=True)


def is_seal(body: object) -> bool:
    """Is this decoded line a seal line? (An event never has a top-level ``kind``: the name
    belongs to the header and seal lines, and rulesets may not use it for an event field.)"""
    return isinstance(body, dict) and body.get("kind") == "seal"


def verify_chain(lines: Sequence[bytes]) -> tuple[Chain, int | None]:
    """Check the hash chain of raw record lines (seal lines included): sealed, unsealed, or
    broken at a seq. The reference: readers take faster routes to the same answer.

    A seal line is chained like an event and must count the events before it; a record of
    format 2 or later whose last line is not a seal line is broken at the seq after its
    last event (its end is missing)."""
    header = _untyped.decode(lines[0])
    version = header.get("warren")
    closes = isinstance(version, int) and version >= CLOSED_FROM
    stored = header.get("hash")
    sealed = stored is not None
    if sealed and (not isinstance(stored, str) or header_hash(header) != stored):
        return "broken", 0
    prev = stored or ""
    sha256 = hashlib.sha256
    encode = _fast_canon.encode
    n = 0
    closed = False
    for line in lines[1:]:
        body = _untyped.decode(line)
        seal_here = is_seal(body)
        claimed = body.pop("hash", None)
        if not sealed:
            if claimed is not None:
                return "broken", 0
        elif claimed is None or sha256(prev.encode() + encode(body)).hexdigest() != claimed:
            return "broken", n + 1
        if seal_here:
            if body.get("events") != n:
                return "broken", n + 1
        else:
            n += 1
        closed = seal_here
        if sealed:
            prev = claimed
    if closes and not closed:
        return "broken", n + 1
    return ("sealed" if sealed else "unsealed"), None


def event_to_dict(event: Event) -> dict[str, Any]:
    """The record form of an event (``type`` included, defaults left out)."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    return record


def header_to_dict(header: Header) -> dict[str, Any]:
    record: dict[str, Any] = msgspec.to_builtins(header)
    return record


def _closes(header: dict[str, Any]) -> bool:
    version = header.get("warren", FORMAT_VERSION)
    return isinstance(version, int) and version >= CLOSED_FROM


def seal(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> list[bytes]:
    """Lines of a sealed record: each line canonical, with its chained hash, and (format 2
    on) the closing seal line."""
    head = {k: v for k, v in header.items() if k != "hash"}
    prev = header_hash(head)
    out = [canon({**head, "hash": prev}) + b"\n"]
    for event in events:
        body = {k: v for k, v in event.items() if k != "hash"}
        prev = hashlib.sha256(prev.encode() + canon_event(body)).hexdigest()
        body["hash"] = prev
        out.append(canon_event(body) + b"\n")
    if _closes(head):
        out.append(seal_line(prev, len(events)))
    return out


def unsealed(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> list[bytes]:
    """Lines of an unsealed record (no hashes): what a hand-written record looks like; from
    format 2 on it too ends with a seal line, one without a hash."""
    head = {k: v for k, v in header.items() if k != "hash"}
    out = [canon(head) + b"\n"]
    out.extend(canon_event({k: v for k, v in e.items() if k != "hash"}) + b"\n" for e in events)
    if _closes(head):
        out.append(seal_line(None, len(events)))
    return out


def is_hex_hash(value: object) -> bool:
    return isinstance(value, str) and bool(_HEX64.match(value))
