"""One reader for every use of a record: decode it, then walk it with a visitor.

Checking a file, importing it into the store, building projections and checking claims
all do the same thing: decode a record, fold its events with the rules, and look at what
happened on the way. They differ only in what they look at. So there is one decoder
(:func:`read_record`) and one walk (:func:`walk`), and each use is a :class:`GameVisitor`
(the python-chess ``pgn.read_game`` shape):

``begin_game(header)``
    before the first event, with the state set up;
``visit_event(event, effects, state)``
    after each event, with what it caused (only when the visitor ``wants_effects``: the
    plain fold is several times cheaper, and a check needs no effects);
``visit_position(state)``
    every ``every`` events (a store keeps snapshots there);
``visit_violation(violation, state)``
    at the first event the rules forbid (the walk stops there; ``state`` is as after
    the last clean event);
``end_game(state)`` and ``result()``
    at the end.

The record format itself (engine.record) knows no game; this module is where a record
meets its ruleset, through the registry.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from hashlib import sha256
from operator import attrgetter
from types import GenericAlias
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from engine.record import (
    CLOSED_FROM,
    MAX_LINE_BYTES,
    MAX_RECORD_LINES,
    Chain,
    End,
    Event,
    Header,
    Record,
    RecordError,
    Seal,
    duplicate_key,
    header_hash,
    is_seal,
    read_header,
    too_deep,
)
from engine.registry import get_ruleset
from engine.rules import Effect, RuleViolation, Violation, WarrenError
from engine.ruleset import GameState, Ruleset

R = TypeVar("R")


class ByteStream(Protocol):
    """What the reader reads a record from: a binary file, or anything with its ``read``."""

    def read(self, size: int = -1, /) -> bytes: ...

CHUNK_BYTES = 1 << 20
"""A record is read this many bytes at a time: memory holds one game and one chunk, never
a whole file of garbage (a 250 MB file of newlines stops at its first blank line)."""

_canonical = msgspec.json.Encoder(order="sorted")
_untyped = msgspec.json.Decoder()
_array_decoders: dict[str, msgspec.json.Decoder[list[Event]]] = {}
_seq = attrgetter("seq")
_actor = attrgetter("actor")
_hash = attrgetter("hash")
_HASH_MEMBER = b',"hash":"'
_KIND = b'"kind"'


def _reason(exc: Exception) -> str:
    text = str(exc)
    if text.startswith("Invalid value") and "$.type" in text:
        return "unknown event type " + text.split("Invalid value ", 1)[1].split(" - ")[0]
    return text


def array_decoder(ruleset: Ruleset[Any, Any]) -> msgspec.json.Decoder[list[Event]]:
    """A decoder of a JSON array of the ruleset's events (built once per ruleset)."""
    decoder = _array_decoders.get(ruleset.slug)
    if decoder is None:
        # list[Union[...]] of the ruleset's event types, spelled as the call it is at run time
        decoder = msgspec.json.Decoder(GenericAlias(list, (ruleset.event_union,)))
        _array_decoders[ruleset.slug] = decoder
    return decoder


def read_record(
    data: bytes | ByteStream,
    path: str = "<record>",
    ruleset: Ruleset[Any, Any] | None = None,
    *,
    keep_text: bool = False,
    fast: bool = True,
) -> Record:
    """Decode a whole record, from its bytes or a binary stream read a chunk at a time; raise
    :class:`RecordError` naming the line and the reason at the first line that is wrong.

    Checks structure only (types, seq order, seats, duplicate keys, the hash chain and the
    seal lines); legality is the walk's job. ``keep_text`` keeps each line as text too
    (``Record.texts``), as the store stores it; ``fast=False`` reads every line the exact way
    (the reference the shortcuts are tested against).

    Records warren writes are canonical (each event line is exactly the canonical JSON of
    its event), and for them the reader takes shortcuts that are exact: a chunk's event
    lines decode in one call as one JSON array; each line is compared with its event
    re-encoded canonically, which proves that lines and events correspond one to one, that
    each line is the canonical form of what it holds and that no key is given twice; and a
    canonical line's body without its hash is the line with its ``,"hash":"<hash>"`` member
    cut out, so the chain needs no second decode. Whatever is not canonical (hand-written
    records, stray whitespace, explicit nulls) or does not verify is read line by line,
    which decides and gives the line and the reason. Cutting at the wrong place (at a
    nested claim's own "hash" key) can only cause a mismatch, never a false match: what is
    hashed would still contain the very hash it must produce; a mismatch falls back to the
    exact check.
    """
    stream: ByteStream = io.BytesIO(data) if isinstance(data, bytes) else data
    return _Reader(path, ruleset, keep_text, fast).read(stream)


