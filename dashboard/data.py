"""The dashboard's only door to warren's data: the logstore library, cached per session.

Nothing here touches SQLite directly; every read and every write (rulings, branches) goes
through logstore.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from engine.record import Record
from engine.registry import get_ruleset
from engine.replay import Replay
from engine.rules import WarrenError
from engine.ruleset import Ruleset


def store_path() -> Path:
    """The store the dashboard serves: $WARREN_DB (set by `warren dashboard --db`) or ./warren.db."""
    from logstore.store import default_db_path

    return Path(os.environ.get("WARREN_DB") or default_db_path())


class StoreUnavailable(WarrenError):
    """No store, or a file that is not a warren store."""


def open_store() -> Any:
    """A Store for this rerun (opened read-write; the dashboard writes rulings and branches)."""
    from logstore.store import Store

    path = store_path()
    if not path.exists():
        raise StoreUnavailable(
            f"There is no store at {path}. Run `warren demo` to create one, or start the "
            "dashboard with `warren dashboard --db PATH`.")
    try:
        return Store(path, create=False)
    except WarrenError as exc:
        raise StoreUnavailable(f"{path} cannot be opened as a warren store: {exc}") from None
    except Exception as exc:  # a corrupt file surfaces as sqlite3.DatabaseError
        raise StoreUnavailable(f"{path} cannot be opened as a warren store: {exc}") from None


def store_stamp() -> float:
    """Changes whenever the store file changes, so cached reads are refreshed."""
    path = store_path()
    stamps = [p.stat().st_mtime for p in (path, Path(str(path) + "-wal")) if p.exists()]
    return max(stamps, default=0.0)


@st.cache_data(show_spinner=False)
def _games(path: str, stamp: float) -> list[dict[str, Any]]:
    from dataclasses import asdict

    with open_store() as store:
        return [asdict(row) for row in store.games()]


def games() -> list[dict[str, Any]]:
    return _games(str(store_path()), store_stamp())


@dataclass(frozen=True)
class LoadedGame:
    record: Record
    ruleset: Ruleset
    replay: Replay

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.record.header.players]


@st.cache_resource(show_spinner=False, max_entries=32)
def _load(path: str, game_id: str, stamp: float) -> LoadedGame:
    with open_store() as store:
        record = store.record(game_id)
    ruleset = get_ruleset(record.header.ruleset)
    return LoadedGame(record, ruleset, Replay(ruleset, record.header, record.events))


def load_game(game_id: str) -> LoadedGame:
    """The decoded game, folded once per session and store version (seeks are then cheap)."""
    return _load(str(store_path()), game_id, store_stamp())


def perspective_options(names: list[str]) -> list[str]:
    return ["referee", "spectator", *[f"seat {i}: {n}" for i, n in enumerate(names)]]


def parse_perspective(label: str) -> int | str:
    if label.startswith("seat "):
        return int(label.split(":", 1)[0].split()[1])
    return label


def perspective_label(value: int | str, names: list[str]) -> str:
    if isinstance(value, int) and 0 <= value < len(names):
        return f"seat {value}: {names[value]}"
    return str(value)
