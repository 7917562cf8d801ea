"""Rules, effects and the facts of a position as plain, JSON-ready data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.dispute.notation import json_token
from engine.replay import position_of
from engine.rules import Effect
from engine.ruleset import HIDDEN_RULE, HIDDEN_VIOLATION, GameState, Ruleset

FACT_WIDTH = 60
"""A public fact longer than this (as compact JSON) is summarised or left out of a verdict."""


def plain(value: Any) -> Any:
    """JSON-ready builtins (sets become sorted lists, structs dicts)."""
    try:
        out = msgspec.to_builtins(value, order="sorted")
    except TypeError:
        return repr(value)
    return out


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A rule as a verdict cites it."""

    id: str
    text: str
    source: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "text": self.text, "source": self.source}


def rule_ref(ruleset: Ruleset[Any, Any], rule_id: str) -> RuleRef:
    if rule_id == HIDDEN_RULE:  # a violation whose rule would tell this perspective a secret
        return RuleRef(rule_id, HIDDEN_VIOLATION, "")
    try:
        rule = ruleset.rulebook[rule_id]
    except KeyError:
        return RuleRef(rule_id, f"(no rule {rule_id} in the rulebook of {ruleset.slug})", "")
    return RuleRef(rule.id, rule.text, rule.source)


@dataclass(frozen=True, slots=True)
class EffectNote:
    """An effect with the paraphrase of the rule that caused it."""

    rule: str
    kind: str
    data: dict[str, Any]
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "kind": self.kind, "data": self.data, "text": self.text}

    def line(self) -> str:
        data = ", ".join(f"{k}={brief_text(v)}" for k, v in self.data.items())
        return f"{self.kind} [{self.rule}]" + (f" ({data})" if data else "") + f": {self.text}"


def effect_said(ruleset: Ruleset[Any, Any], note: EffectNote, names: Sequence[str],
                paraphrase: bool = True) -> str:
    """An effect as a person reads it: ``card stopped [RULE] (by: Ann; card: Area 51 (134)):
    the rule's paraphrase`` (without it, for a line of many); its data stays as it is under
    ``--json``. A message among the facts (another reading's refusal) is said in the
    table's words too."""
    facts = "; ".join(
        ruleset.describe_fact(k, ruleset.say(v, names) if k.endswith("message") and isinstance(v, str)
                              else v, names)
        for k, v in note.data.items() if not _is_hash(k))
    kind = note.kind.replace("_", " ")
    said = f"{kind} [{note.rule}]" + (f" ({facts})" if facts else "")
    return f"{said}: {note.text}" if paraphrase else said


def _is_hash(key: str) -> bool:
    """A hash (of a deck file, an event) is for machines: ``--json`` carries it, words do not."""
    return key == "hash" or key.endswith("_hash")


def effect_notes(ruleset: Ruleset[Any, Any], effects: Iterable[Effect]) -> list[EffectNote]:
    return [EffectNote(e.rule, e.kind, plain(e.data), rule_ref(ruleset, e.rule).text) for e in effects]


def position_dict(ruleset: Ruleset[Any, Any], state: GameState) -> dict[str, Any]:
    """Where the game stands: seq, round, turn, phase, whose turn, who may act, over."""
    out: dict[str, Any] = plain(position_of(state))
    out["to_act"] = list(ruleset.to_act(state))
    return out


_POSITION_KEYS = frozenset({"perspective", "seq", "round", "turn", "phase", "active", "over"})


def _brief(value: Any) -> Any:
    """A public fact short enough for a verdict, or None to leave it out."""
    data = plain(value)
    if len(json_token(data)) <= FACT_WIDTH:
        return data
    if isinstance(data, list) and plain_values(data):
        # A long run of cards: its size and its last few (the top of a pile is last).
        return {"count": len(data), "last": data[-3:]}
    return None


def position_facts(ruleset: Ruleset[Any, Any], state: GameState) -> dict[str, Any]:
    """A few public facts of a position: short entries of the spectator's view (no hidden
    information, so a verdict can be shown to the whole table) and the ruleset's key
    figures."""
    facts: dict[str, Any] = {}
    for key, value in ruleset.view(state, "spectator").items():
        if key in _POSITION_KEYS:
            continue
        brief = _brief(value)
        if brief is not None and brief not in ([], {}):  # an empty list says little
            facts[key] = brief
    shown = [json_token(v) for v in facts.values()]
    for key, value in ruleset.key_figures(state).items():
        figure = plain(value)
        if key not in facts and json_token(figure) not in shown:  # no fact twice under two names
            facts[key] = figure
    return facts


def brief_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json_token(plain(value))


def plain_values(values: Sequence[Any]) -> bool:
    return all(not isinstance(v, list | dict) for v in values)


def short(text: str, width: int = 100) -> str:
    """One line of at most ``width`` characters (a deal's description is long)."""
    return text if len(text) <= width else text[: width - 3] + "..."
