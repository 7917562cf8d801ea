"""Bunnies recorded at a real table: unknown cards, reveals, and undetermined verdicts
(R-BUN-17, REC-UNK-1..3)."""

from __future__ import annotations

import pytest

from engine.bunnies import RULESET
from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.words import describe, short_spellings
from engine.hidden import UNKNOWN, is_undetermined
from engine.record import FORMAT_VERSION, Event, Header, Player
from engine.redact import redact_game
from engine.rules import RuleViolation
from tests.scenarios.bunnies import deal_deck, stack_deck

U = UNKNOWN
PLAYERS = [Player(seat=0, name="Ann"), Player(seat=1, name="Bo")]


def header(source: str = "recorded", **options: object) -> Header:
    return Header(warren=FORMAT_VERSION, kind="header", game_id="table", ruleset="bunnies",
                  options={"first_seat": 0, **options}, players=PLAYERS, source=source,  # type: ignore[arg-type]
                  created="2026-12-01T10:00:00Z")


def blind_deal() -> Deal:
    """Nobody saw anything: every card unknown, the stock 27 unknown cards."""
    return Deal(seq=1, actor=None, hands=[[U] * 7, [U] * 7], blinds=[[U] * 4, [U] * 4], shared=[U] * 3,
                stock=[U] * 27)


def play(events: list[Event], source: str = "recorded") -> tuple[object, list[tuple]]:
    state = RULESET.setup(header(source))
    effects = []
    for event in events:
        effects.append(RULESET.apply(state, event))
    return state, effects


def test_unknown_cards_come_to_light_when_laid() -> None:
    state, _ = play([blind_deal(), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["9C"])])
    assert state.pile == ["9C"] and state.hands[0].count(U) == 7  # 8 cards, one named and laid
    assert "9C" not in state.pool


def test_a_card_comes_to_light_only_once() -> None:
    events = [blind_deal(), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["9C"]),
              Draw(seq=4, actor=1), Lay(seq=5, actor=1, cards=["9C"])]
    with pytest.raises(RuleViolation) as err:
        play(events)
    assert err.value.rule == "BUN-LAY-1"
    # Two cards of one rank from unknown cards, the second seen nowhere yet: fine.
    events[-1] = Lay(seq=5, actor=1, cards=["9D", "9H"])
    state, _ = play(events)
    assert state.pile == ["9C", "9D", "9H"]


def test_only_a_recorded_game_leaves_cards_unknown() -> None:
    with pytest.raises(RuleViolation) as err:
        play([blind_deal()], source="simulated")
    assert err.value.rule == "REC-UNK-1"
    state, _ = play([blind_deal()], source="recorded")
    assert len(state.pool) == 52


def test_a_deal_names_each_card_once_and_fills_the_deck() -> None:
    bad = Deal(seq=1, actor=None, hands=[["9C", *[U] * 6], ["9C", *[U] * 6]], blinds=[[U] * 4, [U] * 4],
               shared=[U] * 3, stock=[U] * 27)
    with pytest.raises(RuleViolation, match="exactly once") as err:
        play([bad])
    assert err.value.rule == "BUN-DEAL-1"
    short = Deal(seq=1, actor=None, hands=[[U] * 7, [U] * 7], blinds=[[U] * 4, [U] * 4], shared=[U] * 3,
                 stock=[U] * 26)
    with pytest.raises(RuleViolation):
        play([short])


def test_a_pickup_that_unseen_cards_might_have_avoided_is_undetermined() -> None:
    events = [blind_deal(), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["9C"]),
              Draw(seq=4, actor=1), Pickup(seq=5, actor=1)]
    state, effects = play(events)
    doubt = [e for e in effects[-1] if is_undetermined(e)]
    assert len(doubt) == 1 and doubt[0].rule == "BUN-PICKUP-1"
    assert doubt[0].data["needs"] == "legal only if seat 1's hand held no card of rank 9 or higher"
    assert state.hands[1][-1] == "9C"


