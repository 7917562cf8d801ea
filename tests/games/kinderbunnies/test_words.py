"""KinderBunnies in words: every event type said as the table would say it (cards by catalogue
name and number, carrots by letter, Bunny Bucks, the five d10 with 0 as 10), each perspective
told only what it saw, what changed, the facts of effects, the position drawn for ``warren
replay``, and the end (carrots plus bunnies, ties on Bunny Bucks, a shared win, the Orange
card). The family kit's additions (a singular money, carrot labels, 0 as 10) are tested with
KinderBunnies' catalogue and Quest's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.killer.words import CardWords
from engine.killer_bunnies_quest import words as quest_words
from engine.kinderbunnies import RULESET
from engine.kinderbunnies import words as kinder_words
from engine.kinderbunnies.catalogue import catalogue
from engine.kinderbunnies.events import (
    EVENT_TYPES,
    Accept,
    Buy,
    Choose,
    Discard,
    Draw,
    Play,
    Reveal,
    Roll,
    SetAside,
    Spin,
)
from engine.kinderbunnies.words import KinderOutcome
from engine.reader import read_record
from engine.record import Event
from engine.replay import Replay
from engine.ruleset import Perspective

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "kinderbunnies"
NAMES = ["Ada", "Bo", "Cy"]
W = kinder_words.card_words()

BLUE_HERO, GREEN_HERO = 1, 5
TAKE_A_CARROT, TAKE_2 = 17, 63
FEED_CABBAGE, POT_HANDLE = 23, 29
CABBAGE, WATER = 35, 38
BUCK_1, BUCK_5 = 41, 48
CARROT_A, CARROT_B, CARROT_G = 50, 51, 107
BUY_BACK, CARROT_TRADER, DROUGHT, HAMLIN = 72, 73, 75, 78
RETURN_A_CARROT, SECRET_SQUID = 84, 86
RE_ROLL, SAFETY_SKUNK, NO_NEWS, BEARS = 94, 95, 96, 98
ORANGE_C = 113


def said(event: Event, perspective: Perspective = "referee") -> str:
    return RULESET.describe(event, NAMES, perspective)


def _ev(kind: type[Event], actor: int | None, **fields: Any) -> Event:
    return kind(seq=1, actor=actor, **fields)


# -- the kit's additions -------------------------------------------------------------------------
def test_the_catalogue_names_kinderbunnies_cards() -> None:
    assert W.card(TAKE_A_CARROT) == "Take A Carrot (17)"
    assert W.card(BUCK_5) == "5 Bunny Buck (48)"
    assert W.card("?") == "a card nobody saw"
    assert W.carrot("A") == "Carrot A - Athena (50)"
    assert W.carrot("J") == "Carrot J - Jeannie (110)"  # the large carrot, not the Orange card J


def test_money_has_its_own_word_for_one() -> None:
    assert W.dolla(1) == "1 Bunny Buck"
    assert W.dolla(10) == "10 Bunny Bucks" and W.dolla(0) == "0 Bunny Bucks"
    quest = quest_words.starter_words()
    assert quest.dolla(1) == "1 Dolla" and quest.dolla(3) == "3 Dolla"
    assert CardWords({}, money="Gold", money_one="Gold piece").dolla(1) == "1 Gold piece"


def test_carrots_by_letter_run_together() -> None:
    assert W.carrot_labels(list("ABCDEFGHIJ")) == "carrots A-J"
    assert W.carrot_labels(["A", "C", "E", "F", "G"]) == "carrots A, C and E-G"
    assert W.carrot_labels(["B", "C"]) == "carrots B, C"
    assert W.carrot_labels(["D"]) == "carrot D"
    assert W.carrot_labels([]) == "no carrot"
    assert W.carrot_labels(["A", "Z"]) == "carrots A and Z"  # a label the catalogue lacks


def test_a_zero_counts_as_ten_on_the_d10() -> None:
    assert W.zero_is_ten() and W.zero_is_ten("orange-d10") and not W.zero_is_ten("no-such-die")
    assert W.face(0) == "a 0, which counts as 10"
    assert W.face(8) == "an 8"
    assert W.roll([0]) == "a 0, which counts as 10"
    assert W.roll([0, 3]) == "0 (as 10) and 3"
    assert W.roll([0], ["orange-d10"]) == "a 0 on the orange d10, which counts as 10"
    quest = quest_words.starter_words()  # Quest's dice read a 0 as it is
    assert not quest.zero_is_ten() and quest.face(0) == "a 0"


# -- every event ---------------------------------------------------------------------------------
def test_every_event_type_has_its_own_words() -> None:
    assert set(EVENT_TYPES) == set(kinder_words._SAYS)


EVENTS: list[tuple[Event, Perspective, str]] = [
    (_ev(SetAside, None, orange=[111, 112, 113]), "referee",
     "the table shuffles the Orange deck and sets its 3 cards aside face down: the bottom one will "
     "name the winning carrot"),
    (_ev(Draw, None, seat=0, card=TAKE_A_CARROT), 0, "Ada draws Take A Carrot (17)"),
    (_ev(Draw, None, seat=0, card=TAKE_A_CARROT), "referee", "Ada draws Take A Carrot (17)"),
    (_ev(Draw, None, seat=0, card=TAKE_A_CARROT), 1, "Ada draws a card"),
    (_ev(Draw, None, seat=0, card=TAKE_A_CARROT), "spectator", "Ada draws a card"),
    (_ev(Draw, None, seat=0, card="?"), 0, "Ada draws a card nobody saw"),
    (_ev(Draw, None, seat=0, card="?"), "referee", "Ada draws a card nobody saw"),
    (_ev(Draw, None, seat=0, card="?"), 2, "Ada draws a card"),
    (_ev(Draw, None, seat=1, card=BUCK_5), 2, "Bo draws 5 Bunny Buck (48) and lays it face up (KIN-BUCK-1)"),
    (_ev(Draw, None, seat=1, card=BEARS), 0,
     "Bo draws Bad News - Bears (98): Bad News, played at once (KIN-BAD-1)"),
    (_ev(Buy, 0, carrot=CARROT_A), 1, "Ada buys Carrot A - Athena (50) for 10 Bunny Bucks"),
    (_ev(Buy, 0, carrot=CARROT_A, pay=[BUCK_5, 49]), 1,
     "Ada buys Carrot A - Athena (50) for 10 Bunny Bucks, paying with 5 Bunny Buck (48) and "
     "5 Bunny Buck (49)"),
    (_ev(Play, 0, card=BLUE_HERO), 1, "Ada puts Blue Hero Bunny (1) on the table"),
    (_ev(Play, 2, card=TAKE_A_CARROT, carrots=[CARROT_B]), 0,
     "Cy plays Take A Carrot (17), taking Carrot B - Beverly (51)"),
    (_ev(Play, 2, card=TAKE_2, carrots=[CARROT_A, CARROT_G]), 0,
     "Cy plays Take 2 Carrots (63), taking Carrot A - Athena (50) and Carrot G - Gilligan (107)"),
    (_ev(Play, 0, card=FEED_CABBAGE, on=GREEN_HERO), 1,
     "Ada plays Feed The Bunny - Cabbage (23) on Green Hero Bunny (5)"),
    (_ev(Play, 1, card=CABBAGE), 0,
     "Bo answers the Feed The Bunny with Cabbage (35): the bunny is fed (KIN-FEED-2)"),
    (_ev(Play, 0, card=POT_HANDLE, on=GREEN_HERO), 2,
     "Ada plays Pot Handle - Safety Hazard 01 (29) on Green Hero Bunny (5)"),
    (_ev(Play, 1, card=SAFETY_SKUNK), 0,
     "Bo plays Safety Skunk (95), cancelling the Safety Hazard before its roll"),
    (_ev(Play, 1, card=NO_NEWS), 0, "Bo plays No News Is Good News (96), cancelling the Bad News"),
    (_ev(Play, 1, card=RE_ROLL, die=0), 0, "Bo plays Re-Roll (94) and rolls the first die of the roll again"),
    (_ev(Play, 1, card=RE_ROLL, die=4), 0, "Bo plays Re-Roll (94) and rolls the fifth die of the roll again"),
    (_ev(Play, 0, card=RETURN_A_CARROT, carrot=CARROT_B), 1,
     "Ada plays Return A Carrot (84), sending back Carrot B - Beverly (51)"),
    (_ev(Play, 0, card=CARROT_TRADER, carrot=CARROT_A, carrots=[CARROT_B]), 1,
     "Ada plays Carrot Trader (73), giving back Carrot A - Athena (50), taking Carrot B - Beverly (51)"),
    (_ev(Play, 0, card=DROUGHT, player=2), 1, "Ada plays Drought (75), naming Cy"),
    (_ev(Play, 0, card=HAMLIN, number=7), 1, "Ada plays Hamlin Helper (78), naming the number 7"),
    (_ev(Play, 0, card=BUY_BACK, take=POT_HANDLE, pay=[BUCK_5]), 1,
     "Ada plays Buy Back (72), bringing back Pot Handle - Safety Hazard 01 (29) from the discard pile, "
     "paying with 5 Bunny Buck (48)"),
    (_ev(Discard, 0, card=WATER), 1, "Ada lays down Water (38) for nothing: no card in hand can be used"),
    (_ev(Accept, 1), 0, "Bo lets the card on the bunny go unanswered"),
    (_ev(Choose, 0, bunnies=[BLUE_HERO]), 1, "Ada names Blue Hero Bunny (1)"),
    (_ev(Choose, 0, bunnies=[BLUE_HERO], carrots=[CARROT_A]), 1,
     "Ada names Blue Hero Bunny (1) and keeps Carrot A - Athena (50)"),
    (_ev(Choose, 0, carrots=[CARROT_A]), 1, "Ada takes Carrot A - Athena (50)"),
    (_ev(Choose, 2, cards=[WATER]), 0, "Cy shows Water (38), which goes to the discard pile"),
    (_ev(Choose, 2, cards=[WATER, 39]), 0,
     "Cy shows Water (38) and Water (39), which go to the discard pile"),
    (_ev(Choose, 2), 0, "Cy has nothing to name or show"),
    (_ev(Choose, 0, give=WATER), 0, "Ada passes Water (38) to the left"),
    (_ev(Choose, 0, give=WATER), "referee", "Ada passes Water (38) to the left"),
    (_ev(Choose, 0, give=WATER), 1, "Ada passes a card to the left"),
    (_ev(Choose, 0, give="?"), 0, "Ada passes a card nobody saw to the left"),
    (_ev(Choose, 0, give=WATER, take=CABBAGE), 0,
     "Ada swaps Water (38) from the hand for Cabbage (35) from the other player's"),
    (_ev(Choose, 0, give=WATER, take=CABBAGE), 2,
     "Ada swaps a card from the hand for a card from the other player's"),
    (_ev(Roll, None, faces=[2, 3, 0, 5, 6]), 1,
     "the five dice (violet, orange, green, yellow, blue) show 2, 3, 0 (as 10), 5 and 6"),
    (_ev(Roll, None, faces=[10]), 1, "the die shows a 10"),
    (_ev(Roll, None, faces=[0]), 1, "the die shows a 0, which counts as 10"),
    (_ev(Roll, None, faces=[7, 3, 8]), 0, "the dice show 7, 3 and 8"),
    (_ev(Spin, None, winner=1), 2, "the table judges that Bo's die spun longest"),
    (_ev(Reveal, None, card=ORANGE_C), 0,
     "the bottom Orange card is turned up: Orange card C (113), naming Carrot C - Cleopatra (52) "
     "the winning carrot"),
]


@pytest.mark.parametrize(("event", "perspective", "expected"), EVENTS)
def test_each_event_in_words_as_each_perspective_saw_it(event: Event, perspective: Perspective,
                                                         expected: str) -> None:
    assert said(event, perspective) == expected


def test_every_event_type_is_worded_above() -> None:
    assert {type(e) for e, _, _ in EVENTS} == set(EVENT_TYPES)


def test_what_a_seat_did_not_see_does_not_change_its_words() -> None:
    """Another seat's draw, the card another passes or swaps, the Orange deck's order: change
    them, and nobody else's text changes; the referee's does."""
    pairs: list[tuple[Event, Event, list[Perspective]]] = [
        (_ev(Draw, None, seat=0, card=TAKE_A_CARROT), _ev(Draw, None, seat=0, card=POT_HANDLE),
         [1, 2, "spectator"]),
        (_ev(Choose, 1, give=WATER), _ev(Choose, 1, give=CABBAGE), [0, 2, "spectator"]),
        (_ev(Choose, 0, give=WATER, take=CABBAGE), _ev(Choose, 0, give=BLUE_HERO, take=RE_ROLL),
         [1, 2, "spectator"]),
        (_ev(SetAside, None, orange=[111, 112, 113]), _ev(SetAside, None, orange=[113, 112, 111]),
         [0, 1, "spectator", "referee"]),
    ]
    for one, other, blind in pairs:
        for perspective in blind:
            assert said(one, perspective) == said(other, perspective), (one, perspective)
        assert said(one, "referee") != said(other, "referee") or isinstance(one, SetAside)


# -- whole games: no hidden card in anyone else's text --------------------------------------------
def _card_numbers(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, list):
        return set().union(*map(_card_numbers, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(_card_numbers, value.values())) if value else set()
    return set()


def _hidden_from(referee: dict[str, Any], seen: dict[str, Any], seat: Perspective) -> set[int]:
    """Cards the referee's view puts where ``seat`` cannot see them (others' hands, the draw
    pile, the Orange deck before the end), less any the seat's own view shows."""
    hidden: set[int] = set()
    for s, hand in enumerate(referee["hands"]):
        if s != seat:
            hidden |= {c for c in hand if isinstance(c, int)}
    hidden |= {c for c in referee["draw_pile"] if isinstance(c, int)}
    if not referee["over"]:
        hidden |= {c for c in referee["orange"] if isinstance(c, int)}
    shown = _card_numbers({k: v for k, v in seen.items()
                           if k in ("hands", "table", "buck_cards", "discard", "settling", "forced")})
    return hidden - shown


