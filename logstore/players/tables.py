"""The players as projection tables (docs/analytics.md): ``player_seats``, every seat of
every game linked to its player, and ``players``, one row per player and ruleset with games,
wins and rating. Both are written whole, per ruleset, at every refresh of the projections
(a merge or a rename changes old games' links), so DuckDB, ``warren query`` and Spark read
them as they read the others."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from logstore.analytics.schema import PLAYER_SEATS_SCHEMA, PLAYERS_SCHEMA
from logstore.players.book import Book
from logstore.players.ratings import Rating, rate, results_of
from logstore.store.event_store import Store


def player_tables(store: Store) -> dict[tuple[str, str], pa.Table]:
    """``(table, ruleset) -> rows``. Bots' seats are linked too, and rated (``bot`` true:
    a simulated game never seats a person, so the two are never rated against each other
    and a query keeps them apart by that column). The sides of a game played in sides are
    read by replaying it, so only the people's such games are rated."""
    from logstore.players import plays

    everyone = Book(store, bots=True)
    finished = {r[0]: r for r in store.conn.execute(
        "SELECT game_id, ruleset, winners FROM games WHERE ok AND over AND winners IS NOT NULL "
        "AND parent_game IS NULL")}
    played = plays.rows(store.conn)  # results-only plays: finished by the logger's word
    finished.update({r[0]: (r[0], r[1], r[4]) for r in played})
    winners = {game_id: set(json.loads(row[2])) for game_id, row in finished.items()}
    plays_ids = {r[0] for r in played}
    people_games = {(s.game_id, s.ruleset) for s in everyone.seats
                    if not s.bot and s.game_id in finished and s.game_id not in plays_ids}
    sides = {**sides_of(store, sorted(people_games)), **plays.sides(store.conn)}
    aliases = {p.name: p.aliases for p in everyone.players()}
    out: dict[tuple[str, str], pa.Table] = {}
    rulesets = sorted({s.ruleset for s in everyone.seats})
    for ruleset in rulesets:
        seats = [s for s in everyone.seats if s.ruleset == ruleset]
        out[("player_seats", ruleset)] = pa.table({
            "game_id": [s.game_id for s in seats], "seat": [s.seat for s in seats],
            "name": [s.name for s in seats], "player": [s.player for s in seats],
            "bot": [s.bot for s in seats], "played": [s.played for s in seats],
            "play_order": [s.order for s in seats],
        }, schema=PLAYER_SEATS_SCHEMA)
        ratings = _ratings(everyone, finished, ruleset, sides)
        totals: dict[str, list[int]] = {}
        bot_of: dict[str, bool] = {}
        for s in seats:
            games_wins = totals.setdefault(s.player, [0, 0])
            bot_of[s.player] = s.bot
            if s.game_id in winners:
                games_wins[0] += 1
                games_wins[1] += s.seat in winners[s.game_id]
        names = sorted(totals)
        rated = [ratings.get(n) for n in names]
        out[("players", ruleset)] = pa.table({
            "player": names, "aliases": [json.dumps(aliases.get(n, [])) for n in names],
            "bot": [bot_of[n] for n in names], "games": [totals[n][0] for n in names],
            "wins": [totals[n][1] for n in names],
            "mu": [None if r is None else r.mu for r in rated],
            "sigma": [None if r is None else r.sigma for r in rated],
            "rating": [None if r is None else r.ordinal for r in rated],
        }, schema=PLAYERS_SCHEMA)
    return out


def _ratings(book: Book, finished: dict[str, tuple[str, str, str]], ruleset: str,
             sides: dict[str, list[str]]) -> dict[str, Rating]:
    from engine.registry import get_ruleset

    in_sides = get_ruleset(ruleset).capabilities.sides is not None
    games: dict[str, dict[str, Any]] = {}
    for s in book.seats:
        if s.ruleset != ruleset or s.game_id not in finished:
            continue
        if in_sides and s.game_id not in sides:
            continue  # a game of sides whose sides nobody saw rates nobody
        g = games.setdefault(s.game_id, {"game_id": s.game_id, "order": s.order, "played": s.played,
                                         "players": [], "winners": finished[s.game_id][2],
                                         "sides": sides.get(s.game_id)})
        g["players"].append(s.player)
    return rate(results_of(sorted(games.values(), key=lambda g: int(g["order"]))))


def sides_of(store: Store, games: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """The side of every seat of each game ``(game_id, ruleset)`` whose ruleset is played in
    sides (``Capabilities.sides``: Trust No Bunny's Werebunny and Townsfolk), read from the
    game's last position; a game whose sides nobody saw is left out."""
    from engine.registry import get_ruleset
    from engine.replay import Replay

    out: dict[str, list[str]] = {}
    for game_id, slug in games:
        rs = get_ruleset(slug)
        if rs.capabilities.sides is None:
            continue
        record = store.record(game_id)
        found = rs.capabilities.sides(Replay(rs, record.header, record.events).final)
        if found is not None:
            out[game_id] = found
    return out
