"""Every rule of Trust No Bunny, allowing and forbidding, from hand-built positions.

Each rule id has an ``allow`` case (the rule lets something happen, or makes it happen)
and a ``forbid`` case. For a rule about what a player or chance may do, ``forbid`` shows
an event refused with exactly that rule id, the state left untouched and the fast fold
agreeing (``refuses``). For a rule that derives a consequence, ``forbid`` shows the
consequence withheld when its condition is not met, or a record claiming it refused. The
last tests fail when a rule of the rulebook has no case of either kind.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.rules import WarrenError
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import (
    Accuse,
    Act,
    Bless,
    BlessedBy,
    Brew,
    CardLost,
    ChooseItem,
    Deal,
    Draw,
    Gaze,
    GazeTold,
    Guard,
    NightStage,
    Offers,
    Predict,
    Propose,
    Ready,
    Rest,
    Reveal,
    Roles,
    Sabotage,
    Staged,
    Timeout,
    Vote,
)
from engine.trust_no_bunny.numbers import (
    BRAVE,
    CRYSTAL_BALL,
    FRENZY,
    GNAW,
    HOARDER,
    HOMEBODY,
    HORSESHOE,
    MEDALLION,
    MYSTICAL_RECIPE,
    SHIELD,
    STEALTH,
)
from engine.trust_no_bunny.render import event_view
from engine.trust_no_bunny.rulebook import RULES
from tests.games.trust_no_bunny.helpers import at_night, home, refuses, refuses_event, started, voting
from tests.scenarios.trust_no_bunny import Scenario, TableScenario

ALLOW: dict[str, Callable[[], None]] = {}
FORBID: dict[str, Callable[[], None]] = {}


def allow(rule: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(case: Callable[[], None]) -> Callable[[], None]:
        ALLOW[rule] = case
        return case
    return register


def forbid(rule: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(case: Callable[[], None]) -> Callable[[], None]:
        FORBID[rule] = case
        return case
    return register


def fresh(**kw: object) -> Scenario:
    return Scenario(**kw)  # type: ignore[arg-type]


def roles_fields(g: Scenario, **over: object) -> dict[str, object]:
    fields: dict[str, object] = {"werebunnies": g.werebunnies, "quirks": g.quirks,
                                 "mutations": g.mutations, "first_mayor": 0}
    fields.update(over)
    return fields


# -- set-up -------------------------------------------------------------------------------
@allow("TNB-SET-1")
def _() -> None:
    g = fresh()
    g.roles()
    assert g.state.werebunnies == (3, 4) and g.state.phase == "offers"


@forbid("TNB-SET-1")
def _() -> None:
    g = fresh()
    refuses(g, "TNB-SET-1", Roles, **roles_fields(g, werebunnies=[2, 2]))
    g.roles()
    refuses(g, "TNB-SET-1", Roles, **roles_fields(g))


@allow("TNB-SET-2")
def _() -> None:
    g = fresh(quirks=[BRAVE, HOARDER, HOMEBODY, None, None])
    g.roles()
    assert g.state.quirks == [BRAVE, HOARDER, HOMEBODY, None, None]


@forbid("TNB-SET-2")
def _() -> None:
    g = fresh()
    refuses(g, "TNB-SET-2", Roles, **roles_fields(g, quirks=[BRAVE] * 5))
    refuses(g, "TNB-SET-2", Roles, **roles_fields(g, quirks=["sleepy", BRAVE, BRAVE, None, None]))


@allow("TNB-SET-3")
def _() -> None:
    # The rulebook's own Mutation, for both Werebunnies: the default (R-TNB-5).
    g = fresh(mutations={3: GNAW, 4: GNAW})
    assert g.header.options == {}
    g.roles()
    assert g.state.mutations == [None, None, None, GNAW, GNAW]
    # A game played without Mutations.
    g = fresh(mutations={}, options={"mutations": []})
    g.roles()
    assert g.state.mutations == [None] * 5
    # warren's inventions, by option (the scenario names the ones it uses).
    g = fresh(mutations={3: GNAW, 4: FRENZY})
    assert g.header.options == {"mutations": [GNAW, FRENZY]}
    g.roles()
    assert g.state.mutations == [None, None, None, GNAW, FRENZY]
    g = fresh(mutations={3: STEALTH, 4: FRENZY}, options={"mutations": [FRENZY, STEALTH],
                                                         "distinct_mutations": True})
    g.roles()


@forbid("TNB-SET-3")
def _() -> None:
    g = fresh(mutations={3: GNAW, 4: GNAW})
    # Under the default pool (the rulebook's Gnaw) an invented Mutation is not played...
    refuses(g, "TNB-SET-3", Roles, **roles_fields(g, mutations=[None, None, None, GNAW, STEALTH]))
    # ...a Townsfolk has none, and a Werebunny always has one.
    refuses(g, "TNB-SET-3", Roles, **roles_fields(g, mutations=[GNAW, None, None, GNAW, GNAW]))
    refuses(g, "TNB-SET-3", Roles, **roles_fields(g, mutations=[None, None, None, GNAW, None]))
    # Without Mutations, none at all.
    g = fresh(mutations={}, options={"mutations": []})
    refuses(g, "TNB-SET-3", Roles, **roles_fields(g, mutations=[None, None, None, GNAW, None]))
    # By option the two must differ.
    g = fresh(mutations={3: GNAW, 4: FRENZY}, options={"mutations": [GNAW, FRENZY],
                                                      "distinct_mutations": True})
    refuses(g, "TNB-SET-3", Roles, **roles_fields(g, mutations=[None, None, None, GNAW, GNAW]))
    with pytest.raises(WarrenError, match="distinct_mutations needs at least two"):
        fresh(options={"mutations": [GNAW], "distinct_mutations": True})


@allow("TNB-SET-4")
def _() -> None:
    g = fresh(first_mayor=2)
    g.start()
    g.muster()
    assert g.state.active == 2 and RULESET.to_act(g.state) == [2]


@forbid("TNB-SET-4")
def _() -> None:
    g = fresh()
    refuses(g, "TNB-SET-4", Roles, **roles_fields(g, first_mayor=5))


@allow("TNB-ITEM-1")
def _() -> None:
    g = fresh()
    g.roles()
    g.offers()
    assert g.state.phase == "items" and RULESET.to_act(g.state) == [0, 1, 2, 3, 4]


@forbid("TNB-ITEM-1")
def _() -> None:
    g = fresh()
    g.roles()
    refuses(g, "TNB-ITEM-1", Offers, items=[[SHIELD, SHIELD]] + [[SHIELD, HORSESHOE]] * 4)
    refuses(g, "TNB-ITEM-1", Offers, items=[[SHIELD]] * 5)
    refuses(g, "TNB-ITEM-1", Offers, items=[[SHIELD, "cape"]] * 5)


@allow("TNB-ITEM-2")
def _() -> None:
    g = fresh()
    g.roles()
    g.add(Offers, items=[[MEDALLION, MYSTICAL_RECIPE]] + [[SHIELD, HORSESHOE]] * 4)
    assert g.state.offers[0] == [MEDALLION, MYSTICAL_RECIPE]


@forbid("TNB-ITEM-2")
def _() -> None:
    g = fresh()
    g.roles()
    refuses(g, "TNB-ITEM-2", Offers, items=[[MEDALLION, SHIELD]] * 2 + [[SHIELD, HORSESHOE]] * 3)
    refuses(g, "TNB-ITEM-2", Offers, items=[[MYSTICAL_RECIPE, SHIELD]] * 2 + [[SHIELD, HORSESHOE]] * 3)


@allow("TNB-ITEM-3")
def _() -> None:
    g = fresh()
    g.roles()
    g.offers()
    g.add(ChooseItem, 0, item=g.state.offers[0][1])
    assert g.state.items[0] == g.state.offers[0][1]


@forbid("TNB-ITEM-3")
def _() -> None:
    g = fresh(items=[SHIELD] * 5)
    g.roles()
    g.offers()
    refuses(g, "TNB-ITEM-3", ChooseItem, 0, item=MEDALLION)
    g.add(ChooseItem, 0, item=SHIELD)
    refuses(g, "TNB-ITEM-3", ChooseItem, 0, item=SHIELD)


@allow("TNB-DEAL-1")
def _() -> None:
    g = fresh(hands=[[4, 4, 4]] * 3 + [[1, 1, 1]] * 2)
    g.start()
    assert g.state.hands[0][4] == 3 and g.state.deck[4] == 12 - 9 and g.state.phase == "muster"


@forbid("TNB-DEAL-1")
def _() -> None:
    g = fresh(options={"deck": {"1": 20, "2": 20, "3": 20, "4": 2}})
    g.roles()
    g.offers()
    g.choose()
    refuses(g, "TNB-DEAL-1", Deal, hands=[[1, 2, 3, 4]] + [[1, 2, 3]] * 4)
    refuses(g, "TNB-DEAL-1", Deal, hands=[[4, 4, 4]] + [[1, 2, 3]] * 4)
    refuses(g, "TNB-DEAL-1", Deal, hands=[[0, 2, 3]] + [[1, 2, 3]] * 4)


# -- the day ------------------------------------------------------------------------------
@allow("TNB-MUSTER-1")
def _() -> None:
    g = started()
    assert g.state.phase == "muster" and RULESET.to_act(g.state) == [0, 1, 2, 3, 4]
    g.muster()
    assert g.state.phase == "proposal"


@forbid("TNB-MUSTER-1")
def _() -> None:
    g = started()
    refuses(g, "TNB-MUSTER-1", Propose, 0, team=[0, 1])
    g.add(Ready, 1)
    refuses(g, "TNB-MUSTER-1", Ready, 1)
    refuses(g, "TNB-MUSTER-1", Accuse, 1, suspects=[3, 4])


@allow("TNB-DAY-1")
def _() -> None:
    g = started()
    g.muster()
    g.add(Propose, 0, team=[1, 2])
    assert g.state.phase == "voting" and g.state.team == [1, 2]


@forbid("TNB-DAY-1")
def _() -> None:
    g = started()
    g.muster()
    refuses(g, "TNB-DAY-1", Propose, 2, team=[0, 1])
    g.add(Propose, 0, team=[0, 1])
    refuses(g, "TNB-DAY-1", Propose, 0, team=[0, 2])


@allow("TNB-DAY-2")
def _() -> None:
    g = started()
    g.muster()
    g.add(Propose, 0, team=[4, 3])
    assert g.state.team == [3, 4]


@forbid("TNB-DAY-2")
def _() -> None:
    g = started()
    g.muster()
    refuses(g, "TNB-DAY-2", Propose, 0, team=[0, 1, 2])
    refuses(g, "TNB-DAY-2", Propose, 0, team=[1, 1])
    refuses(g, "TNB-DAY-2", Propose, 0, team=[1, 7])


@allow("TNB-DAY-3")
def _() -> None:
    g = started()
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    assert g.state.mayor == 1 and g.state.phase == "proposal"
    g.propose([0, 1])
    g.night()
    g.dawn()
    assert g.state.round == 2 and g.state.mayor == 2


@forbid("TNB-DAY-3")
def _() -> None:
    g = started()
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    refuses(g, "TNB-DAY-3", Propose, 0, team=[0, 1])


@allow("TNB-VOTE-1")
def _() -> None:
    g = voting([0, 1])
    g.add(Vote, 2, accept=False)
    assert g.state.votes[2] is False


@forbid("TNB-VOTE-1")
def _() -> None:
    g = started()
    refuses(g, "TNB-VOTE-1", Vote, 1, accept=True)
    g = at_night([0, 1])
    refuses(g, "TNB-VOTE-1", Vote, 1, accept=True)


@allow("TNB-VOTE-2")
def _() -> None:
    g = voting([0, 1])
    for seat in range(5):
        g.add(Vote, seat, accept=True)
    assert g.state.phase == "night"


@forbid("TNB-VOTE-2")
def _() -> None:
    g = voting([0, 1])
    g.add(Vote, 2, accept=True)
    refuses(g, "TNB-VOTE-2", Vote, 2, accept=False)


@allow("TNB-VOTE-3")
def _() -> None:
    g = voting([0, 1])
    for seat, accept in enumerate([True, True, True, False, False]):
        g.add(Vote, seat, accept=accept)
    assert g.state.phase == "night" and g.state.on_guard == [True, True, False, False, False]


@forbid("TNB-VOTE-3")
def _() -> None:
    g = voting([0, 1])
    for seat, accept in enumerate([True, True, False, False, False]):
        g.add(Vote, seat, accept=accept)
    assert g.state.phase == "proposal" and g.state.proposals[-1]["approved"] is False
    refuses(g, "TNB-NIGHT-1", Guard, 0, defend=[1])
    # A tie is no majority: three of six.
    g = voting([0, 1], players=6, hands=[[1, 2, 3]] * 6, items=[SHIELD] * 6,
               quirks=[BRAVE] * 3 + [None, None, BRAVE])
    for seat in range(6):
        g.add(Vote, seat, accept=seat < 3)
    assert g.state.phase == "proposal" and g.state.wolves == 4 + 2


@allow("TNB-VOTE-4")
def _() -> None:
    g = voting([0, 1])
    for seat, accept in enumerate([True, False, True, False, True]):
        g.add(Vote, seat, accept=accept)
    for who in ("spectator", 0, 3):
        assert RULESET.view(g.state, who)["proposals"][-1]["votes"] == [True, False, True, False, True]


@forbid("TNB-VOTE-4")
def _() -> None:
    g = voting([0, 1])
    g.add(Vote, 1, accept=False)
    spectator = RULESET.view(g.state, "spectator")
    assert spectator["proposals"] == [] and "me" not in spectator and 1 not in spectator["waiting_on"]
    assert RULESET.view(g.state, 2)["me"]["vote"] is None
    assert RULESET.view(g.state, 1)["me"]["vote"] is False
    assert "accept" not in event_view(g.events[-1], 2)
    assert event_view(g.events[-1], 1)["accept"] is False


@allow("TNB-WOLF-1")
def _() -> None:
    g = started(options={"wolves": [3, 6, 9, 12, 15]})
    assert g.state.wolves == 3
    g.day([0, 1])
    g.night()
    g.dawn()
    assert g.state.wolves == 6


@forbid("TNB-WOLF-1")
def _() -> None:
    with pytest.raises(WarrenError, match="wolves"):
        Scenario(options={"wolves": [3, 6, 9, 12, 36]})
    with pytest.raises(WarrenError, match="wolves"):
        Scenario(options={"wolves": [3, 6, 9]})


@allow("TNB-WOLF-2")
def _() -> None:
    g = started()
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    assert g.state.wolves == 4 + 2
    g = started(options={"rejection_raise": "one"})
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    assert g.state.wolves == 4 + 1


@forbid("TNB-WOLF-2")
def _() -> None:
    g = started()
    g.muster()
    g.propose([0, 1])
    assert g.state.wolves == 4
    g = started()
    g.muster()
    g.add(Timeout)
    assert g.state.wolves == 4


@allow("TNB-WOLF-3")
def _() -> None:
    g = started(options={"wolves": [33, 6, 9, 12, 15]})
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    assert g.state.wolves == 35 and not g.state.over
    g.propose([1, 2], reject=[0, 1, 2])
    assert g.state.over and g.state.winner == "werebunnies" and g.state.end_rule == "TNB-WOLF-3"
    assert RULESET.outcome(g.state).winners == [3, 4]  # type: ignore[union-attr]


@forbid("TNB-WOLF-3")
def _() -> None:
    g = started(options={"wolves": [31, 6, 9, 12, 15]})
    g.muster()
    g.propose([0, 1], reject=[0, 1, 2])
    g.propose([1, 2], reject=[0, 1, 2])
    assert g.state.wolves == 35 and not g.state.over


# -- the night ----------------------------------------------------------------------------
@allow("TNB-NIGHT-1")
def _() -> None:
    g = at_night([0, 1])
    assert sorted(RULESET.to_act(g.state)) == [0, 1, 2, 3, 4]
    for seat in (4, 0, 2, 1):  # any order
        if seat in (0, 1):
            g.add(Guard, seat, defend=[2])
        else:
            g.add(Rest, seat)
    assert g.state.phase == "night" and RULESET.to_act(g.state) == [3]
    g.add(Rest, 3)
    assert g.state.phase == "dawn" and g.effects[-1][0].kind == "night_resolved"


@forbid("TNB-NIGHT-1")
def _() -> None:
    g = at_night([0, 1])
    g.add(Guard, 0, defend=[1])
    refuses(g, "TNB-NIGHT-1", Guard, 0, defend=[2])
    g.add(Rest, 2)
    refuses(g, "TNB-NIGHT-1", Predict, 2, damage=True)
    g = started()
    refuses(g, "TNB-NIGHT-1", Rest, 2)


@allow("TNB-GUARD-1")
def _() -> None:
    g = at_night([0, 1])
    g.add(Guard, 1, defend=[3, 1])
    assert g.state.hands[1] == [0, 0, 1, 0, 0]


@forbid("TNB-GUARD-1")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-GUARD-1", Guard, 2, defend=[3])


@allow("TNB-GUARD-2")
def _() -> None:
    g = at_night([0, 1])
    g.add(Guard, 0)
    g.add(Guard, 1, defend=[1, 2, 3])
    assert g.state.hand_size(0) == 3 and g.state.hand_size(1) == 0


@forbid("TNB-GUARD-2")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-GUARD-2", Guard, 0, defend=[4])
    refuses(g, "TNB-GUARD-2", Guard, 0, defend=[3, 3])
    refuses(g, "TNB-GUARD-2", Guard, 0, defend=[5])


@allow("TNB-GUARD-3")
def _() -> None:
    g = at_night([0, 3])
    g.add(Guard, 3, defend=[1], weaken=[3])
    assert g.state.hand_size(3) == 1


@forbid("TNB-GUARD-3")
def _() -> None:
    g = at_night([0, 3])
    refuses(g, "TNB-GUARD-3", Guard, 0, weaken=[3])


@allow("TNB-HOME-1")
def _() -> None:
    g = at_night([0, 1])
    g.add(Rest, 2)
    g.add(Predict, 4, damage=False)
    assert sorted(g.state.agenda.decisions) == [0, 1, 3]  # seats 2 and 4 have acted


@forbid("TNB-HOME-1")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-HOME-1", Rest, 0)
    refuses(g, "TNB-HOME-1", Bless, 1, target=2)


@allow("TNB-HOME-2")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(guards={0: [1, 2, 3]}, home={2: home(Bless, target=3), 4: home(Bless, target=3)})
    assert g.state.owed == [0, 0, 1, 3, 1]


@forbid("TNB-HOME-2")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-HOME-2", Bless, 2, target=0)
    refuses(g, "TNB-HOME-2", Bless, 2, target=2)
    refuses(g, "TNB-HOME-2", Bless, 2, target=9)


@allow("TNB-HOME-3")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(home={2: home(Predict, damage=True)})  # 4 wolves, nothing played
    assert g.state.owed[2] == 2
    assert g.state.notes[2][-1] == {"night": 1, "kind": "predicted", "damage": True, "right": True}


@forbid("TNB-HOME-3")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(home={2: home(Predict, damage=False)})
    assert g.state.owed[2] == 1 and g.state.notes[2][-1]["right"] is False


@allow("TNB-SAB-1")
def _() -> None:
    g = at_night([0, 1])
    g.add(Sabotage, 3, target=0, quirk=BRAVE)
    assert not g.state.agenda.owes(3)


@forbid("TNB-SAB-1")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-SAB-1", Sabotage, 2, target=0, quirk=BRAVE)


@allow("TNB-SAB-2")
def _() -> None:
    g = at_night([0, 1])
    g.add(Sabotage, 3, target=4, quirk=HOARDER)  # the other Werebunny: legal, never right
    g.night()
    assert g.state.notes[3][-1]["right"] is False


@forbid("TNB-SAB-2")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-SAB-2", Sabotage, 3, target=3, quirk=BRAVE)
    refuses(g, "TNB-SAB-2", Sabotage, 3, target=0, quirk="sleepy")


@allow("TNB-SAB-3")
def _() -> None:
    g = at_night([0, 1], mutations={3: FRENZY, 4: GNAW}, items=[CRYSTAL_BALL] * 5)
    g.night(home={3: home(Sabotage, target=0, quirk=HOMEBODY), 4: home(Sabotage, target=0, quirk=HOMEBODY)})
    assert g.state.owed[3] == 1 + 2 and g.state.owed[4] == 1 + 2
    assert {"night": 1, "kind": "sabotaged", "item": CRYSTAL_BALL} in g.state.notes[0]
    assert g.state.items[0] == CRYSTAL_BALL and not g.state.item_lost[0]
    g.dawn()
    assert g.state.item_lost[0]


@forbid("TNB-SAB-3")
def _() -> None:
    g = at_night([0, 1], items=[CRYSTAL_BALL] * 5)
    g.night(home={3: home(Sabotage, target=0, quirk=BRAVE)})
    g.dawn()
    assert not g.state.item_lost[0]
    assert not any(n["kind"] == "sabotaged" for n in g.state.notes[0])
    assert g.state.hand_size(4) == 3 + 1


@allow("TNB-MUT-1")
def _() -> None:
    g = at_night([0, 1], mutations={3: GNAW, 4: FRENZY}, items=[SHIELD] * 5)
    g.night(guards={0: [3], 1: [1]}, home={3: home(Rest, gnaw=[2, 3])})
    resolved = g.effects[-1][0]  # 4 wolves + 5 gnawed - (3 + 1 + two Shields)
    assert resolved.data == {"night": 1, "wolves": 4, "gnawed": 5, "unblocked": 3}
    assert RULESET.view(g.state, "spectator")["nights"][0]["gnawed"] == 5


@forbid("TNB-MUT-1")
def _() -> None:
    g = at_night([0, 1], mutations={3: GNAW, 4: FRENZY})
    refuses(g, "TNB-MUT-1", Rest, 4, gnaw=[2])
    refuses(g, "TNB-MUT-1", Rest, 2, gnaw=[2])
    refuses(g, "TNB-MUT-1", Rest, 3, gnaw=[4])


@allow("TNB-MUT-2")
def _() -> None:
    g = at_night([0, 4], mutations={3: GNAW, 4: FRENZY})
    g.night(guards={4: ([], [1, 2])})
    assert g.effects[-1][0].data["unblocked"] == 4 + 3 + 2


@forbid("TNB-MUT-2")
def _() -> None:
    g = at_night([0, 3], mutations={3: GNAW, 4: FRENZY})
    g.night(guards={3: ([], [1, 2])})
    assert g.effects[-1][0].data["unblocked"] == 4 + 3


@allow("TNB-MUT-3")
def _() -> None:
    g = at_night([0, 1], mutations={3: STEALTH, 4: FRENZY})
    g.night(home={3: home(Sabotage, target=2, quirk=HOMEBODY)})
    assert not any(n["kind"] == "sabotaged" for n in g.state.notes[2])
    assert g.state.pending_item_loss == [2]
    assert any(e.kind == "sabotage_unnoticed" for e in g.effects[-1])


@forbid("TNB-MUT-3")
def _() -> None:
    g = at_night([0, 1], mutations={3: STEALTH, 4: FRENZY})
    g.night(home={4: home(Sabotage, target=2, quirk=HOMEBODY)})
    assert any(n["kind"] == "sabotaged" for n in g.state.notes[2])


@allow("TNB-ITEM-4")
def _() -> None:
    g = at_night([0, 1], items=[HORSESHOE, HORSESHOE, CRYSTAL_BALL, HORSESHOE, HORSESHOE])
    g.night(home={2: home(Gaze, target=4)})
    assert {"night": 1, "kind": "gaze", "target": 4, "werebunny": True} in g.state.notes[2]


@forbid("TNB-ITEM-4")
def _() -> None:
    g = at_night([0, 1], items=[HORSESHOE, HORSESHOE, CRYSTAL_BALL, HORSESHOE, HORSESHOE])
    refuses(g, "TNB-ITEM-4", Gaze, 4, target=2)
    refuses(g, "TNB-ITEM-4", Gaze, 2, target=2)
    g.night(home={2: home(Gaze, target=4)})
    g.dawn()
    g.day([0, 1, 3])
    refuses(g, "TNB-ITEM-4", Gaze, 2, target=3)


@allow("TNB-ITEM-5")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, MYSTICAL_RECIPE, SHIELD, SHIELD])
    g.night(home={2: home(Brew)})
    assert g.state.owed[2] == 1 + 2


@forbid("TNB-ITEM-5")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, MYSTICAL_RECIPE, SHIELD, SHIELD])
    refuses(g, "TNB-ITEM-5", Brew, 3)
    g.night(home={2: home(Brew)})
    g.dawn()
    g.day([0, 1, 3])
    refuses(g, "TNB-ITEM-5", Brew, 2)


@allow("TNB-ITEM-6")
def _() -> None:
    g = at_night([0, 1], items=[HORSESHOE, SHIELD, HORSESHOE, SHIELD, SHIELD])
    g.night()
    assert g.state.owed == [0, 0, 2, 1, 1]


@forbid("TNB-ITEM-6")
def _() -> None:
    g = at_night([0, 1], items=[HORSESHOE, SHIELD, SHIELD, SHIELD, SHIELD])
    g.night()
    assert g.state.owed[0] == 0


@allow("TNB-ITEM-7")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(guards={0: [1], 1: [2]})  # 1 + 2 + two shields = 5 >= 4 wolves
    assert g.effects[-1][0].data["unblocked"] == 0


@forbid("TNB-ITEM-7")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(guards={1: [2]})  # the shield of seat 0, who plays nothing, adds nothing
    assert g.effects[-1][0].data["unblocked"] == 4 - 3


@allow("TNB-ITEM-8")
def _() -> None:
    g = at_night([0, 3], items=[MEDALLION, SHIELD, SHIELD, SHIELD, SHIELD], mutations={3: FRENZY, 4: GNAW})
    g.night(guards={0: [1], 3: ([2], [3])})
    assert {"night": 1, "kind": "medallion", "weakened_by_others": 4} in g.state.notes[0]


@forbid("TNB-ITEM-8")
def _() -> None:
    g = at_night([1, 3], items=[MEDALLION, SHIELD, SHIELD, SHIELD, SHIELD])
    g.night(guards={3: ([], [3])})
    assert not any(n["kind"] == "medallion" for n in g.state.notes[0])


@allow("TNB-ITEM-9")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, HORSESHOE, SHIELD, SHIELD])
    g.night(home={4: home(Sabotage, target=2, quirk=HOMEBODY)})
    assert g.state.owed[2] == 2  # the Horseshoe still works tonight
    g.dawn()
    assert g.state.item_lost[2]
    g.day([0, 1, 3])
    g.night()
    assert g.state.owed[2] == 1


@forbid("TNB-ITEM-9")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(home={4: home(Sabotage, target=2, quirk=HOMEBODY)})
    g.dawn()
    g.day([0, 1, 3])
    refuses(g, "TNB-ITEM-9", Gaze, 2, target=4)


@allow("TNB-RES-1")
def _() -> None:
    g = at_night([0, 3], items=[SHIELD] * 5)
    g.night(guards={0: [1, 2], 3: ([], [3])})  # 4 wolves + 3 - (3 + 1 shield)
    assert g.effects[-1][0].data["unblocked"] == 3


@forbid("TNB-RES-1")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(guards={0: [1, 2, 3], 1: [1, 2, 3]})
    assert g.effects[-1][0].data["unblocked"] == 0  # never below zero
    g = at_night([0, 1])
    for seat in (1, 2, 3, 4):
        g.add(Rest, seat) if seat > 1 else g.add(Guard, seat)
    claim = {"effect": "night_resolved", "unblocked": 0}
    refuses_event(g, "TNB-RES-1", Guard(seq=0, actor=0, claims=[claim]))


@allow("TNB-RES-2")
def _() -> None:
    g = at_night([0, 1], options={"wolves": [9, 6, 9, 12, 15], "tower": 8})
    g.night()
    assert g.state.wall == 0 and g.state.tower == 8 and g.state.wall_fell == 1
    kinds = [e.kind for e in g.effects[-1]]
    assert "wall_fell" in kinds and "tower_damaged" not in kinds


@forbid("TNB-RES-2")
def _() -> None:
    g = at_night([0, 1], options={"wolves": [9, 6, 9, 12, 15]})
    for seat in (0, 1, 2, 3):
        g.add(Guard, seat) if seat < 2 else g.add(Rest, seat)
    # The Wall had 5 hit points: 9 wolves do 5 damage there and none passes on.
    refuses_event(g, "TNB-RES-2", Rest(seq=0, actor=4, claims=[{"effect": "wall_damaged", "damage": 9}]))
    g.add(Rest, 4, claims=[{"effect": "wall_damaged", "damage": 5, "wall": 0}])


@allow("TNB-RES-3")
def _() -> None:
    g = at_night([0, 1], options={"wolves": [9, 6, 9, 12, 15], "tower": 8})
    g.night()
    g.dawn()
    g.day([0, 1, 2])
    g.night()
    assert g.state.tower == 8 - 6 and g.effects[-1][-1].kind == "tower_damaged"


@forbid("TNB-RES-3")
def _() -> None:
    g = at_night([0, 1])
    refuses_event(g, "TNB-RES-3", Guard(seq=0, actor=0, claims=[{"effect": "tower_damaged"}]))
    for seat in (0, 1, 2, 3):
        g.add(Guard, seat) if seat < 2 else g.add(Rest, seat)
    claim = {"effect": "tower_damaged", "damage": 4}
    exc = refuses_event(g, "TNB-RES-3", Rest(seq=0, actor=4, claims=[claim]))
    assert "while the Wall stands" in exc.message


@allow("TNB-DRAW-1")
def _() -> None:
    g = at_night([0, 1])
    g.night(home={2: home(Bless, target=3)})
    g.dawn([[], [], [4, 4], [1, 1, 2], [3, 3]])
    assert g.state.hands[3] == [0, 3, 2, 1, 0] and g.state.round == 2


@forbid("TNB-DRAW-1")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-DRAW-1", Draw, cards=[[]] * 5)
    g.night()
    refuses(g, "TNB-DRAW-1", Draw, cards=[[1], [], [1, 1], [1, 1], [1, 1]])
    refuses(g, "TNB-DRAW-1", Draw, cards=[[], [], [1, 1]])
    refuses(g, "TNB-DRAW-1", Draw, 2, cards=[[], [], [1, 1], [1, 1], [1, 1]])


@allow("TNB-DRAW-2")
def _() -> None:
    # A 16-card deck: 15 dealt, the sixteenth drawn, then the discard pile comes back in.
    g = at_night([0, 1], options={"deck": {"1": 4, "2": 4, "3": 4, "4": 4}},
                 hands=[[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [1, 2, 3]])
    g.night(guards={0: [1, 1, 1], 1: [2, 2]})
    effects = g.dawn()
    assert [e.kind for e in effects][:1] == ["discard_reshuffled"]
    assert sum(g.state.hand_size(s) for s in range(5)) == 15 - 5 + 6
    assert g.state.card_counts() == [0, 4, 4, 4, 4]


@forbid("TNB-DRAW-2")
def _() -> None:
    g = at_night([0, 1], hands=[[4, 4, 4]] * 4 + [[1, 1, 1]])
    g.night()
    refuses(g, "TNB-DRAW-2", Draw, cards=[[], [], [4, 4], [1, 1], [1, 1]])
    refuses(g, "TNB-DRAW-2", Draw, cards=[[], [], [6, 1], [1, 1], [1, 1]])


# -- accusations ------------------------------------------------------------------------
@allow("TNB-ACC-1")
def _() -> None:
    g = started()
    g.add(Accuse, 0, suspects=[4, 2])
    assert g.state.accusations[0] == (2, 4) and g.state.pending_loss == 0
    assert RULESET.view(g.state, "spectator")["accusations"] == [{"round": 1, "seat": 0, "suspects": [2, 4]}]


@forbid("TNB-ACC-1")
def _() -> None:
    g = started()
    refuses(g, "TNB-ACC-1", Accuse, 0, suspects=[0, 3])
    refuses(g, "TNB-ACC-1", Accuse, 0, suspects=[3, 3])
    refuses(g, "TNB-ACC-1", Accuse, 0, suspects=[3, 4, 1])
    g = at_night([0, 1])
    refuses(g, "TNB-ACC-1", Accuse, 2, suspects=[3, 4])
    g = at_night([0, 1], hands=[[1, 2, 3]] * 5)
    g.night(guards={0: [1, 2, 3]})
    g.dawn()
    refuses(g, "TNB-ACC-1", Accuse, 0, suspects=[3, 4])  # seat 0 spent every card


@allow("TNB-ACC-2")
def _() -> None:
    g = started()
    g.round([0, 1], accuse={0: [2, 3]})
    g.muster(accuse={0: [3, 4]})
    assert g.state.accusations[0] == (3, 4) and len(g.state.accusation_log) == 2


@forbid("TNB-ACC-2")
def _() -> None:
    g = started()
    g.add(Accuse, 0, suspects=[2, 3])
    g.add(CardLost, seat=0, card=1)
    refuses(g, "TNB-ACC-2", Accuse, 0, suspects=[3, 4])


@allow("TNB-ACC-3")
def _() -> None:
    g = started()
    g.add(Accuse, 0, suspects=[2, 3])
    assert RULESET.to_act(g.state) == []
    g.add(CardLost, seat=0, card=2)
    assert g.state.hands[0] == [0, 1, 0, 1, 0] and g.state.discard[2] == 1
    assert g.state.notes[0][-1] == {"round": 1, "kind": "lost_card", "card": 2}


@forbid("TNB-ACC-3")
def _() -> None:
    g = started()
    g.add(Accuse, 0, suspects=[2, 3])
    refuses(g, "TNB-ACC-3", Ready, 1)
    refuses(g, "TNB-ACC-3", CardLost, seat=0, card=4)
    refuses(g, "TNB-ACC-3", CardLost, seat=1, card=1)
    refuses(g, "TNB-ACC-3", CardLost, 0, seat=0, card=1)
    g.add(CardLost, seat=0, card=1)
    refuses(g, "TNB-ACC-3", CardLost, seat=0, card=2)


@allow("TNB-ACC-4")
def _() -> None:
    g = started()
    g.muster(accuse={0: [3, 4], 1: [3, 4], 2: [4, 3]})
    assert g.state.over and g.state.winner == "townsfolk" and g.state.end_rule == "TNB-ACC-4"
    assert g.state.winners == [0, 1, 2] and g.state.pending_loss is None
    assert g.state.hand_size(2) == 3  # the accusation that ended the game cost nothing


@forbid("TNB-ACC-4")
def _() -> None:
    g = started()
    g.muster(accuse={0: [3, 4], 1: [3, 4]})
    assert not g.state.over
    g = started()
    g.muster(accuse={0: [3, 4], 1: [3, 4], 3: [1, 2], 4: [1, 2]})
    g.propose([0, 1])
    assert not g.state.over
    # Everybody outside 1+2 accuses it: the game goes on, so the whole table knows 1+2 is wrong.
    g = started()
    g.muster(accuse={0: [1, 2], 3: [1, 2], 4: [1, 2]})
    assert not g.state.over and RULESET.view(g.state, "spectator")["refuted_pairs"] == [[1, 2]]


# -- the end ------------------------------------------------------------------------------
def _defences_down() -> Scenario:
    g = at_night([0, 1], options={"wolves": [9, 9, 9, 9, 9], "tower": 8})
    g.night()
    g.dawn()
    g.day([0, 1, 2])
    g.night()
    g.dawn()
    return g


@allow("TNB-END-1")
def _() -> None:
    g = started()
    g.add(Ready, 0)
    assert not g.state.over


@forbid("TNB-END-1")
def _() -> None:
    g = _defences_down()
    assert g.state.over
    refuses(g, "TNB-END-1", Ready, 0)
    refuses(g, "TNB-END-1", Timeout)
    refuses(g, "TNB-END-1", Draw, cards=[[]] * 5)


SAMPLE_FIELDS: dict[str, dict[str, object]] = {
    "roles": {"werebunnies": [3, 4], "quirks": [BRAVE] * 3 + [None, None],
              "mutations": [None] * 3 + [GNAW, FRENZY], "first_mayor": 0},
    "offers": {"items": [[SHIELD, HORSESHOE]] * 5}, "choose_item": {"item": SHIELD},
    "deal": {"hands": [[1, 2, 3]] * 5}, "accuse": {"suspects": [1, 2]}, "ready": {},
    "card_lost": {"seat": 0, "card": 1}, "propose": {"team": [0, 1]}, "vote": {"accept": True},
    "guard": {}, "bless": {"target": 1}, "predict": {"damage": True},
    "sabotage": {"target": 1, "quirk": BRAVE}, "gaze": {"target": 1}, "brew": {}, "rest": {},
    "draw": {"cards": [[]] * 5}, "timeout": {}, "act": {},
}


@pytest.mark.parametrize("tag", sorted(SAMPLE_FIELDS))
def test_every_event_type_is_refused_after_the_end(tag: str) -> None:
    # The fast fold does not check for the end; every handler must (TNB-END-1).
    g = _defences_down()
    kind = RULESET.events_by_type[tag]
    for actor in (None, 0, 3):
        refuses(g, "TNB-END-1", kind, actor, **SAMPLE_FIELDS[tag])


def test_sample_fields_cover_every_event_type() -> None:
    # The game's own event types (a correction, shared by every game, may follow the end).
    assert set(SAMPLE_FIELDS) == {t.__struct_config__.tag for t in RULESET.event_types}


@allow("TNB-END-2")
def _() -> None:
    g = _defences_down()
    assert g.state.winner == "werebunnies" and g.state.end_rule == "TNB-END-2" and g.state.winners == [3, 4]


@forbid("TNB-END-2")
def _() -> None:
    g = at_night([0, 1], options={"wolves": [9, 9, 9, 9, 9], "tower": 10})
    g.night()
    g.dawn()
    g.day([0, 1, 2])
    g.night()
    g.dawn()
    assert g.state.wall == 0 and g.state.tower == 1 and not g.state.over


def _five_nights(quirks: list[str | None], teams: list[list[int]], **kw: object) -> Scenario:
    g = started(quirks=quirks, options={"wolves": [9, 0, 0, 0, 0]}, **kw)
    for team in teams:
        g.round(team)
    return g


TEAMS_5 = [[0, 1], [0, 1, 2], [0, 1], [0, 1, 2], [0, 1, 2]]


@allow("TNB-END-3")
def _() -> None:
    g = _five_nights([HOMEBODY, BRAVE, BRAVE, None, None], TEAMS_5)
    assert g.state.end_rule == "TNB-END-3" and g.state.winner == "townsfolk"
    assert g.state.winners == [1, 2]  # seat 0 never stayed home


@forbid("TNB-END-3")
def _() -> None:
    g = _five_nights([BRAVE, BRAVE, BRAVE, None, None], TEAMS_5[:4])
    assert g.state.round == 5 and not g.state.over  # the Wall fell: no early end


@allow("TNB-END-4")
def _() -> None:
    g = started(options={"wolves": [0, 0, 0, 0, 0]}, quirks=[BRAVE] * 3 + [None, None])
    for team in TEAMS_5[:4]:
        g.round([3, 4] if len(team) == 2 else [2, 3, 4])
    assert g.state.over and g.state.end_rule == "TNB-END-4" and g.state.winners == [0, 1, 2]


@forbid("TNB-END-4")
def _() -> None:
    g = started(options={"wolves": [0, 0, 0, 0, 0], "early_end": False})
    for team in TEAMS_5[:4]:
        g.round(team)
    assert not g.state.over and g.state.round == 5


@allow("TNB-QUIRK-1")
def _() -> None:
    g = _five_nights([BRAVE, BRAVE, BRAVE, None, None], TEAMS_5)
    assert 2 in g.state.winners


@forbid("TNB-QUIRK-1")
def _() -> None:
    g = _five_nights([BRAVE, BRAVE, BRAVE, None, None], [[0, 1], [0, 1, 3], [0, 1], [0, 1, 3], [0, 1, 3]])
    assert g.state.winners == [0, 1]


@allow("TNB-QUIRK-2")
def _() -> None:
    teams = [[0, 1], [0, 1, 3], [0, 1], [0, 1, 2], [0, 1, 2]]
    g = _five_nights([HOMEBODY, HOMEBODY, HOMEBODY, None, None], teams)
    assert g.state.winners == [2]  # at home on nights 1, 2 and 3


@forbid("TNB-QUIRK-2")
def _() -> None:
    g = _five_nights([HOMEBODY, HOMEBODY, HOMEBODY, None, None], TEAMS_5)
    assert 0 not in g.state.winners and 1 not in g.state.winners


@allow("TNB-QUIRK-3")
def _() -> None:
    g = _five_nights([HOARDER] * 3 + [None, None], TEAMS_5)
    assert g.state.winners == [0, 1, 2]  # nobody played a card


@forbid("TNB-QUIRK-3")
def _() -> None:
    g = started(quirks=[HOARDER] * 3 + [None, None], options={"wolves": [12, 0, 0, 0, 0]})
    g.round([0, 1], guards={0: [1, 2, 3]})
    for team in TEAMS_5[1:]:
        g.round(team)  # seat 0 is on guard every night and never draws again
    assert g.state.hand_size(0) == 0 and g.state.winners == [1, 2]


# -- the timer ----------------------------------------------------------------------------
@allow("TNB-TIME-1")
def _() -> None:
    g = voting([0, 1])
    g.add(Timeout)
    assert g.state.phase == "night"


@forbid("TNB-TIME-1")
def _() -> None:
    g = fresh()
    refuses(g, "TNB-TIME-1", Timeout)
    g = at_night([0, 1])
    g.night()
    refuses(g, "TNB-TIME-1", Timeout)
    g = started()
    g.add(Accuse, 0, suspects=[3, 4])
    refuses(g, "TNB-TIME-1", Timeout)
    refuses(g, "TNB-TIME-1", Timeout, 2)


@allow("TNB-TIME-2")
def _() -> None:
    g = started()
    g.muster()
    g.add(Timeout)
    assert g.state.mayor == 1 and g.state.wolves == 4 and g.state.phase == "proposal"
    assert g.state.proposals[-1]["votes"] == [False] * 5


@forbid("TNB-TIME-2")
def _() -> None:
    g = started()
    g.muster()
    g.add(Timeout)
    refuses(g, "TNB-TIME-2", Propose, 0, team=[0, 1])


@allow("TNB-TIME-3")
def _() -> None:
    g = voting([0, 1])
    g.add(Vote, 0, accept=False)
    g.add(Vote, 1, accept=False)
    g.add(Timeout)
    assert g.state.proposals[-1]["votes"] == [False, False, True, True, True]
    assert g.state.phase == "night"


@forbid("TNB-TIME-3")
def _() -> None:
    g = voting([0, 1])
    for seat in (0, 1, 2):
        g.add(Vote, seat, accept=False)
    g.add(Timeout)
    assert g.state.proposals[-1]["approved"] is False and g.state.wolves == 6


@allow("TNB-TIME-4")
def _() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.add(Guard, 0, defend=[3])
    g.add(Timeout)
    assert g.state.phase == "dawn" and g.state.owed == [0, 0, 1, 1, 1]
    assert g.state.timeouts[-1] == {"round": 1, "phase": "night", "seats": [1, 2, 3, 4]}


@forbid("TNB-TIME-4")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-TIME-4", Timeout, staged=[Staged(seat=2, defend=[1])])


@allow("TNB-TIME-5")
def _() -> None:
    g = at_night([0, 1])
    g.add(Timeout, staged=[Staged(seat=0, defend=[3, 1])])
    assert g.state.hands[0] == [0, 0, 1, 0, 0] and g.effects[-1][1].data["unblocked"] == 0
    g = at_night([0, 1], options={"guard_timeout": "whole_hand"})
    g.add(Timeout)
    assert g.state.hand_size(0) == 0 and g.state.hand_size(1) == 0


@forbid("TNB-TIME-5")
def _() -> None:
    g = at_night([0, 1])
    refuses(g, "TNB-TIME-5", Timeout, staged=[Staged(seat=0, defend=[4])])
    g.add(Guard, 1, defend=[1])
    refuses(g, "TNB-TIME-5", Timeout, staged=[Staged(seat=1, defend=[2])])
    refuses(g, "TNB-TIME-5", Timeout, staged=[Staged(seat=0), Staged(seat=0)])
    g = started()
    refuses(g, "TNB-TIME-5", Timeout, staged=[Staged(seat=0)])
    g = at_night([0, 1], options={"guard_timeout": "whole_hand"})
    refuses(g, "TNB-TIME-5", Timeout, staged=[Staged(seat=0, defend=[1])])


@allow("TNB-TIME-6")
def _() -> None:
    g = fresh(items=[SHIELD] * 5)
    g.roles()
    g.offers()
    g.add(ChooseItem, 1, item=HORSESHOE)
    g.add(Timeout)
    assert g.state.items == [SHIELD, HORSESHOE, SHIELD, SHIELD, SHIELD] and g.state.phase == "deal"
    g.deal()
    g.add(Ready, 2)
    g.add(Timeout)
    assert g.state.phase == "proposal" and g.state.timeouts[-1]["seats"] == [0, 1, 3, 4]


@forbid("TNB-TIME-6")
def _() -> None:
    g = started()
    g.add(Accuse, 0, suspects=[3, 4])
    g.add(CardLost, seat=0, card=1)
    g.add(Timeout)
    assert g.state.accusations[0] == (3, 4)  # an accusation made stands; others are ready
    refuses(g, "TNB-ACC-1", Accuse, 1, suspects=[3, 4])


# -- the cases, run ---------------------------------------------------------------------
# -- a game recorded at the table (R-TNB-22 to R-TNB-27) ---------------------------------
def _table_night() -> TableScenario:
    """A record of the table at night 1: seats 0 and 1 on guard, seats 0 to 3 acted unseen."""
    t = TableScenario()
    t.start()
    t.day([0, 1])
    for seat in range(4):
        t.add(Act, seat)
    return t


@allow("TNB-REC-1")
def _() -> None:
    t = _table_night()
    t.add(Act, 4, stage=NightStage(unblocked=2, gnawed=1))
    assert t.state.wall == 3 and t.state.nights[-1]["gnawed"] == 1


@forbid("TNB-REC-1")
def _() -> None:
    t = _table_night()
    refuses(t, "TNB-REC-1", Act, 4)  # the last action states the stage
    early = TableScenario()
    early.start()
    early.day([0, 1])
    refuses(early, "TNB-REC-1", Act, 0, stage=NightStage(unblocked=2))


@allow("TNB-REC-2")
def _() -> None:
    t = _table_night()
    t.add(Act, 4, stage=NightStage(unblocked=0, told=[BlessedBy(seat=4, by=3)]))
    assert {"night": 1, "kind": "blessed_by", "seat": 3} in t.state.notes[4]


@forbid("TNB-REC-2")
def _() -> None:
    refuses(_table_night(), "TNB-REC-2", Act, 4,
            stage=NightStage(unblocked=0, told=[GazeTold(seat=3, werebunny=True)]))


def _table_accusers() -> TableScenario:
    t = TableScenario()
    t.start()
    for seat in (0, 1):
        t.add(Accuse, seat, suspects=[3, 4])
        t.add(CardLost, seat=seat, card="?")
    return t


_END = Reveal(werebunnies=[3, 4], quirks=[BRAVE, BRAVE, HOMEBODY, None, None],
              mutations=[None, None, None, GNAW, GNAW], items=[SHIELD] * 5, hand_sizes=[2, 2, 3, 3, 3])
"""The rulebook's Gnaw for both Werebunnies: the default pool (R-TNB-5)."""


