"""The rulings of docs/rulings.md#bunnies, each shown in play, and the register itself."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest

from engine.bunnies import RULESET
from engine.bunnies.events import Steal
from engine.bunnies.layout import ALL_SLOTS, OWN_SLOTS, SHARED_SLOTS, is_uncovered
from engine.bunnies.options import BunniesOptions
from engine.bunnies.rulebook import RULES
from engine.bunnies.views import HIDDEN, view
from engine.reader import check_events
from engine.rules import WarrenError
from engine.simulate import simulate_one
from tests.games.bunnies.table import (
    FIVES,
    RACE_FINISH,
    RACE_OPENING,
    ROYAL,
    Table,
    court,
    header,
    late_deal,
    late_game,
    opening,
    race_deal,
    race_game,
)

ROOT = Path(__file__).resolve().parents[3]
RULINGS = (ROOT / "docs" / "rulings.md").read_text()
BUNNIES_SECTION = RULINGS.split("\n## bunnies\n", 1)[1].split("\n## ", 1)[0]


# -- the register ------------------------------------------------------------------------------
def _anchors() -> list[str]:
    return re.findall(r'<a id="(r-bun-\d+)"></a>', BUNNIES_SECTION)


def test_rulings_are_numbered_in_order_each_with_question_decision_reasoning_option() -> None:
    anchors = _anchors()
    assert anchors == [f"r-bun-{n}" for n in range(1, len(anchors) + 1)]
    assert len(anchors) >= 8
    parts = re.split(r'<a id="r-bun-\d+"></a>', BUNNIES_SECTION)[1:]
    for anchor, text in zip(anchors, parts, strict=True):
        heading = text.strip().splitlines()[0]
        assert heading.startswith(f"### {anchor.upper()} · "), heading
        for part in ("**Question.**", "**Decision.**", "**Reasoning", "**Option.**"):
            assert part in text, f"{anchor} has no {part}"


def test_every_ruling_the_code_cites_is_in_the_register() -> None:
    anchors = set(_anchors())
    cited: set[str] = set()
    for path in (ROOT / "engine" / "bunnies").glob("*.py"):
        cited |= {m.lower() for m in re.findall(r"R-BUN-\d+", path.read_text())}
    for rule in RULES.values():
        cited |= set(re.findall(r"rulings\.md#(r-bun-\d+)", rule.source))
    assert cited, "the engine cites no ruling"
    assert cited <= anchors


def test_the_options_table_matches_the_options_and_their_defaults() -> None:
    rows = re.findall(r"^\| `(\w+)` \| `([^`]+)` \|", BUNNIES_SECTION, re.M)
    defaults = msgspec.to_builtins(BunniesOptions())
    assert {name: msgspec.json.decode(value) for name, value in rows} == defaults


def test_the_register_names_only_rules_of_the_rulebook() -> None:
    named = set(re.findall(r"BUN-[A-Z]+-\d+", BUNNIES_SECTION))
    assert named <= set(RULES)


# -- R-BUN-1 -------------------------------------------------------------------------------------
def test_r_bun_1_the_dealers_opponent_opens_unless_the_option_says_the_dealer() -> None:
    assert opening().state.active == 1
    t = opening(first_seat=0)
    assert t.state.active == 0
    t.refuses("1 draw", "BUN-TURN-1")
    t.play("0 draw")


# -- R-BUN-2 -------------------------------------------------------------------------------------
def test_r_bun_2_at_the_deal_the_outer_own_cards_and_the_top_card_are_uncovered() -> None:
    state = opening().state
    free = {slot for slot in ALL_SLOTS if is_uncovered(slot, state.blinds)}
    assert free == {"0.0", "0.3", "1.0", "1.3", "top"}
    assert all(v["covered"] == (slot not in free) for slot, v in view(state, 0)["blinds"].items())


def test_r_bun_2_either_player_may_take_a_shared_card() -> None:
    t = late_game()
    t.play("1 flip top")  # seat 1 takes the top card...
    t = race_game()
    t.play("0 end", "1 lay QS", "0 flip top")  # ...and so may seat 0
    assert t.kinds() == ["blind_laid"] and t.pile[-1] == "AS"


# -- R-BUN-3 -------------------------------------------------------------------------------------
def test_r_bun_3_no_pick_up_by_choice_nor_of_an_empty_pile() -> None:
    t = opening()
    t.play("1 draw")
    t.refuses("1 pickup", "BUN-PICKUP-1")


# -- R-BUN-4 -------------------------------------------------------------------------------------
def _steal_pool(table: Table, tries: int = 200) -> set[str]:
    taken = set()
    for seed in range(tries):
        event = Steal(seq=table.state.seq + 1, actor=0, card="")
        taken.add(RULESET.randomize(table.state, event, random.Random(seed)).card)
    return taken


def test_r_bun_4_a_steal_draws_from_the_opponents_hand_only_by_default() -> None:
    t = opening()
    t.play(*FIVES)
    assert _steal_pool(t) == set(t.hands[1])


def test_r_bun_4_by_option_a_steal_may_take_an_uncovered_own_blind_card() -> None:
    t = opening(steal_from="hand_or_blind")
    t.play(*FIVES)
    uncovered_own = {t.state.blinds[s] for s in OWN_SLOTS[1] if is_uncovered(s, t.state.blinds)}
    assert uncovered_own == {"3H", "4S"}
    assert _steal_pool(t) == set(t.hands[1]) | uncovered_own
    t.refuses("0 steal 6C", "BUN-BUNNY-3")  # a shared card is nobody's to lose


def test_r_bun_4_a_steal_never_reaches_a_bunny_stack() -> None:
    t = race_deal()
    t.play(*RACE_OPENING[:8])  # seat 1 holds bunnies of 2s to 6s; seat 0 just scored 7s
    t.refuses("0 steal 6S", "BUN-END-2")
    t.play("0 steal QS")


def test_r_bun_4_with_nothing_to_take_there_is_no_steal() -> None:
    t = race_game()
    t.play("0 end", "1 lay QS")  # seat 1's hand is now empty
    t.play("0 flip 0.0", "1 flip top", "0 flip 0.3", "1 flip left", "0 flip 0.1")  # aces: super
    assert t.state.owed == "super" and t.hands[1] == []
    assert [a for a in RULESET.legal_actions(t.state, 0) if isinstance(a, Steal)] == []
    t.refuses("0 steal KD", "BUN-BUNNY-3")


# -- R-BUN-5 -------------------------------------------------------------------------------------
def test_r_bun_5_a_look_may_be_at_a_covered_card_and_only_the_looker_sees_it() -> None:
    t = court()
    t.play(*ROYAL, "0 peek 0.1")
    assert not is_uncovered("0.1", t.state.blinds)
    assert view(t.state, 0)["blinds"]["0.1"]["card"] == "2H"
    assert view(t.state, 1)["blinds"]["0.1"]["card"] == HIDDEN
    assert view(t.state, "spectator")["blinds"]["0.1"]["card"] == HIDDEN


def test_r_bun_5_a_blind_card_that_went_back_is_known_to_its_player_only() -> None:
    t = late_game()
    t.play("1 flip 1.3")
    assert view(t.state, 1)["blinds"]["1.3"]["card"] == "JS"
    assert view(t.state, 0)["blinds"]["1.3"]["card"] == HIDDEN


# -- R-BUN-6 -------------------------------------------------------------------------------------
def test_r_bun_6_each_bunny_brings_its_own_action_and_an_unused_one_lapses() -> None:
    t = late_deal()
    t.play("1 draw", "1 lay 2C 2D 2H 2S", "1 steal 7C")
    t.refuses("1 steal 7D", "BUN-BUNNY-6")
    t.play("1 lay 3C 3D 3H 3S", "1 steal 7D")  # a new bunny, a new steal
    t.play("1 lay 4C 4D 4H 4S", "1 lay 5C 5D 5H 5S")  # the 4s' steal was not taken...
    t.play("1 steal 7H")
    t.refuses("1 steal 7S", "BUN-BUNNY-6")  # ...and does not carry over to the 5s


def test_r_bun_6_an_action_is_optional() -> None:
    t = opening()
    t.play(*FIVES, "0 end")
    assert t.state.active == 1


# -- R-BUN-7 -------------------------------------------------------------------------------------
def test_r_bun_7_going_out_with_a_bunny_forfeits_its_action() -> None:
    t = race_game()
    t.play("0 flip 0.0", "1 pickup", "0 flip top", "1 pickup", "0 flip right", "1 lay KC",
           "0 flip 0.3", "1 lay AS", "0 flip left", "1 pickup", "0 flip 0.2", "1 lay AD AH AS",
           "0 flip 0.1")
    assert t.rules_cited() == ["BUN-BLIND-3", "BUN-BUNNY-1", "BUN-END-1", "BUN-END-2"]
    assert t.state.over and t.state.owed is None
    assert t.state.bunnies[0][-1] == "A"  # the bunny still counts
    t.refuses("0 steal KD", "BUN-END-1")
    t.refuses("0 end", "BUN-END-1")
    assert RULESET.legal_actions(t.state, 0) == [] and RULESET.to_act(t.state) == []


# -- R-BUN-8 -------------------------------------------------------------------------------------
def test_r_bun_8_only_the_player_who_went_out_takes_a_bonus() -> None:
    t = race_game()
    t.play(*RACE_FINISH)
    assert t.state.scores == [len(t.state.bunnies[0]) + 12, len(t.state.bunnies[1])]


def test_r_bun_8_equal_scores_make_both_players_winners() -> None:
    record_path = ROOT / "fixtures" / "bunnies" / "tie-both-win.jsonl"
    from engine.reader import read_record

    record = read_record(record_path.read_bytes(), str(record_path))
    state = RULESET.setup(record.header)
    RULESET.fold(state, record.events)
    outcome = RULESET.outcome(state)
    assert outcome is not None
    assert outcome.scores == [8, 8] and outcome.winners == [0, 1]


# -- R-BUN-9 (the property test over simulated games is in test_bunnies_properties) ----------
def test_r_bun_9_no_shared_card_is_left_when_a_player_goes_out() -> None:
    t = race_game()
    t.play(*RACE_FINISH)
    assert not set(SHARED_SLOTS) & set(t.state.blinds)


# -- R-BUN-10 ------------------------------------------------------------------------------------
def test_r_bun_10_a_blind_card_equal_to_the_top_card_is_laid() -> None:
    t = late_game()
    t.play("1 flip top")  # QD on QC
    assert t.kinds() == ["blind_laid"] and t.pile[-2:] == ["QC", "QD"]


# -- R-BUN-11 ------------------------------------------------------------------------------------
def test_r_bun_11_laying_again_with_an_empty_hand_turns_up_a_blind_card_without_a_draw() -> None:
    t = Table("2C 3C 4C", "5C 5D 5H", stock="5S 9C")
    t.play("1 draw", "1 lay 5C 5D 5H 5S")
    assert t.hands[1] == [] and t.state.stock and t.state.phase == "bunny"
    t.refuses("1 draw", "BUN-DRAW-2")
    t.refuses("1 pickup", "BUN-BUNNY-5")
    assert {type(a).__name__ for a in RULESET.legal_actions(t.state, 1)} == {"Steal", "Flip", "EndTurn"}
    t.play("1 flip 1.0")
    assert t.kinds() == ["blind_laid"] and t.pile == [t.deal.blinds[1][0]]


# -- R-BUN-12 ------------------------------------------------------------------------------------
def test_r_bun_12_a_steal_that_takes_the_last_card_in_control_ends_the_game() -> None:
    t = race_deal(steal_from="hand_or_blind")
    t.play(*RACE_OPENING, "0 steal QS", "0 lay QS", "1 flip 1.0", "0 flip 0.0", "1 flip top",
           "0 flip 0.3", "1 flip left", "0 flip 0.1", "0 flip right", "1 flip 1.2")
    assert t.hands[0] == [] and [s for s in OWN_SLOTS[0] if s in t.state.blinds] == ["0.2"]
    t.play("1 steal QD")
    assert t.kinds() == ["card_stolen", "went_out", "scored"]
    assert t.state.out == 0 and t.state.scores == [6 + 6, 6]


def test_r_bun_12_shared_cards_are_not_in_a_players_control() -> None:
    # Seat 0 goes out by its own cards alone (the shared ones went earlier, R-BUN-9).
    t = race_game()
    t.play(*RACE_FINISH[:-1])
    assert [s for s in OWN_SLOTS[0] if s in t.state.blinds] == ["0.2"]
    t.play(RACE_FINISH[-1])
    assert t.state.out == 0


# -- R-BUN-13 ------------------------------------------------------------------------------------
def test_r_bun_13_an_unfinished_record_is_legal_and_has_no_outcome() -> None:
    game = simulate_one(RULESET, 3, 0, bots=("prolong", "prolong"), max_events=300)
    assert len(game.events) == 300
    assert check_events(RULESET, game.header, game.events) is None
    state = RULESET.setup(game.header)
    RULESET.fold(state, game.events)
    assert not state.over and RULESET.outcome(state) is None and state.scores is None


# -- R-BUN-15 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("size, ok", [(0, False), (1, True), (7, True), (20, True), (21, False)])
def test_r_bun_15_hand_sizes_from_1_to_20(size: int, ok: bool) -> None:
    h = header(hand_size=size)
    if ok:
        RULESET.check_header(h)
    else:
        with pytest.raises(WarrenError, match=re.escape("hand_size must be 1..20")):
            RULESET.check_header(h)


def test_r_bun_15_unknown_or_mistyped_options_are_refused() -> None:
    for options in ({"first_seat": 2}, {"steal_from": "bunnies"}, {"hand": 7}):
        with pytest.raises(WarrenError, match="bad option for bunnies"):
            RULESET.check_header(header(**options))
