"""What each perspective sees of a game of Quest: hands, run cards and the draw pile are
hidden from the other seats, the small carrot deck from everyone until the end; saved
cards, supplies, money and carrots are face up. No secret leaks into a view, an event view,
an effect view or a refusal."""

from __future__ import annotations

import random

import msgspec
import pytest

from engine.killer_bunnies_quest import RULESET
from engine.killer_bunnies_quest.events import Bottom, Play, Runs, Setup
from engine.rules import Effect, RuleViolation
from engine.simulate import simulate_one
from tests.games.killer_bunnies_quest.helpers import FREE_CABBAGE, give, put, table


def _positions(seed: int, players: int, step: int = 9):  # type: ignore[no-untyped-def]
    game = simulate_one(RULESET, seed, 0, players=players)
    state = RULESET.setup(game.header)
    for event in game.events:
        RULESET.apply(state, event)
        if state.seq % step == 0 and not state.over:
            yield state
    yield state


def _hidden_swap(state, seen: int | str, rng: random.Random):  # type: ignore[no-untyped-def]
    """A state that differs from ``state`` only in what ``seen`` cannot see: a card of
    another seat's hand (or run positions) swapped with one of the draw pile, the draw pile
    and the small decks reordered."""
    other = RULESET.copy_state(state)
    seats = [s for s in range(other.n) if s != seen and other.seats[s].present]
    if other.draw and seats:
        st = other.seats[rng.choice(seats)]
        places = [("hand", i) for i in range(len(st.hand))]
        places += [(slot, 0) for slot in ("top", "bottom") if getattr(st.run, slot) is not None]
        if places:
            where, i = rng.choice(places)
            j = rng.randrange(len(other.draw))
            if where == "hand":
                st.hand[i], other.draw[j] = other.draw[j], st.hand[i]
            else:
                card = getattr(st.run, where)
                setattr(st.run, where, other.draw[j])
                other.draw[j] = card
    rng.shuffle(other.draw)
    rng.shuffle(other.cabbage_deck)
    rng.shuffle(other.water_deck)
    if not other.over:
        rng.shuffle(other.magic_deck)
    return other


@pytest.mark.parametrize("players", [2, 4, 7])
def test_hidden_cards_change_no_view_of_those_who_cannot_see_them(players: int) -> None:
    rng = random.Random(players)
    for state in _positions(players, players):
        for seen in [*range(players), "spectator"]:
            if state.stack:
                continue  # a card in play may be waiting on the hidden ones (a hand's weapons)
            other = _hidden_swap(state, seen, rng)
            a, b = RULESET.view(state, seen), RULESET.view(other, seen)
            assert a == b, f"seat {seen} sees a hidden card at seq {state.seq}"


def test_each_seat_sees_its_own_hand_and_run_cards_only() -> None:
    g = table(3)
    st = g.state
    mine = RULESET.view(st, 1)["seats"]
    assert mine[1]["hand"] == sorted(st.seats[1].hand) and mine[1]["top"] == st.seats[1].run.top
    assert mine[0]["hand"] == 5 and mine[0]["top"] == "back"
    assert RULESET.view(st, "spectator")["seats"][1]["hand"] == 5
    referee = RULESET.view(st, "referee")
    assert referee["piles"]["draw_order"][0] == st.draw[-1]
    assert "draw_order" not in RULESET.view(st, 0)["piles"]


def test_the_magic_carrot_is_hidden_from_everyone_until_the_end() -> None:
    game = simulate_one(RULESET, 5, 1, players=3)
    state = RULESET.setup(game.header)
    RULESET.fold(state, game.events[:-1])
    for seen in (0, 1, 2, "spectator"):
        view = RULESET.view(state, seen)
        assert view["magic_carrot"] is None and "magic_order" not in view["piles"]
    RULESET.apply(state, game.events[-1])
    assert state.over and RULESET.view(state, 0)["magic_carrot"] == state.magic


def test_event_views_hide_shuffles_and_run_cards_from_others() -> None:
    g = table(3)
    setup, runs = g.events[0], g.events[1]
    assert isinstance(setup, Setup) and isinstance(runs, Runs)
    for seen in (1, 2, "spectator"):
        assert "draw" not in RULESET.event_view(setup, seen)
        assert "carrots" not in RULESET.event_view(setup, seen)
        assert "top" not in RULESET.event_view(runs, seen)
    assert RULESET.event_view(runs, 0)["top"] == runs.top  # type: ignore[attr-defined]
    assert RULESET.event_view(setup, "referee")["draw"] == setup.draw  # type: ignore[attr-defined]
    g.flip(0)
    g.discard(0, g.state.flipped)
    g.bottom(0)
    bottom = g.events[-1]
    assert isinstance(bottom, Bottom)
    assert "card" not in RULESET.event_view(bottom, 1) and RULESET.event_view(bottom, 0)["card"]


def test_effect_views_hide_the_card_drawn_from_others() -> None:
    g = table(3)
    g.flip(0)
    effects = g.discard(0, g.state.flipped)
    [drew] = [e for e in effects if e.kind == "drew"]
    assert RULESET.effect_view(drew, 0) == drew
    for seen in (1, "spectator"):
        seen_effect = RULESET.effect_view(drew, seen)
        assert seen_effect is not None and "card" not in seen_effect.data


def test_shown_weapons_are_seen_by_the_two_players_only() -> None:
    shown = Effect("KBQ-CARD-ROONEYS-WEAPONS-EXCHANGE", "weapons_shown",
                   {"seat": 2, "to": 0, "cards": [41]})
    assert RULESET.effect_view(shown, 0) == shown and RULESET.effect_view(shown, 2) == shown
    assert "cards" not in RULESET.effect_view(shown, 1).data  # type: ignore[union-attr]


def test_a_hand_trade_is_counted_not_shown_to_others() -> None:
    g = table(3)
    a, b = g.state.seats[0].hand[0], g.state.seats[1].hand[0]
    g.trade(0, 1, give_hand=[a], get_hand=[b])
    trade = g.events[-1]
    assert RULESET.event_view(trade, 2)["give_hand"] == 1
    assert RULESET.event_view(trade, 1)["give_hand"] == [a]


def test_a_refusal_says_the_same_whether_or_not_the_card_is_in_the_hand() -> None:
    # seat 1 tries a Special on seat 0's turn: the same rule and words either way
    messages = []
    for held in (True, False):
        g = table(3)
        if held:
            give(g, FREE_CABBAGE, 1)
        else:
            put(g, FREE_CABBAGE, "draw")
        with pytest.raises(RuleViolation) as err:
            g.act(Play, 1, card=FREE_CABBAGE)
        messages.append((err.value.rule, err.value.message, err.value.facts))
    assert messages[0] == messages[1]


def test_views_are_plain_json() -> None:
    for state in _positions(3, 5, step=25):
        for seen in (0, "spectator", "referee"):
            msgspec.json.encode(RULESET.view(state, seen))
