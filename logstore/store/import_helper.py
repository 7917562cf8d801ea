"""A helper process for large imports: it decodes, verifies and judges record files while
the importing process writes the previous ones.

    python -m logstore.store.import_helper     (started by Store.import_paths, not by hand)

It reads pickled requests on stdin (first the stored game ids and the store's name, then
one path per request) and answers each path with a pickled ``Prepared`` or ``Refused`` on
stdout, in order. A plain subprocess, not multiprocessing: it never re-imports the
caller's main module, and the caller reads answers on its own thread, with no result
thread fighting it for the GIL.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Generator, Sequence
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from logstore.store.importing import Prepared, Refused, prepare_file, start_worker

AHEAD = 4
"""Files handed to each helper before its first answer is read."""


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    known, db = pickle.load(requests)
    start_worker(known, db)
    while True:
        try:
            path = pickle.load(requests)
        except EOFError:
            return
        pickle.dump(prepare_file(path), answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()


def _start() -> subprocess.Popen[bytes]:
    # The helper must import this very warren, wherever it was imported from.
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "logstore.store.import_helper"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )


def _send(helper: subprocess.Popen[bytes], message: object) -> None:
    assert helper.stdin is not None
    pickle.dump(message, helper.stdin, protocol=pickle.HIGHEST_PROTOCOL)
    helper.stdin.flush()


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
    files: Sequence[str], helpers: int, known: frozenset[str], db: str
) -> Generator[Prepared | Refused | None, None, None]:
    """Each file's answer, in order. ``None`` means the helpers are gone (they could not
    start, or one stopped): the caller prepares that file and the rest itself."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(helpers):
            started.append(_start())
        for helper in started:
            _send(helper, (known, db))
        sent = 0
        for i in range(len(files)):
            while sent < len(files) and sent < i + AHEAD * helpers:
                _send(started[sent % helpers], files[sent])
                sent += 1
            answers = started[i % helpers].stdout
            assert answers is not None
            yield pickle.load(answers)
    except (OSError, EOFError, pickle.UnpicklingError):
        yield None
    finally:
        for helper in started:
            _stop(helper)


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
