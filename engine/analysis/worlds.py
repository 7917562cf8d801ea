"""What a perspective knows of a game at each position, and the worlds that agree with it.

A seat knows the game as its own record tells it: the record redacted to that seat
(engine.redact), where every card it never saw is unknown. The table (``"spectator"``)
knows what was played in the open. The referee knows the record as it is, which for a game
recorded at the table may itself leave cards unknown. Replaying that record to a position
gives a position that may leave things unknown, with the pool of what nobody has seen
(engine.hidden); a *world* is a complete position drawn from it by the ruleset
(:meth:`engine.ruleset.Ruleset.sample_world`), every arrangement of the unseen cards as
likely as another, as after a fair shuffle.

What a world agrees with: every card the perspective has seen, where it is now, and how
many cards each hidden place holds. What it does not use: what a player's past choices
suggest of his hand (a player who picked the pile up had nothing he could lay), which
would need a model of how people play. docs/analysis.md says so among the method's limits.

The sampler reads the perspective's record only: the full record is read once, to write
that record (and to find where an illegal event stops the game), so nothing hidden from
the perspective can reach a world (a test swaps hidden cards and compares the worlds).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.capabilities import Perspective
from engine.record import Event, Header
from engine.redact import redact_mapped
from engine.rules import RuleViolation, WarrenError
from engine.ruleset import GameState, Ruleset

__all__ = ["Knowledge", "knowledge", "world_rng", "worlds"]


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A game as one perspective knows it: its own record and where that record's events
    come from in the full one."""

    ruleset: Ruleset[Any, Any]
    header: Header
    """The perspective's header (``source: "recorded"`` for a seat or the table)."""
    events: list[Event]
    """The perspective's events, up to the first illegal event (excluded)."""
    origin: list[int]
    """For each of :attr:`events`, the seq of the full record's event it comes from."""
    perspective: Perspective
    illegal: RuleViolation | None
    """The refusal that ends the game early, if the record has one."""
    illegal_seq: int | None
    """The seq (in the full record's effective events) of the refused event."""
    full: list[Event]
    """The full record's effective events before the refused one: read for public facts only
    (who acted, whether it was chance, where turns start), never for a world."""
    full_header: Header
    """The full record's header (the one :attr:`full` replays from)."""
    illegal_actor: int | None
    """Who played the refused event (None for chance or none)."""

    positions: list[GameState] = field(default_factory=list, compare=False, repr=False)
    """Every position of the perspective's record, worked out once when first asked for."""

    def index_of(self, seq: int) -> int:
        """How many events of the perspective's record stand for the full record's first
        ``seq`` events (a table form may write several for one)."""
        return bisect_right(self.origin, seq)

    def states(self, seqs: Iterable[int]) -> dict[int, GameState]:
        """The perspective's position after each full-record seq in ``seqs``: shared by every
        caller (the record is folded once), so a caller that changes one changes a copy."""
        if not self.positions:
            ruleset = self.ruleset
            state = ruleset.setup(self.header)
            self.positions.append(ruleset.copy_state(state))
            for event in self.events:
                ruleset.apply(state, event)
                self.positions.append(ruleset.copy_state(state))
        return {seq: self.positions[self.index_of(seq)] for seq in seqs}


def knowledge(ruleset: Ruleset[Any, Any], header: Header, events: Sequence[Event],
              perspective: Perspective = "referee") -> Knowledge:
    """What ``perspective`` knows of the game: see the module docstring."""
    # The events as replay folds them: a correction's replacement in place of the event it
    # corrects, a struck event as a marker that changes nothing, so seq N here is event N of
    # the record (what the dashboard and `warren replay` number).
    effective, _bad = ruleset.effective(events)
    played = list(effective)
    ruleset = ruleset.for_game(header)
    state = ruleset.setup(header)
    illegal: RuleViolation | None = None
    illegal_seq: int | None = None
    illegal_actor: int | None = None
    for i, event in enumerate(played):
        try:
            ruleset.apply(state, event)
        except RuleViolation as exc:
            illegal, illegal_seq, illegal_actor = exc, i + 1, event.actor
            played = played[:i]
            break
    if perspective == "referee":
        return Knowledge(ruleset, header, list(played), list(range(1, len(played) + 1)), perspective,
                         illegal, illegal_seq, list(played), header, illegal_actor)
    if isinstance(perspective, int) and not 0 <= perspective < len(header.players):
        raise WarrenError(f"seat {perspective} is not at this table (0..{len(header.players) - 1})")
    seen_header, seen, origin = redact_mapped(ruleset, header, list(played), perspective)
    # redact_mapped numbers the effective events it was given from 0.
    return Knowledge(ruleset, seen_header, seen, [o + 1 for o in origin], perspective,
                     illegal, illegal_seq, list(played), header, illegal_actor)


def world_rng(seed: int, *parts: object) -> random.Random:
    """The generator of one world or one rollout: a function of the seed and where it is
    used only, so that any process computing it draws the same."""
    return random.Random(":".join(["warren-analysis", str(seed), *map(str, parts)]))


def worlds(ruleset: Ruleset[Any, Any], known: GameState, count: int, seed: int,
           key: object = 0) -> list[GameState]:
    """``count`` worlds agreeing with the position ``known`` (see the module docstring)."""
    return [ruleset.sample_world(known, world_rng(seed, key, "world", w)) for w in range(count)]
