"""Ruleset ``killer-bunnies-quest``: Killer Bunnies and the Quest for the Magic Carrot, the
whole Blue Starter box, on the Killer Bunnies family kit (engine.killer).

Read it like the rulebook: numbers (the game's counts), options, catalogue (where the cards
come from; the cards themselves are data in cards/*.toml), rulebook (rule ids), events,
state, table (what every part shares), market (Kaballa's Market), cards (what each primitive
of the effect vocabulary does in Quest), port (what a primitive written once reads of
Quest, and the ones it plays), combat (attacks), roam (Roaming Red Runs in play),
leaving (bunnies leaving the circle), triplets, auction, carrots (the Magic Carrot and the
end), flow (how the game moves on by itself: a card's resolution, draws, the end of a
turn), handlers (one per event), drawing (the table form's draws and reveals), unknowns
(the cards nobody saw), worlds (those cards dealt out whole, for the analysis of a game),
waiting (what the game waits for, which the guards read), agenda (the legal actions,
tried against the guards), chance (what simulators draw),
views, words (the game in words, each perspective told what it saw), render (the
terminal's picture), bots.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from engine.capabilities import Capabilities
from engine.killer import holds
from engine.killer.circle import BunnyCircle
from engine.killer.naming import CardsByName, settle_event
from engine.killer.words import CardWords
from engine.killer_bunnies_quest import bots, render, unknowns, views, waiting, words, worlds
from engine.killer_bunnies_quest import (
    port as port,  # the primitives written once it plays join its interpreter
)
from engine.killer_bunnies_quest.agenda import decision_actions, pending, window_actions
from engine.killer_bunnies_quest.catalogue import deck_for, key_of
from engine.killer_bunnies_quest.chance import sample_chance
from engine.killer_bunnies_quest.events import EVENT_TYPES
from engine.killer_bunnies_quest.handlers import HANDLERS
from engine.killer_bunnies_quest.market import Market
from engine.killer_bunnies_quest.numbers import MAX_PLAYERS, MIN_PLAYERS
from engine.killer_bunnies_quest.options import OPTION_HELP, QuestOptions
from engine.killer_bunnies_quest.port import ADOPTED
from engine.killer_bunnies_quest.rulebook import RULES
from engine.killer_bunnies_quest.state import AttackFrame, Hold, QuestState, Seat
from engine.killer_bunnies_quest.table import money_each
from engine.pending import Agenda, Chance, Decision, Window
from engine.record import Event, Header
from engine.rules import Effect, WarrenError
from engine.ruleset import Outcome, Perspective, Ruleset
from engine.wording import Names, Vocabulary

Handler = Callable[[QuestState, Any], tuple[Effect, ...]]

CARD_FIELDS = frozenset({"card", "on", "weapon", "carrots", "carrot", "pay", "bunny", "bunnies", "demand",
                         "cabbage", "water", "top", "bottom", "sources", "under", "give_hand",
                         "get_hand", "cards", "give", "take"})
"""The fields of Quest's actions that name cards, which a person may type by name."""


def lazy(handler: Handler) -> Handler:
    """A held card happens when the next event that is not an answer comes: the handler then
    runs on a copy with the card released, and the copy replaces the state only if the event
    is legal (a refused event leaves the state as it was)."""

    def wrapped(state: QuestState, event: Any) -> tuple[Effect, ...]:
        if state.doubts:  # the table form with checks to settle (unknowns): tried on a copy
            trial = state.copy()
            effects = held(trial, event)
            _adopt(state, trial)
            return (*effects, *unknowns.settlements(state))
        return held(state, event)

    def held(state: QuestState, event: Any) -> tuple[Effect, ...]:
        stack = state.stack
        # only a Hold or an attack on top can hold a card (waiting.holding)
        if not stack or type(stack[-1]) not in _HOLDERS or not waiting.holding(state) \
                or waiting.is_answer(state, event):
            return handler(state, event)
        return holds.after_held(state, event, handler, _release_all, _adopt)

    return wrapped


def _release_all(trial: QuestState, out: list[Effect]) -> None:
    while waiting.holding(trial):
        out.extend(waiting.release(trial))


def _adopt(state: QuestState, trial: QuestState) -> None:
    for name in _SLOTS:
        setattr(state, name, getattr(trial, name))


_SLOTS = [name for cls in QuestState.__mro__ for name in getattr(cls, "__slots__", ())]
_HOLDERS = frozenset({Hold, AttackFrame})


