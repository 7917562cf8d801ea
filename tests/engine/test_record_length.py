"""A record holds at most MAX_RECORD_LINES lines: the reader stops at the first line past it,
so a file of millions of events after its game's end cannot make an import hold them all."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import engine.reader as reader
from engine.record import MAX_RECORD_LINES, RecordError

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "bunnies" / "first-goes.jsonl"


class EndlessRecord(io.RawIOBase):
    """A game's lines, then events after its end for ever; it fails the test if more than
    ``budget`` bytes are asked of it (the reader did not stop)."""

    def __init__(self, budget: int) -> None:
        lines = FIXTURE.read_bytes().splitlines(keepends=True)
        # Unsealed: drop the hashes' chain by keeping the lines as they are but the seal.
        self.head = b"".join(line for line in lines if b'"kind":"seal"' not in line)
        self.seq = len(lines) - 2
        self.budget = budget
        self.given = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
        else:
            parts = []
            for _ in range(max(1, size // 48)):
                self.seq += 1
                parts.append(b'{"actor":0,"seq":%d,"type":"end_turn"}\n' % self.seq)
            out = b"".join(parts)
        self.given += len(out)
        assert self.given <= self.budget, "the reader went on reading past its limit"
        return out


def test_the_reader_stops_at_the_first_line_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_RECORD_LINES", 2_000)
    with pytest.raises(RecordError, match="more than 2,000 lines") as raised:
        reader.read_record(EndlessRecord(budget=8 << 20), "endless.jsonl")
    assert raised.value.line == 2_001


def test_the_limit_is_far_above_any_game() -> None:
    assert MAX_RECORD_LINES >= 40 * 5_000  # forty times the simulator's longest game


def test_the_shipped_limit_holds_for_a_whole_chunk_of_lines() -> None:
    """At the real limit the reader still stops: a stream of 250,000 lines is refused
    within a chunk of the 200,001st line, not read to its end."""
    with pytest.raises(RecordError, match="more than 200,000 lines"):
        reader.read_record(EndlessRecord(budget=(MAX_RECORD_LINES + 60_000) * 48), "endless.jsonl")
