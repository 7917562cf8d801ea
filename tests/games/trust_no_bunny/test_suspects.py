"""The "who could it be?" analysis: which pairs each perspective can rule out, and why."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import Accuse, Bless, CardLost, Gaze, Rest, Sabotage
from engine.trust_no_bunny.numbers import CRYSTAL_BALL, GNAW, HOMEBODY, MEDALLION, SHIELD, STEALTH
from engine.trust_no_bunny.suspects import MODEL, SuspectReport, suspects, suspects_from_view
from tests.games.trust_no_bunny.helpers import at_night, home, started

ALL_PAIRS_5 = list(combinations(range(5), 2))


def containing(pairs: list[tuple[int, int]], group: set[int]) -> list[tuple[int, int]]:
    return [p for p in pairs if p[0] in group or p[1] in group]


def test_at_the_start_every_pair_is_possible_for_a_spectator() -> None:
    g = started()
    report = suspects(g.state, "spectator")
    assert report.pairs == ALL_PAIRS_5
    assert report.probabilities == {s: pytest.approx(0.4) for s in range(5)}
    assert report.model == MODEL == "uniform over consistent pairs"


def test_before_the_roles_nobody_knows_anything() -> None:
    from tests.scenarios.trust_no_bunny import Scenario

    g = Scenario()
    assert suspects(g.state, 0).pairs == ALL_PAIRS_5
    assert suspects(g.state, "referee").pairs == ALL_PAIRS_5


def test_a_townsfolk_rules_out_itself_and_a_werebunny_knows_its_partner() -> None:
    g = started()
    report = suspects(g.state, 1)
    assert report.pairs == [p for p in ALL_PAIRS_5 if 1 not in p]
    assert report.probabilities[1] == 0.0 and report.probabilities[0] == pytest.approx(0.5)
    assert suspects(g.state, 3).pairs == [(3, 4)]
    assert suspects(g.state, 4).probabilities == {0: 0.0, 1: 0.0, 2: 0.0, 3: 1.0, 4: 1.0}
    assert suspects(g.state, "referee").pairs == [(3, 4)]


def test_more_wolves_through_than_attacked_puts_a_werebunny_on_guard() -> None:
    g = at_night([0, 3])
    g.night(guards={0: [1], 3: ([], [2, 3])})  # 4 wolves + 5 - 1 = 8 through
    report = suspects(g.state, "spectator")
    assert report.pairs == containing(ALL_PAIRS_5, {0, 3})
    assert any("8 wolves got through against 4" in d for d in report.deductions)
    # Seat 0 knows it is Townsfolk, so the guard who weakened is seat 3.
    assert suspects(g.state, 0).pairs == [(1, 3), (2, 3), (3, 4)]
    assert suspects(g.state, 0).probabilities[3] == 1.0


def test_deductions_name_the_players_when_given_their_names() -> None:
    """The deductions read "seats 0, 3" where the record has the players' names."""
    import re

    g = at_night([0, 3])
    g.night(guards={0: [1], 3: ([], [2, 3])})
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    said = suspects(g.state, 0, names).deductions
    assert "Ann is Townsfolk (own role)" in said
    assert any("so another guard weakened (Dee)" in d for d in said), said
    spectator = suspects(g.state, "spectator", names).deductions
    assert any("so a guard weakened (one of Ann and Dee)" in d for d in spectator), spectator
    assert not any(re.search(r"\bseats? \d", d) for d in said), said
    assert suspects(g.state, 0).pairs == suspects(g.state, 0, names).pairs  # only the words change


def test_a_townsfolk_guard_sees_what_the_totals_hide() -> None:
    # 4 wolves; seat 0 defends 3, Werebunny 3 weakens 2: 3 get through, fewer than attacked.
    g = at_night([0, 3])
    g.night(guards={0: [3], 3: ([], [2])})
    assert g.state.nights[-1]["unblocked"] == 3
    assert suspects(g.state, "spectator").pairs == ALL_PAIRS_5
    assert suspects(g.state, 2).pairs == [p for p in ALL_PAIRS_5 if 2 not in p]
    mine = suspects(g.state, 0)
    assert mine.pairs == [(1, 3), (2, 3), (3, 4)]
    assert any("another guard weakened" in d for d in mine.deductions)


