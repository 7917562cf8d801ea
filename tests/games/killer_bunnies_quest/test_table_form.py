"""Killer Bunnies Quest as the table saw it (ruling R-KBQ-40): draws as events, cards nobody
saw written "?", and the three verdicts.

The games are simulated 4-player games written as seat 0 (Ann) recorded them at the table
(engine.redact): every card Ann did not see is "?", each draw is an event, the piles have no
order, the Magic Carrot is revealed at the end.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import pytest

from engine.dispute.claims import record_claims
from engine.hidden import UNKNOWN
from engine.killer_bunnies_quest import unknowns
from engine.killer_bunnies_quest.events import Draw, Flip, Reshuffle, Reveal, Runs, Setup
from engine.killer_bunnies_quest.table import deck
from engine.reader import check_events
from engine.record import Event, Header
from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.rules import RuleViolation
from engine.simulate import simulate_one

RS = get_ruleset("killer-bunnies-quest")


@cache
def table_game(seed: int, seat: int = 0) -> tuple[Header, tuple[Event, ...]]:
    game = simulate_one(RS, seed, 0, players=4)
    header, events = redact_game(RS, game.header, game.events, seat)
    return header, tuple(events)


def _state_before(header: Header, events: tuple[Event, ...], seq: int) -> Any:
    state = RS.setup(header)
    for event in events[:seq - 1]:
        RS.apply(state, event)
    return state


def _replaced(events: tuple[Event, ...], seq: int, event: Event) -> list[Event]:
    return [*events[:seq - 1], msgspec.structs.replace(event, seq=seq), *events[seq:]]


@pytest.mark.parametrize("seed", [1, 3])
def test_a_whole_four_player_game_as_one_seat_recorded_it_checks_legal(seed: int) -> None:
    header, events = table_game(seed)
    assert header.source == "recorded"
    setup = events[0]
    assert isinstance(setup, Setup) and setup.draw is None and setup.carrots is None
    assert check_events(RS, header, list(events)) is None
    d = deck(RS.setup(header))
    draws = [e for e in events if isinstance(e, Draw)]
    # Ann names her own draws; another seat's hand card is "?"; what goes face up is named
    assert all(e.card != UNKNOWN for e in draws if e.seat == 0)
    assert any(e.card == UNKNOWN for e in draws if e.seat != 0)
    for e in draws:
        if e.seat != 0 and e.card != UNKNOWN:
            assert isinstance(e.card, int) and d.type[e.card] in ("money", "play_immediately",
                                                                   "cabbage", "water")
    assert all(e.top == UNKNOWN and e.bottom == UNKNOWN for e in events
               if isinstance(e, Runs) and e.actor != 0)
    assert all(e.card is not None for e in events if isinstance(e, Flip))
    ended = RS.setup(header)
    for event in events:
        RS.apply(ended, event)
    full = simulate_one(RS, seed, 0, players=4)
    referee = RS.setup(full.header)
    for event in full.events:
        RS.apply(referee, event)
    assert (ended.over, ended.winners, ended.magic) == (referee.over, referee.winners, referee.magic)
    if ended.over:
        assert isinstance(events[-1], Reveal) and events[-1].seat is None


def test_a_planted_impossible_play_is_illegal_at_that_event() -> None:
    """Bo turns up a card Ann holds in her hand: no assignment of the unseen cards allows it."""
    header, events = table_game(1)
    flip = next(e for e in events if isinstance(e, Flip) and e.actor == 1)
    state = _state_before(header, events, flip.seq)
    anns = [c for c in state.seats[0].hand if c >= 0 and unknowns.hand_card(state, c)]
    planted = _replaced(events, flip.seq, msgspec.structs.replace(flip, card=anns[0]))
    found = check_events(RS, header, planted)
    assert found is not None and found.seq == flip.seq and found.rule == "REC-UNK-2"
    assert "seen elsewhere" in found.message


def test_a_play_that_depends_on_an_unseen_card_is_undetermined_and_a_later_event_settles_another() -> None:
    """Seed 2 as Ann saw it: the Geneva Convention at event 92 leaves Dee's other cards unseen
    (undetermined, its need in words); Rooney's Weapons Exchange at 118 is played by Bo with
    no weapon Ann knows of (undetermined), and the weapon he gives at 119 settles it."""
    header, events = table_game(2)
    report = record_claims(RS, header, list(events))
    assert report.violation is None
    open_ = {(u.seq, u.rule): u.needs for u in report.undetermined}
    assert open_.get((92, "KBQ-CARD-GENEVA-CONVENTION")) == \
        "legal only if seat 3's other 2 card(s) held no weapon"
    assert (118, "KBQ-CARD-ROONEYS-WEAPONS-EXCHANGE") not in open_
    state = _state_before(header, events, 119)
    said = RS.apply(state, events[118])
    assert [(e.kind, e.data["seq"]) for e in said if e.kind == "settled"] == [("settled", 118)]


def test_a_doubt_is_settled_illegal_when_the_card_it_needed_comes_to_light() -> None:
    """A hand that had to hold no weapon shows one (before any unknown card joined it), and a
    hand that had to hold a weapon shows every card without one: each is refused by the
    card's rule, naming the event it decides."""
    header, events = table_game(2)
    state = _state_before(header, events, 93)
    d = deck(state)
    weapon = next(c for c in state.pool if d.is_weapon(c))
    plain = [c for c in state.pool if unknowns.hand_card(state, c) and not d.is_weapon(c)]
    trial = state.copy()
    trial.doubts = [[92, "KBQ-CARD-GENEVA-CONVENTION", 3, "no_weapon", 2, "no weapon"]]
    with pytest.raises(RuleViolation, match="at event 92") as caught:
        unknowns.came_to_light(trial, 3, weapon)
    assert caught.value.rule == "KBQ-CARD-GENEVA-CONVENTION"
    trial = state.copy()
    trial.doubts = [[90, "KBQ-CARD-ROONEYS-WEAPONS-EXCHANGE", 3, "weapon", 2, "a weapon"]]
    unknowns.came_to_light(trial, 3, plain[0])
    with pytest.raises(RuleViolation, match="none was a weapon"):
        unknowns.came_to_light(trial, 3, plain[1])
    trial = state.copy()
    trial.doubts = [[92, "KBQ-CARD-GENEVA-CONVENTION", 3, "no_weapon", 2, "no weapon"]]
    unknowns.came_to_light(trial, 3, plain[0])
    unknowns.came_to_light(trial, 3, plain[1])
    assert [e.kind for e in unknowns.settlements(trial)] == ["settled"] and not trial.doubts


