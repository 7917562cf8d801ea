"""Hostile records, generated: nesting, huge numbers and strings, NaN, duplicate keys,
unicode oddities, truncation at every boundary, and illegal events re-sealed so that only
the rules can catch them.

Whatever the bytes, ``warren check`` gives a verdict (never a traceback), the fast reader
and the exact one agree, the store refuses what check refuses, and a re-sealed illegal
event is always found. The default run is bounded (CI); ``pytest -m slow`` runs the same
properties far longer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bunnies import RULESET as BUNNIES
from engine.reader import read_record
from engine.record import RecordError, event_to_dict, header_to_dict, seal
from engine.rules import WarrenError
from engine.simulate import simulate_one
from logstore.store.checking import check_bytes, result_to_dict
from logstore.store.event_store import Store

KEYS_OF_THE_CONTRACT = {"path", "ok", "game_id", "ruleset", "events", "chain", "broken_at", "violation",
                        "error"}
QUICK = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))


@cache
def _games() -> tuple[Any, ...]:
    return tuple(simulate_one(BUNNIES, 17, i) for i in range(3))


def _record(index: int) -> list[bytes]:
    return list(_games()[index % 3].lines())


# -- mutations ------------------------------------------------------------------------------------
def _nest(line: bytes, depth: int) -> bytes:
    """The line with a value nested ``depth`` levels deep (written as text: json.dumps
    itself stops at about a thousand)."""
    deep = b"[" * depth + b"0" + b"]" * depth
    if line.startswith(b'{"created"'):  # a header
        return line.replace(b'"options":{', b'"options":{"x":' + deep + b",", 1).replace(b',}', b'}')
    return line.replace(b'{"actor":', b'{"claims":[{"x":' + deep + b'}],"actor":', 1)


def _replace_number(line: bytes, token: bytes) -> bytes:
    for key in (b'"seq":', b'"actor":', b'"warren":', b'"seat":'):
        at = line.find(key)
        if at >= 0:
            end = at + len(key)
            stop = end
            while stop < len(line) and line[stop:stop + 1] in b"-0123456789null":
                stop += 1
            return line[:end] + token + line[stop:]
    return line


def _duplicate(line: bytes, which: int) -> bytes:
    body = json.loads(line)
    keys = sorted(body)
    key = keys[which % len(keys)]
    member = json.dumps({key: body[key]})[1:-1].encode()
    return b"{" + member + b"," + line[1:]


ODDITIES = [b"\xef\xbb\xbf", b"\\ud800", b"\\u0000", b"\xe2\x80\xa8", b"\xc0\xaf", b"\xff", b"\x00",
            b"\r", b"\\", b'"', b"\t", b"\n", b"\n\n"]


def _oddity(line: bytes, odd: bytes, at: int) -> bytes:
    at = at % (len(line) + 1)
    return line[:at] + odd + line[at:]


@st.composite
def hostile(draw: Callable[..., Any]) -> tuple[str, bytes]:
    lines = _record(draw(st.integers(0, 2)))
    which = draw(st.integers(0, len(lines) - 1))
    kind = draw(st.sampled_from(["nest", "number", "string", "nan", "duplicate", "oddity", "truncate",
                                 "drop", "swap"]))
    line = lines[which]
    if kind == "nest":
        lines[which] = _nest(line, draw(st.sampled_from([3, 100, 900, 1100, 5000])))
    elif kind == "number":
        token = draw(st.sampled_from([b"1" * 400, b"-" + b"9" * 30, b"1e400", b"-0", b"1.5", b"true"]))
        lines[which] = _replace_number(line, token)
    elif kind == "string":
        size = draw(st.sampled_from([10, 10_000, 2_000_000]))
        lines[which] = line.replace(b'"hash":"', b'"x":"' + b"a" * size + b'","hash":"', 1)
    elif kind == "nan":
        lines[which] = _replace_number(line, draw(st.sampled_from([b"NaN", b"Infinity", b"-Infinity"])))
    elif kind == "duplicate":
        lines[which] = _duplicate(line, draw(st.integers(0, 20)))
    elif kind == "oddity":
        lines[which] = _oddity(line, draw(st.sampled_from(ODDITIES)), draw(st.integers(0, 400)))
    elif kind == "drop":
        del lines[which]
    elif kind == "swap" and which + 1 < len(lines):
        lines[which], lines[which + 1] = lines[which + 1], lines[which]
    data = b"".join(lines)
    if kind == "truncate":
        data = data[:draw(st.integers(0, len(data)))]
    return kind, data


# -- the properties ------------------------------------------------------------------------------------
def _outcome(data: bytes, fast: bool) -> Any:
    try:
        record = read_record(data, "fuzz.jsonl", fast=fast)
    except RecordError as exc:
        return ("error", exc.line)
    return (record.chain, record.broken_at, record.end, len(record.events), record.seals)


def _hostile_record_gets_a_verdict(case: tuple[str, bytes], tmp_path: Path) -> None:
    kind, data = case
    result = check_bytes(data, "fuzz.jsonl")  # never raises for any bytes
    assert result.exit_code in (0, 1, 2)
    assert set(result_to_dict(result)) >= KEYS_OF_THE_CONTRACT
    # The fast reader and the exact one agree on every input.
    assert _outcome(data, True) == _outcome(data, False)
    original = {b"".join(g.lines()) for g in _games()}
    if kind == "truncate" and data not in original and data + b"\n" not in original:
        # A sealed format 2 record that lost its end (more than its final newline) is never ok.
        assert not result.ok
    # The store refuses exactly what check cannot read or finds broken, and stores the rest.
    with Store(tmp_path / "fuzz.db") as store:
        try:
            store.import_bytes(data, "fuzz.jsonl")
            stored = True
        except WarrenError:
            stored = False
    assert stored == (result.error is None and result.chain != "broken"), result


@QUICK
@given(hostile())
def test_hostile_records_get_a_verdict_quick(tmp_path_factory: pytest.TempPathFactory,
                                             case: tuple[str, bytes]) -> None:
    _hostile_record_gets_a_verdict(case, tmp_path_factory.mktemp("fuzz"))


@pytest.mark.slow
@LONG
@given(hostile())
def test_hostile_records_get_a_verdict_long(tmp_path_factory: pytest.TempPathFactory,
                                            case: tuple[str, bytes]) -> None:
    _hostile_record_gets_a_verdict(case, tmp_path_factory.mktemp("fuzz"))


@st.composite
def resealed_illegal(draw: Callable[..., Any]) -> tuple[bytes, int]:
    """A simulated game with one player's event given to the other seat (out of turn), the
    whole record re-sealed: the chain holds, only the rules can tell."""
    game = _games()[draw(st.integers(0, 2))]
    events = [event_to_dict(e) for e in game.events]
    players = [i for i, e in enumerate(events) if e["actor"] is not None]
    at = draw(st.sampled_from(players))
    events[at] = {**events[at], "actor": 1 - events[at]["actor"]}
    keep = draw(st.integers(at + 1, len(events)))
    return b"".join(seal(header_to_dict(game.header), events[:keep])), at + 1


def _resealed_illegal_is_caught(case: tuple[bytes, int]) -> None:
    data, seq = case
    result = check_bytes(data, "forged.jsonl")
    assert result.chain == "sealed" and result.error is None
    assert result.violation is not None and result.violation.seq <= seq and not result.ok
    assert result.exit_code == 1


@QUICK
@given(resealed_illegal())
def test_a_resealed_illegal_event_is_caught_quick(case: tuple[bytes, int]) -> None:
    _resealed_illegal_is_caught(case)


@pytest.mark.slow
@LONG
@given(resealed_illegal())
def test_a_resealed_illegal_event_is_caught_long(case: tuple[bytes, int]) -> None:
    _resealed_illegal_is_caught(case)


@pytest.mark.parametrize("cut", range(0, 400, 7))
def test_truncation_at_every_boundary_of_the_first_lines(cut: int) -> None:
    data = b"".join(_record(0))
    result = check_bytes(data[:cut], "cut.jsonl")
    assert not result.ok and result.exit_code in (1, 2)