class _Reader:
    """The state of one record being read: lines so far, events, the chain."""

    def __init__(self, path: str, ruleset: Ruleset[Any, Any] | None, keep_text: bool, fast: bool) -> None:
        self.path = path
        self.fast = fast
        self.ruleset = ruleset
        self.keep_text = keep_text
        self.lines: list[bytes] = []
        self.texts: list[str] = []
        self.events: list[Event] = []
        self.seals: list[tuple[int, bytes]] = []
        self.lineno = 0
        """Lines read so far (the 1-based number of the last one)."""
        self.last_was_seal = False
        self.chain: Chain = "unsealed"
        self.broken_at: int | None = None
        self.prev = b""
        """The hash of the last line, as bytes (while the chain holds)."""

    # -- reading ----------------------------------------------------------------------------
    def read(self, stream: ByteStream) -> Record:
        path = self.path
        pending = b""
        started = False
        skipped = False
        while True:
            chunk = stream.read(CHUNK_BYTES)
            if not chunk:
                break
            nul = chunk.find(b"\x00")
            if nul >= 0:
                before = pending.count(b"\n") + chunk.count(b"\n", 0, nul)
                raise RecordError(path, self.lineno + before + 1,
                                  "binary data (NUL byte), not a JSON Lines record")
            data = pending + chunk if pending else chunk
            if not started and not data.strip():
                # Whitespace before anything: dropped as it comes, so a huge file of newlines
                # costs one chunk of memory.
                skipped, pending = True, b""
                continue
            if not started and skipped:
                raise RecordError(path, 1, "header is not valid JSON (line 1 is blank)")
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                if len(data) > MAX_LINE_BYTES:
                    raise self._too_long(self.lineno + 1)
                pending = data
                continue
            block, pending = data[:cut], data[cut:]
            if len(pending) > MAX_LINE_BYTES:
                raise self._too_long(self.lineno + block.count(b"\n") + 1)
            self._block(block, started)
            started = True
            if self.lineno > MAX_RECORD_LINES:
                raise self._too_many()
        if pending:
            self._block(pending, started)
            started = True
            if self.lineno > MAX_RECORD_LINES:
                raise self._too_many()
        if not started:
            raise RecordError(path, 1, "empty file: a record starts with a header line")
        return self._finish()

    def _too_many(self) -> RecordError:
        return RecordError(self.path, MAX_RECORD_LINES + 1,
                           f"more than {MAX_RECORD_LINES:,} lines: no game's record is this long")

    def _too_long(self, line: int) -> RecordError:
        return RecordError(self.path, line, f"line longer than {MAX_LINE_BYTES >> 20} MiB: "
                           "not a record's line")

    def _block(self, block: bytes, started: bool) -> None:
        """Read complete lines (a chunk's worth; the header first, if not read yet)."""
        try:
            text = block.decode()
        except UnicodeDecodeError as exc:
            raise RecordError(self.path, self.lineno + block.count(b"\n", 0, exc.start) + 1,
                              "not UTF-8 text") from None
        if not started:
            end = block.find(b"\n") + 1 or len(block)
            head = block[:end]
            if b"\r" in head:
                head = head.splitlines(keepends=True)[0]
            self._header(head)
            block = block[len(head):]
            if self.keep_text:
                head_text = head.decode()
                self.texts.append(head_text)
                text = text[len(head_text):]
            if not block:
                return
        if b"\r" in block or not self.fast:
            # CRLF (or a lone CR, which also ends a line): line by line.
            self._exact(block.splitlines(keepends=True))
        else:
            self._lines(block, text if self.keep_text else None)

    # -- the header -------------------------------------------------------------------------
    def _header(self, line: bytes) -> None:
        path = self.path
        self.lineno = 1
        header, version = read_header(line, path)
        ruleset = self.ruleset
        if ruleset is None:
            try:
                ruleset = self.ruleset = get_ruleset(header.ruleset)
            except WarrenError as exc:
                raise RecordError(path, 1, str(exc)) from None
        try:
            ruleset.check_header(header)
        except WarrenError as exc:
            raise RecordError(path, 1, str(exc)) from None
        self.header = header
        self.version = version
        self.n_seats = len(header.players)
        self.seats = {None, *range(self.n_seats)}
        self.lines.append(line)
        if header.hash is not None:
            try:
                ok = header_hash(_untyped.decode(line)) == header.hash
            except (ValueError, TypeError):
                ok = False
            if ok:
                self.chain = "sealed"
                self.prev = header.hash.encode()
            else:
                self._break(0)

    def _break(self, seq: int) -> None:
        if self.chain != "broken":
            self.chain = "broken"
            self.broken_at = seq

    # -- event and seal lines ---------------------------------------------------------------
    def _lines(self, block: bytes, text: str | None) -> None:
        """Complete ``\n``-ended lines without ``\r`` (the last may lack its ``\n`` at the end
        of the file): canonical runs the fast way, the rest and seal lines one by one."""
        stripped = block.split(b"\n")
        ended = stripped[-1] == b""
        if ended:
            stripped.pop()
        raw = [line + b"\n" for line in stripped]
        texts: list[str] | None = None
        if text is not None:
            texts = [t + "\n" for t in text.split("\n")]
            if ended:
                texts.pop()
            else:
                texts[-1] = texts[-1][:-1]
        if not ended:
            raw[-1] = stripped[-1]
        start = 0
        for at in [*self._kind_lines(block), len(stripped)]:
            if at > start:
                run_texts = None if texts is None else texts[start:at]
                if not self._canonical_run(stripped[start:at], raw[start:at], run_texts):
                    self._exact(raw[start:at])
            if at < len(stripped):
                self._exact([raw[at]])
            start = at + 1

    @staticmethod
    def _kind_lines(block: bytes) -> list[int]:
        """Indexes of the lines holding a ``"kind"`` key: the lines that may be seal lines
        (no event has one at its top level), found with C-speed scans of the block."""
        out: list[int] = []
        pos = block.find(_KIND)
        counted = index = 0
        while pos >= 0:
            index += block.count(b"\n", counted, pos)
            counted = pos
            out.append(index)
            nxt = block.find(b"\n", pos)
            if nxt < 0:
                break
            pos = block.find(_KIND, nxt)
        return out

    def _canonical_run(self, stripped: list[bytes], raw: list[bytes], texts: list[str] | None) -> bool:
        """Read a run of event lines that are canonical, or return False (nothing read)."""
        ruleset = self.ruleset
        assert ruleset is not None
        array = b"[" + b",".join(stripped) + b"]"
        try:
            events: list[Event] = array_decoder(ruleset).decode(array)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return False
        n = len(events)
        first = len(self.events) + 1
        if (
            n != len(stripped)
            # One encode of the whole array: equal bytes means each line is its event's
            # canonical form (the encoder writes "[", the events joined by ",", "]").
            or _canonical.encode(events) != array
            or list(map(_seq, events)) != list(range(first, first + n))
            or not set(map(_actor, events)) <= self.seats
        ):
            return False
        if self.chain == "sealed":
            prev = self.prev
            hashes = map(_hash, events)
            for seq, (line, claimed) in enumerate(zip(stripped, hashes, strict=True), start=first):
                if claimed is None:
                    self._break(seq)
                    break
                before, _, after = line.partition(_HASH_MEMBER)
                if sha256(prev + before + after[65:]).hexdigest() != claimed:  # 64 hex digits and a quote
                    # Maybe a nested "hash" key was cut: the exact check decides.
                    return False
                prev = claimed.encode()
            else:
                self.prev = prev
        elif self.chain == "unsealed" and any(h is not None for h in map(_hash, events)):
            self._break(0)
        self.events.extend(events)
        self.lines.extend(raw)
        if texts is not None:
            self.texts.extend(texts)
        self.lineno += n
        self.last_was_seal = False
        return True

    def _exact(self, raw: list[bytes]) -> None:
        """Read lines one by one, deciding every refusal with its line and reason."""
        path = self.path
        ruleset = self.ruleset
        assert ruleset is not None
        decode = ruleset.event_decoder.decode
        for line in raw:
            self.lineno += 1
            lineno = self.lineno
            if not line.strip():
                raise RecordError(path, lineno, "blank line inside a record")
            if _KIND in line:
                try:
                    body = _untyped.decode(line)
                except (msgspec.DecodeError, RecursionError):
                    body = None
                if is_seal(body):
                    self._seal(line, body)
                    continue
            try:
                event = decode(line)
            except msgspec.ValidationError as exc:
                raise RecordError(path, lineno, _reason(exc)) from None
            except msgspec.DecodeError as exc:
                raise RecordError(path, lineno, f"not valid JSON ({exc})") from None
            except RecursionError:
                raise too_deep(path, lineno) from None
            expected = len(self.events) + 1
            if event.seq != expected:
                what = "duplicate or out-of-order" if event.seq < expected else "gap in"
                raise RecordError(path, lineno, f"{what} seq: got {event.seq}, expected {expected}")
            actor = event.actor
            if actor is not None and not 0 <= actor < self.n_seats:
                raise RecordError(path, lineno,
                                  f"actor {actor} is not a seat in this game (0..{self.n_seats - 1})")
            if line.rstrip(b"\r\n") != _canonical.encode(event):
                twice = duplicate_key(line)
                if twice is not None:
                    raise RecordError(path, lineno, f"the key {twice!r} is given twice in one object "
                                      "(each key once)")
            self._chain_line(line, event.seq)
            self.events.append(event)
            self.lines.append(line)
            if self.keep_text:
                self.texts.append(line.decode())
            self.last_was_seal = False

    def _chain_line(self, line: bytes, seq: int) -> None:
        """Continue the hash chain over one line (its own JSON value, not the typed event:
        an explicit null the event type leaves out is part of what was hashed)."""
        if self.chain == "broken":
            return
        body = _untyped.decode(line)
        claimed = body.pop("hash", None)
        if self.chain == "unsealed":
            if claimed is not None:
                self._break(0)
            return
        if not isinstance(claimed, str) or sha256(self.prev + _canonical.encode(body)).hexdigest() != claimed:
            self._break(seq)
            return
        self.prev = claimed.encode()

    def _seal(self, line: bytes, body: dict[str, Any]) -> None:
        path, lineno = self.path, self.lineno
        n = len(self.events)
        if self.version < CLOSED_FROM:
            raise RecordError(path, lineno, f"a seal line in a record of format {self.version}: seal "
                              f"lines belong to format {CLOSED_FROM} and later")
        try:
            seal = msgspec.convert(body, Seal)
        except msgspec.ValidationError as exc:
            raise RecordError(path, lineno, f"bad seal line: {exc}") from None
        if self.last_was_seal:
            raise RecordError(path, lineno, "two seal lines in a row")
        if line.rstrip(b"\r\n") != _canonical.encode(body):
            twice = duplicate_key(line)
            if twice is not None:
                raise RecordError(path, lineno,
                                  f"the key {twice!r} is given twice in one object (each key once)")
        if seal.events != n:
            # The seal does not hold: lines were lost or added before it.
            self._break(n + 1)
        self._chain_line(line, n + 1)
        self.seals.append((n, line))
        self.last_was_seal = True

    def _finish(self) -> Record:
        end: End
        if self.version < CLOSED_FROM:
            end = "open"
        elif self.last_was_seal:
            end = "closed"
        else:
            end = "cut"
            self._break(len(self.events) + 1)
        return Record(self.path, self.header, self.events, self.lines, self.chain, self.broken_at,
                      self.seals, self.version, end, self.texts if self.keep_text else None)


