"""Killer Bunnies Odyssey beyond the dispute table: the two hand-size readings side by side,
the agenda, views and what each seat saw, options, games recorded at the table, simulation.

The dispute table (tests/engine/dispute_tables/killer-bunnies-odyssey.json) shows every rule
allowing and forbidding; these tests look at what a single verdict cannot."""

from __future__ import annotations

import random

import msgspec
import pytest

from engine.dispute import Dispute, render_verdict, rerun
from engine.hidden import UNDETERMINED
from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.events import Bottom, Discard, Flip, Place, Play
from engine.killer_bunnies_odyssey.flow import kill_creature
from engine.killer_bunnies_odyssey.numbers import STARTER_DECKS
from engine.killer_bunnies_odyssey.table import cards, change_civ, totals
from engine.pending import Deadline
from engine.reader import check_events
from engine.rules import RuleViolation
from engine.simulate import simulate_one
from tests.scenarios.killer_bunnies_odyssey_games import (
    board,
    duel,
    mulligan,
    race,
    seven,
    table_record,
    trio,
)


def _dispute(g):  # type: ignore[no-untyped-def]
    return Dispute.of_record(RULESET, g.sc.header, g.sc.events)


# -- the hand size: both readings --------------------------------------------------------------------


def test_a_sixth_card_at_the_start_gives_both_verdicts() -> None:
    g = mulligan()
    verdict = _dispute(g).verdict("draw actor=0", at=g.marks["ran"])
    assert verdict.status == "illegal" and verdict.rule is not None and verdict.rule.id == "ODY-HAND-1"
    assert verdict.facts["other_reading"] == {"hand_size": 7, "verdict": "legal"}
    text = render_verdict(verdict)
    assert "under the 7-card reading it would be legal" in text
    g7 = seven()
    other = _dispute(g7).verdict("draw", at=g7.marks["refill"])
    assert other.status == "legal"
    differs = [e for e in other.effects if e.kind == "reading_differs"]
    assert differs and differs[0].data["other_hand_size"] == 5
    assert differs[0].data["other_rule"] == "ODY-HAND-1"


def test_a_trade_of_hand_cards_and_a_hexascrewup_give_both_verdicts() -> None:
    g = board()
    d = _dispute(g)
    trade = d.verdict("trade 0 give_hand=WG22 take_hand=WB27", at=g.marks["bo-turn2"])
    assert trade.status == "legal"
    assert any(e.kind == "reading_differs" and e.data["other_verdict"] == "illegal" for e in trade.effects)
    m = mulligan()
    st = RULESET.setup(m.sc.header)
    RULESET.fold(st, m.sc.events)
    card = cards(st).code(st.seats[1].hand[0])
    hex_ = _dispute(m).verdict(f"hexascrewup 1 {card} actor=0", at=m.marks["extra-card"])
    assert hex_.status == "legal"
    assert any(e.kind == "reading_differs" and e.data["other_rule"] == "ODY-HEX-1" for e in hex_.effects)


def test_rerun_under_the_other_hand_size_shows_where_the_game_diverges() -> None:
    g = board()
    result = rerun(RULESET, g.sc.header, g.sc.events, {"hand_size": 7})
    first = result.first_difference
    assert first is not None and first.seq == 4
    assert first.variant["status"] == "illegal" and first.variant["rule"]["id"] == "ODY-HAND-1"
    back = seven()
    other = rerun(RULESET, back.sc.header, back.sc.events, {"hand_size": 5})
    assert other.first_difference is not None and other.first_difference.seq == 4
    assert other.first_difference.variant["rule"]["id"] == "ODY-HAND-1"


# -- the agenda ------------------------------------------------------------------------------------


def test_a_cut_is_owed_by_every_opponent_and_settled_by_the_first() -> None:
    g = mulligan()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["to-cut"]])
    agenda = RULESET.pending(state)
    assert sorted(agenda.decisions) == [0] and agenda.decisions[0].kind == "cut"
    t = trio()
    state = RULESET.setup(t.sc.header)
    RULESET.fold(state, t.sc.events[:t.marks["kidnap"]])
    state.shuffles.append(0)
    state.seats[0].draw.sort()
    agenda = RULESET.pending(state)
    assert agenda.chance is not None and agenda.chance.kind == "shuffle"
    RULESET.apply(state, RULESET.sample_chance(state, agenda.chance, random.Random(1)))  # type: ignore[arg-type]
    assert sorted(RULESET.pending(state).decisions) == [1, 2]


