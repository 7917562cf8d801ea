"""A whole game analysed: the chances over it, its turning points, and what mattered.

- **The timeline**: every seat's chance (engine.analysis.chances) at the start of the
  game, of every turn, and at its end (or before its refused event).
- **Turning points**: where a seat's chance fell by :data:`INACCURACY` points or more from
  one turn's start to the next, labelled like a chess engine's notes (5 an inaccuracy, 10 a
  mistake, 15 a blunder). Each is looked at event by event: the chance after every event
  of the turn, and the change split into **luck** (chance events: draws, dice, deals,
  shuffles) and **decisions** (the seat's own, and the others').
- **The better move**: at a decision that cost its player :data:`COSTLY` points or more,
  the other legal actions (at most :data:`ALTERNATIVES`) are played out as well, and the
  best named, when the perspective may know them (the referee, or the player himself).
- **An illegal event**: every seat's chance at the position before it, the actor's legal
  actions there with theirs, and the remedy: the game taken back to that position.
- **Totals**: per seat, the points gained or lost by luck and by its own decisions over
  the events looked at (the turning points').

Every figure is a function of the record, the perspective and the settings; the positions
are evaluated through an :class:`Evaluator`, so a caller may spread them over processes
(logstore does) and get the same figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Protocol

import msgspec

from engine.analysis.chances import BOT, ROLLOUTS, WORLDS, Chances, chances
from engine.analysis.worlds import Knowledge, world_rng
from engine.capabilities import Perspective
from engine.corrections import Correction, Struck
from engine.record import Event, event_to_dict
from engine.rules import Violation, WarrenError

__all__ = ["ALTERNATIVES", "COSTLY", "INACCURACY", "Analysis", "Evaluator", "Job", "LocalEvaluator",
           "Settings", "analyse", "label"]

INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0
"""Drops of a seat's chance, in points, that make a turning point (and its label)."""
COSTLY = 10.0
"""A decision that cost its player this many points or more has its alternatives played."""
ALTERNATIVES = 8
"""At most this many other legal actions are played out at a costly decision."""


def label(drop: float) -> str | None:
    """What a fall of ``drop`` points is called (None below an inaccuracy)."""
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """How a game is analysed: the same settings give the same figures."""

    worlds: int = WORLDS
    rollouts: int = ROLLOUTS
    seed: int = 0
    bot: str = BOT

    def __post_init__(self) -> None:
        if self.worlds < 1 or self.rollouts < 1:
            raise WarrenError("an analysis needs at least one world and one rollout")


@dataclass(frozen=True, slots=True)
class Job:
    """One thing to evaluate: the chances after full-record event ``seq`` (and then after
    ``then``: what was played there with its chance drawn afresh, or an action tried instead)."""

    seq: int
    then: tuple[Event, ...] = ()


class Evaluator(Protocol):
    def __call__(self, jobs: Sequence[Job]) -> list[Chances]: ...


class LocalEvaluator:
    """Evaluates jobs in this process, in order."""

    def __init__(self, known: Knowledge, settings: Settings,
                 progress: Callable[[int], None] | None = None) -> None:
        self.known = known
        self.settings = settings
        self.progress = progress

    def __call__(self, jobs: Sequence[Job]) -> list[Chances]:
        states = self.known.states({job.seq for job in jobs})
        seats = len(self.known.header.players)
        s = self.settings
        out = []
        for job in jobs:
            out.append(chances(self.known.ruleset, states[job.seq], seats, worlds_n=s.worlds,
                               rollouts=s.rollouts, seed=s.seed, bot=s.bot, then=job.then))
            if self.progress is not None:
                self.progress(1)
        return out


@dataclass(slots=True)
class Analysis:
    """A game analysed from one perspective (see the module docstring); :meth:`to_dict` is
    what ``warren analyse --json`` prints and the store keeps."""

    game_id: str
    ruleset: str
    perspective: Perspective
    players: list[str]
    settings: Settings
    timeline: list[dict[str, Any]] = field(default_factory=list)
    turning_points: list[dict[str, Any]] = field(default_factory=list)
    totals: list[dict[str, Any]] = field(default_factory=list)
    illegal: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "ruleset": self.ruleset, "perspective": self.perspective,
                "players": self.players, "settings": msgspec.to_builtins(self.settings),
                "timeline": self.timeline, "turning_points": self.turning_points,
                "totals": self.totals, "illegal": self.illegal}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Analysis:
        return cls(data["game_id"], data["ruleset"], data["perspective"], list(data["players"]),
                   msgspec.convert(data["settings"], Settings), data["timeline"],
                   data["turning_points"], data["totals"], data["illegal"])


