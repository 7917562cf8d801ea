"""Trust No Bunny recorded at a real table: unknown roles, Items, cards and night actions;
the stage, what seats were told, the reveal; undetermined verdicts; the redaction
(R-TNB-22 to R-TNB-27, TNB-REC-1..3, REC-UNK-1, REC-UNK-2)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from engine.hidden import UNKNOWN, is_undetermined
from engine.reader import check_events
from engine.record import Event, event_to_dict
from engine.redact import redact_game
from engine.rules import Effect, RuleViolation
from engine.simulate import SimulatedGame, simulate_one
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
    MedallionTold,
    NightStage,
    Offers,
    Predict,
    Propose,
    Ready,
    Rest,
    Reveal,
    Roles,
    Sabotage,
    Sabotaged,
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
    ITEMS,
    MEDALLION,
    MUTATIONS,
    QUIRKS,
    SHIELD,
    STEALTH,
)
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.suspects import suspects
from engine.trust_no_bunny.unknowns import hand_range
from tests.scenarios.trust_no_bunny import Scenario, TableScenario

U = UNKNOWN
N = 5


EVERY_MUTATION = {"mutations": list(MUTATIONS)}
"""The games here are played with every Mutation warren knows (Frenzy and Stealth by option,
R-TNB-5), so that what a table cannot know about them is tested."""


# -- helpers ------------------------------------------------------------------------------
def _table(**kw: Any) -> TableScenario:
    kw["options"] = {**EVERY_MUTATION, **kw.get("options", {})}
    return TableScenario(**kw)


def table(**kw: Any) -> TableScenario:
    t = _table(**kw)
    t.start()
    return t


def at_night(team: list[int] | None = None, **kw: Any) -> TableScenario:
    t = table(**kw)
    t.day(team or [0, 1])
    assert t.state.phase == "night"
    return t


def refuses(t: TableScenario | Scenario, rule: str, kind: type[Event], actor: int | None = None,
            **fields: Any) -> RuleViolation:
    """The event is refused by ``rule`` and leaves the state as it was; checking the whole
    record stops at it with the same rule."""
    before = RULESET.codec.record(t.state)
    event = kind(seq=len(t.events) + 1, actor=actor, **fields)
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(t.state), event)
    assert err.value.rule == rule, f"expected {rule}, got {err.value.rule}: {err.value.message}"
    assert RULESET.codec.record(t.state) == before
    found = check_events(RULESET, t.header, [*t.events, event])
    assert found is not None and (found.rule, found.seq) == (rule, event.seq)
    return err.value


def accepts(t: TableScenario | Scenario, kind: type[Event], actor: int | None = None,
            **fields: Any) -> tuple[Effect, ...]:
    return t.add(kind, actor, **fields)


def doubts(effects: tuple[Effect, ...]) -> list[tuple[str, str]]:
    return [(e.rule, str(e.data["needs"])) for e in effects if is_undetermined(e)]


def own(game: Scenario, seat: int | str) -> TableScenario:
    """The record ``seat`` could have kept of ``game`` (engine.redact), as a TableScenario."""
    header, events = redact_game(RULESET, game.header, game.events, seat)  # type: ignore[arg-type]
    return TableScenario.of(header, events)


def home(kind: type[Event], **fields: Any) -> Event:
    return kind(seq=0, actor=None, **fields)


def truth(**kw: Any) -> Scenario:
    g = Scenario(**kw)
    g.start()
    return g


# -- REC-UNK-1 ------------------------------------------------------------------------------
def test_only_a_recorded_game_leaves_anything_unknown() -> None:
    g = Scenario()
    g.header = msgspec.structs.replace(g.header, source="simulated")
    g.state = RULESET.setup(g.header)
    refuses(g, "REC-UNK-1", Roles, werebunnies=[U, U], quirks=[U] * N, mutations=[U] * N, first_mayor=0)
    g.start()
    g.day([0, 1])
    refuses(g, "REC-UNK-1", Act, 0)
    g.night()
    refuses(g, "REC-UNK-1", Draw, cards=[U] * N)
    recorded = table()
    assert recorded.state.partial and recorded.state.hidden is not None
    assert recorded.state.hidden.roles == [U] * N


def test_a_record_that_names_everything_never_turns_partial() -> None:
    g = truth()
    g.round([0, 1])
    assert g.header.source == "recorded" and not g.state.partial and g.state.hidden is None


# -- roles, Items, the deal ----------------------------------------------------------------
def test_roles_a_record_knows_in_part() -> None:
    mine = _table()
    mine.add(Roles, werebunnies=[U, U], quirks=[BRAVE, U, U, U, U], mutations=[None, U, U, U, U],
             first_mayor=1)
    assert mine.state.hidden.roles == ["townsfolk", U, U, U, U]  # type: ignore[union-attr]
    werebunny = _table()
    werebunny.add(Roles, werebunnies=[3, 4], quirks=[U, U, U, None, None],
                  mutations=[None, None, None, GNAW, U], first_mayor=1)
    assert werebunny.state.werebunnies == (3, 4) and werebunny.state.mutations[4] == U
    # Three Quirks named at five players: the other two are the Werebunnies.
    deduced = _table()
    deduced.add(Roles, werebunnies=[U, U], quirks=[BRAVE, BRAVE, U, HOARDER, U], mutations=[U] * N,
                first_mayor=0)
    assert deduced.state.werebunnies == (2, 4)


@pytest.mark.parametrize(("rule", "fields"), [
    ("TNB-SET-1", {"werebunnies": [1, 1]}),
    ("TNB-SET-1", {"quirks": [None, U, U, U, U]}),  # no Quirk: a Werebunny, so name it
    ("TNB-SET-1", {"quirks": [BRAVE, BRAVE, BRAVE, BRAVE, U]}),  # four Townsfolk of five
    ("TNB-SET-2", {"werebunnies": [0, U], "quirks": [BRAVE, U, U, U, U]}),
    ("TNB-SET-3", {"werebunnies": [0, 1], "mutations": [GNAW, U, FRENZY, U, U]}),
])
def test_roles_that_contradict_themselves_are_refused(rule: str, fields: dict[str, Any]) -> None:
    roles: dict[str, Any] = {"werebunnies": [U, U], "quirks": [U] * N, "mutations": [U] * N, "first_mayor": 0}
    refuses(_table(), rule, Roles, **{**roles, **fields})


def test_two_werebunnies_may_share_a_mutation_unless_an_option_says_otherwise() -> None:
    roles: dict[str, Any] = {"werebunnies": [0, 1], "quirks": [None, None, U, U, U],
                             "mutations": [GNAW, GNAW, None, None, None], "first_mayor": 0}
    _table().add(Roles, **roles)  # the rulebook's Gnaw for both (R-TNB-5)
    refuses(_table(options={"distinct_mutations": True}), "TNB-SET-3", Roles, **roles)


def test_items_nobody_saw_and_items_named_later() -> None:
    t = _table()
    t.add(Roles, werebunnies=[U, U], quirks=[U] * N, mutations=[U] * N, first_mayor=0)
    refuses(t, "TNB-ITEM-1", Offers, items=[[SHIELD, SHIELD], *[[U, U]] * 4])
    t.add(Offers, items=[[MEDALLION, U], *[[U, U]] * 4])
    # Seat 1 names its Item: it fills its offer; the Medallion is seat 0's to be offered.
    refuses(t, "TNB-ITEM-2", ChooseItem, 1, item=MEDALLION)
    accepts(t, ChooseItem, 1, item=SHIELD)
    assert t.state.offers[1] == [SHIELD, U] and t.state.items[1] == SHIELD  # type: ignore[index]
    refuses(t, "TNB-ITEM-3", ChooseItem, 1, item=HORSESHOE)  # it has chosen already
    accepts(t, ChooseItem, 0, item=U)
    refuses(t, "TNB-ITEM-3", ChooseItem, 2, item="cake")


def test_a_deal_nobody_saw_and_one_that_names_too_much() -> None:
    t = _table()
    t.add(Roles, werebunnies=[U, U], quirks=[U] * N, mutations=[U] * N, first_mayor=0)
    t.add(Offers, items=[[U, U]] * N)
    for seat in range(N):
        t.add(ChooseItem, seat, item=U)
    refuses(t, "TNB-DEAL-1", Deal, hands=[[U, U]] * N)
    refuses(t, "TNB-DEAL-1", Deal, hands=[[4, 4, 4]] * 4 + [[4, U, U]])  # thirteen 4s of twelve
    t.add(Deal, hands=[[4, 4, 4]] * 4 + [[U, U, U]])
    assert hand_range(t.state, 4) == (3, 3) and t.state.hidden.unseen[4] == 0  # type: ignore[union-attr]


# -- the day ------------------------------------------------------------------------------
def test_an_accusation_shows_that_the_accuser_held_a_card() -> None:
    t = at_night([0, 1])
    t.night(unblocked=2)
    t.dawn()
    assert hand_range(t.state, 0)[0] == 0  # seat 0 may have played every card on guard
    accepts(t, Accuse, 0, suspects=[1, 2])
    assert hand_range(t.state, 0)[0] == 1
    accepts(t, CardLost, seat=0, card=U)


def test_an_accusation_by_a_hand_the_record_knows_is_empty_is_refused() -> None:
    g = truth(hands=[[1, 1, 1], *[[1, 2, 3]] * 4])
    g.day([0, 1])
    g.night(guards={0: [1, 1, 1]})
    g.dawn()
    mine = own(g, 0)
    assert hand_range(mine.state, 0) == (0, 0)
    refuses(mine, "TNB-ACC-1", Accuse, 0, suspects=[3, 4])


def test_a_card_lost_nobody_saw_and_one_that_cannot_be() -> None:
    t = _table()
    t.add(Roles, werebunnies=[U, U], quirks=[U] * N, mutations=[U] * N, first_mayor=0)
    t.add(Offers, items=[[U, U]] * N)
    for seat in range(N):
        t.add(ChooseItem, seat, item=U)
    t.add(Deal, hands=[[4, 4, 4]] * 4 + [[U, U, U]])
    for seat in range(4):
        t.add(Ready, seat)
    t.add(Accuse, 4, suspects=[0, 1])
    # REC-UNK-2: every 4 is known to be in another hand.
    refuses(t, "REC-UNK-2", CardLost, seat=4, card=4)
    refuses(t, "TNB-ACC-3", CardLost, seat=3, card=U)
    accepts(t, CardLost, seat=4, card=1)
    assert hand_range(t.state, 4) == (2, 2)


def test_the_game_going_on_after_everybody_else_accused_a_pair_is_undetermined() -> None:
    t = table()
    t.add(Ready, 0)
    for seat in (1, 2):
        t.add(Accuse, seat, suspects=[0, 4])
        t.add(CardLost, seat=seat, card=U)
    effects = accepts(t, Accuse, 3, suspects=[0, 4])
    assert doubts(effects) == [
        ("TNB-ACC-4", "the game goes on only if seats 0 and 4 are not both Werebunnies")]
    assert (0, 4) in t.state.refuted and not t.state.over
    # A Townsfolk's own record knows it is not one of them: nothing to doubt.
    g = truth(werebunnies=(1, 2))
    g.muster(accuse={1: [0, 4], 2: [0, 4], 3: [0, 4]})
    assert not [e for effects in own(g, 0).effects for e in effects if is_undetermined(e)]


# -- the night ----------------------------------------------------------------------------
def test_a_night_nobody_saw_needs_its_stage_on_its_last_action() -> None:
    t = at_night([0, 1])
    for seat in range(4):
        if seat == 3:
            refuses(t, "TNB-REC-1", Act, seat, stage=NightStage(unblocked=1))
        accepts(t, Act, seat)
    refuses(t, "TNB-NIGHT-1", Act, 2)  # a seat acts once a night
    refuses(t, "TNB-REC-1", Act, 4)
    effects = accepts(t, Act, 4, stage=NightStage(unblocked=3, gnawed=1))
    assert [e.kind for e in effects] == ["night_resolved", "wall_damaged"]
    assert t.state.wall == 2 and t.state.phase == "dawn"
    assert t.state.nights[-1] == {"night": 1, "guards": [0, 1], "wolves": 4, "gnawed": 1, "unblocked": 3,
                                  "wall_damage": 3, "tower_damage": 0, "wall": 2, "tower": 12}
    refuses(t, "TNB-NIGHT-1", Act, 0)


@pytest.mark.parametrize(("rule", "stage"), [
    ("TNB-RES-1", NightStage(unblocked=35)),  # 4 wolves + two guards of three cards, both with Frenzy
    ("TNB-MUT-1", NightStage(unblocked=4, gnawed=25)),  # two Werebunnies with Gnaw, three cards each: 24
    ("TNB-REC-1", NightStage(unblocked=-1)),
])
def test_a_stage_the_known_facts_rule_out_is_refused(rule: str, stage: NightStage) -> None:
    t = at_night([0, 1])
    for seat in range(4):
        t.add(Act, seat)
    refuses(t, rule, Act, 4, stage=stage)
    accepts(t, Act, 4, stage=NightStage(unblocked=31))


def test_the_stage_still_answers_to_the_wall_and_the_tower() -> None:
    t = at_night([0, 1])
    for seat in range(4):
        t.add(Act, seat)
    refuses(t, "TNB-RES-3", Act, 4, stage=NightStage(unblocked=9),
            claims=[{"effect": "tower_damaged", "damage": 4}])
    accepts(t, Act, 4, stage=NightStage(unblocked=9), claims=[{"effect": "wall_fell", "night": 1}])
    assert t.state.wall == 0 and t.state.tower == 12


def test_gnawing_needs_a_werebunny_at_home() -> None:
    # A Werebunny's own record knows both Werebunnies are on guard tonight.
    g = truth()
    g.day([3, 4])
    for seat in range(4):
        g.add(Rest if seat < 3 else Guard, seat)
    mine = own(g, 3)
    refuses(mine, "TNB-MUT-1", Act, 4, stage=NightStage(unblocked=4, gnawed=1))
    accepts(mine, Act, 4, stage=NightStage(unblocked=4))


def test_secret_actions_a_table_record_names_are_undetermined() -> None:
    t = at_night([0, 1])
    assert doubts(accepts(t, Guard, 0, weaken=[3])) == [
        ("TNB-GUARD-3", "legal only if seat 0 is a Werebunny")]
    refuses(t, "TNB-GUARD-2", Guard, 1, defend=[1, 2, 3, 4])  # four cards from a hand of three
    assert doubts(accepts(t, Sabotage, 2, target=0, quirk=BRAVE)) == [
        ("TNB-SAB-1", "legal only if seat 2 is a Werebunny")]
    assert doubts(accepts(t, Rest, 3, gnaw=[4])) == [
        ("TNB-MUT-1", "legal only if seat 3 is the Werebunny with Gnaw")]
    accepts(t, Act, 1)
    assert doubts(accepts(t, Gaze, 4, target=0, stage=NightStage(unblocked=11, gnawed=4))) == [
        ("TNB-ITEM-4",
         "legal only if seat 4 holds the crystal_ball, has not lost it and has not used it yet")]


def test_secret_actions_a_seats_own_record_rules_out_are_refused() -> None:
    g = truth(items=[CRYSTAL_BALL, *[HORSESHOE] * 4])
    g.day([1, 2])
    mine = own(g, 0)  # seat 0 is Townsfolk and knows it
    refuses(mine, "TNB-SAB-1", Sabotage, 0, target=1, quirk=BRAVE)
    refuses(mine, "TNB-MUT-1", Rest, 0, gnaw=[1])
    accepts(mine, Gaze, 0, target=3)
    werebunny = own(g, 3)
    refuses(werebunny, "TNB-ITEM-4", Gaze, 3, target=0)  # seat 3 holds the Horseshoe


# -- what seats were told ------------------------------------------------------------------
def _last_night_action(t: TableScenario) -> Event:
    return next(e for e in reversed(t.events) if getattr(e, "stage", None) is not None)


def _retold(g: Scenario, seat: int, told: list[Any]) -> tuple[TableScenario, Event]:
    """Seat ``seat``'s own record of ``g`` up to its last night, the stage telling ``told``."""
    mine = own(g, seat)
    last = _last_night_action(mine)
    mine.events = mine.events[: last.seq - 1]
    mine.effects = mine.effects[: last.seq - 1]
    mine.state = RULESET.setup(mine.header)
    RULESET.fold(mine.state, mine.events)
    stage = msgspec.structs.replace(last.stage, told=told)  # type: ignore[attr-defined]
    return mine, msgspec.structs.replace(last, stage=stage)


