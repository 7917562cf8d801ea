"""The game record: canonical form, the hash chain, and the decoder's refusals.

Bad input must give a RecordError naming the file, the line and a reason a person can act
on, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import record as rec
from engine.bunnies import RULESET
from engine.reader import read_record
from engine.record import (
    FORMAT_VERSION,
    RecordError,
    canon,
    canon_event,
    event_to_dict,
    header_to_dict,
    seal,
    unsealed,
    verify_chain,
)
from engine.rules import WarrenError
from engine.simulate import simulate_one

GAME = simulate_one(RULESET, 1, 0)
HEADER = header_to_dict(GAME.header)
EVENTS = [event_to_dict(e) for e in GAME.events]
SEALED = GAME.lines()
DATA = b"".join(SEALED)


def with_line(lines: list[bytes], lineno: int, new: bytes | None) -> bytes:
    """The record with 1-based line ``lineno`` replaced (or removed when ``new`` is None)."""
    out = list(lines)
    if new is None:
        del out[lineno - 1]
    else:
        out[lineno - 1] = new
    return b"".join(out)


# -- canonical form ------------------------------------------------------------------------------
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(TEXT, JSON_VALUES, max_size=6))
def test_the_fast_canonical_encoder_is_byte_equal_to_the_spec(value: dict[str, Any]) -> None:
    assert canon_event(value) == canon(value)
    assert canon(value) == json.dumps(value, sort_keys=True, separators=(",", ":"),
                                      ensure_ascii=False).encode()


def test_each_hash_is_the_one_the_design_defines() -> None:
    # docs/record-format.md: header hash = sha256(canon(header without hash)); event hash =
    # sha256(previous hash hex + canon(event without hash)). Recomputed here with json.dumps.
    def spec_canon(obj: Any) -> bytes:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    lines = [json.loads(line) for line in SEALED]
    prev = hashlib.sha256(spec_canon({k: v for k, v in lines[0].items() if k != "hash"})).hexdigest()
    assert lines[0]["hash"] == prev
    for line in lines[1:]:
        body = {k: v for k, v in line.items() if k != "hash"}
        prev = hashlib.sha256(prev.encode() + spec_canon(body)).hexdigest()
        assert line["hash"] == prev
    # A sealed line is itself canonical.
    assert all(raw == spec_canon(obj) + b"\n" for raw, obj in zip(SEALED, lines, strict=True))


# -- reading good records ------------------------------------------------------------------------
def test_a_sealed_record_reads_back_whole_and_byte_for_byte() -> None:
    record = read_record(DATA, "game.jsonl")
    assert record.chain == "sealed" and record.broken_at is None
    assert record.data() == DATA and record.end == "closed" and record.last_seal == len(EVENTS)
    assert b"".join(record.lines) == DATA[:-len(SEALED[-1])]  # header and events; the seal apart
    assert msgspec.structs.replace(record.header, hash=None) == GAME.header
    assert [event_to_dict(e) | {"hash": None} for e in record.events] == [e | {"hash": None} for e in EVENTS]
    assert record.game_id == GAME.header.game_id


def test_an_unsealed_record_is_accepted_as_unsealed() -> None:
    record = read_record(b"".join(unsealed(HEADER, EVENTS)), "hand.jsonl")
    assert (record.chain, record.broken_at) == ("unsealed", None)
    assert len(record.events) == len(EVENTS)


def test_the_record_form_of_an_event_names_its_type_and_leaves_out_defaults() -> None:
    draw = event_to_dict(GAME.events[1])
    assert draw == {"seq": 2, "type": "draw", "actor": GAME.events[1].actor}


def test_crlf_line_ends_read_like_lf() -> None:
    record = read_record(DATA.replace(b"\n", b"\r\n"), "dos.jsonl")
    assert record.chain == "sealed" and len(record.events) == len(EVENTS)


# -- the hash chain ------------------------------------------------------------------------------
@pytest.mark.parametrize("lineno", [2, 3, 10, len(SEALED) - 1])
def test_an_edited_line_breaks_the_chain_at_that_line(lineno: int) -> None:
    body = json.loads(SEALED[lineno - 1])
    body["actor"] = None if body["actor"] is not None else 0
    edited = with_line(SEALED, lineno, json.dumps(body).encode() + b"\n")
    chain, broken_at = verify_chain(edited.splitlines(keepends=True))
    assert (chain, broken_at) == ("broken", lineno - 1)  # line n holds seq n - 1


def test_an_edited_header_breaks_the_chain_at_0() -> None:
    header = json.loads(SEALED[0])
    header["players"][0]["name"] = "Mallory"
    edited = with_line(SEALED, 1, json.dumps(header).encode() + b"\n")
    assert read_record(edited, "x.jsonl").broken_at == 0


def test_a_removed_hash_breaks_the_chain() -> None:
    body = json.loads(SEALED[4])
    del body["hash"]
    assert verify_chain(with_line(SEALED, 5, canon(body) + b"\n").splitlines(True)) == ("broken", 4)


def test_hashes_on_some_lines_of_an_unsealed_record_are_reported_broken() -> None:
    lines = unsealed(HEADER, EVENTS)
    body = json.loads(lines[3])
    body["hash"] = "0" * 64
    assert verify_chain(with_line(lines, 4, canon(body) + b"\n").splitlines(True)) == ("broken", 0)


def test_the_chain_covers_content_not_layout() -> None:
    # Re-spacing a line or reordering its keys changes no value, so the chain holds.
    body = json.loads(SEALED[6])
    spaced = json.dumps(dict(reversed(list(body.items()))), indent=None, separators=(", ", ": "))
    assert verify_chain(with_line(SEALED, 7, spaced.encode() + b"\n").splitlines(True)) == ("sealed", None)


def test_seal_is_deterministic() -> None:
    assert seal(HEADER, EVENTS) == seal(HEADER, EVENTS) == SEALED


# -- bad input -----------------------------------------------------------------------------------
def _header_line(**change: Any) -> bytes:
    header = {k: v for k, v in HEADER.items() if k != "hash"} | change
    return canon({k: v for k, v in header.items() if v is not ...}) + b"\n"


BAD: list[tuple[str, bytes, int, str]] = [
    ("truncated file", DATA[:-40], len(SEALED), "not valid JSON"),
    ("truncated header", DATA[:50], 1, "header is not valid JSON"),
    ("bad JSON on line 5", with_line(SEALED, 5, b'{"seq": 4, "type": "draw",, }\n'), 5, "not valid JSON"),
    ("seq gap", with_line(SEALED, 4, None), 4, "gap in seq: got 4, expected 3"),
    ("duplicate seq", with_line(SEALED, 4, SEALED[2]), 4, "duplicate or out-of-order seq: got 2, expected 3"),
    ("unknown event type", with_line(SEALED, 3, b'{"seq":2,"type":"shuffle","actor":1}\n'), 3,
     "unknown event type 'shuffle'"),
    ("missing event type", with_line(SEALED, 3, b'{"seq":2,"actor":1}\n'), 3,
     "missing required field `type`"),
    ("unknown ruleset", _header_line(ruleset="chess") + b"".join(SEALED[1:]), 1, "unknown ruleset 'chess'"),
    ("cards as a string", with_line(SEALED, 3, b'{"seq":2,"type":"lay","actor":1,"cards":"5H"}\n'), 3,
     "Expected `array`, got `str` - at `$.cards`"),
    ("seq as a string", with_line(SEALED, 3, b'{"seq":"2","type":"draw","actor":1}\n'), 3,
     "Expected `int`, got `str` - at `$.seq`"),
    ("seq as a float", with_line(SEALED, 3, b'{"seq":2.0,"type":"draw","actor":1}\n'), 3,
     "Expected `int`, got `float` - at `$.seq`"),
    ("actor as a boolean", with_line(SEALED, 3, b'{"seq":2,"type":"draw","actor":true}\n'), 3,
     "Expected `int | null`, got `bool` - at `$.actor`"),
    ("unknown event field", with_line(SEALED, 3, b'{"seq":2,"type":"draw","actor":1,"cards":"5H"}\n'), 3,
     "unknown field `cards`"),
    ("an actor that is not a seat", with_line(SEALED, 3, b'{"seq":2,"type":"draw","actor":5}\n'), 3,
     "actor 5 is not a seat in this game (0..1)"),
    ("a negative actor", with_line(SEALED, 3, b'{"seq":2,"type":"draw","actor":-1}\n'), 3,
     "actor -1 is not a seat"),
    ("empty file", b"", 1, "empty file"),
    ("whitespace only", b" \n\n", 1, "empty file"),
    ("binary file", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 3, "binary data (NUL byte)"),
    ("non-UTF-8 on line 4", with_line(SEALED, 4, b'{"seq":3,"type":"draw","actor":0,"x":"\xff"}\n'), 4,
     "not UTF-8 text"),
    ("a newer format version", _header_line(warren=FORMAT_VERSION + 1) + b"".join(SEALED[1:]), 1,
     f"record format version {FORMAT_VERSION + 1} is newer than this warren ({FORMAT_VERSION})"),
    ("an unknown older format version", _header_line(warren=0) + b"".join(SEALED[1:]), 1,
     "record format version 0 is not supported"),
    ("no format version", _header_line(warren=...) + b"".join(SEALED[1:]), 1,
     "no integer format version"),
    ("an event first", b"".join(SEALED[1:]), 1, "line 1 must be the header object"),
    ("a header field missing", _header_line(game_id=...) + b"".join(SEALED[1:]), 1,
     "missing required field `game_id`"),
    ("a bad creation time", _header_line(created="yesterday") + b"".join(SEALED[1:]), 1,
     "'created' is not an RFC 3339 time"),
    ("seats out of order", _header_line(players=[{"seat": 1, "name": "a"}, {"seat": 0, "name": "b"}])
     + b"".join(SEALED[1:]), 1, "seats must be 0..1 in order"),
    ("too many players", _header_line(players=[{"seat": s, "name": str(s)} for s in range(3)])
     + b"".join(SEALED[1:]), 1, "bunnies is for 2 to 2 players, not 3"),
    ("a bad option", _header_line(options={"hand_size": 0}) + b"".join(SEALED[1:]), 1,
     "hand_size must be 1..20"),
    ("a blank line inside", with_line(SEALED, 3, b"\n" + SEALED[2]), 3, "blank line inside a record"),
]


@pytest.mark.parametrize("name, data, line, reason", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_line_and_the_reason(name: str, data: bytes, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(data, "club/game.jsonl")
    error = caught.value
    assert isinstance(error, WarrenError)
    assert error.path == "club/game.jsonl"
    assert error.line == line, error.reason
    assert reason in error.reason
    assert str(error).startswith(f"club/game.jsonl:{line}: ")


def test_an_older_format_version_is_upcast(monkeypatch: pytest.MonkeyPatch) -> None:
    def from_0(header: dict[str, Any]) -> dict[str, Any]:
        # A made-up version 0 called the ruleset "game".
        out = {k: v for k, v in header.items() if k != "game"}
        return out | {"warren": 1, "ruleset": header["game"]}

    monkeypatch.setitem(rec.UPCASTERS, 0, from_0)
    old = {k: v for k, v in HEADER.items() if k not in ("hash", "ruleset")} | {"warren": 0, "game": "bunnies"}
    lines = unsealed({**HEADER, "warren": 1}, EVENTS)[1:]  # format 1 lines: no seal line
    record = read_record(canon(old) + b"\n" + b"".join(lines), "old.jsonl")
    assert (record.header.warren, record.header.ruleset) == (FORMAT_VERSION, "bunnies")
    assert len(record.events) == len(EVENTS)
    assert (record.version, record.end, record.chain) == (0, "open", "unsealed")
