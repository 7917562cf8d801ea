"""Every card of the Blue Starter box, applied by the engine: a case where it works and one
where it is refused or has no effect (a closed market, no bunny, the Halo, the wrong
moment). The last test enumerates the catalogue and fails for any card without both.
A user's own deck file (a booster, a house card) is added to the library and played."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

from engine.killer_bunnies_quest import RULESET, catalogue
from engine.killer_bunnies_quest import table as quest_table
from engine.killer_bunnies_quest.catalogue import deck_for
from engine.killer_bunnies_quest.events import Bid, Choose, Discard, Feed, Flip, Play, Roll, Save, Stake
from engine.killer_bunnies_quest.options import QuestOptions
from engine.killer_bunnies_quest.rulebook import BOX_CARDS
from engine.rules import WarrenError
from engine.simulate import simulate_one
from tests.games.killer_bunnies_quest.helpers import (
    ASTEROID,
    BAD_KARMA,
    BAKER_STREET,
    BAKERY,
    BLACK_CAT,
    BLACK_HOLE,
    BLOCK_BID,
    BLUE_CONGENIAL,
    BLUE_GLEEFUL,
    BUG_OFF,
    CABBAGE_1,
    CABBAGE_2,
    CABBAGE_5,
    CASINO,
    CLOVER_1,
    CLOVER_2,
    COUPON,
    CYBER,
    DANISH,
    DEFECTOR,
    DOLLA_1,
    DOLLA_2,
    DOLLA_5,
    DOLLA_10,
    DOUBLE_NO_TROUBLE,
    DROUGHT,
    EBOLA,
    EXCHANGE,
    FEED_1_1,
    FEED_3_4,
    FLAME,
    FLUORINE,
    FOUNTAIN,
    FREE_WATER,
    GENEVA,
    GREEN_CONGENIAL,
    GREEN_GLEEFUL,
    GREEN_TIMID,
    HALO,
    LASER,
    MAGGOTS,
    MINILITH,
    NOAHS_FLOOD,
    NUKE,
    ORANGE_CONGENIAL,
    ORANGE_TIMID,
    POKER,
    REUSABLES,
    REVERSAL,
    ROACHES,
    ROCK_BOTTOM,
    ROTATE,
    ROULETTE,
    SEA_WHIZ,
    SPATULA,
    SUIT,
    SUNNY_DAY,
    SURPRISE,
    SWORD,
    THIEF,
    TROJAN,
    WATER_1,
    WATER_5,
    WEILS,
    WHISK,
    YELLOW_CONGENIAL,
    carrot,
    find,
    give,
    kinds,
    pass_turn,
    put,
    refuses,
    table,
)
from tests.scenarios.killer_bunnies_quest import Scenario

WORKS: dict[str, list[Callable[[str], None]]] = {}
REFUSED: dict[str, list[Callable[[str], None]]] = {}
BY_ID = {c.id: c for c in BOX_CARDS}


def _register(table_: dict[str, list[Callable[[str], None]]], ids: tuple[str, ...]) -> Callable[
        [Callable[[str], None]], Callable[[str], None]]:
    def register(case: Callable[[str], None]) -> Callable[[str], None]:
        for card_id in ids:
            assert card_id in BY_ID, card_id
            table_.setdefault(card_id, []).append(case)
        return case
    return register


def works(*ids: str) -> Callable[[Callable[[str], None]], Callable[[str], None]]:
    return _register(WORKS, ids)


def refused(*ids: str) -> Callable[[Callable[[str], None]], Callable[[str], None]]:
    return _register(REFUSED, ids)


def num(card_id: str) -> int:
    return BY_ID[card_id].numbers[0]


def ids_where(test: Callable[[object], bool]) -> tuple[str, ...]:
    return tuple(c.id for c in BOX_CARDS if test(c))


PLAIN_BUNNIES = ids_where(lambda c: c.bunny is not None and not c.bunny.wild)  # type: ignore[attr-defined]
FREE_AGENTS = ids_where(lambda c: c.bunny is not None and c.bunny.wild)  # type: ignore[attr-defined]
CHOOSERS = ids_where(lambda c: "choose-a-carrot" in c.tags)  # type: ignore[attr-defined]
FEEDS = ids_where(lambda c: c.feed is not None)  # type: ignore[attr-defined]
PLAIN_WEAPONS = ids_where(lambda c: c.weapon is not None and c.effects == (
    __import__("engine.killer.catalogue.effects", fromlist=["x"]).Attack(
        level=c.weapon.level, die=c.weapon.die),))  # type: ignore[attr-defined]
MISFORTUNES = ids_where(lambda c: "terrible-misfortune" in c.tags)  # type: ignore[attr-defined]
DOLLA = ids_where(lambda c: c.type == "money")  # type: ignore[attr-defined]
CARROTS = ids_where(lambda c: c.type == "carrot")  # type: ignore[attr-defined]
MAGIC = ids_where(lambda c: c.type == "magic_carrot")  # type: ignore[attr-defined]
CABBAGES = ids_where(lambda c: c.type == "cabbage")  # type: ignore[attr-defined]
WATERS = ids_where(lambda c: c.type == "water")  # type: ignore[attr-defined]
CLOSERS = ids_where(lambda c: c.id.startswith("kaballas-market-closed"))
PRICE_CARDS = ("kaballas-market-4-5", "kaballas-market-2-1")
CLOVERS = ids_where(lambda c: "clover" in c.tags)  # type: ignore[attr-defined]
AREAS = ("area-51", "area-51-yellow")


def two_bunnies(**kw: object) -> Scenario:
    """Seat 0 and seat 1 each have a bunny in the circle; seat 0 to play."""
    return table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], **kw)  # type: ignore[arg-type]


def flipped(g: Scenario, card: int, seat: int = 0) -> None:
    """``card`` is seat's top run card, flipped."""
    put(g, card, "top", seat)
    g.flip(seat)


# -- bunnies ---------------------------------------------------------------------------------------


@works(*PLAIN_BUNNIES, *FREE_AGENTS)
def _(card_id: str) -> None:
    other = ORANGE_TIMID if num(card_id) != ORANGE_TIMID else YELLOW_CONGENIAL
    g = table(3, circle=[(other, 1)])
    flipped(g, num(card_id))
    effects = g.play(0, num(card_id), at=0)
    assert find(effects, "bunny_entered").data["owner"] == 0
    assert g.state.circle.order == [num(card_id), other]


@refused(*PLAIN_BUNNIES, *FREE_AGENTS)
def _(card_id: str) -> None:
    g = table(3)
    give(g, num(card_id), 0)
    refuses(g, "KBQ-RUN-1", Play, 0, card=num(card_id), at=0)