def test_a_seat_is_told_what_the_medallion_counted() -> None:
    g = truth(items=[MEDALLION, *[HORSESHOE] * 4])
    g.day([0, 3])
    g.night(guards={0: [1], 3: ([], [2])})
    mine = own(g, 0)
    assert mine.state.notes[0][-1] == {"night": 1, "kind": "medallion", "weakened_by_others": 2}
    mine, last = _retold(g, 0, [MedallionTold(seat=0, weakened_by_others=30)])
    refuses(mine, "TNB-ITEM-8", type(last), last.actor, **_fields(last))
    mine, last = _retold(g, 0, [])
    refuses(mine, "TNB-REC-2", type(last), last.actor, **_fields(last))  # its record says what it learnt


def test_a_seat_is_told_what_the_crystal_ball_showed() -> None:
    g = truth(items=[CRYSTAL_BALL, *[HORSESHOE] * 4])
    g.day([1, 2])
    g.night(home={0: home(Gaze, target=3)})
    mine = own(g, 0)
    assert mine.state.notes[0][-1]["werebunny"] is True
    mine, last = _retold(g, 0, [GazeTold(seat=0, werebunny=True), GazeTold(seat=0, werebunny=True)])
    refuses(mine, "TNB-REC-2", type(last), last.actor, **_fields(last))
    mine, last = _retold(g, 0, [GazeTold(seat=0, werebunny=True)])
    mine.add(type(last), last.actor, **_fields(last))


