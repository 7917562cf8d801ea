"""warren's engine: pure, deterministic rules for the bunny card-game family.

No I/O, no storage, no randomness on replay. Simulators draw from a seeded generator and
record what they drew.
"""

from engine.record import Event, Header, Record, RecordError, read_record
from engine.registry import all_rulesets, get_ruleset
from engine.replay import Position, Replay, Violation, check_events
from engine.rules import Effect, Rule, Rulebook, RuleViolation, WarrenError
from engine.ruleset import GameState, Outcome, Ruleset

__all__ = [
    "Effect",
    "Event",
    "GameState",
    "Header",
    "Outcome",
    "Position",
    "Record",
    "RecordError",
    "Replay",
    "Rule",
    "RuleViolation",
    "Rulebook",
    "Ruleset",
    "Violation",
    "WarrenError",
    "all_rulesets",
    "check_events",
    "get_ruleset",
    "read_record",
]
