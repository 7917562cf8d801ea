"""Win chance added (WPA): what each turn, each event and each card did to its player's
chance, read from the kept win-chance models (logstore.analytics.winmodel) over the
projections, for a whole store at once.

Three tables, worked out by SQL from the projection tables and each kept model's numbers
(so they follow the projections as they are refreshed, and run unchanged on DuckDB and on
Spark SQL: the same text, a test compares the rows):

``turn_chances``
    every seat's chance at the end of every turn (turn 0 is the set-up) of the finished,
    legal games of a modelled ruleset and player count: the model's chance, except at the
    last turn, where the game is decided (a win 1 / winners, else 0); and its change from
    the turn before.
``event_wpa``
    every event with an actor of those games, with its actor's change of chance across the
    event's turn. The projections keep the key figures at the end of each turn, so the turn
    is the grain: the events one seat plays in one turn share its change.
``player_wpa``
    per player, ruleset and player count: the changes across the turns the player acted in,
    summed.

From them (:func:`impacts`): per kind of play, the mean change across the turns where a
seat played that kind of event; per card (every card a seat's events play, and the Items
and Quirks Trust No Bunny's name), the mean change across the turns where it was played
*beyond a typical card's* of that kind of play (the median over its cards: a card like most
adds 0 however much playing any card helps), with a 95% interval over the plays and their
number, beside the win rate of the games where its player played it (the plain figure,
which credits a card with the strength of the hands that hold it: docs/analytics.md says
so). Bunnies' cards are read by rank and multiple (a pair of sevens), the way the game plays
them. Per seat: the mean chance at the first position (after the set-up, before anybody
acts) beside the seat's win rate; per player, the chance added across his own turns a
game; for Trust No Bunny, per side.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from engine.intervals import wilson
from engine.registry import get_ruleset
from logstore.analytics.projection_rows import PLAYED_FIELDS, _item_fields
from logstore.analytics.winmodel import WinModel, _table_column, feature_names

if TYPE_CHECKING:
    import duckdb

MIN_PLAYS = 10
"""Fewer plays than this: the figure is shown as too few to tell."""
Z95 = 1.96


def _number(x: float) -> str:
    return repr(float(x))


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def turn_chances_sql(model: WinModel) -> str:
    """The ``turn_chances`` rows of one model's ruleset and player count (see the module
    docstring), in SQL that DuckDB and Spark read alike.

    A model is of one player count, so each turn is worked out as one row with every seat's
    figures side by side (``f_<figure>_<seat>``): the best of the others is a ``greatest``
    within the row, the chances are shared out within it, and the change from the turn
    before is one window over turns for every seat at once; the rows are cut per seat at the
    end (why: docs/decisions/2026-12-05-turn-chances-a-turn-a-row.md). The hints ask Spark
    to send the small relations (the finished games, a row a game, the seats) to every task
    rather than shuffle the big tables to meet them; DuckDB reads them as comments."""
    seat, table, features = feature_names(model.ruleset)
    if features != model.features:
        raise ValueError(f"the kept model of {model.ruleset} reads other figures than this warren projects: "
                         "fit it again (warren model fit)")
    n = model.players
    seats = range(n)
    wide = ", ".join(f"max(CASE WHEN ts.seat = {k} THEN coalesce(CAST(ts.{f} AS DOUBLE), 0) END) AS f_{f}_{k}"
                     for f in seat for k in seats)
    shared = "".join(f", coalesce(CAST({_table_column(f)} AS DOUBLE), 0) AS t_{f}" for f in table)

    def best_other(f: str, k: int) -> str:
        others = [f"w.f_{f}_{j}" for j in seats if j != k]
        return others[0] if len(others) == 1 else f"greatest({', '.join(others)})"

    def logit(k: int) -> str:
        values = ([f"w.f_{f}_{k}" for f in seat] + [f"(w.f_{f}_{k} - {best_other(f, k)})" for f in seat]
                  + [f"t.t_{f}" for f in table]
                  + [f"CASE WHEN t.next_active = {k} THEN 1.0 ELSE 0.0 END"])
        terms = " + ".join(f"{_number(c)} * (({v}) - {_number(m)}) / {_number(sc)}"
                           for v, c, m, sc in zip(values, model.coef, model.mean, model.scale, strict=True))
        return f"1.0 / (1.0 + exp(-({_number(model.intercept)} + {terms}))) AS p_{k}"

    total = " + ".join(f"x.p_{k}" for k in seats)
    won = ", ".join(f"max(CASE WHEN seat = {k} AND won THEN 1.0 ELSE 0.0 END) AS won_{k}" for k in seats)
    chance = ", ".join(f"CASE WHEN x.turn = x.last_turn THEN r.won_{k} / r.n_winners "
                       f"ELSE x.p_{k} / ({total}) END AS c_{k}" for k in seats)
    window = "OVER (PARTITION BY game_id ORDER BY turn)"
    change = ", ".join(f"c_{k} - lag(c_{k}) {window} AS d_{k}" for k in seats)
    one = " UNION ALL ".join(f"SELECT {k} AS seat" for k in seats)
    rs = _text(model.ruleset)
    return f"""
        WITH g AS (
            SELECT game_id, n_winners FROM games
            WHERE ruleset = {rs} AND n_players = {n} AND over AND ok AND n_winners > 0),
        t AS (
            SELECT /*+ BROADCAST(g) */ turns.game_id, turns.turn{shared},
                   lead(active) OVER (PARTITION BY turns.game_id ORDER BY turns.turn) AS next_active,
                   max(turns.turn) OVER (PARTITION BY turns.game_id) AS last_turn
            FROM turns JOIN g ON g.game_id = turns.game_id WHERE turns.ruleset = {rs}),
        w AS (
            SELECT /*+ BROADCAST(g) */ ts.game_id, ts.turn, {wide}
            FROM turn_seats ts JOIN g ON g.game_id = ts.game_id
            WHERE ts.ruleset = {rs}
            GROUP BY ts.game_id, ts.turn),
        x AS (
            SELECT w.game_id, w.turn, t.last_turn, {", ".join(logit(k) for k in seats)}
            FROM w JOIN t ON t.game_id = w.game_id AND t.turn = w.turn),
        r AS (
            SELECT s.game_id, g.n_winners, {won}
            FROM seat_results s JOIN g ON g.game_id = s.game_id
            WHERE s.ruleset = {rs} GROUP BY s.game_id, g.n_winners),
        c AS (
            SELECT /*+ BROADCAST(r) */ x.game_id, x.turn, {chance}
            FROM x JOIN r ON r.game_id = x.game_id),
        d AS (
            SELECT game_id, turn, {", ".join(f"c_{k}" for k in seats)}, {change} FROM c)
        SELECT /*+ BROADCAST(k) */ {rs} AS ruleset, d.game_id, d.turn, CAST(k.seat AS INTEGER) AS seat,
               CASE k.seat {" ".join(f"WHEN {k} THEN d.c_{k}" for k in seats)} END AS chance,
               CASE k.seat {" ".join(f"WHEN {k} THEN d.d_{k}" for k in seats)} END AS change
        FROM d CROSS JOIN ({one}) AS k"""


def event_wpa_sql(model: WinModel, chances: str | None = None) -> str:
    """The ``event_wpa`` rows of one model (see the module docstring), for DuckDB and Spark;
    ``chances`` names a relation holding ``turn_chances`` already (else they are worked out)."""
    rs = _text(model.ruleset)
    source = f"({turn_chances_sql(model)})" if chances is None else \
        f"(SELECT * FROM {chances} WHERE ruleset = {rs})"
    return f"""
        SELECT {rs} AS ruleset, e.game_id, e.seq, e.turn, e.actor AS seat, e.type, c.change
        FROM events e
        JOIN {source} c ON c.game_id = e.game_id AND c.turn = e.turn AND c.seat = e.actor
        WHERE e.ruleset = {rs} AND e.actor IS NOT NULL AND e.seq > 0"""


def _union(parts: list[str], columns: str) -> str:
    if not parts:
        return f"SELECT {columns} WHERE false"
    return " UNION ALL ".join(f"SELECT * FROM ({p}) AS m{i}" for i, p in enumerate(parts))


def _nulls(columns: str) -> str:
    """No rows, with the table's columns (``name type`` pairs)."""
    return ", ".join(f"CAST(NULL AS {kind}) AS {name}"
                     for name, kind in (pair.split() for pair in columns.split(",")))


