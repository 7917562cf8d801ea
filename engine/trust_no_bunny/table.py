"""Guards and helpers every step of Trust No Bunny shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.pending import Decision
from engine.record import Event
from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.state import TnbState
from engine.wording import and_list

GAME_OVER = "TNB-END-1"

DECISION_RULES: dict[str, str] = {
    "item": "TNB-ITEM-3",
    "muster": "TNB-MUSTER-1",
    "propose": "TNB-DAY-1",
    "vote": "TNB-VOTE-1",
    "guard": "TNB-GUARD-1",
    "home": "TNB-HOME-1",
}
"""Every decision a seat owes in Trust No Bunny, and the rule that asks for it."""

_DECISIONS: dict[tuple[int, str], Decision] = {
    (seat, kind): Decision(seat=seat, kind=kind, rule=rule)
    for seat in range(8) for kind, rule in DECISION_RULES.items()
}
EVERYBODY: dict[tuple[int, str], dict[int, Decision]] = {
    (n, kind): {s: _DECISIONS[s, kind] for s in range(n)}
    for n in range(1, 9) for kind in DECISION_RULES
}
"""The whole table owing one kind of decision, ready to copy (a step opens several times a
round, so the dict is built once per player count, not per step)."""
_ONE: dict[tuple[int, str], dict[int, Decision]] = {
    (seat, kind): {seat: decision} for (seat, kind), decision in _DECISIONS.items()
}


def ask(state: TnbState, seats: Iterable[int], kind: str) -> None:
    """The game now waits for a ``kind`` decision from each of ``seats`` (engine.pending)."""
    state.agenda.decisions = {s: _DECISIONS[s, kind] for s in seats}


def ask_everybody(state: TnbState, kind: str) -> None:
    """The game now waits for a ``kind`` decision from every seat (a simultaneous step)."""
    state.agenda.decisions = EVERYBODY[state.n, kind].copy()


def ask_one(state: TnbState, seat: int, kind: str) -> None:
    """The game now waits for one seat's ``kind`` decision (the mayor's proposal)."""
    state.agenda.decisions = _ONE[seat, kind].copy()


NIGHTS: dict[tuple[bool, ...], dict[int, Decision]] = {}
"""The night's decisions per table of guards (who is on guard, seat by seat), built the
first time a table has that night and copied after (at most 2**8 of them per player count)."""


def ask_night(state: TnbState) -> None:
    """Every seat acts tonight: a guard at the Tower, everybody else at home."""
    key = tuple(state.on_guard)
    waiting = NIGHTS.get(key)
    if waiting is None:
        waiting = night_decisions(key)
    state.agenda.decisions = waiting.copy()


def night_decisions(key: tuple[bool, ...]) -> dict[int, Decision]:
    """The night's decisions for a table of guards (``key``: on guard or not, seat by seat),
    kept in ``NIGHTS`` for the next night with that table (a caller copies it)."""
    waiting = NIGHTS[key] = {s: _DECISIONS[s, "guard" if guard else "home"]
                              for s, guard in enumerate(key)}
    return waiting


def settled(state: TnbState, seat: int) -> None:
    """``seat`` has made the decision it owed."""
    del state.agenda.decisions[seat]


def refuse_if_over(state: TnbState) -> None:
    if state.over:
        # TNB-END-1: nothing happens after the end.
        raise RuleViolation(GAME_OVER, "the game is already over", winner=state.winner)


def require_player(event: Event, rule: str) -> int:
    """The acting seat of a player's event (a player's action never has a null actor)."""
    seat = event.actor
    if seat is None:
        raise no_actor(event, rule)
    return seat


def no_actor(event: Event, rule: str) -> RuleViolation:
    """The refusal of a player's event recorded without its actor (handlers check
    ``event.actor is None`` inline and raise this)."""
    return RuleViolation(rule, f"a {event.__struct_config__.tag} is a player's action and "
                         "needs an actor seat")


def require_chance(event: Event, rule: str) -> None:
    if event.actor is not None:
        raise RuleViolation(rule, f"a {event.__struct_config__.tag} is chance, recorded with a "
                            "null actor", actor=event.actor)


def card_counts(cards: Sequence[int | str], rule: str, what: str) -> list[int]:
    """Counts per value of ``cards``; refuses a value that is not a card (1 to 4).

    Counted at C speed (``list.count``); when the counts do not add up to the cards, one of
    them is not a card value, and the loop below finds which. (Events are decoded strictly,
    so a card is an int: a bool or a float never reaches here to be counted as 1.)"""
    counts = [0, cards.count(1), cards.count(2), cards.count(3), cards.count(4)]
    if counts[1] + counts[2] + counts[3] + counts[4] != len(cards):
        for card in cards:
            if type(card) is not int or not 1 <= card <= 4:
                raise RuleViolation(rule, f"{card!r} is not a card value (1 to 4) in {what}",
                                    cards=list(cards))
    return counts


def require_in_hand(state: TnbState, seat: int, counts: list[int], rule: str, cards: list[int]) -> None:
    hand = state.hands[seat]
    for v in (1, 2, 3, 4):
        if counts[v] > hand[v]:
            raise RuleViolation(rule, f"seat {seat} does not hold {guard_cards(sorted(cards))}",
                                cards=sorted(cards), hand=hand_list(hand))


def move_to_discard(state: TnbState, seat: int, counts: list[int]) -> None:
    hand = state.hands[seat]
    discard = state.discard
    for v in (1, 2, 3, 4):
        c = counts[v]
        if c:
            hand[v] -= c
            discard[v] += c


def hand_list(hand: list[int]) -> list[int]:
    """A hand of counts as the sorted list of its card values."""
    return [v for v in (1, 2, 3, 4) for _ in range(hand[v])]


def has_item(state: TnbState, seat: int, item: str) -> bool:
    """Does ``seat`` hold ``item``, not lost on an earlier night (TNB-ITEM-9)?"""
    return state.items[seat] == item and not state.item_lost[seat]


def is_seat(state: TnbState, seat: object) -> bool:
    return type(seat) is int and 0 <= seat < state.n


STAGE_EFFECTS: dict[str, str] = {
    "night_resolved": "TNB-RES-1",
    "wall_damaged": "TNB-RES-2",
    "wall_fell": "TNB-RES-2",
    "tower_damaged": "TNB-RES-3",
}
"""The effects of a night's stage and the rule deciding each (R-TNB-19)."""