EVENT_CARD_KEYS = ("card", "on", "take", "give", "carrot", "carrots", "pay", "cards", "bunnies")

GAMES = sorted(p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("*.jsonl")
               if not p.name.startswith("illegal"))


@pytest.mark.parametrize("name", GAMES)
def test_no_seat_reads_a_card_it_could_not_see(name: str) -> None:
    path = FIXTURES / name
    record = read_record(path.read_bytes(), str(path), RULESET)
    rs = RULESET.for_game(record.header)
    names = [p.name for p in record.header.players]
    replay = Replay(rs, record.header, list(record.events))
    checked = 0
    for seq in range(1, replay.last_seq + 1):
        step = replay.step(seq)
        referee = rs.view(step.before, "referee"), rs.view(step.after, "referee")
        for seat in [*range(len(names)), "spectator"]:
            before, after = rs.view(step.before, seat), rs.view(step.after, seat)
            # Hidden before and after: the card a seat passes on it still knows.
            hidden = _hidden_from(referee[0], before, seat) & _hidden_from(referee[1], after, seat)
            # A card the event shows the seat (played face up, then reshuffled at once) is seen.
            hidden -= _card_numbers({k: v for k, v in rs.event_view(step.event, seat).items()
                                     if k in EVENT_CARD_KEYS})
            text = [rs.describe(step.event, names, seat), *rs.describe_changes(before, after, names),
                    rs.render(after, names)]
            for effect in step.effects:
                shown = rs.effect_view(effect, seat)
                if shown is not None:
                    text += [rs.describe_fact(k, v, names) for k, v in shown.data.items()]
            joined = "\n".join(text)
            for card in hidden:
                assert W.card(card) not in joined, (name, seq, seat, W.card(card))
                checked += 1
            if not step.after.over:  # nobody reads the winning carrot before the end
                assert "bottom Orange card names" not in joined, (name, seq, seat)
    # The check looked at hidden cards (a game recorded at the table may know none of them).
    assert checked > 20 or (record.header.source == "recorded" and name.startswith("recorded")), checked


