"""Helper processes that take a share of a long, ordered piece of work (an import, the check
of a folder) on another core, while this process does the rest and keeps the order.

A helper reads pickled requests on one pipe (first a greeting its ``serve`` function makes
ready with, then one item per request) and answers on another, first with a ready message
once it can work, then each item's answer, in order. Every answer is framed by its length,
so this process can tell without blocking whether a whole answer is in.

On Linux a helper is this very process forked, while it runs one thread: it has warren
imported already and is ready at once, where a fresh ``python -m <module>`` spends a tenth
of a second or more on Python's start-up and warren's imports (which on a few hundred
records is a large part of the work). Elsewhere, or with other threads running, it is that
fresh process. Either way it only ever runs ``serve``: a forked helper never returns into
the caller's code nor runs its clean-up (the caller's open store is left alone), and ends
with ``os._exit``.

This process never sits idle while a helper has work in hand (:func:`in_order`): until a
helper is ready, and while the answer it needs next is not in yet, it does a later item
that no helper was given (at most ``LOCAL_AHEAD`` of them), and hands it on when its turn
comes. An item's answer must not depend on who computed it; then the answers are those of
one process, in the same order.
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, BinaryIO, TypeVar

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]  # no file locks on this platform

T = TypeVar("T")
R = TypeVar("R")

FORK = sys.platform == "linux"
"""Start helpers by forking this process (see the module docstring)."""

AHEAD = 4
"""Items handed to each helper before its first answer is read (by default)."""

LOCAL_AHEAD = 8
"""Items this process may do ahead of their turn while it waits for a helper."""

WORK_WHILE_WAITING = True
"""False makes this process wait for the helpers and leave every item to them (the tests
use it to show that a helper's answers are the same as this process's)."""

PIPE_BYTES = 1 << 20
"""What the answers' pipe holds (Linux; the default is 64 KiB): a prepared game's answer is
about as large as its record, and with a small pipe a helper that is a game or two ahead
stops, its answer half written, until this process reads, which it does only between its
own writes."""

READY = b"ready"
_SIZE = 8
"""Bytes of the length in front of every answer."""

Serve = Callable[[BinaryIO, BinaryIO], None]


def frame(data: bytes) -> bytes:
    """An answer as a helper writes it: its length, then its bytes."""
    return len(data).to_bytes(_SIZE, "little") + data


def answer_all(requests: BinaryIO, answers: BinaryIO, answer: Callable[[object], object]) -> None:
    """A helper's loop once it has greeted: each request's answer, framed, until the end."""
    answers.write(frame(READY))
    answers.flush()
    while True:
        try:
            item = pickle.load(requests)
        except EOFError:
            return
        answers.write(frame(pickle.dumps(answer(item), protocol=pickle.HIGHEST_PROTOCOL)))
        answers.flush()


class Helper:
    """One helper process: the items it was given, in order, and what it has answered."""

    def __init__(self, requests: IO[bytes], answers: int, stop: Callable[[], None]) -> None:
        self.requests = requests
        self.fd = answers
        """The answers' pipe, read directly (no buffer in between to hide what is in)."""
        self.stop = stop
        self.buffer = bytearray()
        self.given: deque[int] = deque()
        """Indexes of the items given and not answered yet, in the order given."""
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

    def has_answer(self, within: float = 0.0) -> bool:
        """Is a whole answer in, waiting at most ``within`` seconds? (Where pipes cannot be
        polled, this says yes, and :meth:`take` waits.)"""
        deadline = time.monotonic() + within
        while not self._complete():
            if not self.can_poll:
                return True
            try:
                readable, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
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


