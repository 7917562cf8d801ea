"""Ruleset ``trust-no-bunny``: social deduction, Townsfolk against two Werebunnies.

Read it like the rulebook: numbers (the game's numbers and names), options, rulebook (rule
ids), events, state, table (the guards every step shares), setup, rounds (the mayor, and a
round's steps), day (muster, proposal, vote), night (guards, home actions, the stage), dawn
(draws and the end of a round), timer, handlers (one per event, from those steps), unknowns
and unknowns_night (a game recorded at the table), agenda (the legal actions), chance (what
simulators draw), notes (each seat's private notes), views, redaction (the record a seat
could have written), render (what each perspective sees, as a picture), words, suspects (who
could the Werebunnies be?), bots, worlds (the positions a perspective cannot tell from
the game, made whole for its analysis).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.capabilities import Capabilities
from engine.pending import Agenda, Chance, Decision
from engine.record import Event, Header
from engine.rules import Effect, WarrenError
from engine.ruleset import Outcome, Perspective, Ruleset
from engine.trust_no_bunny import redaction, render, words, worlds
from engine.trust_no_bunny.agenda import decision_actions, pending
from engine.trust_no_bunny.bots import HeuristicBot
from engine.trust_no_bunny.chance import sample_chance
from engine.trust_no_bunny.events import EVENT_TYPES
from engine.trust_no_bunny.handlers import HANDLERS
from engine.trust_no_bunny.numbers import MAX_PLAYERS, MIN_PLAYERS
from engine.trust_no_bunny.options import OPTION_HELP, TnbOptions, resolve_table
from engine.trust_no_bunny.rulebook import RULES
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.suspects import suspects
from engine.trust_no_bunny.table import GAME_OVER
from engine.trust_no_bunny.unknowns import hand_range
from engine.trust_no_bunny.views import TnbView, view
from engine.wording import Names


def sides(state: TnbState) -> list[str] | None:
    """Each seat's side (``Werebunny`` or ``Townsfolk``), once the roles are known."""
    wolves = state.werebunnies
    if wolves is None or not all(isinstance(s, int) for s in wolves):
        return None
    return ["Werebunny" if seat in wolves else "Townsfolk" for seat in range(state.n)]


CARD_FIELDS = frozenset({"defend", "weaken", "gnaw"})
"""The fields of a seat's events that hold cards (card values)."""


