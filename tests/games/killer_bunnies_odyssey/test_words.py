"""Odyssey in words (engine.killer_bunnies_odyssey.words): events as each perspective saw them, players
by name, the cards it saw by name and code (``Energy (WG02)``), those it did not see told as "a
card" and never named; views, effects and facts with seats by name and pieces by number."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.events import (
    Bottom,
    Cut,
    Draw,
    Feed,
    Flip,
    Hexascrewup,
    Mulligan,
    Overdraw,
    Pass,
    Place,
    Play,
    Roll,
    Runs,
    Shuffle,
    Trade,
    Use,
)
from engine.killer_bunnies_odyssey.library import library
from engine.replay import Replay
from engine.simulate import simulate_one
from tests.scenarios.killer_bunnies_odyssey_games import board

NAMES = ["Ann", "Bo", "Cy"]


def _said(event, perspective="referee"):  # type: ignore[no-untyped-def]
    return RULESET.describe(event, NAMES, perspective)


def test_a_shuffle_shows_its_order_to_the_referee_only() -> None:
    ev = Shuffle(seq=1, actor=None, seat=1, order=["WG02", "WG01", "WG03"])
    assert _said(ev) == "Bo's draw pile is shuffled: 3 cards, Energy (WG02) on top"
    assert _said(ev, "spectator") == _said(ev, 1) == "Bo's draw pile is shuffled"


def test_a_draw_and_a_bottom_card_are_named_to_their_player_only() -> None:
    draw = Draw(seq=9, actor=0, card="WB05")
    assert _said(draw, 0) == "Ann draws Hologram Bunny (WB05)"
    assert _said(draw, 1) == _said(draw, "spectator") == "Ann draws a card"
    bottom = Bottom(seq=10, actor=2, card="WR20")
    assert _said(bottom, 2) == ("Cy puts Feed The Bunny: Lunch Whistle (WR20) down as the bottom run "
                               "card; the turn ends")
    assert _said(bottom, 0) == "Cy puts a card down as the bottom run card; the turn ends"
    assert _said(Overdraw(seq=11, actor=1, card="?")) == "Bo draws a card not owed"
    over = Overdraw(seq=12, actor=1, card="WG02")
    assert _said(over, 1) == "Bo draws Energy (WG02), a card not owed"
    assert _said(over, 0) == "Bo draws a card not owed"
    runs = Runs(seq=4, actor=0, top="WB03", bottom="WB07")
    assert _said(runs, 0) == ("Ann puts down the first run cards: Circuit Bunny (WB03) on top, "
                              "Professor Bunny (WB07) below")
    assert _said(runs, 1) == "Ann puts down the first top and bottom run cards, face down"


def test_a_flip_and_a_play_say_what_the_card_asks_for() -> None:
    flip = Flip(seq=20, actor=1, how="play", target=24, pay={"green": 2}, drew="WG30")
    assert _said(flip) == ("Bo flips the top run card and plays it (on piece 24, paying 2 green), "
                           "then draws Bumper Crop (WG30)")
    assert _said(flip, 0) == "Bo flips the top run card and plays it (on piece 24, paying 2 green)"
    play = Play(seq=21, actor=1, card="WG29", opponent=2, picked="WR15")
    assert _said(play) == ("Bo plays Locust Swarm (WG29) from the hand (against Cy, picking Nail "
                           "Gun (WR15))")
    assert _said(Play(seq=22, actor=0, card="WB10", save=True)) == ("Ann tries to save Robo-Hound "
                                                                    "(WB10) straight from the hand")
    assert _said(Use(seq=23, actor=2, piece=11, target=24, at=0)) == (
        "Cy uses the saved card, piece 11 (on piece 24, at place 1 of the circle)")
    assert _said(Flip(seq=24, actor=2, how="save", card="WR01")) == (
        "Cy flips the top run card, Industry (WR01), and saves it")


def test_the_tables_own_steps_name_every_player() -> None:
    assert _said(Roll(seq=3, actor=None, seat=2, face=8)) == "Cy rolls the d12: 8"
    assert _said(Cut(seq=5, actor=0, seat=2, depth=12)) == ("Ann cuts Cy's draw pile: 12 cards from "
                                                            "the top go under")
    assert _said(Mulligan(seq=6, actor=1)) == ("Bo takes a mulligan: the 7 cards go back, Civ points "
                                               "down to 5")
    assert _said(Trade(seq=30, actor=0, partner=1, give=[3], take_hand=["WG02"])) == (
        "Ann trades with Bo: gives piece 3, takes Energy (WG02)")
    assert _said(Hexascrewup(seq=31, actor=2, against=0, card="WB01")) == (
        "Cy spots an extra card in Ann's hand: Technology (WB01) is picked from it and discarded")
    assert _said(Feed(seq=32, actor=1, demand=28, pay={"green": 1})) == (
        "Bo feeds against the Feed The Bunny card, piece 28, paying 1 green")
    assert _said(Place(seq=33, actor=1, piece=12, into=7)) == "Bo places piece 12 inside city piece 7"
    assert _said(Pass(seq=34, actor=2)) == "Cy has nothing to play; the turn passes"


def test_facts_name_seats_and_leave_pieces_as_numbers() -> None:
    assert RULESET.describe_fact("by", 1, NAMES) == "by: Bo"
    assert RULESET.describe_fact("target", 24, NAMES) == "target: 24"
    assert RULESET.describe_fact("winners", [0, 2], NAMES) == "winners: Ann and Cy"
    assert RULESET.describe_fact("civ", [10, 5, 12], NAMES) == "Civ points: Ann 10, Bo 5, Cy 12"


def test_what_changed_is_each_players_own() -> None:
    game = simulate_one(RULESET, 7, 0, players=3, bots=("random", "greedy"), options={}, max_events=120)
    replay = Replay(RULESET, game.header, game.events)
    lines: list[str] = []
    for seq in range(1, replay.last_seq + 1):
        step = replay.step(seq)
        lines += RULESET.describe_changes(RULESET.view(step.before, 0), RULESET.view(step.after, 0), NAMES)
    assert any(line.startswith("Ann's hand: ") for line in lines)
    assert any(line.startswith("Bo's hand: ") for line in lines)  # its size, the cards unseen
    assert not any(line.startswith("seats ") for line in lines)


# -- names from the game's own decks, and only for what a perspective saw ---------------------
CODE = re.compile(r"\((W[A-Z]\d\d)\)")


def _strings(value: Any) -> set[str]:
    """Every string anywhere in a view or an event as a perspective saw it."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def test_a_game_names_its_cards_from_the_decks_of_its_header() -> None:
    g = board()  # Blue against Green
    bound = RULESET.for_game(g.sc.header)
    assert bound is not RULESET and bound.for_game(g.sc.header) is bound
    assert bound.card_words().card("WB27") == "Force Field (WB27)"
    yellow = next(code for code in library().by_code if code.startswith("WY"))
    assert bound.card_words().card(yellow) == yellow  # not a card of this game
    assert RULESET.card_words().card(yellow) == f"{library().by_code[yellow].name} ({yellow})"


