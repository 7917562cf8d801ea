"""Every mechanic rule of Killer Bunnies Quest, allowing and forbidding.

Each rule id has an ``allow`` case (the rule lets something happen, or makes it happen) and
a ``forbid`` case: an event refused with that rule id, leaving the state untouched
(``refuses``), or, for a rule that derives a consequence, the consequence withheld when its
condition is not met. The last tests fail when a rule has no case of either kind. The cards
(``KBQ-CARD-*``) have their own file, test_quest_cards.py.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from engine.killer import feeding
from engine.killer_bunnies_quest import RULESET, leaving, waiting
from engine.killer_bunnies_quest import table as quest_table
from engine.killer_bunnies_quest.events import (
    Bid,
    Bottom,
    Buy,
    Choose,
    Discard,
    EndTurn,
    Feed,
    Flip,
    Join,
    Leave,
    Play,
    Reshuffle,
    Roll,
    Runs,
    Save,
    Setup,
    Stake,
    Trade,
)
from engine.killer_bunnies_quest.rulebook import MECHANICS, RULES
from engine.rules import RuleViolation
from tests.games.killer_bunnies_quest.helpers import (
    BAKER_STREET,
    BAKERY,
    BLOCK_BID,
    BLUE_CONGENIAL,
    BLUE_GLEEFUL,
    BLUE_LUMBERING,
    BLUE_TIMID,
    CABBAGE_1,
    CABBAGE_5,
    CABBAGE_10,
    CASINO,
    CHOOSE_2,
    CHOOSE_A_CARROT,
    CLOVER_2,
    CLOVER_3,
    CYBER,
    DOLLA_1,
    DOLLA_2,
    DOLLA_5,
    DOLLA_10,
    DROUGHT,
    EBOLA,
    FEED_1_1,
    FEED_3_4,
    FLUORINE,
    FOUNTAIN,
    FREE_CABBAGE,
    GREEN_CONGENIAL,
    GREEN_GLEEFUL,
    GREEN_TIMID,
    HALO,
    LASER,
    MARKET_CLOSED,
    MARKET_HIGH,
    MISFORTUNE,
    ORANGE_CONGENIAL,
    ORANGE_TIMID,
    ROULETTE,
    SEA_WHIZ,
    SUIT,
    SUNNY_DAY,
    SWORD,
    THIEF,
    WATER_1,
    WHISK,
    carrot,
    find,
    finish,
    give,
    kinds,
    offered,
    pass_turn,
    put,
    refuses,
    snapshot,
    table,
)
from tests.scenarios.killer_bunnies_quest import Scenario

ALLOW: dict[str, Callable[[], None]] = {}
FORBID: dict[str, Callable[[], None]] = {}


def allow(rule: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(case: Callable[[], None]) -> Callable[[], None]:
        assert rule not in ALLOW, rule
        ALLOW[rule] = case
        return case
    return register


def forbid(rule: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(case: Callable[[], None]) -> Callable[[], None]:
        assert rule not in FORBID, rule
        FORBID[rule] = case
        return case
    return register


# -- Play Immediately ----------------------------------------------------------------------------


@allow("KBQ-PI-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0), (GREEN_CONGENIAL, 1)],
              draws=[MISFORTUNE])
    g.flip(0)
    g.discard(0, g.state.flipped)
    assert g.state.stack[-1].kind == "misfortune"  # type: ignore[union-attr]
    assert sorted(g.state.stack[-1].options) == [BLUE_CONGENIAL, BLUE_GLEEFUL]  # type: ignore[union-attr]
    effects = g.choose(0, bunnies=[BLUE_GLEEFUL])
    assert find(effects, "bunny_died").data["cause"] == "misfortune"
    assert g.state.circle.order == [BLUE_CONGENIAL, GREEN_CONGENIAL]
    assert len(g.state.seats[0].hand) == 6 and g.state.phase == "bottom"  # it drew again


@forbid("KBQ-PI-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0), (GREEN_CONGENIAL, 1)],
              draws=[MISFORTUNE])
    g.flip(0)
    g.discard(0, g.state.flipped)
    refuses(g, "KBQ-PI-1", Choose, 0, bunnies=[GREEN_CONGENIAL])


@allow("KBQ-PI-2")
def _() -> None:
    # the drawer's only bunny is haloed: the misfortune goes on an opponent's bunny
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], draws=[MISFORTUNE])
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    effects = pass_turn(g, 0)
    died = find(effects, "bunny_died")
    assert died.data["bunny"] == GREEN_CONGENIAL and died.rule == "KBQ-PI-2"


@forbid("KBQ-PI-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              draws=[MISFORTUNE])
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    g.flip(0)
    g.discard(0, g.state.flipped)
    refuses(g, "KBQ-PI-2", Choose, 0, bunnies=[BLUE_CONGENIAL])


@allow("KBQ-PI-3")
def _() -> None:
    g = table(3, draws=[MISFORTUNE])
    g.flip(0)
    effects = g.discard(0, g.state.flipped)
    assert "misfortune_unused" in kinds(effects)
    assert MISFORTUNE in g.state.discard and len(g.state.seats[0].hand) == 6


@forbid("KBQ-PI-3")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)], draws=[MISFORTUNE])
    effects = pass_turn(g, 0)
    assert "misfortune_unused" not in kinds(effects) and GREEN_CONGENIAL not in g.state.circle


# -- Run cards ---------------------------------------------------------------------------------


@allow("KBQ-RUN-1")
def _() -> None:
    g = table(3, hands={0: [BLUE_CONGENIAL, WHISK]})
    g.flip(0)
    g.play(0, BLUE_CONGENIAL, at=0)
    assert g.state.circle.order == [BLUE_CONGENIAL] and g.state.seats[0].run.top == WHISK


@forbid("KBQ-RUN-1")
def _() -> None:
    g = table(3)
    put(g, BLUE_CONGENIAL, "hand", 0)
    refuses(g, "KBQ-RUN-1", Play, 0, card=BLUE_CONGENIAL, at=0)


@allow("KBQ-RUN-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.flip(0)
    assert any(isinstance(a, Play) for a in offered(g, 0))
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    assert g.state.stack[-1].target == GREEN_CONGENIAL  # type: ignore[union-attr]


@forbid("KBQ-RUN-2")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.flip(0)
    refuses(g, "KBQ-RUN-2", Play, 0, card=SWORD, on=GREEN_CONGENIAL)
    assert [type(a) for a in offered(g, 0) if a.card == SWORD] == [Discard]  # type: ignore[attr-defined]


@allow("KBQ-RUN-3")
def _() -> None:
    g = table(3, hands={0: [SWORD]})
    g.flip(0)
    g.discard(0, SWORD)
    assert SWORD in g.state.discard


@forbid("KBQ-RUN-3")
def _() -> None:
    g = table(3, hands={0: [SWORD]})
    g.flip(0)
    refuses(g, "KBQ-RUN-3", Save, 0, card=SWORD)


# -- Special cards ------------------------------------------------------------------------------


@allow("KBQ-SPC-1")
def _() -> None:
    g = table(3, hands={0: [FREE_CABBAGE], 1: [FREE_CABBAGE + 1]})
    g.flip(0)
    g.save(0, FREE_CABBAGE)
    assert g.state.seats[0].saved == [FREE_CABBAGE]
    g.bottom(0)
    g.flip(1)
    g.play(1, FREE_CABBAGE + 1)
    assert len(g.state.seats[1].water) == 2


@forbid("KBQ-SPC-1")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "saved", 0)
    refuses(g, "KBQ-SPC-1", Discard, 0, card=FREE_CABBAGE)


@allow("KBQ-SPC-2")
def _() -> None:
    g = table(3)
    give(g, FREE_CABBAGE, 0)
    run = g.state.seats[0].run.copy()
    g.play(0, FREE_CABBAGE)
    assert len(g.state.seats[0].cabbage) == 2 and g.state.seats[0].run == run
    assert g.state.active == 1 and len(g.state.seats[0].hand) == 5


@forbid("KBQ-SPC-2")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "hand", 0)
    g.flip(0)
    refuses(g, "KBQ-SPC-2", Play, 0, card=FREE_CABBAGE)


@allow("KBQ-SPC-3")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "hand", 0)
    g.discard(0, FREE_CABBAGE)
    assert FREE_CABBAGE in g.state.discard and g.state.active == 1


@forbid("KBQ-SPC-3")
def _() -> None:
    g = table(3)
    put(g, SWORD, "hand", 0)
    refuses(g, "KBQ-SPC-3", Discard, 0, card=SWORD)


@allow("KBQ-SPC-4")
def _() -> None:
    g = table(3, hands={0: [FREE_CABBAGE]})
    g.flip(0)
    g.save(0, FREE_CABBAGE)
    assert FREE_CABBAGE in g.state.seats[0].saved


@forbid("KBQ-SPC-4")
def _() -> None:
    g = table(3, hands={0: [SWORD]})
    put(g, FREE_CABBAGE, "hand", 0)
    g.flip(0)
    refuses(g, "KBQ-SPC-4", Save, 0, card=FREE_CABBAGE)


@allow("KBQ-SPC-5")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "saved", 0)
    put(g, FREE_CABBAGE + 1, "saved", 0)
    g.play(0, FREE_CABBAGE)
    g.play(0, FREE_CABBAGE + 1)
    assert len(g.state.seats[0].cabbage) == 2 and len(g.state.seats[0].water) == 2
    pass_turn(g, 0)


@forbid("KBQ-SPC-5")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "saved", 1)
    refuses(g, "KBQ-SPC-5", Play, 1, card=FREE_CABBAGE)
    put(g, FREE_CABBAGE + 1, "hand", 1)
    refuses(g, "KBQ-SPC-5", Play, 1, card=FREE_CABBAGE + 1)


# -- Very Special cards ----------------------------------------------------------------------------


@allow("KBQ-VSP-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    g.state.demands.append(feeding.FeedDemand(card=FEED_1_1, bunny=GREEN_CONGENIAL, owner=1,
                                                   cabbage=1, water=1, due_turn=1))
    g.state.draw.remove(FEED_1_1)
    g.state.circle.space(GREEN_CONGENIAL).on.append(FEED_1_1)
    put(g, SUNNY_DAY, "hand", 1)
    effects = g.play(1, SUNNY_DAY)  # on seat 0's turn
    assert "feeds_cleared" in kinds(effects) and g.state.demands == []


@forbid("KBQ-VSP-1")
def _() -> None:
    g = Scenario(3, lay=False)
    put(g, SUNNY_DAY, "hand", 1)
    refuses(g, "KBQ-VSP-1", Play, 1, card=SUNNY_DAY)


@allow("KBQ-VSP-2")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)])
    give(g, SUIT, 0)
    g.play(0, SUIT, on=GREEN_CONGENIAL)
    st = g.state
    assert st.active == 0 and st.phase == "turn" and st.cards_played == 0
    assert len(st.seats[0].hand) == 5  # replaced at once


@forbid("KBQ-VSP-2")
def _() -> None:
    # a Special from hand is the turn's card: the turn is over afterwards
    g = table(3)
    put(g, FREE_CABBAGE, "hand", 0)
    g.play(0, FREE_CABBAGE)
    assert g.state.active == 1


# -- a turn, a round -------------------------------------------------------------------------------


@allow("KBQ-TURN-1")
def _() -> None:
    g = table(3, hands={0: [SWORD], 1: [FREE_CABBAGE], 2: [GREEN_CONGENIAL]})
    put(g, FREE_WATER_CARD, "hand", 0)
    pass_turn(g, 0)                       # flip and discard
    g.flip(1)
    g.save(1, FREE_CABBAGE)               # flip and save
    g.bottom(1)
    g.run_card(2, {"at": 0})              # flip and play
    g.play(0, FREE_WATER_CARD)            # a Special from hand
    assert g.state.active == 1


FREE_WATER_CARD = 69


@forbid("KBQ-TURN-1")
def _() -> None:
    g = table(3)
    refuses(g, "KBQ-TURN-1", EndTurn, 0)
    g.flip(0)
    refuses(g, "KBQ-TURN-1", Flip, 0)   # one card: the flipped one is dealt with first


@allow("KBQ-TURN-2")
def _() -> None:
    g = table(3)
    for seat in (0, 1, 2):
        assert g.state.active == seat and g.state.round == 1
        pass_turn(g, seat)
    assert g.state.active == 0 and g.state.round == 2


@forbid("KBQ-TURN-2")
def _() -> None:
    g = table(4)
    pass_turn(g, 0)
    g.act(Leave, 2)
    pass_turn(g, 1)
    assert g.state.active == 3  # seat 2 left: no turn for it


@allow("KBQ-TURN-3")
def _() -> None:
    g = table(3, hands={0: [SWORD, WHISK]}, draws=[LASER])
    g.flip(0)
    g.discard(0, SWORD)
    st = g.state.seats[0]
    assert st.run.top == WHISK and st.run.bottom is None and LASER in st.hand
    assert g.state.phase == "bottom"
    g.bottom(0, LASER)
    assert st.run.bottom == LASER and len(st.hand) == 5 and g.state.active == 1


@forbid("KBQ-TURN-3")
def _() -> None:
    g = table(3, hands={0: [SWORD]})
    g.flip(0)
    g.discard(0, SWORD)
    refuses(g, "KBQ-TURN-3", Bottom, 0, card=SWORD)
    refuses(g, "KBQ-TURN-3", Flip, 0)   # the new bottom run card first


@allow("KBQ-TURN-4")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1),
                         (ORANGE_CONGENIAL, 2)], hands={0: [ROULETTE]})
    g.flip(0)
    g.play(0, ROULETTE)
    # seat 1 owes a stake on seat 0's turn: it may act off its turn
    assert g.state.stack[-1].seat == 1  # type: ignore[union-attr]
    g.stake(1, bunnies=[GREEN_GLEEFUL])


@forbid("KBQ-TURN-4")
def _() -> None:
    g = table(3)
    refuses(g, "KBQ-TURN-4", Flip, 1)


@allow("KBQ-TURN-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [BAKER_STREET]})
    g.run_card(0, {"player": 1})
    assert g.state.active == 2  # seat 1's turn passed at once
    assert "turn_lost" in kinds(g.effects[-1])


@forbid("KBQ-TURN-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [BAKER_STREET]})
    g.run_card(0, {"player": 1})
    assert g.state.active == 2
    refuses(g, "KBQ-TURN-5", Flip, 1)   # he does nothing in the turn he lost
    pass_turn(g, 2)
    pass_turn(g, 0)
    assert g.state.active == 1  # only one turn is lost


# -- adjacent --------------------------------------------------------------------------------------


@allow("KBQ-ADJ-1")
def _() -> None:
    g = table(5)
    assert quest_table.adjacent_players(g.state, 0) == [1, 4]
    assert RULESET.view(g.state, 0)["seats"][2]["neighbours"] == [1, 3]


@forbid("KBQ-ADJ-1")
def _() -> None:
    g = table(5)
    assert 2 not in quest_table.adjacent_players(g.state, 0)
    g.act(Leave, 4)
    assert quest_table.adjacent_players(g.state, 0) == [1, 3]


@allow("KBQ-ADJ-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 2),
                         (ORANGE_CONGENIAL, 1)], hands={0: [SEA_WHIZ]})
    g.flip(0)
    g.play(0, SEA_WHIZ, on=GREEN_GLEEFUL)
    hits = {h.bunny: h.level for h in g.state.stack[-1].hits}  # type: ignore[union-attr]
    assert hits == {GREEN_GLEEFUL: 10, GREEN_CONGENIAL: 9, ORANGE_CONGENIAL: 9}


@forbid("KBQ-ADJ-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 2),
                         (ORANGE_CONGENIAL, 1), (ORANGE_TIMID, 2)], hands={0: [SEA_WHIZ]})
    g.flip(0)
    g.play(0, SEA_WHIZ, on=GREEN_GLEEFUL)
    assert BLUE_CONGENIAL not in {h.bunny for h in g.state.stack[-1].hits}  # type: ignore[union-attr]


# -- aggressive cards ------------------------------------------------------------------------------


@allow("KBQ-AGG-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [CHOOSE_A_CARROT]})
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    g.flip(0)
    g.play(0, CHOOSE_A_CARROT, carrots=[carrot(3)])
    assert g.state.seats[0].carrots == [carrot(3)]


@forbid("KBQ-AGG-1")
def _() -> None:
    # every other pink-box card is Aggressive: with only a haloed bunny, Drought is refused
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [DROUGHT]})
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    aggressive = quest_table.deck(g.state).aggressive
    assert aggressive[DROUGHT] and not aggressive[CHOOSE_2]
    g.flip(0)
    refuses(g, "KBQ-AGG-2", Play, 0, card=DROUGHT, player=1)


@allow("KBQ-AGG-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0), (GREEN_CONGENIAL, 1)],
              hands={0: [SWORD]})
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    g.flip(0)
    g.play(0, SWORD, on=GREEN_CONGENIAL)  # one unhaloed bunny is enough


@forbid("KBQ-AGG-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    put(g, HALO, "under", bunny=BLUE_CONGENIAL)
    g.flip(0)
    refuses(g, "KBQ-AGG-2", Play, 0, card=SWORD, on=GREEN_CONGENIAL)


# -- bunny triplets --------------------------------------------------------------------------------


def _triplet_table(third: int, **kw: object) -> Scenario:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0), (third, 0)], **kw)  # type: ignore[arg-type]
    # the bunnies were there when Ada's turn began (table() places them after its start)
    g.state.triplet_at_start = quest_table.has_triplet(g.state, 0)
    return g


@allow("KBQ-TRIP-1")
def _() -> None:
    g = _triplet_table(BLUE_LUMBERING)
    pass_turn(g, 0)
    assert g.state.active == 0 and g.state.second
    assert EndTurn(seq=g.state.seq + 1, actor=0) in offered(g, 0)
    pass_turn(g, 0)
    assert g.state.active == 1


@forbid("KBQ-TRIP-1")
def _() -> None:
    g = _triplet_table(GREEN_TIMID)
    pass_turn(g, 0)
    assert g.state.active == 1
    # a second card without a triplet: refused by the triplet rule, not the turn order
    err = refuses(g, "KBQ-TRIP-1", Flip, 0)
    assert "second card needs a Bunny Triplet" in err.message
    g = _triplet_table(BLUE_LUMBERING)
    pass_turn(g, 0)
    g.act(EndTurn, 0)                    # a second card declined is gone
    refuses(g, "KBQ-TRIP-1", Flip, 0)


@allow("KBQ-TRIP-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0)], hands={0: [BLUE_TIMID]})
    g.run_card(0, {"at": 0})
    assert g.state.active == 0 and g.state.second


@forbid("KBQ-TRIP-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_GLEEFUL, 0)],
              hands={0: [ORANGE_TIMID, GREEN_TIMID]})
    g.run_card(0, {"at": 0})
    assert g.state.active == 1  # no triplet after the first card


@allow("KBQ-TRIP-3")
def _() -> None:
    g = table(3, circle=[(b, 0) for b in (BLUE_CONGENIAL, BLUE_GLEEFUL, BLUE_LUMBERING,
                                          GREEN_CONGENIAL, GREEN_GLEEFUL, GREEN_TIMID)])
    pass_turn(g, 0)
    assert g.state.active == 0


@forbid("KBQ-TRIP-3")
def _() -> None:
    g = table(3, circle=[(b, 0) for b in (BLUE_CONGENIAL, BLUE_GLEEFUL, BLUE_LUMBERING,
                                          GREEN_CONGENIAL, GREEN_GLEEFUL, GREEN_TIMID)])
    pass_turn(g, 0)
    pass_turn(g, 0)
    assert g.state.active == 1  # never a third card
    refuses(g, "KBQ-TRIP-3", Flip, 0)


@allow("KBQ-TRIP-4")
def _() -> None:
    g = _triplet_table(BLUE_LUMBERING, draws=[SWORD])
    pass_turn(g, 0)
    assert g.state.second  # the replacement did not break it


@forbid("KBQ-TRIP-4")
def _() -> None:
    # the replacement card is a Terrible Misfortune that kills one of the triplet: no second card
    g = _triplet_table(BLUE_LUMBERING, draws=[MISFORTUNE])
    g.flip(0)
    g.discard(0, g.state.flipped)
    g.choose(0, bunnies=[BLUE_LUMBERING])
    g.bottom(0)
    assert g.state.active == 1
    refuses(g, "KBQ-TRIP-4", Flip, 0)   # the broken triplet, not the turn order, says no
    pass_turn(g, 1)
    refuses(g, "KBQ-TURN-4", Flip, 0)   # once Bo has played, it is plainly out of turn


# -- supplies, face up, game length ----------------------------------------------------------------


@allow("KBQ-SUP-1")
def _() -> None:
    g = _feeding_table()
    g.feed(1, GREEN_CONGENIAL, cabbage=[CABBAGE_1], water=[WATER_1])
    assert CABBAGE_1 in g.state.cabbage_discard and WATER_1 in g.state.water_discard


@forbid("KBQ-SUP-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_10]})
    for c in list(g.state.cabbage_deck):
        put(g, c, "discard")
    refuses(g, "KBQ-SUP-1", Buy, 0, goods="cabbage")


def test_the_reshuffle_house_rule_turns_the_discarded_supplies_over() -> None:
    # R-KBQ-16: the option reshuffles the discarded cabbage cards when the deck is empty...
    g = table(3, money={0: [DOLLA_10]}, options={"reshuffle_supplies": True})
    for c in list(g.state.cabbage_deck):
        g.state.cabbage_deck.remove(c)
        g.state.cabbage_discard.append(c)
    g.buy(0, "cabbage")
    assert len(g.state.seats[0].cabbage) == 1 and not g.state.cabbage_discard
    # ...and still sells nothing when the deck and its discards are both empty
    g2 = table(3, money={0: [DOLLA_10]}, options={"reshuffle_supplies": True})
    for c in list(g2.state.cabbage_deck):
        g2.state.cabbage_deck.remove(c)
        g2.state.seats[1].cabbage.append(c)
    refuses(g2, "KBQ-SUP-1", Buy, 0, goods="cabbage")


def _feeding_table() -> Scenario:
    """Seat 0 put a 1/1 feed on seat 1's bunny; seat 1's turn, holding a cabbage and a water."""
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FEED_1_1]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    put(g, CABBAGE_1, "cabbage", 1)
    put(g, WATER_1, "water", 1)
    return g


@allow("KBQ-FACE-1")
def _() -> None:
    g = table(3, money={1: [DOLLA_5]})
    put(g, FREE_CABBAGE, "saved", 1)
    put(g, carrot(2), "carrots", 1)
    seen = RULESET.view(g.state, 0)["seats"][1]
    assert seen["saved"] == [FREE_CABBAGE] and seen["dolla"] == 5 and seen["carrots"] == [carrot(2)]


@forbid("KBQ-FACE-1")
def _() -> None:
    g = table(3)
    seen = RULESET.view(g.state, 0)["seats"][1]
    assert seen["hand"] == 5 and seen["top"] == "back" and seen["bottom"] == "back"
    assert RULESET.view(g.state, 1)["seats"][1]["hand"] == sorted(g.state.seats[1].hand)


@allow("KBQ-LEN-1")
def _() -> None:
    g = Scenario(3, options={"starting_carrots": 1}, gifts=[[carrot(1)], [carrot(5)], [carrot(9)]])
    assert [s.carrots for s in g.state.seats] == [[carrot(1)], [carrot(5)], [carrot(9)]]
    assert len(g.state.market.carrots) == 9


@forbid("KBQ-LEN-1")
def _() -> None:
    with pytest.raises(RuleViolation) as err:
        Scenario(3, options={"starting_carrots": 1})  # no gifts although the option asks
    assert err.value.rule == "KBQ-LEN-1"
    with pytest.raises(RuleViolation) as err:
        Scenario(3, options={"starting_carrots": 1}, gifts=[[carrot(1)], [carrot(1)], [carrot(2)]])
    assert err.value.rule == "KBQ-LEN-1"


@allow("KBQ-LEN-2")
def _() -> None:
    g = Scenario(3, options={"remove_choose_a_carrot": 2}, removed=[CHOOSE_A_CARROT, 17])
    st = g.state
    everywhere = st.draw + st.discard + [c for s in st.seats for c in (*s.hand, *s.money,
                                                                        *s.run.cards())]
    assert len(everywhere) == 150 and CHOOSE_A_CARROT not in everywhere


@forbid("KBQ-LEN-2")
def _() -> None:
    with pytest.raises(RuleViolation) as err:
        Scenario(3, options={"remove_choose_a_carrot": 1}, removed=[CHOOSE_2])  # not a single
    assert err.value.rule == "KBQ-LEN-2"


# -- joining late and leaving early ----------------------------------------------------------------


@allow("KBQ-JOIN-1")
def _() -> None:
    g = Scenario(3, options={"late": [2]}, draws=[MISFORTUNE, DOLLA_2])
    assert not g.state.seats[2].present and g.state.active == 0
    effects = g.act(Join, 2)
    assert "misfortune_unused" in kinds(effects) and g.state.seats[2].money == [DOLLA_2]
    hand = g.state.seats[2].hand
    assert len(hand) == 7 and g.state.phase == "turn"
    assert set(RULESET.to_act(g.state)) == {2}
    g.act(Runs, 2, top=hand[0], bottom=hand[1])
    pass_turn(g, 0)
    pass_turn(g, 1)
    assert g.state.active == 2


@forbid("KBQ-JOIN-1")
def _() -> None:
    g = Scenario(3, options={"late": [2]})
    refuses(g, "KBQ-JOIN-1", Join, 1)
    g.flip(0)
    refuses(g, "KBQ-JOIN-1", Join, 2)


@allow("KBQ-LEAVE-1")
def _() -> None:
    g = table(4, circle=[(GREEN_CONGENIAL, 2)], money={2: [DOLLA_5]})
    put(g, carrot(4), "carrots", 2)
    effects = g.act(Leave, 2)
    st = g.state
    assert carrot(4) in st.market.carrots and not st.seats[2].present
    assert GREEN_CONGENIAL not in st.circle and DOLLA_5 in st.discard
    assert "bunny_left" in kinds(effects)


@forbid("KBQ-LEAVE-1")
def _() -> None:
    g = table(3)
    refuses(g, "KBQ-LEAVE-1", Leave, 0)  # not during his own turn


@allow("KBQ-LEAVE-2")
def _() -> None:
    # a fair trade before leaving, and a gift made before his last turn began, do not stop him
    g = table(4, money={2: [DOLLA_5, DOLLA_2]})
    put(g, carrot(4), "carrots", 2)
    put(g, CABBAGE_5, "cabbage", 0)
    g.trade(0, 2, give=[CABBAGE_5], get=[DOLLA_5])  # in Ada's turn, Cy gets cabbage back
    pass_turn(g, 0)
    pass_turn(g, 1)
    g.trade(2, 0, give=[DOLLA_2])                   # Cy's own turn: a gift
    pass_turn(g, 2)
    pass_turn(g, 3)
    pass_turn(g, 0)
    pass_turn(g, 1)
    pass_turn(g, 2)                                 # his next turn began: the gift is old
    effects = g.act(Leave, 2)
    assert "left" in kinds(effects) and carrot(4) in g.state.market.carrots


@forbid("KBQ-LEAVE-2")
def _() -> None:
    g = table(4, money={0: [DOLLA_5]})
    put(g, carrot(4), "carrots", 2)
    put(g, WATER_5_CARD, "water", 2)
    g.trade(0, 2, get=[carrot(4)])       # in Ada's turn, recorded by Ada: Cy gives a carrot
    err = refuses(g, "KBQ-LEAVE-2", Leave, 2)
    assert err.facts["taker"] == 0 and err.facts["cards"] == [carrot(4)]
    g = table(4)
    put(g, WATER_5_CARD, "water", 2)
    pass_turn(g, 0)
    pass_turn(g, 1)
    g.trade(2, 3, give=[WATER_5_CARD])   # in his own last turn, supplies to Di
    pass_turn(g, 2)
    refuses(g, "KBQ-LEAVE-2", Leave, 2)  # in Di's turn
    pass_turn(g, 3)
    refuses(g, "KBQ-LEAVE-2", Leave, 2)  # in Ada's
    g.act(Leave, 3)                      # once Di has left, the gift went to nobody still in
    assert "left" in kinds(g.act(Leave, 2))


# -- making change ---------------------------------------------------------------------------------


@allow("KBQ-CHANGE-1")
def _() -> None:
    # the rulebook's example: a 4-unit cabbage feed paid with the 5-unit card, 1 unit back
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FEED_3_4 + 1]})
    g.run_card(0, {"on": GREEN_CONGENIAL})  # card 29: Feed The Bunny 5/4
    put(g, WATER_5_CARD, "water", 1)
    put(g, CABBAGE_5, "cabbage", 1)
    put(g, WATER_1 + 1, "discard")
    effects = g.feed(1, GREEN_CONGENIAL, cabbage=[CABBAGE_5], water=[WATER_5_CARD])
    change = [e for e in effects if e.kind == "paid_out" and e.data["kind"] == "water"]
    assert change and change[0].data["units"] == 1 and g.state.seats[1].water == [WATER_1 + 1]


WATER_5_CARD = 2010


@forbid("KBQ-CHANGE-1")
def _() -> None:
    g = _feeding_table()
    put(g, CABBAGE_5, "cabbage", 1)
    refuses(g, "KBQ-CHANGE-1", Feed, 1, bunny=GREEN_CONGENIAL, cabbage=[CABBAGE_5, CABBAGE_1],
            water=[WATER_1])


@allow("KBQ-CHANGE-2")
def _() -> None:
    g = table(3, money={0: [DOLLA_5]})
    effects = g.buy(0, "cabbage")
    assert find(effects, "iou").data == {"seat": 0, "kind": "money", "amount": 2}
    put(g, DOLLA_1, "hand", 1)
    g.state.seats[1].hand.remove(DOLLA_1)
    out: list = []
    quest_table.to_discard(g.state, [DOLLA_1], out)
    assert find(out, "iou_paid").data["cards"] == [DOLLA_1] and g.state.ious[0].amount == 1


@forbid("KBQ-CHANGE-2")
def _() -> None:
    g = table(3, money={0: [DOLLA_5]})
    g.buy(0, "cabbage")
    out: list = []
    take = DOLLA_10
    put(g, take, "money", 1)
    g.state.seats[1].money.remove(take)
    quest_table.to_discard(g.state, [take], out)
    assert "iou_paid" not in kinds(out) and g.state.ious[0].amount == 2  # a 10 cannot pay 2


# -- modifiers -------------------------------------------------------------------------------------


@allow("KBQ-MOD-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              hands={0: [CLOVER_2], 1: [CLOVER_3]})
    g.run_card(0, {"on": GREEN_CONGENIAL})  # under an opponent's bunny: allowed
    g.run_card(1, {"on": GREEN_CONGENIAL})
    assert g.state.circle.space(GREEN_CONGENIAL).under == [CLOVER_2, CLOVER_3]


@forbid("KBQ-MOD-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [CLOVER_2]})
    g.flip(0)
    refuses(g, "KBQ-MOD-1", Play, 0, card=CLOVER_2)


@allow("KBQ-MOD-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    out: list = []
    leaving.change_owner(g.state, GREEN_CONGENIAL, 0, "KBQ-TRADE-2", out)
    assert g.state.circle.space(GREEN_CONGENIAL).under == [HALO]  # it goes with its bunny


@forbid("KBQ-MOD-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    refuses(g, "KBQ-MOD-2", Play, 0, card=CLOVER_2, on=BLUE_CONGENIAL)


@allow("KBQ-MOD-3")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)], hands={0: [HALO], 1: [CLOVER_2]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    assert g.state.circle.space(GREEN_CONGENIAL).under == [HALO]


@forbid("KBQ-MOD-3")
def _() -> None:
    g = table(3, hands={0: [HALO]})
    g.flip(0)
    refuses(g, "KBQ-MOD-3", Play, 0, card=HALO, on=GREEN_CONGENIAL)
    g.discard(0, HALO)


@allow("KBQ-MOD-4")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(3)
    assert GREEN_CONGENIAL in g.state.discard and CLOVER_2 in g.state.discard


@forbid("KBQ-MOD-4")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(12)  # it lives: the clover stays under it
    assert g.state.circle.space(GREEN_CONGENIAL).under == [CLOVER_2]


@allow("KBQ-MOD-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FLUORINE]})
    put(g, 151, "under", bunny=GREEN_CONGENIAL)  # a Containment Suit does not stop a sword...
    g.flip(0)
    refuses(g, "KBQ-MOD-5", Play, 0, card=FLUORINE, on=GREEN_CONGENIAL)  # ...but stops gas
    put(g, SWORD, "hand", 0)


@forbid("KBQ-MOD-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    g.flip(0)
    refuses(g, "KBQ-MOD-5", Play, 0, card=SWORD, on=GREEN_CONGENIAL)


# -- order of operations ---------------------------------------------------------------------------


@allow("KBQ-ORDER-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_10, DOLLA_5]})
    g.buy(0, "cabbage")
    g.flip(0)
    g.buy(0, "water")
    g.discard(0, g.state.flipped)
    g.buy(0, "water")
    assert len(g.state.seats[0].cabbage) == 1 and len(g.state.seats[0].water) == 2


@forbid("KBQ-ORDER-1")
def _() -> None:
    g = table(3, money={1: [DOLLA_10]})
    refuses(g, "KBQ-ORDER-1", Buy, 1, goods="water")


@allow("KBQ-ORDER-2")
def _() -> None:
    g = table(3)
    put(g, FREE_CABBAGE, "saved", 0)
    put(g, FREE_WATER_CARD, "saved", 0)
    g.play(0, FREE_CABBAGE)
    g.flip(0)
    g.discard(0, g.state.flipped)
    g.play(0, FREE_WATER_CARD)  # at the bottom-card step
    assert len(g.state.seats[0].water) == 2


@forbid("KBQ-ORDER-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    put(g, FREE_CABBAGE, "saved", 0)
    g.flip(0)
    g.play(0, SWORD, on=GREEN_CONGENIAL)  # waits for the roll
    refuses(g, "KBQ-ORDER-2", Play, 0, card=FREE_CABBAGE)


# -- positioning, reshuffling, reviving ------------------------------------------------------------


@allow("KBQ-POS-1")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1)], hands={0: [BLUE_CONGENIAL]})
    g.run_card(0, {"at": 1})
    assert g.state.circle.order == [GREEN_CONGENIAL, BLUE_CONGENIAL, GREEN_GLEEFUL]


@forbid("KBQ-POS-1")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)], hands={0: [BLUE_CONGENIAL]})
    g.flip(0)
    refuses(g, "KBQ-POS-1", Play, 0, card=BLUE_CONGENIAL, at=5)
    refuses(g, "KBQ-POS-1", Play, 0, card=BLUE_CONGENIAL)


@allow("KBQ-POS-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 2)])
    g.trade(0, 1, give=[BLUE_CONGENIAL], get=[GREEN_CONGENIAL])
    assert g.state.circle.order == [BLUE_CONGENIAL, GREEN_CONGENIAL, GREEN_GLEEFUL]
    assert g.state.circle.owner(BLUE_CONGENIAL) == 1


@forbid("KBQ-POS-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)])
    refuses(g, "KBQ-POS-2", Play, 0, card=BLUE_CONGENIAL, at=0)


@allow("KBQ-SHUF-1")
def _() -> None:
    g = table(3)
    for c in list(g.state.draw):
        put(g, c, "discard")
    g.flip(0)
    g.discard(0, g.state.flipped)
    assert RULESET.pending(g.state).chance is not None
    large = [c for c in g.state.discard if c in quest_table.deck(g.state).large]
    g.act(Reshuffle, None, order=sorted(large))
    assert g.state.phase == "bottom" and len(g.state.seats[0].hand) == 6


@forbid("KBQ-SHUF-1")
def _() -> None:
    g = table(3)
    for c in list(g.state.draw):
        put(g, c, "discard")
    g.flip(0)
    g.discard(0, g.state.flipped)
    large = [c for c in g.state.discard if c in quest_table.deck(g.state).large]
    refuses(g, "KBQ-SHUF-1", Reshuffle, None, order=sorted(large)[1:])
    refuses(g, "KBQ-SHUF-1", Reshuffle, None, order=[*sorted(large), CABBAGE_1])


@allow("KBQ-REV-1")
def _() -> None:
    g = table(3, hands={0: [FOUNTAIN]})
    put(g, GREEN_CONGENIAL, "discard")
    g.flip(0)
    g.play(0, FOUNTAIN, number=7)
    g.roll(7, 1, 2, 3, 4)
    g.choose(0, bunnies=[GREEN_CONGENIAL], at=[0])
    assert g.state.circle.order == [GREEN_CONGENIAL] and g.state.circle.owner(GREEN_CONGENIAL) == 0


@forbid("KBQ-REV-1")
def _() -> None:
    g = table(3, hands={0: [FOUNTAIN]})
    put(g, GREEN_CONGENIAL, "discard")
    g.flip(0)
    g.play(0, FOUNTAIN, number=7)
    g.roll(7, 1, 2, 3, 4)
    refuses(g, "KBQ-REV-1", Choose, 0, bunnies=[BLUE_CONGENIAL], at=[0])


# -- roaming red runs ------------------------------------------------------------------------------


def _cyber_table() -> Scenario:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 2),
                         (ORANGE_CONGENIAL, 1)], hands={0: [CYBER]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    return g


@allow("KBQ-ROAM-1")
def _() -> None:
    g = _cyber_table()
    g.roll(10)  # it lives; Cyber moves clockwise to the next bunny
    assert g.state.roamers[0].host == GREEN_GLEEFUL


@forbid("KBQ-ROAM-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 2),
                         (ORANGE_CONGENIAL, 1)], hands={0: [CYBER]})
    put(g, HALO, "under", bunny=GREEN_GLEEFUL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(10)
    assert g.state.roamers[0].host == ORANGE_CONGENIAL  # the haloed bunny is passed over


@allow("KBQ-ROAM-2")
def _() -> None:
    g = _cyber_table()
    g.roll(10)
    finish(g, 0)
    pass_turn(g, 1)
    pass_turn(g, 2)
    effects = pass_turn(g, 0)
    assert "roaming_attack" in kinds(effects)
    assert RULESET.pending(g.state).chance.seat == 2  # type: ignore[union-attr]


@forbid("KBQ-ROAM-2")
def _() -> None:
    g = _cyber_table()
    g.roll(10)
    effects = g.bottom(0)
    # the launch turn's own end brings no second attack, nor do the other players' turns
    assert "roaming_attack" not in kinds(effects)
    assert "roaming_attack" not in kinds(pass_turn(g, 1))
    assert "roaming_attack" not in kinds(pass_turn(g, 2))


@allow("KBQ-ROAM-3")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              hands={0: [EBOLA]})
    put(g, SUIT, "under", bunny=BLUE_CONGENIAL)
    put(g, HALO, "under", bunny=ORANGE_CONGENIAL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    effects = g.roll(12)  # survives; every other bunny is protected: nowhere to go
    assert find(effects, "roaming_gone").data["why"] == "no_viable_bunny"
    assert EBOLA in g.state.discard


@forbid("KBQ-ROAM-3")
def _() -> None:
    g = _cyber_table()
    g.roll(10)
    assert g.state.roamers and CYBER not in g.state.discard


@allow("KBQ-ROAM-4")
def _() -> None:
    g = _cyber_table()
    owed = RULESET.pending(g.state).chance
    assert owed is not None and owed.seat == 1  # the attacked bunny's owner rolls


@forbid("KBQ-ROAM-4")
def _() -> None:
    g = _cyber_table()
    owed = RULESET.pending(g.state).chance
    assert owed is not None and owed.seat != 0  # not the launcher


# -- trading ---------------------------------------------------------------------------------------


@allow("KBQ-TRADE-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_5], 1: [DOLLA_2]})
    put(g, CABBAGE_5, "cabbage", 1)
    g.trade(0, 1, give=[DOLLA_5], get=[CABBAGE_5])
    assert g.state.seats[0].cabbage == [CABBAGE_5] and DOLLA_5 in g.state.seats[1].money
    # trading is symmetric: the partner may record it too, in the active player's turn
    g.trade(1, 0, give=[DOLLA_2], get=[CABBAGE_5])
    assert g.state.seats[1].cabbage == [CABBAGE_5] and DOLLA_2 in g.state.seats[0].money


@forbid("KBQ-TRADE-1")
def _() -> None:
    g = table(3, money={1: [DOLLA_5], 2: [DOLLA_2]})
    refuses(g, "KBQ-TRADE-1", Trade, 1, partner=2, give=[DOLLA_5], get=[DOLLA_2])
    refuses(g, "KBQ-TRADE-1", Trade, 2, partner=1, give=[DOLLA_2], get=[DOLLA_5])


@allow("KBQ-TRADE-2")
def _() -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)], money={0: [DOLLA_5, DOLLA_10]})
    put(g, carrot(1), "carrots", 1)
    put(g, FREE_CABBAGE, "saved", 1)
    g.trade(0, 1, give=[DOLLA_5, DOLLA_10], get=[carrot(1), FREE_CABBAGE, GREEN_CONGENIAL])
    st = g.state
    assert st.seats[0].carrots == [carrot(1)] and st.seats[0].saved == [FREE_CABBAGE]
    assert st.circle.owner(GREEN_CONGENIAL) == 0


@forbid("KBQ-TRADE-2")
def _() -> None:
    g = table(3)
    refuses(g, "KBQ-TRADE-2", Trade, 0, partner=1, give=[DOLLA_10], get=[])


@allow("KBQ-TRADE-3")
def _() -> None:
    g = table(3)
    mine, theirs = g.state.seats[0].hand[0], g.state.seats[1].hand[0]
    g.trade(0, 1, give_hand=[mine], get_hand=[theirs])
    assert theirs in g.state.seats[0].hand and len(g.state.seats[0].hand) == 5


@forbid("KBQ-TRADE-3")
def _() -> None:
    g = table(3)
    refuses(g, "KBQ-TRADE-3", Trade, 0, partner=1, give_hand=g.state.seats[0].hand[:2],
            get_hand=g.state.seats[1].hand[:1])


@allow("KBQ-TRADE-4")
def _() -> None:
    g = table(3, money={0: [DOLLA_2]})
    put(g, FREE_CABBAGE, "saved", 1)
    g.trade(0, 1, give=[DOLLA_2], get=[FREE_CABBAGE])  # saved cards trade; run cards do not


@forbid("KBQ-TRADE-4")
def _() -> None:
    g = table(3, money={0: [DOLLA_2]})
    refuses(g, "KBQ-TRADE-4", Trade, 0, partner=1, give=[DOLLA_2],
            get=[g.state.seats[1].run.top])


@allow("KBQ-TRADE-5")
def _() -> None:
    g = table(3, money={0: [DOLLA_2, DOLLA_5]})
    put(g, CABBAGE_5, "cabbage", 1)
    g.trade(0, 1, give=[DOLLA_2], get=[CABBAGE_5])
    g.trade(0, 1, give=[CABBAGE_5], get=[DOLLA_2])  # supplies may change hands again


@forbid("KBQ-TRADE-5")
def _() -> None:
    g = table(3, money={0: [DOLLA_2, DOLLA_5]})
    put(g, carrot(1), "carrots", 1)
    g.trade(0, 1, give=[DOLLA_2], get=[carrot(1)])
    refuses(g, "KBQ-TRADE-5", Trade, 0, partner=1, give=[carrot(1)], get=[DOLLA_2])


# -- cabbage and water cards, choose a carrot, the end ---------------------------------------------


@allow("KBQ-SMALL-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_5]}, cabbage=[CABBAGE_10, *range(1001, 1010), 1010, 1011])
    effects = g.buy(0, "cabbage")
    assert g.state.seats[0].cabbage == [CABBAGE_10] and find(effects, "bought").data["price"] == 3


@forbid("KBQ-SMALL-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_5]})
    effects = g.buy(0, "cabbage")  # the top card is worth 1 unit: still a 3-Dolla card
    assert g.state.seats[0].cabbage == [CABBAGE_1] and find(effects, "bought").data["price"] == 3


@allow("KBQ-CARROT-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [CHOOSE_2]})
    g.state.market.close()
    g.run_card(0, {"carrots": [carrot(5), carrot(9)]})
    assert sorted(g.state.seats[0].carrots) == [carrot(5), carrot(9)]


@forbid("KBQ-CARROT-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [CHOOSE_A_CARROT]})
    put(g, carrot(5), "carrots", 1)
    g.flip(0)
    refuses(g, "KBQ-CARROT-1", Play, 0, card=CHOOSE_A_CARROT, carrots=[carrot(5)])
    refuses(g, "KBQ-CARROT-1", Play, 0, card=CHOOSE_A_CARROT, carrots=[carrot(1), carrot(2)])


def _last_carrot() -> Scenario:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], money={0: [DOLLA_10]},
              magic=[*range(3001, 3012), 3012])
    for n in range(1, 12):
        put(g, carrot(n), "carrots", 1 if n != 12 else 0)
    return g


@allow("KBQ-END-1")
def _() -> None:
    g = _last_carrot()
    draw = len(g.state.draw)
    effects = g.buy(0, "carrot", carrot(12))
    assert g.state.over and "game_over" in kinds(effects) and len(g.state.draw) == draw


@forbid("KBQ-END-1")
def _() -> None:
    g = _last_carrot()
    put(g, carrot(11), "draw")
    g.state.market.carrots.append(carrot(11))
    g.state.draw.remove(carrot(11))
    g.buy(0, "carrot", carrot(12))
    assert not g.state.over


@allow("KBQ-END-2")
def _() -> None:
    g = _last_carrot()
    effects = g.buy(0, "carrot", carrot(12))
    assert find(effects, "magic_carrot").data == {"carrot": "12", "card": 3012}
    assert RULESET.view(g.state, 1)["magic_carrot"] == "12"


@forbid("KBQ-END-2")
def _() -> None:
    g = _last_carrot()
    view = RULESET.view(g.state, 0)
    assert view["magic_carrot"] is None and "magic_order" not in view["piles"]
    assert RULESET.view(g.state, "referee")["piles"]["magic_order"][-1] == 3012


@allow("KBQ-END-3")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              money={0: [DOLLA_10, 161], 1: [DOLLA_5]}, magic=[*range(3002, 3013), 3001])
    for n in range(2, 12):
        put(g, carrot(n), "carrots", 1)
    put(g, carrot(1), "carrots", 2)  # the Magic Carrot, held by a player with no bunny
    effects = g.buy(0, "carrot", carrot(12))
    passed = [e.data for e in effects if e.kind == "carrot_passed"]
    assert passed == [{"carrot": carrot(1), "from": 2, "to": 0}] and g.state.winners == [0]


@forbid("KBQ-END-3")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], money={0: [DOLLA_10], 1: [DOLLA_5]},
              magic=[*range(3002, 3013), 3001])
    for n in range(2, 12):
        put(g, carrot(n), "carrots", 0)
    put(g, carrot(1), "carrots", 2)
    g.state.abducted = [GREEN_CONGENIAL, 2]  # seat 2's bunny is with the aliens: alive
    g.state.draw.remove(GREEN_CONGENIAL)
    effects = g.buy(0, "carrot", carrot(12))
    assert "carrot_passed" not in kinds(effects) and g.state.winners == [2]


@allow("KBQ-END-4")
def _() -> None:
    g = _last_carrot()
    g.buy(0, "carrot", carrot(12))
    outcome = RULESET.outcome(g.state)
    assert outcome is not None and outcome.winners == [0] and outcome.rule == "KBQ-END-4"


@forbid("KBQ-END-4")
def _() -> None:
    g = _last_carrot()
    g.buy(0, "carrot", carrot(12))
    refuses(g, "KBQ-END-4", Flip, 1)
    refuses(g, "KBQ-END-4", Roll, None, faces=[3])


# -- feed the bunny --------------------------------------------------------------------------------


@allow("KBQ-FEED-1")
def _() -> None:
    g = _feeding_table()
    [demand] = g.state.demands
    assert (demand.bunny, demand.owner, demand.cabbage, demand.water, demand.due_turn) == (
        GREEN_CONGENIAL, 1, 1, 1, 1)


@forbid("KBQ-FEED-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [FEED_1_1]})
    g.flip(0)
    refuses(g, "KBQ-FEED-1", Play, 0, card=FEED_1_1, on=BLUE_CONGENIAL)


@allow("KBQ-FEED-2")
def _() -> None:
    g = _feeding_table()
    g.state.seats[1].cabbage.clear()
    quest_table.to_discard(g.state, [CABBAGE_1])
    put(g, DOLLA_5, "money", 1)
    g.buy(1, "cabbage")
    g.feed(1, GREEN_CONGENIAL)
    assert g.state.demands == []


@forbid("KBQ-FEED-2")
def _() -> None:
    g = _feeding_table()
    pass_turn(g, 1)
    refuses(g, "KBQ-FEED-2", Feed, 1, bunny=GREEN_CONGENIAL)


@allow("KBQ-FEED-3")
def _() -> None:
    g = _feeding_table()
    effects = pass_turn(g, 1)
    died = find(effects, "bunny_died")
    assert died.data["cause"] == "hunger" and died.rule == "KBQ-FEED-3"


@forbid("KBQ-FEED-3")
def _() -> None:
    g = _feeding_table()
    g.feed(1, GREEN_CONGENIAL)
    effects = pass_turn(g, 1)
    assert "bunny_died" not in kinds(effects) and GREEN_CONGENIAL in g.state.circle


@allow("KBQ-FEED-4")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FEED_1_1],
                                                                         1: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.flip(1)
    g.play(1, SWORD, on=BLUE_CONGENIAL)  # the hungry bunny's owner still attacks


@forbid("KBQ-FEED-4")
def _() -> None:
    # it is the Halo, not the feed, that stops an Aggressive card
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FEED_1_1],
                                                                         1: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    g.flip(1)
    refuses(g, "KBQ-AGG-2", Play, 1, card=SWORD, on=BLUE_CONGENIAL)


@allow("KBQ-FEED-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              hands={0: [FEED_1_1, FEED_3_4]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    pass_turn(g, 1)  # not due yet? it is: seat 1's next turn was this one
    assert GREEN_CONGENIAL not in g.state.circle


@forbid("KBQ-FEED-5")
def _() -> None:
    g = table(2, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              hands={0: [FEED_1_1, FEED_3_4]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    put(g, CABBAGE_1, "cabbage", 1)
    put(g, WATER_1, "water", 1)
    g.feed(1, GREEN_CONGENIAL, demand=FEED_1_1)
    pass_turn(g, 1)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    assert len(g.state.demands) == 1 and g.state.demands[0].card == FEED_3_4


@allow("KBQ-FEED-6")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    put(g, CASINO, "hand", 0)
    put(g, CABBAGE_1, "cabbage", 1)
    put(g, WATER_1, "water", 1)
    g.play(0, CASINO, on=GREEN_CONGENIAL)
    g.roll(3, 3, 5, 7, 9)  # a pair: feed 1 and 1 at once
    g.feed(1, GREEN_CONGENIAL)
    assert GREEN_CONGENIAL in g.state.circle and g.state.seats[1].cabbage == []


@forbid("KBQ-FEED-6")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], money={1: [DOLLA_10]})
    put(g, CASINO, "hand", 0)
    g.play(0, CASINO, on=GREEN_CONGENIAL)
    g.roll(3, 3, 5, 7, 9)
    refuses(g, "KBQ-FEED-6", Buy, 1, goods="cabbage")


# -- kaballa's market ------------------------------------------------------------------------------


@allow("KBQ-MKT-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_10]})
    g.buy(0, "carrot", carrot(7))
    assert g.state.seats[0].carrots == [carrot(7)] and g.state.seats[0].money == []


@forbid("KBQ-MKT-1")
def _() -> None:
    g = table(3, money={0: [DOLLA_5, DOLLA_2]})
    refuses(g, "KBQ-MKT-1", Buy, 0, goods="carrot", carrot=carrot(7))


@allow("KBQ-MKT-2")
def _() -> None:
    m = table(3).state.market
    assert m.open and (m.prices.cabbage, m.prices.water, m.prices.carrot) == (3, 3, 10)
    assert len(m.carrots) == 12


@forbid("KBQ-MKT-2")
def _() -> None:
    g = table(3, hands={0: [MARKET_HIGH]})
    g.run_card(0)
    assert g.state.market.prices.water == 5  # the starter prices hold only until a price card


@allow("KBQ-MKT-3")
def _() -> None:
    g = table(3, hands={0: [MARKET_HIGH], 1: [139]})
    g.state.market.close()
    g.run_card(0)
    assert g.state.market.open and g.state.market.prices.cabbage == 4
    g.run_card(1)  # on an open market too
    assert g.state.market.prices.water == 1


@forbid("KBQ-MKT-3")
def _() -> None:
    g = table(3, hands={0: [MARKET_CLOSED]})
    g.run_card(0)
    assert not g.state.market.open and g.state.market.prices.cabbage == 3


@allow("KBQ-MKT-4")
def _() -> None:
    g = table(3, hands={0: [MARKET_CLOSED, FREE_CABBAGE]})
    g.run_card(0)
    pass_turn(g, 1)
    pass_turn(g, 2)
    g.flip(0)
    g.save(0, FREE_CABBAGE)  # it may wait, saved, for the market to open
    assert FREE_CABBAGE in g.state.seats[0].saved


@forbid("KBQ-MKT-4")
def _() -> None:
    g = table(3, money={0: [DOLLA_10]})
    put(g, FREE_CABBAGE, "saved", 0)
    g.state.market.close()
    refuses(g, "KBQ-MKT-4", Buy, 0, goods="water")
    refuses(g, "KBQ-MKT-4", Play, 0, card=FREE_CABBAGE)


@allow("KBQ-MKT-5")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [THIEF]})
    g.state.market.close()
    g.run_card(0)
    effects = g.roll(4)
    assert find(effects, "carrot_taken").rule == "KBQ-MKT-5"
    assert g.state.seats[0].carrots == [carrot(4)]


@forbid("KBQ-MKT-5")
def _() -> None:
    # a Bakery's carrot prize is not one of those cards: nothing from a closed market
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    put(g, BAKERY, "hand", 0)
    g.state.market.close()
    g.play(0, BAKERY, on=GREEN_CONGENIAL)
    effects = g.roll(11)
    assert "closed_market_nothing" in kinds(effects) and g.state.seats[0].carrots == []


# -- lucky clovers, weapons ------------------------------------------------------------------------


@allow("KBQ-CLOVER-1")
def _() -> None:
    # the rulebook's example: Fluorine Gas (9) against a bunny with a Lucky Clover Double
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [FLUORINE]})
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    assert g.state.stack[-1].hits[0].level == 7  # type: ignore[union-attr]
    effects = g.roll(8)
    assert find(effects, "attack_roll").data["lives"] and GREEN_CONGENIAL in g.state.circle


@forbid("KBQ-CLOVER-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [CYBER]})
    put(g, CLOVER_3, "under", bunny=GREEN_CONGENIAL)
    g.run_card(0, {"on": GREEN_CONGENIAL})
    assert g.state.stack[-1].hits[0].level == 9  # type: ignore[union-attr]  # not a weapon


@allow("KBQ-WPN-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    owed = RULESET.pending(g.state).chance
    assert owed is not None and owed.kind == "roll" and owed.seat == 1


@forbid("KBQ-WPN-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.flip(0)
    refuses(g, "KBQ-WPN-1", Play, 0, card=SWORD, on=BLUE_CONGENIAL)


@allow("KBQ-WPN-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    effects = g.roll(8)
    assert find(effects, "attack_roll").data["lives"] and GREEN_CONGENIAL in g.state.circle


@forbid("KBQ-WPN-2")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    effects = g.roll(7)  # not higher than 7: it dies
    assert find(effects, "bunny_died").data["cause"] == "weapon"


# -- set-up, draws, dice, bids (rulings) -----------------------------------------------------------


@allow("KBQ-SET-1")
def _() -> None:
    g = Scenario(4, lay=False)
    assert g.state.phase == "runs" and all(len(s.hand) == 7 for s in g.state.seats)


@forbid("KBQ-SET-1")
def _() -> None:
    g = Scenario(3, lay=False)
    setup = g.events[0]
    assert isinstance(setup, Setup)
    refuses(g, "KBQ-SET-1", Setup, None, draw=setup.draw, cabbage=setup.cabbage,
            water=setup.water, carrots=setup.carrots, first=0)
    fresh = RULESET.setup(g.header)
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(fresh, Setup(seq=1, actor=None, draw=setup.draw[1:], cabbage=setup.cabbage,
                                   water=setup.water, carrots=setup.carrots, first=0))
    assert err.value.rule == "KBQ-SET-1"


@allow("KBQ-SET-2")
def _() -> None:
    g = Scenario(3, lay=False, money={1: [DOLLA_5]})
    assert g.state.seats[1].money == [DOLLA_5] and len(g.state.seats[1].hand) == 7
    hand = g.state.seats[0].hand
    g.act(Runs, 0, top=hand[2], bottom=hand[3])
    assert len(g.state.seats[0].hand) == 5


@forbid("KBQ-SET-2")
def _() -> None:
    g = Scenario(3, lay=False)
    refuses(g, "KBQ-SET-2", Runs, 0, top=g.state.seats[1].hand[0], bottom=g.state.seats[0].hand[0])


@allow("KBQ-SET-3")
def _() -> None:
    assert sorted(table(3).state.market.carrots) == [carrot(n) for n in range(1, 13)]


@forbid("KBQ-SET-3")
def _() -> None:
    import random

    state = RULESET.setup(Scenario(2, lay=False).header)
    state.opts = msgspec.structs.replace(state.opts, starting_carrots=2)
    setup = RULESET.chance(state, random.Random(5))
    assert setup is not None
    RULESET.apply(state, setup)
    assert len(state.market.carrots) == 8  # the gifts left the market


@allow("KBQ-DRAW-1")
def _() -> None:
    g = table(3, draws=[DOLLA_5, SWORD])
    g.flip(0)
    effects = g.discard(0, g.state.flipped)
    assert "dolla_drawn" in kinds(effects) and g.state.seats[0].money == [DOLLA_5]
    assert SWORD in g.state.seats[0].hand


@forbid("KBQ-DRAW-1")
def _() -> None:
    g = table(3, draws=[DOLLA_5, SWORD])
    pass_turn(g, 0)
    assert DOLLA_5 not in g.state.seats[0].hand and len(g.state.seats[0].hand) == 5


@allow("KBQ-DICE-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(12)


@forbid("KBQ-DICE-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [SWORD]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    refuses(g, "KBQ-DICE-1", Roll, None, faces=[13])
    refuses(g, "KBQ-DICE-1", Roll, None, faces=[3, 4])
    refuses(g, "KBQ-DICE-1", Roll, 1, faces=[3])


def _defector() -> Scenario:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)])
    put(g, 55, "top", 0)
    g.flip(0)
    g.play(0, 55, on=GREEN_CONGENIAL)
    return g


@allow("KBQ-DICE-2")
def _() -> None:
    g = _defector()
    g.roll(2, 9)          # seat 0, the card's player, re-rolls: 9 stands
    g.roll(9)
    g.roll(4)             # seats 0 and 1 tie at 9: they roll again
    assert g.state.stack[-1].off.contenders == [0, 1]  # type: ignore[union-attr]
    g.roll(5)
    g.roll(3)
    assert g.state.circle.owner(GREEN_CONGENIAL) == 0


@forbid("KBQ-DICE-2")
def _() -> None:
    g = _defector()
    g.roll(9)
    refuses(g, "KBQ-DICE-2", Roll, None, faces=[3, 11])  # seat 1 has no re-roll


@allow("KBQ-BID-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              money={0: [DOLLA_5], 1: [DOLLA_10], 2: [DOLLA_2]}, hands={0: [BLOCK_BID]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.bid(0, 3)
    g.bid(1, None)
    g.bid(2, None)
    assert g.state.circle.owner(GREEN_CONGENIAL) == 0
    assert g.state.seats[0].money == [] and g.state.ious[0].amount == 2  # no change in the bank


@forbid("KBQ-BID-1")
def _() -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              money={0: [DOLLA_5], 1: [DOLLA_10]}, hands={0: [BLOCK_BID]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.bid(0, 3)
    refuses(g, "KBQ-BID-1", Bid, 1, amount=3)
    refuses(g, "KBQ-BID-1", Bid, 1, amount=11)


@allow("KBQ-CARD-CUSTOM")
def _() -> None:
    from tests.games.killer_bunnies_quest.test_cards import house_game

    g = house_game()
    g.play(0, 902, carrots=[carrot(2)])
    assert g.state.seats[0].carrots == [carrot(2)]


@forbid("KBQ-CARD-CUSTOM")
def _() -> None:
    from tests.games.killer_bunnies_quest.test_cards import house_game

    g = house_game()
    g.state.market.close()
    refuses(g, "KBQ-MKT-4", Play, 0, card=902, carrots=[carrot(2)])


# -- the cases, run --------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", sorted(ALLOW))
def test_allows(rule: str) -> None:
    ALLOW[rule]()


@pytest.mark.parametrize("rule", sorted(FORBID))
def test_forbids(rule: str) -> None:
    FORBID[rule]()


def test_every_mechanic_rule_has_both_cases() -> None:
    rules = {r.id for r in MECHANICS}
    assert rules - set(ALLOW) == set(), "rules with no allowing case"
    assert rules - set(FORBID) == set(), "rules with no forbidding case"
    assert set(ALLOW) | set(FORBID) <= set(RULES), "cases for rules that are not in the rulebook"


def test_every_rule_id_is_cited_in_the_code() -> None:
    from pathlib import Path

    package = Path(__file__).resolve().parents[3] / "engine" / "killer_bunnies_quest"
    code = "".join(p.read_text() for p in package.glob("*.py") if p.name != "rulebook.py")
    missing = [r.id for r in MECHANICS if r.id not in code]
    assert missing == []


def test_a_refused_event_leaves_the_state_and_the_agenda_as_they_were() -> None:
    g = table(3)
    before = snapshot(g.state)
    owed = RULESET.pending(g.state)
    for kind, fields in ((Flip, {}), (Buy, {"goods": "carrot", "carrot": carrot(1)}),
                         (EndTurn, {}), (Stake, {"bunnies": [1]})):
        with pytest.raises(RuleViolation):
            g.act(kind, 1, **fields)
    assert snapshot(g.state) == before and RULESET.pending(g.state) == owed
    assert waiting.holding(g.state) is False