def test_feed_demands_stand_as_deadlines_and_windows_open_for_answers() -> None:
    g = board()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["feed-due"]])
    agenda = RULESET.pending(state)
    deadlines = [s for s in agenda.standing if isinstance(s, Deadline)]
    assert len(deadlines) == 1 and deadlines[0].rule == "ODY-FEED-1" and deadlines[0].at.seat == 0
    assert agenda.windows and agenda.windows[0].seats == (1,)
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["zap-waits"]])
    agenda = RULESET.pending(state)
    assert agenda.chance is not None and agenda.chance.seat == 1  # Bo rolls for his bunny
    assert agenda.windows[0].seats == (0, 1)  # a Very Special answer before the roll
    answers = RULESET.legal_actions(state, 1)
    assert any(getattr(a, "card", None) == "WG27" for a in answers)


def test_an_acquired_creature_is_placed_again_by_its_new_owner() -> None:
    g = board()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["bo-turn2"]])
    bunny = g.piece("WG06")
    ada_saved = state.seats[0].saved[0]
    trade = g.sc.rs.decode_event({"type": "trade", "seq": state.seq + 1, "actor": 1, "partner": 0,
                                  "give": [bunny], "take": [ada_saved]})
    RULESET.apply(state, trade)
    assert state.placing == [bunny] and state.pieces[bunny].owner == 0
    agenda = RULESET.pending(state)
    assert agenda.decisions[0].kind == "place" and agenda.decisions[0].off_turn
    places = RULESET.legal_actions(state, 0)
    assert places and all(isinstance(p, Place) for p in places)
    RULESET.apply(state, places[0])
    assert state.pieces[bunny].where == "circle" and state.pieces[bunny].traded
    again = g.sc.rs.decode_event({"type": "place", "seq": state.seq + 1, "actor": 0, "piece": bunny,
                                  "at": 0})
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(state.copy(), again)
    assert err.value.rule == "ODY-POS-1"


# -- views ------------------------------------------------------------------------------------------


def test_hands_run_cards_and_draw_piles_are_hidden_saved_cards_face_up() -> None:
    g = board()
    state = g.sc.state
    ada = RULESET.view(state, 0)
    table = RULESET.view(state, "spectator")
    referee = RULESET.view(state, "referee")
    assert isinstance(ada["seats"][0]["hand"], list) and ada["seats"][1]["hand"] == 5
    assert ada["seats"][1]["run"] == {"top": "hidden", "bottom": "hidden"}
    assert ada["seats"][0]["run"]["top"] not in (None, "hidden")
    assert table["seats"][0]["hand"] == 5 and table["seats"][0]["draw"] == len(state.seats[0].draw)
    assert isinstance(referee["seats"][0]["draw"], list)
    assert table["seats"][1]["saved"] == referee["seats"][1]["saved"] != []
    assert table["center"] == referee["center"] and table["circle"] == referee["circle"]


def test_what_a_player_put_face_down_is_his_own() -> None:
    g = board()
    bottom = next(e for e in g.sc.events if isinstance(e, Bottom))
    shuffle = g.sc.events[0]
    assert RULESET.event_view(bottom, "spectator")["card"] == "?"
    assert RULESET.event_view(bottom, bottom.actor)["card"] != "?"  # type: ignore[arg-type]
    assert "order" not in RULESET.event_view(shuffle, 0)
    assert "order" in RULESET.event_view(shuffle, "referee")


# -- a game recorded at the table --------------------------------------------------------------------


def test_a_game_recorded_at_the_table_is_checked_as_far_as_it_can_be() -> None:
    g = table_record()
    assert check_events(RULESET, g.sc.header, g.sc.events) is None
    state = RULESET.setup(g.sc.header)
    doubts = []
    for event in g.sc.events:
        doubts += [e for e in RULESET.apply(state, event) if e.kind == UNDETERMINED]
    assert [d.rule for d in doubts] == ["ODY-MULL-1", "ODY-CARD-7", "ODY-HEX-1"]
    view = RULESET.view(state, "referee")
    assert view["seats"][0]["hand"].count("?") == 5 and view["circle"][0]["card"] == "WB03"


def test_a_card_the_deck_cannot_hold_is_refused_at_the_table() -> None:
    g = table_record()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["spy"]])
    twice = RULESET.decode_event({"type": "flip", "seq": state.seq + 1, "actor": 0, "how": "save",
                                  "card": "WG01"})
    with pytest.raises(RuleViolation) as err:
        RULESET.apply(state.copy(), twice)
    assert err.value.rule == "REC-UNK-2"