def test_a_pickup_under_an_ace_needs_no_ace_in_words() -> None:
    """An ace on top: only an ace could have been laid, and the need says so plainly."""
    events = [blind_deal(), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["AC"]),
              Draw(seq=4, actor=1), Pickup(seq=5, actor=1)]
    _, effects = play(events)
    doubt = [e for e in effects[-1] if is_undetermined(e)]
    assert [d.data["needs"] for d in doubt] == ["legal only if seat 1's hand held no ace"]


def test_a_pickup_the_known_cards_forbid_is_illegal_even_with_unknowns() -> None:
    events = [Deal(seq=1, actor=None, hands=[[U] * 7, ["KC", *[U] * 6]], blinds=[[U] * 4, [U] * 4],
                   shared=[U] * 3, stock=[U] * 27),
              Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["9C"]), Draw(seq=4, actor=1),
              Pickup(seq=5, actor=1)]
    with pytest.raises(RuleViolation) as err:
        play(events)
    assert err.value.rule == "BUN-PICKUP-1"


def test_a_pickup_no_unseen_card_could_have_avoided_is_legal() -> None:
    # Every card of rank above 2... the aces are all laid: an ace on top cannot be beaten by
    # an unseen card once the other three aces are known elsewhere.
    deal = Deal(seq=1, actor=None, hands=[["AC", "AD", "AH", *[U] * 4], [U] * 7], blinds=[[U] * 4, [U] * 4],
                shared=["AS", U, U], stock=[U] * 27)
    events = [deal, Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["AC"]), Draw(seq=4, actor=1),
              Pickup(seq=5, actor=1)]
    _, effects = play(events)
    assert not [e for e in effects[-1] if is_undetermined(e)], "AD, AH and AS are known elsewhere"


def test_a_flip_of_an_unknown_blind_card_names_it() -> None:
    state = RULESET.setup(header(hand_size=1))
    RULESET.apply(state, Deal(seq=1, actor=None, hands=[["5C"], [U]], blinds=[[U] * 4, [U] * 4],
                              shared=[U] * 3, stock=[U] * 39))
    state.stock.clear()  # scaffolding: a game whose stock has run out
    state.phase = "lay"
    RULESET.apply(state, Lay(seq=2, actor=0, cards=["5C"]))
    RULESET.apply(state, Lay(seq=3, actor=1, cards=["6C"]))  # the unknown card comes to light
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(state), Flip(seq=4, actor=0, slot="0.0"))
    assert err.value.rule == "REC-UNK-3"
    RULESET.apply(state, Flip(seq=4, actor=0, slot="0.0", card="QC"))
    assert state.pile[-1] == "QC" and "0.0" not in state.blinds
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(state), Flip(seq=5, actor=1, slot="1.0", card="QC"))
    assert err.value.rule == "REC-UNK-2"
    RULESET.apply(state, Flip(seq=5, actor=1, slot="1.0", card="KC"))
    assert state.pile[-1] == "KC"


def test_an_unseen_steal_makes_the_victims_cards_unknown_again() -> None:
    state = RULESET.setup(header(hand_size=3))
    deal = Deal(seq=1, actor=None, hands=[["2C", "2D", "2H"], ["KC", "KD", "KH"]], blinds=[[U] * 4, [U] * 4],
                shared=[U] * 3, stock=[U] * 35)
    for event in [deal, Draw(seq=2, actor=0, card="2S"), Lay(seq=3, actor=0, cards=["2C", "2D", "2H", "2S"])]:
        RULESET.apply(state, event)
    assert state.phase == "bunny"
    RULESET.apply(state, Steal(seq=4, actor=0, card=U))
    assert state.hands[1] == [U, U] and state.hands[0] == [U]
    assert {"KC", "KD", "KH"} <= set(state.pool.unseen)
    RULESET.apply(state, EndTurn(seq=5, actor=0))
    RULESET.apply(state, Draw(seq=6, actor=1))
    RULESET.apply(state, Lay(seq=7, actor=1, cards=["KD"]))  # one of the two unknown cards


