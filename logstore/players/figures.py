"""Each player's figures: games and wins per ruleset, by seat and by player count, head to
head, streaks, and what each game counts of its own.

Which games count: the finished, legal games of the store (what-if branches left out, and
bots unless asked for). A win is a seat among the game's winners: a shared win (a tie in
Bunnies, the players who share the last carrots in KinderBunnies) is a win for each of
them, as the rules have it. A rate comes with its 95% Wilson interval and its n.

Head to head, for two players in the same finished game: one finished ahead of the other
when one won and the other did not; where both won or both lost, the higher score is
ahead where the game keeps score, else they finished level.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import duckdb
import pyarrow as pa

from engine.registry import get_ruleset
from logstore.players.book import Book, Seat
from logstore.players.ratings import Rating, rate, results_of
from logstore.store.event_store import Store

Z = 1.96
"""The normal quantile of a 95% interval."""


@dataclass(slots=True)
class Rate:
    wins: int
    n: int

    @property
    def rate(self) -> float | None:
        return self.wins / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson score interval of the rate (None without games)."""
        if not self.n:
            return None
        p, n = self.wins / self.n, self.n
        centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
        half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_dict(self) -> dict[str, Any]:
        interval = self.interval
        return {"wins": self.wins, "games": self.n, "rate": self.rate,
                "low": None if interval is None else interval[0],
                "high": None if interval is None else interval[1]}

    def said(self) -> str:
        """``3 of 5 (60%, 23%-88%)``."""
        if not self.n:
            return "no games"
        low, high = self.interval or (0.0, 0.0)
        return f"{self.wins} of {self.n} ({self.wins / self.n:.0%}, {low:.0%}-{high:.0%})"


def finished_said(rate: Any) -> str:
    """``won 9 of the 26 finished (35%, 19%-54%)``: what a win rate stands on, said (a
    player's games count unfinished and illegal ones too, his rate only finished ones)."""
    if rate is None or not rate.n:
        return "no finished game"
    low, high = rate.interval or (0.0, 0.0)
    return f"won {rate.wins} of the {rate.n} finished ({rate.wins / rate.n:.0%}, 95% {low:.0%}-{high:.0%})"


@dataclass(slots=True)
class HeadToHead:
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass(slots=True)
class GameLine:
    game_id: str
    ruleset: str
    played: str
    seat: int
    n_players: int
    won: bool | None
    """None: the game is not finished, or not legal."""
    results_only: bool = False
    """A play logger's play (logstore.players.plays): no record, nothing to replay or judge."""


@dataclass(slots=True)
class Figures:
    player: str
    aliases: list[str]
    games: list[GameLine] = field(default_factory=list)
    overall: Rate = field(default_factory=lambda: Rate(0, 0))
    by_ruleset: dict[str, Rate] = field(default_factory=dict)
    by_seat: dict[str, dict[int, Rate]] = field(default_factory=dict)
    by_count: dict[str, dict[int, Rate]] = field(default_factory=dict)
    head_to_head: dict[str, HeadToHead] = field(default_factory=dict)
    best_streak: int = 0
    streak: int = 0
    """Wins in a row up to the last finished game (0 if it was lost)."""
    own: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Ruleset -> what that game counts of its own (carrots taken, wins as Werebunny...)."""

    @property
    def finished(self) -> int:
        return self.overall.n

    @property
    def last_played(self) -> str | None:
        return max((g.played for g in self.games), default=None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player, "aliases": self.aliases, "games": len(self.games),
            "finished": self.finished, "last_played": self.last_played,
            "overall": self.overall.to_dict(),
            "by_ruleset": {r: v.to_dict() for r, v in self.by_ruleset.items()},
            "by_seat": {r: {str(s): v.to_dict() for s, v in seats.items()}
                        for r, seats in self.by_seat.items()},
            "by_player_count": {r: {str(c): v.to_dict() for c, v in counts.items()}
                                for r, counts in self.by_count.items()},
            "head_to_head": {o: {"games": h.games, "ahead": h.ahead, "behind": h.behind, "level": h.level}
                             for o, h in self.head_to_head.items()},
            "best_streak": self.best_streak, "streak": self.streak, "own": self.own,
            "game_list": [{"game_id": g.game_id, "ruleset": g.ruleset, "played": g.played, "seat": g.seat,
                           "players": g.n_players, "won": g.won} for g in self.games],
        }


@dataclass(slots=True)
class League:
    """Everything the players' side of the statistics knows of one store."""

    book: Book
    figures: dict[str, Figures]
    ratings: dict[str, dict[str, Rating]]
    """Ruleset -> player -> rating."""
    finished: list[dict[str, Any]]
    """The finished, legal games rated, in the order played."""