def test_the_games_above_pass_and_swap_cards() -> None:
    """The whole-game check covers the cards that change hands unseen."""
    kinds = set()
    for name in GAMES:
        path = FIXTURES / name
        for event in read_record(path.read_bytes(), str(path), RULESET).events:
            if isinstance(event, Choose) and event.give is not None:
                kinds.add("swap" if event.take is not None else "pass")
            if isinstance(event, Draw) and event.card == "?":
                kinds.add("unknown draw")
    assert kinds == {"pass", "swap", "unknown draw"}


# -- what changed, facts, the position ------------------------------------------------------------
def _replayed(name: str) -> tuple[Replay, list[str]]:
    path = FIXTURES / f"{name}.jsonl"
    record = read_record(path.read_bytes(), str(path), RULESET)
    return Replay(RULESET, record.header, list(record.events)), [p.name for p in record.header.players]


def _changes(replay: Replay, names: list[str], seq: int, seat: Perspective) -> list[str]:
    step = replay.step(seq)
    return RULESET.describe_changes(RULESET.view(step.before, seat), RULESET.view(step.after, seat), names)


def test_a_draw_changes_the_drawers_hand_by_name_and_anothers_by_count() -> None:
    replay, names = _replayed("advanced-re-roll")
    moved = ["turn 1 → 2 · to play Ada → Bo", "draw pile: 90 → 89 cards"]
    assert _changes(replay, names, 12, 0) == [*moved, "Ada's hand: +Orange Hero Bunny (9) (4 → 5)"]
    assert _changes(replay, names, 12, 1) == [*moved, "Ada's hand: 4 → 5 cards"]


