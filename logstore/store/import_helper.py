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
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, BinaryIO

from logstore.store.importing import Prepared, Refused, prepare_file, start_worker

AHEAD = 4
"""Files handed to each helper before its first answer is read."""

LOCAL_AHEAD = 8
"""Files the importing process may prepare ahead of its writes while it waits for a helper."""

WORK_WHILE_WAITING = True
"""False makes the importing process wait for the helpers and leave every file to them (the
tests use it to show that a helper's answers are the same as this process's)."""

FORK = sys.platform == "linux"
"""Start helpers by forking this process where that is safe (Linux, and only while this
process runs one thread): a forked helper has warren imported already and answers at once,
where a fresh ``python -m logstore.store.import_helper`` spends a tenth of a second or more
on Python's start-up and warren's imports, which on a few hundred games is a quarter of the
import. Elsewhere, or with other threads running, the fresh process."""

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

    def __init__(self, requests: IO[bytes], answers: int, stop: Callable[[], None]) -> None:
        self.requests = requests
        self.fd = answers
        """The answers' pipe, read directly (no buffer in between to hide what is in)."""
        self.stop = stop
        self.buffer = bytearray()
        self.given: deque[int] = deque()
        """Indexes of the files given and not answered yet, in the order given."""
        self.ready = False
        self.can_poll = True

    def send(self, message: object) -> None:
        pickle.dump(message, self.requests, protocol=pickle.HIGHEST_PROTOCOL)
        self.requests.flush()

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


def _start() -> _Helper:
    if FORK and threading.active_count() == 1:
        return _fork()
    # The helper must import this very warren, wherever it was imported from.
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    process = subprocess.Popen(
        [sys.executable, "-m", "logstore.store.import_helper"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    return _Helper(process.stdin, process.stdout.fileno(), lambda: _stop(process))


def _fork() -> _Helper:
    """A helper forked from this process: requests and answers on two pipes of its own."""
    requests_in, requests_out = os.pipe()
    answers_in, answers_out = os.pipe()
    pid = os.fork()
    if pid == 0:  # the helper
        code = 1
        try:
            _close_all_but(requests_in, answers_out)
            with open(requests_in, "rb") as requests, open(answers_out, "wb") as answers:
                serve(requests, answers)
            code = 0
        finally:
            # Never back into the caller's code, nor its clean-up (the store's connection
            # is this process's too, and is not touched).
            os._exit(code)
    os.close(requests_in)
    os.close(answers_out)
    to_helper = open(requests_out, "wb")  # noqa: SIM115 (closed by stop)

    def stop() -> None:
        with suppress(OSError):  # a broken pipe to a helper that is already gone
            to_helper.close()
        os.close(answers_in)
        _reap(pid)

    return _Helper(to_helper, answers_in, stop)


def _close_all_but(*keep: int) -> None:
    """Close every inherited descriptor above stderr but ``keep``: another helper's pipe
    left open here would keep that helper from ever seeing the end of its requests."""
    try:
        open_fds = sorted(int(name) for name in os.listdir("/proc/self/fd"))
    except OSError:
        open_fds = list(range(3, 1024))
    for fd in open_fds:
        if fd > 2 and fd not in keep:
            with suppress(OSError):
                os.close(fd)


def _reap(pid: int) -> None:
    """Wait for a forked helper to end (it does once its requests are closed); kill it
    after five seconds."""
    deadline = time.monotonic() + 5
    while True:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return
        if done:
            return
        if time.monotonic() > deadline:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                os.waitpid(pid, 0)
            return
        time.sleep(0.001)


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
                started.append(_start())
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
            helper.stop()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
