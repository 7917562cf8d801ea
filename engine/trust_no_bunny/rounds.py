"""How a round of Trust No Bunny goes on: the mayor and his office passing (TNB-DAY-3), the
muster closing, the night starting, a new round opening (TNB-MUSTER-1), the game ending
(TNB-END-1..4), and whether a Quirk is met (TNB-QUIRK-1..3). Every phase's handlers, the
known and the unknown alike, move the game on through these."""

from __future__ import annotations

from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.numbers import BRAVE, HOARDER, HOARDER_CARDS, HOMEBODY, HOMEBODY_NIGHTS, ROUNDS
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import EVERYBODY, NIGHTS, ask_one, night_decisions

QUIRK_RULE = {BRAVE: "TNB-QUIRK-1", HOMEBODY: "TNB-QUIRK-2", HOARDER: "TNB-QUIRK-3"}
"""The rule of each Quirk."""


def the_mayor(state: TnbState) -> int:
    """The mayor's seat: there is one from the deal of the roles on (TNB-SET-4)."""
    mayor = state.mayor
    if mayor is None:  # never once the roles are dealt, which every day phase follows
        raise RuleViolation("TNB-SET-4", "the roles, and the first mayor with them, are not dealt yet")
    return mayor


def start_round(state: TnbState) -> None:
    """A new round opens with its muster (TNB-MUSTER-1); the mayor moves on (TNB-DAY-3)."""
    n = state.n
    if state.round > 0:
        state.mayor = (the_mayor(state) + 1) % n
    state.round += 1
    state.turn = state.round
    state.phase = "muster"
    state.active = None
    state.agenda.decisions = EVERYBODY[n, "muster"].copy()  # table.ask_everybody, inline
    state.accused = [False] * n
    state.wolves = state.table.wolves[state.round - 1]
    state.team = None
    state.votes = [None] * n
    state.on_guard = [False] * n
    state.plays = [None] * n


def close_muster(state: TnbState) -> None:
    state.phase = "proposal"
    state.active = state.mayor
    ask_one(state, the_mayor(state), "propose")


def pass_mayor(state: TnbState) -> None:
    state.mayor = (the_mayor(state) + 1) % state.n
    state.phase = "proposal"
    state.active = state.mayor
    state.team = None
    state.votes = [None] * state.n
    ask_one(state, state.mayor, "propose")


def start_night(state: TnbState, team: list[int]) -> None:
    n = state.n
    on_guard = [False] * n
    for s in team:
        on_guard[s] = True
    state.on_guard = on_guard
    state.phase = "night"
    state.active = None
    state.plays = [None] * n
    # table.ask_night, inline: a guard at the Tower, everybody else at home.
    key = tuple(on_guard)
    waiting = NIGHTS.get(key)
    state.agenda.decisions = (night_decisions(key) if waiting is None else waiting).copy()


def finish(state: TnbState, winner: str, reason: str, rule: str, winners: list[int],
           effects: list[Effect]) -> None:
    """The game ends (TNB-END-1 from here on)."""
    state.over = True
    state.winner = winner
    state.reason = reason
    state.end_rule = rule
    state.winners = sorted(winners)
    state.phase = "over"
    state.active = None
    state.pending_loss = None
    state.agenda.decisions = {}
    effects.append(Effect(rule, "game_over", {"winner": winner, "reason": reason, "winners": state.winners}))


def quirk_met(state: TnbState, seat: int, hand_size: int | None = None) -> bool:
    """Has ``seat`` met its Quirk (TNB-QUIRK-1..3)? ``hand_size`` overrides the hand held."""
    quirk = state.quirks[seat]
    if quirk == BRAVE:
        return state.nights_guarded[seat] >= 1
    if quirk == HOMEBODY:
        return state.nights_home[seat] >= HOMEBODY_NIGHTS
    if quirk == HOARDER:
        size = state.hand_size(seat) if hand_size is None else hand_size
        return size >= HOARDER_CARDS
    return False


def ending(state: TnbState) -> tuple[str, str, str] | None:
    """Whether this dawn ends the game, from public facts alone: (winner, reason, rule)."""
    if state.wall == 0 and state.tower == 0:
        return "werebunnies", "defences_down", "TNB-END-2"
    if state.round >= ROUNDS:
        return "townsfolk", "town_survived", "TNB-END-3"
    if state.round == ROUNDS - 1 and state.early_end and state.wall > 0:
        return "townsfolk", "wall_held", "TNB-END-4"
    return None
