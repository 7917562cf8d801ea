"""A helper process for large imports: it decodes, verifies and judges record files while
the importing process writes the previous ones.

    python -m logstore.store.import_helper     (started by Store.import_paths, not by hand)

It reads pickled requests on stdin (first the stored game ids and the store's name, then
one path per request) and answers on stdout, first with a ready message once it has started
(Python's start-up and warren's imports take a tenth of a second or more), then each path
with a pickled ``Prepared`` or ``Refused``, in order; each answer is framed by its length,
so the importing process can tell without blocking whether a whole answer is in. A plain
subprocess, not multiprocessing: it never re-imports the caller's main module, and the
caller reads answers on its own thread, with no result thread fighting it for the GIL.

The importing process never sits idle while a helper has work in hand: until a helper is
ready it prepares the files itself, and while the answer it needs next is not in yet, it
prepares a later file that no helper was given (up to ``LOCAL_AHEAD`` of them), which it
writes when its turn comes. The files are written in order whoever prepared them, and a
file's answer does not depend on who prepared it (both use the stored game ids read at the
start), so the results are those of one process.
"""

from __future__ import annotations

import os
import pickle
import select
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Generator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from logstore.store.importing import Prepared, Refused, prepare_file, start_worker

AHEAD = 4
"""Files handed to each helper before its first answer is read."""

LOCAL_AHEAD = 8
"""Files the importing process may prepare ahead of its writes while it waits for a helper."""

WORK_WHILE_WAITING = True
"""False makes the importing process wait for the helpers and leave every file to them (the
tests use it to show that a helper's answers are the same as this process's)."""

READY = b"ready"
_SIZE = 8
"""Bytes of the length in front of every answer."""


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(_SIZE, "little") + data


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    known, db = pickle.load(requests)
    start_worker(known, db)
    answers.write(_frame(READY))
    answers.flush()
    while True:
        try:
            path = pickle.load(requests)
        except EOFError:
            return
        answers.write(_frame(pickle.dumps(prepare_file(path), protocol=pickle.HIGHEST_PROTOCOL)))
        answers.flush()


class _Helper:
    """One helper process: the files it was given, in order, and what it has answered so far."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        assert process.stdout is not None
        self.fd = process.stdout.fileno()  # read directly: nothing goes through its buffer
        self.buffer = bytearray()
        self.given: deque[int] = deque()
        """Indexes of the files given and not answered yet, in the order given."""
        self.ready = False
        self.can_poll = True

    def send(self, message: object) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        pickle.dump(message, stdin, protocol=pickle.HIGHEST_PROTOCOL)
        stdin.flush()

    def _complete(self) -> bool:
        buffer = self.buffer
        return len(buffer) >= _SIZE and len(buffer) >= _SIZE + int.from_bytes(buffer[:_SIZE], "little")

    def _read(self) -> None:
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            raise EOFError("the helper stopped")
        self.buffer += chunk

    def has_answer(self) -> bool:
        """Is a whole answer in, without waiting? (Where pipes cannot be polled, this says
        yes, and :meth:`take` waits.)"""
        while not self._complete():
            if not self.can_poll:
                return True
            try:
                readable, _, _ = select.select([self.fd], [], [], 0)
            except (OSError, ValueError):  # no select on pipes (Windows): wait instead
                self.can_poll = False
                return True
            if not readable:
                return False
            self._read()
        return True

    def take(self) -> bytes:
        """The next answer, waiting for it if need be."""
        while not self._complete():
            self._read()
        buffer = self.buffer
        size = int.from_bytes(buffer[:_SIZE], "little")
        data = bytes(buffer[_SIZE:_SIZE + size])
        del buffer[:_SIZE + size]
        return data

    def take_ready(self) -> None:
        if self.take() != READY:
            raise pickle.UnpicklingError("the helper did not start as expected")
        self.ready = True


def _start() -> subprocess.Popen[bytes]:
    # The helper must import this very warren, wherever it was imported from.
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "logstore.store.import_helper"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )


def _stop(helper: subprocess.Popen[bytes]) -> None:
    for pipe in (helper.stdin, helper.stdout):
        if pipe is not None:
            with suppress(OSError):  # a broken pipe to a helper that is already gone
                pipe.close()
    try:
        helper.wait(timeout=5)
    except subprocess.TimeoutExpired:
        helper.kill()
        helper.wait()


def prepared_by_helpers(
    files: Sequence[str], helpers: int, known: frozenset[str], db: str,
    prepare_here: Callable[[str], Prepared | Refused],
) -> Generator[Prepared | Refused, None, None]:
    """Each file's answer, in order: from a helper, or from ``prepare_here`` (this process)
    while the helpers start, when this process would otherwise wait, and for every file left
    when the helpers are gone (they could not start, or one stopped)."""
    started: list[_Helper] = []
    local: dict[int, Prepared | Refused] = {}
    owner: dict[int, _Helper] = {}
    answered: dict[int, bytes] = {}
    nxt = 0
    """The first file neither given to a helper nor prepared here yet."""
    alive = True
    try:
        try:
            for _ in range(helpers):
                started.append(_Helper(_start()))
            for helper in started:
                helper.send((known, db))
            if not WORK_WHILE_WAITING:
                for helper in started:
                    helper.take_ready()
        except (OSError, EOFError, pickle.UnpicklingError):
            alive = False

        def collect(helper: _Helper, wait: bool) -> None:
            """Move the helper's answers that are in (or, with ``wait``, the next one)."""
            if not helper.ready:
                if wait or helper.has_answer():
                    helper.take_ready()
                return
            while helper.given and (wait or helper.has_answer()):
                answered[helper.given.popleft()] = helper.take()
                wait = False

        def give() -> None:
            nonlocal nxt
            for helper in started:
                if not helper.ready:
                    collect(helper, wait=False)
            while nxt < len(files):
                ready = [h for h in started if h.ready and len(h.given) < AHEAD]
                if not ready:
                    return
                least = min(ready, key=lambda h: len(h.given))
                least.send(files[nxt])
                least.given.append(nxt)
                owner[nxt] = least
                nxt += 1

        for i in range(len(files)):
            if alive:
                try:
                    give()
                    mine = owner.get(i)
                    if mine is not None:
                        while i not in answered:
                            collect(mine, wait=False)
                            if i in answered:
                                break
                            if WORK_WHILE_WAITING and nxt < len(files) and len(local) < LOCAL_AHEAD:
                                local[nxt] = prepare_here(files[nxt])
                                nxt += 1
                            else:
                                collect(mine, wait=True)
                except (OSError, EOFError, pickle.UnpicklingError):
                    alive = False
            answer: Prepared | Refused | None = None
            if i in answered:
                try:
                    answer = pickle.loads(answered.pop(i))
                except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
                    alive = False  # a garbled answer: this process does the rest
            if answer is not None:
                yield answer
            elif i in local:
                yield local.pop(i)
            else:
                if i >= nxt:
                    nxt = i + 1
                yield prepare_here(files[i])
    finally:
        for helper in started:
            _stop(helper.process)


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
