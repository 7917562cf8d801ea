"""Properties of simulated games of Trust No Bunny at every player count (5 to 8).

Over games played by the random and the heuristic bots, with the variants drawn too:
every game checks clean and replays the same way every time; cards are conserved at
every position; no seat's view holds another player's role, Quirk, Mutation, Item or
hand before the end reveals them (a seat's view is the spectator's plus its own ``me``);
events and effects seen by a seat hide the others' secret actions; and the "who could it
be?" analysis never rules out the true pair, for any perspective at any position.
"""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.reader import check_events
from engine.replay import Replay
from engine.simulate import SimulatedGame, simulate_one
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import Guard, HomeAction
from engine.trust_no_bunny.render import PRIVATE_EFFECTS, REFEREE_EFFECTS, WEREBUNNY_EFFECTS
from engine.trust_no_bunny.suspects import suspects

SECRET_KEYS = {"role", "quirk", "mutation", "item", "items", "hand", "offers", "partner", "deck",
               "discard", "owed", "tonight", "quirks", "mutations", "werebunnies"}
REFEREE_ONLY = {"seats", "deck", "discard", "owed"}

games = st.builds(
    lambda players, seed, bots, options: simulate_one(
        RULESET, seed, 0, players=players, bots=bots, options=options),
    players=st.integers(5, 8),
    seed=st.integers(0, 10_000),
    bots=st.sampled_from([("random",), ("greedy",), ("random", "greedy"), ("heuristic", "random")]),
    options=st.fixed_dictionaries({}, optional={
        "rejection_raise": st.sampled_from(["team_size", "one"]),
        "early_end": st.booleans(),
        "guard_timeout": st.sampled_from(["staged", "whole_hand"]),
    }),
)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@SETTINGS
@given(games)
def test_simulated_games_check_clean_and_end(game: SimulatedGame) -> None:
    assert check_events(RULESET, game.header, game.events) is None
    state = RULESET.setup(game.header)
    RULESET.fold(state, game.events)
    assert state.over and RULESET.outcome(state) is not None


@SETTINGS
@given(games)
def test_replay_is_deterministic(game: SimulatedGame) -> None:
    again = simulate_one(RULESET, int(game.header.game_id.split("-")[-2]), 0,
                         players=len(game.header.players),
                         bots=_bots(game), options=dict(game.header.options))
    assert again.lines() == game.lines()
    replay = Replay(RULESET, game.header, game.events, every=16)
    state = RULESET.setup(game.header)
    for event in game.events:
        RULESET.apply(state, event)
        if event.seq % 7 == 0:
            assert RULESET.view(replay.state_at(event.seq), "referee") == RULESET.view(state, "referee")
    assert RULESET.view(replay.final, "referee") == RULESET.view(state, "referee")


def _bots(game: SimulatedGame) -> tuple[str, ...]:
    kinds = [p.name.split("-bot-")[0] for p in game.header.players]
    return tuple(dict.fromkeys(kinds)) if len(set(kinds)) > 1 else (kinds[0],)


@SETTINGS
@given(games)
def test_cards_are_conserved(game: SimulatedGame) -> None:
    state = RULESET.setup(game.header)
    deck = list(state.table.deck)
    for event in game.events:
        RULESET.apply(state, event)
        assert state.card_counts() == deck
        assert all(v >= 0 for hand in state.hands for v in hand)


@SETTINGS
@given(games)
def test_views_hide_what_the_rules_hide(game: SimulatedGame) -> None:
    state = RULESET.setup(game.header)
    n = state.n
    for event in game.events:
        effects = RULESET.apply(state, event)
        spectator = RULESET.view(state, "spectator")
        assert not (set(spectator) & REFEREE_ONLY)
        if not state.over:
            assert not (_keys(spectator) & SECRET_KEYS), _keys(spectator) & SECRET_KEYS
        for seat in range(n):
            seen = RULESET.view(state, seat)
            me = seen.pop("me")
            assert me["seat"] == seat
            assert {**seen, "perspective": "spectator"} == spectator
            if not state.over:
                _seat_keeps_to_itself(state, seat, me)
            _event_and_effects_hidden(event, effects, seat, state)


def _seat_keeps_to_itself(state: Any, seat: int, me: dict[str, Any]) -> None:
    """A seat's own block names no other player's secrets, only what it was told."""
    if state.is_werebunny[seat]:
        assert me["partner"] in state.werebunnies
    else:
        assert "partner" not in me
    for note in me["notes"]:
        assert note["kind"] in {"guarded", "medallion", "gnawed", "blessed", "blessed_by", "predicted",
                                "gaze", "brewed", "sabotage", "sabotage_cards", "sabotaged", "drew",
                                "lost_card"}, note
        if note["kind"] == "gaze":
            assert set(note) == {"night", "kind", "target", "werebunny"}


def _event_and_effects_hidden(event: Any, effects: tuple[Any, ...], seat: int, state: Any) -> None:
    seen = RULESET.event_view(event, seat)
    if event.actor is not None and event.actor != seat and isinstance(event, (Guard, HomeAction)):
        assert set(seen) == {"seq", "type", "actor"}
    if event.actor is None and "hands" in msgspec.to_builtins(event):
        assert seen.get("hands") == msgspec.to_builtins(event)["hands"][seat]
    for effect in effects:
        shown = RULESET.effect_view(effect, seat)
        if effect.kind in REFEREE_EFFECTS:
            assert shown is None
        if effect.kind in PRIVATE_EFFECTS and effect.data["seat"] != seat:
            assert shown is None
        if effect.kind in WEREBUNNY_EFFECTS and not state.is_werebunny[seat]:
            assert shown is None
        if effect.kind == "cards_drawn":
            assert shown is not None and set(shown.data) == {"seat", "cards"}


@SETTINGS
@given(games)
def test_the_true_pair_is_always_a_suspect(game: SimulatedGame) -> None:
    state = RULESET.setup(game.header)
    n = len(game.header.players)
    for event in game.events:
        RULESET.apply(state, event)
        if state.werebunnies is None:
            continue
        a, b = state.werebunnies
        for perspective in [*range(n), "spectator", "referee"]:
            report = suspects(state, perspective)
            assert (a, b) in report.pairs
            assert report.probabilities[a] > 0 and report.probabilities[b] > 0
            assert abs(sum(report.probabilities.values()) - 2.0) < 1e-9
            if perspective == "referee" or (isinstance(perspective, int) and state.is_werebunny[perspective]):
                assert report.pairs == [(a, b)]