def _bears_out(claim: dict[str, Any], effect: Effect) -> bool:
    for key, value in claim.items():
        if key == "effect":
            if value != effect.kind:
                return False
        elif key == "rule":
            if value != effect.rule:
                return False
        elif key not in effect.data or effect.data[key] != value or type(effect.data[key]) is not type(value):
            return False
    return True


def check_stage_claims(claims: list[dict[str, Any]], stage: tuple[Effect, ...] | None,
                       tower_open: bool = True) -> None:
    """Claims about the night's stage are what the table was shown, so the fold checks them
    (R-TNB-19): one the rules do not bear out makes the event illegal under the rule that
    decides that part of the stage. ``stage`` is None for an event that ends no night.
    Claims of any other kind are left to the dispute tools (disputed, not illegal)."""
    for claim in claims:
        kind = claim.get("effect")
        if kind not in STAGE_EFFECTS:
            continue
        rule = STAGE_EFFECTS[kind]
        if stage is None:
            raise RuleViolation(rule, f"the record claims {kind}, but this event ends no night",
                                claim=dict(claim))
        if not any(_bears_out(claim, effect) for effect in stage):
            if kind == "tower_damaged" and not tower_open:
                # TNB-RES-3: no Tower damage before the night after the Wall fell.
                raise RuleViolation(rule, "the record claims damage to the Tower, but the Tower "
                                    "cannot be damaged while the Wall stands or on the night it "
                                    "falls", claim=dict(claim))
            derived = [_show({"effect": e.kind, **e.data}) for e in stage]
            raise RuleViolation(rule, f"the record claims {_show(claim)}; the stage the rules give "
                                f"is {'; '.join(derived)}", claim=dict(claim), derived=derived)


def _show(claim: dict[str, Any]) -> str:
    """A stage as a sentence reads it: ``night resolved (unblocked 0)``."""
    rest = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in claim.items() if k != "effect")
    what = str(claim["effect"]).replace("_", " ")
    return f"{what} ({rest})" if rest else what


def guard_cards(values: list[int]) -> str:
    """Cards by their values as the table says them: ``a 4``, ``the cards 2, 4 and 4``."""
    if len(values) == 1:
        return f"a {values[0]}"
    return "the cards " + and_list([str(v) for v in values])


def require_night(state: TnbState, seat: int) -> None:
    if state.phase != "night":
        # TNB-NIGHT-1: night actions only at night.
        raise RuleViolation("TNB-NIGHT-1", "it is not night", phase=state.phase)
    if seat not in state.agenda.decisions:
        # TNB-NIGHT-1: every player acts once a night.
        raise RuleViolation("TNB-NIGHT-1", f"seat {seat} has already acted tonight", seat=seat)


def require_other_seat(state: TnbState, seat: int, target: object, rule: str, what: str) -> None:
    if not is_seat(state, target) or target == seat:
        raise RuleViolation(rule, f"{what} names another player of the game, not {target!r}",
                            target=target)
