"""A record says it is complete: seal lines, records cut after their last seal, format 1
records read as before (open), and lines that give a key twice.

docs/record-format.md#seal-lines is the definition these tests hold the reader to.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.bunnies import RULESET
from engine.reader import read_record
from engine.record import (
    CLOSED_FROM,
    FORMAT_VERSION,
    RecordError,
    canon,
    event_to_dict,
    header_to_dict,
    seal,
    seal_line,
    unsealed,
    verify_chain,
)
from engine.simulate import simulate_one

GAME = simulate_one(RULESET, 3, 0)
HEADER = header_to_dict(GAME.header)
EVENTS = [event_to_dict(e) for e in GAME.events]
SEALED = GAME.lines()
N = len(EVENTS)


def read(data: bytes, *, fast: bool = True) -> Any:
    return read_record(data, "club/game.jsonl", fast=fast)


def both(data: bytes) -> Any:
    """Read the fast way and the exact way; they must agree."""
    fast, exact = read(data), read(data, fast=False)
    assert (fast.chain, fast.broken_at, fast.end, fast.seals) == (
        exact.chain, exact.broken_at, exact.end, exact.seals)
    assert fast.events == exact.events
    return fast


def spec_canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


# -- what warren writes ------------------------------------------------------------------------
def test_warren_writes_format_2_and_closes_every_record_with_a_seal_line() -> None:
    assert FORMAT_VERSION == CLOSED_FROM == 2
    last = json.loads(SEALED[-1])
    assert set(last) == {"kind", "events", "hash"} and last["kind"] == "seal" and last["events"] == N
    # The seal line is chained like an event: sha256(previous hash + canon(line without hash)).
    prev = json.loads(SEALED[-2])["hash"]
    body = spec_canon({"events": N, "kind": "seal"})
    assert last["hash"] == hashlib.sha256(prev.encode() + body).hexdigest()
    assert SEALED[-1] == spec_canon(last) + b"\n"
    record = both(b"".join(SEALED))
    assert (record.chain, record.end, record.last_seal, record.broken_at) == ("sealed", "closed", N, None)


def test_an_unsealed_record_closes_with_a_seal_line_without_a_hash() -> None:
    lines = unsealed(HEADER, EVENTS)
    assert json.loads(lines[-1]) == {"events": N, "kind": "seal"}
    record = both(b"".join(lines))
    assert (record.chain, record.end) == ("unsealed", "closed")


# -- cut records -------------------------------------------------------------------------------
@pytest.mark.parametrize("dropped", [1, 2, 5, N // 2])
def test_dropping_the_last_lines_of_a_sealed_record_is_reported_as_cut(dropped: int) -> None:
    record = both(b"".join(SEALED[:-dropped]))
    left = N + 1 - dropped
    assert record.end == "cut"
    assert (record.chain, record.broken_at) == ("broken", left + 1)
    assert record.last_seal is None  # its only seal line was the closing one
    assert verify_chain(SEALED[:-dropped]) == ("broken", left + 1)


def test_a_record_cut_after_an_intermediate_seal_names_that_seal() -> None:
    # A recorder that saved after 10 events, then went on: a seal line in the middle.
    first = seal(HEADER, EVENTS[:10])
    prev = json.loads(first[-1])["hash"]
    more = []
    for event in EVENTS[10:]:
        body = {k: v for k, v in event.items() if k != "hash"}
        prev = hashlib.sha256(prev.encode() + canon(body)).hexdigest()
        more.append(canon({**body, "hash": prev}) + b"\n")
    whole = [*first, *more, seal_line(prev, N)]
    record = both(b"".join(whole))
    assert (record.chain, record.end, [s for s, _ in record.seals]) == ("sealed", "closed", [10, N])
    cut = both(b"".join(whole[:-4]))
    assert (cut.chain, cut.end, cut.last_seal, cut.broken_at) == ("broken", "cut", 10, N - 2)


def test_a_seal_line_that_miscounts_breaks_the_chain_where_it_stands() -> None:
    lines = list(SEALED)
    body = json.loads(lines[-1])
    body["events"] = N - 1
    lines[-1] = spec_canon(body) + b"\n"
    assert both(b"".join(lines)).broken_at == N + 1


def test_an_edited_seal_hash_breaks_the_chain() -> None:
    lines = list(SEALED)
    body = json.loads(lines[-1])
    body["hash"] = "0" * 64
    lines[-1] = spec_canon(body) + b"\n"
    record = both(b"".join(lines))
    assert (record.chain, record.broken_at) == ("broken", N + 1)


def test_a_removed_intermediate_seal_line_breaks_the_chain_at_the_next_event() -> None:
    first = seal(HEADER, EVENTS[:10])
    prev = json.loads(first[-1])["hash"]
    body = {k: v for k, v in EVENTS[10].items() if k != "hash"}
    line = canon({**body, "hash": hashlib.sha256(prev.encode() + canon(body)).hexdigest()}) + b"\n"
    without = [*first[:-1], line]  # the seal the next line chains from is gone
    assert both(b"".join(without)).broken_at == 11


def test_two_seal_lines_in_a_row_are_refused() -> None:
    lines = [*SEALED, SEALED[-1]]
    with pytest.raises(RecordError, match="two seal lines in a row") as caught:
        read(b"".join(lines))
    assert caught.value.line == N + 3


def test_a_bad_seal_line_names_its_line() -> None:
    lines = [*SEALED[:-1], b'{"kind":"seal","events":"many"}\n']
    with pytest.raises(RecordError, match="bad seal line") as caught:
        read(b"".join(lines))
    assert caught.value.line == N + 2


# -- format 1: today's records ------------------------------------------------------------------
def _format_1() -> list[bytes]:
    return seal({**HEADER, "warren": 1}, EVENTS)


def test_a_format_1_record_reads_as_before_and_is_open() -> None:
    lines = _format_1()
    assert json.loads(lines[-1])["seq"] == N  # no seal line
    record = both(b"".join(lines))
    assert (record.version, record.chain, record.end, record.seals) == (1, "sealed", "open", [])
    # Cutting it is not seen (it says nothing about its end): what format 2 is for.
    assert both(b"".join(lines[:-3])).chain == "sealed"


def test_a_seal_line_in_a_format_1_record_is_refused() -> None:
    lines = [*_format_1(), seal_line(None, N)]
    with pytest.raises(RecordError, match="seal lines belong to format 2"):
        read(b"".join(lines))


# -- duplicate keys ----------------------------------------------------------------------------
DUPLICATES = [
    ("event", 4, lambda line: line.replace(b'{"actor":', b'{"actor":0,"actor":', 1), "actor"),
    ("nested", 2, lambda line: line.replace(b'{"actor":null,', b'{"actor":null,"claims":[{"a":1,"a":2}],', 1),
     "a"),
    ("header", 1, lambda line: line.replace(b'{"created":', b'{"game_id":"other","created":', 1), "game_id"),
    ("seal", N + 2, lambda line: line.replace(b'{"events":', b'{"events":0,"events":', 1), "events"),
]


@pytest.mark.parametrize("name, lineno, edit, key", DUPLICATES, ids=[d[0] for d in DUPLICATES])
@pytest.mark.parametrize("fast", [True, False])
def test_a_key_given_twice_is_refused(name: str, lineno: int, edit: Any, key: str, fast: bool) -> None:
    # msgspec keeps the last of two equal keys, SQLite's json_extract the first: two readers,
    # two records. Refused in any line, sealed or not, fast path or not.
    lines = list(SEALED)
    lines[lineno - 1] = edit(lines[lineno - 1])
    assert lines[lineno - 1] != SEALED[lineno - 1]
    with pytest.raises(RecordError, match=f"key '{key}'") as caught:
        read(b"".join(lines), fast=fast)
    assert caught.value.line == lineno


# -- the header's time ---------------------------------------------------------------------------
@pytest.mark.parametrize("created", ["2026-01-01T00:00:00Z\n", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z",
                                     "2026-01-01T24:00:00Z", "2026-01-01T00:00:00+25:00"])
def test_a_creation_time_that_is_not_a_real_rfc_3339_time_is_refused(created: str) -> None:
    data = b"".join(seal({**HEADER, "created": created}, EVENTS))
    with pytest.raises(RecordError, match="not an RFC 3339 time") as caught:
        read(data)
    assert caught.value.line == 1


def test_a_leap_second_and_an_offset_are_rfc_3339() -> None:
    for created in ("2016-12-31T23:59:60Z", "2026-01-01T01:00:00.25+01:00"):
        assert read(b"".join(seal({**HEADER, "created": created}, EVENTS))).chain == "sealed"