class GameVisitor(Generic[R]):
    """The hooks of one walk over a game (see the module docstring). Override what you
    need; every hook does nothing by default."""

    wants_effects: ClassVar[bool] = False
    """True to get :meth:`visit_event` after every event (a slower walk)."""
    wants_turns: ClassVar[bool] = False
    """True to get :meth:`visit_turn` after every event that changes the turn (replay to any
    turn, the per-turn projections); with :attr:`every`, :meth:`visit_position` comes after
    every event whose seq is a multiple of it."""
    every: int = 0
    """Call :meth:`visit_position` every this many events (0: never); a class or an instance
    may set it."""

    def begin_game(self, header: Header, ruleset: Ruleset[Any, Any], state: GameState) -> None:
        """Before the first event."""

    def visit_event(self, event: Event, effects: tuple[Effect, ...], state: GameState) -> None:
        """After ``event`` applied (``state`` is the live state: copy what you keep)."""

    def visit_position(self, state: GameState) -> None:
        """After every :attr:`every`-th event (``state`` is live: copy or encode it)."""

    def visit_turn(self, state: GameState, seq: int) -> None:
        """With :attr:`wants_turns`: event ``seq`` changed the turn (``state`` is live, after it)."""

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        """At the first illegal event; the walk stops after this."""

    def end_game(self, state: GameState) -> None:
        """After the last event applied, or after the violation."""

    def result(self) -> R:
        """What the walk found."""
        raise NotImplementedError(f"{type(self).__name__} returns no result")


