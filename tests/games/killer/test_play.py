"""Triplets, roaming cards, roll readings and roll-offs, auctions, the carrot end, trading,
run positions, card costs, hooks and refusals."""

from __future__ import annotations

import pytest

from engine.killer import rolls, run, trading
from engine.killer.catalogue.schema import BunnyFace
from engine.killer.circle import BunnyCircle
from engine.killer.hooks import HookRegistry
from engine.killer.refusal import Refusal, as_violation
from engine.killer_bunnies_odyssey import costs
from engine.killer_bunnies_quest import auction, carrots, triplets
from engine.killer_bunnies_quest.roam import attacks_now, next_host
from engine.killer_bunnies_quest.state import Roamer
from engine.rules import RuleViolation

COLOURS = ["blue", "green", "orange", "yellow", "violet"]


def face(colour: str, kind: str) -> BunnyFace:
    return BunnyFace(colour=colour, kind=kind)


AGENT = BunnyFace(wild=True, not_colours=["red", "pink"])


# -- triplets ---------------------------------------------------------------------------------


def test_three_of_a_colour_or_of_a_kind_make_a_triplet() -> None:
    assert triplets.triplets([face("blue", "timid"), face("blue", "gleeful"),
                              face("blue", "sinister")], COLOURS) == ["colour:blue"]
    assert triplets.triplets([face("blue", "timid"), face("green", "timid"),
                              face("orange", "timid")], COLOURS) == ["kind:timid"]
    assert triplets.cards_allowed([face("blue", "timid"), face("green", "timid")], COLOURS) == 1


def test_mixed_bunnies_make_no_triplet() -> None:
    assert not triplets.has_triplet([face("blue", "timid"), face("blue", "gleeful"),
                                     face("green", "sinister")], COLOURS)


def test_a_free_agent_completes_either_kind_of_triplet() -> None:
    assert triplets.has_triplet([face("blue", "timid"), face("blue", "gleeful"), AGENT], COLOURS)
    assert triplets.has_triplet([face("blue", "timid"), face("green", "timid"), AGENT], COLOURS)
    assert not triplets.has_triplet([face("blue", "timid"), face("green", "gleeful"), AGENT],
                                    COLOURS)
    assert triplets.has_triplet([face("blue", "timid"), AGENT, AGENT], COLOURS)
    assert triplets.has_triplet([AGENT, AGENT, AGENT], COLOURS)


def test_a_free_agent_is_never_a_colour_it_may_not_take() -> None:
    red = [face("red", "timid"), face("red", "gleeful")]
    assert triplets.triplets([*red, AGENT], [*COLOURS, "red"]) == []
    old_agent = BunnyFace(wild=True, not_colours=["red"])   # the 2002 printing
    pink = [face("pink", "timid"), face("pink", "gleeful")]
    assert triplets.has_triplet([*pink, old_agent], [*COLOURS, "pink"])
    assert not triplets.has_triplet([*pink, AGENT], [*COLOURS, "pink"])


def test_two_triplets_still_allow_two_cards() -> None:
    six = [face("blue", k) for k in ("timid", "gleeful", "sinister")] + [
        face("green", k) for k in ("timid", "gleeful", "sinister")]
    assert len(triplets.triplets(six, COLOURS)) >= 2
    assert triplets.cards_allowed(six, COLOURS) == 2


# -- roaming -----------------------------------------------------------------------------------


def ring(*bunnies: int) -> BunnyCircle:
    c = BunnyCircle()
    for b in bunnies:
        c.place(b, b % 2)
    return c


def test_cyber_bunny_moves_clockwise_skipping_haloed_bunnies() -> None:
    c = ring(1, 2, 3, 4)
    cyber = Roamer(card=54, launcher=0, host=1, direction="clockwise", revisit=True)
    haloed = {3}
    assert next_host(c, cyber, 1, lambda b: b not in haloed) == 2
    assert next_host(c, cyber, 2, lambda b: b not in haloed) == 4
    assert next_host(c, cyber, 4, lambda b: b not in haloed) == 1


def test_a_revisiting_roamer_stays_on_the_only_viable_bunny_unless_it_died() -> None:
    c = ring(1, 2)
    cyber = Roamer(card=54, launcher=0, host=1, direction="clockwise", revisit=True)
    assert next_host(c, cyber, 1, lambda b: b == 1) == 1
    assert next_host(c, cyber, 1, lambda b: b == 1, leaving=True) is None


