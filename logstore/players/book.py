"""The players of a store and the names they are known by.

A player is first known by the name a record gives a seat (:func:`engine.record.player_key`:
spacing and case aside). The store's ``player_changes`` table holds what a table has said
since, in order: ``merge`` (the player known as ``name`` is the one known as ``target``:
every game of the one counts for the other) and ``rename`` (the player known as ``name`` is
called ``target`` from now on; the old name still finds the player). The table is
append-only (triggers refuse UPDATE and DELETE), so a merge is undone by no edit: the
players are always the headers' names with the changes applied in order.
"""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.record import player_key, shown_name
from engine.rules import WarrenError
from logstore.store.event_store import Store
from logstore.store.schema import append_only

SCHEMA = """
CREATE TABLE IF NOT EXISTS player_changes (
    id INTEGER PRIMARY KEY,           -- in the order said (rows are never deleted)
    at TEXT NOT NULL,                 -- when it was said, RFC 3339
    kind TEXT NOT NULL CHECK (kind IN ('merge', 'rename')),
    name TEXT NOT NULL,               -- the player, by a name it is known by
    target TEXT NOT NULL              -- merge: the player it is; rename: its new name
);
""" + append_only("player_changes", "player changes") + """
"""

BOT_SOURCE = "simulated"
"""Games of this source are played by bots."""


PLACEHOLDER = re.compile(r"(?i)^\s*(player|seat)\s*#?\d+\s*$")
"""A seat named by its number alone (``player 3``, ``Seat 1``): a stand-in, not a person."""


class PlayerError(WarrenError):
    """A name that finds no player, a merge into oneself, a rename onto another player."""


@dataclass(slots=True)
class Seat:
    """One seat of one game, linked to its player."""

    game_id: str
    ruleset: str
    seat: int
    name: str
    """The name the record gives the seat."""
    player: str
    """The player's name now (after merges and renames)."""
    bot: bool
    played: str
    """When the game was played (the header's ``created``)."""
    order: int
    """The game's place in the order played (``created``, then import order), from 1."""


@dataclass(slots=True)
class Player:
    name: str
    """The name shown (the first spelling seen, or the latest rename)."""
    aliases: list[str] = field(default_factory=list)
    """Every other name the records give this player."""
    bot: bool = False


class Book:
    """The players of a store, read once: every seat linked to its player."""

    def __init__(self, store: Store, *, bots: bool = False) -> None:
        self.bots = bots
        from logstore.players import plays

        rows = store.conn.execute(
            "SELECT game_id, ruleset, source, created, players, imported_at FROM games "
            "WHERE parent_game IS NULL").fetchall()
        # Results-only plays (a play logger's) count as games of their own source.
        rows += [(r[0], r[1], plays.SOURCE, r[2], r[3], r[9]) for r in plays.rows(store.conn)]
        rows.sort(key=lambda r: (r[3], r[5], r[0]))
        self.changes = changes(store)
        self._parent: dict[str, str] = {}
        self._shown: dict[str, str] = {}
        self._bot: dict[str, bool] = {}
        games: list[tuple[str, str, bool, str, list[str], int]] = []
        # Names and changes in the order the store learnt them (imports and changes by
        # time): a name a rename gave a player finds that player in every game imported
        # after the rename, whichever order the games came in.
        learnt: list[tuple[str, int, list[str] | tuple[str, str, str], bool]] = []
        for order, (game_id, ruleset, source, created, names, imported_at) in enumerate(rows, 1):
            listed = json.loads(names)
            # a game whose seats are named by number only ("player 3") seats nobody known:
            # it counts for no person, as a simulated game does
            bot = source == BOT_SOURCE or all(PLACEHOLDER.match(str(n)) for n in listed)
            if bot and not bots:
                continue
            games.append((game_id, ruleset, bot, created, listed, order))
            learnt.append((imported_at, 0, listed, bot))
        learnt.extend((at, 1, (kind, name, target), False) for _, kind, name, target, at in self._said(store))
        for _, what, item, bot in sorted(learnt, key=lambda x: (x[0], x[1])):
            if what == 1:
                self._apply(*item)
                continue
            for name in item:
                key = player_key(name)
                if key not in self._parent:
                    self._parent[key] = key
                    self._shown[key] = shown_name(name)
                    self._bot[key] = bot
        self.seats: list[Seat] = [
            Seat(game_id, ruleset, seat, name, self._shown[self._find(player_key(name))], bot, created, order)
            for game_id, ruleset, bot, created, listed, order in games
            for seat, name in enumerate(listed)
        ]

    # -- names -----------------------------------------------------------------------------
    @staticmethod
    def _said(store: Store) -> list[tuple[int, str, str, str, str]]:
        present = store.conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_changes'").fetchone()
        if present is None:
            return []
        return [(int(i), str(k), str(n), str(t), str(a)) for i, k, n, t, a in store.conn.execute(
            "SELECT id, kind, name, target, at FROM player_changes ORDER BY id")]

    def _find(self, key: str) -> str:
        parent = self._parent
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def _apply(self, kind: str, name: str, target: str) -> None:
        key = player_key(name)
        if key not in self._parent:
            return  # a player of games no longer counted here (bots left out)
        root = self._find(key)
        if kind == "merge":
            into = player_key(target)
            if into in self._parent and self._find(into) != root:
                self._parent[root] = self._find(into)
        else:
            new = player_key(target)
            self._parent.setdefault(new, root)
            self._shown[root] = shown_name(target)

    def find(self, name: str) -> str:
        """The player known by ``name`` (its name now); a :class:`PlayerError` names the
        nearest players when no player is known by it."""
        key = player_key(name)
        if key in self._parent:
            return self._shown[self._find(key)]
        raise PlayerError(f"no player {name!r}{self._nearest(name)}")

    def _nearest(self, name: str) -> str:
        """`` : did you mean Ann or Bo?`` (players by their names now, each once)."""
        by_key = {k: self._shown[self._find(k)] for k in self._parent}
        near = difflib.get_close_matches(player_key(name), list(by_key), n=6, cutoff=0.5)
        if not near:
            near = [k for k in by_key if k.startswith(player_key(name)[:1])]
        shown = list(dict.fromkeys(by_key[k] for k in near))[:3]
        return f": did you mean {' or '.join(shown)}?" if shown else " (no player has a name like it)"

    def players(self) -> list[Player]:
        """Every player, by name, each with the other names the records give it."""
        out: dict[str, Player] = {}
        for key in self._parent:
            root = self._find(key)
            out.setdefault(self._shown[root], Player(self._shown[root], [], self._bot[root]))
        for seat in self.seats:  # one pass: a store's seats are many, its players few
            spelt = shown_name(seat.name)  # spacing is no other spelling
            player = out[seat.player]
            if spelt != player.name and spelt not in player.aliases:
                player.aliases.append(spelt)
        return sorted(out.values(), key=lambda p: p.name.casefold())


