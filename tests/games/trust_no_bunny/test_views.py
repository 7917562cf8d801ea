"""What each perspective sees of a game of Trust No Bunny: views, events, effects."""

from __future__ import annotations

import pytest

from engine.rules import WarrenError
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import Bless, CardLost, ChooseItem, Gaze, Guard, Sabotage, Staged, Timeout
from engine.trust_no_bunny.numbers import CRYSTAL_BALL, GNAW, HOMEBODY, MEDALLION, SHIELD, STEALTH
from tests.games.trust_no_bunny.helpers import at_night, home, started


def test_a_seat_sees_the_public_view_plus_its_own_secrets() -> None:
    g = at_night([0, 3])
    g.add(Guard, 3, defend=[1], weaken=[3])
    spectator = RULESET.view(g.state, "spectator")
    for seat in range(5):
        seen = RULESET.view(g.state, seat)
        me = seen.pop("me")
        assert {**seen, "perspective": "spectator"} == spectator
        assert me["seat"] == seat and me["hand"] == [v for v in (1, 2, 3) if seat != 3 or v == 2]
    werebunny = RULESET.view(g.state, 3)["me"]
    assert werebunny["role"] == "werebunny" and werebunny["partner"] == 4 and werebunny["mutation"] == STEALTH
    assert werebunny["tonight"]["weaken"] == [3]
    townsfolk = RULESET.view(g.state, 0)["me"]
    assert townsfolk["role"] == "townsfolk" and townsfolk["quirk"] == HOMEBODY and "partner" not in townsfolk
    assert spectator["waiting_on"] == [0, 1, 2, 4] and "me" not in spectator and "seats" not in spectator


def test_the_referee_sees_everything() -> None:
    g = at_night([0, 3])
    g.add(Guard, 3, defend=[1], weaken=[3])
    referee = RULESET.view(g.state, "referee")
    assert [s["role"] for s in referee["seats"]] == ["townsfolk"] * 3 + ["werebunny"] * 2
    assert referee["seats"][3]["tonight"]["weaken"] == [3]
    assert len(referee["deck"]) == 60 - 15 and referee["discard"] == [1, 3]


def test_an_unknown_seat_is_a_clear_error() -> None:
    g = started()
    with pytest.raises(WarrenError, match="seat 9"):
        RULESET.view(g.state, 9)


def test_the_night_stays_secret_in_the_event_list() -> None:
    g = at_night([0, 1], items=[SHIELD] * 5)
    g.night(guards={0: [3]}, home={3: home(Sabotage, target=2, quirk=HOMEBODY), 2: home(Bless, target=4)})
    events = {e.actor: e for e in g.events[-5:]}
    assert RULESET.event_view(events[3], 2) == {"seq": events[3].seq, "type": "home_action", "actor": 3}
    assert RULESET.event_view(events[3], "spectator")["type"] == "home_action"
    assert RULESET.event_view(events[3], 3)["type"] == "sabotage"
    assert RULESET.event_view(events[0], 1) == {"seq": events[0].seq, "type": "guard", "actor": 0}
    assert RULESET.event_view(events[0], 0)["defend"] == [3]
    assert RULESET.event_view(events[0], "referee")["defend"] == [3]


def test_chance_shows_each_seat_its_own_part() -> None:
    g = started(hands=[[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [1, 2, 3]])
    roles, offers, *choices, deal = g.events[:9]
    assert RULESET.event_view(roles, 0) == {"seq": 1, "type": "roles", "actor": None, "first_mayor": 0,
                                            "role": "townsfolk", "quirk": HOMEBODY, "mutation": None}
    assert RULESET.event_view(roles, 4)["werebunnies"] == [3, 4]
    assert "werebunnies" not in RULESET.event_view(roles, "spectator")
    assert RULESET.event_view(deal, 2)["hands"] == [3, 3, 3]
    assert "hands" not in RULESET.event_view(deal, "spectator")
    assert RULESET.event_view(offers, 1)["items"] == list(g.state.offers[1])
    assert isinstance(choices[0], ChooseItem)
    assert "item" not in RULESET.event_view(choices[0], 1) and "item" in RULESET.event_view(choices[0], 0)
    g.muster(accuse={0: [3, 4]}, lose={0: 1})
    lost = next(e for e in g.events if isinstance(e, CardLost))
    assert RULESET.event_view(lost, 0)["card"] == 1
    assert RULESET.event_view(lost, 2) == {"seq": lost.seq, "type": "card_lost", "actor": None, "seat": 0}


def test_staged_cards_are_seen_by_their_guard_only() -> None:
    g = at_night([0, 1])
    g.add(Timeout, staged=[Staged(seat=0, defend=[3])])
    timeout = g.events[-1]
    assert RULESET.event_view(timeout, 0)["staged"] == [{"seat": 0, "defend": [3]}]
    assert "staged" not in RULESET.event_view(timeout, 1)


def test_private_effects_reach_only_those_told() -> None:
    g = at_night([0, 3], items=[MEDALLION, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD],
                 mutations={3: STEALTH, 4: GNAW})
    g.night(guards={0: [1], 3: ([], [2])},
            home={2: home(Gaze, target=1), 4: home(Sabotage, target=1, quirk=HOMEBODY)})
    effects = {e.kind: e for e in g.effects[-1]}
    assert RULESET.effect_view(effects["medallion_told"], 0) is not None
    assert RULESET.effect_view(effects["medallion_told"], 2) is None
    assert RULESET.effect_view(effects["gazed"], 2) is not None
    assert RULESET.effect_view(effects["gazed"], "spectator") is None
    assert RULESET.effect_view(effects["sabotage_succeeded"], 3) is not None
    assert RULESET.effect_view(effects["sabotage_succeeded"], 1) is None
    assert RULESET.effect_view(effects["night_resolved"], "spectator") == effects["night_resolved"]
    drawn = g.dawn()[-1]
    assert drawn.kind == "cards_drawn"
    assert RULESET.effect_view(drawn, 1).data == {"seat": 1, "cards": 1}  # type: ignore[union-attr]
    assert RULESET.effect_view(drawn, "spectator").data == {}  # type: ignore[union-attr]


def test_the_end_reveals_every_role() -> None:
    g = started()
    g.muster(accuse={0: [3, 4], 1: [3, 4], 2: [3, 4]})
    spectator = RULESET.view(g.state, "spectator")
    assert spectator["outcome"]["winners"] == [0, 1, 2]
    assert spectator["reveal"]["werebunnies"] == [3, 4] and spectator["reveal"]["quirks"][0] == HOMEBODY


def test_render_draws_the_table() -> None:
    g = at_night([0, 3], items=[SHIELD, SHIELD, CRYSTAL_BALL, SHIELD, SHIELD])
    g.night(guards={0: [2], 3: ([], [3])}, home={2: home(Gaze, target=3)})
    g.dawn()
    names = [f"p{s}" for s in range(5)]
    seat = RULESET.render(RULESET.view(g.state, 2), names)
    assert "round 2 of 5" in seat and "got through 4" in seat and "me: p2 ·" in seat
    assert "werebunny=True" in seat
    spectator = RULESET.render(RULESET.view(g.state, "spectator"), names)
    assert "me:" not in spectator and "werebunny" not in spectator
    assert "seats:" in RULESET.render(RULESET.view(g.state, "referee"), names)