ACCUSING = "trust-no-bunny"
"""The game whose players accuse others of being on the other side (its ``accused`` effect)."""


def league(store: Store, con: duckdb.DuckDBPyConnection | None = None, *, bots: bool = False) -> League:
    """Every player's figures and ratings. ``con``: a DuckDB connection with warren's tables
    (logstore.analytics.views.connect), for what each game counts of its own; without it
    those are left out."""
    from logstore.players import plays

    book = Book(store, bots=bots)
    rows = {r[0]: r for r in store.conn.execute(
        "SELECT game_id, ruleset, ok, over, winners, scores, players FROM games WHERE parent_game IS NULL")}
    played = plays.rows(store.conn)  # results-only: over, legal by the logger's word
    rows.update({r[0]: (r[0], r[1], 1, 1, r[4], r[5], r[3]) for r in played})
    plays_ids = {r[0] for r in played}
    seats_by_game: dict[str, list[Seat]] = defaultdict(list)
    for seat in book.seats:
        seats_by_game[seat.game_id].append(seat)
    from logstore.players.tables import sides_of

    finished_ids = [g for g, r in rows.items() if r[2] and r[3] and r[4] is not None and g in seats_by_game]
    sides = {**sides_of(store, [(g, rows[g][1]) for g in finished_ids if g not in plays_ids]),
             **plays.sides(store.conn)}
    figures: dict[str, Figures] = {}
    for p in book.players():
        figures[p.name] = Figures(p.name, p.aliases)
    finished: list[dict[str, Any]] = []
    for game_id, seats in sorted(seats_by_game.items(), key=lambda kv: kv[1][0].order):
        _, ruleset, ok, over, winners_json, scores_json, _ = rows[game_id]
        done = bool(ok) and bool(over) and winners_json is not None
        winners = set(json.loads(winners_json)) if done else set()
        scores = json.loads(scores_json) if scores_json else None
        n = len(seats)
        for s in seats:
            fig = figures[s.player]
            won = (s.seat in winners) if done else None
            fig.games.append(GameLine(game_id, ruleset, s.played, s.seat, n, won, game_id in plays_ids))
            if won is None:
                continue
            for rate_ in (fig.overall, fig.by_ruleset.setdefault(ruleset, Rate(0, 0)),
                          fig.by_seat.setdefault(ruleset, {}).setdefault(s.seat, Rate(0, 0)),
                          fig.by_count.setdefault(ruleset, {}).setdefault(n, Rate(0, 0))):
                rate_.n += 1
                rate_.wins += won
            fig.streak = fig.streak + 1 if won else 0
            fig.best_streak = max(fig.best_streak, fig.streak)
        if not done:
            continue
        for a in seats:
            for b in seats:
                if a.player == b.player:
                    continue
                h = figures[a.player].head_to_head.setdefault(b.player, HeadToHead())
                h.games += 1
                order = _ahead(a.seat in winners, b.seat in winners, scores, a.seat, b.seat)
                if order > 0:
                    h.ahead += 1
                elif order < 0:
                    h.behind += 1
                else:
                    h.level += 1
        finished.append({"game_id": game_id, "ruleset": ruleset, "order": seats[0].order,
                         "played": seats[0].played, "players": [s.player for s in seats],
                         "winners": sorted(winners), "sides": sides.get(game_id)})
    ratings: dict[str, dict[str, Rating]] = {}
    for ruleset in sorted({g["ruleset"] for g in finished}):
        in_sides = get_ruleset(ruleset).capabilities.sides is not None
        games = [g for g in finished if g["ruleset"] == ruleset and (not in_sides or g["sides"])]
        ratings[ruleset] = rate(results_of(games))
    _side_figures(book, figures, sides)
    if con is not None:
        _own_figures(con, book, figures, sides)
    return League(book, figures, ratings, finished)


def _ahead(a_won: bool, b_won: bool, scores: list[int] | None, a: int, b: int) -> int:
    if a_won != b_won:
        return 1 if a_won else -1
    if scores is not None and scores[a] != scores[b]:
        return 1 if scores[a] > scores[b] else -1
    return 0


