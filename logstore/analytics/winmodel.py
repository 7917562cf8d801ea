"""A win-chance model per ruleset and player count, fitted on the store's finished games.

The analysis of a game (engine.analysis) plays a position out hundreds of times; this model
answers at once, from the key figures the projections already hold at the end of every turn
(`turn_seats`, `turns`: bunnies, carrots, Dolla, Civ points, hand sizes...): a logistic
regression (scikit-learn's, L2-penalised, on standardised features) of "this seat wins" on

- the seat's own figures, and for each of them the gap to the best of the other seats;
- the table's figures (cards left to draw, the Wall, the market, the round where a ruleset
  counts it);
- whether the seat moves next (the seat whose turn comes next: who goes first is worth
  something in most games, and a position at the set-up has nothing else to tell it);

each seat's figure then divided by the sum over the seats, so a position's chances add up
to 1. A logistic regression rather than gradient boosting: a few coefficients per feature,
stored as plain numbers (no pickle), read in any language, and calibrated by construction
on its own log-loss (the held-out check below says how well).

Fitting holds out one game in five (by a hash of its id) and prints, on those games, the
Brier score beside the base rate's (every seat at 1 / players) and the reliability by
decile, and, on a sample of held-out positions, the mean absolute difference in points from
the rollout analysis (engine.analysis.chances, the referee's knowledge).

The fitted model is kept in the store's ``win_models`` table as JSON: its format version,
the corpus it was fitted on (games, positions, the store's change count), the feature names,
the scaler's means and scales, the coefficients and the intercept, and the held-out figures.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.registry import get_ruleset
from engine.rules import WarrenError

if TYPE_CHECKING:
    import duckdb
    import numpy as np

MODEL_FORMAT = 2
"""Version of the stored model's JSON (``format`` in it)."""
MIN_GAMES = 60
"""Finished games a fit needs (of the ruleset and player count): fewer say how many more."""
MAX_POSITIONS = 200_000
"""Positions (turn ends x seats) a fit reads at most, drawn at random from the corpus."""
HELD_OUT = 5
"""One game in this many (by a hash of its id) is held out of the fit to check it."""
DECILES = 10

SCHEMA = """
CREATE TABLE IF NOT EXISTS win_models (
    ruleset TEXT NOT NULL,
    players INTEGER NOT NULL,
    model TEXT NOT NULL,              -- JSON: logstore.analytics.winmodel.WinModel
    fitted TEXT NOT NULL,
    PRIMARY KEY (ruleset, players)
) WITHOUT ROWID;
"""


class ModelError(WarrenError):
    """A model that cannot be fitted or used (too few games, no key figures)."""


@dataclass
class WinModel:
    """A fitted model: see the module docstring."""

    ruleset: str
    players: int
    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    corpus: dict[str, Any] = field(default_factory=dict)
    check: dict[str, Any] = field(default_factory=dict)
    format: int = MODEL_FORMAT

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> WinModel:
        data = json.loads(text)
        if data.get("format") != MODEL_FORMAT:
            raise ModelError(f"a win model of format {data.get('format')!r}: this warren reads format "
                             f"{MODEL_FORMAT}; fit it again (warren model fit)")
        return cls(**data)

    def chances(self, rows: np.ndarray) -> np.ndarray:
        """Each seat's chance (rows: one per seat of one position, :attr:`features` wide),
        in 0..1, adding up to 1 over the seats."""
        import numpy as np

        z = (rows - np.asarray(self.mean)) / np.asarray(self.scale)
        p = 1.0 / (1.0 + np.exp(-(z @ np.asarray(self.coef) + self.intercept)))
        total = p.sum()
        return p / total if total > 0 else np.full(len(p), 1.0 / len(p))


@dataclass
class Positions:
    """The positions a fit reads: keys, features and outcomes, one row per seat."""

    games: list[str]
    turns: list[int]
    seqs: list[int]
    """The seq at the end of each row's turn (where the projections read its figures)."""
    seats: list[int]
    features: list[str]
    x: np.ndarray
    won: np.ndarray
    """The seat's share of the win: 1 / winners for a winner, else 0."""


MOVES_NEXT = "moves_next"
"""The feature that says the seat's turn comes next (1) or not (0)."""