def test_ebola_goes_counter_clockwise_and_never_back() -> None:
    c = ring(1, 2, 3)
    ebola = Roamer(card=47, launcher=0, host=1, direction="counter_clockwise", revisit=False,
                   visited=[1])
    assert next_host(c, ebola, 1, lambda b: True) == 3
    ebola.visited += [3, 2]
    assert next_host(c, ebola, 2, lambda b: True) is None


def test_a_roamer_attacks_at_the_end_of_later_launcher_turns_only() -> None:
    cyber = Roamer(card=54, launcher=2, host=5, direction="clockwise", revisit=True,
                   launched_turn=4)
    assert not attacks_now(cyber, 4)       # the launch turn itself
    assert attacks_now(cyber, 5)           # one round later
    cyber.host = None
    assert not attacks_now(cyber, 6)


# -- rolls --------------------------------------------------------------------------------------


def test_patterns_of_five_dice() -> None:
    assert rolls.pattern([1, 2, 3, 4, 5]) == "all_different"
    assert rolls.pattern([1, 1, 3, 4, 5]) == "pair"
    assert rolls.pattern([1, 1, 3, 3, 5]) == "pair"
    assert rolls.pattern([2, 2, 2, 4, 5]) == "three_of_a_kind"
    assert rolls.pattern([2, 2, 2, 2, 2]) == "three_of_a_kind"


def test_lowest_and_matches() -> None:
    faces = {"violet-d12": 4, "orange-d12": 2, "green-d12": 2, "yellow-d12": 9}
    assert rolls.lowest(faces) == ["orange-d12", "green-d12"]
    assert rolls.matches([3, 7, 3, 3, 1], 3) == 3 and rolls.matches([1], 12) == 0


def test_a_roll_off_high_wins_and_ties_roll_again() -> None:
    off = rolls.start([0, 1, 2], "high", card_player=0, reroll="none")
    for seat, face_ in ((0, 9), (1, 11), (2, 11)):
        rolls.record(off, seat, face_)
    rolls.close_round(off)
    assert off.decided is None and off.contenders == [1, 2]
    with pytest.raises(Refusal) as err:
        rolls.record(off, 2, 5)          # seat 1 rolls first
    assert err.value.code == "rolloff.not_your_roll"
    rolls.record(off, 1, 3)
    rolls.record(off, 2, 5)
    rolls.close_round(off)
    assert off.decided == 2


def test_the_card_player_may_reroll_once_and_the_new_roll_stands() -> None:
    off = rolls.start([0, 1], "high", card_player=0, reroll="once")
    rolls.record(off, 0, 2)
    assert rolls.may_reroll(off, 0) and not rolls.may_reroll(off, 1)
    rolls.record(off, 0, 1, reroll=True)      # worse, but it stands
    with pytest.raises(Refusal) as err:
        rolls.record(off, 0, 12, reroll=True)
    assert err.value.code == "rolloff.no_reroll"
    rolls.record(off, 1, 2)
    rolls.close_round(off)
    assert off.decided == 1


def test_the_2002_card_player_rolls_twice_and_keeps_the_better() -> None:
    # a prize for the highest roller: the card's player keeps his higher roll
    off = rolls.start([3, 4], "high", card_player=3, reroll="two_rolls")
    rolls.record(off, 3, 2)
    assert rolls.to_roll(off) == 3
    rolls.record(off, 3, 9)
    rolls.record(off, 4, 5)
    assert off.rolls == {3: 9, 4: 5}
    rolls.close_round(off)
    assert off.decided == 3


def test_when_the_lowest_roller_loses_the_better_roll_is_the_higher() -> None:
    # Russian Roulette: the lowest roller loses a bunny, so the card's player keeps 9
    off = rolls.start([3, 4], "low", card_player=3, reroll="two_rolls", picked_wins=False)
    rolls.record(off, 3, 9)
    rolls.record(off, 3, 2)
    rolls.record(off, 4, 5)
    rolls.close_round(off)
    assert off.rolls == {3: 9, 4: 5} and off.decided == 4


def test_a_single_player_roll_off_is_decided_at_once_and_nobody_is_refused() -> None:
    assert rolls.start([2], "low", 2, "once").decided == 2
    with pytest.raises(Refusal) as err:
        rolls.start([], "low", 2, "once")
    assert err.value.code == "rolloff.nobody"


