"""Plays to and from a play logger: the people's games written as a BG Stats export or as
BoardGameGeek play XML, and a BG Stats export read back as results-only plays.

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
from xml.sax.saxutils import quoteattr

from engine.record import player_key
from engine.registry import get_ruleset
from engine.rules import WarrenError
from logstore.store.event_store import Store

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
CREATE TRIGGER IF NOT EXISTS plays_no_update BEFORE UPDATE ON plays
BEGIN SELECT RAISE(ABORT, 'warren plays are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS plays_no_delete BEFORE DELETE ON plays
BEGIN SELECT RAISE(ABORT, 'warren plays are append-only: DELETE refused'); END;
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
_NAMESPACE = uuid.UUID("6f1d0c52-7c1e-4b0e-9a8e-3b1f2b7f5a10")
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
        play_id = f"bgstats:{play.get('uuid') or uuid.uuid5(_NAMESPACE, json.dumps(play, sort_keys=True))}"
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


# -- writing the people's games ------------------------------------------------------------------
def played_games(store: Store, *, ruleset: str | None = None, since: str | None = None) -> list[Played]:
    """The people's finished games, recorded and results-only (not bots', not what-if
    branches), in the order played, each seat by its player's name now."""
    from logstore.players.book import Book
    from logstore.players.tables import sides_of

    book = Book(store)
    seats: dict[str, list[str]] = {}
    for seat in book.seats:
        seats.setdefault(seat.game_id, []).append(seat.player)
    out: list[Played] = []
    games = store.conn.execute(
        "SELECT game_id, ruleset, created, winners, scores FROM games WHERE parent_game IS NULL AND "
        "source != 'simulated' AND ok AND over AND winners IS NOT NULL").fetchall()
    roles = sides_of(store, [(g[0], g[1]) for g in games if g[0] in seats])
    for game_id, slug, created, winners, scores in games:
        if game_id not in seats:
            continue
        out.append(Played(game_id, slug, created[:19], seats[game_id], json.loads(winners),
                          None if scores is None else json.loads(scores), roles.get(game_id),
                          _first_seat(store, game_id), None))
    for play_id, slug, played, _, winners, scores, role_list, start, minutes, _ in rows(store.conn):
        if play_id in seats:
            out.append(Played(play_id, slug, played, seats[play_id], json.loads(winners),
                              None if scores is None else json.loads(scores),
                              None if role_list is None else json.loads(role_list), start, minutes))
    chosen = [p for p in out
              if (ruleset is None or p.ruleset == ruleset) and (since is None or p.played >= since)]
    return sorted(chosen, key=lambda p: (p.played, p.play_id))


def _first_seat(store: Store, game_id: str) -> int | None:
    """The seat that acted first in a recorded game (the start player)."""
    from logstore.store import lines

    row = store.conn.execute(
        f"SELECT l.actor {lines.LINES_OF} WHERE k.game_id = ? AND l.id > k.key * {lines.SPAN} "
        "AND l.actor IS NOT NULL ORDER BY l.id LIMIT 1", (game_id,)).fetchone()
    return None if row is None else int(row[0])


def _id(kind: str, name: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{kind}:{name}"))


def _ranks(play: Played) -> list[int]:
    """Winners first; the others by score where kept (higher first), else all second."""
    if play.scores is None:
        return [1 if s in play.winners else 2 for s in range(len(play.players))]
    order = sorted(range(len(play.players)), key=lambda s: (s not in play.winners, -(play.scores or [])[s]))
    ranks = [0] * len(order)
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    return ranks


def bgstats(plays: list[Played]) -> dict[str, Any]:
    """A BG Stats export of ``plays`` (the fields its own exports carry; docs/players.md)."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    slugs = sorted({p.ruleset for p in plays})
    game_ref = {slug: i for i, slug in enumerate(slugs, start=1)}
    names = sorted({n for p in plays for n in p.players}, key=str.casefold)
    player_ref = {n: i for i, n in enumerate(names, start=1)}
    return {
        "games": [{"id": game_ref[s], "uuid": _id("game", s), "name": NAMES[s][0], "bggName": NAMES[s][0],
                   "bggId": 0, "bggYear": 0, "cooperative": False, "highestWins": True,
                   "noPoints": not any(p.scores for p in plays if p.ruleset == s), "usesTeams": False,
                   "modificationDate": now} for s in slugs],
        "players": [{"id": player_ref[n], "uuid": _id("player", n), "name": n, "isAnonymous": False,
                     "bggUsername": "", "metaData": ""} for n in names],
        "locations": [],
        "plays": [{
            "uuid": (p.play_id.removeprefix("bgstats:") if p.play_id.startswith("bgstats:")
                     else _id("play", p.play_id)),
            "gameRefId": game_ref[p.ruleset], "locationRefId": 0, "playDate": p.played.replace("T", " "),
            "entryDate": now, "modificationDate": now, "durationMin": p.minutes or 0, "rounds": 0,
            "board": "", "ignored": False, "rating": 0, "scoringSetting": 0, "manualWinner": True,
            "usesTeams": False, "comments": "" if p.play_id.startswith("bgstats:") else f"warren {p.play_id}",
            "bggId": 0, "expansionPlays": [], "playImages": "[]", "metaData": "",
            "playerScores": [{
                "playerRefId": player_ref[name], "score": "" if p.scores is None else str(p.scores[seat]),
                "winner": seat in p.winners, "rank": rank, "seatOrder": seat + 1,
                "startPlayer": seat == p.start_seat, "newPlayer": False,
                "role": "" if p.roles is None else p.roles[seat], "team": "",
            } for seat, (name, rank) in enumerate(zip(p.players, _ranks(p), strict=True))],
        } for p in plays],
        "userInfo": {"meRefId": 0},
    }


def bgg_xml(plays: list[Played]) -> str:
    """BoardGameGeek play XML of ``plays`` (docs/players.md)."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', f'<plays total="{len(plays)}">']
    for p in plays:
        out.append(f'  <play date={quoteattr(p.played[:10])} quantity="1" length="{p.minutes or 0}" '
                   'incomplete="0" nowinstats="0" location="">')
        out.append(f'    <item name={quoteattr(NAMES[p.ruleset][0])} objecttype="thing" objectid="0"/>')
        out.append("    <players>")
        for seat, name in enumerate(p.players):
            score = "" if p.scores is None else str(p.scores[seat])
            out.append(f'      <player username="" userid="0" name={quoteattr(name)} '
                       f'startposition="{seat + 1}" color="" score={quoteattr(score)} new="0" rating="0" '
                       f'win="{int(seat in p.winners)}"/>')
        out.append("    </players>")
        out.append("  </play>")
    out.append("</plays>")
    return "\n".join(out) + "\n"