def walk(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event], visitor: GameVisitor[R],
         *, start: GameState | None = None) -> R:
    """Fold ``events`` with the rules, telling ``visitor`` what happens: the one loop
    every check, import, projection, claims check and what-if branch runs. Corrections are
    honoured (engine.corrections): the game is folded as corrected. ``start``: a state to
    go on from (it is folded further: pass a copy to keep it), instead of the set-up."""
    state: GameState = ruleset.setup(header) if start is None else start
    visitor.begin_game(header, ruleset, state)
    every = visitor.every
    events, bad_correction = ruleset.effective(events)
    try:
        if visitor.wants_turns:
            _walk_turns(ruleset, state, events, visitor)
        elif visitor.wants_effects:
            apply = ruleset.apply
            visit = visitor.visit_event
            for i, event in enumerate(events, start=1):
                try:
                    effects = apply(state, event)
                except RuleViolation as exc:
                    exc.seq = event.seq
                    raise
                visit(event, effects, state)
                if every and i % every == 0:
                    visitor.visit_position(state)
        elif every:
            fold = ruleset.fold
            for lo in range(0, len(events), every):
                fold(state, events[lo:lo + every])
                if state.seq % every == 0:
                    visitor.visit_position(state)
        else:
            ruleset.fold(state, events)
        if bad_correction is not None:
            raise bad_correction
    except RuleViolation as exc:
        seq = exc.seq if exc.seq is not None else state.seq + 1
        visitor.visit_violation(Violation(seq, exc.rule, exc.message, exc.facts), state)
    visitor.end_game(state)
    return visitor.result()