# -- auctions ------------------------------------------------------------------------------------


def test_bids_go_round_until_all_but_one_pass() -> None:
    a = auction.start(7, [1, 2, 3, 0])
    auction.bid(a, 1, 3, money=10)
    auction.bid(a, 2, None, money=10)
    auction.bid(a, 3, 5, money=5)
    auction.bid(a, 0, None, money=1)
    assert auction.next_bidder(a) == 1
    auction.bid(a, 1, None, money=10)
    assert auction.over(a) and (a.high_bidder, a.high_bid) == (3, 5)


def test_a_bid_must_beat_the_standing_bid_be_paid_for_and_come_in_turn() -> None:
    a = auction.start(7, [1, 2])
    for seat, amount, money, code in ((2, 3, 9, "auction.not_your_bid"),
                                      (1, 0, 9, "auction.too_low"),
                                      (1, 4, 3, "auction.cannot_pay")):
        with pytest.raises(Refusal) as err:
            auction.bid(a, seat, amount, money)
        assert err.value.code == code
    auction.bid(a, 1, 2, 9)
    with pytest.raises(Refusal):
        auction.bid(a, 2, 2, 9)


def test_an_auction_where_everyone_passes_ends_without_a_buyer() -> None:
    a = auction.start(7, [0, 1])
    auction.bid(a, 0, None, 0)
    auction.bid(a, 1, None, 0)
    assert auction.over(a) and a.high_bidder is None


# -- the end: carrots and the Magic Carrot ------------------------------------------------------


def test_the_magic_carrots_owner_with_a_bunny_wins() -> None:
    owner = {103: 0, 104: 1, 105: 1}
    end = carrots.settle(owner, lambda c: str(c - 102), [0, 1, 2], lambda s: True,
                         lambda s: 0, lambda s: 1, magic="2", n_seats=3)
    assert end.winner == 1 and end.passed == {}


def test_a_bunnyless_players_carrots_pass_to_the_richest_bunny_owner() -> None:
    owner = {103: 0, 104: 0}
    money = {0: 50, 1: 4, 2: 9}
    end = carrots.settle(owner, lambda c: str(c - 102), [0, 1, 2], lambda s: s != 0,
                         money.__getitem__, lambda s: 1, magic="2", n_seats=3)
    assert end.passed == {103: 2, 104: 2} and end.winner == 2


def test_ties_for_money_go_to_more_bunnies_then_clockwise_from_the_giver() -> None:
    assert carrots.richest_with_bunny([0, 1, 2, 3], lambda s: s != 2, lambda s: 5,
                                      lambda s: 1, giver=2, n_seats=4) == 3
    assert carrots.richest_with_bunny([0, 1, 2, 3], lambda s: s != 2, lambda s: 5,
                                      lambda s: 2 if s == 0 else 1, giver=2, n_seats=4) == 0


def test_with_no_bunny_anywhere_nobody_wins() -> None:
    end = carrots.settle({103: 0}, lambda c: "1", [0, 1], lambda s: False, lambda s: 0,
                         lambda s: 0, magic="1", n_seats=2)
    assert end.winner is None and end.owner is None


def test_the_magic_carrot_is_the_bottom_card() -> None:
    assert carrots.magic_carrot([3005, 3001, 3012], lambda n: str(n - 3000)) == "12"


# -- trading ------------------------------------------------------------------------------------


def holdings(table: dict[tuple[int, int], trading.Holding]):  # type: ignore[no-untyped-def]
    return lambda seat, card: table.get((seat, card))


HELD: dict[tuple[int, int], trading.Holding] = {
    (0, 1): "bunny", (0, 1001): "cabbage", (0, 44): "hand", (0, 45): "hand", (0, 60): "run",
    (1, 103): "carrot", (1, 92): "money", (1, 33): "hand", (1, 70): "saved",
}


def test_a_trade_on_a_traders_turn_in_any_amounts() -> None:
    trading.check_trade(0, 0, [1, 1001], 1, [103, 92, 70], holdings(HELD), traded=set())
    trading.check_trade(1, 0, [44], 1, [33], holdings(HELD), traded=set())