EMPTY_TURNS = _nulls("ruleset STRING, game_id STRING, turn INTEGER, seat INTEGER, chance DOUBLE, "
                     "change DOUBLE")
EMPTY_EVENTS = _nulls("ruleset STRING, game_id STRING, seq INTEGER, turn INTEGER, seat INTEGER, type STRING, "
                      "change DOUBLE")


def player_wpa_sql(events: str = "event_wpa") -> str:
    """The ``player_wpa`` rows: per player (after merges and renames), ruleset and player count,
    the change of chance across the turns the player acted in, summed (``events`` names the
    ``event_wpa`` relation: a turn a seat acted in is one of its events' turns)."""
    return f"""
        SELECT e.ruleset, ps.player, g.n_players, count(DISTINCT e.game_id) AS games, count(*) AS turns,
               sum(e.change) AS added, sum(e.change) / count(DISTINCT e.game_id) AS added_per_game
        FROM (SELECT DISTINCT ruleset, game_id, turn, seat, change FROM {events}
              WHERE change IS NOT NULL) e
        JOIN player_seats ps ON ps.game_id = e.game_id AND ps.seat = e.seat
        JOIN games g ON g.game_id = e.game_id
        GROUP BY e.ruleset, ps.player, g.n_players"""


WPA_TABLES = ("turn_chances", "event_wpa", "player_wpa")
"""The tables of this module, in the order they are worked out."""