def feature_names(ruleset: str) -> tuple[list[str], list[str], list[str]]:
    """(seat figures, table figures, features) of a ruleset's model; refuses a ruleset that
    projects no key figures."""
    rs = get_ruleset(ruleset)
    seat = [f for f in rs.figure_names if f in rs.seat_figures]
    table = [f for f in rs.figure_names if f not in rs.seat_figures]
    if not seat:
        raise ModelError(f"{rs.title} projects no key figure per seat (Ruleset.figure_names, seat_figures): "
                         "warren has nothing to fit a win model on")
    features = [*seat, *(f"gap_{f}" for f in seat), *(f"table_{f}" for f in table), MOVES_NEXT]
    return seat, table, features


def features_of(ruleset: str, state: Any, seats: int) -> np.ndarray:
    """The model's features of every seat at a position, worked out from the state itself
    (what :func:`positions` reads from the projections, for a game that is not in them: the
    Replay page's first look). One row per seat."""
    import numpy as np

    rs = get_ruleset(ruleset)
    seat, table, features = feature_names(ruleset)
    figures = rs.key_figures(state)
    own = np.array([[_number(figures[f][s]) for f in seat] for s in range(seats)], dtype=float)
    gaps = np.zeros_like(own)
    for s in range(seats):
        others = np.delete(own, s, axis=0)
        gaps[s] = own[s] - (others.max(axis=0) if len(others) else 0.0)
    shared = np.array([_number(figures[f]) for f in table], dtype=float)
    # At the start of a turn the state's active seat is the one about to move.
    nxt = np.array([[1.0 if state.active == s else 0.0] for s in range(seats)])
    return np.hstack([own, gaps, np.tile(shared, (seats, 1)), nxt]).reshape(seats, len(features))


def _number(value: Any) -> float:
    """A figure as the projections store it for the model: a bool as 0 or 1, unknown as 0."""
    return 0.0 if value is None else float(value)


def _table_column(name: str) -> str:
    # The turns table prefixes a figure named like one of its own columns (docs/analytics.md).
    return f"figure_{name}" if name in ("round", "turn", "active", "events", "game_id") else name


