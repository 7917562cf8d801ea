"""Properties of Bunnies over simulated games (seeds, options and bots drawn by hypothesis).

Each game is played by warren's bots and checked position by position: it checks clean,
replays the same way twice, keeps all 52 cards, never shows a seat a card hidden from it,
seeks to the same state as a prefix fold, lists exactly the actions the rules accept, and
a refused event leaves the state as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bunnies import RULESET
from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import ALL_SLOTS, OWN_SLOTS, SHARED_SLOTS
from engine.bunnies.numbers import DECK
from engine.bunnies.rulebook import RULES
from engine.bunnies.state import BunniesState
from engine.bunnies.views import view
from engine.reader import check_events, read_record
from engine.record import Event
from engine.replay import Replay
from engine.rules import RuleViolation
from engine.simulate import SimulatedGame, simulate_one
from tests.games.bunnies.table import snapshot

legal_actions = RULESET.legal_actions

MAX_EVENTS = 600
"""Long enough for most games to finish; a prolonging bot's game stops unfinished, which a
record may."""

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.sampled_from([
    {}, {"steal_from": "hand_or_blind"}, {"first_seat": 0}, {"hand_size": 20}, {"hand_size": 3},
    {"hand_size": 12, "steal_from": "hand_or_blind", "first_seat": 0},
])
BOTS = st.sampled_from([("random", "greedy"), ("random", "random"), ("greedy", "greedy"),
                        ("greedy", "prolong")])


@st.composite
def games(draw: st.DrawFn) -> SimulatedGame:
    seed = draw(st.integers(0, 2**32 - 1))
    return simulate_one(RULESET, seed, 0, bots=draw(BOTS), options=draw(OPTIONS),
                        max_events=MAX_EVENTS)


def positions(game: SimulatedGame) -> Iterator[tuple[BunniesState, Event | None]]:
    """Each position of a game (a copy), with the event played from it (None at the end)."""
    state: BunniesState = RULESET.setup(game.header)
    for event in game.events:
        yield RULESET.copy_state(state), event
        RULESET.apply(state, event)
    yield state, None


def cards_in(value: Any) -> set[str]:
    """Every card name anywhere inside a view."""
    found: set[str] = set()
    if isinstance(value, str):
        if value in DECK:
            found.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            found |= cards_in(key) | cards_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            found |= cards_in(item)
    return found


@SETTINGS
@given(games())
def test_simulated_games_check_clean_and_read_back_sealed(game: SimulatedGame) -> None:
    assert check_events(RULESET, game.header, game.events) is None
    record = read_record(b"".join(game.lines()), "simulated")
    assert record.chain == "sealed"
    assert [msgspec.structs.replace(e, hash=None) for e in record.events] == game.events


@SETTINGS
@given(games())
def test_replay_is_deterministic(game: SimulatedGame) -> None:
    first = [snapshot(state) for state, _ in positions(game)]
    second = [snapshot(state) for state, _ in positions(game)]
    assert first == second
    again = simulate_one(RULESET, int(game.header.game_id.split("-")[1]), 0, bots=[
        p.name.split("-")[0] for p in game.header.players], options=game.header.options,
        max_events=MAX_EVENTS)
    assert again.lines() == game.lines()


@SETTINGS
@given(games())
def test_all_52_cards_are_somewhere_at_every_position(game: SimulatedGame) -> None:
    for state, _ in positions(game):
        cards = sorted(state.all_cards())
        assert cards == ([] if state.phase == "setup" else sorted(DECK))


@SETTINGS
@given(games())
def test_a_seat_never_sees_a_card_hidden_from_it(game: SimulatedGame) -> None:
    for state, _ in positions(game):
        stock = set(state.stock)
        for seat in (0, 1):
            unseen_blinds = {card for slot, card in state.blinds.items() if slot not in state.known[seat]}
            hidden = set(state.hands[1 - seat]) | stock | unseen_blinds
            seen = cards_in(view(state, seat))
            assert not seen & hidden
            # ...and it does see what it is entitled to.
            assert set(state.hands[seat]) | set(state.pile) <= seen
        public = cards_in(view(state, "spectator"))
        assert public == set(state.pile)


@SETTINGS
@given(games(), st.sampled_from([1, 2, 7, 64]), st.data())
def test_seeking_equals_the_prefix_fold(game: SimulatedGame, every: int, data: st.DataObject) -> None:
    replay = Replay(RULESET, game.header, game.events, every=every)
    assert replay.violation is None and replay.last_seq == len(game.events)
    seqs = data.draw(st.lists(st.integers(0, len(game.events)), min_size=1, max_size=8))
    for n in [*seqs, 0, len(game.events)]:
        folded = RULESET.setup(game.header)
        RULESET.fold(folded, game.events[:n])
        assert snapshot(replay.state_at(n)) == snapshot(folded)


@SETTINGS
@given(games())
def test_the_legal_actions_are_accepted(game: SimulatedGame) -> None:
    for state, _ in positions(game):
        for seat in (0, 1):
            for action in legal_actions(state, seat):
                RULESET.apply(RULESET.copy_state(state), action)  # raises if refused


def _key(event: Event) -> tuple[Any, ...]:
    """An event without its seq, up to the order its cards are named in."""
    if isinstance(event, Lay):
        return ("lay", event.actor, tuple(sorted(event.cards)))
    names = [f for f in event.__struct_fields__ if f not in ("seq", "hash", "claims")]
    return (type(event).__name__, *(getattr(event, f) for f in names))


@st.composite
def any_event(draw: st.DrawFn, state: BunniesState) -> Event:
    """An event at this position, mostly illegal but with plenty of legal ones among them."""
    seq = state.seq + 1
    actor = draw(st.sampled_from([state.active if state.active is not None else 0, 0, 1, None]))
    near = sorted({*state.hands[0], *state.hands[1], *state.blinds.values(), *state.pile})
    card = st.sampled_from([*near, *DECK, "", "ZZ"] if near else [*DECK, ""])
    slot = st.sampled_from([*ALL_SLOTS, "9.9", ""])
    kind = draw(st.sampled_from(["draw", "lay", "pickup", "flip", "steal", "peek", "end", "deal"]))
    if kind == "draw":
        return Draw(seq=seq, actor=actor)
    if kind == "lay":
        return Lay(seq=seq, actor=actor, cards=draw(st.lists(card, max_size=4)))
    if kind == "pickup":
        return Pickup(seq=seq, actor=actor)
    if kind == "flip":
        return Flip(seq=seq, actor=actor, slot=draw(slot))
    if kind == "steal":
        return Steal(seq=seq, actor=actor, card=draw(card))
    if kind == "peek":
        return Peek(seq=seq, actor=actor, slot=draw(slot))
    if kind == "end":
        return EndTurn(seq=seq, actor=actor)
    deck = draw(st.permutations(DECK))
    return Deal(seq=seq, actor=None, hands=[list(deck[:7]), list(deck[7:14])],
                blinds=[list(deck[14:18]), list(deck[18:22])], shared=list(deck[22:25]),
                stock=list(deck[25:]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.data())
def test_the_rules_accept_exactly_the_legal_actions_and_a_refusal_changes_nothing(
    game: SimulatedGame, data: st.DataObject,
) -> None:
    every = list(positions(game))
    picks = data.draw(st.lists(st.integers(0, len(every) - 1), min_size=1, max_size=6))
    for index in picks:
        state = every[index][0]
        for _ in range(8):
            event = data.draw(any_event(state))
            trial = RULESET.copy_state(state)
            before, seen = snapshot(state), view(state, "referee")
            try:
                RULESET.apply(trial, event)
            except RuleViolation as exc:
                assert exc.rule in RULES
                assert snapshot(trial) == before
                assert view(trial, "referee") == seen
                continue
            if isinstance(event, Deal):
                assert state.phase == "setup"  # the one chance event, and only first
                continue
            assert event.actor is not None
            legal = {_key(e) for e in legal_actions(state, event.actor)}
            assert _key(event) in legal


@SETTINGS
@given(games())
def test_shared_cards_are_gone_before_anyone_can_go_out(game: SimulatedGame) -> None:
    # Ruling R-BUN-9: a seat's last own blind card lies under a shared card, which lies
    # under the top card, so no own blind card can leave before the shared ones have.
    for state, _ in positions(game):
        if state.phase == "setup":
            continue
        shared_left = [s for s in SHARED_SLOTS if s in state.blinds]
        for seat in (0, 1):
            own_left = [s for s in OWN_SLOTS[seat] if s in state.blinds]
            if not own_left:
                assert shared_left == []
        if state.over:
            assert shared_left == []
            assert state.scores is not None
            blinds_left = sum(1 for s in OWN_SLOTS[1 - state.out] if s in state.blinds)
            bunnies = [len(state.bunnies[0]), len(state.bunnies[1])]
            bunnies[state.out] += max(4, 3 * blinds_left)
            assert state.scores == bunnies