def test_a_purchase_changes_bucks_and_carrots_and_the_pile() -> None:
    replay, names = _replayed("beginner-buy-a-carrot")
    seq = next(e.seq for e in replay.events if isinstance(e, Buy))
    lines = _changes(replay, names, seq, "spectator")
    joined = "\n".join(lines)
    assert "carrot pile: −Carrot A - Athena (50) (6 → 5)" in lines
    assert f"{names[replay.events[seq - 1].actor]}'s carrots: +Carrot A - Athena (50) (0 → 1)" in joined  # type: ignore[index]
    assert "Bunny Bucks: 10 Bunny Bucks → 0 Bunny Bucks" in joined


def test_effect_facts_name_cards_carrots_seats_and_money() -> None:
    fact = RULESET.describe_fact
    assert fact("carrot", "C", NAMES) == "carrot: Carrot C - Cleopatra (52)"
    assert fact("bunny", GREEN_HERO, NAMES) == "bunny: Green Hero Bunny (5)"
    assert fact("seat", 1, NAMES) == "player: Bo"
    assert fact("from", 2, NAMES) == "from: Cy"
    assert fact("due", 1, NAMES) == "due: 1 Bunny Buck"
    assert fact("face", 0, NAMES) == "face: a 0, which counts as 10"
    assert fact("faces", [1, 3, 4, 5, 6], NAMES) == "faces: 1, 3, 4, 5 and 6"
    assert fact("cards", [CABBAGE, WATER], NAMES) == "cards: Cabbage (35) and Water (38)"
    assert fact("moves", {"0": 1, "1": 0}, NAMES) == "moves: Ada takes Bo's place; Bo takes Ada's place"
    assert fact("winners", [0, 2], NAMES) == "winners: Ada and Cy"
    assert fact("scores", [3, 5, 1], NAMES) == "scores: Ada 3, Bo 5, Cy 1"