def turn_starts(known: Knowledge) -> list[int]:
    """The full-record seqs the timeline is drawn at: the start, the start of every turn,
    and the last position (turns are public: every perspective draws at the same seqs)."""
    ruleset = known.ruleset
    state = ruleset.setup(known.full_header)
    seqs = [0]
    turn = state.turn
    for i, event in enumerate(known.full, start=1):
        ruleset.apply(state, event)
        if state.turn != turn and i < len(known.full):
            seqs.append(i)
        turn = state.turn
    if seqs[-1] != len(known.full):
        seqs.append(len(known.full))
    return seqs


@dataclass(frozen=True, slots=True)
class Stretch:
    """Events in a row with one mover: one player's decisions, or chance (the table's
    markers of a correction go with the stretch they fall in). A stretch never runs over the
    start of a turn. The analysis looks at the position before and after each stretch: what
    changed in between is luck (chance's stretch) or that player's decisions."""

    first: int
    last: int
    actor: int | None
    chance: bool


def stretches(known: Knowledge, facts: dict[int, dict[str, Any]], starts: set[int]) -> list[Stretch]:
    out: list[Stretch] = []
    for q in range(1, len(known.full) + 1):
        fact = facts[q]
        marker = fact["actor"] is None and not fact["chance"]
        if out and (q - 1) not in starts and (marker or (fact["actor"], fact["chance"]) ==
                                              (out[-1].actor, out[-1].chance)):
            out[-1] = Stretch(out[-1].first, q, out[-1].actor, out[-1].chance)
        else:
            out.append(Stretch(q, q, fact["actor"], fact["chance"]))
    return out


def analyse(known: Knowledge, settings: Settings | None = None, *, at: int | None = None,
            evaluate: Evaluator | None = None) -> Analysis:
    """The analysis of the game ``known`` (see the module docstring). ``at`` (a full-record
    seq) evaluates that one position only, with no turning points."""
    settings = settings or Settings()
    evaluate = evaluate or LocalEvaluator(known, settings)
    ruleset = known.ruleset
    header = known.header
    names = [p.name for p in header.players]
    seats = len(names)
    out = Analysis(header.game_id, ruleset.slug, known.perspective, names, settings)
    last = len(known.full)
    if at is not None and not 0 <= at <= last:
        raise WarrenError(f"{header.game_id} has no event {at} to analyse after (0..{last})")
    facts = _facts(known)
    starts = set(turn_starts(known))
    runs = [] if at is not None else stretches(known, facts, starts)
    seqs = [at] if at is not None else [0, *(r.last for r in runs)]
    split = [] if at is not None else _to_split(known, settings, runs)
    results = evaluate([*(Job(s) for s in seqs),
                        *(Job(r.first - 1, then=tuple(known.full[r.first - 1:r.last])) for r in split)])
    values = dict(zip(seqs, results, strict=False))
    chosen = {r.first: c for r, c in zip(split, results[len(seqs):], strict=True)}
    out.timeline = [{**facts[s], "turn_start": s in starts, "chances": values[s].to_dict()} for s in seqs]
    if at is None:
        steps = _steps(runs, values, chosen, facts, seats)
        _turning_points(known, settings, evaluate, sorted(starts), values, steps, out)
        out.totals = _totals(steps, seats)
    if known.illegal is not None and known.illegal_seq is not None and (at is None or at == last):
        out.illegal = _illegal(known, settings, evaluate, values, names)
    return out


def _to_split(known: Knowledge, settings: Settings, runs: list[Stretch]) -> list[Stretch]:
    """The stretches whose change is split into decisions and the luck they met: a player's
    the perspective knows in full (the referee's, or the player's own), where chance is left
    once the decisions are made: a world the perspective cannot see all of, or an event
    with a random part (a blind steal). Elsewhere a player's stretch is all decisions."""
    ruleset = known.ruleset
    out = []
    wanted = [r for r in runs if r.actor is not None and known.perspective in ("referee", r.actor)]
    states = known.states({r.first - 1 for r in wanted})
    for run in wanted:
        before = states[run.first - 1]
        if getattr(before, "partial", False):
            out.append(run)
            continue
        world = ruleset.copy_state(before)
        for q in range(run.first, run.last + 1):
            event = known.full[q - 1]
            a = ruleset.randomize(world, event, world_rng(settings.seed, "split", q, 0))
            b = ruleset.randomize(world, event, world_rng(settings.seed, "split", q, 1))
            if _key(a) != _key(b) or _key(a) != _key(event):
                out.append(run)
                break
            ruleset.apply(world, event)
    return out


LONG = 4
"""A stretch of more events than this is said by its first ones and a count."""


