"""Writing a file warren hands to a user (an exported record, a simulated game, a branch,
the rulings, a query result), whole or not at all, and never through a planted link.

The file is written under a name nobody can guess, created by ``tempfile.mkstemp`` in the
destination folder (``O_CREAT | O_EXCL``: it never opens something already there, so a
symbolic link planted under a predictable ``F.tmp`` cannot redirect the write), then renamed
over the destination with ``os.replace``. A rename replaces a link at the destination itself
rather than writing through it, and a reader sees the old file or the new one, never half.
A folder that cannot be written is a clear :class:`OutputError`, never a traceback.

Only a regular file (or a name not yet taken) is replaced so. ``-`` is standard output, and
a destination that is something else than a file (a FIFO, a device such as ``/dev/null``
or ``/dev/full``, a link to ``/proc/self/fd/1``) is written to as a stream, never replaced
by a regular file; so is a name of one of the process's own descriptors (``/proc/self/fd/1``,
``/dev/stdout``), even where it leads to a regular file (standard output sent to a file),
which is appended to. A folder is refused, and so is a path through a file
(``/etc/passwd/x``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from engine.rules import WarrenError


class OutputError(WarrenError):
    """A file warren was asked to write could not be written (which, and why)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def replacing(target: Path | str) -> Iterator[BinaryIO]:
    """A binary file to write ``target``'s new content into; on leaving the block without an
    error it replaces ``target`` (created with the usual permissions), otherwise it is
    removed and ``target`` is left as it was."""
    if str(target) == "-":
        yield from _streaming(sys.stdout.buffer, "standard output", close=False)
        return
    target = Path(target)
    if _names_a_descriptor(target):
        # /proc/self/fd/1, /dev/stdout: the process's own open stream, never a file to replace.
        try:
            handle = os.fdopen(os.open(target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)),
                               "wb")
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
        yield from _streaming(handle, str(target), close=True)
        return
    try:
        found = os.stat(target)  # follows links: what a write through the name would reach
    except OSError:
        found = None
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise OutputError(f"cannot write {target}: it is a folder, give a file name")
    if found is not None and not stat.S_ISREG(found.st_mode):
        try:
            # No O_TRUNC, no O_CREAT: a stream is written to, never made or replaced.
            handle = os.fdopen(os.open(target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)), "wb")
        except OSError as exc:
            raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
        yield from _streaming(handle, str(target), close=True)
        return
    blocking = next((p for p in (target.parent, *target.parent.parents)
                     if os.path.lexists(p) and not p.is_dir()), None)
    if blocking is not None:
        raise OutputError(f"cannot write {target}: {blocking} is a file, not a folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), 0o666 & ~_umask())
            yield handle
            handle.flush()
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


_DESCRIPTORS = ("/proc/self/fd", "/proc/thread-self/fd", "/dev/fd")
_STANDARD = ("/dev/stdout", "/dev/stderr")


def _names_a_descriptor(target: Path) -> bool:
    """Does ``target`` name one of this process's open descriptors (``/proc/self/fd/N``,
    ``/dev/fd/N``, ``/dev/stdout``)? Such a name is a link to wherever the descriptor goes, a
    regular file included, and is written to as the stream it is."""
    text = os.path.abspath(target)
    return text in _STANDARD or os.path.dirname(text) in _DESCRIPTORS or \
        os.path.dirname(text) == f"/proc/{os.getpid()}/fd"


def _streaming(handle: BinaryIO, name: str, *, close: bool) -> Iterator[BinaryIO]:
    """Hand out a stream to write to; a failed write (``/dev/full``, a closed pipe) is an
    :class:`OutputError` naming it."""
    try:
        yield handle
        handle.flush()
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {exc.strerror or exc}") from None
    finally:
        if close:
            with contextlib.suppress(OSError):
                handle.close()


def write_file(target: Path | str, data: bytes | str) -> None:
    """Write ``data`` to ``target`` whole (text as UTF-8), through :func:`replacing`."""
    with replacing(target) as handle:
        handle.write(data.encode() if isinstance(data, str) else data)


def sync_folder(folder: Path, wanted: dict[Path, bytes], *, check: bool, script: str,
                pattern: str = "*.jsonl") -> int:
    """The main of a script that generates a folder of files (the fixture scripts): write
    every file of ``wanted`` whose bytes differ, remove the files matching ``pattern`` below
    ``folder`` that it no longer writes, and say what changed; with ``check``, write nothing,
    name each stale file on stderr and return 1 if any is. Returns the exit code."""

    stale = sorted(p for p, data in wanted.items() if not p.is_file() or p.read_bytes() != data)
    extra = sorted(p for p in folder.rglob(pattern) if p not in wanted)
    if check:
        for path in stale:
            print(f"{path}: differs from what {script} writes", file=sys.stderr)
        for path in extra:
            print(f"{path}: not written by {script}", file=sys.stderr)
        return 1 if stale or extra else 0
    for path in extra:
        path.unlink()
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as out:
            out.write(wanted[path])
    print(f"{folder}: {len(wanted)} files, {len(stale)} written, {len(extra)} removed")
    return 0
