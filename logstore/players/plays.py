"""Plays from a play logger: a BG Stats export read back as results-only plays (the people's
games written for the loggers: logstore.players.loggers).

A results-only play (table ``plays``) is a game's result without its record: who sat where,
who started, who won, the scores and roles where the logger kept them. It has no events, so
nothing of it can be replayed or judged; it counts in the players' figures and ratings, in
date order with the recorded games, each once: a play imported twice is stored once (by
its logger's id), and one that a recorded game of the same day and players already holds is
not stored again. One that contradicts such a game (other winners) is reported, not merged.
The mapping, field by field: docs/players.md.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from engine.record import player_key
from engine.registry import get_ruleset
from engine.rules import WarrenError
from logstore.store.event_store import Store
from logstore.store.schema import append_only

SCHEMA = """
CREATE TABLE IF NOT EXISTS plays (
    play_id TEXT PRIMARY KEY,         -- 'bgstats:' and the logger's own id of the play
    ruleset TEXT NOT NULL,
    played TEXT NOT NULL,             -- when, as the logger gave it (YYYY-MM-DDThh:mm:ss)
    players TEXT NOT NULL,            -- JSON array of names in seat order
    winners TEXT NOT NULL,            -- JSON array of seats
    scores TEXT,                      -- JSON array, where the logger kept scores
    roles TEXT,                       -- JSON array, where it kept roles (Trust No Bunny's sides)
    start_seat INTEGER,
    minutes INTEGER,
    imported_at TEXT NOT NULL
);
""" + append_only("plays", "plays") + """
"""

SOURCE = "played"
"""The source a results-only play counts under among the games (no record behind it)."""

NAMES: dict[str, tuple[str, ...]] = {
    "killer-bunnies-quest": ("Killer Bunnies and the Quest for the Magic Carrot", "Killer Bunnies Quest",
                             "Killer Bunnies"),
    "killer-bunnies-odyssey": ("Killer Bunnies and the Ultimate Odyssey", "Killer Bunnies Odyssey"),
    "kinderbunnies": ("KinderBunnies", "KinderBunnies: Their First Adventure", "Kinder Bunnies"),
    "bunnies": ("Bunnies",),
    "trust-no-bunny": ("Trust No Bunny",),
}
"""Each game's name in the loggers (the first is the one warren writes); matched with case
and spacing aside. docs/players.md lists them."""

_BY_NAME = {player_key(name): slug for slug, names in NAMES.items() for name in names}
NAMESPACE = uuid.UUID("6f1d0c52-7c1e-4b0e-9a8e-3b1f2b7f5a10")
"""Ids warren writes for the loggers are uuid5 under this, so an export is the same twice."""


class PlayError(WarrenError):
    """A play logger's file warren cannot read (which, where and why)."""


def install(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)


def exists(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'plays'"
                        ).fetchone() is not None


def rows(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
    """``(play_id, ruleset, played, players, winners, scores, roles, start_seat, minutes,
    imported_at)`` of every stored play, in the order played."""
    if not exists(conn):
        return []
    return conn.execute("SELECT play_id, ruleset, played, players, winners, scores, roles, start_seat, "
                        "minutes, imported_at FROM plays ORDER BY played, play_id").fetchall()


def sides(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The side of each seat of each play whose logger kept every seat's role, for a game
    played in sides (the roles are the sides: Townsfolk, Werebunny)."""
    out: dict[str, list[str]] = {}
    for play_id, ruleset, *_, roles, _, _, _ in rows(conn):
        if roles is None or get_ruleset(ruleset).capabilities.sides is None:
            continue
        found = json.loads(roles)
        if all(found):
            out[play_id] = found
    return out


# -- reading a BG Stats export ------------------------------------------------------------------
@dataclass(slots=True)
class PlayImport:
    """What a BG Stats file gave."""

    stored: list[str] = field(default_factory=list)
    already: int = 0
    """Plays stored before (the same logger id)."""
    recorded: int = 0
    """Plays a recorded game of the same day and players already holds."""
    contradicted: list[str] = field(default_factory=list)
    """Plays a recorded game of the same day and players contradicts (in words)."""
    other_games: dict[str, int] = field(default_factory=dict)
    """Plays of games warren does not know, by name: counted and left out."""


@dataclass(slots=True)
class Played:
    """One game of people, recorded or results-only, as the loggers keep it (written by
    :func:`played_games`, read by :func:`read_bgstats`)."""

    play_id: str
    ruleset: str
    played: str
    players: list[str]
    """Each seat's player, by the name warren's players give (merges and renames applied)."""
    winners: list[int]
    scores: list[int] | None
    roles: list[str] | None
    start_seat: int | None
    minutes: int | None
    game_id: str | None = None
    """The recorded game a play read from a logger says it is (warren's own export writes
    ``warren GAME`` in its comments)."""


def _need(found: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(found, dict) or key not in found:
        raise PlayError(f"{where}: no {key!r} (is this a BG Stats export?)")
    value = found[key]
    if not isinstance(value, kind):
        raise PlayError(f"{where}: {key!r} is not {'a list' if kind is list else 'of the right kind'}")
    return value


def read_bgstats(data: bytes, path: str, now: datetime | None = None) -> tuple[list[Played], dict[str, int]]:
    """The plays of warren's five games in a BG Stats export, and the count of the others'
    plays by game name; :class:`PlayError` names the first thing that is wrong."""
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PlayError(f"{path}: not JSON ({exc})") from None
    games = {g.get("id"): g for g in _need(doc, "games", list, path) if isinstance(g, dict)}
    people = {p.get("id"): p for p in _need(doc, "players", list, path) if isinstance(p, dict)}
    today = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M:%S")
    out: list[Played] = []
    others: dict[str, int] = {}
    for k, play in enumerate(_need(doc, "plays", list, path), start=1):
        where = f"{path}: play {k}"
        game = games.get(_need(play, "gameRefId", int, where))
        if game is None:
            raise PlayError(f"{where}: its game ({play['gameRefId']}) is not among the file's games")
        name = str(game.get("name") or game.get("bggName") or "")
        slug = _BY_NAME.get(player_key(name)) or _BY_NAME.get(player_key(str(game.get("bggName") or "")))
        if slug is None:
            others[name or "(no name)"] = others.get(name or "(no name)", 0) + 1
            continue
        date = str(_need(play, "playDate", str, where))
        try:
            when = datetime.strptime(date[:19], "%Y-%m-%d %H:%M:%S")
        except ValueError:
            raise PlayError(f"{where}: playDate {date!r} is not YYYY-MM-DD hh:mm:ss") from None
        if date[:19] > today:
            raise PlayError(f"{where}: playDate {date!r} is in the future")
        scores = _need(play, "playerScores", list, where)
        if not scores:
            raise PlayError(f"{where}: a play with no players")
        seats = sorted(scores, key=lambda s: (s.get("seatOrder") or 0) if isinstance(s, dict) else 0)
        names, winners, points, roles = [], [], [], []
        start = None
        for seat, score in enumerate(seats):
            person = people.get(_need(score, "playerRefId", int, where))
            if person is None or not str(person.get("name") or "").strip():
                raise PlayError(f"{where}: player {score['playerRefId']} is not among the file's players")
            names.append(str(person["name"]))
            if score.get("winner"):
                winners.append(seat)
            if score.get("startPlayer"):
                start = seat
            text = str(score.get("score") or "").strip()
            points.append(int(text) if text.lstrip("-").isdigit() else None)
            roles.append(str(score.get("role") or ""))
        if len({player_key(n) for n in names}) != len(names):
            raise PlayError(f"{where}: a player is named twice")
        rs = get_ruleset(slug)
        if not rs.min_players <= len(names) <= rs.max_players:
            raise PlayError(f"{where}: {rs.title} is played by {rs.min_players} to {rs.max_players} players, "
                            f"not {len(names)}")
        play_id = f"bgstats:{play.get('uuid') or uuid.uuid5(NAMESPACE, json.dumps(play, sort_keys=True))}"
        kept = [p for p in points if p is not None]
        out.append(Played(play_id, slug, when.strftime("%Y-%m-%dT%H:%M:%S"), names, winners,
                         kept if len(kept) == len(points) else None,
                         roles if any(roles) else None, start, _minutes(play.get("durationMin")),
                         _named_game(play.get("comments"))))
    return out, others


def _named_game(comments: Any) -> str | None:
    text = str(comments or "")
    return text.removeprefix("warren ").strip() or None if text.startswith("warren ") else None


def _minutes(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None


def import_bgstats(store: Store, data: bytes, path: str, now: datetime | None = None) -> PlayImport:
    """Store the plays of a BG Stats export (see the module docstring), all or none."""
    plays, others = read_bgstats(data, path, now)
    report = PlayImport(other_games=others)
    conn = store.conn
    install(conn)
    recorded = _recorded(conn)
    imported_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for play in plays:
            if conn.execute("SELECT 1 FROM plays WHERE play_id = ?", (play.play_id,)).fetchone():
                report.already += 1
                continue
            key = (play.ruleset, play.played[:10], frozenset(map(player_key, play.players)))
            same = recorded.get(key, [])
            if play.game_id is not None:  # the play names its game: that one, and no other
                same = [g for g in same if g[0] == play.game_id] or same
            if same:
                won = frozenset(player_key(play.players[s]) for s in play.winners)
                if any(winners == won for _, winners in same):
                    report.recorded += 1
                else:
                    report.contradicted.append(
                        f"the play of {play.played[:10]} ({', '.join(play.players)}) says "
                        f"{_and(play.players[s] for s in play.winners) or 'nobody'} won; the recorded "
                        f"game{'s' if len(same) > 1 else ''} {', '.join(g for g, _ in same)} of that day "
                        "say otherwise: not imported")
                continue
            conn.execute("INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
                play.play_id, play.ruleset, play.played, json.dumps(play.players), json.dumps(play.winners),
                None if play.scores is None else json.dumps(play.scores),
                None if play.roles is None else json.dumps(play.roles), play.start_seat, play.minutes,
                imported_at))
            report.stored.append(play.play_id)
        if report.stored:
            store.bump_changes()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return report


def _and(names: Iterable[str]) -> str:
    found = list(names)
    return " and ".join([", ".join(found[:-1]), found[-1]]) if len(found) > 1 else "".join(found)


_Day = tuple[str, str, frozenset[str]]


def _recorded(conn: sqlite3.Connection) -> dict[_Day, list[tuple[str, frozenset[str]]]]:
    """The recorded, finished games by (ruleset, day, players): each one's id and winners."""
    out: dict[_Day, list[tuple[str, frozenset[str]]]] = {}
    for game_id, ruleset, created, names, winners in conn.execute(
            "SELECT game_id, ruleset, created, players, winners FROM games WHERE parent_game IS NULL "
            "AND source != 'simulated' AND ok AND over AND winners IS NOT NULL"):
        listed = json.loads(names)
        out.setdefault((ruleset, created[:10], frozenset(map(player_key, listed))), []).append(
            (game_id, frozenset(player_key(listed[s]) for s in json.loads(winners))))
    return out
