"""Ruleset ``bunnies``: the two-player shedding game with blind cards and bunnies.

Read it like the rulebook: numbers (the game's counts), layout (the blind cards), options,
rulebook (rule ids), events, state, handlers (what each event does), agenda (the legal
actions), unknowns (a game recorded at the table), worlds (a position's unseen cards dealt
out whole, for the analysis of a game), views (what each perspective sees, and
the record it could have written), words (the game in words), render (the terminal's
picture), bots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.bunnies import bots, words, worlds
from engine.bunnies.agenda import decision_actions
from engine.bunnies.events import EVENT_TYPES, Deal, Steal
from engine.bunnies.handlers import HANDLERS
from engine.bunnies.layout import OWN_SLOTS, is_uncovered
from engine.bunnies.numbers import BLINDS_PER_SEAT, DECK, MAX_HAND_SIZE, SHARED_BLINDS
from engine.bunnies.options import OPTION_HELP, BunniesOptions
from engine.bunnies.render import render
from engine.bunnies.rulebook import RULES
from engine.bunnies.state import BunniesState
from engine.bunnies.views import BunniesView, redact, view
from engine.capabilities import Capabilities
from engine.pending import NOTHING, Agenda, Chance, Decision
from engine.record import Event, Header
from engine.rules import Effect, WarrenError
from engine.ruleset import Outcome, Perspective, Ruleset
from engine.wording import REFUSED_DOINGS, Names

_OWN_SETS = (frozenset(OWN_SLOTS[0]), frozenset(OWN_SLOTS[1]))
"""Each seat's own blind slots, for counting what is left."""


_DEAL = Chance(kind="deal", rule="BUN-DEAL-1")
_DECISIONS = {
    # The step of a go decides what the active player owes (BUN-DRAW-1, BUN-LAY-1, BUN-BUNNY-1).
    (seat, phase): Decision(seat=seat, kind=phase, rule=rule)
    for seat in (0, 1)
    for phase, rule in (("draw", "BUN-DRAW-1"), ("lay", "BUN-LAY-1"), ("bunny", "BUN-BUNNY-1"))
}
_AGENDAS: dict[tuple[int | None, str], Agenda] = {
    key: Agenda(decisions={key[0]: decision}) for key, decision in _DECISIONS.items()}
_SETUP = Agenda(chance=_DEAL)