def start(module: str, serve: Serve) -> Helper:
    """A helper that runs ``serve`` (forked), or ``python -m module``, which must run the
    same ``serve`` on its stdin and stdout."""
    if FORK and threading.active_count() == 1:
        return _fork(serve)
    # The helper must import this very warren, wherever it was imported from.
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    process = subprocess.Popen(
        [sys.executable, "-m", module],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    _widen(process.stdout.fileno())
    return Helper(process.stdin, process.stdout.fileno(), lambda: _stop(process))


def _widen(pipe: int) -> None:
    """Let the pipe hold PIPE_BYTES, where the system allows it (else it stays as it is)."""
    setting = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setting is not None:
        with suppress(OSError):
            fcntl.fcntl(pipe, setting, PIPE_BYTES)


def _fork(serve: Serve) -> Helper:
    """A helper forked from this process: requests and answers on two pipes of its own."""
    requests_in, requests_out = os.pipe()
    answers_in, answers_out = os.pipe()
    _widen(answers_in)
    pid = os.fork()
    if pid == 0:  # the helper
        code = 1
        try:
            _close_all_but(requests_in, answers_out)
            with open(requests_in, "rb") as requests, open(answers_out, "wb") as answers:
                serve(requests, answers)
            code = 0
        finally:
            os._exit(code)
    os.close(requests_in)
    os.close(answers_out)
    to_helper = open(requests_out, "wb")  # noqa: SIM115 (closed by stop)

    def stop() -> None:
        with suppress(OSError):  # a broken pipe to a helper that is already gone
            to_helper.close()
        os.close(answers_in)
        _reap(pid)

    return Helper(to_helper, answers_in, stop)


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


_GONE = (OSError, EOFError, pickle.UnpicklingError)
_GARBLED = (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, IndexError)


def in_order(
    items: Sequence[T], helpers: int, module: str, serve: Serve, greeting: object,
    here: Callable[[T], R], ahead: int = AHEAD, patient: bool = False,
) -> Iterator[R]:
    """Each item's answer, in order: from one of ``helpers`` helper processes, or from
    ``here`` (this process) while the helpers start, when this process would otherwise
    wait, and for every item left when the helpers are gone (they could not start, or one
    stopped or answered garbage). Each helper has at most ``ahead`` items in hand: enough
    to never run dry, few enough that at the end this process does not wait long for them.

    ``patient``: when the answer due next is not in, wait for it up to half the time an item
    last took here before doing a later item instead. Right where this process has work of
    its own besides (an import writes every game: an item prepared here costs it more than
    a short wait); not where it only shares the items with the helpers (a check)."""
    started: list[Helper] = []
    local: dict[int, R] = {}
    owner: dict[int, Helper] = {}
    answered: dict[int, bytes] = {}
    nxt = 0
    """The first item neither given to a helper nor done here yet."""
    patience = 0.0
    """How long to wait for a helper's answer before doing a later item here instead."""
    alive = True
    try:
        try:
            for _ in range(helpers):
                started.append(start(module, serve))
            for helper in started:
                helper.send(greeting)
            if not WORK_WHILE_WAITING:
                for helper in started:
                    helper.take_ready()
        except _GONE:
            alive = False

        def collect(helper: Helper, wait: bool, within: float = 0.0) -> None:
            """Move the helper's answers that are in (or, with ``wait``, the next one; or the
            next one to come ``within`` that many seconds)."""
            if not helper.ready:
                if wait or helper.has_answer():
                    helper.take_ready()
                return
            while helper.given and (wait or helper.has_answer(within)):
                answered[helper.given.popleft()] = helper.take()
                wait, within = False, 0.0

        def give() -> None:
            nonlocal nxt
            for helper in started:
                if not helper.ready:
                    collect(helper, wait=False)
            while nxt < len(items):
                ready = [h for h in started if h.ready and len(h.given) < ahead]
                if not ready:
                    return
                least = min(ready, key=lambda h: len(h.given))
                least.send(items[nxt])
                least.given.append(nxt)
                owner[nxt] = least
                nxt += 1

        for i in range(len(items)):
            if alive:
                try:
                    give()
                    mine = owner.get(i)
                    if mine is not None:
                        while i not in answered:
                            # The helper is at this item now, most likely: give it a moment
                            # (half of what an item took here) before doing a later one.
                            collect(mine, wait=False, within=patience if patient else 0.0)
                            if i in answered:
                                break
                            if WORK_WHILE_WAITING and nxt < len(items) and len(local) < LOCAL_AHEAD:
                                begun = time.perf_counter()
                                local[nxt] = here(items[nxt])
                                patience = (time.perf_counter() - begun) / 2
                                nxt += 1
                            else:
                                collect(mine, wait=True)
                except _GONE:
                    alive = False
            if i in answered:
                try:
                    answer: R = pickle.loads(answered.pop(i))
                except _GARBLED:
                    alive = False  # garbage from a helper: this process does the rest
                else:
                    yield answer
                    continue
            if i in local:
                yield local.pop(i)
            else:
                nxt = max(nxt, i + 1)
                yield here(items[i])
    finally:
        for helper in started:
            helper.stop()