@works(*FREE_AGENTS)
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (BLUE_GLEEFUL, 0)])
    flipped(g, num(card_id))
    g.play(0, num(card_id), at=2)
    g.bottom(0)
    assert g.state.second  # a triplet with any two that share a colour or a kind


@refused(*FREE_AGENTS)
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_GLEEFUL, 0)])
    flipped(g, num(card_id))
    g.play(0, num(card_id), at=2)
    g.bottom(0)
    assert not g.state.second and g.state.active == 1  # two unlike bunnies: no triplet


# -- carrots ---------------------------------------------------------------------------------------


@works(*CHOOSERS)
def _(card_id: str) -> None:
    g = two_bunnies()
    g.state.market.close()
    card = num(card_id)
    count = BY_ID[card_id].effects[0].count  # type: ignore[union-attr]
    wanted = [carrot(n) for n in range(1, count + 1)]
    flipped(g, card)
    g.play(0, card, carrots=wanted)
    assert sorted(g.state.seats[0].carrots) == wanted


@refused(*CHOOSERS)
def _(card_id: str) -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)])
    g.state.abducted = [BLUE_CONGENIAL, 0]  # his only bunny is with the aliens
    g.state.draw.remove(BLUE_CONGENIAL)
    flipped(g, num(card_id))
    refuses(g, "KBQ-RUN-2", Play, 0, card=num(card_id), carrots=[carrot(1)])


@works(*CARROTS)
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_10]})
    g.buy(0, "carrot", num(card_id))
    assert g.state.seats[0].carrots == [num(card_id)]


@refused(*CARROTS)
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_10]})
    g.state.market.close()
    refuses(g, "KBQ-MKT-4", __import__("engine.killer_bunnies_quest.events", fromlist=["Buy"]).Buy, 0,
            goods="carrot", carrot=num(card_id))


@works(*MAGIC)
def _(card_id: str) -> None:
    card = num(card_id)
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], money={0: [DOLLA_10]},
              magic=[*[c for c in range(3001, 3013) if c != card], card])
    label = BY_ID[card_id].carrot
    owned = next(c for c in range(103, 166) if c in g.state.market.carrots
                 and quest_table.deck(g.state).card(c).carrot == label)
    for c in list(g.state.market.carrots):
        put(g, c, "carrots", 0 if c == owned else 1)
    g.state.market.carrots.append(carrot(12) if owned != carrot(12) else carrot(11))
    g.state.seats[1].carrots.remove(g.state.market.carrots[-1])
    g.buy(0, "carrot", g.state.market.carrots[-1])
    assert g.state.over and g.state.winners == [0] and g.state.magic == label


@refused(*MAGIC)
def _(card_id: str) -> None:
    # a small carrot card that is not the bottom one names no winner
    card = num(card_id)
    others = [c for c in range(3001, 3013) if c != card]
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], money={0: [DOLLA_10]}, magic=[card, *others])
    for c in list(g.state.market.carrots)[:-1]:
        put(g, c, "carrots", 0)
    g.buy(0, "carrot", g.state.market.carrots[-1])
    assert g.state.magic != BY_ID[card_id].carrot


# -- feeding ---------------------------------------------------------------------------------------


@works(*FEEDS)
def _(card_id: str) -> None:
    g = two_bunnies()
    flipped(g, num(card_id))
    g.play(0, num(card_id), on=GREEN_CONGENIAL)
    [demand] = g.state.demands
    feed = BY_ID[card_id].feed
    assert feed is not None and (demand.cabbage, demand.water) == (feed.cabbage, feed.water)
    assert demand.owner == 1 and num(card_id) in g.state.circle.space(GREEN_CONGENIAL).on


@refused(*FEEDS)
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, num(card_id))
    refuses(g, "KBQ-MOD-5", Play, 0, card=num(card_id), on=GREEN_CONGENIAL)


@works(*CABBAGES, *WATERS)
def _(card_id: str) -> None:
    card = num(card_id)
    g = two_bunnies(hands={0: [FEED_1_1]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    kind = BY_ID[card_id].type
    units = BY_ID[card_id].units or 0
    put(g, card, kind, 1)
    other = WATER_1 if kind == "cabbage" else CABBAGE_1
    put(g, other, "water" if kind == "cabbage" else "cabbage", 1)
    effects = g.feed(1, GREEN_CONGENIAL)
    paid = [e for e in effects if e.kind == "paid" and e.data["kind"] == kind]
    assert paid[0].data["cards"] == [card] and g.state.demands == []
    owed = sum(i.amount for i in g.state.ious if i.kind == kind)
    back = sum(e.data["units"] for e in effects if e.kind == "paid_out" and e.data["kind"] == kind)
    assert back + owed == units - 1  # change for a 1-unit demand, from the pile or owed


@refused(*CABBAGES, *WATERS)
def _(card_id: str) -> None:
    card = num(card_id)
    g = two_bunnies(hands={0: [FEED_1_1]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    kind = BY_ID[card_id].type
    put(g, card, kind, 1)
    # a cabbage card cannot pay water, nor water cabbage
    wrong = {"cabbage": [card]} if kind == "water" else {"water": [card]}
    refuses(g, "KBQ-FEED-2", Feed, 1, bunny=GREEN_CONGENIAL, **wrong)


# -- plain weapons ---------------------------------------------------------------------------------


@works(*PLAIN_WEAPONS)
def _(card_id: str) -> None:
    level = BY_ID[card_id].weapon.level  # type: ignore[union-attr]
    g = two_bunnies()
    flipped(g, num(card_id))
    g.play(0, num(card_id), on=GREEN_CONGENIAL)
    effects = g.roll(level)  # not higher: it dies
    assert find(effects, "bunny_died").data == {"bunny": GREEN_CONGENIAL, "owner": 1,
                                                "discarded": [GREEN_CONGENIAL], "cause": "weapon",
                                                "by": 0}


@refused(*PLAIN_WEAPONS)
def _(card_id: str) -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)])
    flipped(g, num(card_id))
    refuses(g, "KBQ-RUN-2", Play, 0, card=num(card_id), on=GREEN_CONGENIAL)


@refused("roaches")
def _(card_id: str) -> None:
    # Bug Off, saved by the target's owner, stops Roaches on another player's turn
    g = two_bunnies()
    put(g, BUG_OFF, "saved", 1)
    flipped(g, ROACHES)
    g.play(0, ROACHES, on=GREEN_CONGENIAL)
    effects = g.play(1, BUG_OFF)
    assert find(effects, "card_stopped").data["card"] == ROACHES
    assert GREEN_CONGENIAL in g.state.circle and ROACHES in g.state.discard


@refused("flame-thrower")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, NOAHS_FLOOD, "saved", 1)
    flipped(g, FLAME)
    g.play(0, FLAME, on=GREEN_CONGENIAL)
    g.play(1, NOAHS_FLOOD)
    assert GREEN_CONGENIAL in g.state.circle and g.state.phase == "bottom"