def views_sql(models: list[WinModel], chances: str | None = None,
              events: str = "event_wpa") -> dict[str, str]:
    """The tables over every kept model, as SELECTs (:data:`WPA_TABLES`); with ``chances``,
    ``event_wpa`` reads the turn chances from that relation, and ``player_wpa`` reads the
    events from ``events`` (either materialized)."""
    usable = [m for m in models if _usable(m)]
    return {"turn_chances": _union([turn_chances_sql(m) for m in usable], EMPTY_TURNS),
            "event_wpa": _union([event_wpa_sql(m, chances) for m in usable], EMPTY_EVENTS),
            "player_wpa": player_wpa_sql(events)}


MEMORY = "1GB"
"""What a session working the tables out for a whole store may hold before it spills to disk:
the tables of 100,000 games are some 30 M rows, and a session that held them took 8 GB."""


@contextmanager
def bounded(con: duckdb.DuckDBPyConnection) -> Iterator[str]:
    """``con`` held to :data:`MEMORY` for the block, spilling to a scratch folder of its own
    beyond it (the order of rows a query does not sort is not kept, which saves DuckDB
    holding them back); yields the folder, which files the block's queries read may live in.
    At the end ``con`` is closed and the folder removed."""
    scratch = tempfile.mkdtemp(prefix="warren-wpa-")
    try:
        con.execute(f"SET memory_limit = '{MEMORY}'")
        con.execute(f"SET temp_directory = {_text(scratch)}")
        con.execute("SET preserve_insertion_order = false")
        yield scratch
    finally:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)


def _fits(con: duckdb.DuckDBPyConnection, model: WinModel) -> bool:
    import duckdb

    if not _usable(model):
        return False
    try:
        con.execute(f"SELECT * FROM ({turn_chances_sql(model)}) AS q LIMIT 0")
    except duckdb.Error:
        return False  # its figure columns are not among this session's tables
    return True


def _usable(model: WinModel) -> bool:
    try:
        return feature_names(model.ruleset)[2] == model.features
    except Exception:  # a ruleset no longer installed, or one that lost its figures
        return False


def fitting(con: duckdb.DuckDBPyConnection, models: list[WinModel]) -> list[WinModel]:
    """The models whose figures ``con``'s tables hold (a session over one ruleset's tables
    reads that ruleset's models only)."""
    return [m for m in models if _fits(con, m)]


def create_views(con: duckdb.DuckDBPyConnection, models: list[WinModel]) -> None:
    """The tables of :data:`WPA_TABLES` as views of ``con`` (over its projection views), of
    the models :func:`fitting` it."""
    for name, sql in views_sql(fitting(con, models)).items():
        con.execute(f"CREATE OR REPLACE VIEW {name} AS {sql}")


