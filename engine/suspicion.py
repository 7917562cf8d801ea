"""Suspicion over a game: the "who could it be?" answer at the end of each round.

Only rulesets with secret teams answer it (they declare ``Capabilities.suspects``);
see engine/trust_no_bunny/suspects.py for the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.capabilities import Suspects
from engine.replay import Replay
from engine.rules import WarrenError
from engine.ruleset import Perspective, Ruleset


class NoSecretTeams(WarrenError):
    """The ruleset has no hidden teams to deduce."""


def suspects_of(ruleset: Ruleset[Any, Any]) -> Suspects[Any]:
    """The ruleset's "who could it be?" analysis (Capabilities.suspects)."""
    method = ruleset.capabilities.suspects
    if method is None:
        raise NoSecretTeams(f"{ruleset.slug} has no secret teams: there is nobody to suspect")
    return method


@dataclass(frozen=True, slots=True)
class RoundSuspicion:
    round: int
    seq: int
    """The position the answer is taken at: the last event of the round."""
    probabilities: dict[int, float]
    pairs: int
    """How many Werebunny pairs were still consistent then."""


def suspicion_by_round(
    replay: Replay[Any], perspective: Perspective, upto: int | None = None
) -> list[RoundSuspicion]:
    """The answer at the end of every round up to ``upto`` (default: the whole game)."""
    suspects = suspects_of(replay.ruleset)
    last = replay.last_seq if upto is None else min(upto, replay.last_seq)
    ends: dict[int, int] = {}
    # Each round ends at the last seq whose position still belongs to it.
    for seq in _round_boundaries(replay, last):
        state = replay.state_at(seq)
        ends[state.round] = seq
    out = []
    for round_, seq in sorted(ends.items()):
        report = suspects(replay.state_at(seq), perspective)
        out.append(RoundSuspicion(round_, seq, dict(report.probabilities), len(report.pairs)))
    return out


def _round_boundaries(replay: Replay[Any], last: int) -> list[int]:
    """Seqs just before each change of round, plus ``last`` (a binary search per round)."""
    seqs = []
    lo = 0
    final_round = replay.state_at(last).round
    current = replay.state_at(0).round
    while current < final_round:
        # The first seq whose round is above ``current``.
        a, b = lo, last
        while a < b:
            mid = (a + b) // 2
            if replay.state_at(mid).round > current:
                b = mid
            else:
                a = mid + 1
        seqs.append(a - 1)
        current = replay.state_at(a).round
        lo = a
    seqs.append(last)
    return [s for s in seqs if s >= 0]
