"""Every rule of Bunnies, allowing and forbidding, from known deals.

Each case names its rule id. ``ALLOW`` cases play a position and assert what the rule
lets happen; ``FORBID`` cases play up to a position and show one more action refused
with exactly that rule id, the state left untouched (see ``Table.refuses``), and the
fast fold agreeing. The last test fails when a rule of the rulebook has no case of
either kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine.bunnies import RULESET
from engine.bunnies.events import Deal, Lay
from engine.bunnies.numbers import DECK
from engine.bunnies.rulebook import RULES
from tests.games.bunnies.table import (
    FIVES,
    LATE_OPENING,
    RACE_FINISH,
    RACE_OPENING,
    ROYAL,
    SUPER,
    Table,
    court,
    late_deal,
    late_game,
    opening,
    race_deal,
    race_game,
)


@dataclass(frozen=True)
class Allow:
    rule: str
    name: str
    table: Callable[[], Table]
    actions: tuple[str, ...]
    check: Callable[[Table], None]

    def __str__(self) -> str:
        return f"{self.rule}:{self.name}"


@dataclass(frozen=True)
class Forbid:
    rule: str
    name: str
    table: Callable[[], Table]
    before: tuple[str, ...]
    action: str | Callable[[Table], Lay | Deal]

    def __str__(self) -> str:
        return f"{self.rule}:{self.name}"


def undealt() -> Table:
    return opening(dealt=False)


def _deal_again(t: Table) -> Deal:
    return Deal(seq=t.state.seq + 1, actor=None, hands=t.deal.hands, blinds=t.deal.blinds,
                shared=t.deal.shared, stock=t.deal.stock)


def _deal_with(**change: object) -> Callable[[Table], Deal]:
    def build(t: Table) -> Deal:
        fields = {"hands": t.deal.hands, "blinds": t.deal.blinds, "shared": t.deal.shared,
                  "stock": t.deal.stock, "actor": None, **change}
        return Deal(seq=t.state.seq + 1, **fields)  # type: ignore[arg-type]
    return build


def _lay(*names: str, actor: int | None = 1) -> Callable[[Table], Lay]:
    return lambda t: Lay(seq=t.state.seq + 1, actor=actor, cards=list(names))


# -- what each allowing case asserts ---------------------------------------------------------
def dealt(t: Table) -> None:
    assert t.rules_cited() == ["BUN-DEAL-1"]
    assert sorted(t.state.all_cards()) == sorted(DECK)
    assert t.hands == [["2C", "3C", "9C", "QC", "QD", "KC", "5H"], ["5C", "5D", "9D", "QH", "AC", "AD", "KS"]]
    assert (t.state.turn, t.state.active, t.state.phase) == (1, 1, "draw")
    assert t.state.stock[-1] == "5S"  # the top of the stock is drawn first


def uncovered_shared_then_own(t: Table) -> None:
    # left lay under top, and 1.1 under left: each came free when the card on it left.
    assert t.kinds() == ["blind_laid"]
    assert t.pile == ["QH"]
    assert "1.1" not in t.state.blinds and "left" not in t.state.blinds


def seat1_drew(t: Table) -> None:
    assert t.hands[1][-1] == "5S"
    assert (t.state.active, t.state.phase) == (1, "lay")


def seat0_laid_without_drawing(t: Table) -> None:
    # The stock ran out at seat 1's draw; seat 0's go began at the lay.
    assert t.state.stock == []
    assert t.pile == ["QS", "QC"]
    assert (t.state.active, t.state.phase, t.state.turn) == (1, "lay", 3)


def three_fives_laid(t: Table) -> None:
    assert t.pile == ["5C", "5D", "5S"]
    assert t.hands[1] == ["9D", "QH", "AC", "AD", "KS"]


def queen_on_queen(t: Table) -> None:
    assert t.pile == ["QH", "QC"]


def ace_on_king(t: Table) -> None:
    assert t.pile == ["KS", "KC", "AC"]


def go_passed(t: Table) -> None:
    assert t.effects[-1] == ()
    assert (t.state.active, t.state.turn, t.state.phase) == (0, 2, "draw")


def picked_up(t: Table) -> None:
    assert t.kinds() == ["pile_picked_up"]
    assert t.pile == []
    assert t.hands[0][-2:] == ["AC", "AD"]
    assert (t.state.active, t.state.turn) == (1, 3)


def flipped_with_empty_hand(t: Table) -> None:
    assert t.kinds() == ["blind_laid"]
    assert t.pile[-1] == "KD"


def shared_flipped(t: Table) -> None:
    assert t.kinds() == ["blind_laid"]
    assert t.pile == ["QS", "QC", "QD"]  # a queen on a queen: equal beats (R-BUN-10)


def blind_laid(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BLIND-3"]
    assert t.pile[-1] == "KD"
    assert "1.0" not in t.state.blinds
    assert t.state.active == 0


def blind_returned(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BLIND-4", "BUN-PICKUP-1"]
    assert t.state.blinds["1.3"] == "JS"  # back in its place
    assert "1.3" in t.state.known[1]       # and its owner now knows it
    assert t.hands[1] == ["QS", "QC"]
    assert t.pile == []
    assert t.state.active == 0


def plain_bunny(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-1"]
    assert t.state.bunnies == [["5"], []]
    assert t.pile == []
    assert (t.state.phase, t.state.owed, t.state.active) == ("bunny", "bunny", 0)


def stole(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-3"]
    assert "QH" in t.hands[0] and "QH" not in t.hands[1]


def stole_blind(t: Table) -> None:
    assert t.effects[-1][0].data == {"seat": 0, "from": 1, "card": "3H", "slot": "1.0"}
    assert "1.0" not in t.state.blinds and t.hands[0][-1] == "3H"
    assert not t.state.over  # seat 1 still holds cards


def royal_looked(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-4"]
    assert t.effects[-1][0].data["card"] == "2H"
    assert "0.1" in t.state.known[0]


def royal_stole(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-3"]
    assert t.hands[0][-1] == "3C"


def super_both(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-4"]
    assert t.state.stole and t.state.peeked
    assert "top" in t.state.known[0]


def looked_at_covered_shared(t: Table) -> None:
    assert t.effects[-1][0].data == {"seat": 0, "slot": "left", "card": "5S"}


def ended_by_choice(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BUNNY-5"]
    assert (t.state.active, t.state.phase, t.state.owed) == (1, "draw", None)


def laid_again(t: Table) -> None:
    assert t.pile == ["2C"]
    assert (t.state.active, t.state.owed) == (1, None)


def own_blind_taken(t: Table) -> None:
    assert t.kinds() == ["blind_laid"]
    assert "1.0" not in t.state.blinds


def went_out(t: Table) -> None:
    assert t.rules_cited() == ["BUN-BLIND-3", "BUN-END-1", "BUN-END-2"]
    assert t.state.over and t.state.out == 0 and t.state.phase == "over"
    assert t.state.active is None


def scored(t: Table) -> None:
    # Six bunnies, plus 3 for each of seat 1's four blind cards still down.
    assert t.state.scores == [6 + 12, 5]
    assert t.effects[-1][-1].data == {"scores": [18, 5], "bonus": 12, "opponent_blinds_left": 4}
    outcome = RULESET.outcome(t.state)
    assert outcome is not None and outcome.winners == [0] and outcome.rule == "BUN-END-2"


def turn_taken(t: Table) -> None:
    assert t.hands[1][-1] == "5S"


ALLOW: list[Allow] = [
    Allow("BUN-DEAL-1", "the deal sets out every card", opening, (), dealt),
    Allow("BUN-DEAL-2", "cards come free as the cards on them leave",
          late_game, ("1 flip top", "0 pickup", "1 flip left", "0 pickup", "1 flip 1.1"),
          uncovered_shared_then_own),
    Allow("BUN-TURN-1", "seat 1, not the dealer, opens", opening, ("1 draw",), turn_taken),
    Allow("BUN-DRAW-1", "a go begins with a draw", opening, ("1 draw",), seat1_drew),
    Allow("BUN-DRAW-2", "with the stock empty a go begins at the lay",
          late_deal, LATE_OPENING, seat0_laid_without_drawing),
    Allow("BUN-LAY-1", "three cards of one rank at once", opening,
          ("1 draw", "1 lay 5C 5D 5S"), three_fives_laid),
    Allow("BUN-LAY-2", "a queen on a queen", opening,
          ("1 draw", "1 lay QH", "0 draw", "0 lay QC"), queen_on_queen),
    Allow("BUN-LAY-2", "an ace on a king (aces high)", opening,
          ("1 draw", "1 lay KS", "0 draw", "0 lay KC", "1 draw", "1 lay AC"), ace_on_king),
    Allow("BUN-LAY-3", "a lay with no bunny passes the go", opening,
          ("1 draw", "1 lay QH"), go_passed),
    Allow("BUN-PICKUP-1", "no ace to beat the aces", opening,
          ("1 draw", "1 lay AC AD", "0 draw", "0 pickup"), picked_up),
    Allow("BUN-BLIND-1", "an empty hand turns up a blind card", late_game, ("1 flip 1.0",),
          flipped_with_empty_hand),
    Allow("BUN-BLIND-2", "a blind card still on the table", late_game, ("1 flip 1.0",),
          flipped_with_empty_hand),
    Allow("BUN-BLIND-3", "a king turned up on a queen is laid", late_game, ("1 flip 1.0",),
          blind_laid),
    Allow("BUN-BLIND-4", "a jack turned up on a queen goes back", late_game, ("1 flip 1.3",),
          blind_returned),
    Allow("BUN-BLIND-5", "a shared blind card", late_game, ("1 flip top",), shared_flipped),
    Allow("BUN-BLIND-5", "an own blind card", late_game, ("1 flip 1.0",), own_blind_taken),
    Allow("BUN-BUNNY-1", "four fives together on top", opening, FIVES, plain_bunny),
    Allow("BUN-BUNNY-2", "a plain bunny steals", opening, (*FIVES, "0 steal QH"), stole),
    Allow("BUN-BUNNY-2", "a royal bunny looks", court, (*ROYAL, "0 peek 0.1"), royal_looked),
    Allow("BUN-BUNNY-2", "a royal bunny steals", court, (*ROYAL, "0 steal 3C"), royal_stole),
    Allow("BUN-BUNNY-3", "the stolen card changes hands", opening, (*FIVES, "0 steal QH"), stole),
    Allow("BUN-BUNNY-3", "by option, an uncovered blind card of the opponent's",
          lambda: opening(steal_from="hand_or_blind"), (*FIVES, "0 steal 3H"), stole_blind),
    Allow("BUN-BUNNY-4", "a look at a covered shared card", court, (*ROYAL, "0 peek left"),
          looked_at_covered_shared),
    Allow("BUN-BUNNY-5", "ending the go after a bunny", court, (*ROYAL, "0 end"), ended_by_choice),
    Allow("BUN-BUNNY-5", "laying again after a bunny", court, (*ROYAL, "0 lay 2C"), laid_again),
    Allow("BUN-BUNNY-6", "a super bunny steals and looks, once each", court,
          (*SUPER, "0 steal 3C", "0 peek top"), super_both),
    Allow("BUN-END-1", "seat 0 lays its last blind card", race_game, RACE_FINISH, went_out),
    Allow("BUN-END-2", "bunnies plus three per blind card left", race_game, RACE_FINISH, scored),
]


FORBID: list[Forbid] = [
    Forbid("BUN-DEAL-1", "a second deal", opening, (), _deal_again),
    Forbid("BUN-DEAL-1", "a draw before the deal", undealt, (), "1 draw"),
    Forbid("BUN-DEAL-1", "a deal with a card twice", undealt, (),
           _deal_with(stock=[*opening().deal.stock[:-1], "2C"])),
    Forbid("BUN-DEAL-1", "a deal with a card missing", undealt, (),
           _deal_with(stock=opening().deal.stock[:-1])),
    Forbid("BUN-DEAL-1", "a deal with six-card hands", undealt, (),
           _deal_with(hands=[["2C", "3C", "9C", "QC", "QD", "KC"], ["5C", "5D", "9D", "QH", "AC", "AD"]])),
    Forbid("BUN-DEAL-1", "a deal by a seat", undealt, (), _deal_with(actor=0)),
    Forbid("BUN-DEAL-2", "seat 1's own card under the left shared card", late_game, (), "1 flip 1.1"),
    Forbid("BUN-DEAL-2", "the left shared card under the top one", late_game, (), "1 flip left"),
    Forbid("BUN-TURN-1", "the dealer opens", opening, (), "0 draw"),
    Forbid("BUN-TURN-1", "a null actor", opening, (), "- draw"),
    Forbid("BUN-TURN-1", "during the opponent's bunny", opening, FIVES, "1 lay 9D"),
    Forbid("BUN-DRAW-1", "a lay before the draw", opening, (), "1 lay 5C"),
    Forbid("BUN-DRAW-1", "a pick-up before the draw", opening, (), "1 pickup"),
    Forbid("BUN-DRAW-2", "a second draw", opening, ("1 draw",), "1 draw"),
    Forbid("BUN-DRAW-2", "a draw from the empty stock", late_game, (), "1 draw"),
    Forbid("BUN-LAY-1", "two ranks at once", opening, ("1 draw",), "1 lay 5C 9D"),
    Forbid("BUN-LAY-1", "the opponent's card", opening, ("1 draw",), "1 lay 2C"),
    Forbid("BUN-LAY-1", "no card", opening, ("1 draw",), "1 lay"),
    Forbid("BUN-LAY-1", "one card twice", opening, ("1 draw",), "1 lay 5C 5C"),
    Forbid("BUN-LAY-1", "an empty card name", opening, ("1 draw",), _lay("")),
    Forbid("BUN-LAY-1", "an empty name after a good card", opening, ("1 draw",), _lay("5C", "")),
    Forbid("BUN-LAY-1", "not a card", opening, ("1 draw",), "1 lay ZZ"),
    Forbid("BUN-LAY-2", "a nine on a queen", opening, ("1 draw", "1 lay QH", "0 draw"), "0 lay 9C"),
    Forbid("BUN-LAY-2", "a king on an ace", opening, ("1 draw", "1 lay AC", "0 draw"), "0 lay KC"),
    Forbid("BUN-LAY-3", "laying again after a lay", opening, ("1 draw", "1 lay QH"), "1 lay AC"),
    Forbid("BUN-LAY-3", "laying again once the opponent drew", opening,
           ("1 draw", "1 lay QH", "0 draw"), "1 lay AC"),
    Forbid("BUN-PICKUP-1", "picking up with a queen in hand", opening,
           ("1 draw", "1 lay QH", "0 draw"), "0 pickup"),
    Forbid("BUN-PICKUP-1", "picking up an empty pile", opening, ("1 draw",), "1 pickup"),
    Forbid("BUN-PICKUP-1", "laying after picking up", opening,
           ("1 draw", "1 lay AC AD", "0 draw", "0 pickup"), "0 lay AC"),
    Forbid("BUN-BLIND-1", "a blind card while holding cards", opening, ("1 draw",), "1 flip 1.0"),
    Forbid("BUN-BLIND-1", "a pick-up with an empty hand", late_game, (), "1 pickup"),
    Forbid("BUN-BLIND-2", "a slot with no card", late_game, (), "1 flip 1.9"),
    Forbid("BUN-BLIND-2", "a blind card already laid", late_game, ("1 flip 1.0", "0 pickup"),
           "1 flip 1.0"),
    Forbid("BUN-BLIND-3", "a blind card laid as if from hand", late_game, (), "1 lay KD"),
    Forbid("BUN-BLIND-3", "a shared blind card laid as if from hand", late_game, (), "1 lay QD"),
    Forbid("BUN-BLIND-4", "playing on after the blind card went back", late_game,
           ("1 flip 1.3",), "1 lay QS"),
    Forbid("BUN-BLIND-5", "the opponent's blind card", late_game, (), "1 flip 0.0"),
    Forbid("BUN-BUNNY-1", "a steal after three of a kind", opening,
           ("1 draw", "1 lay 5C 5D 5S", "0 draw"), "0 steal QH"),
    Forbid("BUN-BUNNY-1", "a look with no bunny", opening, ("1 draw",), "1 peek 1.0"),
    Forbid("BUN-BUNNY-1", "a card of a scored bunny laid again", opening, FIVES, "0 lay 5H"),
    Forbid("BUN-BUNNY-2", "a look after a plain bunny", opening, FIVES, "0 peek 0.0"),
    Forbid("BUN-BUNNY-2", "a royal bunny's look after its steal", court,
           (*ROYAL, "0 steal 3C"), "0 peek 0.0"),
    Forbid("BUN-BUNNY-2", "a royal bunny's steal after its look", court,
           (*ROYAL, "0 peek 0.0"), "0 steal 3C"),
    Forbid("BUN-BUNNY-3", "a card the opponent does not hold", opening, FIVES, "0 steal 2C"),
    Forbid("BUN-BUNNY-3", "the opponent's blind card, by default", opening, FIVES, "0 steal 3H"),
    Forbid("BUN-BUNNY-3", "a covered blind card, even by option",
           lambda: opening(steal_from="hand_or_blind"), FIVES, "0 steal 3S"),
    Forbid("BUN-BUNNY-4", "a look at the opponent's blind card", court, ROYAL, "0 peek 1.0"),
    Forbid("BUN-BUNNY-4", "a look at an empty slot", court, ROYAL, "0 peek 0.9"),
    Forbid("BUN-BUNNY-5", "ending a go without a bunny", opening, ("1 draw",), "1 end"),
    Forbid("BUN-BUNNY-5", "picking up after a bunny", court, ROYAL, "0 pickup"),
    Forbid("BUN-BUNNY-5", "playing on after ending the go", court, (*ROYAL, "0 end"), "0 lay 2C"),
    Forbid("BUN-BUNNY-6", "a plain bunny's second steal", opening, (*FIVES, "0 steal QH"),
           "0 steal AC"),
    Forbid("BUN-BUNNY-6", "a royal bunny's second look", court, (*ROYAL, "0 peek 0.0"),
           "0 peek 0.1"),
    Forbid("BUN-BUNNY-6", "a super bunny's second steal", court, (*SUPER, "0 steal 3C"),
           "0 steal 4C"),
    Forbid("BUN-END-1", "a lay after the end", race_game, RACE_FINISH, "1 lay QS"),
    Forbid("BUN-END-1", "a lay with a null actor after the end", race_game, RACE_FINISH,
           _lay("QS", actor=None)),
    Forbid("BUN-END-1", "a deal after the end", race_game, RACE_FINISH, _deal_again),
    Forbid("BUN-END-2", "a steal from the opponent's bunny stack", race_deal,
           RACE_OPENING[:8], "0 steal 2C"),
]


@pytest.mark.parametrize("case", ALLOW, ids=str)
def test_allows(case: Allow) -> None:
    table = case.table()
    table.play(*case.actions)
    case.check(table)


@pytest.mark.parametrize("case", FORBID, ids=str)
def test_forbids(case: Forbid) -> None:
    table = case.table()
    table.play(*case.before)
    action = case.action if isinstance(case.action, str) else case.action(table)
    refused = table.refuses(action, case.rule)
    assert refused.message
    assert case.rule in RULES
    table.fold_refuses(case.action if isinstance(case.action, str) else case.action(table), case.rule)


def test_every_rule_is_shown_allowing_and_forbidding() -> None:
    allowed = {case.rule for case in ALLOW}
    forbidden = {case.rule for case in FORBID}
    assert set(RULES) - allowed == set(), "rules with no allowing case"
    assert set(RULES) - forbidden == set(), "rules with no forbidding case"
    assert allowed | forbidden <= set(RULES), "cases naming rules the rulebook lacks"


def test_every_rule_cites_a_section_and_reads_as_a_paraphrase() -> None:
    for rule in RULES.values():
        assert rule.source.startswith("bunnies-two-player.txt §")
        assert rule.text.endswith(".") and len(rule.text) < 240


# -- details the tables do not show ----------------------------------------------------------
def test_a_refusal_names_the_facts_that_decided_it() -> None:
    t = opening()
    t.play("1 draw", "1 lay QH", "0 draw")
    refused = t.refuses("0 lay 9C", "BUN-LAY-2")
    assert refused.facts == {"top": "QH", "laid": ["9C"]}


def test_a_king_turned_up_on_an_ace_goes_back() -> None:
    # Aces are high for blind cards too: only an ace beats an ace.
    t = late_game()
    t.play("1 flip top", "0 pickup", "1 flip left")  # AH on the empty pile
    assert t.pile == ["AH"]
    t.play("0 pickup", "1 flip right")               # KS on the empty pile again
    t.play("0 lay AH")                               # seat 0 must lay its picked-up ace
    t.play("1 flip 1.0")                             # KD cannot beat AH
    assert t.rules_cited() == ["BUN-BLIND-4", "BUN-PICKUP-1"]


def test_four_cards_of_a_rank_laid_at_once_are_a_bunny() -> None:
    t = late_deal()
    effects = t.play("1 draw", "1 lay 2C 2D 2H 2S")
    assert [e.kind for e in effects] == ["bunny_scored"]
    assert effects[0].data == {"seat": 1, "rank": "2", "kind": "bunny",
                               "cards": ["2C", "2D", "2H", "2S"]}


def test_three_of_a_rank_with_another_card_between_are_no_bunny() -> None:
    # The four must lie together on top: Q Q K ... Q is not a bunny.
    t = opening()
    t.play("1 draw", "1 lay QH", "0 draw", "0 lay QC QD", "1 draw", "1 lay KS", "0 draw")
    assert t.pile == ["QH", "QC", "QD", "KS"]
    t.play("0 lay KC")
    assert t.state.bunnies == [[], []] and t.state.phase == "draw"