# -- what the tables say ------------------------------------------------------------------------
@dataclass
class Impact:
    """One card, action kind, seat or role: the mean change of chance (points) with its 95%
    interval and n, beside the win rate of the games it was played in."""

    what: str
    """In the game's words (a card by its name, a kind as the table says it)."""
    key: str
    """As the projections hold it (``--json``)."""
    field: str
    """``kind``, ``seat``, ``role``, ``player``, or the event field (``card``, ``cards``, ``item``...)."""
    plays: int
    """Plays (turns) behind the figure; for a seat or a player, games."""
    points: float | None
    low: float | None
    high: float | None
    games: int
    win_rate: float | None
    win_low: float | None
    win_high: float | None

    @property
    def too_few(self) -> bool:
        return self.plays < MIN_PLAYS

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "too_few": self.too_few}


Figure = tuple[float | None, float | None, float | None]
"""A figure in points with its 95% interval (None where unknown)."""


def _mean_interval(n: int, total: float, squares: float, shift: float = 0.0, shift_se: float = 0.0) -> Figure:
    """Mean less ``shift`` and its normal 95% interval (points) from a count, a sum and a sum
    of squares; ``shift_se`` is the standard error of the shift (a typical card's figure is
    itself estimated), added to the mean's in quadrature."""
    if n == 0:
        return None, None, None
    raw = total / n
    mean = raw - shift
    if n < 2:
        return round(100 * mean, 2), None, None
    var = max(0.0, (squares - n * raw * raw) / (n - 1))
    half = Z95 * math.sqrt(var / n + shift_se * shift_se)
    return round(100 * mean, 2), round(100 * (mean - half), 2), round(100 * (mean + half), 2)


def _win(won: int, games: int) -> Figure:
    interval = wilson(won, games)
    if interval is None:
        return None, None, None
    return round(100 * won / games, 2), round(100 * interval[0], 2), round(100 * interval[1], 2)


NAMED_FIELDS = frozenset({"item", "quirk"})
"""Fields that name a thing a seat plays that is not a card (Trust No Bunny's Items, the Quirk
a Sabotage guesses): counted beside the cards."""
NOT_PLAYS = frozenset({"deal", "runs", "draw", "overdraw", "reveal", "peek"})
"""Event types whose cards a seat is dealt, draws or is shown rather than plays."""


def _item_sql(ruleset: str) -> str | None:
    """Each played card (and named thing) of the ruleset's events, one row each, from the
    raw lines (DuckDB's JSON paths): game_id, seq, turn, actor, type, field, value."""
    rs = get_ruleset(ruleset)
    selects = []
    for tag, name, many in _item_fields(rs):
        if tag in NOT_PLAYS or (name not in PLAYED_FIELDS and name not in NAMED_FIELDS):
            continue
        path = f"'$.{name}[*]'" if many else f"'$.{name}'"
        value = f"unnest(json_extract_string(line, {path}))" if many else f"json_extract_string(line, {path})"
        selects.append(f"SELECT game_id, seq, turn, actor, type, '{name}' AS field, {value} AS value "
                       f"FROM events WHERE ruleset = {_text(ruleset)} AND type = {_text(tag)} "
                       "AND actor IS NOT NULL AND seq > 0")
    return " UNION ALL ".join(selects) if selects else None


def _names(con: duckdb.DuckDBPyConnection, rs: Any, items: str) -> bool:
    """``_card_names`` in ``con``: each played value with the card it is, by name (a card's
    copies, numbered apart, count as one card; a Bunnies card as its rank). True where the
    cards count by rank (Ruleset.card_rank)."""
    import pyarrow as pa

    values = con.execute(f"SELECT DISTINCT field, value FROM ({items}) WHERE value IS NOT NULL").fetchall()
    named = []
    for field, value in values:
        rank = rs.card_rank(value) if rs.is_card_field(field) else None
        if rank is not None:
            name = rank  # its multiple is counted apart (:func:`impacts`)
        elif rs.is_card_field(field):
            name = rs.card_name(value)
        else:
            name = value.replace("_", " ")
        named.append((field, value, name))
    con.register("_card_names", pa.table({"field": [r[0] for r in named], "value": [r[1] for r in named],
                                          "name": [r[2] for r in named]}))
    return any(rs.is_card_field(field) and rs.card_rank(value) is not None for field, value in values)


