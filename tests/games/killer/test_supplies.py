"""Unit cards (paying, change, IOUs), the market and feed demands."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.killer import feeding, units
from engine.killer.catalogue.loader import DeckLibrary
from engine.killer.catalogue.schema import Prices
from engine.killer.refusal import Refusal
from engine.killer_bunnies_quest.market import Market

CARDS = Path(__file__).resolve().parents[3] / "engine" / "killer_bunnies_quest" / "cards"
BOX = DeckLibrary([CARDS]).catalogue("blue-starter")
VALUE = {n: (BOX.card(n).units or BOX.card(n).money or 0)
         for n in BOX.numbers("cabbage", "water", "money")}
C1, C2, C5, C10 = 1001, 1006, 1010, 1012   # cabbage cards of 1, 2, 5, 10 units
D1, D2, D5, D10 = 87, 92, 98, 101          # Dolla


def test_the_rulebook_example_four_units_paid_with_a_five() -> None:
    # Quest §Making Change: a 4-unit feed paid with the 5-unit card takes a 1 back.
    change = units.check_payment([C5], 4, VALUE, "cabbage")
    assert change == 1
    taken, owed = units.make_change([C1 + 1, C2], change, VALUE)
    assert (taken, owed) == ([C1 + 1], 0)


def test_a_payment_must_cover_and_not_overpay() -> None:
    with pytest.raises(Refusal) as err:
        units.check_payment([C1, C2], 4, VALUE, "cabbage")
    assert err.value.code == "units.short"
    with pytest.raises(Refusal) as err:
        units.check_payment([C5, C1], 4, VALUE, "cabbage")
    assert err.value.code == "units.overpaid"
    assert units.check_payment([C2, C2 + 1], 4, VALUE, "cabbage") == 0


def test_paying_with_cards_not_held_is_refused() -> None:
    with pytest.raises(Refusal) as err:
        units.check_owned([C5], [C1, C2], "cabbage")
    assert err.value.code == "units.not_held"
    with pytest.raises(Refusal) as err:
        units.check_owned([C1, C1], [C1], "cabbage")
    assert err.value.code == "units.repeated"


def test_the_chosen_payment_is_the_smallest_sufficient_total() -> None:
    holding = [C10, C5, C2, C1]
    assert units.choose_payment(holding, 4, VALUE) == [C5]          # 5 beats 10 and 2+1+...
    assert units.choose_payment(holding, 3, VALUE) == [C1, C2]      # exactly 3
    assert units.choose_payment(holding, 18, VALUE) == [C1, C2, C5, C10]
    assert units.choose_payment(holding, 19, VALUE) is None
    assert units.choose_payment([], 0, VALUE) == []


def test_without_change_in_the_pile_the_game_owes_an_iou() -> None:
    taken, owed = units.make_change([D5], 3, VALUE)
    assert (taken, owed) == ([], 3)
    ious = [units.IOU(seat=2, kind="money", amount=owed)]
    pile = [D2, D5]
    paid = units.settle_ious(ious, "money", pile, VALUE)
    assert paid == [(2, [D2])] and ious[0].amount == 1 and pile == [D5]
    pile.append(D1)
    assert units.settle_ious(ious, "money", pile, VALUE) == [(2, [D1])]
    assert ious == [] and units.owed_to(ious, 2, "money") == 0


def test_ious_of_another_kind_are_left_alone() -> None:
    ious = [units.IOU(seat=0, kind="water", amount=2)]
    pile = [C2]
    assert units.settle_ious(ious, "cabbage", pile, VALUE) == [] and pile == [C2]
    assert units.owed_to(ious, 0, "water") == 2


def test_half_rounds_down() -> None:
    assert units.half_of([C5, C2], VALUE) == 3
    assert units.half_of([], VALUE) == 0


# -- the market --------------------------------------------------------------------------------


def starter() -> Market:
    return Market(prices=Prices(cabbage=3, water=3, carrot=10), carrots=BOX.numbers("carrot"))


def test_bills_at_the_starter_prices_and_at_half_price_rounded_up() -> None:
    m = starter()
    assert m.bill(0, {"cabbage": 1, "carrot": 1}) == 13
    m.half_price_seat = 0
    assert m.bill(0, {"cabbage": 1, "carrot": 1}) == 7    # 6.5 rounds up
    assert m.bill(1, {"water": 1}) == 3                   # the coupon is seat 0's


def test_a_closed_market_sells_nothing_until_a_price_card() -> None:
    m = starter()
    m.close()
    with pytest.raises(Refusal) as err:
        m.bill(0, {"water": 1})
    assert err.value.code == "market.closed"
    with pytest.raises(Refusal):
        m.take_carrot(103, while_closed=False)
    m.take_carrot(103, while_closed=True)                 # Choose A Carrot works closed
    m.set_prices(Prices(cabbage=4, water=5, carrot=10))
    assert m.open and m.bill(0, {"water": 2}) == 10


def test_a_price_card_works_on_an_open_market_too() -> None:
    m = starter()
    m.set_prices(Prices(cabbage=2, water=1, carrot=10))
    assert m.open and m.price_of("water") == 1


def test_an_empty_order_and_a_missing_carrot_are_refused() -> None:
    m = starter()
    with pytest.raises(Refusal) as err:
        m.bill(0, {"water": 0})
    assert err.value.code == "market.empty_order"
    m.take_carrot(103, True)
    with pytest.raises(Refusal) as err:
        m.take_carrot(103, True)
    assert err.value.code == "market.no_such_carrot"
    m.return_carrot(103)
    assert m.carrots[0] == 103


# -- feed demands -------------------------------------------------------------------------------


def demand(card: int, bunny: int, owner: int, due: int | None, c: int = 1, w: int = 1) -> feeding.FeedDemand:
    return feeding.FeedDemand(card=card, bunny=bunny, owner=owner, cabbage=c, water=w, due_turn=due)


def test_a_demand_is_due_at_the_end_of_the_owners_next_turn() -> None:
    # placed while the owner has begun 3 turns (not his turn): due at the end of turn 4;
    # placed during his own turn 4: due at the end of turn 5, not of the turn under way.
    assert feeding.due_turn(3) == 4
    demands = [demand(24, 5, 1, feeding.due_turn(3)), demand(25, 6, 1, 5)]
    assert feeding.falling_due(demands, 1, 3) == []
    assert [d.card for d in feeding.falling_due(demands, 1, 4)] == [24]
    assert feeding.falling_due(demands, 2, 4) == []


def test_demands_stack_on_one_bunny() -> None:
    demands = [demand(24, 5, 1, 4), demand(28, 5, 1, 4, 3, 4)]
    assert feeding.need(feeding.on_bunny(demands, 5)) == (4, 5)
    assert feeding.find(demands, 28).water == 4
    with pytest.raises(Refusal) as err:
        feeding.find(demands, 30)
    assert err.value.code == "feed.no_such_demand"


def test_demands_leave_with_their_bunny_and_follow_a_new_owner() -> None:
    demands = [demand(24, 5, 1, 4), demand(26, 6, 1, 4)]
    feeding.follow_owner(demands, 6, 3)
    assert demands[1].owner == 3
    assert [d.card for d in feeding.drop_bunny(demands, 5)] == [24]
    assert [d.card for d in demands] == [26]


def test_an_immediate_demand_never_waits_for_a_turn_end() -> None:
    assert feeding.falling_due([demand(66, 5, 1, None)], 1, 99) == []
