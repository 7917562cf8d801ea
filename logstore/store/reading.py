"""Reading record files for the store and for ``warren check``: which files, and how.

The decoding itself is ``engine.reader.read_record`` (one decoder: it streams a file a chunk
at a time and takes exact shortcuts for the canonical lines warren writes). Here: which files a
list of paths names (:func:`record_paths`), and opening one safely (:func:`open_record`):
only a regular file is read, so a FIFO, a device (``/dev/zero``) or a socket given by
mistake is refused at once instead of hanging or filling the memory.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from engine.reader import array_decoder, read_record
from engine.record import Record, RecordError

__all__ = ["Prepended", "array_decoder", "open_record", "read_file", "read_for_store", "record_paths"]


def record_paths(paths: Iterable[Path]) -> Iterator[Path]:
    """Files as given; a folder means every ``*.jsonl`` below it, in sorted order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.jsonl") if p.is_file())
        else:
            yield path


def open_record(path: str | Path) -> BinaryIO:
    """Open a record file for reading; :class:`RecordError` for what is not a regular file
    or cannot be read. The check is made on the opened file (``fstat``), not on the name,
    so nothing can be swapped in between. A FIFO is opened without blocking, so that a
    FIFO nobody writes to is refused rather than waited on for ever."""
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise RecordError(name, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
                    else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
            raise RecordError(name, None, f"{what}, not a record file (only regular files are read)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


class Prepended(io.RawIOBase):
    """A stream that gives ``head`` (bytes already read from ``rest``) and then the rest."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self.head = head
        self.rest = rest

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if not self.head:
            return self.rest.read(size) or b""
        if size < 0:
            out, self.head = self.head + (self.rest.read() or b""), b""
            return out
        out, self.head = self.head[:size], self.head[size:]
        return out


def read_file(path: str | Path, *, keep_text: bool = False) -> Record:
    """Read one record file (a stream: memory holds one game, whatever the file's size)."""
    name = str(path)
    with open_record(name) as stream:
        try:
            return read_record(stream, name, keep_text=keep_text)
        except OSError as exc:
            raise RecordError(name, None, f"cannot read: {exc.strerror or exc}") from None


def read_for_store(data: bytes, path: str = "<record>") -> tuple[Record, list[str]]:
    """Decode a record given as bytes and its lines as text; raise :class:`RecordError` as
    ``read_record`` does, naming the line and the reason."""
    record = read_record(data, path, keep_text=True)
    assert record.texts is not None
    return record, record.texts
