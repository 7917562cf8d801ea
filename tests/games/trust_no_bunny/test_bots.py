"""The Trust No Bunny bots: found by name, always legal, and playing by their rules of thumb."""

from __future__ import annotations

import random

import pytest

from engine.bots import RandomBot, ValueBot, make_bot
from engine.registry import get_ruleset
from engine.rules import WarrenError
from engine.simulate import simulate
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.bots import HeuristicBot, cheapest_cover
from engine.trust_no_bunny.events import Gaze, Guard, Propose, Sabotage, Vote
from engine.trust_no_bunny.numbers import CRYSTAL_BALL, SHIELD
from tests.games.trust_no_bunny.helpers import at_night, voting


def test_bots_are_found_by_name() -> None:
    rng = random.Random(1)
    assert isinstance(make_bot("heuristic", rng, RULESET), HeuristicBot)
    assert isinstance(make_bot("greedy", rng, RULESET), HeuristicBot)
    assert isinstance(make_bot("random", rng, RULESET), RandomBot)
    assert isinstance(make_bot("greedy", rng, get_ruleset("bunnies")), ValueBot)
    with pytest.raises(WarrenError, match="heuristic"):
        make_bot("clever", rng, RULESET)
    with pytest.raises(WarrenError):
        make_bot("heuristic", rng)


def test_the_heuristic_bot_always_picks_a_legal_action() -> None:
    rng = random.Random(5)
    bot = HeuristicBot(rng)
    for players in (5, 8):
        for game in simulate(RULESET, 3, 11, players=players, bots=("heuristic", "random")):
            state = RULESET.setup(game.header)
            for event in game.events:
                for seat in RULESET.to_act(state):
                    assert bot.decide(state, seat) in RULESET.legal_actions(state, seat)
                RULESET.apply(state, event)


def test_cheapest_cover_plays_just_enough() -> None:
    assert cheapest_cover([0, 2, 1, 1, 1], 4) == [4]
    assert cheapest_cover([0, 2, 1, 1, 0], 4) == [1, 3]
    assert cheapest_cover([0, 1, 0, 0, 0], 4) == [1]
    assert cheapest_cover([0, 3, 3, 3, 3], 0) == []


def test_townsfolk_guards_play_their_share() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5, hands=[[1, 2, 4]] * 5)
    play = HeuristicBot(random.Random(0)).decide(g.state, 0)
    # 4 wolves and, for all seat 0 knows, even odds that seat 1 is a Werebunny weakening
    # about 2: (4 + 1) / 1.5 trusted guards, rounded up, less the Shield's point, is 3.
    assert isinstance(play, Guard) and play.defend == [1, 2] and play.weaken == []


def test_a_townsfolk_votes_against_a_team_with_a_known_werebunny() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(home={2: Gaze(seq=0, actor=None, target=4)})
    g.dawn()
    g.muster()
    g.add(Propose, g.state.mayor, team=[0, 3, 4])
    bot = HeuristicBot(random.Random(0))
    assert bot.decide(g.state, 2) == Vote(seq=g.seq, actor=2, accept=False)
    assert bot.decide(g.state, 4) == Vote(seq=g.seq, actor=4, accept=True)


def test_a_mayor_picks_the_least_suspected() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(home={2: Gaze(seq=0, actor=None, target=4)})
    g.dawn()
    g.muster()
    g.state.mayor = 2  # seat 2 knows seat 4 is a Werebunny
    g.state.active = 2
    team = HeuristicBot(random.Random(0)).decide(g.state, 2)
    assert isinstance(team, Propose) and 4 not in team.team and 2 in team.team


def test_werebunnies_sabotage_at_home_and_accept_their_own_teams() -> None:
    g = at_night([0, 1])
    assert isinstance(HeuristicBot(random.Random(0)).decide(g.state, 3), Sabotage)
    g = voting([0, 3])
    assert HeuristicBot(random.Random(0)).decide(g.state, 4).accept is True  # type: ignore[attr-defined]