def test_peeks_and_draws_named_in_a_players_own_record_are_checked() -> None:
    game_deal = Deal(seq=1, actor=None, hands=[[U] * 7, [U] * 7], blinds=[[U] * 4, [U] * 4], shared=[U] * 3,
                     stock=["4H"] + [U] * 26)  # the top of the stock first
    state = RULESET.setup(header())
    RULESET.apply(state, game_deal)
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(state), Draw(seq=2, actor=0, card="5H"))
    assert err.value.rule == "REC-UNK-2"
    RULESET.apply(state, Draw(seq=2, actor=0, card="4H"))
    assert "4H" in state.hands[0]
    assert Peek(seq=9, actor=0, slot="0.1", card="7S").card == "7S"


def test_redacting_a_game_for_the_table_hides_every_unseen_card() -> None:
    deck = stack_deck((["2C", "3C", "4C", "5C", "6C", "7C", "8C"],
                       ["2D", "3D", "4D", "5D", "6D", "7D", "8D"]))
    events: list[Event] = [deal_deck(deck), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["2C"])]
    full = Header(warren=FORMAT_VERSION, kind="header", game_id="g", ruleset="bunnies",
                  options={"first_seat": 0}, players=PLAYERS, source="simulated",
                  created="2026-12-01T10:00:00Z")
    table_header, table = redact_game(RULESET, full, events, "spectator")
    assert table_header.source == "recorded"
    assert set(table[0].hands[0]) == {U} and table[1].card is None
    _, ann = redact_game(RULESET, full, events, 0)
    assert ann[0].hands[0] == deck[:7] and set(ann[0].hands[1]) == {U}
    assert ann[1].card == deck[25], "Ann's record names the card she drew: the top of the stock"


def test_a_dispute_at_the_table_can_be_undetermined() -> None:
    from engine.dispute import judge

    state, _ = play([blind_deal(), Draw(seq=2, actor=0), Lay(seq=3, actor=0, cards=["9C"]),
                     Draw(seq=4, actor=1)])
    verdict = judge(RULESET, state, "pickup", n_seats=2)
    assert verdict.status == "undetermined" and verdict.legal
    assert verdict.to_dict()["undetermined"] == [
        {"rule": "BUN-PICKUP-1", "needs": "legal only if seat 1's hand held no card of rank 9 or higher"}]
    assert judge(RULESET, state, "lay 9D", n_seats=2).status == "legal"  # an unknown card comes to light
    assert judge(RULESET, state, "lay 5D", n_seats=2).status == "illegal"


def _after_a_bunny(source: str = "recorded", **options: object) -> object:
    """Seat 0 has just scored a plain bunny (its steal owed); every blind card unknown to the
    record, seat 1's hand known."""
    state = RULESET.setup(header(source, hand_size=3, **options))
    deal = Deal(seq=1, actor=None, hands=[["2C", "2D", "2H"], ["KC", "KD", "KH"]], blinds=[[U] * 4, [U] * 4],
                shared=[U] * 3, stock=[U] * 35)
    for event in [deal, Draw(seq=2, actor=0, card="2S"), Lay(seq=3, actor=0, cards=["2C", "2D", "2H", "2S"])]:
        RULESET.apply(state, event)
    assert state.phase == "bunny"
    return state


def test_a_blind_card_nobody_saw_is_stolen_by_its_slot() -> None:
    state = _after_a_bunny(steal_from="hand_or_blind")
    offered = [e for e in RULESET.legal_actions(state, 0) if isinstance(e, Steal) and e.slot]
    assert sorted(e.slot for e in offered) == ["1.0", "1.3"]  # the uncovered ones of seat 1
    assert all(e.card == U for e in offered)
    effects = RULESET.apply(state, Steal(seq=4, actor=0, card=U, slot="1.3"))
    assert "1.3" not in state.blinds and state.hands[0] == [U]
    assert state.hands[1] == ["KC", "KD", "KH"]  # the hand is untouched: the table saw which card left
    assert [(e.kind, e.data["slot"]) for e in effects] == [("card_stolen", "1.3")]
    said = describe(Steal(seq=4, actor=0, card=U, slot="1.3"), {"card": U}, ["Ann", "Bo"])
    assert said == "Ann steals Bo's blind card 4"


