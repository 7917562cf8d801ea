"""Reading records for the store: the same verdicts as ``engine.reader.read_record``, faster
for the records warren itself writes.

A record is *canonical* when every event line is exactly the canonical JSON of its event
(what ``seal`` and ``unsealed`` write). For such a record these shortcuts are exact:

- all event lines decode in one call, as one JSON array (per-line calls cost more than the
  decoding itself); then each line is compared with its event re-encoded canonically,
  which proves that lines and events correspond one to one and that each line is the
  canonical form of what it holds;
- a canonical line's body without its hash is the line with its ``,"hash":"<hash>"``
  member cut out, so the chain needs no second decode and no dict per event;
- the text stored for each line comes from one decode of the whole file.

Whatever is not canonical (hand-written records, stray whitespace, explicit nulls) or does
not verify goes to ``read_record`` / ``verify_chain``, which decide and give the line and
the reason. Cutting in the wrong place (at a nested claim's own "hash" key) can only cause
a mismatch, never a false match: what is hashed would still contain the very hash it must
produce. A mismatch always falls back to the exact check.

Import and ``warren check`` find their files the same way: :func:`record_paths`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from hashlib import sha256
from operator import attrgetter
from pathlib import Path
from types import GenericAlias
from typing import Any

import msgspec

from engine.reader import read_record
from engine.record import Chain, Event, Record, RecordError, decode_header, header_hash, verify_chain
from engine.registry import get_ruleset
from engine.rules import WarrenError
from engine.ruleset import Ruleset

_canonical = msgspec.json.Encoder(order="sorted")
_untyped = msgspec.json.Decoder()
_array_decoders: dict[str, msgspec.json.Decoder[list[Event]]] = {}
_seq = attrgetter("seq")
_actor = attrgetter("actor")
_hash = attrgetter("hash")
_HASH_MEMBER = b',"hash":"'


def record_paths(paths: Iterable[Path]) -> Iterator[Path]:
    """Files as given; a folder means every ``*.jsonl`` below it, in sorted order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.jsonl") if p.is_file())
        else:
            yield path


def array_decoder(ruleset: Ruleset[Any, Any]) -> msgspec.json.Decoder[list[Event]]:
    """A decoder of a JSON array of the ruleset's events (built once per ruleset)."""
    decoder = _array_decoders.get(ruleset.slug)
    if decoder is None:
        # list[Union[...]] of the ruleset's event types, spelled as the call it is at run time
        decoder = msgspec.json.Decoder(GenericAlias(list, (ruleset.event_union,)))
        _array_decoders[ruleset.slug] = decoder
    return decoder


def _exact(data: bytes, path: str) -> tuple[Record, list[str]]:
    record = read_record(data, path)
    return record, [line.decode() for line in record.lines]


def read_for_store(data: bytes, path: str = "<record>") -> tuple[Record, list[str]]:
    """Decode a record and its lines as text; raise :class:`RecordError` as ``read_record``
    does, naming the line and the reason."""
    if b"\x00" in data or b"\r" in data:
        return _exact(data, path)
    try:
        text = data.decode()
    except UnicodeDecodeError:
        return _exact(data, path)
    lines = data.splitlines(keepends=True)
    texts = text.splitlines(keepends=True)
    # str.splitlines also splits at a few characters that bytes.splitlines keeps (\x1c,
    # U+2028...); it only ever adds breaks, so equal counts mean equal lines.
    if len(texts) != len(lines) or not text.strip():
        return _exact(data, path)
    header = decode_header(lines[0], path)
    try:
        ruleset = get_ruleset(header.ruleset)
        ruleset.check_header(header)
    except WarrenError as exc:
        raise RecordError(path, 1, str(exc)) from None
    # Without \r, the event lines are the rest of the file split at \n.
    rest = data[len(lines[0]):]
    stripped = rest.split(b"\n")
    if stripped[-1] == b"":
        stripped.pop()
    try:
        events: list[Event] = array_decoder(ruleset).decode(b"[" + b",".join(stripped) + b"]")
    except (msgspec.DecodeError, msgspec.ValidationError):
        return _exact(data, path)
    n = len(events)
    if (
        n != len(stripped)
        or list(map(_canonical.encode, events)) != stripped
        or list(map(_seq, events)) != list(range(1, n + 1))
        or not set(map(_actor, events)) <= {None, *range(len(header.players))}
    ):
        return _exact(data, path)

    hashes = list(map(_hash, events))
    if header.hash is None:
        broken = next((i for i, h in enumerate(hashes, start=1) if h is not None), None)
        chain: Chain = "unsealed" if broken is None else "broken"
        return Record(path, header, events, lines, chain, None if broken is None else 0), texts
    if header_hash(_untyped.decode(lines[0])) != header.hash or None in hashes:
        chain, broken_at = verify_chain(lines)
        return Record(path, header, events, lines, chain, broken_at), texts
    prev = header.hash.encode()
    for line, claimed in zip(stripped, hashes, strict=True):
        before, _, after = line.partition(_HASH_MEMBER)
        if sha256(prev + before + after[65:]).hexdigest() != claimed:  # 64 hex digits and a quote
            chain, broken_at = verify_chain(lines)
            return Record(path, header, events, lines, chain, broken_at), texts
        prev = claimed.encode()
    return Record(path, header, events, lines, "sealed", None), texts