@refused("fluorine-gas")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SUIT, "under", bunny=GREEN_CONGENIAL)
    flipped(g, FLUORINE)
    refuses(g, "KBQ-MOD-5", Play, 0, card=FLUORINE, on=GREEN_CONGENIAL)


# -- special weapons -------------------------------------------------------------------------------


@works("trojan-bunny")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1),
                         (ORANGE_CONGENIAL, 2)], hands={0: [TROJAN], 1: [SWORD]})
    g.run_card(0, {"on": GREEN_GLEEFUL})
    assert g.state.dormant[0].host == GREEN_GLEEFUL
    g.flip(1)
    g.play(1, SWORD, on=BLUE_CONGENIAL)  # seat 1 launches a weapon: the Trojan goes off first
    hits = {h.bunny for h in g.state.stack[-1].hits}  # type: ignore[union-attr]
    assert hits == {GREEN_GLEEFUL, GREEN_CONGENIAL, ORANGE_CONGENIAL}
    g.roll(3)
    g.roll(12)
    g.roll(12)
    assert GREEN_GLEEFUL not in g.state.circle and TROJAN in g.state.discard
    g.roll(12)  # now the sword's own roll
    assert BLUE_CONGENIAL in g.state.circle


@refused("trojan-bunny")
def _(card_id: str) -> None:
    # its host dies of something else first: the Trojan is discarded unused
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1)],
              hands={0: [TROJAN, SWORD]})
    g.run_card(0, {"on": GREEN_GLEEFUL})
    pass_turn(g, 1)
    pass_turn(g, 2)
    g.run_card(0, {"on": GREEN_GLEEFUL})
    g.roll(1)
    assert g.state.dormant == [] and TROJAN in g.state.discard


@works("ebola-virus")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              hands={0: [EBOLA]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    effects = g.roll(11)  # only a 12 saves it
    assert find(effects, "bunny_died").data["cause"] == "roaming"
    assert g.state.roamers[0].host == BLUE_CONGENIAL  # counter-clockwise, even to its launcher


@refused("ebola-virus")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)], hands={0: [EBOLA]})
    put(g, SUIT, "under", bunny=GREEN_CONGENIAL)
    flipped(g, EBOLA)
    refuses(g, "KBQ-MOD-5", Play, 0, card=EBOLA, on=GREEN_CONGENIAL)


@works("nuclear-warhead")
def _(card_id: str) -> None:
    g = table(3, circle=[(b, 1) for b in (GREEN_CONGENIAL, GREEN_GLEEFUL, GREEN_TIMID,
                                          ORANGE_CONGENIAL, ORANGE_TIMID, YELLOW_CONGENIAL)]
              + [(BLUE_CONGENIAL, 0)], hands={0: [NUKE]})
    put(g, CLOVER_1, "under", bunny=GREEN_TIMID)
    g.run_card(0, {"on": GREEN_TIMID})
    hits = {h.bunny: h.level for h in g.state.stack[-1].hits}  # type: ignore[union-attr]
    assert hits == {GREEN_TIMID: 11, GREEN_GLEEFUL: 12, ORANGE_CONGENIAL: 12, GREEN_CONGENIAL: 12,
                    ORANGE_TIMID: 12}
    g.roll(12)  # the clover's bunny alone may live
    assert GREEN_TIMID in g.state.circle and len(g.state.circle) == 3


@refused("nuclear-warhead")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, NUKE)
    refuses(g, "KBQ-MOD-5", Play, 0, card=NUKE, on=GREEN_CONGENIAL)


@works("sea-whiz-mount")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              hands={0: [SEA_WHIZ]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(11)  # the target needs above 10
    g.roll(9)   # the clockwise neighbour (orange) needs above 9: it dies
    g.roll(10)  # the other neighbour lives
    assert g.state.circle.order == [BLUE_CONGENIAL, GREEN_CONGENIAL]


@refused("sea-whiz-mount")
def _(card_id: str) -> None:
    g = table(3, circle=[(GREEN_CONGENIAL, 1)])
    flipped(g, SEA_WHIZ)
    refuses(g, "KBQ-RUN-2", Play, 0, card=SEA_WHIZ, on=GREEN_CONGENIAL)


@works("miniature-black-hole")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1),
                         (ORANGE_CONGENIAL, 2), (ORANGE_TIMID, 2)], hands={0: [BLACK_HOLE]})
    g.run_card(0, {"on": GREEN_GLEEFUL})
    levels = sorted(h.level for h in g.state.stack[-1].hits)  # type: ignore[union-attr]
    assert levels == [9, 9, 10, 10, 11]  # every bunny rolls, one level less per ring


@refused("miniature-black-hole")
def _(card_id: str) -> None:
    g = two_bunnies()
    flipped(g, BLACK_HOLE)
    refuses(g, "KBQ-WPN-1", Play, 0, card=BLACK_HOLE, on=BLUE_CONGENIAL)


@works("stray-asteroid")
def _(card_id: str) -> None:
    g = table(3, circle=[(b, 1) for b in range(6, 11)] + [(BLUE_CONGENIAL, 0),
                                                           (ORANGE_CONGENIAL, 2),
                                                           (ORANGE_TIMID, 2)],
              hands={0: [ASTEROID]})
    g.run_card(0, {"on": 6})
    assert len(g.state.stack[-1].hits) == 7  # type: ignore[union-attr]


@refused("stray-asteroid")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, ASTEROID)
    refuses(g, "KBQ-MOD-5", Play, 0, card=ASTEROID, on=GREEN_CONGENIAL)


# -- the other Blue cards --------------------------------------------------------------------------


@works(*AREAS)
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1)])
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    flipped(g, num(card_id))
    g.play(0, num(card_id), on=GREEN_CONGENIAL)
    g.bottom(0)  # the next event lets the abduction happen
    assert g.state.abducted == [GREEN_CONGENIAL, 1] and CLOVER_2 in g.state.discard
    assert GREEN_CONGENIAL not in g.state.circle


@refused(*AREAS)
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, num(card_id))
    refuses(g, "KBQ-MOD-5", Play, 0, card=num(card_id), on=GREEN_CONGENIAL)


@works(*AREAS)
def _(card_id: str) -> None:
    # a second abduction sends the first bunny home; its owner places it
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1)])
    g.state.abducted = [ORANGE_CONGENIAL, 2]
    g.state.draw.remove(ORANGE_CONGENIAL)
    flipped(g, num(card_id))
    g.play(0, num(card_id), on=GREEN_CONGENIAL)
    g.choose(2, at=[0])
    assert g.state.circle.order[0] == ORANGE_CONGENIAL and g.state.abducted == [GREEN_CONGENIAL, 1]