COUNTED: dict[str, list[tuple[str, str, str]]] = {
    # ruleset -> (what it counts, effect kind, where the seat is in the effect's data)
    "bunnies": [("bunnies made", "bunny_scored", "seat")],
    "killer-bunnies-quest": [("carrots taken", "carrot_taken", "seat"),
                             ("bunnies lost", "bunny_died", "owner")],
    "kinderbunnies": [("carrots taken", "carrot_taken", "seat"), ("bunnies lost", "bunny_lost", "seat")],
    "killer-bunnies-odyssey": [("bunnies lost", "killed", "seat"), ("bunnies lost", "starved", "seat")],
}
"""What each game counts of its own, from the effects its rules give."""

PLAYED_CARDS = ("killer-bunnies-quest", "kinderbunnies", "killer-bunnies-odyssey")


def _own_figures(con: duckdb.DuckDBPyConnection, book: Book, figures: dict[str, Figures],
                 sides: dict[str, list[str]]) -> None:
    seats = pa.table({
        "game_id": [s.game_id for s in book.seats], "seat": [s.seat for s in book.seats],
        "player": [s.player for s in book.seats], "ruleset": [s.ruleset for s in book.seats],
    })
    con.register("_player_seats", seats)
    try:
        for ruleset, counted in COUNTED.items():
            for label, kind, key in counted:
                rows = con.execute(
                    "SELECT p.player, count(*) FROM effects e JOIN _player_seats p ON p.game_id = e.game_id "
                    "AND p.ruleset = e.ruleset AND p.seat = CAST(json_extract(e.data, '$.' || ?) AS BIGINT) "
                    "WHERE e.ruleset = ? AND e.kind = ? GROUP BY p.player", [key, ruleset, kind]).fetchall()
                for player, n in rows:
                    own = figures[player].own.setdefault(ruleset, {})
                    own[label] = own.get(label, 0) + int(n)
        for ruleset in PLAYED_CARDS:
            rows = con.execute(
                "SELECT p.player, i.value, count(*) AS n FROM seat_items i JOIN _player_seats p "
                "ON p.game_id = i.game_id AND p.ruleset = i.ruleset AND p.seat = i.seat "
                "WHERE i.ruleset = ? AND i.type = 'play' AND i.field = 'card' AND i.value <> '?' "
                "GROUP BY ALL ORDER BY p.player, n DESC, i.value", [ruleset]).fetchall()
            played: dict[str, Counter[str]] = defaultdict(Counter)
            for player, value, n in rows:
                played[player][str(value)] += int(n)
            rs = get_ruleset(ruleset)
            for player, counts in played.items():
                figures[player].own.setdefault(ruleset, {})["cards played most"] = [
                    [_card_name(rs, value), n] for value, n in counts.most_common(3)]
        _accusations(con, book, figures, sides)
    finally:
        con.unregister("_player_seats")


def _card_name(rs: Any, value: str) -> str:
    card: Any = int(value) if value.isdigit() else value
    said = rs.describe_fact("card", card, [])
    return str(said).split(": ", 1)[-1]


def _side_figures(book: Book, figures: dict[str, Figures], sides: dict[str, list[str]]) -> None:
    """A game played in sides (Trust No Bunny): games and wins on each side."""
    won = {(g.game_id, g.seat): g.won for f in figures.values() for g in f.games}
    for s in book.seats:
        if s.game_id not in sides:
            continue
        side = sides[s.game_id][s.seat]
        own = figures[s.player].own.setdefault(s.ruleset, {})
        own[f"games as {side}"] = own.get(f"games as {side}", 0) + 1
        own[f"wins as {side}"] = own.get(f"wins as {side}", 0) + int(bool(won.get((s.game_id, s.seat))))


def _accusations(con: duckdb.DuckDBPyConnection, book: Book, figures: dict[str, Figures],
                 sides: dict[str, list[str]]) -> None:
    """Trust No Bunny: accusations, and the right ones (everybody accused was a Werebunny)."""
    accusations = con.execute(
        "SELECT e.game_id, e.data FROM effects e WHERE e.ruleset = ? AND e.kind = 'accused'", [ACCUSING]
    ).fetchall()
    by_seat = {(s.game_id, s.seat): s.player for s in book.seats}
    for game_id, data in accusations:
        if game_id not in sides:
            continue
        said = json.loads(data)
        player = by_seat.get((game_id, said.get("seat")))
        if player is None:
            continue
        own = figures[player].own.setdefault(ACCUSING, {})
        own["accusations"] = own.get("accusations", 0) + 1
        right = all(sides[game_id][s] == "Werebunny" for s in said.get("suspects", []))
        own["right accusations"] = own.get("right accusations", 0) + int(right)