def impacts(con: duckdb.DuckDBPyConnection, model: WinModel,
            by: Literal["card", "kind", "seat", "role", "player"] = "card") -> list[Impact]:
    """What the tables say of one model's ruleset and player count (see the module docstring),
    most points first (seats in seat order). ``con`` has the views of :func:`create_views`."""
    rs = get_ruleset(model.ruleset)
    slug, n = _text(model.ruleset), model.players
    games = f"(SELECT game_id FROM games WHERE ruleset = {slug} AND n_players = {n})"
    ours = f"ruleset = {slug} AND game_id IN {games}"
    won = f"(SELECT game_id, seat, won FROM seat_results WHERE ruleset = {slug})"
    if by == "kind":
        rows = con.execute(f"""
            WITH k AS (SELECT DISTINCT game_id, turn, seat, type, change FROM event_wpa
                       WHERE {ours} AND change IS NOT NULL)
            SELECT k.type, count(*), sum(k.change), sum(k.change * k.change),
                   count(DISTINCT k.game_id || ':' || CAST(k.seat AS VARCHAR)),
                   count(DISTINCT CASE WHEN w.won THEN k.game_id || ':' || CAST(k.seat AS VARCHAR) END)
            FROM k JOIN {won} w ON w.game_id = k.game_id AND w.seat = k.seat GROUP BY k.type""").fetchall()
        out = [_impact(rs.refusal_doings.get(t, t.replace("_", " ")), t, "kind", *r) for t, *r in rows]
    elif by == "card":
        found = _item_sql(model.ruleset)
        if found is None:
            return []
        con.execute(f"CREATE OR REPLACE TEMP TABLE _played AS {found}")
        items = "SELECT * FROM _played"
        ranked = _names(con, rs, items)
        # A rank and how many of it went down together (a play of one rank: Bunnies); else
        # the card by name, its copies in one event counted once.
        key = "i.name || ' x' || CAST(i.copies AS VARCHAR)" if ranked else "i.name"
        rows = con.execute(f"""
            WITH i AS (SELECT p.game_id, p.seq, p.turn, p.actor, p.type, p.field, n.name, count(*) AS copies
                       FROM ({items}) p JOIN _card_names n ON n.field = p.field AND n.value = p.value
                       GROUP BY p.game_id, p.seq, p.turn, p.actor, p.type, p.field, n.name),
            e AS (SELECT i.game_id, i.type, i.field, {key} AS key, i.actor AS seat, c.change
                  FROM i JOIN (SELECT game_id, turn, seat, change FROM turn_chances WHERE {ours}) c
                       ON c.game_id = i.game_id AND c.turn = i.turn AND c.seat = i.actor
                  WHERE c.change IS NOT NULL)
            SELECT e.type, e.field, e.key, count(*), sum(e.change), sum(e.change * e.change),
                   count(DISTINCT e.game_id || ':' || CAST(e.seat AS VARCHAR)),
                   count(DISTINCT CASE WHEN r.won THEN e.game_id || ':' || CAST(e.seat AS VARCHAR) END)
            FROM e JOIN {won} r ON r.game_id = e.game_id AND r.seat = e.seat
            GROUP BY e.type, e.field, e.key""").fetchall()
        par = _pars(rows)
        out = [_impact(f"{_card_words(key, ranked)} ({t.replace('_', ' ')})", key, field, n, total, squares,
                       games, won, par[t, field])
               for t, field, key, n, total, squares, games, won in rows]
    elif by == "seat":
        rows = con.execute(f"""
            SELECT c.seat, count(*), sum(c.chance), sum(c.chance * c.chance), count(*),
                   count(CASE WHEN r.won THEN 1 END)
            FROM (SELECT * FROM turn_chances WHERE {ours}) c
            JOIN {won} r ON r.game_id = c.game_id AND r.seat = c.seat
            WHERE c.turn = 0 GROUP BY c.seat ORDER BY c.seat""").fetchall()
        return [_impact(f"seat {s + 1}", str(s), "seat", *r) for s, *r in rows]
    elif by == "player":
        rows = con.execute(f"""
            WITH k AS (SELECT DISTINCT game_id, turn, seat, change FROM event_wpa
                       WHERE {ours} AND change IS NOT NULL),
            per AS (SELECT k.game_id, ps.player, sum(k.change) AS added,
                           max(CASE WHEN r.won THEN 1 ELSE 0 END) AS won
                    FROM k JOIN player_seats ps ON ps.game_id = k.game_id AND ps.seat = k.seat
                    JOIN {won} r ON r.game_id = k.game_id AND r.seat = k.seat
                    GROUP BY k.game_id, ps.player)
            SELECT player, count(*), sum(added), sum(added * added), count(*), sum(won)
            FROM per GROUP BY player""").fetchall()
        out = [_impact(player, player, "player", *r) for player, *r in rows]
    else:
        if model.ruleset != "trust-no-bunny":
            return []
        rows = con.execute(f"""
            WITH roles AS (SELECT game_id, json_extract_string(line, '$.werebunnies[*]') AS wb
                           FROM events WHERE ruleset = {slug} AND type = 'roles'),
            k AS (SELECT DISTINCT w.game_id, w.turn, w.seat, w.change,
                         CASE WHEN list_contains(roles.wb, CAST(w.seat AS VARCHAR)) THEN 'werebunny'
                              ELSE 'townsfolk' END AS role
                  FROM (SELECT * FROM event_wpa WHERE {ours}) w JOIN roles ON roles.game_id = w.game_id
                  WHERE w.change IS NOT NULL)
            SELECT k.role, count(*), sum(k.change), sum(k.change * k.change),
                   count(DISTINCT k.game_id || ':' || CAST(k.seat AS VARCHAR)),
                   count(DISTINCT CASE WHEN r.won THEN k.game_id || ':' || CAST(k.seat AS VARCHAR) END)
            FROM k JOIN {won} r ON r.game_id = k.game_id AND r.seat = k.seat GROUP BY k.role""").fetchall()
        out = [_impact(role.capitalize() if role == "townsfolk" else "Werebunny", role, "role", *r)
               for role, *r in rows]
    return sorted(out, key=lambda i: (i.too_few, -(i.points if i.points is not None else -1e9), i.what))


