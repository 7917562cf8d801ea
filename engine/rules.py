"""Rules, rulebooks, violations and effects: the vocabulary every ruleset speaks.

A rule has an id such as ``BUN-LAY-2``, a one-line paraphrase in warren's own words and
the rulebook section it comes from. Every violation and every effect names its rule, so
a reader can grep one id and find the definition, the code that enforces it and the test
that shows it allowing and forbidding.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of a ruleset."""

    id: str
    """Stable id, ``<RULESET>-<TOPIC>-<n>``, e.g. ``BUN-LAY-2``."""
    text: str
    """A one-line paraphrase in warren's own words (never the rulebook's sentence)."""
    source: str
    """Where it comes from: rulebook file and section, or ``rulings.md#...`` for a ruling."""


class Rulebook(Mapping[str, Rule]):
    """The rules of one ruleset, looked up by id."""

    def __init__(self, title: str, source: str, rules: list[Rule]) -> None:
        self.title = title
        self.source = source
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            if rule.id in self._rules:
                raise ValueError(f"duplicate rule id {rule.id!r} in {title}")
            self._rules[rule.id] = rule

    def with_rules(self, extra: Iterable[Rule]) -> Rulebook:
        """This rulebook and ``extra`` rules (those it already has are kept as they are)."""
        return Rulebook(self.title, self.source, [*self._rules.values(),
                                                  *(r for r in extra if r.id not in self._rules)])

    def __getitem__(self, rule_id: str) -> Rule:
        try:
            return self._rules[rule_id]
        except KeyError:
            raise KeyError(f"no rule {rule_id!r} in the rulebook of {self.title}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)


class WarrenError(ValueError):
    """Base of every error warren reports to a user (never a programmer error)."""


class RuleViolation(WarrenError):
    """A well-formed event that the rules forbid at this position.

    ``facts`` are the facts of the position that decided it (top of the pile, the cards
    in hand...), so a verdict can say *why*, not only *which rule*.
    """

    def __init__(self, rule: str, message: str, **facts: Any) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.facts = facts
        self.seq: int | None = None


@dataclass(frozen=True, slots=True)
class Violation:
    """The first event the rules forbid in a game: where, by which rule, and why."""

    seq: int
    rule: str
    message: str
    facts: dict[str, Any] = field(default_factory=dict)


class Effect(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A consequence the engine derived from an event, citing the rule that caused it."""

    rule: str
    """The rule id that caused this change."""
    kind: str
    """What happened, e.g. ``bunny_scored``, ``pile_picked_up``, ``game_over``."""
    data: dict[str, Any] = {}
    """The particulars (seat, cards, score...)."""


NO_EFFECTS: tuple[Effect, ...] = ()
