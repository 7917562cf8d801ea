"""Replay: seeking equals folding, turns map to seqs and back, snapshots bound the work."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.bunnies import Bunnies
from engine.reader import check_events, read_record
from engine.record import Event
from engine.replay import PositionError, Replay, position_of
from engine.rules import Effect
from engine.simulate import SimulatedGame, simulate_one
from tests.games.bunnies.table import snapshot

ROOT = Path(__file__).resolve().parents[2]


class CountingBunnies(Bunnies):
    """Bunnies that counts the events it applies (the work a seek does)."""

    def __init__(self) -> None:
        super().__init__()
        self.applied = 0

    def apply(self, state: Any, event: Event) -> tuple[Effect, ...]:
        self.applied += 1
        return super().apply(state, event)


RULESET = CountingBunnies()
GAMES: list[SimulatedGame] = [
    simulate_one(RULESET, 5, 0),
    simulate_one(RULESET, 5, 1, bots=("greedy", "greedy"), options={"hand_size": 20}),
    simulate_one(RULESET, 5, 2, options={"steal_from": "hand_or_blind", "first_seat": 0}),
]
LONG = simulate_one(RULESET, 5, 3, bots=("prolong", "prolong"), max_events=3000)


def prefix_fold(game: SimulatedGame, n: int) -> Any:
    state = RULESET.setup(game.header)
    RULESET.fold(state, game.events[:n])
    return state


@pytest.mark.parametrize("every", [1, 3, 64])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.header.game_id)
def test_seeking_to_any_seq_equals_folding_that_prefix(game: SimulatedGame, every: int) -> None:
    replay = Replay(RULESET, game.header, game.events, every=every)
    assert replay.violation is None and replay.last_seq == len(game.events)
    # Seek out of order, so no seek can lean on the one before.
    order = list(range(len(game.events) + 1))
    order = order[::2] + order[1::2][::-1]
    for seq in order:
        assert snapshot(replay.state_at(seq)) == snapshot(prefix_fold(game, seq)), seq


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.header.game_id)
def test_turns_and_seqs_map_to_each_other(game: SimulatedGame) -> None:
    replay = Replay(RULESET, game.header, game.events)
    turns = replay.turns
    assert turns == list(range(turns[-1] + 1))  # 0 (the deal), then every go in order
    for turn in turns:
        start = replay.seq_for_turn(turn)
        assert replay.state_at(start).turn == turn
        if start < replay.last_seq:
            assert replay.turn_of_seq(start + 1) == turn  # the turn's first event is in it
    for seq in range(1, replay.last_seq + 1):
        turn = replay.turn_of_seq(seq)
        assert replay.state_at(seq - 1).turn == turn  # the event was played in that turn
        assert replay.seq_for_turn(turn) < seq
    assert replay.turn_of_seq(0) == 0


def test_turn_and_seq_out_of_range_are_clear_errors() -> None:
    game = GAMES[0]
    replay = Replay(RULESET, game.header, game.events)
    last_turn = replay.turns[-1]
    expected = f"turn {last_turn + 1} is out of range: this game has turns 0..{last_turn}"
    with pytest.raises(PositionError, match=re.escape(expected)):
        replay.seq_for_turn(last_turn + 1)
    with pytest.raises(PositionError, match=re.escape(f"positions 0..{replay.last_seq}")):
        replay.state_at(replay.last_seq + 1)
    with pytest.raises(PositionError):
        replay.state_at(-1)
    with pytest.raises(PositionError):
        replay.turn_of_seq(replay.last_seq + 1)
    with pytest.raises(PositionError, match=re.escape("events 1..")):
        replay.step(0)


@pytest.mark.parametrize("every", [1, 2, 16, 64])
@pytest.mark.parametrize("game", [GAMES[0], LONG], ids=["short", "long"])
def test_a_seek_applies_at_most_every_minus_one_events(game: SimulatedGame, every: int) -> None:
    replay = Replay(RULESET, game.header, game.events, every=every)
    worst = 0
    for seq in range(replay.last_seq + 1):
        RULESET.applied = 0
        replay.state_at(seq)
        worst = max(worst, RULESET.applied)
    assert worst <= every - 1
    if replay.last_seq > every:
        assert worst == every - 1  # and the bound is reached: the count is real


def test_the_long_game_is_long() -> None:
    assert len(LONG.events) == 3000


def test_a_step_shows_the_event_between_two_positions() -> None:
    game = GAMES[0]
    replay = Replay(RULESET, game.header, game.events)
    for seq in (1, 2, 17, replay.last_seq):
        step = replay.step(seq)
        assert step.event is game.events[seq - 1]
        assert snapshot(step.before) == snapshot(replay.state_at(seq - 1))
        assert snapshot(step.after) == snapshot(replay.state_at(seq))
    assert [e.kind for e in replay.step(1).effects] == ["dealt"]


def test_replay_hands_out_copies() -> None:
    game = GAMES[0]
    replay = Replay(RULESET, game.header, game.events)
    final = snapshot(replay.final)
    state = replay.state_at(replay.last_seq)
    state.hands[0].clear()
    state.pile.append("XX")
    replay.state_at(40).stock.clear()
    assert snapshot(replay.final) == final
    assert snapshot(replay.state_at(40)) == snapshot(prefix_fold(game, 40))


def test_position_names_seq_round_turn_phase_and_seat() -> None:
    game = GAMES[0]
    replay = Replay(RULESET, game.header, game.events)
    pos = replay.position(3)
    state = replay.state_at(3)
    assert pos == position_of(state)
    assert (pos.seq, pos.round, pos.turn, pos.phase, pos.active, pos.over) == (
        3, state.round, state.turn, state.phase, state.active, False)
    assert replay.position(replay.last_seq).over


@pytest.mark.parametrize("path", sorted((ROOT / "fixtures" / "bunnies").glob("illegal-*.jsonl")),
                         ids=lambda p: p.name)
def test_a_replay_stops_at_the_first_violation_as_the_check_does(path: Path) -> None:
    record = read_record(path.read_bytes(), str(path))
    replay = Replay(RULESET, record.header, record.events)
    checked = check_events(RULESET, record.header, record.events)
    assert replay.violation is not None and checked is not None
    assert (replay.violation.seq, replay.violation.rule) == (checked.seq, checked.rule)
    assert replay.last_seq == checked.seq - 1
    assert snapshot(replay.final) == snapshot(prefix_fold_record(record, checked.seq - 1))


def prefix_fold_record(record: Any, n: int) -> Any:
    state = RULESET.setup(record.header)
    RULESET.fold(state, record.events[:n])
    return state


def test_snapshot_spacing_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Replay(RULESET, GAMES[0].header, GAMES[0].events, every=0)