def test_a_seat_is_told_of_a_blessing_and_of_a_sabotage() -> None:
    g = truth(quirks=[BRAVE, HOMEBODY, HOMEBODY, None, None], mutations={3: FRENZY, 4: GNAW})
    g.day([0, 1])
    g.night(home={2: home(Bless, target=3), 3: home(Sabotage, target=0, quirk=BRAVE)})
    mine = own(g, 0)  # seat 0 was told of the right Sabotage
    assert {"night": 1, "kind": "sabotaged", "item": HORSESHOE} in mine.state.notes[0]
    werebunny = own(g, 3)
    assert {"night": 1, "kind": "blessed_by", "seat": 2} in werebunny.state.notes[3]
    assert own(g, 4).state.notes[4][-1] == {"night": 1, "kind": "sabotage_cards", "cards": 1}
    # A Werebunny has no Quirk: no Sabotage against it is right.
    mine, last = _retold(g, 3, [Sabotaged(seat=3)])
    refuses(mine, "TNB-SAB-3", type(last), last.actor, **_fields(last))
    # A blessing from a guard is none (TNB-HOME-2).
    mine, last = _retold(g, 2, [BlessedBy(seat=2, by=0)])
    refuses(mine, "TNB-HOME-2", type(last), last.actor, **_fields(last))