def _pars(rows: list[Any]) -> dict[tuple[str, str], tuple[float, float]]:
    """Per kind of play and card field: a typical card's mean change, the median over its
    cards of their means (cards of at least :data:`MIN_PLAYS` plays where there are any), and
    that median's standard error (1.2533 sd / sqrt(k) over the k cards). A card's figure is
    its mean beyond this: what playing *that* card added over playing a typical one. The
    median, not the mean over every play: one card that decides games would otherwise lower
    every other card's figure by its share of the plays."""
    means: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for t, field, _key, n, total, *_rest in rows:
        means.setdefault((t, field), []).append((int(n), float(total or 0) / max(1, int(n))))
    out = {}
    for k, cards in means.items():
        enough = sorted([m for n, m in cards if n >= MIN_PLAYS] or [m for _n, m in cards])
        mid = len(enough) // 2
        median = enough[mid] if len(enough) % 2 else (enough[mid - 1] + enough[mid]) / 2
        se = 0.0
        if len(enough) > 1:
            mean = sum(enough) / len(enough)
            sd = math.sqrt(sum((m - mean) ** 2 for m in enough) / (len(enough) - 1))
            se = 1.2533 * sd / math.sqrt(len(enough))
        out[k] = (median, se)
    return out


def _impact(what: str, key: str, field: str, plays: int, total: float, squares: float, games: int,
            won: int, par: tuple[float, float] = (0.0, 0.0)) -> Impact:
    points, low, high = _mean_interval(int(plays), float(total or 0), float(squares or 0), *par)
    rate, wlo, whi = _win(int(won), int(games))
    return Impact(what, key, field, int(plays), points, low, high, int(games), rate, wlo, whi)


_MULTIPLE = {1: "", 2: "pair of ", 3: "three ", 4: "four "}


def _card_words(key: str, ranked: bool) -> str:
    """A card by name, or a rank and its multiple (a pair of 7s), in the game's words."""
    if ranked and " x" in key:
        rank, times = key.rsplit(" x", 1)
        k = int(times)
        return f"{_MULTIPLE.get(k, f'{k} x ')}{rank}{'s' if k > 1 else ''}"
    return key

