"""The analysis of a game (engine.analysis): chances, the timeline, turning points split into
luck and decisions, the better move, what an illegal event changed, and what a seat's
analysis may say."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from engine.analysis.chances import Chances, chances, score
from engine.analysis.timeline import (
    Analysis,
    LocalEvaluator,
    Settings,
    analyse,
    label,
    turn_starts,
    what_it_changes,
)
from engine.analysis.worlds import knowledge
from engine.intervals import wilson
from engine.reader import read_record
from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.rules import WarrenError
from engine.simulate import simulate_one

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SMALL = Settings(worlds=6, rollouts=2, seed=3)
TINY = Settings(worlds=3, rollouts=1, seed=3)


def _game(slug: str, index: int = 0, **kw: Any) -> Any:
    return simulate_one(get_ruleset(slug), 11, index, bots=("greedy", "random"), **kw)


def test_the_labels_follow_the_chess_engines_steps() -> None:
    assert [label(x) for x in (4.99, 5, 9.99, 10, 14.99, 15, 40)] == \
        [None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_finished_position_is_certain_and_a_shared_win_is_split() -> None:
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies")
    state = rs.setup(game.header)
    rs.fold(state, game.events)
    assert state.over
    outcome = rs.outcome(state)
    assert outcome is not None
    shares = score(rs, state, 2)
    assert shares is not None and sum(shares) == pytest.approx(1.0)
    share = 1 / len(outcome.winners)
    assert all(s == pytest.approx(share) for i, s in enumerate(shares) if i in outcome.winners)
    c = chances(rs, state, 2, worlds_n=5, rollouts=3)
    assert c.points == [100 * s for s in shares] and c.plays == 1


def test_chances_sum_to_a_hundred_carry_wilson_intervals_and_repeat_for_a_seed() -> None:
    rs = get_ruleset("bunnies")
    game = _game("bunnies", max_events=40)
    known = knowledge(rs, game.header, game.events, 0).states([30])[30]
    first = chances(rs, known, 2, worlds_n=8, rollouts=2, seed=5)
    assert first.plays == 16
    assert sum(first.points) == pytest.approx(100.0)
    for seat in range(2):
        low, high = wilson(first.points[seat] / 100 * 16, 16) or (0, 1)
        assert first.low[seat] == pytest.approx(100 * low, abs=0.01)
        assert first.high[seat] == pytest.approx(100 * high, abs=0.01)
        assert first.low[seat] <= first.points[seat] <= first.high[seat]
    assert chances(rs, known, 2, worlds_n=8, rollouts=2, seed=5) == first
    assert chances(rs, known, 2, worlds_n=8, rollouts=2, seed=6) != first


def test_the_timeline_has_every_turn_start_and_the_end_of_every_stretch() -> None:
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies", 1)
    known = knowledge(rs, game.header, game.events, "referee")
    result = analyse(known, SMALL)
    shown = [p["seq"] for p in result.timeline]
    starts = turn_starts(known)
    assert [p["seq"] for p in result.timeline if p["turn_start"]] == starts
    assert set(starts) <= set(shown) and starts[0] == 0 and starts[-1] == len(game.events)
    # between two positions shown, one mover: one player, or chance
    for a, b in pairwise(shown):
        movers = {(e.actor, e.actor is None) for e in game.events[a:b]}
        assert len(movers) == 1, f"events {a + 1}..{b} have several movers"
    # the end is known: the winner has it all
    assert result.timeline[-1]["chances"]["points"] in ([100.0, 0.0], [0.0, 100.0], [50.0, 50.0])


def test_luck_and_decisions_add_up_to_each_change() -> None:
    rs = get_ruleset("bunnies")
    game = _game("bunnies", 2, max_events=30)
    result = analyse(knowledge(rs, game.header, game.events, 0), TINY)
    points = {p["seq"]: p["chances"]["points"] for p in result.timeline}
    for total in result.totals:
        seat = total["seat"]
        moved = points[len(game.events)][seat] - points[0][seat]
        assert total["luck"] + total["decisions"] + total["others"] == pytest.approx(moved, abs=0.1)
    for tp in result.turning_points:
        assert tp["drop"] >= 5 and tp["label"] == label(tp["drop"])
        assert tp["luck"] + tp["decisions"] + tp["others"] == pytest.approx(-tp["drop"], abs=0.1)
        for step in tp["steps"]:
            assert step["luck"] + step["decision"] == pytest.approx(step["delta"], abs=0.02)
            if step["actor"] is None:
                assert step["decision"] == 0


def test_a_chance_event_is_luck_and_a_player_event_the_referee_sees_whole_is_a_decision() -> None:
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies", 3)
    result = analyse(knowledge(rs, game.header, game.events, "referee"), SMALL)
    steps = [st for tp in result.turning_points for st in tp["steps"]]
    assert steps, "no turning point: the test needs one"
    for st in steps:
        if st["actor"] is None:
            assert st["luck"] == st["delta"] and st["decision"] == 0
        else:  # KinderBunnies' decisions hold no chance of their own: the draws are events
            assert st["luck"] == 0 and st["decision"] == st["delta"]


def test_a_costly_decision_names_the_best_other_move() -> None:
    rs = get_ruleset("bunnies")
    for index in range(8):
        game = _game("bunnies", index, max_events=80)
        result = analyse(knowledge(rs, game.header, game.events, "referee"), Settings(worlds=1, rollouts=6))
        best = [tp["best"] for tp in result.turning_points if tp["best"]]
        if best:
            found = best[0]
            assert found["played_delta"] <= -10
            assert found["alternatives"] and found["best"] == found["alternatives"][0]["action"]
            assert all(a["delta"] <= found["best_delta"] for a in found["alternatives"])
            assert "Ada" not in found["best"] and "bot" in found["best"]  # said with the players' names
            return
    pytest.fail("no costly decision in eight games: the test proved nothing")


def test_an_illegal_event_gets_the_chances_before_it_the_alternatives_and_the_remedy() -> None:
    path = FIXTURES / "bunnies" / "illegal-BUN-LAY-2-nine-on-a-queen.jsonl"
    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("bunnies")
    result = analyse(knowledge(rs, record.header, record.events, "referee"), TINY)
    illegal = result.illegal
    assert illegal is not None and illegal["rule"] == "BUN-LAY-2"
    assert illegal["remedy_seq"] == illegal["seq"] - 1
    assert result.timeline[-1]["seq"] == illegal["seq"] - 1
    assert illegal["alternatives"] and illegal["best"] == illegal["alternatives"][0]["action"]
    assert "Ada" in illegal["message"] and "seat 0" not in illegal["message"]


def test_a_seat_is_told_no_card_it_did_not_see() -> None:
    """Everything a seat's analysis says (events, turning points, alternatives) names only
    cards that seat's own record names."""
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies", 4)
    events = game.events[:len(game.events) // 2]  # the game under way: hands still hidden
    _header, seen = redact_game(rs, game.header, events, 0)
    said = json.dumps(analyse(knowledge(rs, game.header, events, 0), TINY).to_dict(), ensure_ascii=False)
    shown = {e.card for e in seen if getattr(e, "card", None) not in (None, "?")}
    drawn = {e.card for e in events if type(e).__name__ == "Draw" and e.seat == 1}
    secret = {rs.card_text(c) for c in drawn - shown}
    assert secret, "the game kept nothing from seat 0: the test proved nothing"
    assert not [f for f in secret if f in said]


def test_a_proposed_action_shows_what_it_changes_and_a_refused_one_changes_nothing() -> None:
    rs = get_ruleset("bunnies")
    game = _game("bunnies", 5, max_events=30)
    known = knowledge(rs, game.header, game.events, "referee")
    seq = 20
    state = known.states([seq])[seq]
    seat = rs.to_act(state)[0]
    action = rs.legal_actions(state, seat)[0]
    changed = what_it_changes(known, seq, action, SMALL)
    assert changed["after"] is not None and len(changed["change"]) == 2
    from engine.bunnies.events import Lay

    refused = Lay(seq=seq + 1, actor=seat, cards=["XX"])
    assert what_it_changes(known, seq, refused, SMALL)["after"] is None
    with pytest.raises(WarrenError, match="no event 999"):
        what_it_changes(known, 999, action, SMALL)


def test_the_same_figures_in_one_process_or_split_in_any_order() -> None:
    """An evaluator may split the jobs as it likes (logstore spreads them over processes):
    each job's figures depend on the job alone."""
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies", 6)
    known = knowledge(rs, game.header, game.events, 1)

    def backwards(jobs: Any) -> list[Chances]:
        fresh = LocalEvaluator(known, TINY)
        return [fresh([job])[0] for job in reversed(list(jobs))][::-1]

    once = analyse(known, TINY).to_dict()
    assert analyse(known, TINY, evaluate=backwards).to_dict() == once
    assert Analysis.from_dict(json.loads(json.dumps(once))).to_dict() == once


def test_a_ruleset_that_deals_no_worlds_says_so_in_words() -> None:
    """A ruleset (a plugin's, say) that keeps unknowns but deals no worlds: a seat's analysis
    is refused in words, the referee's of a game that names everything has its one world."""
    from engine.ruleset import Ruleset
    from engine.trust_no_bunny import TrustNoBunny

    class NoWorlds(TrustNoBunny):
        sample_world = Ruleset.sample_world  # type: ignore[assignment]

    rs = NoWorlds()
    game = simulate_one(get_ruleset("trust-no-bunny"), 2, 0, bots=("random",))
    known = knowledge(rs, game.header, game.events, 0)
    with pytest.raises(WarrenError, match="cannot deal out the unknown cards of a Trust No Bunny position"):
        analyse(known, SMALL)
    referee = analyse(knowledge(rs, game.header, game.events, "referee"), Settings(worlds=2, rollouts=1))
    assert referee.timeline[0]["seq"] == 0 and referee.timeline[-1]["seq"] == len(game.events)


def test_a_side_wins_for_each_of_its_players() -> None:
    """Trust No Bunny's Werebunnies (or Townsfolk) win together: each scores a whole win."""
    rs = get_ruleset("trust-no-bunny")
    game = simulate_one(rs, 2, 0, bots=("greedy",))
    state = rs.setup(game.header)
    rs.fold(state, game.events)
    outcome = rs.outcome(state)
    assert outcome is not None and len(outcome.winners) >= 2
    n = len(game.header.players)
    assert score(rs, state, n) == [1.0 if s in outcome.winners else 0.0 for s in range(n)]


def test_bad_settings_and_positions_are_refused_in_words() -> None:
    with pytest.raises(WarrenError, match="at least one world"):
        Settings(worlds=0)
    rs = get_ruleset("kinderbunnies")
    game = _game("kinderbunnies")
    with pytest.raises(WarrenError, match="no event 500"):
        analyse(knowledge(rs, game.header, game.events, "referee"), SMALL, at=500)
    with pytest.raises(WarrenError, match="seat 7"):
        knowledge(rs, game.header, game.events, 7)