def _fields(event: Event) -> dict[str, Any]:
    return {k: v for k, v in msgspec.structs.asdict(event).items() if k not in ("seq", "actor", "hash")}


# -- dawn -----------------------------------------------------------------------------------
def test_draws_whose_number_the_table_saw_are_checked_against_what_can_be_owed() -> None:
    t = at_night([0, 1])
    t.night(unblocked=0)
    # On guard a seat draws only for right Sabotages (two at most); at home at least one card.
    refuses(t, "TNB-DRAW-1", Draw, cards=[[U, U, U], [], [U], [U], [U]])
    refuses(t, "TNB-DRAW-1", Draw, cards=[[], [], [], [U], [U]])
    refuses(t, "TNB-DRAW-2", Draw, cards=[[], [], [4] * 7, [4] * 7, [U]])  # fourteen 4s of twelve
    accepts(t, Draw, cards=[[], [U], [U, U], U, [2]])
    assert hand_range(t.state, 4) == (1, 4), "it may have gnawed every card; it drew a 2"


# -- the end ------------------------------------------------------------------------------
def _reveal(**kw: Any) -> Reveal:
    base: dict[str, Any] = {"werebunnies": [3, 4], "quirks": [BRAVE, BRAVE, BRAVE, None, None],
                            "mutations": [None, None, None, GNAW, FRENZY], "items": [SHIELD] * 5,
                            "hand_sizes": [3, 3, 3, 3, 3]}
    return Reveal(**{**base, **kw})