class TrustNoBunny(Ruleset[TnbState, TnbOptions]):
    slug: ClassVar[str] = "trust-no-bunny"
    title: ClassVar[str] = "Trust No Bunny"
    rulebook = RULES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = TnbState
    options_type = TnbOptions
    option_help = OPTION_HELP
    event_types = EVENT_TYPES
    game_over_rule = GAME_OVER
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "deal": "dealing", "items": "using Items",
                                                "muster": "mustering the party", "offers": "offers",
                                                "proposal": "proposing a party", "voting": "voting",
                                                "night": "night", "dawn": "dawn"}
    capabilities = Capabilities(
        # The heuristic bot is also what "greedy" means here (engine.bots.make_bot).
        bots={"greedy": HeuristicBot, "heuristic": HeuristicBot},
        suspects=suspects,
        sides=sides,
        redacts=True,
    )
    # What a violation may tell each seat (Ruleset.violation_view): these rules' messages and
    # facts name only what the whole table sees (phases, the mayor, teams, who voted or
    # acted, public accusations, the end).
    public_violations = frozenset({
        "TNB-MUSTER-1", "TNB-DAY-1", "TNB-DAY-2", "TNB-DAY-3", "TNB-VOTE-1", "TNB-VOTE-2",
        "TNB-ACC-2", "TNB-NIGHT-1", "TNB-GUARD-1", "TNB-HOME-1", "TNB-END-1", "TNB-WOLF-3",
        "REC-FIX-1", "REC-FIX-2",
    })
    # ...and these name the acting player's own secrets (its hand, role, Mutation, Item,
    # offer, its own home action), which it knows and nobody else does.
    actor_violations = frozenset({
        "TNB-ACC-1", "TNB-ITEM-3", "TNB-GUARD-2", "TNB-GUARD-3", "TNB-HOME-2", "TNB-HOME-3",
        "TNB-SAB-1", "TNB-SAB-2", "TNB-MUT-1", "TNB-ITEM-4", "TNB-ITEM-5", "TNB-ITEM-9",
    })
    # The ids of those rules tell the secret by themselves ("only Werebunnies Sabotage" names
    # the actor a Townsfolk, "Crystal Ball: once a game" names its Item): every other seat
    # learns only that a hidden action was illegal.
    secret_violations = actor_violations
    vocabulary = words.VOCABULARY
    view_type = TnbView

    def build_handlers(self) -> dict[Any, Any]:
        return dict(HANDLERS)

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        resolve_table(len(header.players), self.options(header))

    def setup(self, header: Header) -> TnbState:
        opts: TnbOptions = self.options(header)
        table = resolve_table(len(header.players), opts)
        return TnbState(table, opts.rejection_raise, opts.early_end, opts.guard_timeout,
                        recorded=header.source == "recorded")

    def copy_state(self, state: TnbState) -> TnbState:
        return state.copy()

    def pending(self, state: TnbState) -> Agenda:
        return pending(state)

    def decision_actions(self, state: TnbState, decision: Decision) -> list[Event]:
        return decision_actions(state, decision)

    def sample_chance(self, state: TnbState, owed: Chance, rng: random.Random) -> Event | None:
        return sample_chance(state, owed, rng)

    def sample_world(self, state: TnbState, rng: random.Random) -> TnbState:
        return worlds.fill(state, rng, self.apply)

    def view(self, state: TnbState, perspective: Perspective) -> dict[str, Any]:
        if isinstance(perspective, int) and not 0 <= perspective < state.n:
            raise WarrenError(f"seat {perspective} is not at this table (0..{state.n - 1})")
        return view(state, perspective)

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        return render.event_view(event, perspective)

    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: Any = None) -> str:
        # A player's choice (an Item, a vote, the night's cards) is its own and the referee's.
        seen = perspective == "referee" or perspective == event.actor
        viewer = perspective if isinstance(perspective, int) else None
        said = words.describe(event, self.event_view(event, perspective), names or (), seen, viewer)
        return said if said is not None else super().describe(event, names, perspective)

    def is_card_field(self, field: str) -> bool:
        # A card is its value, 1 to 4: the fields a guard (or a Gnaw Werebunny at home)
        # plays cards in. The statistics count them as cards played (seat_items).
        return field in CARD_FIELDS

    def card_text(self, card: object) -> str:
        return f"a {card}" if str(card) in ("1", "2", "3", "4") else str(card)

    def name_cards(self, message: str) -> str:
        # Rules write an Item, Quirk or Mutation by its id (``crystal_ball``); a person
        # reads its name (the Crystal Ball).
        return words.things_named(message)

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        return render.effect_view(effect, perspective)

    def redact(self, event: Event, perspective: Perspective, before: TnbState) -> Event:
        return redaction.redact(self, event, perspective, before)

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        return render.render(view, names)

    def outcome(self, state: TnbState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(winners=list(state.winners), reason=state.reason or "", rule=state.end_rule or "")

    figure_names = ("round", "wall", "tower", "wolves", "hands", "deck", "proposals")
    seat_figures = frozenset({"hands"})
    figure_docs: ClassVar[dict[str, str]] = {
        "round": "the round after the turn", "wall": "the Wall's strength left (TNB-RES-2)",
        "tower": "the Tower's strength left (TNB-RES-3)",
        "wolves": "wolves attacking tonight (TNB-WOLF-1)",
        "hands": "cards in the seat's hand (NULL where a record at the table leaves it unknown)",
        "deck": "cards left in the deck (NULL where unknown)", "proposals": "proposals made so far",
    }

    def figure_row(self, state: TnbState) -> tuple[Any, ...]:
        # The key figures as one flat row, each seat's hand size inline, taken column-wise
        # by the projections (key_figures makes the dict of it).
        if state.hidden is not None:
            # A game recorded at the table: a hand's size or the deck's may be unknown (None).
            sizes = [hand_range(state, s) for s in range(state.n)]
            return (state.round, state.wall, state.tower, state.wolves,
                    *[low if low == high else None for low, high in sizes],
                    state.hidden.deck_size, len(state.proposals))
        return (state.round, state.wall, state.tower, state.wolves,
                *[sum(hand) for hand in state.hands], sum(state.deck), len(state.proposals))


RULESET = TrustNoBunny()