@works("bad-karma")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1)],
              hands={0: [BAD_KARMA], 1: [SWORD]})
    g.run_card(0, {"player": 1})
    g.flip(1)
    refuses(g, "KBQ-CARD-BAD-KARMA", Play, 1, card=SWORD, on=BLUE_CONGENIAL)
    refuses(g, "KBQ-CARD-BAD-KARMA", Discard, 1, card=SWORD)
    g.play(1, SWORD, on=GREEN_GLEEFUL)  # on one of his own
    assert BAD_KARMA in g.state.discard


@refused("bad-karma")
def _(card_id: str) -> None:
    # with no bunny of his own the weapon is simply discarded and the Bad Karma stays
    g = table(3, circle=[(BLUE_CONGENIAL, 0)], hands={0: [BAD_KARMA], 1: [SWORD]})
    g.run_card(0, {"player": 1})
    g.flip(1)
    g.discard(1, SWORD)
    assert g.state.seats[1].karma == [BAD_KARMA]


@works("baker-street")
def _(card_id: str) -> None:
    g = two_bunnies(hands={0: [BAKER_STREET]})
    g.run_card(0, {"player": 1})
    assert g.state.active == 2


@refused("baker-street")
def _(card_id: str) -> None:
    g = table(3, hands={0: [BAKER_STREET]})
    flipped(g, BAKER_STREET)
    refuses(g, "KBQ-RUN-2", Play, 0, card=BAKER_STREET, player=1)


@works("black-cat")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    flipped(g, BLACK_CAT)
    g.play(0, BLACK_CAT, on=GREEN_CONGENIAL)
    g.roll(5)  # odd: the clovers go wherever the player likes
    g.choose(0, under=[BLUE_CONGENIAL])
    assert g.state.circle.space(BLUE_CONGENIAL).under == [CLOVER_2]


@refused("black-cat")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, CLOVER_2, "under", bunny=GREEN_CONGENIAL)
    flipped(g, BLACK_CAT)
    g.play(0, BLACK_CAT, on=GREEN_CONGENIAL)
    g.roll(4)  # even: discarded
    assert CLOVER_2 in g.state.discard and g.state.circle.space(GREEN_CONGENIAL).under == []


@refused("black-cat")
def _(card_id: str) -> None:
    g = two_bunnies()
    flipped(g, BLACK_CAT)
    effects = g.play(0, BLACK_CAT, on=GREEN_CONGENIAL)
    assert "no_clovers" in kinds(effects) and RULESET.pending(g.state).chance is None


@works("cyber-bunny")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              hands={0: [CYBER, SWORD], 1: [SWORD - 1]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(10)
    g.bottom(0)
    assert g.state.roamers[0].host == ORANGE_CONGENIAL
    # a weapon aimed at Cyber Bunny itself: its launcher rolls
    g.flip(1)
    g.play(1, SWORD - 1, on=ORANGE_CONGENIAL, roamer=True)
    assert RULESET.pending(g.state).chance.seat == 0  # type: ignore[union-attr]
    g.roll(2)
    assert g.state.roamers == [] and CYBER in g.state.discard


@refused("cyber-bunny")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, CYBER)
    refuses(g, "KBQ-MOD-5", Play, 0, card=CYBER, on=GREEN_CONGENIAL)


@works("defector-detector")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)  # it defects all the same
    flipped(g, DEFECTOR)
    g.play(0, DEFECTOR, on=GREEN_CONGENIAL)
    g.roll(11)
    g.roll(3)
    g.roll(4)
    assert g.state.circle.owner(GREEN_CONGENIAL) == 0


@refused("defector-detector")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SPATULA, "hand", 1)
    flipped(g, DEFECTOR)
    g.play(0, DEFECTOR, on=GREEN_CONGENIAL)
    g.play(1, SPATULA)
    assert g.state.circle.owner(GREEN_CONGENIAL) == 1 and RULESET.pending(g.state).chance is None


@works("drought", "maggots")
def _(card_id: str) -> None:
    kind = "water" if card_id == "drought" else "cabbage"
    g = two_bunnies()
    put(g, WATER_5 if kind == "water" else CABBAGE_5, kind, 1)
    flipped(g, num(card_id))
    g.play(0, num(card_id), player=1)
    g.bottom(0)
    assert getattr(g.state.seats[1], kind) == []


@refused("drought", "maggots")
def _(card_id: str) -> None:
    kind = "water" if card_id == "drought" else "cabbage"
    answer = NOAHS_FLOOD if kind == "water" else BUG_OFF
    g = two_bunnies()
    put(g, WATER_5 if kind == "water" else CABBAGE_5, kind, 1)
    put(g, answer, "saved", 1)
    flipped(g, num(card_id))
    g.play(0, num(card_id), player=1)
    g.play(1, answer)
    g.bottom(0)
    assert len(getattr(g.state.seats[1], kind)) == 1


@works("heavenly-halo")
def _(card_id: str) -> None:
    g = two_bunnies(hands={0: [HALO], 1: [SWORD]})
    g.run_card(0, {"on": BLUE_CONGENIAL})
    g.flip(1)
    refuses(g, "KBQ-MOD-5", Play, 1, card=SWORD, on=BLUE_CONGENIAL)


@refused("heavenly-halo")
def _(card_id: str) -> None:
    # the Halo does not stop a defection
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, DEFECTOR)
    g.play(0, DEFECTOR, on=GREEN_CONGENIAL)
    assert RULESET.pending(g.state).chance is not None


@works(*PRICE_CARDS)
def _(card_id: str) -> None:
    g = table(3)
    g.state.market.close()
    flipped(g, num(card_id))
    g.play(0, num(card_id))
    effect = BY_ID[card_id].effects[0]
    assert g.state.market.open and g.state.market.prices.water == effect.water  # type: ignore[union-attr]


@refused(*PRICE_CARDS)
def _(card_id: str) -> None:
    g = table(3)
    give(g, num(card_id), 0)
    refuses(g, "KBQ-RUN-1", Play, 0, card=num(card_id))


@works(*CLOSERS)
def _(card_id: str) -> None:
    g = table(3)
    flipped(g, num(card_id))
    g.play(0, num(card_id))
    assert not g.state.market.open


@refused(*CLOSERS)
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_10]})
    flipped(g, num(card_id))
    g.play(0, num(card_id))
    refuses(g, "KBQ-MKT-4", __import__("engine.killer_bunnies_quest.events", fromlist=["Buy"]).Buy, 0,
            goods="cabbage")


@works(*CLOVERS)
def _(card_id: str) -> None:
    g = two_bunnies(hands={0: [SWORD], 1: [num(card_id)]})
    pass_turn(g, 0)
    g.run_card(1, {"on": GREEN_CONGENIAL})
    pass_turn(g, 2)
    put(g, SWORD, "top", 0)
    g.flip(0)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    clover = BY_ID[card_id].modifier.clover  # type: ignore[union-attr]
    assert g.state.stack[-1].hits[0].level == 7 - clover  # type: ignore[union-attr]