class Bunnies(Ruleset[BunniesState, BunniesOptions]):
    slug: ClassVar[str] = "bunnies"
    title: ClassVar[str] = '"Bunnies" (two-player shedding game)'
    rulebook = RULES
    min_players = 2
    seat_options = frozenset({"first_seat"})
    max_players = 2
    state_type = BunniesState
    options_type = BunniesOptions
    option_help = OPTION_HELP
    event_types = EVENT_TYPES
    game_over_rule = "BUN-END-1"
    refusal_doings: ClassVar[Mapping[str, str]] = {**REFUSED_DOINGS, "end_turn": "end the go"}
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "draw": "drawing", "lay": "laying",
                                                "bunny": "a bunny's action"}
    capabilities = Capabilities(values={"greedy": bots.greedy_value, "prolong": bots.prolong_value},
                                redacts=True)
    # What a violation may tell each seat (Ruleset.violation_view): these rules' messages and
    # facts name only what both players see (the pile, laid cards, the blind cards' places,
    # hand sizes, the stock's size, the bunny stacks, whose go it is).
    public_violations = frozenset({
        "BUN-TURN-1", "BUN-DRAW-1", "BUN-DRAW-2", "BUN-LAY-2", "BUN-LAY-3", "BUN-BLIND-1",
        "BUN-BLIND-2", "BUN-BLIND-4", "BUN-BLIND-5", "BUN-DEAL-2", "BUN-BUNNY-1", "BUN-BUNNY-2",
        "BUN-BUNNY-4", "BUN-BUNNY-5", "BUN-BUNNY-6", "BUN-END-1", "BUN-END-2", "REC-FIX-1", "REC-FIX-2",
    })
    # ...and these name the acting player's own hand, which it sees (the opponent does not).
    actor_violations = frozenset({"BUN-LAY-1", "BUN-PICKUP-1"})
    vocabulary = words.VOCABULARY
    view_type = BunniesView

    def build_handlers(self) -> dict[Any, Any]:
        return dict(HANDLERS)

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        opts: BunniesOptions = self.options(header)
        if not 1 <= opts.hand_size <= MAX_HAND_SIZE:  # also bounded on its type (engine.options)
            raise WarrenError(f"bad option for bunnies: hand_size must be 1..{MAX_HAND_SIZE}")

    def setup(self, header: Header) -> BunniesState:
        opts: BunniesOptions = self.options(header)
        return BunniesState(opts.first_seat, opts.hand_size, opts.steal_from,
                            partial=header.source == "recorded")

    def copy_state(self, state: BunniesState) -> BunniesState:
        return state.copy()

    def pending(self, state: BunniesState) -> Agenda:
        if state.over:
            return NOTHING
        if state.phase == "setup":
            return _SETUP
        # Shared, never mutated: an agenda handed out is read, not changed.
        return _AGENDAS[state.active, state.phase]

    def decision_actions(self, state: BunniesState, decision: Decision) -> list[Event]:
        return decision_actions(state, decision.seat)

    def sample_world(self, state: BunniesState, rng: random.Random) -> BunniesState:
        return worlds.fill(state, rng)

    def sample_chance(self, state: BunniesState, owed: Chance, rng: random.Random) -> Event | None:
        deck = list(DECK)
        rng.shuffle(deck)
        h = state.hand_size
        b = BLINDS_PER_SEAT
        return Deal(
            seq=state.seq + 1, actor=None,
            hands=[deck[0:h], deck[h:2 * h]],
            blinds=[deck[2 * h:2 * h + b], deck[2 * h + b:2 * h + 2 * b]],
            shared=deck[2 * h + 2 * b:2 * h + 2 * b + SHARED_BLINDS],
            stock=deck[2 * h + 2 * b + SHARED_BLINDS:],
        )

    def randomize(self, state: BunniesState, event: Event, rng: random.Random) -> Event:
        if not isinstance(event, Steal) or event.actor is None:
            return event
        other = 1 - event.actor
        pool = sorted(state.hands[other])
        if state.steal_from == "hand_or_blind":
            pool += sorted(state.blinds[s] for s in OWN_SLOTS[other]
                           if s in state.blinds and is_uncovered(s, state.blinds))
        return Steal(seq=event.seq, actor=event.actor, card=rng.choice(pool))

    def redact(self, event: Event, perspective: Perspective, before: BunniesState) -> Event:
        return redact(event, perspective, before)

    def view(self, state: BunniesState, perspective: Perspective) -> dict[str, Any]:
        return view(state, perspective)

    def card_text(self, card: object) -> str:
        return words.card_face(str(card))  # a playing card by its face: 9♣

    def card_rank(self, card: object) -> str | None:
        return self.card_text(card)[:-1]  # a lay is of one rank (BUN-LAY-1): 9♣ counts as a 9

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        return render(view, names)

    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: Any = None) -> str:
        said = words.describe(event, self.event_view(event, perspective), names or ())
        return said if said is not None else super().describe(event, names, perspective)

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        return words.describe_changes(before, after, names)

    def describe_outcome(self, outcome: Outcome, names: Names) -> str:
        return words.describe_outcome(outcome, names)

    def read_value(self, tag: str, field: str, value: Any) -> Any:
        return words.read_cards(field, value)

    def name_cards(self, message: str) -> str:
        return words.faces_named(message)

    def say(self, message: str, names: Names | None) -> str:
        # the blind cards' places first: they read by their owners' names (BUN-DEAL-1)
        return super().say(words.slots_named(message, names), names)

    def short_spellings(self, event: Event) -> tuple[str, ...]:
        return words.short_spellings(event)

    def is_card_field(self, field: str) -> bool:
        return field in words.CARD_FIELDS

    def is_card_phrase(self, phrase: str) -> bool:
        try:
            words.read_card(phrase)  # the queen of hearts
        except WarrenError:
            return False
        return True

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        record = super().event_view(event, perspective)
        # The card a steal takes is seen by the two players, not by onlookers.
        if isinstance(event, Steal) and not isinstance(perspective, int) and perspective != "referee":
            record.pop("card", None)
        return record

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        if perspective == "referee" or "card" not in effect.data:
            return effect
        private = effect.kind in ("blind_seen", "blind_returned")
        if (private and effect.data.get("seat") == perspective) or (
                effect.kind == "card_stolen" and isinstance(perspective, int)):
            return effect
        if effect.kind == "blind_laid":
            return effect  # laid face up: everyone sees it
        hidden = {k: v for k, v in effect.data.items() if k != "card"}
        return Effect(effect.rule, effect.kind, hidden)

    def outcome(self, state: BunniesState) -> Outcome | None:
        if not state.over or state.scores is None:
            return None
        best = max(state.scores)
        return Outcome(
            winners=[s for s in (0, 1) if state.scores[s] == best],
            scores=list(state.scores),
            reason="went_out",
            rule="BUN-END-2",
        )

    figure_names = ("hand", "blinds_left", "bunnies", "pile", "stock")
    seat_figures = frozenset({"hand", "blinds_left", "bunnies"})
    figure_docs: ClassVar[dict[str, str]] = {
        "hand": "cards in the seat's hand", "blinds_left": "the seat's own blind cards still on the table",
        "bunnies": "bunnies the seat has scored so far", "pile": "cards in the face-up pile",
        "stock": "cards left to draw",
    }

    def figure_row(self, state: BunniesState) -> tuple[Any, ...]:
        # Called at every turn end by the projections: one flat tuple, the per-seat figures
        # inline (seat 0, seat 1), set operations in C; key_figures makes the dict of it.
        hands, bunnies, present = state.hands, state.bunnies, state.blinds.keys()
        return (len(hands[0]), len(hands[1]),
                len(present & _OWN_SETS[0]), len(present & _OWN_SETS[1]),
                len(bunnies[0]), len(bunnies[1]),
                len(state.pile), len(state.stock))


RULESET = Bunnies()
