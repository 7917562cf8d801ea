"""Shared helpers for the Killer Bunnies Quest tests: games written with the scenario
writer, and positions arranged by moving cards (tests only: an arranged position is not
reachable by replaying events, but every card stays exactly once in the game)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.killer_bunnies_quest import RULESET
from engine.killer_bunnies_quest import table as quest_table
from engine.killer_bunnies_quest.state import QuestState
from engine.record import Event
from engine.rules import Effect, RuleViolation
from tests.scenarios.killer_bunnies_quest import Scenario

# A few card numbers of the Blue Starter box (docs/card-facts.md §1.2, §1.3).
BLUE_CONGENIAL, BLUE_GLEEFUL, BLUE_LUMBERING, BLUE_SINISTER, BLUE_TIMID = 1, 2, 3, 4, 5
GREEN_CONGENIAL, GREEN_GLEEFUL, GREEN_TIMID = 6, 7, 10
ORANGE_CONGENIAL, ORANGE_TIMID = 11, 15
YELLOW_CONGENIAL, VIOLET_CONGENIAL = 111, 116
CHOOSE_A_CARROT, CHOOSE_2 = 16, 21
FEED_1_1, FEED_3_4, FEED_5_5 = 24, 28, 30
WHISK, ROACHES, SWORD, FLAME, FLUORINE, LASER = 31, 37, 41, 42, 44, 45
TROJAN, EBOLA, NUKE = 46, 47, 48
AREA_51, BAD_KARMA, BAKER_STREET, BLACK_CAT, CYBER, DEFECTOR, DROUGHT = 49, 51, 52, 53, 54, 55, 56
FREE_AGENT, HALO, MARKET_HIGH, MARKET_CLOSED = 57, 58, 59, 60
CLOVER_1, CLOVER_2, CLOVER_3, MAGGOTS, POKER = 61, 62, 63, 64, 65
CASINO, FREE_CABBAGE, FREE_WATER, GENEVA, COUPON, DANISH, BAKERY = 66, 68, 69, 70, 71, 72, 74
FOUNTAIN, SURPRISE, SPATULA, REUSABLES, SUNNY_DAY = 76, 78, 80, 81, 82
MISFORTUNE, MISFORTUNE_2 = 83, 84
DOLLA_1, DOLLA_2, DOLLA_5, DOLLA_10 = 87, 92, 98, 101
CARROT_1 = 103
FEED_2_2, GORGE, SLING_SHOT = 125, 127, 128
SEA_WHIZ, BLACK_HOLE, ASTEROID, BLOCK_BID, THIEF, DOUBLE_NO_TROUBLE = 131, 132, 133, 135, 136, 137
FREE_AGENT_2, MARKET_LOW, CLOVER_4, ROCK_BOTTOM, ROULETTE, WEILS = 138, 139, 141, 142, 143, 144
BUG_OFF, FREE_CABBAGE_WATER, MINILITH, NOAHS_FLOOD, EXCHANGE, ROTATE = 145, 146, 147, 148, 149, 150
SUIT, REVERSAL = 151, 152
CABBAGE_1, CABBAGE_2, CABBAGE_5, CABBAGE_10 = 1001, 1006, 1010, 1012
WATER_1, WATER_2, WATER_5, WATER_10 = 2001, 2006, 2010, 2012


def carrot(n: int) -> int:
    """The large carrot card of carrot number ``n`` (1-8 Blue, 9-12 Yellow)."""
    return 102 + n if n <= 8 else 153 + n


def take_out(state: QuestState, card: int) -> None:
    """Remove ``card`` from wherever it is."""
    for pile in (state.draw, state.discard, state.cabbage_deck, state.water_deck,
                 state.cabbage_discard, state.water_discard, state.market.carrots):
        if card in pile:
            pile.remove(card)
            return
    for st in state.seats:
        for pile in (st.hand, st.saved, st.money, st.cabbage, st.water, st.carrots, st.karma):
            if card in pile:
                pile.remove(card)
                return
        if st.run.top == card:
            st.run.top = None
            return
        if st.run.bottom == card:
            st.run.bottom = None
            return
    if card in state.circle:
        state.circle.remove(card)
        return
    for b in state.circle.order:
        space = state.circle.space(b)
        for pile in (space.under, space.on):
            if card in pile:
                pile.remove(card)
                return
    raise AssertionError(f"card {card} is nowhere")


def put(g: Scenario, card: int, where: str, seat: int = 0, bunny: int | None = None,
        at: int | None = None) -> None:
    """Move ``card`` to ``where``: hand, saved, money, cabbage, water, carrots, top, bottom,
    circle (a bunny of ``seat`` at ``at``), under (``bunny``), discard, draw (next drawn)."""
    state = g.state
    take_out(state, card)
    st = state.seats[seat]
    if where in ("hand", "saved", "money", "cabbage", "water", "carrots", "karma"):
        getattr(st, where).append(card)
    elif where == "top":
        if st.run.top is not None:
            state.draw.insert(0, st.run.top)
        st.run.top = card
    elif where == "bottom":
        if st.run.bottom is not None:
            state.draw.insert(0, st.run.bottom)
        st.run.bottom = card
    elif where == "circle":
        state.circle.place(card, seat, at)
    elif where == "under":
        assert bunny is not None
        state.circle.space(bunny).under.append(card)
    elif where == "discard":
        quest_table.to_discard(state, [card])
    elif where == "draw":
        state.draw.append(card)
    else:
        raise AssertionError(where)


def give(g: Scenario, card: int, seat: int) -> None:
    """Put ``card`` into the seat's hand in place of its last card (which goes under the draw
    pile), so the hand keeps its five cards."""
    st = g.state.seats[seat]
    old = st.hand.pop()
    g.state.draw.insert(0, old)
    put(g, card, "hand", seat)


def finish(g: Scenario, seat: int) -> None:
    """Lay the new bottom card if the turn waits for it."""
    if g.state.phase == "bottom" and not g.state.stack and g.state.active == seat:
        g.bottom(seat)


def swap_hand(g: Scenario, seat: int, cards: list[int]) -> None:
    """Make ``cards`` the seat's hand (the old hand cards go under the draw pile)."""
    st = g.state.seats[seat]
    for c in st.hand[:]:
        st.hand.remove(c)
        g.state.draw.insert(0, c)
    for c in cards:
        put(g, c, "hand", seat)