@refused(*CLOVERS)
def _(card_id: str) -> None:
    g = table(3, hands={0: [num(card_id)]})
    g.flip(0)
    refuses(g, "KBQ-MOD-3", Play, 0, card=num(card_id), on=GREEN_CONGENIAL)


@works("poverty-poker")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1)],
              money={0: [DOLLA_2], 1: [DOLLA_5], 2: [DOLLA_1]})
    put(g, carrot(1), "carrots", 0)
    put(g, carrot(2), "carrots", 1)
    put(g, carrot(3), "carrots", 1)
    flipped(g, POKER)
    g.play(0, POKER, stakes=[2, 1, 0])  # seat 2 cannot cover the carrot: it sits out
    g.stake(1, carrots=[carrot(3)])  # seat 0 holds one carrot only: no choice to make
    g.roll(12)
    g.roll(4)
    assert sorted(g.state.seats[0].carrots) == [carrot(1), carrot(3)]


@refused("poverty-poker")
def _(card_id: str) -> None:
    g = two_bunnies(money={0: [DOLLA_1]})
    flipped(g, POKER)
    refuses(g, "KBQ-CARD-POVERTY-POKER", Play, 0, card=POKER, stakes=[5, 0, 0])


@works("carrot-top-casino")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, DOLLA_5, "discard")
    put(g, DOLLA_2, "discard")
    give(g, CASINO, 0)
    g.play(0, CASINO, on=GREEN_CONGENIAL)  # seat 1's bunny: seat 1 rolls and reaps (R-KBQ-29)
    g.roll(1, 2, 3, 4, 5)  # all different
    g.choose(1, carrots=[carrot(6)])
    assert g.state.seats[1].carrots == [carrot(6)] and quest_table.money_of(g.state, 1) == 7
    assert g.state.seats[0].carrots == [] and quest_table.money_of(g.state, 0) == 0


def test_the_casino_and_the_bakery_reward_the_owner_of_the_bunny() -> None:
    """R-KBQ-29 (docs/card-facts.md, clarification 11): the owner of the bunny the card went on
    rolls and takes the result, good or bad; on one's own bunny that is the card's player,
    and the card's player may not take an opponent's prize."""
    g = two_bunnies()
    put(g, DOLLA_5, "discard")
    put(g, DOLLA_2, "discard")
    give(g, CASINO, 0)
    g.play(0, CASINO, on=BLUE_CONGENIAL)  # his own bunny
    assert g.state.stack[-1].roller == 0  # type: ignore[union-attr]  # the dice wait
    g.roll(1, 2, 3, 4, 5)
    refuses(g, "KBQ-TURN-4", Choose, 1, carrots=[carrot(6)])  # the prize is not Bo's
    g.choose(0, carrots=[carrot(6)])
    assert g.state.seats[0].carrots == [carrot(6)] and quest_table.money_of(g.state, 0) == 7
    g = two_bunnies()
    give(g, BAKERY, 0)
    g.play(0, BAKERY, on=GREEN_CONGENIAL)
    assert g.state.stack[-1].roller == 1  # type: ignore[union-attr]  # Bo rolls for his bunny
    g.roll(8)  # 7-9: a cabbage and a water card, for Bo
    assert (len(g.state.seats[1].cabbage), len(g.state.seats[1].water)) == (1, 1)
    assert g.state.seats[0].cabbage == [] and g.state.seats[0].water == []


@refused("carrot-top-casino")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    give(g, CASINO, 0)
    g.play(0, CASINO, on=GREEN_CONGENIAL)
    effects = g.roll(4, 4, 4, 1, 2)  # three alike, but the Halo protects from harm
    assert "protected" in kinds(effects) and GREEN_CONGENIAL in g.state.circle


@works("free-cabbage", "free-water", "free-cabbage-and-water")
def _(card_id: str) -> None:
    g = table(3)
    give(g, num(card_id), 0)
    g.play(0, num(card_id))
    st = g.state.seats[0]
    assert len(st.cabbage) + len(st.water) == 2


@refused("free-cabbage", "free-water", "free-cabbage-and-water")
def _(card_id: str) -> None:
    g = table(3)
    give(g, num(card_id), 0)
    g.state.market.close()
    refuses(g, "KBQ-MKT-4", Play, 0, card=num(card_id))


@works("geneva-convention")
def _(card_id: str) -> None:
    g = two_bunnies(hands={1: [WHISK, SWORD, LASER, DROUGHT, FREE_WATER, 16, 17]})
    give(g, GENEVA, 0)
    effects = g.play(0, GENEVA, player=1)
    assert sorted(find(effects, "weapons_given_up").data["cards"]) == [LASER]
    assert LASER in g.state.discard and len(g.state.seats[1].hand) == 5


@refused("geneva-convention")
def _(card_id: str) -> None:
    g = table(3)
    give(g, GENEVA, 0)
    refuses(g, "KBQ-RUN-2", Play, 0, card=GENEVA, player=1)


@works("half-price-coupon")
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_5, DOLLA_1]})
    put(g, COUPON, "saved", 0)
    g.play(0, COUPON)
    g.buy(0, "cabbage")  # 3 -> 2 (half of 3, rounded up)
    g.buy(0, "cabbage")  # the two together cost 3
    assert quest_table.money_of(g.state, 0) + sum(i.amount for i in g.state.ious) == 3


@refused("half-price-coupon")
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_5, DOLLA_1]})
    put(g, COUPON, "saved", 0)
    g.play(0, COUPON)
    pass_turn(g, 0)
    pass_turn(g, 1)
    pass_turn(g, 2)
    effects = g.buy(0, "cabbage")  # a new turn: full price again
    assert find(effects, "bought").data["price"] == 3


@works("large-prune-danish")
def _(card_id: str) -> None:
    g = two_bunnies(hands={0: [FEED_3_4]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    give(g, DANISH, 1)
    g.play(1, DANISH, on=GREEN_CONGENIAL)
    assert g.state.demands == [] and FEED_3_4 in g.state.discard


@refused("large-prune-danish")
def _(card_id: str) -> None:
    g = two_bunnies()
    give(g, DANISH, 0)
    refuses(g, "KBQ-CARD-LARGE-PRUNE-DANISH", Play, 0, card=DANISH, on=BLUE_CONGENIAL)


@works("mad-mad-donnelaith-bakery")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (GREEN_GLEEFUL, 1),
                         (ORANGE_CONGENIAL, 2)])
    give(g, BAKERY, 0)
    g.play(0, BAKERY, on=GREEN_CONGENIAL)
    g.roll(1)  # the bunny and its neighbours die
    assert g.state.circle.order == [ORANGE_CONGENIAL]


