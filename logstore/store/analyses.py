"""Analyses of stored games (engine.analysis), worked out on every core and kept for good.

An analysis is derived data: it is kept in the ``analyses`` table with what it was worked
out from, and used again only while all of it still holds:

- ``record``: the sha256 of the game's stored bytes (a line appended gives another);
- ``rules``: :func:`rules_fingerprint`, a digest of the engine's code and card data, so a
  change to any rule (or to the analysis itself) works every analysis out afresh;
- ``perspective``, ``settings`` and ``at``: what was asked.

It is never part of a record: exports, redacted records and the hash chain know nothing of
it, and ``warren verify`` leaves it alone. Rows are replaced, never edited in place: a new
analysis of the same question is written in one transaction with the old one's removal, so
an interrupted run (Ctrl-C) leaves the old answer or none, never half of one.

The positions of one game are evaluated by helper processes beside this one
(logstore.store.helpers), each job's figures a function of the record, the perspective and
the settings only: the answer is the same with one process or several.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, BinaryIO

from engine.analysis.chances import Chances
from engine.analysis.timeline import Analysis, Job, LocalEvaluator, Settings, analyse
from engine.analysis.worlds import Knowledge, knowledge
from engine.capabilities import Perspective
from engine.record import Record, event_to_dict
from engine.registry import get_ruleset
from engine.rules import WarrenError
from logstore.store.cores import helper_count
from logstore.store.helpers import answer_all, in_order

SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT NOT NULL,
    perspective TEXT NOT NULL,        -- a seat number, 'spectator' (the table) or 'referee'
    settings TEXT NOT NULL,           -- JSON: worlds, rollouts, seed, bot
    at INTEGER NOT NULL,              -- -1: the whole game; else the one position analysed
    record TEXT NOT NULL,             -- sha256 of the game's stored bytes when analysed
    rules TEXT NOT NULL,              -- rules_fingerprint() when analysed
    analysis TEXT NOT NULL,           -- JSON: engine.analysis.timeline.Analysis.to_dict()
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, perspective, settings, at)
) WITHOUT ROWID;
"""

MODULE = "logstore.store.analysis_helper"
PARALLEL_FROM = 24
"""Jobs below this many are evaluated here alone: a helper's start costs more than it saves."""


def install(conn: sqlite3.Connection) -> None:
    """Create the analyses table if it is missing (writers only)."""
    conn.executescript(SCHEMA)