def test_a_stolen_blind_card_named_in_the_record_comes_to_light_once() -> None:
    state = _after_a_bunny(steal_from="hand_or_blind")
    with pytest.raises(RuleViolation) as err:  # seat 1 holds the king of clubs: not a blind card
        RULESET.apply(RULESET.copy_state(state), Steal(seq=4, actor=0, card="KC", slot="1.0"))
    assert err.value.rule == "REC-UNK-2"
    RULESET.apply(state, Steal(seq=4, actor=0, card="QS", slot="1.0"))
    assert state.hands[0] == ["QS"] and "QS" not in state.pool


@pytest.mark.parametrize(("slot", "why"), [("1.1", "covered by the left shared card"),
                                           ("0.0", "the thief's own"), ("left", "shared"),
                                           ("1.9", "no such slot")])
def test_a_steal_takes_only_an_uncovered_blind_card_of_the_opponent(slot: str, why: str) -> None:
    state = _after_a_bunny(steal_from="hand_or_blind")
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(state, Steal(seq=4, actor=0, card=U, slot=slot))
    assert err.value.rule == "BUN-BUNNY-3", why
    assert not state.stole and len(state.blinds) == 11  # nothing changed


def test_a_blind_card_is_stolen_only_under_the_option() -> None:
    state = _after_a_bunny()
    assert not [e for e in RULESET.legal_actions(state, 0) if isinstance(e, Steal) and e.slot]
    with pytest.raises(RuleViolation, match="steal_from: hand_or_blind") as err:
        RULESET.apply(state, Steal(seq=4, actor=0, card=U, slot="1.0"))
    assert err.value.rule == "BUN-BUNNY-3"


def test_a_game_not_recorded_names_the_stolen_blind_card() -> None:
    deck = stack_deck((["2C", "2D", "2H"], ["KC", "KD", "KH"]),
                      blinds=(["3C", "4C", "5C", "6C"], ["7C", "8C", "9C", "TC"]), stock_top=["2S"],
                      hand_size=3)
    state = RULESET.setup(header("simulated", hand_size=3, steal_from="hand_or_blind"))
    for event in [deal_deck(deck, hand_size=3), Draw(seq=2, actor=0),
                  Lay(seq=3, actor=0, cards=["2C", "2D", "2H", "2S"])]:
        RULESET.apply(state, event)
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(state), Steal(seq=4, actor=0, card=U, slot="1.3"))
    assert err.value.rule == "REC-UNK-1"
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(RULESET.copy_state(state), Steal(seq=4, actor=0, card="7C", slot="1.3"))
    assert err.value.rule == "REC-UNK-2"  # the card there is the ten of clubs
    RULESET.apply(state, Steal(seq=4, actor=0, card="TC", slot="1.3"))
    assert state.hands[0] == ["TC"]


def test_the_table_sees_which_blind_card_was_stolen_not_its_face() -> None:
    state = _after_a_bunny(steal_from="hand_or_blind")
    before = RULESET.copy_state(state)
    RULESET.apply(state, Steal(seq=4, actor=0, card="QS", slot="1.0"))
    seen = RULESET.redact(Steal(seq=4, actor=0, card="QS", slot="1.0"), "table", before)
    assert isinstance(seen, Steal) and seen.slot == "1.0" and seen.card == U


def test_a_blind_card_is_spelled_by_its_place_as_the_words_name_it() -> None:
    # the recorder reads these among the actions allowed now (columns counted 1 to 4)
    assert short_spellings(Flip(seq=9, actor=0, slot="0.1", card="QS")) == (
        "flip blind 2 QS", "flip blind card 2 QS")
    assert short_spellings(Peek(seq=9, actor=0, slot="left")) == (
        "peek left shared", "peek the left shared blind card")
    assert short_spellings(Steal(seq=9, actor=0, card=U, slot="1.3")) == (
        "steal blind 4", "steal blind card 4")
    assert short_spellings(Steal(seq=9, actor=0, card="QS")) == ()  # from the hand: no place
