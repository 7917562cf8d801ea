"""Ruleset ``killer-bunnies-odyssey``: Killer Bunnies and the Ultimate Odyssey, on the Killer
Bunnies family kit (engine.killer), with every player's own deck, Resources, cities, Civ
points and both readings of the hand size.

Read it like the rulebook: numbers (the game's numbers), options, library (where the cards
and the players' decks come from; warren's own starter decks are data in decks/*.toml),
personal (a player's own deck), rulebook (rule ids), events, state, table (what every part
shares), costs (paid with saved Resources), civ (Civ points), unknowns (cards nobody saw,
in a game recorded at the table), worlds (those cards dealt out whole, for the analysis of a
game), readings (the two hand sizes side by side), flow (turns,
rounds, deadlines, kills), cards (playing a card), choices (the choices a card may be played
with), port (what a primitive written once reads of the game, and the ones it plays),
handlers (one per event), agenda (the legal actions), chance (what simulators draw),
views, words, render (the terminal's picture), bots.
"""

from __future__ import annotations

import copy
import random
from typing import Any, ClassVar

import msgspec

from engine.capabilities import Capabilities
from engine.hidden import Pool
from engine.killer.catalogue import effects as fx
from engine.killer.circle import BunnyCircle
from engine.killer.naming import CardsByName
from engine.killer.words import CardWords
from engine.killer_bunnies_odyssey import bots, render, views, words, worlds
from engine.killer_bunnies_odyssey import (
    port as port,  # the primitives written once it plays join its interpreter
)
from engine.killer_bunnies_odyssey.agenda import decision_actions, pending, window_actions
from engine.killer_bunnies_odyssey.cards import check_supported
from engine.killer_bunnies_odyssey.chance import sample_chance
from engine.killer_bunnies_odyssey.events import EVENT_TYPES, TABLE_EVENTS, Flip, Hexascrewup, Play, Use
from engine.killer_bunnies_odyssey.handlers import HANDLERS
from engine.killer_bunnies_odyssey.library import header_fields, table_for
from engine.killer_bunnies_odyssey.numbers import MAX_PLAYERS, MIN_PLAYERS, START_CIV
from engine.killer_bunnies_odyssey.options import OPTION_HELP, OdysseyOptions
from engine.killer_bunnies_odyssey.port import ADOPTED
from engine.killer_bunnies_odyssey.rulebook import RULES
from engine.killer_bunnies_odyssey.state import OdysseyState, Seat
from engine.killer_bunnies_odyssey.table import cards, pieces_said, totals
from engine.options import refusal
from engine.pending import Agenda, Chance, Decision, Window
from engine.record import Event, Header
from engine.rules import Effect, RuleViolation, WarrenError
from engine.ruleset import Outcome, Perspective, Ruleset
from engine.wording import Names, Vocabulary, change_lines, fact_text

_BOUND: dict[str, KillerBunniesOdyssey] = {}
"""A game's card table key -> the ruleset bound to it (:meth:`KillerBunniesOdyssey.for_game`)."""


CARD_FIELDS = frozenset({"card", "cards", "top", "bottom", "drew", "picked", "chosen", "give_hand",
                         "take_hand"})
"""The fields of Odyssey's actions that name cards (by code), which a person may type by name."""


PIECE_FIELDS = frozenset({"target", "into", "piece", "demand", "give", "take"})
"""The fields of Odyssey's actions that name what is in play, by piece number; a person may
type the card's name instead (KillerBunniesOdyssey.pieces_named)."""


def _piece_value(reader: Any, value: Any) -> Any:
    """A piece field as typed: a number stays a number; a card's name or code becomes the
    code, for :meth:`KillerBunniesOdyssey.pieces_named` to find in play."""
    if isinstance(value, list):
        return [_piece_value(reader, v) for v in value]
    if isinstance(value, int) or not isinstance(value, str):
        return value
    text = value.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return reader.read(text)