def test_replay_draws_the_position_in_words_for_each_perspective() -> None:
    replay, names = _replayed("advanced-re-roll")
    state = replay.state_at(12)
    mine = RULESET.render(RULESET.view(state, 0), names)
    theirs = RULESET.render(RULESET.view(state, 1), names)
    assert mine.splitlines()[0] == "KinderBunnies, Advanced game · seq 12 · turn 2 · play · to play: Bo"
    assert "carrot pile: carrots A-J (10)" in mine
    assert "Ada: hand 5 cards: Blue Perky Bunny (2)" in mine
    assert "Bo (to play): hand 5 cards face down" in mine
    assert "Ada: hand 5 cards face down" in theirs and "Orange Hero Bunny (9)" not in theirs
    assert "bunnies: Blue Hero Bunny (1)" in theirs and "0 Bunny Bucks" in theirs
    waiting = RULESET.render(RULESET.view(replay.state_at(15), 1), names)
    assert ("in play: Pot Handle - Safety Hazard 01 (29), of Ada, on Bo's Green Hero Bunny (5); "
            "waiting for Bo to answer before the roll") in waiting


def test_the_end_is_drawn_with_its_winner() -> None:
    replay, names = _replayed("really-advanced-to-the-last-carrot")
    final = RULESET.render(RULESET.view(replay.state_at(replay.last_seq), "spectator"), names)
    assert "the bottom Orange card names Carrot F - Fonzie (55)" in final
    assert "over: the winner: Bo" in final


