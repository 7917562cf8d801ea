"""Trust No Bunny's worlds (engine/trust_no_bunny/worlds.py), beyond the contract suite's
three checks: the Werebunnies a perspective knows stay, tonight's unseen actions are played
again, a world's own nights are noted after what the seat was told, and a position that
cannot be dealt is refused in words."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.analysis.worlds import knowledge, worlds
from engine.registry import get_ruleset
from engine.rules import WarrenError
from engine.simulate import play_from, simulate_one
from engine.trust_no_bunny.events import Act, Guard
from engine.trust_no_bunny.state import TnbState

RS = get_ruleset("trust-no-bunny")


def _game(seed: int, players: int = 6) -> Any:
    return simulate_one(RS, seed, players, players=players, bots=("greedy", "random"), max_events=400)


def _positions(game: Any, perspective: Any) -> dict[int, TnbState]:
    known = knowledge(RS, game.header, game.events, perspective)
    return known.states(range(len(known.full) + 1))  # type: ignore[return-value]


def test_a_seat_keeps_its_own_role_and_a_werebunny_its_pair() -> None:
    game = _game(1)
    real = _positions(game, "referee")
    last = len(game.events)
    pair = real[last].werebunnies
    assert pair is not None
    town = next(s for s in range(6) if s not in pair)
    seen_town = seen_wb = 0
    for seat in (town, pair[0]):
        for seq, state in list(_positions(game, seat).items())[5::7]:
            for world in worlds(RS, state, 6, seed=seq):
                assert world.werebunnies is not None and len(set(world.werebunnies)) == 2
                if seat == town:
                    assert town not in world.werebunnies
                    seen_town += 1
                else:
                    assert world.werebunnies == pair
                    seen_wb += 1
    assert seen_town and seen_wb


def test_the_table_deals_every_pair_it_cannot_rule_out() -> None:
    game = _game(2)
    state = _positions(game, "spectator")[8]
    pairs = {w.werebunnies for w in worlds(RS, state, 300, seed=1)}
    assert len(pairs) == 15  # six players, nothing seen yet: any two of them


def test_tonights_unseen_actions_are_played_again() -> None:
    found = 0
    for seed in (1, 2, 3):
        game = _game(seed)
        for seq, state in _positions(game, "spectator").items():
            if state.phase != "night" or not any(type(p) is Act for p in state.plays):
                continue
            for world in worlds(RS, state, 2, seed=seq):
                assert not any(type(p) is Act for p in world.plays)
                assert sorted(world.agenda.decisions) == sorted(state.agenda.decisions)
                assert world.seq == state.seq
                for s, p in enumerate(state.plays):
                    if type(p) is Act:
                        assert (type(world.plays[s]) is Guard) == world.on_guard[s]
                play_from(RS, world, ["random"] * world.n, random.Random(seq), 60)
                found += 1
    assert found > 10


def test_a_worlds_own_nights_are_noted_after_what_the_seat_was_told() -> None:
    game = _game(4)
    positions = _positions(game, 0)
    seq, state = next((q, s) for q, s in positions.items() if len(s.nights) >= 2 and s.phase == "muster")
    told = RS.view(state, 0)["me"]["notes"]
    played = 0
    for world in worlds(RS, state, 4, seed=seq):
        nights = len(world.nights)
        play_from(RS, world, ["greedy"] * world.n, random.Random(1), 400)
        notes = RS.view(world, 0)["me"]["notes"]
        assert notes[:len(told)] == told
        later = notes[len(told):]
        if len(world.nights) > nights:
            played += 1
            assert later, "a night went by and the seat noted nothing"
        assert all(note.get("night", note.get("round", 0)) > nights for note in later)
    assert played


def test_a_position_that_cannot_be_dealt_is_refused_in_words() -> None:
    game = _game(5)
    state = _positions(game, "spectator")[40].copy()
    assert state.hidden is not None
    state.hidden.lo[1] = state.hidden.hi[1] = sum(state.hidden.unseen) + 1
    with pytest.raises(WarrenError, match="cannot be dealt out"):
        RS.sample_world(state, random.Random(0))