def _walk_turns(ruleset: Ruleset[Any, Any], state: GameState, events: Sequence[Event],
                visitor: GameVisitor[Any]) -> None:
    """The walk with a turn hook: one comparison per event, a call only when the turn
    changes (and per event only for a visitor that wants the effects). Two loops, so that
    neither pays per event for what its visitor does not ask."""
    apply = ruleset.apply
    on_turn = visitor.visit_turn
    every = visitor.every
    turn = state.turn
    event = None
    try:
        if visitor.wants_effects and not every:  # the projections: effects and turns
            visit = visitor.visit_event
            for event in events:
                effects = apply(state, event)
                visit(event, effects, state)
                if state.turn != turn:
                    turn = state.turn
                    on_turn(state, event.seq)
            return
        visit_event = visitor.visit_event if visitor.wants_effects else None
        for event in events:  # replay: turns and a position every ``every`` events
            effects = apply(state, event)
            if visit_event is not None:
                visit_event(event, effects, state)
            if state.turn != turn:
                turn = state.turn
                on_turn(state, event.seq)
            if every and event.seq % every == 0:
                visitor.visit_position(state)
    except RuleViolation as exc:
        if event is not None:
            exc.seq = event.seq
        raise


def read_game(data: bytes, path: str, visitor: GameVisitor[R], ruleset: Ruleset[Any, Any] | None = None) -> R:
    """Decode a record and walk it (:class:`RecordError` for a file that is not a record)."""
    record = read_record(data, path, ruleset)
    return walk(ruleset or get_ruleset(record.header.ruleset), record.header, record.events, visitor)


class FirstViolation(GameVisitor[Violation | None]):
    """The check: the first illegal event, or None."""

    def __init__(self) -> None:
        self.found: Violation | None = None

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.found = violation

    def result(self) -> Violation | None:
        return self.found


def check_events(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event]) -> Violation | None:
    """Fold every event with the rules and return the first violation, if any (fast path)."""
    return walk(ruleset, header, events, FirstViolation())


def header_of(data: bytes, path: str) -> Header | None:
    """Line 1 as a header if it reads as one (for reports on files that fail later)."""
    end = data.find(b"\n")
    try:
        return read_header(data if end < 0 else data[:end + 1], path)[0]
    except WarrenError:
        return None