# -- bad input: each a clear refusal with its rule --------------------------------------------------


def test_a_draw_for_a_seat_that_is_not_owed_one_is_refused() -> None:
    header, events = table_game(1)
    first = events[1]
    assert isinstance(first, Draw)
    other = (first.seat + 1) % 4
    found = check_events(RS, header, _replaced(events, 2, msgspec.structs.replace(first, seat=other)))
    assert found is not None and found.seq == 2 and found.rule == "KBQ-SET-2"
    assert f"no card is owed to seat {other} now" in found.message


def test_a_card_turned_up_or_taken_face_up_must_be_named() -> None:
    header, events = table_game(1)
    flip = next(e for e in events if isinstance(e, Flip) and e.actor == 1)
    found = check_events(RS, header, _replaced(events, flip.seq, msgspec.structs.replace(flip, card=None)))
    assert found is not None and (found.seq, found.rule) == (flip.seq, "REC-UNK-3")
    assert "the record names it" in found.message
    d = deck(RS.setup(header))
    RS.apply(RS.setup(header), events[0])
    supply = next(e for e in events if isinstance(e, Draw) and isinstance(e.card, int)
                  and d.type.get(e.card) in ("cabbage", "water"))
    found = check_events(RS, header, _replaced(events, supply.seq,
                                               msgspec.structs.replace(supply, card=UNKNOWN)))
    assert found is not None and (found.seq, found.rule) == (supply.seq, "REC-UNK-3")


