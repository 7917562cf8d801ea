"""Ruleset ``kinderbunnies``: KinderBunnies, its Beginner, Advanced and Really Advanced games
as one ruleset with a ``level`` option, on the Killer Bunnies family kit (engine.killer).

Read it like the rulebook: numbers (the game's numbers), catalogue (the cards, data in
cards/*.toml, and each level's table), options, rulebook (rule ids), events, state, table
(what every part shares and how the game moves on), cards (what each effect primitive does
here), port (what a primitive written once reads of the game, and the ones it plays),
handlers (one per event), agenda (what the game waits for, the legal actions, chance
for simulators), worlds (a position's unseen cards dealt out whole, for the analysis of a
game), views (and the record a seat could have written), words (the game in words,
each perspective told what it saw), render (the terminal's picture), bots.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.capabilities import Capabilities
from engine.hidden import Pool
from engine.killer.naming import CardsByName, settle_event
from engine.killer.words import CardWords
from engine.kinderbunnies import agenda, bots, render, views, words, worlds
from engine.kinderbunnies.catalogue import cards_for, catalogue, check_hash
from engine.kinderbunnies.events import EVENT_TYPES
from engine.kinderbunnies.handlers import HANDLERS
from engine.kinderbunnies.numbers import HAND_SIZE, MAX_PLAYERS
from engine.kinderbunnies.options import OPTION_HELP, KinderOptions
from engine.kinderbunnies.port import ADOPTED
from engine.kinderbunnies.rulebook import RULES
from engine.kinderbunnies.state import KinderState
from engine.kinderbunnies.table import cards, pile_size
from engine.pending import Agenda, Chance, Decision, Window
from engine.record import Event, Header
from engine.rules import WarrenError
from engine.ruleset import Outcome, Perspective, Ruleset
from engine.wording import Names, Vocabulary

CARD_FIELDS = frozenset({"card", "cards", "carrot", "carrots", "on", "pay", "bunnies"})
"""The fields of KinderBunnies' actions that name cards, which a person may type by name."""