@refused("mad-mad-donnelaith-bakery")
def _(card_id: str) -> None:
    g = two_bunnies()
    give(g, BAKERY, 0)
    g.state.market.close()
    g.play(0, BAKERY, on=GREEN_CONGENIAL)
    effects = g.roll(8)  # a cabbage and a water card, but the market is closed
    assert "closed_market_nothing" in kinds(effects) and g.state.seats[0].cabbage == []


@works("magic-fountain")
def _(card_id: str) -> None:
    g = table(3)
    put(g, GREEN_CONGENIAL, "discard")
    put(g, ORANGE_TIMID, "discard")
    give(g, FOUNTAIN, 0)
    g.play(0, FOUNTAIN, number=4)
    g.roll(4, 4, 1, 2, 3)
    g.choose(0, bunnies=[GREEN_CONGENIAL, ORANGE_TIMID], at=[0, 0])
    assert g.state.circle.order == [ORANGE_TIMID, GREEN_CONGENIAL]


@refused("magic-fountain")
def _(card_id: str) -> None:
    g = table(3)
    give(g, FOUNTAIN, 0)
    refuses(g, "KBQ-CARD-MAGIC-FOUNTAIN", Play, 0, card=FOUNTAIN, number=13)


@works("supplies-surprise")
def _(card_id: str) -> None:
    g = table(3)
    put(g, DOLLA_10, "discard")
    give(g, SURPRISE, 0)
    g.play(0, SURPRISE)
    g.roll(5, 5, 1, 1, 9)  # green and yellow tie for lowest: a cabbage card and 10 Dolla
    assert len(g.state.seats[0].cabbage) == 1 and quest_table.money_of(g.state, 0) == 10


@refused("supplies-surprise")
def _(card_id: str) -> None:
    g = table(3)
    give(g, SURPRISE, 0)
    g.play(0, SURPRISE)
    effects = g.roll(1, 5, 5, 5, 5)  # violet: a bunny, but none is in the discard pile
    assert "nothing_to_revive" in kinds(effects)


@works("magic-spatula")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SPATULA, "hand", 1)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    effects = g.play(1, SPATULA)
    assert find(effects, "card_stopped").data["card"] == SWORD and GREEN_CONGENIAL in g.state.circle


@refused("magic-spatula")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SPATULA, "hand", 1)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    g.roll(9)  # too late once a die is rolled
    refuses(g, "KBQ-CARD-MAGIC-SPATULA", Play, 1, card=SPATULA)


@works("rooneys-reusables")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)])
    put(g, REUSABLES, "saved", 0)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    g.roll(1)
    g.play(0, REUSABLES, weapon=SWORD, on=ORANGE_CONGENIAL)
    g.roll(2)
    assert g.state.circle.order == [BLUE_CONGENIAL]


@refused("rooneys-reusables")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, REUSABLES, "saved", 0)
    put(g, SWORD, "discard")
    refuses(g, "KBQ-CARD-ROONEYS-REUSABLES", Play, 0, card=REUSABLES, weapon=SWORD,
            on=GREEN_CONGENIAL)


@works("sunny-day")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)],
              hands={0: [EBOLA]})
    g.run_card(0, {"on": GREEN_CONGENIAL})
    g.roll(12)
    g.bottom(0)
    put(g, SUNNY_DAY, "hand", 2)
    g.play(2, SUNNY_DAY)
    assert g.state.roamers == [] and EBOLA in g.state.discard


@refused("sunny-day")
def _(card_id: str) -> None:
    g = table(3)
    put(g, SUNNY_DAY, "hand", 1)
    refuses(g, "KBQ-CARD-SUNNY-DAY", Play, 1, card=SUNNY_DAY)


@works(*MISFORTUNES)
def _(card_id: str) -> None:
    g = two_bunnies(draws=[num(card_id)])
    effects = pass_turn(g, 0)
    assert find(effects, "bunny_died").data["bunny"] == BLUE_CONGENIAL


@refused(*MISFORTUNES)
def _(card_id: str) -> None:
    # drawn at set-up no bunny can be hit: it is discarded and replaced
    g = Scenario(3, money={0: [num(card_id)]})
    assert num(card_id) in g.state.discard and len(g.state.seats[0].hand) == 5


@works(*DOLLA)
def _(card_id: str) -> None:
    g = table(3, draws=[num(card_id), SWORD])
    pass_turn(g, 0)
    assert g.state.seats[0].money == [num(card_id)]


@refused(*DOLLA)
def _(card_id: str) -> None:
    g = table(3)
    put(g, num(card_id), "money", 0)
    refuses(g, "KBQ-TURN-1", Play, 0, card=num(card_id))


@works("kaballas-market")
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_5]})
    assert find(g.buy(0, "water"), "bought").data["price"] == 3


@refused("kaballas-market")
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_2]})
    refuses(g, "KBQ-MKT-1", __import__("engine.killer_bunnies_quest.events", fromlist=["Buy"]).Buy, 0,
            goods="water")


# -- the other Yellow cards ------------------------------------------------------------------------


@works("bunny-block-bid")
def _(card_id: str) -> None:
    g = two_bunnies(money={0: [DOLLA_1], 1: [DOLLA_5], 2: [DOLLA_10]})
    flipped(g, BLOCK_BID)
    g.play(0, BLOCK_BID, on=GREEN_CONGENIAL)
    g.bid(0, 1)
    g.bid(1, 2)
    g.bid(2, 6)
    g.bid(0, None)
    g.bid(1, None)
    assert g.state.circle.owner(GREEN_CONGENIAL) == 2


@refused("bunny-block-bid")
def _(card_id: str) -> None:
    g = two_bunnies(money={0: [DOLLA_1]})
    flipped(g, BLOCK_BID)
    g.play(0, BLOCK_BID, on=GREEN_CONGENIAL)
    refuses(g, "KBQ-BID-1", Bid, 0, amount=2)


@works("carrot-thief")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, carrot(7), "carrots", 1)
    flipped(g, THIEF)
    g.play(0, THIEF)
    g.roll(7)
    assert g.state.seats[0].carrots == [carrot(7)] and g.state.seats[1].carrots == []


@refused("carrot-thief")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, carrot(7), "carrots", 0)
    flipped(g, THIEF)
    g.play(0, THIEF)
    effects = g.roll(7)  # his own carrot: nothing happens
    assert "own_carrot" in kinds(effects)


@works("double-no-trouble")
def _(card_id: str) -> None:
    g = table(3, money={0: [DOLLA_5]})
    put(g, DOLLA_2, "discard")
    flipped(g, DOUBLE_NO_TROUBLE)
    g.play(0, DOUBLE_NO_TROUBLE)
    assert quest_table.money_of(g.state, 0) == 7 and g.state.ious[0].amount == 3


