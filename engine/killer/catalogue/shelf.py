"""The deck folders of one game, and the library of cards read from them.

Quest's deck sets and boosters and Odyssey's personal decks are deck files in folders: the
game's own, those named by ``WARREN_DECKS``, and those a table adds while warren runs
(``warren deck``, the dashboard, a test). A game keeps one :class:`DeckShelf`; reading the
files is I/O at the boundary, done once per set of folders.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

L = TypeVar("L")


class DeckShelf(Generic[L]):
    """The deck folders one game reads and the library built from them: the game's own
    folder, the folders named by ``WARREN_DECKS`` (separated like ``PATH``), and those a
    table adds (``add``, or ``using`` for a while). The library is built again whenever
    the folders change, and ``cache`` (what the game derives from it: decks, tables) is
    emptied then, in place, so a module holding it keeps the same dict."""

    def __init__(self, own: Path, build: Callable[[Sequence[Path]], L]) -> None:
        self.own = own
        self._build = build
        self.added: list[Path] = []
        self.cache: dict[str, Any] = {}
        self._library: L | None = None
        self._where: tuple[Path, ...] = ()

    def folders(self) -> list[Path]:
        env = [Path(p) for p in os.environ.get("WARREN_DECKS", "").split(os.pathsep) if p]
        return [self.own, *env, *self.added]

    def add(self, folders: Iterable[str | Path]) -> None:
        """Add folders of deck files (a table's boosters, house cards, personal decks)."""
        before = list(self.added)
        for folder in folders:
            path = Path(folder).resolve()
            if path not in self.added:
                self.added.append(path)
        if self.added != before:
            self._forget()

    @contextlib.contextmanager
    def using(self, folders: Iterable[str | Path]) -> Iterator[L]:
        """The library with ``folders`` added, for the ``with`` block only: nothing read
        from them (the library, the game's decks) outlives the block."""
        kept = list(self.added)
        self.add(folders)
        try:
            yield self.library()
        finally:
            if self.added != kept:
                self.added[:] = kept
                self._forget()

    def _forget(self) -> None:
        """The folders changed: what was read and derived from the old ones goes (a game's
        hot paths read ``cache`` without asking for the library)."""
        self._library = None
        self.cache.clear()

    def library(self) -> L:
        """The library of the folders named now (built again when they changed)."""
        where = tuple(self.folders())
        if self._library is None or where != self._where:
            built = self._build(where)
            self.cache.clear()
            self._library, self._where = built, where
        return self._library