def table(players: int = 3, circle: list[tuple[int, int]] | None = None, **kw: Any) -> Scenario:
    """A game past the set-up, seat 0 to play, with ``circle`` = [(bunny, owner), ...]."""
    g = Scenario(players, **kw)
    for bunny, owner in circle or []:
        put(g, bunny, "circle", owner)
    return g


def snapshot(state: QuestState) -> Any:
    return RULESET.codec.record(state)


def refuses(g: Scenario, rule: str, kind: type[Event], seat: int | None, **fields: Any) -> RuleViolation:
    """The event is refused with ``rule`` and leaves the state exactly as it was."""
    before = snapshot(g.state)
    with pytest.raises(RuleViolation) as err:
        g.act(kind, seat, **fields)
    assert err.value.rule == rule, f"refused by {err.value.rule}, not {rule}: {err.value}"
    assert snapshot(g.state) == before, "a refused event changed the state"
    return err.value


def pass_turn(g: Scenario, seat: int) -> tuple[Effect, ...]:
    """The seat flips its top run card and discards it, then lays the card it drew."""
    g.flip(seat)
    card = g.state.flipped
    assert card is not None
    out = list(g.discard(seat, card))
    if g.state.phase == "bottom":
        out += g.bottom(seat)
    return tuple(out)


def kinds(effects: tuple[Effect, ...] | list[Effect]) -> list[str]:
    return [e.kind for e in effects]


def find(effects: tuple[Effect, ...] | list[Effect], kind: str) -> Effect:
    found = [e for e in effects if e.kind == kind]
    assert found, f"no {kind} effect in {kinds(effects)}"
    return found[0]


def offered(g: Scenario, seat: int) -> list[Event]:
    return RULESET.legal_actions(g.state, seat)