@refused("double-no-trouble")
def _(card_id: str) -> None:
    g = table(3)
    flipped(g, DOUBLE_NO_TROUBLE)
    effects = g.play(0, DOUBLE_NO_TROUBLE)  # no Dolla to double
    assert "paid_out" not in kinds(effects) and g.state.ious == []


@works("rock-bottom")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, CABBAGE_5, "cabbage", 1)
    put(g, CABBAGE_1, "discard")
    put(g, CABBAGE_2, "discard")
    flipped(g, ROCK_BOTTOM)
    g.play(0, ROCK_BOTTOM)  # half of 5 is 2: the 5 changes hands, 3 come back as change
    assert g.state.seats[0].cabbage == [CABBAGE_5]
    assert quest_table.units_of(g.state, g.state.seats[1].cabbage) == 3


@refused("rock-bottom")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, CABBAGE_1, "cabbage", 0)
    put(g, WATER_1, "water", 0)
    flipped(g, ROCK_BOTTOM)
    refuses(g, "KBQ-CARD-ROCK-BOTTOM", Play, 0, card=ROCK_BOTTOM)


@works("russian-roulette")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)])
    put(g, HALO, "under", bunny=ORANGE_CONGENIAL)  # seat 2's only bunny is haloed: it sits out
    flipped(g, ROULETTE)
    g.play(0, ROULETTE)
    g.roll(9)
    g.roll(2)
    assert GREEN_CONGENIAL not in g.state.circle


@refused("russian-roulette")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, HALO, "under", bunny=GREEN_CONGENIAL)
    flipped(g, ROULETTE)
    effects = g.play(0, ROULETTE)  # nobody else can put a bunny up
    assert "too_few_players" in kinds(effects)


@works("weils-freshness-center")
def _(card_id: str) -> None:
    g = two_bunnies(money={1: [DOLLA_2]})
    put(g, carrot(1), "carrots", 1)
    put(g, carrot(2), "carrots", 1)
    flipped(g, WEILS)
    g.play(0, WEILS, player=1)
    g.choose(1, carrots=[carrot(2)])
    assert g.state.seats[1].carrots == [carrot(2)] and carrot(1) in g.state.market.carrots


@refused("weils-freshness-center")
def _(card_id: str) -> None:
    g = two_bunnies()
    flipped(g, WEILS)
    refuses(g, "KBQ-CARD-WEILS-FRESHNESS-CENTER", Play, 0, card=WEILS, player=1)


@works("bug-off", "noahs-flood")
def _(card_id: str) -> None:
    kind = "cabbage" if card_id == "bug-off" else "water"
    attack = MAGGOTS if kind == "cabbage" else DROUGHT
    g = two_bunnies()
    put(g, CABBAGE_1 if kind == "cabbage" else WATER_1, kind, 1)
    put(g, num(card_id), "saved", 1)
    flipped(g, attack)
    g.play(0, attack, player=1)
    g.play(1, num(card_id))
    g.bottom(0)
    assert len(getattr(g.state.seats[1], kind)) == 1


@refused("bug-off", "noahs-flood")
def _(card_id: str) -> None:
    # only for its holder: it cannot save another player's supplies
    kind = "cabbage" if card_id == "bug-off" else "water"
    attack = MAGGOTS if kind == "cabbage" else DROUGHT
    g = two_bunnies()
    put(g, num(card_id), "saved", 2)
    flipped(g, attack)
    g.play(0, attack, player=1)
    refuses(g, "KBQ-SPC-5", Play, 2, card=num(card_id))


@works("minilith")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, MINILITH, "saved", 0)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    hits = {h.bunny: h.level for h in g.state.stack[-1].hits}  # type: ignore[union-attr]
    assert hits == {GREEN_CONGENIAL: 14, BLUE_CONGENIAL: 14}


@refused("minilith")
def _(card_id: str) -> None:
    g = table(3)
    flipped(g, MINILITH)
    refuses(g, "KBQ-CARD-MINILITH", Save, 0, card=MINILITH)


@refused("minilith")
def _(card_id: str) -> None:
    g = two_bunnies(hands={1: [SWORD]})
    put(g, MINILITH, "saved", 0)
    pass_turn(g, 0)
    g.run_card(1, {"on": BLUE_CONGENIAL})
    g.roll(1)
    assert MINILITH in g.state.discard  # its holder has no bunny left


@works("rooneys-weapons-exchange")
def _(card_id: str) -> None:
    g = two_bunnies(hands={1: [WHISK, SWORD - 1, LASER]})
    give(g, SWORD, 0)
    hand = g.state.seats[0].hand
    hand.insert(0, hand.pop())  # keep the sword when the next card comes in
    give(g, EXCHANGE, 0)
    g.play(0, EXCHANGE, player=1)
    g.choose(0, give=SWORD, take=LASER)
    assert LASER in g.state.seats[0].hand and SWORD in g.state.seats[1].hand


@refused("rooneys-weapons-exchange")
def _(card_id: str) -> None:
    g = two_bunnies(hands={0: [DROUGHT, 16, 17, 18, 19, 20, 21]})
    give(g, EXCHANGE, 0)
    refuses(g, "KBQ-CARD-ROONEYS-WEAPONS-EXCHANGE", Play, 0, card=EXCHANGE, player=1)


@works("top-run-rotate")
def _(card_id: str) -> None:
    g = table(3)
    give(g, ROTATE, 0)
    tops = [s.run.top for s in g.state.seats]
    g.play(0, ROTATE)
    assert [s.run.top for s in g.state.seats] == [tops[1], tops[2], tops[0]]


@refused("top-run-rotate")
def _(card_id: str) -> None:
    g = table(3)
    give(g, ROTATE, 1)
    refuses(g, "KBQ-SPC-5", Play, 1, card=ROTATE)


@works("containment-suit")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SUIT, "hand", 1)
    flipped(g, FLUORINE)
    g.play(0, FLUORINE, on=GREEN_CONGENIAL)
    g.play(1, SUIT, on=GREEN_CONGENIAL)  # answered before the roll
    assert RULESET.pending(g.state).chance is None and GREEN_CONGENIAL in g.state.circle


@refused("containment-suit")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, SUIT, "under", bunny=GREEN_CONGENIAL)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)  # a sword is no gas: the suit does nothing
    assert RULESET.pending(g.state).chance is not None


@works("reversal-of-fortune")
def _(card_id: str) -> None:
    g = table(3, circle=[(BLUE_CONGENIAL, 0), (GREEN_CONGENIAL, 1), (ORANGE_CONGENIAL, 2)])
    put(g, REVERSAL, "hand", 1)
    flipped(g, SWORD)
    g.play(0, SWORD, on=GREEN_CONGENIAL)
    g.play(1, REVERSAL, on=ORANGE_CONGENIAL)
    assert RULESET.pending(g.state).chance.seat == 2  # type: ignore[union-attr]


