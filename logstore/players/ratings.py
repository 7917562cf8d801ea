"""Ratings: one per player and ruleset, updated game by game in the order played.

The model is openskill's Plackett-Luce (Weng and Lin, "A Bayesian Approximation Method for
Online Ranking", JMLR 12, 2011), which rates games of more than two players, teams of any
size and ties. Its parameters are openskill's defaults: a new player starts at mu = 25 with
sigma = 25/3, beta = 25/6, and tau = 25/300 adds a little uncertainty before every game so
that ratings can still move after many. A rating is shown as mu with its uncertainty
sigma; players are ordered by ``mu - 3 sigma``, a value they are very likely above.

What a game tells the model: its finished, legal outcome. Each seat is a team of one, the
winners ranked first (several winners share the first rank: a tie or a shared win) and the
others second, as the rules end a game of warren's five (none of them ranks the losers).
Trust No Bunny is played in two sides of different sizes (``Capabilities.sides``): each
side is a team, its winners first. A side's winners and losers are two teams, since a
Townsfolk whose Quirk is not met loses though the town survives (TNB-END-3); a game whose
roles nobody saw rates nobody. Unfinished or illegal games tell nothing; bots are left out unless
asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
MODEL_NAME = "openskill Plackett-Luce (Weng-Lin), mu 25, sigma 25/3, beta 25/6, tau 25/300"
PROVISIONAL = 3
"""A rating on fewer rated games than this is provisional (listed after the others), as a
chess federation marks a new player's first ratings (docs/players.md)."""


def model() -> PlackettLuce:
    """The rating model with the parameters the docs state."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(slots=True)
class Result:
    """One finished game as the ratings read it: the players of each team, in seat order
    within a team, and the rank of each team (1 for the winners)."""

    game_id: str
    order: int
    played: str
    teams: list[list[str]]
    ranks: list[int]


@dataclass(slots=True)
class Rating:
    player: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    history: list[tuple[int, str, str, float, float]] = field(default_factory=list)
    """``(order, played, game_id, mu, sigma)`` after each game rated."""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(results: Iterable[Result]) -> dict[str, Rating]:
    """Every player's rating after the games, taken in the order given."""
    m = model()
    ratings: dict[str, Rating] = {}
    for result in results:
        teams = [[m.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) if p in ratings else m.rating()
                  for p in team] for team in result.teams]
        rated = m.rate(teams, ranks=[float(r) for r in result.ranks])
        for team, new in zip(result.teams, rated, strict=True):
            for player, after in zip(team, new, strict=True):
                r = ratings.setdefault(player, Rating(player))
                r.mu, r.sigma = after.mu, after.sigma
                r.games += 1
                r.history.append((result.order, result.played, result.game_id, after.mu, after.sigma))
    return ratings


def predict(ratings: dict[str, Rating], players: list[str]) -> dict[str, float]:
    """Each player's chance to win a new game against the others, one team each (a player
    never rated starts as a new player)."""
    m = model()
    teams = [[m.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) if p in ratings else m.rating()]
             for p in players]
    chances = m.predict_win(teams)
    return dict(zip(players, chances, strict=True))


def results_of(rows: Iterable[dict[str, Any]]) -> list[Result]:
    """Ratings' results from finished games: each row a game with ``game_id``, ``order``,
    ``played``, ``players`` (the seat's players), ``winners`` (seats) and, for a team game,
    ``sides`` (the side of each seat; the winners' side ranks first)."""
    out: list[Result] = []
    for row in rows:
        players: list[str] = row["players"]
        winners = set(json.loads(row["winners"]) if isinstance(row["winners"], str) else row["winners"])
        sides: list[str] | None = row.get("sides")
        if sides is not None:
            # A side's winners are one team and its losers another (a Townsfolk whose Quirk
            # failed loses though the town survives): two teams in most games.
            groups = sorted({(side, seat in winners) for seat, side in enumerate(sides)})
            teams = [[p for seat, p in enumerate(players) if (sides[seat], seat in winners) == g]
                     for g in groups]
            ranks = [1 if won else 2 for _, won in groups]
        else:
            teams = [[p] for p in players]
            ranks = [1 if seat in winners else 2 for seat in range(len(players))]
        out.append(Result(row["game_id"], row["order"], row["played"], teams, ranks))
    return out