def _accusers() -> TableScenario:
    t = table()
    for seat in (0, 1):
        t.add(Accuse, seat, suspects=[3, 4])
        t.add(CardLost, seat=seat, card=U)
    return t


def test_the_end_reveals_everything() -> None:
    t = _accusers()
    effects = accepts(t, Accuse, 2, suspects=[3, 4], reveal=_reveal(hand_sizes=[2, 2, 3, 3, 3]))
    assert t.state.over and t.state.winners == [0, 1, 2] and not doubts(effects)
    view = RULESET.view(t.state, "spectator")
    assert view["reveal"]["werebunnies"] == [3, 4] and view["reveal"]["hand_sizes"] == [2, 2, 3, 3, 3]


@pytest.mark.parametrize("reveal", [
    _reveal(hand_sizes=[3, 2, 3, 3, 3]),  # seat 0 lost one of its three cards
    _reveal(werebunnies=[2, 4], quirks=[BRAVE, BRAVE, None, BRAVE, None],
            mutations=[None, None, GNAW, None, FRENZY], hand_sizes=[2, 2, 3, 3, 3]),  # not who was accused
    _reveal(mutations=[GNAW, None, None, GNAW, FRENZY], hand_sizes=[2, 2, 3, 3, 3]),  # a Townsfolk's
    _reveal(items=["cake"] * 5, hand_sizes=[2, 2, 3, 3, 3]),
])
def test_a_reveal_that_contradicts_the_record_is_refused(reveal: Reveal) -> None:
    refuses(_accusers(), "TNB-REC-3", Accuse, 2, suspects=[3, 4], reveal=reveal)


def test_a_reveal_comes_only_with_the_end() -> None:
    t = table()
    refuses(t, "TNB-REC-3", Accuse, 0, suspects=[3, 4], reveal=_reveal())
    t.muster()
    t.add(Propose, 0, team=[0, 1])
    for seat in range(4):
        t.add(Vote, seat, accept=True)
    refuses(t, "TNB-REC-3", Vote, 4, accept=True, reveal=_reveal())
    t.add(Vote, 4, accept=True)
    t.night(unblocked=0)
    refuses(t, "TNB-REC-3", Draw, cards=[U] * 5, reveal=_reveal())


def test_a_reveal_agrees_with_a_pair_the_table_saw_refuted() -> None:
    t = table(options={"wolves": [34, 7, 5, 8, 8]})
    t.add(Ready, 0)
    for seat in (1, 2, 3):
        t.add(Accuse, seat, suspects=[0, 4])
        t.add(CardLost, seat=seat, card=U)
    t.add(Ready, 4)
    assert (0, 4) in t.state.refuted
    t.add(Propose, 0, team=[0, 1])
    for seat in range(4):
        t.add(Vote, seat, accept=False)
    sizes = [3, 2, 2, 2, 3]
    refuted = _reveal(werebunnies=[0, 4], quirks=[None, BRAVE, BRAVE, BRAVE, None],
                      mutations=[GNAW, None, None, None, FRENZY], hand_sizes=sizes)
    refuses(t, "TNB-REC-3", Vote, 4, accept=False, reveal=refuted)
    # The rejection takes the wolves past 35: the Werebunnies win, and the end shows them.
    shown = _reveal(werebunnies=[1, 2], quirks=[BRAVE, None, None, BRAVE, BRAVE],
                    mutations=[None, GNAW, FRENZY, None, None], hand_sizes=sizes)
    accepts(t, Vote, 4, accept=False, reveal=shown)
    assert t.state.over and t.state.end_rule == "TNB-WOLF-3" and t.state.winners == [1, 2]


def test_an_end_without_a_reveal_leaves_the_winners_undetermined() -> None:
    t = table(options={"wolves": [4, 7, 5, 8, 30]})
    t.day([0, 1])
    t.night(unblocked=5)  # the Wall falls on night 1
    t.dawn()
    t.day([0, 1, 2])
    t.night(unblocked=12)  # and the Tower on night 2
    effects = t.dawn()
    assert t.state.over and t.state.winner == "werebunnies" and t.state.winners == []
    assert doubts(effects)[0][0] == "TNB-END-2"