@refused("reversal-of-fortune")
def _(card_id: str) -> None:
    g = two_bunnies()
    put(g, REVERSAL, "hand", 1)
    refuses(g, "KBQ-CARD-REVERSAL-OF-FORTUNE", Play, 1, card=REVERSAL, on=BLUE_CONGENIAL)


# -- a user's own deck file ------------------------------------------------------------------------

HOUSE = """format = 1
[deck]
id = "house"
title = "Our house cards"
numbers = "900-999"

[[card]]
id = "rubber-chicken"
name = "Rubber Chicken"
numbers = "900-901"
type = "run"
pink_box = true
weapon = { level = 3, die = "black-d12", tags = ["silly"] }
text = "A feeble weapon: the bunny lives on anything above 3."

[[card]]
id = "carrot-cake"
name = "Carrot Cake"
numbers = "902"
type = "special"
effects = [{ do = "take_carrot", count = 1, while_closed = false }, { do = "gain_money", amount = 2 }]
text = "A carrot and two Dolla for nothing, while the market is open."
"""

_HOUSE_FOLDER: list[Path] = []


def house_folder() -> Path:
    """A folder with the house deck file, made once per test run and added to the library."""
    import tempfile

    if not _HOUSE_FOLDER:
        folder = Path(tempfile.mkdtemp(prefix="warren-house-"))
        (folder / "house.toml").write_text(HOUSE, encoding="utf-8")
        catalogue.use_deck_folders([folder])
        _HOUSE_FOLDER.append(folder)
    return _HOUSE_FOLDER[0]


def house_game() -> Scenario:
    house_folder()
    g = Scenario(3, options={"extra_decks": ["house"]})
    give(g, 902, 0)
    return g


def test_a_house_deck_is_played_and_its_record_names_its_cards() -> None:
    house_folder()
    game = simulate_one(RULESET, 3, 0, players=3, options={"extra_decks": ["house"]})
    header = game.header
    assert header.options["extra_decks"] == ["house"] and len(header.options["catalogue"]) == 64
    played = {e.card for e in game.events if isinstance(e, Play)}  # type: ignore[attr-defined]
    state = RULESET.setup(header)
    RULESET.fold(state, game.events)
    assert state.over
    assert {900, 901, 902} & (played | set(state.discard) | {c for s in state.seats for c in s.hand})


def test_a_record_whose_cards_changed_is_refused() -> None:
    from engine.rules import WarrenError

    g = table(3)
    header = g.header
    changed = msgspec_replace_options(header, catalogue="0" * 64)
    with pytest.raises(WarrenError, match="deck files changed"):
        RULESET.check_header(changed)


def msgspec_replace_options(header, **options):  # type: ignore[no-untyped-def]
    import msgspec

    return msgspec.structs.replace(header, options={**header.options, **options})


def test_the_2002_printing_plays_its_own_readings() -> None:
    g = Scenario(3, options={"printing": "2002"}, hands={0: [59]},
                 draws=[], first=0)
    assert quest_table.deck(g.state).card(59).id == "lucky-clover-single"
    put(g, BLUE_CONGENIAL, "circle", 0)
    g.run_card(0, {"on": BLUE_CONGENIAL})  # card 59 is a clover in this printing
    assert g.state.circle.space(BLUE_CONGENIAL).under == [59]
    assert deck_for(QuestOptions(printing="2002")).card(62).id == "kaballas-market-4-5"


# -- the catalogue, enumerated ---------------------------------------------------------------------


CASES = [(card_id, "works", i) for card_id, cases in WORKS.items() for i in range(len(cases))] + [
    (card_id, "refused", i) for card_id, cases in REFUSED.items() for i in range(len(cases))]


@pytest.mark.parametrize(("card_id", "way", "i"), CASES, ids=[f"{c}-{w}-{i}" for c, w, i in CASES])
def test_card(card_id: str, way: str, i: int) -> None:
    (WORKS if way == "works" else REFUSED)[card_id][i](card_id)


def test_every_card_of_the_box_works_and_is_refused() -> None:
    box = deck_for(QuestOptions()).catalogue
    old = deck_for(QuestOptions(printing="2002")).catalogue
    ids = set(box.by_id) | set(old.by_id)
    assert ids - set(WORKS) == set(), "cards with no case where they work"
    assert ids - set(REFUSED) == set(), "cards with no case where they are refused"


def test_a_deck_naming_an_unknown_hook_is_refused_at_the_start(tmp_path: Path) -> None:
    (tmp_path / "odd.toml").write_text("""format = 1
[deck]
id = "odd-hook"
title = "A card no primitive fits, and no hook either"
numbers = "990-990"

[[card]]
id = "strange-idol"
name = "Strange Idol"
numbers = "990"
type = "special"
effects = [{ do = "hook", name = "strange_idol" }]
""", encoding="utf-8")
    with catalogue.SHELF.using([tmp_path]), pytest.raises(WarrenError, match=r"strange_idol.*strange-idol"):
        catalogue.deck_for(QuestOptions(extra_decks=["odd-hook"]))


def test_every_hook_is_implemented() -> None:
    from engine.killer_bunnies_quest.cards import HOOKS

    box = deck_for(QuestOptions()).catalogue
    assert HOOKS.missing(box.hooks()) == []


def test_simulated_games_end_with_a_magic_carrot() -> None:
    for i in range(6):
        game = simulate_one(RULESET, 11, i, players=2 + i)
        state = RULESET.setup(game.header)
        RULESET.fold(state, game.events)
        assert state.over and state.magic is not None
    random.seed(0)


__all__ = ["Choose", "Flip", "Roll", "Stake", "house_game"]


def test_a_record_made_before_the_casino_correction_is_read_under_the_corrected_cards() -> None:
    """R-KBQ-29 corrected the Casino and the Bakery in the card data, which changed the Blue
    Starter cards' content hash. A record naming the hash the same cards had before (every
    record made until then) is read under the corrected cards; any other hash is refused as
    deck files that changed."""
    current = catalogue.deck_for(QuestOptions())
    earlier = current.catalogue.earlier_hashes
    assert len(earlier) == 1 and earlier[0] != current.catalogue.content_hash
    assert catalogue.deck_for(QuestOptions(catalogue=earlier[0])) is current
    game = simulate_one(RULESET, 3, 0, players=3)
    options = {**game.header.options, "catalogue": earlier[0]}
    header = msgspec.structs.replace(game.header, options=options)
    from engine.reader import check_events

    assert check_events(RULESET, header, game.events) is None
    with pytest.raises(WarrenError, match="the deck files changed"):
        catalogue.deck_for(QuestOptions(catalogue="0" * 64))