# -- the end -------------------------------------------------------------------------------------
def _end(winners: list[int], scores: list[int], carrots: list[int], bunnies: list[int],
         bucks: list[int]) -> str:
    reason = "shared_win" if len(winners) > 1 else "most_carrots_and_bunnies"
    return RULESET.describe_outcome(KinderOutcome(winners=winners, scores=scores, reason=reason,
                                                  rule="KIN-END-2", carrots=carrots, bunnies=bunnies,
                                                  bucks=bucks), NAMES)


def test_the_most_carrots_and_bunnies_win() -> None:
    assert _end([1], [4, 5, 2], [2, 3, 1], [2, 2, 1], [0, 3, 9]) == (
        "Game over: Bo wins with 5 (3 carrots and 2 bunnies) (KIN-END-2). Scores (carrots and "
        "bunnies): Ada 4, Bo 5, Cy 2.")


def test_a_tie_on_points_goes_to_the_most_bunny_bucks() -> None:
    assert _end([2], [4, 5, 5], [2, 3, 1], [2, 2, 4], [0, 3, 9]) == (
        "Game over: Cy wins with 5 (1 carrot and 4 bunnies), tied on points and ahead on Bunny "
        "Bucks (Bo 3 Bunny Bucks, Cy 9 Bunny Bucks) (KIN-END-2). Scores (carrots and bunnies): "
        "Ada 4, Bo 5, Cy 5.")


def test_a_tie_on_points_and_bucks_is_a_shared_win() -> None:
    assert _end([0, 1], [5, 5, 2], [2, 3, 1], [3, 2, 1], [1, 1, 0]) == (
        "Game over: Ada and Bo share the win with 5 each, and 1 Bunny Buck each (KIN-END-2). "
        "Scores (carrots and bunnies): Ada 5, Bo 5, Cy 2.")


def test_the_orange_card_names_the_winning_carrot() -> None:
    won = KinderOutcome(winners=[2], scores=[3, 1, 4], reason="magic_carrot", rule="KIN-RA-3",
                        magic_carrot="C")
    assert RULESET.describe_outcome(won, NAMES) == (
        "Game over: Cy wins: the bottom Orange card names Carrot C - Cleopatra (52), and Cy holds "
        "it with a bunny (KIN-RA-3). Carrots held: Ada 3, Bo 1, Cy 4.")
    lost = KinderOutcome(winners=[], scores=[3, 1, 4], reason="no_winner", rule="KIN-RA-3",
                         magic_carrot="J")
    assert RULESET.describe_outcome(lost, NAMES).startswith(
        "Game over: nobody wins: the bottom Orange card names Carrot J - Jeannie (110), and no "
        "player with a bunny holds it (KIN-RA-3).")


def test_a_played_game_ends_with_its_own_outcome() -> None:
    replay, names = _replayed("beginner-played-out")
    outcome = RULESET.outcome(replay.state_at(replay.last_seq))
    assert isinstance(outcome, KinderOutcome)
    assert outcome.scores == [c + b for c, b in zip(outcome.carrots, outcome.bunnies, strict=True)]
    assert RULESET.describe_outcome(outcome, names) == (
        "Game over: Cy wins with 5 (2 carrots and 3 bunnies), tied on points and ahead on Bunny Bucks "
        "(Bo 0 Bunny Bucks, Cy 20 Bunny Bucks) (KIN-END-2). Scores (carrots and bunnies): Ada 4, "
        "Bo 5, Cy 5.")
    assert catalogue().content_hash  # the one catalogue every game is worded with