def _steps(runs: list[Stretch], values: dict[int, Chances], chosen: dict[int, Chances],
           facts: dict[int, dict[str, Any]], seats: int) -> list[list[dict[str, Any]]]:
    """Per seat, every stretch's change of its chance, split into luck and decisions."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for run in runs:
        text = _joined([facts[q]["event"] for q in range(run.first, run.last + 1) if facts[q]["event"]])
        for seat in range(seats):
            before, after = values[run.first - 1].points[seat], values[run.last].points[seat]
            luck = decision = 0.0
            if run.chance:
                luck = after - before
            elif run.actor is None:
                pass  # only a correction's markers: they change no position
            elif run.first in chosen and chosen[run.first].plays:
                decision = chosen[run.first].points[seat] - before
                luck = after - chosen[run.first].points[seat]
            else:
                decision = after - before
            out[seat].append({"seq": run.last, "first_seq": run.first, "actor": run.actor,
                              "delta": round(after - before, 2), "luck": round(luck, 2),
                              "decision": round(decision, 2), "own": run.actor == seat, "event": text})
    return out


def _joined(parts: list[str]) -> str:
    """Sentences in a row, the first few of a long run and how many more (one event of the
    record may be written as many in a seat's: Quest's set-up and its draws)."""
    if len(parts) > LONG:
        parts = [*parts[:LONG - 1], f"and {len(parts) - LONG + 1} more events"]
    return "; ".join(parts)


def _facts(known: Knowledge) -> dict[int, dict[str, Any]]:
    """Public facts of every full-record position: turn, round, whose turn, and the event
    that led to it in the perspective's words."""
    ruleset = known.ruleset
    header = known.header
    names = [p.name for p in header.players]
    said: dict[int, list[str]] = {}
    state = ruleset.setup(header)
    for event, origin in zip(known.events, known.origin, strict=True):
        said.setdefault(origin, []).append(ruleset.describe(event, names, known.perspective, state))
        ruleset.apply(state, event)
    turns = known.states(range(len(known.full) + 1))
    out: dict[int, dict[str, Any]] = {}
    for seq in range(len(known.full) + 1):
        st = turns[seq]
        played = known.full[seq - 1] if seq else None
        # A correction or a struck event's marker changes nothing: nobody's decision, no luck.
        table = played is not None and type(played) in (Correction, Struck)
        actor = None if played is None or table else played.actor
        out[seq] = {"seq": seq, "turn": st.turn, "round": st.round, "active": st.active,
                    "actor": actor, "chance": seq > 0 and actor is None and not table,
                    "event": _joined(said.get(seq, [])) if seq else "the game starts"}
    return out


def _turning_points(known: Knowledge, settings: Settings, evaluate: Evaluator, starts: list[int],
                    values: dict[int, Chances], steps: list[list[dict[str, Any]]], out: Analysis) -> None:
    seats = len(out.players)
    turn_of = {p["seq"]: p["turn"] for p in out.timeline}
    costly: list[tuple[int, int, int, float]] = []
    for a, b in pairwise(starts):
        for seat in range(seats):
            drop = values[a].points[seat] - values[b].points[seat]
            if label(drop) is None:
                continue
            span = [st for st in steps[seat] if a < st["seq"] <= b]
            luck = sum(st["luck"] for st in span)
            own = sum(st["decision"] for st in span if st["own"])
            others = sum(st["decision"] for st in span if not st["own"])
            for st in span:
                if st["own"] and -st["decision"] >= COSTLY and known.perspective in ("referee", seat):
                    costly.append((st["first_seq"], st["seq"], seat, st["decision"]))
            out.turning_points.append({
                "seat": seat, "from_seq": a, "to_seq": b, "turn": turn_of[a],
                "drop": round(drop, 2), "label": label(drop), "luck": round(luck, 2),
                "decisions": round(own, 2), "others": round(others, 2), "steps": span,
                "best": None})
    for q, end, seat, delta in costly:
        best = _alternatives(known, settings, evaluate, q, end, seat, values)
        for tp in out.turning_points:
            if tp["seat"] == seat and tp["from_seq"] < q <= tp["to_seq"] and tp["best"] is None:
                played = next(st for st in steps[seat] if st["first_seq"] == q)
                tp["best"] = {"seq": q, "played": played["event"], "played_delta": delta, **best}


def _alternatives(known: Knowledge, settings: Settings, evaluate: Evaluator, first: int, last: int,
                  seat: int, values: dict[int, Chances]) -> dict[str, Any]:
    """The actor's other legal actions at his first real choice in events ``first``..``last``
    (the first position there where he had more than one), each played out from the
    stretch's start: the events before the choice as they were, then the other action."""
    ruleset = known.ruleset
    states = known.states(range(first - 1, last))
    for q in range(first, last + 1):
        before = states[q - 1]
        world = ruleset.sample_world(before, world_rng(settings.seed, "alternatives", q))
        played_key = _key(known.full[q - 1])
        actions = [a for a in ruleset.legal_actions(world, seat) if _key(a) != played_key]
        if actions:
            break
    else:
        return {"alternatives": [], "best": None, "best_delta": None}
    options = _played_out(known, evaluate, first - 1, tuple(known.full[first - 1:q - 1]),
                          actions[:ALTERNATIVES], seat, values[first - 1].points[seat], before)
    best = options[0] if options else None
    return {"at": q, "alternatives": options, "best": best["action"] if best else None,
            "best_delta": best["delta"] if best else None}