def test_at_the_table_the_cards_nobody_saw_are_offered_by_name() -> None:
    # REC-UNK-3: a top run card nobody saw is named when it is flipped; so the turn offers a
    # flip of every card of the deck not seen yet, and only those, each one accepted
    g = table_record()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["spy"]])
    seat = state.active
    assert seat == 0 and state.seats[0].run.top == 0
    offers = RULESET.legal_actions(state, seat)
    flips = [e for e in offers if isinstance(e, Flip)]
    pool = state.seats[0].unseen
    assert pool is not None
    named = {e.card for e in flips}
    assert named == {code for code, n in pool.unseen.items() if n > 0}
    assert "WG01" not in named  # Bo's deck, not Ada's
    for event in flips:
        RULESET.apply(state.copy(), event)
    # the Special played from a hand nobody saw is among the offers too, and is accepted
    spy = g.sc.events[g.marks["spy"]]
    assert any(e == msgspec.structs.replace(spy, hash=None) for e in offers if isinstance(e, Play))
    # a hand of cards nobody saw may hold only what the deck has not shown elsewhere
    held = {cards(state).code(k) for k in state.seats[0].hand if k}
    from_hand = {e.card for e in offers if isinstance(e, Play | Discard)}
    assert from_hand and from_hand <= named | held


# -- options -----------------------------------------------------------------------------------------


def test_occupants_count_toward_the_total_unless_the_option_says_not() -> None:
    g = race()
    assert RULESET.outcome(g.sc.state) is not None
    h = race(options={"occupants_score": False})
    assert h.sc.state.over is False
    assert totals(h.sc.state)[0] < totals(g.sc.state)[0]


def test_the_d20_keeps_to_its_faces_unless_open() -> None:
    g = mulligan()
    state = g.sc.state
    effects = change_civ(state, 0, 15, "ODY-CARD-2", "test")
    assert state.seats[0].civ == 20 and effects[-1].kind == "civ_bounded"
    h = mulligan(options={"civ_bounds": "open"})
    state = h.sc.state
    change_civ(state, 0, 15, "ODY-CARD-2", "test")
    assert state.seats[0].civ == 25


def test_border_dispute_hits_the_one_opponent_once_or_twice() -> None:
    for twice, loss in ((False, 2), (True, 4)):
        g = duel(options={"adjacent_twice": twice})
        state = RULESET.setup(g.sc.header)
        RULESET.fold(state, g.sc.events[:g.marks["border"]])
        before = state.seats[1].civ
        play = RULESET.decode_event({"type": "play", "seq": state.seq + 1, "actor": 0, "card": "WV23"})
        RULESET.apply(state, play)
        assert before - state.seats[1].civ == loss


def test_resources_come_back_at_the_round_or_at_their_owners_turn() -> None:
    used = {}
    for reset in ("round", "own_turn"):
        g = board(options={"resource_reset": reset})
        state = RULESET.setup(g.sc.header)
        RULESET.fold(state, g.sc.events[:g.marks["zap"]])  # Ada's turn; Bo paid on his last one
        used[reset] = sum(state.pieces[p].used for p in state.seats[1].saved)
    assert used == {"round": 0, "own_turn": 2}


def _kinds(index: int, option: str) -> set[str]:
    game = simulate_one(RULESET, 5, index, players=2, options={"empty_pile": option})
    state = RULESET.setup(game.header)
    return {e.kind for ev in game.events for e in RULESET.apply(state, ev)}


def test_an_empty_pile_is_made_again_unless_the_option_stops_it() -> None:
    index = next(i for i in range(50) if "pile_remade" in _kinds(i, "reshuffle"))
    assert "pile_remade" not in _kinds(index, "stop")


# -- kills, the end ---------------------------------------------------------------------------------


def test_killing_ones_own_creature_scores_nothing() -> None:
    g = board()
    state = g.sc.state
    mine = g.piece("WB03")
    civ = state.seats[0].civ
    effects = kill_creature(state, mine, 0, "ODY-WPN-1", "ground")
    assert state.seats[0].civ == civ and [e.kind for e in effects] == ["killed"]


def test_the_game_ends_at_60_on_another_players_turn() -> None:
    g = race()
    state = g.sc.state
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.winners == [0] and outcome.rule == "ODY-END-1"
    assert state.active == 1 and outcome.scores is not None and outcome.scores[0] >= 60


# -- simulation --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_simulated_games_with_every_starter_deck_are_legal_and_reproducible(players: int) -> None:
    options = {"decks": list(STARTER_DECKS)}
    game = simulate_one(RULESET, 9, players, players=players, options=options, max_events=600)
    assert check_events(RULESET, game.header, game.events) is None
    again = simulate_one(RULESET, 9, players, players=players, options=options, max_events=600)
    assert again.lines() == game.lines()
    assert [game.header.options["decks"][s % 6] for s in range(players)] == list(STARTER_DECKS[:players])


def test_back_fanning_picks_from_the_hand_in_simulation() -> None:
    g = mulligan()
    state = g.sc.state
    event = RULESET.decode_event({"type": "hexascrewup", "seq": state.seq + 1, "actor": 0,
                                  "against": 1, "card": "WG01"})
    hand = {cards(state).code(k) for k in state.seats[1].hand}
    picks = {RULESET.randomize(state, event, random.Random(i)).card for i in range(40)}  # type: ignore[attr-defined]
    assert picks <= hand and len(picks) > 1