@cache
def rules_fingerprint() -> str:
    """A digest of every file of the engine package (code and card data): what an analysis
    depends on besides its record and its settings."""
    import engine

    root = Path(engine.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml", ".json", ".yaml", ".csv", ".txt") \
                and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Question:
    """What is asked of one game."""

    perspective: Perspective = "referee"
    settings: Settings = field(default_factory=Settings)
    at: int | None = None

    def key(self) -> tuple[str, str, int]:
        return (str(self.perspective), _settings_json(self.settings), -1 if self.at is None else self.at)


def _settings_json(settings: Settings) -> str:
    return json.dumps({"worlds": settings.worlds, "rollouts": settings.rollouts, "seed": settings.seed,
                       "bot": settings.bot}, sort_keys=True)


def record_digest(record: Record) -> str:
    return hashlib.sha256(record.data()).hexdigest()


def cached(conn: sqlite3.Connection, game_id: str, question: Question, digest: str) -> Analysis | None:
    """The kept analysis of this question, if it still holds (see the module docstring)."""
    install(conn)
    row = conn.execute(
        "SELECT analysis FROM analyses WHERE game_id = ? AND perspective = ? AND settings = ? AND at = ? "
        "AND record = ? AND rules = ?", (game_id, *question.key(), digest, rules_fingerprint())).fetchone()
    return None if row is None else Analysis.from_dict(json.loads(row[0]))


def keep(conn: sqlite3.Connection, game_id: str, question: Question, digest: str, analysis: Analysis) -> None:
    """Keep ``analysis`` in place of any older answer to the same question, in one transaction."""
    install(conn)
    with conn:
        conn.execute("DELETE FROM analyses WHERE game_id = ? AND perspective = ? AND settings = ? AND at = ?",
                     (game_id, *question.key()))
        conn.execute("INSERT INTO analyses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (game_id, *question.key(), digest, rules_fingerprint(),
                      json.dumps(analysis.to_dict(), ensure_ascii=False),
                      datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")))


def kept_games(conn: sqlite3.Connection, question: Question) -> set[str]:
    """Games with a kept answer to ``question`` that still holds for today's rules (their
    records are checked when they are read)."""
    install(conn)
    return {r[0] for r in conn.execute(
        "SELECT game_id FROM analyses WHERE perspective = ? AND settings = ? AND at = ? AND rules = ?",
        (*question.key(), rules_fingerprint()))}


def work_out(record: Record, question: Question, *, jobs: int | None = None,
             progress: Callable[[int], None] | None = None,
             total: Callable[[int], None] | None = None) -> Analysis:
    """The analysis of ``record`` (not kept: see :func:`answer`). ``jobs``: processes in all
    (default: one per usable core, ``WARREN_ANALYSE_JOBS`` overrides); ``total`` is told how
    many positions the work has once it is known, ``progress`` each one done."""
    known = _known(record, question.perspective)
    if jobs is None:
        env = os.environ.get("WARREN_ANALYSE_JOBS", "")
        jobs = int(env) if env.isdigit() and int(env) >= 1 else helper_count() + 1
    greeting = (record.data(), record.path, question.perspective, question.settings)
    evaluate = _Spread(known, question.settings, jobs - 1, greeting, progress, total)
    return analyse(known, question.settings, at=question.at, evaluate=evaluate)


def answer(conn: sqlite3.Connection, record: Record, question: Question, *, fresh: bool = False,
           jobs: int | None = None, progress: Callable[[int], None] | None = None,
           total: Callable[[int], None] | None = None) -> tuple[Analysis, bool]:
    """The analysis of a stored game: the kept one if it still holds (and not ``fresh``),
    else worked out and kept. Returns it and whether it was kept already."""
    digest = record_digest(record)
    if not fresh:
        found = cached(conn, record.header.game_id, question, digest)
        if found is not None:
            return found, True
    analysis = work_out(record, question, jobs=jobs, progress=progress, total=total)
    keep(conn, record.header.game_id, question, digest, analysis)
    return analysis, False


def _known(record: Record, perspective: Perspective) -> Knowledge:
    ruleset = get_ruleset(record.header.ruleset).for_game(record.header)
    if isinstance(perspective, int) and not 0 <= perspective < len(record.header.players):
        raise WarrenError(f"{record.header.game_id} has seats 0..{len(record.header.players) - 1}, "
                          f"not {perspective}")
    return knowledge(ruleset, record.header, record.events, perspective)


class _Spread:
    """An evaluator that shares the jobs with helper processes, answers in order."""

    def __init__(self, known: Knowledge, settings: Settings, helpers: int, greeting: object,
                 progress: Callable[[int], None] | None, total: Callable[[int], None] | None) -> None:
        self.local = LocalEvaluator(known, settings)
        self.helpers = helpers
        self.greeting = greeting
        self.progress = progress
        self.total = total
        self.planned = 0

    def __call__(self, jobs: Sequence[Job]) -> list[Chances]:
        self.planned += len(jobs)
        if self.total is not None:
            self.total(self.planned)
        out: list[Chances] = []
        for result in self._results(jobs):
            out.append(result)
            if self.progress is not None:
                self.progress(1)
        return out

    def _results(self, jobs: Sequence[Job]) -> Iterator[Chances]:
        if self.helpers < 1 or len(jobs) < PARALLEL_FROM:
            for job in jobs:
                yield self.local([job])[0]
            return
        items = [_encode(job) for job in jobs]

        def here(item: tuple[int, list[dict[str, Any]]]) -> Chances:
            return self.local([_decode(self.local.known, item)])[0]

        yield from in_order(items, self.helpers, MODULE, serve, self.greeting, here, ahead=2)


def _encode(job: Job) -> tuple[int, list[dict[str, Any]]]:
    return job.seq, [event_to_dict(e) for e in job.then]


def _decode(known: Knowledge, item: tuple[int, list[dict[str, Any]]]) -> Job:
    seq, then = item
    return Job(seq, tuple(known.ruleset.decode_event(e) for e in then))


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """A helper's loop: the game once, then one job in, its chances out (in order)."""
    from engine.reader import read_record

    data, path, perspective, settings = pickle.load(requests)
    record = read_record(data, path)
    known = _known(record, perspective)
    local = LocalEvaluator(known, settings)
    answer_all(requests, answers, lambda item: local([_decode(known, item)])[0])  # type: ignore[arg-type]


def changes(record: Record, seq: int, action: dict[str, Any], settings: Settings, *,
            jobs: int | None = None) -> dict[str, Any]:
    """What ``action`` (record form) taken after event ``seq`` would do to every seat's
    chance, from the referee's knowledge (engine.analysis.timeline.what_it_changes)."""
    from engine.analysis.timeline import what_it_changes

    known = _known(record, "referee")
    event = known.ruleset.decode_event({**action, "seq": seq + 1})
    greeting = (record.data(), record.path, "referee", settings)
    helpers = (jobs if jobs is not None else helper_count() + 1) - 1
    evaluate = _Spread(known, settings, helpers, greeting, None, None)
    return what_it_changes(known, seq, event, settings, evaluate)


@dataclass(frozen=True, slots=True)
class LuckAndDecisions:
    """A player's points of win chance per game, from the referee's kept analyses of his
    games of one ruleset: what luck gave him and what his own decisions did, each as a mean
    per game with its 95% interval (normal, over the games), and how many games."""

    ruleset: str
    games: int
    luck: float
    luck_interval: tuple[float, float] | None
    decisions: float
    decisions_interval: tuple[float, float] | None

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "games": self.games, "luck": self.luck,
                "luck_interval": self.luck_interval, "decisions": self.decisions,
                "decisions_interval": self.decisions_interval}


def luck_and_decisions(conn: sqlite3.Connection, seats: Sequence[tuple[str, str, int]]
                       ) -> dict[str, LuckAndDecisions]:
    """Per ruleset, over the games of ``seats`` (game id, ruleset, the player's seat) that the
    store keeps a whole-game referee's analysis of, for today's engine (the one of most plays
    where there are several): the player's luck and own decisions per game."""
    install(conn)
    wanted = {g: (r, s) for g, r, s in seats}
    per: dict[str, tuple[list[float], list[float]]] = {}
    best = _referee_analyses(conn, set(wanted))
    for game_id, text in best.items():
        ruleset, seat = wanted[game_id]
        totals = json.loads(text)["totals"]
        if not 0 <= seat < len(totals):
            continue
        luck, decisions = per.setdefault(ruleset, ([], []))
        luck.append(float(totals[seat]["luck"]))
        decisions.append(float(totals[seat]["decisions"]))
    return {r: LuckAndDecisions(r, len(luck), round(_mean(luck), 2), _interval(luck),
                                round(_mean(decisions), 2), _interval(decisions))
            for r, (luck, decisions) in sorted(per.items())}


def _referee_analyses(conn: sqlite3.Connection, games: set[str]) -> dict[str, str]:
    """For each of ``games`` with one, the kept whole-game referee's analysis for today's
    engine that rests on the most plays (worlds x rollouts); among equals, the latest kept."""
    best: dict[str, tuple[int, str]] = {}
    for game_id, settings, text in conn.execute(
            "SELECT game_id, settings, analysis FROM analyses WHERE perspective = 'referee' AND at = -1 "
            "AND rules = ? ORDER BY created, settings", (rules_fingerprint(),)):
        if game_id not in games:
            continue
        asked = json.loads(settings)
        plays = int(asked["worlds"]) * int(asked["rollouts"])
        if game_id not in best or plays >= best[game_id][0]:
            best[game_id] = (plays, text)
    return {game_id: text for game_id, (_plays, text) in best.items()}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _interval(values: list[float]) -> tuple[float, float] | None:
    """The normal 95% interval of the mean (None for fewer than two games)."""
    from math import sqrt

    from engine.intervals import Z

    n = len(values)
    if n < 2:
        return None
    mean = _mean(values)
    sd = sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z * sd / sqrt(n)
    return round(mean - half, 2), round(mean + half, 2)


@dataclass(frozen=True, slots=True)
class CardImpact:
    """What one card did in the analysed games of a ruleset: the mean change of its
    player's chance across the stretch of his decisions that played it (shared equally
    with the other cards of that stretch), with its 95% interval and n, beside the plain
    win rate of the players who played it."""

    card: str
    plays: int
    points: float
    interval: tuple[float, float] | None
    win_rate: float

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "plays": self.plays, "points": self.points, "interval": self.interval,
                "win_rate": self.win_rate}