def _played_out(known: Knowledge, evaluate: Evaluator, seq: int, forced: tuple[Event, ...],
                actions: list[Event], seat: int, base: float, before: Any) -> list[dict[str, Any]]:
    """Each of ``actions`` played out from the position after event ``seq`` (after the
    ``forced`` events as they were), the seat's change of chance from ``base``, best first;
    an action no world could play is left out."""
    names = [p.name for p in known.header.players]
    tried = evaluate([Job(seq, then=(*forced, a)) for a in actions])
    options: list[dict[str, Any]] = [{"action": known.ruleset.describe(a, names, known.perspective, before),
                "delta": round(r.points[seat] - base, 2), "plays": r.plays}
               for a, r in zip(actions, tried, strict=True) if r.plays]
    options.sort(key=lambda o: -o["delta"])
    return options


def _key(event: Event) -> str:
    fields = event_to_dict(event)
    for k in ("seq", "hash", "claims"):
        fields.pop(k, None)
    return msgspec.json.encode(fields, order="sorted").decode()


def _illegal(known: Knowledge, settings: Settings, evaluate: Evaluator, values: dict[int, Chances],
             names: list[str]) -> dict[str, Any]:
    assert known.illegal is not None and known.illegal_seq is not None
    ruleset = known.ruleset
    before_seq = known.illegal_seq - 1
    if before_seq not in values:
        values[before_seq] = evaluate([Job(before_seq)])[0]
    violation = known.illegal
    actor = known.illegal_actor
    # A seat or the table learns of a refusal only as much as it may (Ruleset.violation_view).
    seen = ruleset.violation_view(Violation(known.illegal_seq, violation.rule, violation.message,
                                            dict(violation.facts)), known.perspective, actor)
    out: dict[str, Any] = {
        "seq": known.illegal_seq, "rule": seen.rule, "message": ruleset.say(seen.message, names),
        "actor": actor, "before": values[before_seq].to_dict(), "remedy_seq": before_seq,
        "remedy": f"take the game back to the position after event {before_seq}, before the refused "
                  f"event {known.illegal_seq}, and play on from there",
        "alternatives": [], "best": None,
    }
    if actor is not None and known.perspective in ("referee", actor):
        out.update(_alternatives_at(known, settings, evaluate, before_seq, actor, values))
    return out


def _alternatives_at(known: Knowledge, settings: Settings, evaluate: Evaluator, seq: int, seat: int,
                     values: dict[int, Chances]) -> dict[str, Any]:
    """The seat's legal actions at the position after event ``seq``, played out."""
    before = known.states([seq])[seq]
    world = known.ruleset.sample_world(before, world_rng(settings.seed, "alternatives", seq + 1))
    actions = known.ruleset.legal_actions(world, seat)[:ALTERNATIVES]
    options = _played_out(known, evaluate, seq, (), actions, seat, values[seq].points[seat], before)
    return {"alternatives": options, "best": options[0]["action"] if options else None}


def _totals(steps: list[list[dict[str, Any]]], seats: int) -> list[dict[str, Any]]:
    """Per seat, over the whole game: points by luck, by its own decisions, by the others'."""
    return [{"seat": s, "luck": round(sum(st["luck"] for st in steps[s]), 2),
             "decisions": round(sum(st["decision"] for st in steps[s] if st["own"]), 2),
             "others": round(sum(st["decision"] for st in steps[s] if not st["own"]), 2),
             "stretches": len(steps[s])} for s in range(seats)]


def what_it_changes(known: Knowledge, seq: int, action: Event, settings: Settings | None = None,
                    evaluate: Evaluator | None = None) -> dict[str, Any]:
    """Every seat's chance at the position after event ``seq``, and after ``action`` taken
    there instead (a proposed action, or the refused one itself): what ``dispute verdict``
    shows beside its verdict. An action refused in every world changes nothing: ``after``
    is None, and the remedy is the position itself."""
    settings = settings or Settings()
    evaluate = evaluate or LocalEvaluator(known, settings)
    if not 0 <= seq <= len(known.full):
        raise WarrenError(f"{known.header.game_id} has no event {seq} to look after (0..{len(known.full)})")
    before, after = evaluate([Job(seq), Job(seq, then=(action,))])
    changed = None if after.plays == 0 else [round(a - b, 2) for a, b in zip(after.points, before.points,
                                                                           strict=True)]
    return {"seq": seq, "before": before.to_dict(), "after": None if after.plays == 0 else after.to_dict(),
            "change": changed, "settings": msgspec.to_builtins(settings)}
