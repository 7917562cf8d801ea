"""How the kit says no.

The kit knows the family's mechanics but not any one game's rule ids: the same "that
bunny is protected" is ``KBQ-MOD-2`` in Quest and something else in Odyssey. So kit
functions refuse with a :class:`Refusal` carrying a stable *code* (``circle.no_such_bunny``,
``units.short``...), a message and the facts that decided it; each game maps the codes to
its own rule ids (``as_violation``) and raises its :class:`~engine.rules.RuleViolation`.
Each game refuses by its own rules with :func:`refuse`, the family's one refusal helper.
A code a game has not mapped is a programmer error and surfaces loudly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from engine.rules import RuleViolation


class Refusal(Exception):
    """A kit mechanic refused: ``code`` says which, ``facts`` why."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.facts = facts


def refuse(rule: str, message: str, **facts: Any) -> NoReturn:
    """The one way a Killer Bunnies game says no: its rule ``rule`` forbids this, because
    ``message``, decided by ``facts``."""
    raise RuleViolation(rule, message, **facts)


def as_violation(refusal: Refusal, rules: Mapping[str, str]) -> RuleViolation:
    """The game's rule violation for a kit refusal, through the game's code -> rule id map."""
    rule = rules.get(refusal.code)
    if rule is None:
        raise KeyError(f"kit refusal {refusal.code!r} has no rule id in this game") from refusal
    return RuleViolation(rule, refusal.message, **refusal.facts)