def install(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)


def changes(store: Store) -> list[tuple[int, str, str, str]]:
    """Every change said so far, in order: ``(id, kind, name, target)``."""
    present = store.conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_changes'").fetchone()
    if present is None:
        return []
    rows = store.conn.execute("SELECT id, kind, name, target FROM player_changes ORDER BY id").fetchall()
    return [(int(i), str(k), str(n), str(t)) for i, k, n, t in rows]


def merge(store: Store, name: str, into: str) -> tuple[str, str]:
    """Say that the player known as ``name`` is the player known as ``into``: returns the
    two players' names. Refused: a name no player has, a merge into oneself."""
    book = Book(store, bots=True)
    one, other = book.find(name), book.find(into)
    if one == other:
        raise PlayerError(f"{name!r} and {into!r} are already the same player ({one}): nothing to merge")
    _say(store, "merge", name, into)
    return one, other


def rename(store: Store, name: str, new: str) -> tuple[str, str]:
    """Call the player known as ``name`` ``new`` from now on; refused where ``new`` is the
    name of another player (merge them instead) or no name at all."""
    book = Book(store, bots=True)
    old = book.find(name)
    if not player_key(new):
        raise PlayerError("a player's new name cannot be empty")
    try:
        taken = book.find(new)
    except PlayerError:
        taken = None
    if taken is not None and taken != old:
        raise PlayerError(f"{new!r} is already the name of another player ({taken}): "
                          f"`warren players merge {name!r} {new!r}` makes them one")
    if taken == old and old == shown_name(new):
        raise PlayerError(f"{old} is already called {new!r}")
    _say(store, "rename", name, new)
    return old, shown_name(new)


def _say(store: Store, kind: str, name: str, target: str) -> None:
    install(store.conn)
    at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    store.conn.execute("BEGIN IMMEDIATE")
    try:
        store.conn.execute("INSERT INTO player_changes (at, kind, name, target) VALUES (?, ?, ?, ?)",
                           (at, kind, name, target))
        # The players' projection tables are stale now: count it as a change to the store.
        store.bump_changes()
        store.conn.execute("COMMIT")
    except BaseException:
        if store.conn.in_transaction:
            store.conn.execute("ROLLBACK")
        raise


def player_names(names: Iterable[str], book: Book) -> list[str]:
    """Players typed as a list (``"Ann,Bo,Cy"``), each found in the book."""
    found = [book.find(n) for n in names if n.strip()]
    if len(set(found)) != len(found):
        raise PlayerError(f"a player is named twice: {', '.join(found)}")
    return found