# -- the redaction --------------------------------------------------------------------------
SECRETS = {*QUIRKS, *MUTATIONS, *ITEMS}


def _games(count: int = 8) -> list[SimulatedGame]:
    return [simulate_one(RULESET, 23, i, players=5 + i % 4) for i in range(count)]


def test_the_table_sees_no_secret() -> None:
    """The spectator's record names no role, Quirk, Mutation, Item, card value of a hand or
    night action; only the end's reveal shows what the end shows everybody."""
    for game in _games():
        header, events = redact_game(RULESET, game.header, game.events, "spectator")
        assert check_events(RULESET, header, events) is None
        for event in events:
            record = event_to_dict(event)
            reveal = record.pop("reveal", None)
            if reveal is not None:
                assert event is events[-1], "only the event that ends the game reveals"
            text = json.dumps(record)
            assert not any(f'"{word}"' in text for word in SECRETS), text
            kind = record["type"]
            if kind == "roles":
                assert record["werebunnies"] == [U, U]
                assert set(record["quirks"]) == set(record["mutations"]) == {U}
            elif kind in ("deal", "draw"):
                entries = record["hands" if kind == "deal" else "cards"]
                assert all(entry == U or set(entry) <= {U} for entry in entries)
            elif kind == "card_lost":
                assert record["card"] == U
            elif kind in ("guard", "bless", "predict", "sabotage", "gaze", "brew", "rest"):
                raise AssertionError(f"a night action shown to the table: {record}")
            elif kind == "timeout":
                assert not record.get("staged")
            if "stage" in record:
                assert set(record["stage"]) <= {"unblocked", "gnawed"}, "the table is told nothing"
        # Folding it shows the table no secret either: views, event views, effect views.
        state = RULESET.setup(header)
        for event in events:
            effects = RULESET.apply(state, event)
            if state.over:
                break
            seen = json.dumps([RULESET.view(state, "spectator"), RULESET.event_view(event, "spectator"),
                               [msgspec.to_builtins(RULESET.effect_view(e, "spectator")) for e in effects]])
            assert not any(f'"{word}"' in seen for word in SECRETS), seen
            view = RULESET.view(state, "spectator")
            assert "me" not in view and "seats" not in view


def test_a_seat_sees_its_own_secrets_and_nobody_elses() -> None:
    for game in _games(4):
        full = RULESET.setup(game.header)
        RULESET.fold(full, game.events[:8])  # roles, offers, choices, deal
        for seat in range(len(game.header.players)):
            _, events = redact_game(RULESET, game.header, game.events, seat)
            roles = events[0]
            assert isinstance(roles, Roles)
            werebunny = full.is_werebunny[seat]
            assert (seat in roles.werebunnies) == werebunny
            assert (U in roles.werebunnies) != werebunny
            deal = next(e for e in events if isinstance(e, Deal))
            assert [U not in h for h in deal.hands] == [s == seat for s in range(full.n)]
            for event in events:
                if isinstance(event, (Guard, Rest, Bless, Predict, Sabotage, Gaze)):
                    assert event.actor == seat, "a seat sees only its own night actions"
                stage = getattr(event, "stage", None)
                if stage is not None:
                    assert all(notice.seat == seat for notice in stage.told)


def test_suspects_of_a_table_record_are_the_tables_suspects_of_the_whole_game() -> None:
    for game in _games(4):
        header, events = redact_game(RULESET, game.header, game.events, "spectator")
        full, partial = RULESET.setup(game.header), RULESET.setup(header)
        for whole, seen in zip(game.events, events, strict=True):
            RULESET.apply(full, whole)
            RULESET.apply(partial, seen)
            assert suspects(full, "spectator").pairs == suspects(partial, "spectator").pairs


def test_what_a_recorded_game_may_record_next_is_accepted() -> None:
    """The recorder offers, for a game that does not know everything, the actions it can
    take down; each of them is accepted (and a seat's own record offers its known moves).
    The last action of a night carries the stage the table saw (the record's own)."""
    for game in _games(3):
        for perspective in ("spectator", 2):
            header, events = redact_game(RULESET, game.header, game.events, perspective)  # type: ignore[arg-type]
            state: TnbState = RULESET.setup(header)
            for i, event in enumerate(events):
                if i % 3 == 0 and not state.over:
                    closing = state.phase == "night" and len(state.agenda.decisions) == 1
                    for seat in RULESET.to_act(state):
                        offered = RULESET.legal_actions(state, seat)
                        assert offered, f"seat {seat} owes a decision but is offered nothing"
                        if closing:
                            stage = getattr(event, "stage", None)
                            offered = [msgspec.structs.replace(a, stage=stage) for a in offered
                                       if type(a) is type(event)]
                        for action in offered[:4] + offered[-2:]:
                            RULESET.apply(RULESET.copy_state(state), action)
                RULESET.apply(state, event)


