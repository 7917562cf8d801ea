"""A store being filled in the background: how far `warren demo` has got.

`warren demo` serves the dashboard as soon as the shipped records are in, then adds its
simulated games while the dashboard is already open. It says how far it has got in a small
file beside the store (``<store>.filling.json``), which the Overview reads: a file, not a
row, so that the reader never waits on the writer's transactions. The file names the
writing process; a file whose process has gone (killed, crashed) is stale and is ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from logstore.store.files import replacing


@dataclass(frozen=True, slots=True)
class Filling:
    done: int
    """Simulated games handled so far (added, or skipped as already stored)."""
    target: int
    """Simulated games to handle in all."""
    pid: int
    """The process adding them."""

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.target) if self.target else 1.0


def filling_path(store: Path) -> Path:
    return Path(str(store) + ".filling.json")


def write_filling(store: Path, done: int, target: int) -> None:
    """Say how far this process has got (written whole: a reader never sees half a file)."""
    with replacing(filling_path(store)) as out:
        out.write(json.dumps({"done": done, "target": target, "pid": os.getpid()}).encode())


def clear_filling(store: Path) -> None:
    filling_path(store).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True


def read_filling(store: Path) -> Filling | None:
    """How far the filling has got, or None when nothing is filling this store (no file, an
    unreadable one, or one whose process has ended)."""
    try:
        found = json.loads(filling_path(store).read_text(encoding="utf-8"))
        filling = Filling(int(found["done"]), int(found["target"]), int(found["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return filling if _alive(filling.pid) else None