@allow("TNB-REC-3")
def _() -> None:
    t = _table_accusers()
    t.add(Accuse, 2, suspects=[3, 4], reveal=_END)
    assert t.state.over and t.state.winners == [0, 1, 2] and t.state.quirks[2] == HOMEBODY


@forbid("TNB-REC-3")
def _() -> None:
    refuses(_table_accusers(), "TNB-REC-3", Accuse, 2, suspects=[1, 4], reveal=_END)  # it ends nothing


@pytest.mark.parametrize("rule", sorted(ALLOW))
def test_allows(rule: str) -> None:
    ALLOW[rule]()


@pytest.mark.parametrize("rule", sorted(FORBID))
def test_forbids(rule: str) -> None:
    FORBID[rule]()


def test_every_rule_has_both_cases() -> None:
    rules = set(RULES)
    assert rules - set(ALLOW) == set(), "rules with no allowing case"
    assert rules - set(FORBID) == set(), "rules with no forbidding case"
    assert set(ALLOW) | set(FORBID) <= rules, "cases for rules that are not in the rulebook"


def test_every_rule_id_is_cited_in_the_code() -> None:
    from pathlib import Path

    package = Path(__file__).resolve().parents[3] / "engine" / "trust_no_bunny"
    code = "".join(p.read_text() for p in package.glob("*.py") if p.name != "rulebook.py")
    missing = [rule for rule in RULES if rule not in code]
    assert missing == []
