"""The legal actions of any seat at any position, readable and as events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.dispute.facts import position_dict, rule_ref
from engine.dispute.notation import check_seat, format_action
from engine.record import Event, event_to_dict
from engine.ruleset import GameState, Ruleset
from engine.wording import seat_label


@dataclass(slots=True)
class LegalActions:
    """What one seat may do at one position."""

    seat: int
    at: int
    position: dict[str, Any]
    actions: list[Event]
    notations: list[str]
    descriptions: list[str]
    note: str | None
    """Why the list is empty, when it is."""
    who: str = ""
    """The seat in words (its player's name), for :meth:`render`."""
    phase: str = ""
    """The phase in the table's words, for :meth:`render`."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "at": self.at,
            "seq": self.at + 1,
            "position": self.position,
            "actions": [event_to_dict(e) for e in self.actions],
            "notations": self.notations,
            "note": self.note,
        }

    def render(self) -> str:
        pos = self.position
        lines = [f"{self.who or f'seat {self.seat}'} after event {self.at} (turn {pos['turn']}, "
                 f"{self.phase or pos['phase']}): "
                 f"{len(self.actions)} legal action(s)"]
        lines += [f"  {n:<24} {d}" for n, d in zip(self.notations, self.descriptions, strict=True)]
        if self.note:
            lines.append(f"  ({self.note})")
        return "\n".join(lines)


def legal_at(ruleset: Ruleset[Any, Any], state: GameState, seat: int, *, n_seats: int,
             names: Sequence[str] | None = None) -> LegalActions:
    """Every action ``seat`` may record next at ``state``, readable (players by ``names``,
    when given) and as events."""
    check_seat(seat, n_seats)
    actions = ruleset.legal_actions(state, seat)
    note = None
    if not actions:
        to_act = ruleset.to_act(state)
        if state.over:
            ended = rule_ref(ruleset, ruleset.game_over_rule)
            note = f"the game is over ({ended.id}: {ended.text})"
        elif not to_act:
            note = "nobody acts next: the table (chance) does"
        elif seat not in to_act:
            note = (f"{seat_label(seat, names)} has nothing to do now; to act: "
                    + ", ".join(seat_label(s, names) for s in to_act))
        else:
            note = "no action is open to this seat here"
    return LegalActions(
        seat=seat, at=state.seq, position=position_dict(ruleset, state), actions=actions,
        notations=[format_action(ruleset, e) for e in actions],
        descriptions=[ruleset.describe(e, names, before=state) for e in actions], note=note,
        who=seat_label(seat, names), phase=ruleset.phase_text(str(position_dict(ruleset, state)["phase"])),
    )