class KinderBunnies(CardsByName, Ruleset[KinderState, KinderOptions]):
    card_fields = CARD_FIELDS
    slug: ClassVar[str] = "kinderbunnies"
    adopted: ClassVar[tuple[type, ...]] = ADOPTED
    """The primitives written once (engine.killer.primitive) it plays, its port\'s table."""
    title: ClassVar[str] = "KinderBunnies (Beginner, Advanced and Really Advanced)"
    rulebook = RULES
    min_players = 2
    seat_options = frozenset({"youngest"})
    max_players = MAX_PLAYERS
    state_type = KinderState
    options_type = KinderOptions
    option_help = OPTION_HELP
    event_types = EVENT_TYPES
    game_over_rule = "KIN-END-3"
    vocabulary = words.VOCABULARY
    view_type = views.KinderView
    phase_words: ClassVar[dict[str, str]] = {**Ruleset.phase_words, "deal": "dealing", "play": "playing",
                                                "reveal": "the carrots revealed"}
    capabilities = Capabilities(
        values={"greedy": bots.greedy_value},
        redacts=True,
        action_notation={"draw": ("seat", "card"), "play": ("card", "on"), "buy": ("carrot",),
                         "discard": ("card",), "roll": ("faces",), "spin": ("winner",),
                         "reveal": ("card",), "choose": ()},
        table_events=frozenset({"setaside", "draw", "roll", "spin", "reveal"}),
    )

    def build_handlers(self) -> dict[Any, Any]:
        return dict(HANDLERS)

    def record_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every record names the content hash of the cards it is played with (R-KIN-1)."""
        return {**options, "catalogue": catalogue().content_hash}

    def check_header(self, header: Header) -> None:
        super().check_header(header)
        opts: KinderOptions = self.options(header)
        check_hash(opts.catalogue)
        if not 0 <= opts.youngest < len(header.players):
            raise WarrenError(f"bad option for kinderbunnies: youngest must be a seat of the game "
                              f"(0..{len(header.players) - 1}), not {opts.youngest}")
        if opts.beginner_bad_news and opts.level != "beginner":
            raise WarrenError("bad option for kinderbunnies: beginner_bad_news is for a Beginner "
                              "game (the Yellow deck brings the Bad News cards in the others)")

    def setup(self, header: Header) -> KinderState:
        opts: KinderOptions = self.options(header)
        C = cards_for(opts.level, opts.beginner_bad_news)
        n = len(header.players)
        partial = header.source == "recorded"
        s = KinderState.__new__(KinderState)
        s._init_position()
        s.level = opts.level
        s.opts_key = (opts.level, opts.beginner_bad_news, opts.carrot_pick)
        s.n = n
        s.hand_size = HAND_SIZE[opts.level]
        s.youngest = opts.youngest
        s.partial = partial
        s.pool = Pool.of(str(c) for c in (*C.draw_pile, *C.orange)) if partial else None
        s.hands = [[] for _ in range(n)]
        s.table = [[] for _ in range(n)]
        s.bucks = [[] for _ in range(n)]
        s.carrots = [[] for _ in range(n)]
        s.pile = set() if partial else set(C.draw_pile)
        s.pile_hidden = len(C.draw_pile) if partial else 0
        s.discard = []
        s.carrot_pile = list(C.carrot_cards)
        s.orange = []
        s.dealing = True
        s.deal_seat = opts.youngest
        s.phase = "deal"
        s.refill = []
        s.skips = [0] * n
        s.played = False
        s.forced = None
        s.task = None
        s.ending = False
        s.magic = None
        s.winners = []
        s.scores = []
        return s

    def copy_state(self, state: KinderState) -> KinderState:
        return state.copy()

    def pending(self, state: KinderState) -> Agenda:
        return agenda.pending(state)

    def decision_actions(self, state: KinderState, decision: Decision) -> list[Event]:
        return agenda.decision_actions(state, decision)

    def window_actions(self, state: KinderState, seat: int, window: Window) -> list[Event]:
        return agenda.window_actions(state, seat, window)

    def sample_world(self, state: KinderState, rng: random.Random) -> KinderState:
        return worlds.fill(state, rng)

    def sample_chance(self, state: KinderState, owed: Chance, rng: random.Random) -> Event | None:
        return agenda.sample_chance(state, owed, rng)

    def view(self, state: KinderState, perspective: Perspective) -> dict[str, Any]:
        if isinstance(perspective, int) and not 0 <= perspective < state.n:
            raise WarrenError(f"seat {perspective} is not at this table (0..{state.n - 1})")
        return views.view(state, perspective)

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        return views.event_view(event, perspective)

    def redact(self, event: Event, perspective: Perspective, before: KinderState) -> Event:
        return views.redact(event, perspective, before)

    # -- in words (words.py) ------------------------------------------------------------
    def describe(self, event: Event, names: Names | None = None,
                 perspective: Perspective = "referee", before: Any = None) -> str:
        said = words.describe(event, self.event_view(event, perspective), perspective, names or (),
                              words.card_words())
        return said if said is not None else super().describe(event, names, perspective)

    def card_words(self) -> CardWords:
        return words.card_words()

    def worded_vocabulary(self) -> Vocabulary:
        return words.vocabulary(words.card_words())

    def describe_changes(self, before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
        return words.describe_changes(before, after, names, words.card_words())

    def settle_copies(self, state: KinderState, event: Event) -> Event:
        """A card named by a name its copies share (the Bunny Buck cards): the copy the actor
        holds, in his hand to play or among his Bunny Bucks to pay."""
        if event.actor is None or not 0 <= event.actor < len(state.hands):
            return event
        reader = self.card_reader()
        holding = {"card": state.hands[event.actor], "pay": state.bucks[event.actor]}
        settled: Event = settle_event(reader, event, holding)
        return settled

    def describe_fact(self, key: str, value: Any, names: Names) -> str:
        return words.describe_fact(key, value, names, words.card_words())

    def describe_outcome(self, outcome: Outcome, names: Names) -> str:
        return words.describe_outcome(outcome, names, words.card_words())

    def render(self, view: dict[str, Any], names: list[str]) -> str:
        return render.render(view, names, words.card_words())

    def outcome(self, state: KinderState) -> Outcome | None:
        if not state.over:
            return None
        from engine.kinderbunnies.table import cards, money

        ra = state.level == "really-advanced"
        magic = None if state.magic is None else cards(state).orange_letter.get(state.magic)
        return words.KinderOutcome(
            winners=list(state.winners), scores=list(state.scores),
            reason=("magic_carrot" if state.winners else "no_winner") if ra else
            ("shared_win" if len(state.winners) > 1 else "most_carrots_and_bunnies"),
            rule="KIN-RA-3" if ra else "KIN-END-2",
            carrots=[len(c) for c in state.carrots], bunnies=[len(t) for t in state.table],
            bucks=[money(state, s) for s in range(state.n)], magic_carrot=magic)

    figure_names = ("bunnies", "carrots", "bucks", "carrot_pile", "draw")
    seat_figures = frozenset({"bunnies", "carrots", "bucks"})
    figure_docs: ClassVar[dict[str, str]] = {
        "bunnies": "the seat's bunnies on the table", "carrots": "carrots the seat holds",
        "bucks": "Bunny Bucks the seat holds (the cards' value)",
        "carrot_pile": "carrots left in the carrot pile",
        "draw": "cards left in the draw pile (those nobody saw included)",
    }

    def figure_row(self, state: KinderState) -> tuple[Any, ...]:
        # Called at every turn end by the projections: one flat row, each seat's figures
        # inline (key_figures makes the dict of it).
        value = cards(state).bucks.__getitem__
        return (*map(len, state.table), *map(len, state.carrots),
                *[sum(map(value, held)) for held in state.bucks],
                len(state.carrot_pile), pile_size(state))


RULESET = KinderBunnies()