def card_impact(store: Any, ruleset: str) -> tuple[list[CardImpact], int]:
    """Every card of ``ruleset`` played in the games the store keeps a whole-game referee's
    analysis of (today's engine; the one of most plays per game), most points first; and how
    many games that is. A card is named as the game's words name it."""
    from engine.corrections import Correction, Struck

    conn = store.conn
    install(conn)
    games = {r[0] for r in conn.execute("SELECT game_id FROM games WHERE ruleset = ?", (ruleset,))}
    best = _referee_analyses(conn, games)
    points: dict[str, list[float]] = {}
    wins: dict[str, list[float]] = {}
    for game_id, text in sorted(best.items()):
        found = json.loads(text)
        record = store.record(game_id)
        rs = get_ruleset(record.header.ruleset).for_game(record.header)
        effective, _bad = rs.effective(record.events)
        final = found["timeline"][-1]["chances"]["points"]
        shown = found["timeline"]
        for before, after in pairwise(shown):
            actor = after["actor"]
            if not isinstance(actor, int) or after["chance"]:
                continue
            named: list[str] = []
            for event in effective[before["seq"]:after["seq"]]:
                if type(event) in (Correction, Struck) or event.actor != actor:
                    continue
                named.extend(_cards_of(rs, event))
            if not named:
                continue
            delta = (after["chances"]["points"][actor] - before["chances"]["points"][actor]) / len(named)
            for card in named:
                points.setdefault(card, []).append(delta)
                wins.setdefault(card, []).append(final[actor] / 100.0)
    out = [CardImpact(card, len(values), round(_mean(values), 2), _interval(values),
                      round(_mean(wins[card]), 3)) for card, values in points.items()]
    out.sort(key=lambda c: (-c.points, c.card))
    return out, len(best)


def _cards_of(rs: Any, event: Any) -> list[str]:
    """The cards an event names, by the game's words (a field the ruleset calls a card field)."""
    out: list[str] = []
    for name, value in event_to_dict(event).items():
        if name in ("seq", "actor", "hash", "claims", "type") or not rs.is_card_field(name):
            continue
        for card in value if isinstance(value, list) else [value]:
            if card is not None and card != "?":
                # the card by name: its copies (their numbers or codes) count as one card
                out.append(rs.card_name(card))
    return out

