"""The rows of the projection tables, derived from stored games by replay.

One chunk of games of one ruleset at a time: their lines are read out of the store in one
query, decoded, replayed with the ruleset's handlers, and turned into Arrow tables, one per
projection table (logstore.analytics.projections writes and keeps track of them). Only the generic
:class:`~engine.ruleset.Ruleset` contract is used: the effects each handler returns,
``key_figures`` at the end of every turn and ``outcome`` at the end.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator, Sequence
from typing import Any, get_args, get_origin, get_type_hints

import msgspec
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from engine.reader import GameVisitor, walk
from engine.record import Event, Header, RecordError, decode_header
from engine.rules import Effect, Violation, WarrenError
from engine.ruleset import GameState, Ruleset
from logstore.analytics.schema import BASE_SCHEMAS, GAMES_SCHEMA, TURN_SEATS_SCHEMA, TURNS_SCHEMA
from logstore.store.feed import FeedError, GameFacts, StoredGame, StoreReader, decode_joined, decode_lines
from logstore.store.importing import tags

POSITION_COLUMNS = tuple(TURNS_SCHEMA.names)
SEAT_COLUMNS = tuple(TURN_SEATS_SCHEMA.names)

_json = msgspec.json.Encoder()


class AnalyticsError(WarrenError):
    """A projection or analytics problem a user can cause or fix."""


# -- the replay of one chunk of games ---------------------------------------------------
class _Chunk:
    """Rows of the tables for one chunk of games of one ruleset, gathered as Python lists.

    The replay loop is the hot path of a projection: per event it calls the handler and
    appends the event's turn; per turn it calls ``key_figures`` and appends five numbers;
    per effect one tuple. Everything else is done column-wise in Arrow or DuckDB afterwards.
    """

    def __init__(self, ruleset: Ruleset[Any, Any]) -> None:
        self.ruleset = ruleset
        self.game_ids: list[str] = []
        self.n_players: list[int] = []
        self.games: list[dict[str, Any]] = []
        self.seats: list[tuple[Any, ...]] = []
        self.turn_counts: list[int] = []
        self.positions: list[int | None] = []
        """Each turn's turn, round, active seat, first and last seq, laid end to end."""
        self.figures: list[Any] = []
        """Each turn's key figures: where the ruleset names them, its rows (tuples in the order
        of ``figure_names``) laid end to end in this one list; else a dict per turn."""
        self.effects: list[tuple[Any, ...]] = []
        """Each event that caused effects: ``(game index, seq, turn, event, effects)``; the
        effects' rows are cut from these column-wise (one tuple per event, not per effect)."""
        self.applied: list[int] = []
        """Each game's events applied (the last seq before a violation, else all)."""
        self.stored: list[int] = []
        """Each game's stored events (its lines less the header)."""
        self.events = 0

    def replay(self, header: Header, events: Sequence[Event], facts: GameFacts, stored: int) -> None:
        """Replay one game, gathering its rows. ``stored`` = its line count less the header.
        The game is folded by the reader's walk (engine.reader): :class:`_GameRows` is told
        each event's effects and each change of turn."""
        rs = self.ruleset
        gi = len(self.game_ids)
        self.game_ids.append(header.game_id)
        turns_before = len(self.positions)
        n_seats = len(header.players)
        order: list[int] = []
        rows = walk(rs, header, events, _GameRows(self, gi))
        played = rs.effective(events)[0]  # the game as corrected (a copy only with corrections)
        state, violation = rows.state, rows.violation
        seq = state.seq
        if seq >= rows.first:  # the turn in progress when the log ends
            self.positions.extend((rows.turn, rows.rnd, rows.active, rows.first, seq))
            rows.add_figures(rows.key_figures(state))
        self.turn_counts.append((len(self.positions) - turns_before) // 5)
        self.n_players.append(n_seats)
        self.applied.append(seq)
        self.stored.append(stored)
        self.events += stored
        # The play order: seats in the order they first act (who went first, second...).
        for event in played:
            actor = event.actor
            if actor is not None and actor not in order:
                order.append(actor)
                if len(order) == n_seats:
                    break
        order.extend(s for s in range(n_seats) if s not in order)
        outcome = None if violation is not None else rs.outcome(state)
        winners = None if outcome is None else outcome.winners
        scores = None if outcome is None else outcome.scores
        for position, seat in enumerate(order):
            self.seats.append((
                gi, seat, header.players[seat].name, position + 1, n_seats,
                None if winners is None else seat in winners,
                None if scores is None else scores[seat],
            ))
        self.games.append({
            "game_id": header.game_id,
            "options": _json.encode(header.options).decode(),
            "n_players": n_seats,
            "players": _json.encode([p.name for p in header.players]).decode(),
            "first_seat": order[0] if order else None,
            "over": bool(state.over) and violation is None,
            "ok": violation is None,
            "violation_seq": None if violation is None else violation.seq,
            "violation_rule": None if violation is None else violation.rule,
            "winners": None if winners is None else _json.encode(winners).decode(),
            "n_winners": None if winners is None else len(winners),
            "scores": None if scores is None else _json.encode(scores).decode(),
            "end_reason": None if outcome is None else outcome.reason,
            "end_rule": None if outcome is None else outcome.rule,
            "n_events": stored,
            "applied": seq,
            "turns": state.turn,
            "rounds": state.round,
            "source": header.source,
            # Only a game recorded at the table may leave a card unknown (REC-UNK-1), so only
            # such a game pays for counting them.
            "unknown_values": _unknowns(played) if header.source == "recorded" else 0,
            "created": header.created,
            "imported_at": facts.imported_at,
            "chain": facts.chain,
            "parent_game": facts.parent_game,
            "parent_seq": facts.parent_seq,
        })


    # -- to Arrow ------------------------------------------------------------------------
    def tables(self, events: pa.Table) -> dict[str, pa.Table]:
        ids = pa.array(self.game_ids, pa.string())
        out: dict[str, pa.Table] = {}
        out["games"] = pa.Table.from_pylist(self.games, schema=GAMES_SCHEMA)
        seats = self.seats
        out["seat_results"] = pa.table({
            "game_id": ids.take(pa.array([r[0] for r in seats], pa.int64())),
            "seat": pa.array([r[1] for r in seats], pa.int64()),
            "player": pa.array([r[2] for r in seats], pa.string()),
            "play_order": pa.array([r[3] for r in seats], pa.int64()),
            "n_players": pa.array([r[4] for r in seats], pa.int64()),
            "won": pa.array([r[5] for r in seats], pa.bool_()),
            "score": pa.array([r[6] for r in seats], pa.int64()),
        })
        out["turns"], out["turn_seats"] = self._turn_tables(ids)
        out["effects"] = self._effects_table(ids)
        out["events"] = pa.table({
            "game_id": events.column("game_id"), "seq": events.column("seq"),
            "turn": self._event_turns(),
            "type": events.column("type"), "actor": events.column("actor").cast(pa.int64()),
            "line": events.column("line"),
        })
        out["seat_items"] = _seat_items(self.ruleset, out["events"])
        return out

    def _effects_table(self, ids: pa.Array) -> pa.Table:
        """One row per effect: what it says from the effects themselves, where it happened
        (game, seq, turn, the event's type and actor) from its event's row, repeated."""
        fx = self.effects
        effects = [e for r in fx for e in r[4]]
        each = pa.array(np.repeat(np.arange(len(fx), dtype=np.int64),
                                  np.fromiter((len(r[4]) for r in fx), np.int64, len(fx))))
        events = [r[3] for r in fx]
        seat_of = [e.data.get("seat") if e.data else None for e in effects]
        return pa.table({
            "game_id": ids.take(pa.array([r[0] for r in fx], pa.int64()).take(each)),
            "seq": pa.array([r[1] for r in fx], pa.int64()).take(each),
            "turn": pa.array([r[2] for r in fx], pa.int64()).take(each),
            "type": pa.array([type(e).__struct_config__.tag for e in events], pa.string()).take(each),
            "actor": pa.array([e.actor for e in events], pa.int64()).take(each),
            "rule": pa.array([e.rule for e in effects], pa.string()),
            "kind": pa.array([e.kind for e in effects], pa.string()),
            "seat": pa.array([v if type(v) is int else None for v in seat_of], pa.int64()),
            "data": _json_texts([e.data for e in effects]),
        })

    def _event_turns(self) -> pa.Array:
        """Each stored line's turn, in the order of the chunk's lines: 0 for a header, the
        turn of each applied event (turns cover seq 1 to the last applied one, in order, so
        each turn's number is repeated once per event it holds), none for events after a
        violation (stored, never applied)."""
        at = self.positions
        turns = np.asarray(at[0::5], dtype=np.int64)
        sizes = np.asarray(at[4::5], dtype=np.int64) - np.asarray(at[3::5], dtype=np.int64) + 1
        applied = np.asarray(self.applied, dtype=np.int64)
        lines = np.asarray(self.stored, dtype=np.int64) + 1
        header = np.cumsum(lines) - lines
        within = np.arange(int(applied.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(applied) - applied, applied)
        where = np.repeat(header + 1, applied) + within
        out = np.zeros(int(lines.sum()), dtype=np.int64)
        known = np.zeros(len(out), dtype=np.bool_)
        known[header] = True
        out[where] = np.repeat(turns, sizes)
        known[where] = True
        return pa.array(out, mask=~known)

    def _turn_tables(self, ids: pa.Array) -> tuple[pa.Table, pa.Table]:
        counts = np.asarray(self.turn_counts, dtype=np.int64)
        games = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
        at = self.positions
        first = np.asarray(at[3::5], dtype=np.int64)
        last = np.asarray(at[4::5], dtype=np.int64)
        turns: dict[str, Any] = {
            "game_id": ids.take(pa.array(games)), "turn": pa.array(at[0::5], pa.int64()),
            "round": pa.array(at[1::5], pa.int64()), "active": pa.array(at[2::5], pa.int64()),
            "first_seq": pa.array(first), "last_seq": pa.array(last),
            "events": pa.array(last - first + 1),
        }
        n_players = np.asarray(self.n_players, dtype=np.int64)[games]
        seat_figures: dict[str, pa.Array] = {}
        rs = self.ruleset
        if rs.figure_names and rs.seat_figures:
            per_turn, per_seat = _flat_figures(rs, self.figures, self.n_players, counts)
            for name, values in per_turn:
                turns[name if name not in turns else f"figure_{name}"] = _figure_array(values)
            seat_figures.update(per_seat)
        else:
            named = rs.figure_names
            columns = _figure_rows(named, self.figures) if named else _figure_columns(self.figures)
            for name, values in columns:
                lengths = _seat_lengths(values)
                if lengths is not None and np.array_equal(lengths, n_players):
                    seat_figures[name] = _figure_array(values.flatten())
                else:
                    column = name if name not in turns else f"figure_{name}"
                    turns[column] = _figure_array(values)
        total = int(n_players.sum())
        repeat = pa.array(np.repeat(np.arange(len(games), dtype=np.int64), n_players))
        starts = np.repeat(np.cumsum(n_players) - n_players, n_players)
        seats_cols: dict[str, Any] = {
            "game_id": turns["game_id"].take(repeat),
            "turn": turns["turn"].take(repeat),
            "seat": pa.array(np.arange(total, dtype=np.int64) - starts),
        }
        for name, arr in seat_figures.items():
            seats_cols[name if name not in seats_cols else f"figure_{name}"] = arr
        return pa.table(turns), pa.table(seats_cols)


_Columns = list[tuple[str, pa.Array]]


def _flat_figures(ruleset: Ruleset[Any, Any], flat: list[Any], seats: list[int],
                  turns: npt.NDArray[np.int64]) -> tuple[_Columns, _Columns]:
    """The key figures of rows laid end to end (``figure_row`` with ``seat_figures``: a value
    per seat inline), as ``(per-turn columns, per-seat columns)`` in the chunk's order (turn
    by turn; seat by seat within a turn).

    A game's rows all have one width, set by its seat count. Games are grouped by seat count;
    within a group each column is a strided slice of the group's rows; the values of all
    groups for one figure are typed by Arrow in one call, and one ``take`` puts them in the
    chunk's order. No tuple or list per turn is built: that had made the figures cost as
    much as the replay itself.
    """
    names = ruleset.figure_names
    per_seat = ruleset.seat_figures
    n_games = len(seats)
    ends = np.cumsum(np.asarray([ruleset.figure_width(n) for n in seats], dtype=np.int64) * turns)
    if n_games and int(ends[-1]) != len(flat):
        raise AnalyticsError(f"{ruleset.slug}: figure_row gave rows of another width than "
                             "figure_names and seat_figures make")
    starts = ends - np.asarray([ruleset.figure_width(n) for n in seats], dtype=np.int64) * turns
    groups: dict[int, list[int]] = {}
    for g, n in enumerate(seats):
        groups.setdefault(n, []).append(g)
    values: dict[str, list[Any]] = {name: [] for name in names}
    turn_base = np.zeros(n_games, dtype=np.int64)   # a game's first turn among a figure's values
    seat_base = np.zeros(n_games, dtype=np.int64)   # ... and among a seat figure's (seat 0)
    group_size = np.zeros(n_games, dtype=np.int64)  # turns of its group: the step from seat to seat
    turns_before = seats_before = 0
    for n, members in groups.items():
        width = ruleset.figure_width(n)
        if len(members) == n_games:
            rows = flat
        else:
            rows = []
            for g in members:
                rows += flat[starts[g]:ends[g]]
        size = int(turns[members].sum())
        within = np.cumsum(turns[members]) - turns[members]
        turn_base[members] = turns_before + within
        seat_base[members] = seats_before + within
        group_size[members] = size
        offset = 0
        for name in names:
            column = values[name]
            if name in per_seat:
                for seat in range(n):  # the group's values seat by seat: seat 0's turns, then 1's ...
                    column += rows[offset + seat::width]
                offset += n
            else:
                column += rows[offset::width]
                offset += 1
        turns_before += size
        seats_before += size * n
    game_of_turn = np.repeat(np.arange(n_games, dtype=np.int64), turns)
    turn_in_game = np.arange(len(game_of_turn), dtype=np.int64) - np.repeat(np.cumsum(turns) - turns, turns)
    n_of_turn = np.asarray(seats, dtype=np.int64)[game_of_turn]
    row_turn = np.repeat(np.arange(len(game_of_turn), dtype=np.int64), n_of_turn)
    seat_of_row = np.arange(len(row_turn), dtype=np.int64) - np.repeat(
        np.cumsum(n_of_turn) - n_of_turn, n_of_turn)
    row_game = game_of_turn[row_turn]
    seat_index = pa.array(seat_base[row_game] + seat_of_row * group_size[row_game] + turn_in_game[row_turn])
    turn_index = None if len(groups) <= 1 else pa.array(turn_base[game_of_turn] + turn_in_game)
    per_turn: _Columns = []
    seat_cols: _Columns = []
    for name in names:
        column = _typed(values[name])
        if name in per_seat:
            seat_cols.append((name, _figure_array(column.take(seat_index))))
        else:
            per_turn.append((name, column if turn_index is None else column.take(turn_index)))
    return per_turn, seat_cols


def _typed(values: list[Any]) -> pa.Array:
    """One figure's values as an Arrow column; values Arrow cannot type together (mixed) as
    JSON text."""
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return pa.array([None if v is None else _json.encode(v).decode() for v in values], pa.string())


def _figure_rows(names: tuple[str, ...], flat: list[Any]) -> list[tuple[str, pa.Array]]:
    """The key figures of every turn, given as rows laid end to end in one list, as one
    Arrow column per name: each column is a slice with a stride (C speed, no transposing
    of tuples), converted once; a column Arrow cannot type (mixed values) goes as JSON
    text, as :func:`_figure_columns` does."""
    width = len(names)
    if not flat:
        return []
    if len(flat) % width:
        raise AnalyticsError(f"figure_row gave rows of another length than figure_names {names!r}")
    return [(name, _typed(flat[k::width])) for k, name in enumerate(names)]


def _figure_columns(figures: list[dict[str, Any]]) -> list[tuple[str, pa.Array]]:
    """The key figures of every turn, one Arrow column per figure name.

    One conversion of the whole list of dicts (C++, typed by inference) when the figures
    are regular; a column at a time otherwise (a figure missing on some turns, or of
    mixed types, becomes nullable or JSON text).
    """
    if not figures:
        return []
    try:
        struct = pa.array(figures)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        struct = None
    if struct is not None and pa.types.is_struct(struct.type):
        return [(struct.type.field(i).name, struct.field(i)) for i in range(struct.type.num_fields)]
    names: list[str] = []
    for fig in figures:
        names.extend(k for k in fig if k not in names)
    return [(name, _typed([f.get(name) for f in figures])) for name in names]


def _seat_lengths(values: pa.Array) -> npt.NDArray[np.int64] | None:
    """Each turn's list length, when the figure is a list on every turn (else None)."""
    if not (pa.types.is_list(values.type) or pa.types.is_large_list(values.type)) or values.null_count:
        return None
    counts = pc.list_value_length(values).to_numpy(zero_copy_only=False)
    lengths: npt.NDArray[np.int64] = counts.astype(np.int64)
    return lengths


def _figure_array(values: pa.Array) -> pa.Array:
    """A figure column: numbers, flags and words as they are; anything else as JSON text."""
    kind = values.type
    if kind == pa.null():
        return values.cast(pa.int64())
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind) \
            or pa.types.is_string(kind):
        return values
    return pa.array([None if v is None else _json.encode(v).decode() for v in values.to_pylist()],
                    pa.string())


PLAYED_FIELDS = frozenset({"card", "cards", "defend", "weaken", "gnaw"})
"""The card fields that hold the cards a seat plays (not where a card goes, nor what pays):
the ones kept whatever their type. Each field is one more pass over the lines."""


def _item_fields(ruleset: Ruleset[Any, Any]) -> list[tuple[str, str, bool]]:
    """``(event type, field, is a list)`` for every event field holding a string or a list of
    strings (the cards, slots, names a seat's event names), and each field of the cards a
    seat plays (:data:`PLAYED_FIELDS`) whatever its type (Quest's and KinderBunnies' card
    numbers, Trust No Bunny's card values)."""
    skip = {"hash", "type"}
    out: list[tuple[str, str, bool]] = []
    tag_of = tags(ruleset)
    for etype in ruleset.event_types:
        hints = get_type_hints(etype)
        tag = tag_of[etype]
        for name in etype.__struct_fields__:
            hint = hints.get(name)
            if name in skip:
                continue
            listed = get_origin(hint) is list or any(get_origin(a) is list for a in get_args(hint))
            if hint is str or hint == (str | None):
                out.append((tag, name, False))
            elif listed and get_args(hint) == (str,):
                out.append((tag, name, True))
            elif name in PLAYED_FIELDS and ruleset.is_card_field(name):
                out.append((tag, name, listed))  # a card by number (Quest, KinderBunnies) or value
    return out


_ITEM_SQL: dict[str, str | None] = {}


def _seat_items(ruleset: Ruleset[Any, Any], events: pa.Table) -> pa.Table:
    """``seat_items``: per game and seat, every string its events named (a card laid, a slot
    turned up), how often and when first. Cut from the raw lines by DuckDB with JSON paths
    built from the event types' fields, so the replay loop pays nothing for it."""
    sql = _ITEM_SQL.get(ruleset.slug, "")
    if sql == "":
        by_type: dict[str, list[tuple[str, bool]]] = {}
        for tag, name, many in _item_fields(ruleset):
            by_type.setdefault(tag, []).append((name, many))
        # One pass over the lines: each event type's fields as one list of (field, value)
        # pairs (a scalar field one pair, a list field one pair per item), unnested once.
        cases = []
        for tag, fields in by_type.items():
            lists = []
            scalars = [name for name, many in fields if not many]
            if scalars:
                pairs = (f"{{'f': '{name}', 'v': json_extract_string(line, '$.{name}')}}" for name in scalars)
                lists.append("[" + ", ".join(pairs) + "]")
            lists += [f"list_transform(coalesce(json_extract_string(line, '$.{name}[*]'), []), "
                      f"lambda x: {{'f': '{name}', 'v': x}})" for name, many in fields if many]
            joined = lists[0] if len(lists) == 1 else f"list_concat({', '.join(lists)})"
            cases.append(f"WHEN '{tag}' THEN {joined}")
        types = ", ".join(f"'{tag}'" for tag in by_type)
        sql = _ITEM_SQL[ruleset.slug] = None if not cases else (
            "SELECT game_id, actor AS seat, type, u.f AS field, u.v AS value, count(*) AS uses, "
            "min(seq) AS first_seq, min(turn) AS first_turn FROM ("
            f"SELECT game_id, seq, turn, actor, type, unnest(CASE type {' '.join(cases)} END) AS u "
            f"FROM ev WHERE type IN ({types}) AND actor IS NOT NULL AND turn IS NOT NULL) "
            "WHERE u.v IS NOT NULL GROUP BY game_id, actor, type, u.f, u.v")
    if sql is None or events.num_rows == 0:
        return BASE_SCHEMAS["seat_items"].empty_table()
    import duckdb

    from logstore.analytics.duck import arrow

    con = duckdb.connect(config={"threads": 1, "autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    try:
        con.register("ev", events)
        table = arrow(con, sql)
    finally:
        con.close()
    return table.cast(BASE_SCHEMAS["seat_items"])


class _GameRows(GameVisitor["_GameRows"]):
    """One game's rows as the walk folds it: each effect with the turn it happened in, and
    each turn (its round, active seat, first and last seq) with its key figures at its end."""

    wants_effects = True
    wants_turns = True

    def __init__(self, chunk: _Chunk, gi: int) -> None:
        rs = chunk.ruleset
        self.gi = gi
        self.effects_append = chunk.effects.append
        self.add_turn = chunk.positions.extend
        # a row's items laid end to end (cut column-wise afterwards), or a dict per turn
        self.add_figures = chunk.figures.extend if rs.figure_names else chunk.figures.append
        # Key figures as a row per turn where the ruleset names them (taken column-wise
        # afterwards), else as a dict per turn.
        self.key_figures = rs.figure_row if rs.figure_names else rs.key_figures
        self.turn = self.rnd = 0
        self.active: int | None = None
        self.first = 1
        self.state: Any = None
        self.violation: Violation | None = None

    def begin_game(self, header: Header, ruleset: Ruleset[Any, Any], state: GameState) -> None:
        self.turn, self.rnd, self.active = state.turn, state.round, state.active

    def visit_event(self, event: Event, effects: tuple[Effect, ...], state: GameState) -> None:
        if effects:
            self.effects_append((self.gi, event.seq, self.turn, event, effects))

    def visit_turn(self, state: GameState, seq: int) -> None:
        self.add_turn((self.turn, self.rnd, self.active, self.first, seq))
        self.add_figures(self.key_figures(state))
        self.turn, self.rnd, self.active = state.turn, state.round, state.active
        self.first = seq + 1

    def visit_violation(self, violation: Violation, state: GameState) -> None:
        self.violation = violation

    def end_game(self, state: GameState) -> None:
        self.state = state

    def result(self) -> _GameRows:
        return self


def _cut_at(data: bytes, ends: npt.NDArray[np.int64]) -> pa.Array:
    """UTF-8 text as an Arrow string column, each value ending where ``ends`` say (no Python
    loop per value: the offsets are handed to Arrow as they are)."""
    if len(data) < 2**31:
        offsets32 = np.concatenate([[0], ends]).astype(np.int32)
        return pa.StringArray.from_buffers(len(ends), pa.py_buffer(offsets32.tobytes()), pa.py_buffer(data))
    # never in one chunk of games: more bytes than 32-bit offsets reach
    offsets = np.concatenate([[0], ends]).astype(np.int64)
    return pa.LargeStringArray.from_buffers(
        len(ends), pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)).cast(pa.string())


def _json_texts(values: list[Any]) -> pa.Array:
    """Each value as JSON text, in one call: msgspec writes them as JSON Lines (a raw newline
    only ever ends a value: inside strings it is escaped), cut where the newlines are, which
    are then dropped."""
    if not values:
        return pa.array([], pa.string())
    data = _json.encode_lines(values)
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10) + 1
    if len(ends) != len(values):  # never: msgspec writes one line per value
        return pa.array([_json.encode(v).decode() for v in values], pa.string())
    return pc.utf8_slice_codeunits(_cut_at(data, ends), 0, -1)


def _unknowns(events: Any) -> int:
    """How many values the events leave unknown (``"?"``: a card, a role, an Item nobody saw)."""
    return sum(msgspec.json.encode(e).count(b'"?"') for e in events)



def events_table(games: list[StoredGame]) -> pa.Table:
    """The raw ``events`` rows of a chunk, cut from the joined lines without a Python loop
    per line: the offsets are where the newlines are."""
    data = b"".join(g.data for g in games)
    raw = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(raw == 10) + 1
    if len(ends) == 0 or ends[-1] != len(data):  # a record without a final newline
        ends = np.append(ends, len(data))
    counts = np.fromiter((g.lines for g in games), dtype=np.int64, count=len(games))
    if len(ends) != int(counts.sum()):
        # a line ended by a lone CR (never written by warren): cut line by line instead
        lines = [line for g in games for line in g.data.decode().splitlines(keepends=True)]
        line_col = pa.array(lines, pa.string())
    else:
        line_col = _cut_at(data, ends)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    seq = np.arange(int(counts.sum()), dtype=np.int64) - starts
    ids = pa.array([g.game_id for g in games], pa.string()).take(
        pa.array(np.repeat(np.arange(len(games), dtype=np.int64), counts)))
    # each game's types and actors come joined by commas: split them in Arrow, not in Python
    types = pc.list_flatten(pc.split_pattern(pa.array([g.types for g in games], pa.string()), ","))
    actors = pc.list_flatten(pc.split_pattern(pa.array([g.actors for g in games], pa.string()), ","))
    actors = pc.cast(pc.if_else(pc.equal(actors, ""), pa.scalar(None, pa.string()), actors), pa.int64())
    return pa.table({"game_id": ids, "seq": pa.array(seq), "type": types, "actor": actors, "line": line_col})


def project_chunk(reader: StoreReader, ruleset: Ruleset[Any, Any], game_ids: list[str],
                  ) -> tuple[dict[str, pa.Table], int]:
    """Replay stored games of one ruleset and return their tables and event count."""
    with _no_gc():
        try:
            return _project_chunk(reader, ruleset, game_ids)
        except FeedError as exc:
            raise AnalyticsError(str(exc)) from None


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a chunk's rows pile up.

    The rows are millions of small lists and dicts that live until the chunk is written;
    the collector would rescan them again and again as they grow (measured: several times
    slower). Nothing in a chunk makes reference cycles, so nothing is left for it to find.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _project_chunk(reader: StoreReader, ruleset: Ruleset[Any, Any], game_ids: list[str],
                   ) -> tuple[dict[str, pa.Table], int]:
    return project_games(ruleset, reader.games(game_ids), reader.facts(game_ids), reader)


def project_games(ruleset: Ruleset[Any, Any], games: list[StoredGame], facts: dict[str, GameFacts],
                  reader: StoreReader | None = None) -> tuple[dict[str, pa.Table], int]:
    """The tables of games of one ruleset given with their lines (a store's chunk, or records
    read elsewhere: the Spark build, logstore.analytics.spark), and their event count.
    ``reader`` reads again, line by line, a stored game whose joined lines came out of order;
    without one, the lines given are taken as they are."""
    chunk = _Chunk(ruleset)
    for k, game in enumerate(games):
        cut = game.data.find(b"\n") + 1 or len(game.data)
        try:
            header = decode_header(game.data[:cut], game.game_id)
        except RecordError as exc:
            raise AnalyticsError(f"game {game.game_id!r}: its stored header no longer reads: {exc}") from None
        body = game.data[cut:]
        events = decode_joined(ruleset, body, game.lines - 1)
        if events is None:
            if reader is not None:
                game = games[k] = reader.game_in_order(game.game_id)
                body = game.data[game.data.find(b"\n") + 1:]
            events = decode_lines(ruleset, game.game_id, body.splitlines())
        chunk.replay(header, events, facts[game.game_id], game.lines - 1)
    return chunk.tables(events_table(games)), chunk.events
