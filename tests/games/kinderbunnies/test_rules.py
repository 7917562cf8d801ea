"""KinderBunnies' rules played out: what each level allows and refuses, the Yellow cards'
effects, the end of each game, and games recorded at the table. (Every rule id is also
shown allowing and forbidding in tests/engine/dispute_tables/kinderbunnies.json.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from engine.dispute.notation import propose
from engine.kinderbunnies import RULESET
from engine.kinderbunnies.catalogue import cards_for, catalogue
from engine.kinderbunnies.events import Draw, Play, Reveal, Roll
from engine.kinderbunnies.numbers import HAND_SIZE
from engine.kinderbunnies.rulebook import RULES
from engine.kinderbunnies.state import KinderState
from engine.kinderbunnies.table import finish
from engine.rules import Effect, RuleViolation, WarrenError
from tests.scenarios.kinderbunnies import header, script

ADV = {"level": "advanced"}
RA = {"level": "really-advanced"}
ORANGE = (113, 118, 111, 115, 120, 112, 117, 114, 119, 116)  # bottom: 116, carrot F


def game(hands: Sequence[Sequence[int | str]], actions: Sequence[str] = (),
         options: dict[str, Any] | None = None, orange: Sequence[int] | None = None,
         source: str = "imported") -> tuple[KinderState, list[Effect]]:
    head = header("t", len(hands), options, source=source)
    events = script(head, hands, actions, orange)
    state = RULESET.setup(head)
    effects: list[Effect] = []
    for event in events:
        effects += RULESET.apply(state, event)
    return state, effects


def act(state: KinderState, text: str) -> tuple[Effect, ...]:
    return RULESET.apply(state, propose(RULESET, state, text, n_seats=state.n))


def refused(state: KinderState, text: str) -> RuleViolation:
    before = RULESET.codec.record(state)
    with pytest.raises(RuleViolation) as info:
        act(state, text)
    assert RULESET.codec.record(state) == before, "a refused event leaves the state as it was"
    return info.value


# -- the catalogue -----------------------------------------------------------------------------
def test_the_catalogue_holds_the_blue_and_yellow_decks_the_carrots_and_the_orange_deck() -> None:
    cat = catalogue()
    decks = {d: [n for n, c in cat.by_number.items() if c.deck == d] for d in cat.decks}
    assert len(decks["blue"]) == 49 and len(decks["yellow"]) == 51
    assert len(decks["pink"]) == 10 and len(decks["orange"]) == 10
    assert sum(c.money or 0 for c in cat.by_number.values() if c.deck == "blue") == 20
    assert sum(c.money or 0 for c in cat.by_number.values() if c.deck == "yellow") == 21
    hazards = sorted(c.effects[0].number for c in cat.by_id.values()  # type: ignore[union-attr]
                     if "safety-hazard" in c.tags)
    assert hazards == list(range(1, 11))
    for card in cat.by_id.values():
        assert card.text and card.source, card.id
    assert all(d.zero_is_ten for d in cat.dice.values())
    assert cards_for("beginner").draw_pile == tuple(sorted(decks["blue"]))
    assert len(cards_for("advanced").draw_pile) == 100


def test_every_level_deals_its_hand_and_its_carrots() -> None:
    for level, carrots in (("beginner", "ABCDEF"), ("advanced", "ABCDEFGHIJ")):
        c = cards_for(level)
        assert "".join(c.letter(n) for n in c.carrot_cards) == carrots
    assert HAND_SIZE == {"beginner": 4, "advanced": 5, "really-advanced": 5}
    state, _ = game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], options=ADV)
    assert [len(h) for h in state.hands] == [5, 5] and state.active == 0


# -- a level's rules never leak into another ------------------------------------------------------
def test_a_yellow_card_in_a_beginner_game_gets_a_clear_refusal() -> None:
    state, _ = game([[1, 17, 23, 31], [5, 35, 38, 6]], ["play 1"])
    err = refused(state, "draw 0 63")
    assert err.rule == "KIN-SET-1"
    assert "Yellow card" in err.message and "Beginner game plays with the Blue deck" in err.message
    recorded, _ = game([["?"] * 4, ["?"] * 4], source="recorded")
    err = refused(recorded, "play 95")
    assert err.rule == "KIN-SET-1" and "Safety Skunk" in err.message
    assert refused(recorded, "play 17 carrots=107 actor=0").rule == "KIN-SET-1"


def test_the_orange_deck_belongs_to_really_advanced_only() -> None:
    state = RULESET.setup(header("t", 2, ADV))
    err = refused(state, "setaside 111,112,113,114,115,116,117,118,119,120")
    assert err.rule == "KIN-SET-2" and "only a Really Advanced game" in err.message
    ra = RULESET.setup(header("t", 2, RA))
    assert refused(ra, "draw 0 1").rule == "KIN-SET-2"
    assert refused(ra, "setaside 111,112,113").rule == "KIN-SET-2"


def test_the_yellow_answers_are_not_asked_for_in_a_beginner_game() -> None:
    # A hazard in Beginner goes straight to the dice: no Safety Skunk decision.
    state, _ = game([[1, 31, 2, 3], [5, 6, 7, 11]], ["play 1", "draw 0 4", "play 5", "draw 1 8",
                                                     "play 31 5"])
    assert RULESET.pending(state).chance is not None
    assert RULESET.pending(state).chance.kind == "roll"  # type: ignore[union-attr]
    act(state, "roll 1,2,4,5,6")  # no 3: the bunny is lost at once, no Re-Roll window
    assert state.task is None and state.table[1] == []


def test_options_are_checked() -> None:
    with pytest.raises(WarrenError, match="youngest"):
        header("t", 2, {"youngest": 2})
    with pytest.raises(WarrenError, match="beginner_bad_news"):
        header("t", 2, {"level": "advanced", "beginner_bad_news": True})
    with pytest.raises(WarrenError, match="bad option"):
        header("t", 2, {"level": "expert"})
    other_cards = msgspec.structs.replace(header("t", 2, {}), options={"catalogue": "0" * 64})
    with pytest.raises(WarrenError, match="content hash"):
        RULESET.check_header(other_cards)


def test_bad_news_may_be_shuffled_into_a_beginner_game() -> None:
    state, fx = game([[1, 2, 17, 18], [5, 6, 7, 8]], ["play 1", "draw 0 97"],
                     options={"beginner_bad_news": True})
    # Aliens, no choice and no No News Is Good News in a Beginner game: it acts at once.
    assert state.table[0] == [] and 97 in state.discard and fx[-1].rule in ("KIN-CARD-BAD-NEWS",)


# -- the deal, Bucks, buying --------------------------------------------------------------------
def test_bucks_in_the_deal_are_put_down_and_replaced() -> None:
    state, fx = game([[41, 45, 1, 2, 3, 4], [5, 6, 7, 8]])
    assert sorted(state.bucks[0]) == [41, 45] and state.hands[0] == [1, 2, 3, 4]
    assert [f.rule for f in fx if f.kind == "bucks_down"] == ["KIN-BUCK-1", "KIN-BUCK-1"]


def test_change_comes_from_the_discard_pile_as_far_as_it_holds_bucks() -> None:
    state, _ = game([[106, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], options=ADV)
    act(state, "buy 50 pay=106")
    assert state.bucks[0] == [] and 106 in state.discard  # nothing to change 10 for 10
    state, _ = game([[48, 49, 1, 2, 3, 4], [6, 7, 8, 9]])
    err = refused(state, "buy 50 pay=48")
    assert err.rule == "KIN-BUY-1" and "do not cover" in err.message


def test_the_youngest_player_is_dealt_to_and_plays_first() -> None:
    state, fx = game([[5, 6, 7, 8], [1, 2, 3, 4], [9, 10, 11, 12]], options={"youngest": 1})
    assert state.active == 1 and any(f.kind == "first_player" and f.data["seat"] == 1 for f in fx)
    assert refused(state, "play 5 actor=0").rule == "KIN-TURN-1"


# -- the end ----------------------------------------------------------------------------------
def _ended(scores_table: list[list[int]], carrots: list[list[int]], bucks: list[list[int]]) -> KinderState:
    state, _ = game([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
    state.table, state.carrots, state.bucks = scores_table, carrots, bucks
    finish(state, [])
    return state


def test_the_score_is_carrots_plus_bunnies_and_ties_go_to_bucks_then_shared() -> None:
    state = _ended([[1, 2], [5], []], [[50], [51, 52], []], [[], [], [48]])
    assert state.scores == [3, 3, 0] and state.winners == [0, 1]  # tied on Bucks too: shared
    state = _ended([[1, 2], [5], []], [[50], [51, 52], []], [[41], [], []])
    assert state.winners == [0]
    assert RULESET.outcome(state).rule == "KIN-END-2"  # type: ignore[union-attr]


def _ra_near_the_end() -> KinderState:
    state, _ = game([[1, 17, 18, 19, 20], [5, 21, 22, 61, 62]], ["play 1", "draw 0 2"],
                    options=RA, orange=ORANGE)
    return state


def test_really_advanced_ends_on_the_last_carrot_and_the_orange_card_names_the_winner() -> None:
    state = _ra_near_the_end()
    state.carrot_pile = [55]  # only carrot F left
    act(state, "play 5 actor=1")
    act(state, "draw 1 3")
    fx = act(state, "play 17 carrots=55")
    assert state.ending and any(f.rule == "KIN-RA-1" for f in fx)
    assert refused(state, "draw 0 4").rule == "KIN-RA-1"
    assert refused(state, "reveal 111").rule == "KIN-RA-1"
    act(state, "reveal 116")
    assert state.over and state.winners == [0] and RULESET.outcome(state).rule == "KIN-RA-3"  # type: ignore[union-attr]


def test_the_owner_of_the_winning_carrot_needs_a_bunny_on_the_table() -> None:
    state = _ra_near_the_end()
    state.carrot_pile = [55]
    act(state, "play 5 actor=1")
    act(state, "draw 1 3")
    act(state, "play 17 carrots=55")
    state.table[0] = []
    act(state, "reveal 116")
    assert state.over and state.winners == [] and RULESET.outcome(state).reason == "no_winner"  # type: ignore[union-attr]


def test_really_advanced_reshuffles_the_discard_pile_when_the_draw_pile_is_empty() -> None:
    state = _ra_near_the_end()
    state.pile, state.discard = [], [40, 39]
    fx = act(state, "play 5 actor=1")
    assert any(f.rule == "KIN-RA-2" for f in fx) and sorted(state.pile) == [39, 40]
    act(state, "draw 1 39")
    # Advanced never reshuffles: the hand simply is not refilled.
    adv, _ = game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], options=ADV)
    adv.pile, adv.discard = [], [40]
    act(adv, "play 1")
    assert adv.active == 1 and len(adv.hands[0]) == 4


def test_after_the_draw_pile_every_card_is_still_played_then_the_game_ends() -> None:
    state, _ = game([[17, 18, 19, 20], [21, 22, 35, 36]])
    state.pile = []
    state.hands[0].pop()
    err = refused(state, "play 17 carrots=50")
    assert err.rule == "KIN-STAR-1"
    turns = []
    while not state.over:
        turns.append(state.active)
        act(state, f"discard {state.hands[state.active][0]}")
    assert turns == [0, 1, 0, 1, 0, 1, 1]  # seat 1 plays its last card alone
    assert state.winners == [0, 1] and RULESET.outcome(state).reason == "shared_win"  # type: ignore[union-attr]


# -- the Yellow cards ---------------------------------------------------------------------------
OPEN = ["play 1", "draw 0 10", "play 5", "draw 1 11"]


def test_switch_a_roo_moves_three_matching_players_one_place_clockwise() -> None:
    state, _ = game([[1, 89, 2, 3, 4], [5, 6, 7, 8, 9], [12, 13, 14, 15, 16]],
                    ["play 1", "draw 0 10", "play 5", "draw 1 11", "play 12", "draw 2 20",
                     "play 89"], options=ADV)
    act(state, "roll 4,4,4")
    act(state, "draw 0 21")  # the roll is acted on when the next event comes (R-KIN-15)
    assert state.table == [[5], [12], [1]]


def test_fugitive_ties_roll_again_among_the_tied() -> None:
    state, _ = game([[1, 77, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 77 5"], options=ADV)
    act(state, "roll 7,7")
    act(state, "roll 3,8")
    act(state, "draw 0 12")
    assert state.table == [[1], [5]]  # seat 1 rolled higher: the bunny stays
    state, _ = game([[1, 77, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 77 5", "roll 9,2"],
                    options=ADV)
    act(state, "draw 0 12")
    assert state.table == [[1, 5], []]


def test_high_low_cash_pays_only_what_the_discard_pile_holds() -> None:
    state, _ = game([[1, 79, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 79"], options=ADV)
    state.discard.append(45)  # a 2-Buck card in the discard pile
    act(state, "roll 1,10,5,5,5")
    fx = act(state, "draw 0 12")
    gained = next(f for f in fx if f.kind == "bucks_gained")
    assert gained.data == {"seat": 0, "due": 9, "paid": 2} and state.bucks[0] == [45]


def test_fake_phone_number_rolls_up_to_three_times() -> None:
    state, _ = game([[1, 76, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 76"], options=ADV)
    state.discard.append(16)
    for _ in range(2):
        act(state, "roll 5,5,1,1,1")
    act(state, "roll 5,5,5,1,1")
    act(state, "choose bunnies=16")
    assert state.table[0] == [1, 16]
    state, _ = game([[1, 76, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 76"], options=ADV)
    for _ in range(3):
        act(state, "roll 5,5,1,1,1")
    act(state, "draw 0 12")
    assert state.task is None and state.table[0] == [1]


def test_sneaky_burglar_takes_the_named_carrot_from_another_player() -> None:
    state, _ = game([[1, 87, 17, 3, 4], [5, 18, 7, 8, 9]],
                    [*OPEN, "play 17 carrots=50", "draw 0 12", "play 18 carrots=51", "draw 1 13",
                     "play 87", "roll 2"], options=ADV)
    act(state, "draw 0 14")
    assert sorted(state.carrots[0]) == [50, 51] and state.carrots[1] == []


def test_pass_it_along_and_secret_squid_move_hand_cards() -> None:
    state, _ = game([[1, 82, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 82"], options=ADV)
    assert sorted(RULESET.pending(state).decisions) == [0, 1]
    act(state, "choose give=2 actor=0")
    assert refused(state, "choose give=3 actor=0").rule == "KIN-CARD-PASS"
    act(state, "choose give=6 actor=1")
    assert 6 in state.hands[0] and 2 in state.hands[1]
    state, _ = game([[1, 86, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 86 player=1"], options=ADV)
    assert refused(state, "choose give=2 take=99").rule == "KIN-CARD-SQUID"
    act(state, "choose give=2 take=9")
    assert 9 in state.hands[0] and 2 in state.hands[1]


def test_one_for_fun_pays_the_first_one() -> None:
    state, _ = game([[1, 81, 2, 3, 4], [48, 5, 6, 7, 8, 9]], [*OPEN, "play 81"], options=ADV)
    state.discard.append(41)  # change for the 5-Buck card
    act(state, "roll 4,6")
    act(state, "roll 1,3")  # seat 0, the card's player, rolls the first 1
    act(state, "draw 0 12")
    value = cards_for("advanced").bucks
    # Seat 1 pays with its 5-Buck card through the bank: seat 0 takes the 1-Buck card from
    # the discard pile, and no change is left there for seat 1 (R-KIN-12).
    assert [value[c] for c in state.bucks[0]] == [1] and state.bucks[1] == []


def test_a_refused_event_after_a_held_roll_leaves_the_roll_held() -> None:
    state, _ = game([[1, 79, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 79", "roll 1,10,5,5,5"],
                    options=ADV)
    assert state.task is not None and state.task.held
    refused(state, "draw 1 12")
    assert state.task is not None and state.task.held


def test_no_news_is_good_news_and_the_bad_news_choices() -> None:
    state, _ = game([[1, 2, 96, 18, 19], [5, 6, 7, 8, 9]], ["play 1", "draw 0 100"], options=ADV)
    choices = RULESET.legal_actions(state, 0)
    assert any(isinstance(a, Play) and a.card == 96 for a in choices)
    act(state, "play 96")
    assert state.table[0] == [1] and {96, 100} <= set(state.discard)
    state, _ = game([[1, 2, 17, 18, 19], [5, 6, 7, 8, 9]],
                    ["play 1", "draw 0 10", "play 5", "draw 1 11", "play 17 carrots=50",
                     "draw 0 12", "play 6", "draw 1 13", "play 2", "draw 0 100"], options=ADV)
    assert refused(state, "choose bunnies=1").rule == "KIN-CARD-BAD-NEWS"
    act(state, "choose bunnies=2 carrots=50")
    assert state.table[0] == [2] and state.carrots[0] == [50]


# -- games recorded at the table ---------------------------------------------------------------
def test_unknown_cards_only_in_a_recorded_game_and_each_card_comes_to_light_once() -> None:
    head = header("t", 2, {}, source="imported")
    state = RULESET.setup(head)
    with pytest.raises(RuleViolation) as info:
        RULESET.apply(state, Draw(seq=1, actor=None, seat=0, card="?"))
    assert info.value.rule == "REC-UNK-1"
    state, _ = game([["?"] * 4, ["?"] * 4], ["play 1 actor=0", "draw 0 ?"], source="recorded")
    assert refused(state, "play 1").rule == "KIN-HAND-1"  # bunny 1 is on the table already
    assert refused(state, "draw 1 1").rule == "KIN-DRAW-1"


def test_a_recorded_discard_with_unknown_cards_is_undetermined() -> None:
    state, _ = game([["?"] * 4, ["?"] * 4], source="recorded")
    fx = act(state, "discard 35 actor=0")
    assert [f.rule for f in fx if f.kind == "undetermined"] == ["KIN-PLAY-1"]


def test_every_rule_has_a_paraphrase_and_a_source() -> None:
    for rule in RULES.values():
        assert rule.text
        assert "kinderbunnies.txt" in rule.source or "docs/card-facts.md" in rule.source


def test_rolls_are_faces_one_to_ten_and_zero_is_ten() -> None:
    state, _ = game([[1, 34, 2, 3], [5, 6, 7, 11]], ["play 1", "draw 0 4", "play 5", "draw 1 8",
                                                     "play 34 5"])
    with pytest.raises(RuleViolation):
        RULESET.apply(state, Roll(seq=state.seq + 1, actor=None, faces=[11, 1, 1, 1, 1]))
    act(state, "roll 6,1,1,1,1")
    assert state.table[1] == [5]
    assert isinstance(Reveal(seq=1, actor=None, card=111), Reveal)


def test_a_state_takes_over_every_slot_of_a_trial_copy() -> None:
    state, _ = game([[1, 79, 2, 3, 4], [5, 6, 7, 8, 9]], [*OPEN, "play 79", "roll 1,10,5,5,5"],
                    options=ADV)
    later = state.copy()
    RULESET.apply(later, propose(RULESET, later, "draw 0 12", n_seats=2))
    state.take_from(later)
    assert RULESET.codec.equal(state, later)
    from engine.kinderbunnies.state import SLOTS

    assert all(getattr(state, name) is getattr(later, name) for name in SLOTS)


def test_really_advanced_with_every_hand_empty_deals_again_from_the_discard_pile() -> None:
    from engine.kinderbunnies.table import advance, end_turn

    state = _ra_near_the_end()
    state.hands = [[], []]
    state.pile, state.discard = set(), [40, 39, 38]
    end_turn(state, [])
    assert state.refill == [0, 1] and state.active == 0 and not state.over
    advance(state, [])
    act(state, "draw 0 38")  # the discard pile became the draw pile (KIN-RA-2)
    adv, _ = game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], options=ADV)
    adv.hands = [[], []]
    adv.pile, adv.discard = set(), [40]
    end_turn(adv, [])
    assert adv.over  # Advanced never reshuffles: the game is over


def test_views_hide_hands_the_draw_pile_and_the_orange_deck() -> None:
    state, _ = game([[1, 17, 18, 19, 20], [5, 21, 22, 61, 62]], ["play 1", "draw 0 2"],
                    options=RA, orange=ORANGE)
    spectator = RULESET.view(state, "spectator")
    assert spectator["hands"] == [5, 5] and isinstance(spectator["draw_pile"], int)
    assert spectator["orange"] == 10 and spectator["magic"] is None
    seat = RULESET.view(state, 0)
    assert seat["hands"][0] == [2, 17, 18, 19, 20] and seat["hands"][1] == 5
    referee = RULESET.view(state, "referee")
    assert referee["orange"] == list(ORANGE) and isinstance(referee["draw_pile"], list)
    draw = Draw(seq=state.seq + 1, actor=None, seat=1, card=3)
    assert RULESET.event_view(draw, 0)["card"] == "?" and RULESET.event_view(draw, 1)["card"] == 3
    buck = Draw(seq=state.seq + 1, actor=None, seat=1, card=41)
    assert RULESET.event_view(buck, 0)["card"] == 41  # a Buck goes face up: everyone sees it
    assert RULESET.redact(draw, "spectator", state).card == "?"