def test_a_guard_that_defends_enough_learns_nothing() -> None:
    g = at_night([0, 3])
    g.night(guards={0: [1, 2, 3], 3: ([], [1])})  # 4 + 1 - 6: nothing through
    assert suspects(g.state, 0).pairs == [p for p in ALL_PAIRS_5 if 0 not in p]


def test_gnawed_points_put_a_werebunny_at_home() -> None:
    g = at_night([0, 1], mutations={3: GNAW, 4: STEALTH})
    g.night(guards={0: [1, 2, 3], 1: [1, 2, 3]}, home={3: home(Rest, gnaw=[1])})
    report = suspects(g.state, "spectator")
    assert report.pairs == containing(ALL_PAIRS_5, {2, 3, 4})


def test_the_medallion_points_at_the_other_guards() -> None:
    g = at_night([0, 1, 3], items=[MEDALLION] + [SHIELD] * 4, options={"guards": [3, 3, 2, 3, 3]})
    g.night(guards={0: [1, 2, 3], 1: [1, 2, 3], 3: ([], [1])})
    assert g.state.nights[-1]["unblocked"] == 0
    assert suspects(g.state, "spectator").pairs == ALL_PAIRS_5
    assert suspects(g.state, 0).pairs == [(1, 2), (1, 3), (1, 4), (2, 3), (3, 4)]


def test_the_crystal_ball_settles_one_player() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(home={2: home(Gaze, target=4)})
    assert suspects(g.state, 2).pairs == [(0, 4), (1, 4), (3, 4)]
    g = at_night([0, 1], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(home={2: home(Gaze, target=1)})
    assert suspects(g.state, 2).pairs == [(0, 3), (0, 4), (3, 4)]
    assert suspects(g.state, 1).pairs == [p for p in ALL_PAIRS_5 if 1 not in p]


def test_being_sabotaged_means_a_werebunny_was_at_home() -> None:
    g = at_night([0, 1, 3], quirks=[HOMEBODY] * 3 + [None, None], options={"guards": [3, 3, 2, 3, 3]})
    g.night(home={4: home(Sabotage, target=0, quirk=HOMEBODY), 2: home(Bless, target=4)})
    # Seat 0 was on guard and told of a Sabotage: seat 2 or seat 4, at home, is a Werebunny.
    assert suspects(g.state, 0).pairs == [(1, 2), (1, 4), (2, 3), (2, 4), (3, 4)]
    assert suspects(g.state, 1).pairs == [p for p in ALL_PAIRS_5 if 1 not in p]


def test_a_pair_everybody_else_accused_is_ruled_out() -> None:
    g = started()
    for seat in (0, 3, 4):
        g.add(Accuse, seat, suspects=[1, 2])
        g.add(CardLost, seat=seat, card=1)
    report = suspects(g.state, "spectator")
    assert (1, 2) not in report.pairs and len(report.pairs) == 9


def test_the_end_reveals_the_pair_to_everybody() -> None:
    g = started()
    g.muster(accuse={0: [3, 4], 1: [3, 4], 2: [3, 4]})
    assert g.state.over
    assert suspects(g.state, "spectator").pairs == [(3, 4)]
    assert suspects(g.state, 0).pairs == [(3, 4)]


def test_the_analysis_reads_only_the_view() -> None:
    g = at_night([0, 3])
    g.night(guards={0: [3], 3: ([], [2])})
    view = RULESET.view(g.state, 0)
    assert suspects_from_view(view) == suspects(g.state, 0)
    assert isinstance(RULESET.capabilities.suspects(g.state, "spectator"), SuspectReport)
    # Take the seat's own knowledge away and it knows what a spectator knows.
    assert suspects_from_view({**view, "me": None}).pairs == ALL_PAIRS_5
