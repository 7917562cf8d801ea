"""Carrot Nim, the smallest game that uses every part of warren's ruleset contract.

A coin decides who starts (chance, recorded); then each player in turn takes one, two or
three carrots from a shared pile; whoever takes the last carrot wins.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, ClassVar

import msgspec

from engine.pending import NOTHING, Agenda, Chance, Decision
from engine.record import Event, Header
from engine.rules import NO_EFFECTS, Effect, Rule, Rulebook, RuleViolation, WarrenError
from engine.ruleset import GameState, Outcome, Perspective, Ruleset

RULES = Rulebook("Carrot Nim", "warren_example", [
    Rule("NIM-START-1", "A coin toss, recorded, picks the player who takes first.", "example"),
    Rule("NIM-TAKE-1", "On your turn take one, two or three carrots from the pile.", "example"),
    Rule("NIM-TAKE-2", "You cannot take more carrots than the pile holds.", "example"),
    Rule("NIM-TURN-1", "Players take in seat order, one take a turn.", "example"),
    Rule("NIM-END-1", "Whoever takes the last carrot wins, and the game ends.", "example"),
])


class NimOptions(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    # Every option is bounded on its type (engine.options): the contract suite checks it.
    carrots: Annotated[int, msgspec.Meta(ge=5, le=100)] = 15
    """Carrots in the pile at the start (5 to 100)."""


class Toss(Event, tag="toss", frozen=True):
    """Chance: the seat that takes first (NIM-START-1)."""

    first: int


class Take(Event, tag="take", frozen=True):
    """A player takes carrots from the pile (NIM-TAKE-1)."""

    n: int


class NimState(GameState):
    __slots__ = ("pile", "taken", "winner")

    pile: int
    taken: list[int]
    winner: int | None


class CarrotNim(Ruleset[NimState, NimOptions]):
    slug: ClassVar[str] = "carrot-nim"
    title: ClassVar[str] = "Carrot Nim (example plugin)"
    rulebook = RULES
    min_players = 2
    max_players = 4
    state_type = NimState
    options_type = NimOptions
    event_types = (Toss, Take)
    game_over_rule = "NIM-END-1"
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "take": "taking carrots"}

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        if not 5 <= self.options(header).carrots <= 100:
            raise WarrenError("bad option for carrot-nim: carrots must be 5..100")

    def build_handlers(self) -> dict[Any, Any]:
        return {Toss: self._toss, Take: self._take}

    def setup(self, header: Header) -> NimState:
        state = NimState()
        state._init_position()
        state.pile = self.options(header).carrots
        state.taken = [0] * len(header.players)
        state.winner = None
        return state

    def copy_state(self, state: NimState) -> NimState:
        new = NimState()
        for name in ("seq", "round", "turn", "phase", "active", "over", "pile", "winner"):
            setattr(new, name, getattr(state, name))
        new.taken = state.taken[:]
        return new

    def _toss(self, state: NimState, event: Toss) -> tuple[Effect, ...]:
        if state.over:
            raise RuleViolation("NIM-END-1", "the game is already over")
        if state.phase != "setup" or event.actor is not None or not 0 <= event.first < len(state.taken):
            raise RuleViolation("NIM-START-1", "one recorded toss before the first take picks a seat")
        state.phase, state.active, state.turn, state.round = "take", event.first, 1, 1
        return NO_EFFECTS

    def _take(self, state: NimState, event: Take) -> tuple[Effect, ...]:
        if state.over:
            raise RuleViolation("NIM-END-1", "the game is already over")
        if state.phase != "take" or event.actor != state.active:
            raise RuleViolation("NIM-TURN-1", f"it is seat {state.active}'s turn", active=state.active)
        if not 1 <= event.n <= 3:
            raise RuleViolation("NIM-TAKE-1", f"take 1 to 3 carrots, not {event.n}")
        if event.n > state.pile:
            raise RuleViolation("NIM-TAKE-2", f"the pile holds {state.pile}", pile=state.pile)
        seat = event.actor
        state.pile -= event.n
        state.taken[seat] += event.n
        if state.pile == 0:
            state.over, state.phase, state.active, state.winner = True, "over", None, seat
            return (Effect("NIM-END-1", "game_over", {"winner": seat}),)
        n = len(state.taken)
        state.active = (seat + 1) % n
        state.turn += 1
        state.round = (state.turn + n - 1) // n
        return NO_EFFECTS

    def pending(self, state: NimState) -> Agenda:
        if state.over:
            return NOTHING
        if state.phase == "setup":
            return Agenda(chance=Chance(kind="toss", rule="NIM-START-1"))
        seat: int = state.active  # type: ignore[assignment]
        return Agenda(decisions={seat: Decision(seat=seat, kind="take", rule="NIM-TAKE-1")})

    def decision_actions(self, state: NimState, decision: Decision) -> list[Event]:
        return [Take(seq=state.seq + 1, actor=decision.seat, n=n) for n in (1, 2, 3) if n <= state.pile]

    def sample_chance(self, state: NimState, owed: Chance, rng: random.Random) -> Event | None:
        return Toss(seq=state.seq + 1, actor=None, first=rng.randrange(len(state.taken)))

    def view(self, state: NimState, perspective: Perspective) -> dict[str, Any]:
        return {**state.position_view(perspective), "pile": state.pile, "taken": state.taken[:],
                "winner": state.winner}

    def outcome(self, state: NimState) -> Outcome | None:
        if not state.over or state.winner is None:
            return None
        return Outcome(winners=[state.winner], scores=state.taken[:], reason="last_carrot", rule="NIM-END-1")


RULESET = CarrotNim()
