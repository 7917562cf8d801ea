"""The event store: every game's record lines in one SQLite file, append-only, and what
reads, judges and annotates them.

- :mod:`~logstore.store.event_store`: :class:`Store` (import, append, export, verify,
  positions from snapshots) and its rows;
- :mod:`~logstore.store.schema`: the tables and the triggers that keep the log append-only;
- :mod:`~logstore.store.reading`: finding record files and decoding them, with a fast path
  for canonical records;
- :mod:`~logstore.store.importing`: decode, verify and judge a record before it is written
  (the store's :class:`~logstore.store.importing.ReplayVerdict`), and
  :mod:`~logstore.store.import_helper`, the helper process that does it for large imports;
- :mod:`~logstore.store.helpers`: running such helper processes (forked on Linux) beside
  this one, which takes its share of the work and keeps the order;
- :mod:`~logstore.store.snapshots`: engine states kept every K events;
- :mod:`~logstore.store.checking`: ``warren check``, the same judgement without storing;
- :mod:`~logstore.store.branches` and :mod:`~logstore.store.rulings`: what-if branches and
  rulings kept beside the games;
- :mod:`~logstore.store.errors`: the errors a user can cause in the store.

``from logstore.store import Store`` (and the other names in ``__all__``) imports the store
module on first use only: the import helper processes and ``warren check`` use modules of
this package without paying for sqlite-utils (and the pandas it brings) at start-up.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from logstore.store.errors import BrokenChain, DuplicateGame, StaleSeq, StoreError, UnknownGame
    from logstore.store.event_store import DEFAULT_DB, GameRow, ImportResult, Store, default_db_path

_HOMES = {
    "DEFAULT_DB": "logstore.store.event_store",
    "GameRow": "logstore.store.event_store",
    "ImportResult": "logstore.store.event_store",
    "Store": "logstore.store.event_store",
    "default_db_path": "logstore.store.event_store",
    "BrokenChain": "logstore.store.errors",
    "DuplicateGame": "logstore.store.errors",
    "StaleSeq": "logstore.store.errors",
    "StoreError": "logstore.store.errors",
    "UnknownGame": "logstore.store.errors",
}

__all__ = [
    "DEFAULT_DB",
    "BrokenChain",
    "DuplicateGame",
    "GameRow",
    "ImportResult",
    "StaleSeq",
    "Store",
    "StoreError",
    "UnknownGame",
    "default_db_path",
]


def __getattr__(name: str) -> Any:
    """The public names above, imported from their home module when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