def test_a_reshuffle_before_the_draw_pile_is_empty_is_refused() -> None:
    header, events = table_game(1)
    early = [*events[:40], Reshuffle(seq=41, actor=None), *[msgspec.structs.replace(e, seq=e.seq + 1)
                                                               for e in events[40:]]]
    found = check_events(RS, header, early)
    assert found is not None and found.seq == 41 and "does not wait for a shuffle" in found.message


def test_unknown_cards_belong_to_a_game_recorded_at_the_table() -> None:
    header, events = table_game(1)
    simulated = msgspec.structs.replace(header, source="simulated")
    found = check_events(RS, simulated, list(events))
    assert found is not None and (found.seq, found.rule) == (1, "REC-UNK-1")


def test_a_set_up_names_every_order_or_none() -> None:
    full = simulate_one(RS, 1, 0, players=4)
    setup = full.events[0]
    assert isinstance(setup, Setup)
    half = msgspec.structs.replace(setup, cabbage=None)
    found = check_events(RS, full.header, [half, *full.events[1:]])
    assert found is not None and found.rule == "KBQ-SET-1" and "or of none" in found.message


def test_a_full_record_reads_as_it_always_did_and_redacts_to_the_same_table_record() -> None:
    """The full form is untouched (no draw events), and the table form redacted again as the
    same seat is itself."""
    full = simulate_one(RS, 1, 0, players=4)
    assert not any(isinstance(e, Draw) for e in full.events)
    assert check_events(RS, full.header, full.events) is None
    header, events = table_game(1)
    again_header, again = redact_game(RS, header, list(events), 0)
    assert again_header == header
    assert [msgspec.to_builtins(e) for e in again] == [msgspec.to_builtins(e) for e in events]


def test_a_look_at_a_passed_run_card_is_its_seat_s_alone() -> None:
    """R-KBQ-45: Ann's record names the top run card passed to her (Top Run Rotate); every
    other perspective's view of that event, its effect and the record redacted for it name
    none, and the record redacted for Bo still checks."""
    from engine.killer_bunnies_quest.views import event_view

    header, events = table_game(1)
    look = next(e for e in events if isinstance(e, Reveal) and e.look)
    assert look.seat == 0 and len(look.cards) == 1
    card = look.cards[0]
    names = [p.name for p in header.players]
    assert event_view(look, 0)["cards"] == [card]
    assert event_view(look, "referee")["cards"] == [card]
    for other in (1, "spectator"):
        assert "cards" not in event_view(look, other)
        said = RS.describe(look, names, other)
        assert "looks at the top run card passed to him" in said and RS.card_text(card) not in said
    assert RS.card_text(card).split(" (")[0] in RS.describe(look, names, 0)
    state = _state_before(header, events, look.seq)
    effects = RS.apply(state, look)
    assert all("card" not in (RS.effect_view(e, 1) or e).data for e in effects)
    # Ann's record as Bo sees it: the look is there, its card is not, and the record checks
    bo_header, bo_events = redact_game(RS, header, list(events), 1)
    seen = bo_events[look.seq - 1]
    assert isinstance(seen, Reveal) and seen.look and seen.cards == []
    assert check_events(RS, bo_header, list(bo_events)) is None


def test_a_look_names_one_face_down_top_run_card_of_its_seat() -> None:
    header, events = table_game(1)
    look = next(e for e in events if isinstance(e, Reveal) and e.look)
    state = _state_before(header, events, look.seq)
    with pytest.raises(RuleViolation, match="KBQ-RUN-1"):
        RS.apply(RS.copy_state(state), msgspec.structs.replace(look, cards=[look.cards[0], 1]))
    with pytest.raises(RuleViolation, match="KBQ-RUN-1"):
        RS.apply(RS.copy_state(state), msgspec.structs.replace(look, seat=None))