def positions(con: duckdb.DuckDBPyConnection, ruleset: str, players: int, *,
              limit: int = MAX_POSITIONS, seed: int = 7) -> Positions:
    """Every seat at the end of (a random draw of, at most ``limit`` / players) turns of the
    finished, legal games of ``players`` seats."""
    import numpy as np

    seat, table, features = feature_names(ruleset)
    own = [f"coalesce(CAST(ts.{f} AS DOUBLE), 0)" for f in seat]
    gaps = [f"coalesce(CAST(ts.{f} AS DOUBLE), 0) - coalesce(max(CAST(ts.{f} AS DOUBLE)) OVER (PARTITION BY "
            "ts.game_id, ts.turn ORDER BY ts.seat ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING "
            "EXCLUDE CURRENT ROW), 0)" for f in seat]
    tabled = [f"coalesce(CAST(p.{_table_column(f)} AS DOUBLE), 0)" for f in table]
    nxt = ["CASE WHEN ts.seat = p.next_active THEN 1.0 ELSE 0.0 END"]
    columns = ", ".join(f"{expr} AS x{k}" for k, expr in enumerate([*own, *gaps, *tabled, *nxt]))
    turns = max(1, limit // players)
    sql = f"""
        WITH g AS (SELECT game_id, n_winners FROM games WHERE over AND ok AND n_players = {players}
                   AND n_winners > 0),
        p AS (SELECT * FROM (SELECT t.*, lead(t.active) OVER (PARTITION BY t.game_id ORDER BY t.turn)
                                        AS next_active
                             FROM turns t JOIN g USING (game_id)) WHERE turn > 0
              USING SAMPLE reservoir({turns} ROWS) REPEATABLE ({seed}))
        SELECT ts.game_id, ts.turn, ts.seat, p.last_seq,
               CASE WHEN sr.won THEN 1.0 / g.n_winners ELSE 0.0 END AS share, {columns}
        FROM turn_seats ts JOIN p USING (game_id, turn) JOIN g USING (game_id)
             JOIN seat_results sr ON sr.game_id = ts.game_id AND sr.seat = ts.seat
        ORDER BY ts.game_id, ts.turn, ts.seat
    """
    # As arrays, not rows: a fit reads up to MAX_POSITIONS of them.
    got = con.execute(sql).fetchnumpy()
    n = len(got["game_id"])
    x = np.column_stack([np.asarray(got[f"x{k}"], dtype=float) for k in range(len(features))]) \
        if n else np.zeros((0, len(features)))
    def ints(name: str) -> list[int]:
        return np.asarray(got[name], dtype=int).tolist()  # type: ignore[no-any-return]

    return Positions([str(g) for g in got["game_id"]], ints("turn"), ints("last_seq"), ints("seat"),
                     features, x, np.asarray(got["share"], dtype=float))


def _groups(p: Positions) -> list[slice]:
    """The rows of each position (every seat of one game's turn), in order."""
    out, start = [], 0
    for i in range(1, len(p.games) + 1):
        if i == len(p.games) or (p.games[i], p.turns[i]) != (p.games[start], p.turns[start]):
            out.append(slice(start, i))
            start = i
    return out


def held_out(game_id: str) -> bool:
    """One game in :data:`HELD_OUT` is kept out of the fit (the same ones in every store)."""
    import zlib

    return zlib.crc32(game_id.encode()) % HELD_OUT == 0


def reliability(predicted: np.ndarray, observed: np.ndarray) -> list[dict[str, Any]]:
    """Predicted chance against the observed share of wins, by decile of the prediction."""
    rows = []
    for d in range(DECILES):
        lo, hi = d / DECILES, (d + 1) / DECILES
        inside = (predicted >= lo) & ((predicted < hi) if d < DECILES - 1 else (predicted <= hi))
        n = int(inside.sum())
        if n:
            rows.append({"decile": f"{lo:.1f}-{hi:.1f}",
                         "predicted": round(float(predicted[inside].mean()), 4),
                         "observed": round(float(observed[inside].mean()), 4), "n": n})
    return rows


def fit(con: duckdb.DuckDBPyConnection, ruleset: str, players: int, *, limit: int = MAX_POSITIONS,
        corpus: dict[str, Any] | None = None) -> WinModel:
    """Fit the model of ``ruleset`` at ``players`` seats on the store's finished games (see
    the module docstring); refuses too few games, saying how many it needs."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    found = positions(con, ruleset, players, limit=limit)
    games = sorted(set(found.games))
    train_games = [g for g in games if not held_out(g)]
    test_games = [g for g in games if held_out(g)]
    title = get_ruleset(ruleset).title
    if len(games) < MIN_GAMES or not test_games or len(train_games) < MIN_GAMES - MIN_GAMES // HELD_OUT:
        raise ModelError(f"a win model of {title} at {players} players needs {MIN_GAMES} finished, legal "
                         "games "
                         f"of the store; it has {len(games)}")
    train = np.array([not held_out(g) for g in found.games])
    x, y = found.x, found.won
    mean = x[train].mean(axis=0)
    scale = x[train].std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=1.0, max_iter=2000)
    model.fit((x[train] - mean) / scale, (y[train] > 0).astype(int), sample_weight=np.where(y[train] > 0,
                                                                                           y[train], 1.0))
    fitted = WinModel(ruleset, players, found.features, mean.tolist(), scale.tolist(),
                      model.coef_[0].tolist(), float(model.intercept_[0]),
                      {**(corpus or {}), "games": len(games), "positions": len(found.games) // players,
                       "held_out_games": len(test_games)})
    predicted, observed = predictions(fitted, found, keep=lambda g: held_out(g))
    fitted.check = {"brier": round(float(((predicted - observed) ** 2).mean()), 4),
                    "base_brier": round(float(((1.0 / players - observed) ** 2).mean()), 4),
                    "reliability": reliability(predicted, observed), "positions": len(predicted) // players}
    return fitted


def predictions(model: WinModel, found: Positions, keep: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The model's chance of every seat at every position of ``found`` (those of the games
    ``keep`` accepts), with its observed share of the win."""
    import numpy as np

    n = model.players
    if not len(found.games):
        return np.zeros(0), np.zeros(0)
    # Every position is its seats' rows in a row (positions() orders them so): one matrix.
    z = (found.x - np.asarray(model.mean)) / np.asarray(model.scale)
    p = (1.0 / (1.0 + np.exp(-(z @ np.asarray(model.coef) + model.intercept)))).reshape(-1, n)
    total = p.sum(axis=1, keepdims=True)
    chances = np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / n).reshape(-1)
    if keep is None:
        return chances, found.won
    verdict = {g: bool(keep(g)) for g in set(found.games)}
    kept = np.repeat(np.array([verdict[g] for g in found.games[::n]], dtype=bool), n)
    return chances[kept], found.won[kept]


