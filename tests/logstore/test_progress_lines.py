"""A progress bar is drawn on a terminal's stderr, except beside lines a command streams to
the same terminal: `warren check` printed a bar between its lines, and the bar's last
clear erased part of the last line (the summary was glued onto a long refusal)."""

from __future__ import annotations

import io
import sys

import pytest

from logstore.cli import common


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _drawn(monkeypatch: pytest.MonkeyPatch, stdout_is_terminal: bool, lines: bool) -> bool:
    drawn: list[bool] = []

    class Bar:
        def __init__(self, *args: object, **kwargs: object) -> None:
            drawn.append(True)

        def __enter__(self) -> Bar:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def add_task(self, *args: object, **kwargs: object) -> int:
            return 0

        def advance(self, *args: object) -> None:
            return None

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", Bar)
    monkeypatch.setattr(sys, "stderr", _Tty())
    monkeypatch.setattr(sys, "stdout", _Tty() if stdout_is_terminal else io.StringIO())
    with common.progress(3, "checking", lines=lines) as advance:
        advance(1)
    return bool(drawn)


def test_no_bar_between_lines_streamed_to_the_same_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not _drawn(monkeypatch, stdout_is_terminal=True, lines=True)


def test_a_bar_when_the_lines_go_elsewhere_or_there_are_none(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _drawn(monkeypatch, stdout_is_terminal=False, lines=True)
    assert _drawn(monkeypatch, stdout_is_terminal=True, lines=False)