class KillerBunniesOdyssey(CardsByName, Ruleset[OdysseyState, OdysseyOptions]):
    card_fields = CARD_FIELDS
    slug: ClassVar[str] = "killer-bunnies-odyssey"
    adopted: ClassVar[tuple[type, ...]] = ADOPTED
    """The primitives written once (engine.killer.primitive) it plays, its port\'s table."""
    title: ClassVar[str] = "Killer Bunnies and the Ultimate Odyssey"
    rulebook = RULES
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = OdysseyState
    options_type = OdysseyOptions
    option_help = OPTION_HELP
    event_types = EVENT_TYPES
    game_over_rule = "ODY-END-2"
    vocabulary = words.VOCABULARY
    view_type = views.OdysseyView
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "first": "rolling for the first player",
                                                "play": "playing", "turn": "playing"}
    capabilities = Capabilities(
        values={"greedy": bots.greedy_value},
        redacts=True,
        action_notation={"shuffle": ("seat", "order"), "cut": ("seat", "depth"), "deal": ("cards",),
                         "runs": ("top", "bottom"), "draw": ("card",), "roll": ("seat", "face"),
                         "flip": ("how",), "play": ("card",), "use": ("piece",),
                         "discard": ("card",), "bottom": ("card",), "feed": ("demand",),
                         "place": ("piece",), "trade": ("partner",),
                         "hexascrewup": ("against", "card"), "overdraw": ("card",)},
        table_events=TABLE_EVENTS,
    )

    cards: CardWords | None = None
    """The words for the cards of the game this ruleset is bound to (:meth:`for_game`);
    None: every card of the deck library."""
    def for_game(self, header: Header) -> KillerBunniesOdyssey:
        """Bound to the cards of the decks the header names, so that what a perspective sees
        is named (a header whose decks cannot be read is refused by replay itself; its words
        are then the deck library's)."""
        try:
            table = table_for(self.options(header))
        except WarrenError:
            return self
        bound = _BOUND.get(table.key)
        if bound is None:
            bound = _BOUND[table.key] = copy.copy(self)
            bound.cards = words.table_words(table)
        return bound

    def card_words(self) -> CardWords:
        return self.cards if self.cards is not None else words.library_words()

    def worded_vocabulary(self) -> Vocabulary:
        """:attr:`vocabulary` with the cards of :meth:`card_words` named."""
        return words.vocabulary_of(self.card_words())

    def is_card_field(self, field: str) -> bool:
        return field in self.card_fields or field in PIECE_FIELDS

    def read_value(self, tag: str, field: str, value: Any) -> Any:
        if field in PIECE_FIELDS:
            return _piece_value(self.card_reader(), value)
        return super().read_value(tag, field, value)

    def pieces_named(self, state: OdysseyState, field: str, value: Any) -> list[Any] | None:
        """A piece typed by its card's name or code: the pieces in play with that card, in
        play order."""
        if field not in PIECE_FIELDS or not isinstance(value, str):
            return None
        code = _piece_value(self.card_reader(), value)
        if not isinstance(code, str):
            return None  # a number: the piece itself
        t = cards(state)
        return [pid for pid, p in state.pieces.items() if p.kind and t.code(p.kind) == code]

    def build_handlers(self) -> dict[type[Event], Any]:
        return dict(HANDLERS)

    def word_refusal(self, state: OdysseyState, violation: RuleViolation) -> None:
        # the pieces in play a refusal names, by their cards (table.pieces_said)
        said = pieces_said(state, violation.message)
        if said != violation.message:
            violation.message = said
            violation.args = (f"{violation.rule}: {said}",)

    def _opts(self, options: dict[str, Any]) -> OdysseyOptions:
        try:
            return msgspec.convert(options, OdysseyOptions)
        except msgspec.ValidationError as exc:
            raise WarrenError(refusal(self.slug, OdysseyOptions, exc)) from None

    def record_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every record names each deck's list and content hash (ODY-DECK-2)."""
        return {**options, **header_fields(self._opts(options))}

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        check_supported(table_for(self.options(header)))

    def setup(self, header: Header) -> OdysseyState:
        opts: OdysseyOptions = self.options(header)
        table = table_for(opts)
        n = len(header.players)
        partial = header.source == "recorded"
        state = OdysseyState.__new__(OdysseyState)
        state._init_position()
        state.opts, state.key, state.n, state.partial = opts, table.key, n, partial
        state.seats = [Seat(civ=START_CIV, draw=table.seat_cards(s), unseen=Pool() if partial else None)
                       for s in range(n)]
        state.pieces, state.next_piece = {}, 1
        state.circle, state.center = BunnyCircle(), BunnyCircle()
        state.demands, state.strike, state.placing = [], None, []
        state.setup_seat, state.setup_step, state.refill_seat = 0, "shuffle", None
        state.shuffles, state.cut_owed, state.rolloff = [], None, None
        state.first, state.played, state.replace_owed = 0, False, False
        state.winners, state.end_reason, state.end_rule = [], None, None
        return state

    def copy_state(self, state: OdysseyState) -> OdysseyState:
        return state.copy()

    def pending(self, state: OdysseyState) -> Agenda:
        return pending(state)

    def decision_actions(self, state: OdysseyState, decision: Decision) -> list[Event]:
        return decision_actions(state, decision)

    def window_actions(self, state: OdysseyState, seat: int, window: Window) -> list[Event]:
        return window_actions(state, seat, window)

    def sample_world(self, state: OdysseyState, rng: random.Random) -> OdysseyState:
        return worlds.fill(state, rng)

    def sample_chance(self, state: OdysseyState, owed: Chance, rng: random.Random) -> Event | None:
        return sample_chance(state, owed, rng)

    def randomize(self, state: OdysseyState, event: Event, rng: random.Random) -> Event:
        """Back fanning (ODY-FAN-1): the card picked from a hand is chance, drawn here."""
        t = cards(state)
        if isinstance(event, Hexascrewup):
            hand = sorted(t.code(k) for k in state.seats[event.against].hand)
            return msgspec.structs.replace(event, card=rng.choice(hand)) if hand else event
        if isinstance(event, Flip | Play | Use) and event.picked is not None and event.opponent is not None:
            if isinstance(event, Flip):
                kind = state.seats[event.actor or 0].run.top or 0
            elif isinstance(event, Play):
                kind = t.kind.get(event.card, 0)
            else:
                kind = state.pieces[event.piece].kind
            if fx.first(t.effects[kind], fx.PickFromHand) is not None:
                hand = sorted(t.code(k) for k in state.seats[event.opponent].hand)
                return msgspec.structs.replace(event, picked=rng.choice(hand))
        return event

    def view(self, state: OdysseyState, perspective: Perspective) -> dict[str, Any]:
        if isinstance(perspective, int) and not 0 <= perspective < state.n:
            raise WarrenError(f"seat {perspective} is not at this table (0..{state.n - 1})")
        return views.view(state, perspective)

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        return views.event_view(event, perspective)

    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: OdysseyState | None = None) -> str:
        record = self.event_view(event, perspective)
        if before is not None:
            record = views.seen_in_play(event, record, before)
        said = words.describe(event, record, names or (), self.card_words())
        return said if said is not None else super().describe(event, names, perspective)

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        return change_lines(self.worded_vocabulary(), before, after, names)

    def describe_fact(self, key: str, value: Any, names: Names) -> str:
        return fact_text(self.worded_vocabulary(), key, value, names)

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        return views.effect_view(effect, perspective)

    def redact(self, event: Event, perspective: Perspective, before: OdysseyState) -> Event:
        return views.redact(event, perspective, before)

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        return render.render(view, names, self.card_words(), self.phase_text(str(view.get("phase"))))

    def outcome(self, state: OdysseyState) -> Outcome | None:
        if not state.over:
            return None
        return Outcome(winners=list(state.winners), scores=totals(state),
                       reason=state.end_reason or "", rule=state.end_rule or "ODY-END-1")

    figure_names = ("round", "civ", "total", "creatures", "cities", "resources", "draw")
    seat_figures = frozenset({"civ", "total", "creatures", "cities", "resources", "draw"})
    figure_docs: ClassVar[dict[str, str]] = {
        "round": "the round after the turn", "civ": "the seat's Civ points",
        "total": "the seat's total, Civ points and the points of its creatures and cities (ODY-SCORE-1)",
        "creatures": "the seat's creatures in play (in the circle or inside its cities)",
        "cities": "the seat's cities in the Center Circle", "resources": "resource cards the seat has saved",
        "draw": "cards left in the seat's personal draw pile",
    }

    def figure_row(self, state: OdysseyState) -> tuple[Any, ...]:
        # Called at every turn end by the projections: one flat row, each seat's figures
        # inline, each circle read once for every seat (key_figures makes the dict of it).
        n, seats, pieces = state.n, state.seats, state.pieces
        resource = cards(state).resource
        circle, center = state.circle.spaces, state.center.spaces
        in_circle = [circle[pid].owner for pid in state.circle.order]
        cities = [center[c] for c in state.center.order]
        city_owners = [city.owner for city in cities]
        creatures = [in_circle.count(s) for s in range(n)]
        for city in cities:  # the creatures inside a city are its owner's, in play (ODY-INPLAY-1)
            creatures[city.owner] += len(city.inside)
        return (state.round, *[s.civ for s in seats], *totals(state), *creatures,
                *[city_owners.count(s) for s in range(n)],
                *[sum(1 for pid in s.saved if resource[pieces[pid].kind]) for s in seats],
                *[len(s.draw) for s in seats])


RULESET = KillerBunniesOdyssey()