def install(conn: sqlite3.Connection) -> None:
    conn.executescript(SCHEMA)


def keep(conn: sqlite3.Connection, model: WinModel) -> None:
    """Keep ``model`` in place of the ruleset's older one at that player count (one transaction)."""
    install(conn)
    with conn:
        conn.execute("DELETE FROM win_models WHERE ruleset = ? AND players = ?",
                     (model.ruleset, model.players))
        conn.execute("INSERT INTO win_models VALUES (?, ?, ?, ?)",
                     (model.ruleset, model.players, model.to_json(),
                      datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")))


def kept(conn: sqlite3.Connection, ruleset: str | None = None) -> list[WinModel]:
    install(conn)
    rows = conn.execute("SELECT model FROM win_models WHERE ? IS NULL OR ruleset = ? "
                        "ORDER BY ruleset, players", (ruleset, ruleset)).fetchall()
    return [WinModel.from_json(r[0]) for r in rows]


def against_rollouts(model: WinModel, found: Positions, records: Any, *, sample: int = 20,
                     rollouts: int = 40, seed: int = 3) -> dict[str, Any]:
    """The model beside the rollout analysis (the referee's knowledge: the position as it
    was) on ``sample`` held-out positions: the mean absolute difference in points.
    ``records(game_id)`` gives a game's record."""
    import random

    from engine.analysis.chances import chances
    from engine.analysis.worlds import knowledge

    groups = [g for g in _groups(found) if held_out(found.games[g.start])]
    picked = random.Random(seed).sample(groups, min(sample, len(groups)))
    gaps: list[float] = []
    for rows in picked:
        game_id, seq = found.games[rows.start], found.seqs[rows.start]
        record = records(game_id)
        rs = get_ruleset(record.header.ruleset).for_game(record.header)
        known = knowledge(rs, record.header, record.events, "referee").states([seq])[seq]
        rolled = chances(rs, known, model.players, worlds_n=1, rollouts=rollouts, seed=seed, key=seq)
        said = model.chances(found.x[rows])
        gaps.extend(abs(100 * float(a) - b) for a, b in zip(said, rolled.points, strict=True))
    return {"positions": len(picked), "rollouts": rollouts,
            "mean_abs_points": round(sum(gaps) / len(gaps), 2) if gaps else None}



def first_look(model: WinModel, record: Any, perspective: Any) -> list[dict[str, Any]]:
    """The model's chances at the start of every turn of a game, from the figures of the
    position as ``perspective`` knows it (engine.analysis.worlds): ``{"seq", "turn",
    "chances"}`` (points per seat) for each. What the Replay page draws at once, before (or
    instead of) the rollout analysis."""
    from engine.analysis.timeline import turn_starts
    from engine.analysis.worlds import knowledge

    rs = get_ruleset(record.header.ruleset).for_game(record.header)
    known = knowledge(rs, record.header, record.events, perspective)
    seats = len(record.header.players)
    if seats != model.players:
        raise ModelError(f"the kept model of {rs.title} is for {model.players} players, not {seats}")
    starts = turn_starts(known)
    states = known.states(starts)
    out = []
    for seq in starts:
        chances = model.chances(features_of(rs.slug, states[seq], seats))
        out.append({"seq": seq, "turn": int(states[seq].turn),
                    "chances": [round(100 * float(c), 2) for c in chances]})
    return out


def read_kept(db: Path) -> list[WinModel]:
    """The models a store keeps, read without writing (a read-only store, a store that never
    fitted one: none). Models of another format are passed over."""
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return []
    try:
        rows = conn.execute("SELECT model FROM win_models ORDER BY ruleset, players").fetchall()
    except sqlite3.Error:
        return []
    finally:
        conn.close()
    out = []
    for (text,) in rows:
        try:
            out.append(WinModel.from_json(text))
        except (ModelError, TypeError, ValueError):
            continue
    return out


def model_for(conn: sqlite3.Connection, ruleset: str, players: int) -> WinModel | None:
    """The kept model of ``ruleset`` at ``players`` seats, if any."""
    install(conn)
    row = conn.execute("SELECT model FROM win_models WHERE ruleset = ? AND players = ?",
                       (ruleset, players)).fetchone()
    return None if row is None else WinModel.from_json(row[0])
