"""The people's games written as the play loggers keep them: a BG Stats export and
BoardGameGeek play XML (the mapping, field by field: docs/players.md). Reading a logger's
export back is logstore.players.plays'."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any
from xml.sax.saxutils import quoteattr

from logstore.players.plays import NAMES, NAMESPACE, Played, rows
from logstore.store.event_store import Store


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
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{name}"))


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