def test_an_event_names_only_the_cards_its_perspective_saw() -> None:
    g = board()
    bound = RULESET.for_game(g.sc.header)
    names = ["Ada", "Bo"]
    named = {p: 0 for p in ("referee", 0, 1, "spectator")}
    withheld = 0
    for event in g.sc.events:
        referee = set(CODE.findall(bound.describe(event, names, "referee")))
        named["referee"] += len(referee)
        for p in (0, 1, "spectator"):
            said = set(CODE.findall(bound.describe(event, names, p)))
            assert said <= _strings(bound.event_view(event, p)), (event, p, said)
            named[p] += len(said)
            withheld += len(referee - said)
    # Names told to those who saw the cards, kept from the others (in this game a flip leaves
    # its card to the effects, so a spectator's events name none).
    assert named["referee"] and named[0] and named[1] and withheld


def test_the_position_and_what_changed_name_only_what_the_view_shows() -> None:
    g = board()
    bound = RULESET.for_game(g.sc.header)
    names = ["Ada", "Bo"]
    state = g.sc.state
    mine = bound.render(bound.view(state, 0), names)
    hand = g.hand(0)
    assert hand and all(bound.card_words().card(code) in mine for code in hand)
    theirs = bound.view(state, 1)
    shown = set(CODE.findall(bound.render(theirs, names)))
    assert shown and shown <= _strings(theirs)
    assert not set(hand) - _strings(theirs) & shown
    replay = Replay(bound, g.sc.header, g.sc.events)
    told = 0
    for seq in range(1, replay.last_seq + 1):
        step = replay.step(seq)
        before, after = bound.view(step.before, 1), bound.view(step.after, 1)
        for line in bound.describe_changes(before, after, names):
            said = set(CODE.findall(line))
            assert said <= _strings(before) | _strings(after), line
            told += len(said)
            assert not line.startswith("Ada's hand: ") or not said, line
    assert told


def test_told_from_its_position_every_event_names_its_cards_never_a_piece_number() -> None:
    """With the position it was played at (Ruleset.describe's ``before``), a flip names the
    card it turned up for everybody (it lies face up), and every piece in play an event
    names reads as its card; what a player drew stays his own."""
    from engine.reader import read_record
    from engine.registry import get_ruleset

    path = Path(__file__).resolve().parents[3] / "fixtures/killer-bunnies-odyssey/board.jsonl"
    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("killer-bunnies-odyssey").for_game(record.header)
    names = [p.name for p in record.header.players]
    state = rs.setup(record.header)
    flips = 0
    for event in record.events:
        for perspective in ("referee", 0, 1, "spectator"):
            said = rs.describe(event, names, perspective, before=state)
            assert not re.search(r"\bpiece \d|\bcity piece\b", said), said
            if isinstance(event, Flip):
                assert "flips the top run card, " in said, said
                if perspective not in ("referee", event.actor) and event.drew:
                    assert "then draws" not in said or "then draws a card" in said, said
        flips += isinstance(event, Flip)
        rs.apply(state, event)
    assert flips > 10


def test_the_picture_of_a_position_explains_itself() -> None:
    from engine.reader import read_record
    from engine.registry import get_ruleset
    from engine.replay import Replay

    path = Path(__file__).resolve().parents[3] / "fixtures/killer-bunnies-odyssey/board.jsonl"
    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("killer-bunnies-odyssey").for_game(record.header)
    names = [p.name for p in record.header.players]
    text = rs.render(rs.view(Replay(rs, record.header, record.events).state_at(40), 0), names)
    head = text.splitlines()[0]
    assert head == "after event 40 · round 8, turn 16 · playing · hands of 5", head
    assert "Ada (blue deck): Civ points 10 on the d20, total 17" in text
    assert "top run card Titanium Carrot (WB21), bottom run card EMP Bomb (WB18)" in text
    assert "Sprout Bunny (WG03), Bo's, 1 point (piece 10)" in text
    assert "#" not in text and "(1,1)" not in text