# -- a record that knows everything may state its stage and its end ----------------------------
def test_a_whole_record_may_write_its_stage_and_reveal_and_they_are_checked() -> None:
    g = truth(items=[MEDALLION, *[HORSESHOE] * 4])
    g.day([0, 3])
    g.add(Guard, 0, defend=[1])
    for seat in (1, 2):
        g.add(Rest, seat)
    g.add(Rest, 4)
    refuses(g, "TNB-REC-1", Guard, 3, weaken=[2], stage=NightStage(unblocked=4))
    refuses(g, "TNB-REC-2", Guard, 3, weaken=[2], stage=NightStage(
        unblocked=5, told=[MedallionTold(seat=0, weakened_by_others=1)]))
    accepts(g, Guard, 3, weaken=[2], stage=NightStage(unblocked=5, told=[
        MedallionTold(seat=0, weakened_by_others=2)]))
    ending = _accusers_whole()
    refuses(ending, "TNB-REC-3", Accuse, 2, suspects=[3, 4], reveal=_reveal())
    reveal = Reveal(werebunnies=[3, 4], quirks=[HOMEBODY, HOMEBODY, HOMEBODY, None, None],
                    mutations=[None, None, None, STEALTH, GNAW], items=[HORSESHOE] * 5,
                    hand_sizes=[2, 2, 3, 3, 3])
    accepts(ending, Accuse, 2, suspects=[3, 4], reveal=reveal)
    assert ending.state.over and not ending.state.partial


def _accusers_whole() -> Scenario:
    g = truth()
    for seat in (0, 1):
        g.add(Accuse, seat, suspects=[3, 4])
        g.add(CardLost, seat=seat, card=1)
    return g


def test_a_timeout_at_night_at_the_table() -> None:
    t = at_night([0, 1])
    t.add(Act, 2)
    refuses(t, "TNB-REC-1", Timeout)
    effects = accepts(t, Timeout, stage=NightStage(unblocked=0))
    assert effects[0].kind == "night_timed_out" and t.state.phase == "dawn"
    assert hand_range(t.state, 0) == (0, 3), "a guard not listed may have staged cards nobody saw"
    assert hand_range(t.state, 3) == (3, 3), "a player at home whose timer ran out did nothing"


# -- more of the same, rule by rule ---------------------------------------------------------
def test_a_night_the_record_knows_whole_needs_no_stage() -> None:
    t = at_night([0, 1])
    for seat in (0, 1):
        t.add(Guard, seat)  # the guards played nothing, and the record knows it
    for seat in (2, 3):
        t.add(Rest, seat)
    t.add(Predict, 4, damage=True)
    assert t.state.nights[-1]["unblocked"] == 4 and t.state.wall == 1
    assert t.state.hidden.owed_lo[4] == 2  # type: ignore[union-attr]  # home, and a right prediction


def test_home_actions_at_the_table_answer_to_the_public_rules() -> None:
    t = at_night([0, 1])
    refuses(t, "TNB-HOME-1", Rest, 0)
    refuses(t, "TNB-HOME-2", Bless, 2, target=0)
    refuses(t, "TNB-SAB-2", Sabotage, 2, target=0, quirk="grumpy")
    refuses(t, "TNB-SAB-2", Sabotage, 2, target=2, quirk=BRAVE)
    accepts(t, Bless, 2, target=3)


def test_item_actions_a_seats_own_record_knows() -> None:
    g = truth(items=[CRYSTAL_BALL, *[HORSESHOE] * 4])
    g.day([1, 2])
    g.night(home={0: home(Gaze, target=3)})
    g.dawn()
    g.day([1, 2, 3])
    mine = own(g, 0)
    refuses(mine, "TNB-ITEM-4", Gaze, 0, target=4)  # once a game
    refuses(mine, "TNB-ITEM-5", Brew, 0)  # it holds the Crystal Ball, not the Recipe
    accepts(mine, Predict, 0, damage=True)


def test_a_known_townsfolk_guard_cannot_weaken() -> None:
    g = truth()
    g.day([0, 1])
    mine = own(g, 0)
    refuses(mine, "TNB-GUARD-3", Guard, 0, weaken=[1])
    accepts(mine, Guard, 0, defend=[1])


def test_cards_named_from_a_hand_the_record_does_not_know() -> None:
    t = at_night([0, 1])
    t.night(unblocked=0)
    t.dawn()
    t.day([0, 1, 2])
    # Seat 0 may hold 0 to 5 cards: naming four is legal only if it held them.
    assert doubts(accepts(t, Guard, 0, defend=[1, 1, 2, 2])) == [
        ("TNB-GUARD-2", "legal only if seat 0 held at least 4 cards")]
    refuses(t, "TNB-GUARD-2", Guard, 1, defend=[1] * 9)