@pytest.mark.parametrize(("active", "a_gives", "b_gives", "traded", "code"), [
    (2, [1], [103], set(), "trade.not_on_turn"),
    (0, [60], [103], set(), "trade.run_card"),
    (0, [44, 45], [33], set(), "trade.hand_one_for_one"),
    (0, [44], [], set(), "trade.hand_one_for_one"),
    (0, [1], [103], {103}, "trade.once"),
    (0, [2], [103], set(), "trade.not_held"),
    (0, [1, 1], [103], set(), "trade.repeated"),
    (0, [], [], set(), "trade.empty"),
])
def test_trades_the_rules_forbid(active: int, a_gives: list[int], b_gives: list[int],
                                 traded: set[int], code: str) -> None:
    with pytest.raises(Refusal) as err:
        trading.check_trade(active, 0, a_gives, 1, b_gives, holdings(HELD), traded)
    assert err.value.code == code


def test_supplies_may_be_traded_again_but_not_with_oneself() -> None:
    trading.check_trade(0, 0, [1001], 1, [92], holdings(HELD), traded={1001, 92})
    with pytest.raises(Refusal) as err:
        trading.check_trade(0, 0, [1001], 0, [], holdings(HELD), set())
    assert err.value.code == "trade.same_player"


# -- run positions --------------------------------------------------------------------------------


def test_the_run_cycle_flip_slide_place() -> None:
    r = run.RunPositions(top=44, bottom=12)
    assert run.flip(r) == 44
    run.slide(r)
    run.place_bottom(r, 70)
    assert (r.top, r.bottom) == (12, 70)
    with pytest.raises(Refusal) as err:
        run.place_bottom(r, 71)
    assert err.value.code == "run.bottom_taken"
    with pytest.raises(Refusal) as err:
        run.slide(r)
    assert err.value.code == "run.top_taken"
    empty = run.RunPositions()
    with pytest.raises(Refusal) as err:
        run.flip(empty)
    assert err.value.code == "run.no_top_card"


def test_only_specials_are_saved_and_only_from_a_flip() -> None:
    run.check_save("special", flipped=True)
    run.check_save("very_special", flipped=True)
    for card_type, flipped, code in (("run", True, "run.not_savable"),
                                     ("special", False, "run.save_from_hand")):
        with pytest.raises(Refusal) as err:
            run.check_save(card_type, flipped)
        assert err.value.code == code


def test_top_run_cards_rotate_counter_clockwise() -> None:
    runs = [run.RunPositions(top=10 + s) for s in range(3)]
    run.rotate_tops(runs, [0, 1, 2], "counter_clockwise")
    assert [r.top for r in runs] == [11, 12, 10]
    run.rotate_tops(runs, [0, 1, 2], "clockwise")
    assert [r.top for r in runs] == [10, 11, 12]


# -- Odyssey card costs ----------------------------------------------------------------------------


def test_white_hexagons_take_any_colour_after_the_coloured_ones() -> None:
    used = costs.payment({"blue": 2, "white": 3}, {"blue": 3, "green": 1, "red": 1})
    assert used == {"blue": 3, "green": 1, "red": 1}
    assert costs.affordable({"white": 2}, {"green": 2})


def test_a_cost_that_cannot_be_paid_is_refused() -> None:
    assert not costs.affordable({"blue": 2}, {"blue": 1, "green": 5})
    with pytest.raises(Refusal) as err:
        costs.payment({"blue": 1, "white": 3}, {"blue": 2, "green": 1})
    assert err.value.code == "cost.short"


# -- hooks and refusals ----------------------------------------------------------------------------


def test_a_hook_is_registered_once_and_missing_ones_are_listed() -> None:
    hooks: HookRegistry[object] = HookRegistry("test")

    @hooks.register("black_cat")
    def black_cat() -> None:
        return None

    assert hooks.get("black_cat") is black_cat
    assert hooks.missing({"black_cat", "build_city"}) == ["build_city"]
    with pytest.raises(ValueError):
        hooks.register("black_cat")(black_cat)
    with pytest.raises(KeyError):
        hooks.get("nothing")


def test_a_refusal_becomes_the_games_rule_violation() -> None:
    refusal = Refusal("trade.run_card", "never", card=44)
    violation = as_violation(refusal, {"trade.run_card": "KBQ-TRADE-3"})
    assert isinstance(violation, RuleViolation)
    assert violation.rule == "KBQ-TRADE-3" and violation.facts == {"card": 44}
    with pytest.raises(KeyError):
        as_violation(refusal, {})