class KillerBunniesQuest(CardsByName, Ruleset[QuestState, QuestOptions]):
    card_fields = CARD_FIELDS
    slug: ClassVar[str] = "killer-bunnies-quest"
    adopted: ClassVar[tuple[type, ...]] = ADOPTED
    """The primitives written once (engine.killer.primitive) it plays, its port\'s table."""
    title: ClassVar[str] = "Killer Bunnies and the Quest for the Magic Carrot"
    rulebook = RULES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = QuestState
    options_type = QuestOptions
    option_help = OPTION_HELP
    event_types = EVENT_TYPES
    game_over_rule = "KBQ-END-4"
    vocabulary = words.VOCABULARY
    view_type = views.QuestView
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "runs": "laying the first run cards",
                                                "turn": "playing", "flipped": "a run card turned up",
                                                "resolving": "a card resolving",
                                                "bottom": "a new run card at the bottom",
                                                "turn_end": "the turn's end",
                                                "reveal": "the Magic Carrot turned up"}
    capabilities = Capabilities(
        values={"greedy": bots.greedy_value, "prolong": bots.prolong_value},
        action_notation={"play": ("card",), "flip": ("card",), "draw": ("card",), "reveal": ("cards",),
                         "buy": ("goods", "carrot"),
                         "feed": ("bunny",), "discard": ("card",), "save": ("card",),
                         "bottom": ("card",), "roll": ("faces",), "bid": ("amount",),
                         "runs": ("top", "bottom"), "starve": ("bunny",),
                         "reshuffle": ("order",), "trade": ("partner",), "choose": (),
                         "stake": ()},
        table_events=frozenset({"setup", "roll", "reshuffle", "draw", "reveal"}),
        redacts=True,
    )

    cards: CardWords | None = None
    """The words for the cards of the game this ruleset is bound to (:meth:`for_game`);
    None: unbound, the Blue Starter box's cards."""

    def build_handlers(self) -> dict[Any, Any]:
        return {kind: lazy(handler) for kind, handler in HANDLERS.items()}

    def record_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every record names its deck set, printing and the cards' content hash (R-KBQ-2)."""
        opts = msgspec_convert(options)
        deck = deck_for(opts)
        return {**options, **deck.catalogue.header_fields()}

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        opts: QuestOptions = self.options(header)
        deck_for(opts)
        n = len(header.players)
        if any(not 0 <= s < n for s in opts.late) or len(set(opts.late)) != len(opts.late) \
                or n - len(opts.late) < MIN_PLAYERS:
            raise WarrenError("bad option for killer-bunnies-quest: late names seats of the "
                              f"game, each once, leaving at least {MIN_PLAYERS} at the start")
        if not 0 <= opts.starting_carrots <= 12 // max(n, 1) or \
                not 0 <= opts.remove_choose_a_carrot <= 7:
            raise WarrenError("bad option for killer-bunnies-quest: starting_carrots or "
                              "remove_choose_a_carrot out of range")

    def setup(self, header: Header) -> QuestState:
        opts: QuestOptions = self.options(header)
        deck = deck_for(opts)
        n = len(header.players)
        state = QuestState.__new__(QuestState)
        state._init_position()
        state.deck = key_of(opts)
        state.opts = opts
        state.n = n
        state.seats = [Seat(present=s not in opts.late) for s in range(n)]
        state.circle = BunnyCircle()
        starter = [c for c in deck.catalogue.by_id.values() if c.market is not None]
        if not starter or starter[0].market is None:
            raise WarrenError(f"deck set {opts.deck_set!r} has no market starter card")
        # Open, at the starter card's prices (KBQ-MKT-2); the carrots come with the set-up.
        state.market = Market(prices=starter[0].market, carrots=[])
        state.draw, state.discard = [], []
        state.cabbage_deck, state.water_deck = [], []
        state.cabbage_discard, state.water_discard = [], []
        state.magic_deck = []
        state.ious, state.demands, state.roamers, state.dormant = [], [], [], []
        state.abducted = []
        state.traded = set()
        state.stack = []
        state.first = 0
        state.flipped = None
        state.cards_played = 0
        state.second = False
        state.triplet_at_start = False
        state.used_weapons = []
        state.coupon = []
        state.magic = None
        # "May be the table form": the set-up event decides (R-KBQ-40, REC-UNK-1).
        state.partial = header.source == "recorded"
        state.pool = set()
        state.doubts = []
        state.winners = []
        state.ended = []
        state.end_reason = None
        state.end_rule = None
        return state

    def copy_state(self, state: QuestState) -> QuestState:
        return state.copy()

    def pending(self, state: QuestState) -> Agenda:
        return pending(state)

    def decision_actions(self, state: QuestState, decision: Decision) -> list[Event]:
        return decision_actions(state, decision)

    def window_actions(self, state: QuestState, seat: int, window: Window) -> list[Event]:
        return window_actions(state, seat, window)

    def sample_world(self, state: QuestState, rng: random.Random) -> QuestState:
        return worlds.fill(state, rng)

    def sample_chance(self, state: QuestState, owed: Chance, rng: random.Random) -> Event | None:
        return sample_chance(state, owed, rng)

    def view(self, state: QuestState, perspective: Perspective) -> dict[str, Any]:
        if isinstance(perspective, int) and not 0 <= perspective < state.n:
            raise WarrenError(f"seat {perspective} is not at this table (0..{state.n - 1})")
        return views.view(state, perspective)

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        return views.event_view(event, perspective)

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        return views.effect_view(effect, perspective)

    def redact(self, event: Event, perspective: Perspective, before: QuestState) -> Event:
        return views.redact(event, perspective, before)

    def redact_chance(self, event: Event, effects: tuple[Effect, ...], perspective: Perspective,
                      before: QuestState, after: QuestState) -> tuple[list[Event], list[Event]]:
        if before.partial and after.partial:
            return [], []  # a table-form record's draws are events already
        # (A record made at the table whose set-up names every order is whole from its
        # set-up on: its deal is written out for the table form like a simulated game's.)
        released: list[Effect] = []
        if waiting.holding(before) and not waiting.is_answer(before, event):
            # a held card happens as this event comes (R-KBQ-32): what it drew comes first
            _release_all(before.copy(), released)
        first = views.table_draws(tuple(released), perspective, after)
        return first, views.table_draws(effects[len(released):], perspective, after) if effects else []

    # -- in words (words.py) ------------------------------------------------------------
    def for_game(self, header: Header) -> KillerBunniesQuest:
        """Bound to the catalogue the header names, so that its events name their cards (a
        header whose cards cannot be read is refused by replay itself; its words stay the
        starter box's)."""
        try:
            deck = deck_for(self.options(header))
        except WarrenError:
            return self
        bound = _BOUND.get(deck.key)
        if bound is None:
            bound = _BOUND[deck.key] = copy.copy(self)
            bound.cards = words.words_of(deck)
        return bound

    def card_words(self) -> CardWords:
        return self.cards if self.cards is not None else words.starter_words()

    def settle_copies(self, state: QuestState, event: Event) -> Event:
        """A card named by a name its copies share: the copy the actor holds (in his hand,
        saved, or turned up from his run; his Dolla, cabbage and water cards to pay)."""
        if event.actor is None or not 0 <= event.actor < len(state.seats):
            return event
        seat = state.seats[event.actor]
        reader = self.card_reader()
        # The turned-up run card first: a turn's card named by its name is that one.
        holding = {"card": [*([state.flipped] if state.flipped is not None else []), *seat.hand, *seat.saved],
                   "top": seat.hand, "bottom": seat.hand,
                   "pay": seat.money, "cabbage": seat.cabbage, "water": seat.water}
        settled: Event = settle_event(reader, event, holding)
        return settled

    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: Any = None) -> str:
        said = words.describe(event, self.event_view(event, perspective), names or (), self.card_words())
        return said if said is not None else super().describe(event, names, perspective)

    def worded_vocabulary(self) -> Vocabulary:
        return words.vocabulary(self.card_words())

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        return words.describe_changes(before, after, names, self.card_words())

    def describe_fact(self, key: str, value: Any, names: Names) -> str:
        return words.describe_fact(key, value, names, self.card_words())

    def describe_outcome(self, outcome: Outcome, names: Names) -> str:
        return words.describe_outcome(outcome, names, self.card_words())

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        return render.render(view, names, self.card_words(), self.phase_text(str(view.get("phase"))))

    def outcome(self, state: QuestState) -> Outcome | None:
        if not state.over:
            return None
        carrots = [len(s.carrots) for s in state.seats]
        return words.QuestOutcome(winners=list(state.winners), scores=carrots,
                                  reason=state.end_reason or "", rule=state.end_rule or "KBQ-END-4",
                                  magic_carrot=state.magic)

    figure_names = ("round", "bunnies", "carrots", "dolla", "market_carrots", "market_open", "draw")
    seat_figures = frozenset({"bunnies", "carrots", "dolla"})
    figure_docs: ClassVar[dict[str, str]] = {
        "round": "the round after the turn", "bunnies": "the seat's bunnies in the Bunny Circle",
        "carrots": "carrots the seat holds", "dolla": "Dolla the seat holds (the cards' value)",
        "market_carrots": "carrots left in Kaballa's Market", "market_open": "whether the market is open",
        "draw": "cards left in the draw pile",
    }

    def figure_row(self, state: QuestState) -> tuple[Any, ...]:
        # Called at every turn end by the projections: one flat row, each seat's figures
        # inline; one pass over the Bunny Circle for every seat's count (key_figures makes
        # the dict of it).
        n, seats, spaces = state.n, state.seats, state.circle.spaces
        owners = [spaces[b].owner for b in state.circle.order]
        return (state.round, *[owners.count(s) for s in range(n)], *[len(s.carrots) for s in seats],
                *money_each(state), len(state.market.carrots), state.market.open, len(state.draw))


def msgspec_convert(options: dict[str, Any]) -> QuestOptions:

    try:
        return msgspec.convert(options, QuestOptions)
    except msgspec.ValidationError as exc:
        raise WarrenError(f"bad option for killer-bunnies-quest: {exc}") from None


_BOUND: dict[str, KillerBunniesQuest] = {}
"""The ruleset bound to each catalogue (deck key) a game has asked for."""

RULESET = KillerBunniesQuest()