def test_a_lost_card_whose_value_the_hand_decides() -> None:
    t = _table()
    t.add(Roles, werebunnies=[U, U], quirks=[U] * N, mutations=[U] * N, first_mayor=0)
    t.add(Offers, items=[[U, U]] * N)
    for seat in range(N):
        t.add(ChooseItem, seat, item=U)
    t.add(Deal, hands=[[2, 2, 2], *[[U] * 3] * 4])
    t.add(Accuse, 0, suspects=[1, 2])
    refuses(t, "TNB-ACC-3", CardLost, seat=0, card=3)
    t.add(CardLost, seat=0, card=U)
    assert t.state.hands[0][2] == 2 and t.state.notes[0][-1]["card"] == 2, "a hand of 2s lost a 2"


def test_what_a_stage_may_tell() -> None:
    t = at_night([0, 1])
    for seat in range(4):
        t.add(Act, seat)
    told: list[tuple[str, Any]] = [
        ("TNB-REC-2", BlessedBy(seat=2, by=2)),
        ("TNB-REC-2", MedallionTold(seat=9, weakened_by_others=0)),
        ("TNB-ITEM-8", MedallionTold(seat=2, weakened_by_others=0)),  # at home tonight
        ("TNB-REC-2", GazeTold(seat=2, werebunny=False)),  # nobody knows it gazed
    ]
    for rule, notice in told:
        refuses(t, rule, Act, 4, stage=NightStage(unblocked=0, told=[notice]))
    both = [BlessedBy(seat=2, by=3), BlessedBy(seat=4, by=3)]
    refuses(t, "TNB-REC-2", Act, 4, stage=NightStage(unblocked=0, told=both))
    accepts(t, Act, 4, stage=NightStage(unblocked=0, told=[BlessedBy(seat=2, by=3), Sabotaged(seat=0)]))
    assert t.state.pending_item_loss == [0]


def test_timeouts_at_night_in_a_seats_own_record() -> None:
    g = truth()
    g.day([0, 1])
    g.add(Rest, 2)
    g.add(Timeout)  # seat 0 staged nothing; seat 1's staging nobody but it knows
    mine = own(g, 0)
    timeout = mine.events[-1]
    assert isinstance(timeout, Timeout) and [s.seat for s in timeout.staged] == [0]
    assert hand_range(mine.state, 0) == (3, 3), "seat 0 knows it played nothing"
    whole = truth(options={"guard_timeout": "whole_hand"})
    whole.day([0, 1])
    whole.add(Rest, 2)
    whole.add(Timeout)
    assert hand_range(own(whole, 0).state, 0) == (0, 0)
    assert hand_range(own(whole, 2).state, 0) == (0, 0), "a whole hand played leaves nothing"


def test_a_reveal_that_contradicts_a_seats_own_record() -> None:
    g = truth()
    for seat in (0, 1):
        g.add(Accuse, seat, suspects=[3, 4])
        g.add(CardLost, seat=seat, card=1)
    mine = own(g, 0)
    wrong = Reveal(werebunnies=[3, 4], quirks=[BRAVE, HOMEBODY, HOMEBODY, None, None],
                   mutations=[None, None, None, STEALTH, GNAW], items=[HORSESHOE] * 5,
                   hand_sizes=[2, 2, 3, 3, 3])
    refuses(mine, "TNB-REC-3", Accuse, 2, suspects=[3, 4], reveal=wrong)  # seat 0 is a Homebody
    swapped = msgspec.structs.replace(wrong, quirks=[HOMEBODY] * 3 + [None, None],
                                      items=[SHIELD] + [HORSESHOE] * 4)
    refuses(mine, "TNB-REC-3", Accuse, 2, suspects=[3, 4], reveal=swapped)  # it kept the Horseshoe
    right = msgspec.structs.replace(wrong, quirks=[HOMEBODY] * 3 + [None, None])
    accepts(mine, Accuse, 2, suspects=[3, 4], reveal=right)


def test_a_recorded_game_redacted_again_checks_and_invents_nothing() -> None:
    """Redacting a record that already leaves things unknown, for any perspective, gives a
    record that checks clean and names nothing the record did not know."""
    for game in _games(4):
        n = len(game.header.players)
        for first in ("spectator", 1):
            header, events = redact_game(RULESET, game.header, game.events, first)  # type: ignore[arg-type]
            for again in ("spectator", *range(n)):
                h2, e2 = redact_game(RULESET, header, events, again)  # type: ignore[arg-type]
                assert check_events(RULESET, h2, e2) is None, (first, again)
                if first == "spectator":
                    assert [event_to_dict(e) for e in e2] == [event_to_dict(e) for e in events]


def test_a_partial_state_round_trips_the_codec_and_copies_share_nothing() -> None:
    game = _games(1)[0]
    header, events = redact_game(RULESET, game.header, game.events, 1)
    state = RULESET.setup(header)
    codec = RULESET.codec
    for event in events:
        RULESET.apply(state, event)
        if event.seq % 9:
            continue
        back = codec.decode(codec.encode(state))
        assert codec.equal(back, state) and RULESET.view(back, 1) == RULESET.view(state, 1)
        copy = RULESET.copy_state(state)
        assert copy.hidden is not state.hidden and copy.hidden == state.hidden
        assert copy.hidden.lo is not state.hidden.lo  # type: ignore[union-attr]
