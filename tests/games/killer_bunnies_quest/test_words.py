"""Killer Bunnies Quest in words: every event type said as the table would say it, cards by
catalogue name and number (from the catalogue the game was played with), each perspective
told only what it saw, what changed, the facts of effects, the position drawn for
``warren replay``, and the end. The family kit's words (engine.killer.words) are tested
with Quest's catalogue and with another catalogue and money."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.killer.words import CardWords, an, place
from engine.killer_bunnies_quest import RULESET, KillerBunniesQuest
from engine.killer_bunnies_quest import words as quest_words
from engine.killer_bunnies_quest.catalogue import deck_for
from engine.killer_bunnies_quest.events import (
    EVENT_TYPES,
    Bid,
    Bottom,
    Buy,
    Choose,
    Discard,
    Draw,
    EndTurn,
    Feed,
    Flip,
    Join,
    Leave,
    Pass,
    Play,
    Reshuffle,
    Reveal,
    Roll,
    Runs,
    Save,
    Setup,
    Stake,
    Starve,
    Trade,
)
from engine.killer_bunnies_quest.options import QuestOptions
from engine.reader import read_record
from engine.record import Event, Header
from engine.replay import Replay
from engine.ruleset import Perspective
from engine.simulate import simulate_one
from tests.games.killer_bunnies_quest.helpers import (
    BLUE_CONGENIAL,
    CABBAGE_2,
    CHOOSE_A_CARROT,
    CLOVER_1,
    DOLLA_2,
    DOLLA_5,
    EXCHANGE,
    FEED_1_1,
    GREEN_CONGENIAL,
    LASER,
    POKER,
    ROCK_BOTTOM,
    SWORD,
    WATER_1,
    carrot,
)

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "killer-bunnies-quest"
NAMES = ["Ada", "Bo", "Cy"]
W = quest_words.starter_words()


def _fixture(name: str) -> tuple[KillerBunniesQuest, Header, list[Event]]:
    path = FIXTURES / f"{name}.jsonl"
    record = read_record(path.read_bytes(), str(path), RULESET)
    return RULESET.for_game(record.header), record.header, list(record.events)


def said(event: Event, perspective: Perspective = "referee") -> str:
    return RULESET.describe(event, NAMES, perspective)


# -- the kit: cards, dice, money, units, runs -------------------------------------------------------
def test_a_card_is_its_catalogue_name_and_number() -> None:
    assert W.card(CHOOSE_A_CARROT) == "Choose A Carrot (16)"
    assert W.card(17) == "Choose A Carrot (17)"
    assert W.card(SWORD) == "Sword (41)"
    assert W.card(carrot(7)) == "Carrot #07 - Presto (109)"
    assert W.card(CABBAGE_2) == "2 Cabbage Units (1006)"
    assert W.card(DOLLA_5) == "5 Dolla (98)"
    assert W.card(999) == "card 999"  # not in the catalogue: its number, never a guess
    assert W.card("back") == "a face-down card" and W.card("?") == "a card nobody saw"
    assert W.cards([SWORD, LASER]) == "Sword (41) and Laser Gun (45)"
    assert W.cards([]) == "no card" and W.cards(["back", "back"]) == "2 face-down cards"
    assert W.cards([BLUE_CONGENIAL, BLUE_CONGENIAL]) == "Blue Congenial Bunny (1) twice"


def test_carrots_bunnies_dice_money_units_and_runs() -> None:
    assert W.carrot("7") == "Carrot #07 - Presto (109)" and W.carrot("12") == "Carrot #12 - Arnie (165)"
    assert W.carrot("99") == "carrot 99" and W.carrot_label("7") == "carrot 7"
    assert W.bunny(GREEN_CONGENIAL, 1, NAMES) == "Bo's Green Congenial Bunny (6)"
    assert W.bunny(GREEN_CONGENIAL) == "Green Congenial Bunny (6)"
    assert W.die("black-d12") == "the black d12" and W.die("any-d12") == "a d12"
    assert W.die("red-d12") == "the red d12 (the orange one stands in)"
    assert W.roll([7], ["black-d12"]) == "a 7 on the black d12"
    assert W.roll([8, 11], ["violet-d12", "blue-d12"]) == "an 8 on the violet d12 and an 11 on the blue d12"
    assert W.roll([4, 4, 9]) == "4, 4 and 9" and W.roll([12]) == "a 12"
    assert [an(n) for n in (1, 7, 8, 11, 12, 18)] == ["a", "a", "an", "an", "a", "an"]
    assert W.dolla(12) == "12 Dolla"
    assert W.units("cabbage", 1) == "1 cabbage unit" and W.units("water", 3) == "3 water units"
    assert W.amount("money", 5) == "5 Dolla" and W.value([DOLLA_2, DOLLA_5]) == 7
    assert W.value([CABBAGE_2, WATER_1]) == 3
    assert W.run(SWORD, "back") == "top Sword (41), bottom face down"
    assert W.run(None, LASER) == "top empty, bottom Laser Gun (45)"
    assert place(0) == "space 1"
    assert W.moves([SWORD, LASER], [LASER, BLUE_CONGENIAL]) == "+Blue Congenial Bunny (1) −Sword (41) (2 → 2)"
    assert W.moves(list(range(1, 10)), []) == "9 taken (9 → 0)"


def test_the_kit_takes_any_catalogue_and_money() -> None:
    """Another game of the family words its own cards: a catalogue with a house deck, and
    money of another name (KinderBunnies counts Bunny Bucks)."""
    house = deck_for(QuestOptions(extra_decks=["house-example"]))
    words = CardWords.of(house.catalogue, money="Bunny Bucks")
    assert words.card(900) == "Rubber Chicken (900)" and W.card(900) == "card 900"
    assert words.dolla(3) == "3 Bunny Bucks"
    only = CardWords({17: deck_for(QuestOptions()).catalogue.card(17)})
    assert only.card(17) == "Choose A Carrot (17)" and only.card(41) == "card 41"
    assert only.die("black-d12") == "the black d12"  # a die no set declares, by its id


def test_the_2002_printing_names_its_own_numbers() -> None:
    """Cards 59-63 are numbered differently in the 2002 printing: the ruleset bound to that
    game names them from its catalogue, the unbound one from the current printing."""
    bound, header, events = _fixture("printing-2002")
    clover = next(e for e in events if isinstance(e, Play) and e.card == 59)
    on = "on Green Congenial Bunny (6)"
    assert bound.describe(clover, NAMES) == f"Bo plays Lucky Clover - Single (Bunny Modifier) (59) {on}"
    assert RULESET.describe(clover, NAMES) == f"Bo plays Kaballa's Market - 4/5 (59) {on}"
    assert bound is RULESET.for_game(header) and bound is not RULESET
    assert isinstance(bound, KillerBunniesQuest) and bound.cards is not None and RULESET.cards is None


def test_a_bound_ruleset_plays_as_the_unbound_one() -> None:
    game = simulate_one(RULESET, 5, 0, players=4)
    bound = RULESET.for_game(game.header)
    a, b = RULESET.setup(game.header), bound.setup(game.header)
    for event in game.events:
        assert RULESET.apply(a, event) == bound.apply(b, event)
    assert RULESET.view(a, "referee") == bound.view(b, "referee")


def test_a_game_without_a_catalogue_is_worded_by_its_ruleset_itself() -> None:
    from engine.registry import get_ruleset

    bunnies = get_ruleset("bunnies")
    game = simulate_one(bunnies, 1, 0)
    assert bunnies.for_game(game.header) is bunnies


def test_a_header_whose_cards_cannot_be_read_is_worded_unbound() -> None:
    game = simulate_one(RULESET, 5, 0, players=3)
    header = msgspec.structs.replace(game.header, options={**game.header.options, "deck_set": "no-such-set"})
    assert RULESET.for_game(header) is RULESET


# -- every event type ----------------------------------------------------------------------------
def _ev(cls: type[Event], actor: int | None = 0, **fields: Any) -> Event:
    return cls(seq=5, actor=actor, **fields)


TRADED = "Ada trades with Bo: gives 2 Dolla (92), gets Carrot #04 - Flo (106)"

EVENTS: list[tuple[Event, dict[Perspective, str]]] = [
    (_ev(Setup, None, draw=[SWORD, LASER], cabbage=[CABBAGE_2], water=[WATER_1], carrots=[3001, 3007],
         first=1, gifts=[[carrot(1)], [carrot(2)], []], removed=[16]),
     {"referee": "the set-up: every deck is shuffled; Bo plays first; starting carrots: Ada Carrot #01 - "
                 "Tucker (103); Bo Carrot #02 - Abu (104); left out of the draw pile: Choose A Carrot (16)"}),
    (_ev(Runs, 0, top=SWORD, bottom=BLUE_CONGENIAL),
     {"referee": "Ada lays the first run cards: top Sword (41), bottom Blue Congenial Bunny (1)",
      0: "Ada lays the first run cards: top Sword (41), bottom Blue Congenial Bunny (1)",
      1: "Ada lays the first run cards face down", "spectator": "Ada lays the first run cards face down"}),
    (_ev(Flip, 2), {"referee": "Cy turns up the top run card"}),
    (_ev(Play, 2, card=17, carrots=[carrot(12)]),
     {"referee": "Cy plays Choose A Carrot (17), taking Carrot #12 - Arnie (165)"}),
    (_ev(Play, 0, card=BLUE_CONGENIAL, at=2),
     {"referee": "Ada plays Blue Congenial Bunny (1), placing it at space 3 of the circle"}),
    (_ev(Play, 1, card=SWORD, on=GREEN_CONGENIAL),
     {"referee": "Bo plays Sword (41) on Green Congenial Bunny (6)"}),
    (_ev(Play, 1, card=EXCHANGE, player=2),
     {"referee": "Bo plays Rooney's Weapons Exchange (149), naming Cy"}),
    (_ev(Play, 1, card=POKER, stakes=[5, 1, 0]),
     {"referee": "Bo plays Poverty Poker (65), setting the stakes at 5 Dolla, 1 carrot and 0 bunnies"}),
    (_ev(Play, 1, card=ROCK_BOTTOM, sources=[0, 2]),
     {"referee": "Bo plays Rock Bottom (142), taking cabbage from Ada and water from Cy"}),
    (_ev(Play, 1, card=76, number=6), {"referee": "Bo plays The Magic Fountain (76), naming the number 6"}),
    (_ev(Play, 1, card=81, on=GREEN_CONGENIAL, weapon=SWORD),
     {"referee": "Bo plays Rooney's Reusables (81) on Green Congenial Bunny (6), using Sword (41) again"}),
    (_ev(Discard, 1, card=SWORD), {"referee": "Bo discards Sword (41)"}),
    (_ev(Save, 1, card=80), {"referee": "Bo saves The Magic Spatula (80) face up"}),
    (_ev(Bottom, 1, card=LASER),
     {"referee": "Bo lays Laser Gun (45) as the new bottom run card",
      1: "Bo lays Laser Gun (45) as the new bottom run card",
      0: "Bo lays a new bottom run card face down", "spectator": "Bo lays a new bottom run card face down"}),
    (_ev(EndTurn, 0), {"referee": "Ada ends the turn without a second card"}),
    (_ev(Buy, 0, goods="carrot", carrot=carrot(3), pay=[101]),
     {"referee": "Ada buys Carrot #03 - Hikaru (105) from Kaballa's Market, paying with 10 Dolla (101)"}),
    (_ev(Buy, 0, goods="cabbage"), {"referee": "Ada buys a cabbage card from Kaballa's Market"}),
    (_ev(Feed, 0, bunny=BLUE_CONGENIAL, demand=FEED_1_1, cabbage=[1001], water=[WATER_1]),
     {"referee": "Ada feeds Blue Congenial Bunny (1) for Feed The Bunny 1/1 (24) with 1 Cabbage Unit (1001) "
                 "and 1 Water Unit (2001)"}),
    (_ev(Starve, 0, bunny=BLUE_CONGENIAL),
     {"referee": "Ada leaves Blue Congenial Bunny (1) unfed, and it starves"}),
    (_ev(Trade, 0, partner=1, give=[DOLLA_2], get=[carrot(4)], give_hand=[SWORD], get_hand=[LASER]),
     {"referee": f"{TRADED}; from hand, Sword (41) for Laser Gun (45)",
      1: f"{TRADED}; from hand, Sword (41) for Laser Gun (45)",
      2: f"{TRADED}; and 1 hand card each way, face down",
      "spectator": f"{TRADED}; and 1 hand card each way, face down"}),
    (_ev(Roll, None, faces=[7]), {"referee": "the roll: a 7", 1: "the roll: a 7"}),
    (_ev(Roll, None, faces=[3, 11]), {"referee": "the roll: 3 and 11"}),
    (_ev(Bid, 2, amount=4), {"referee": "Cy bids 4 Dolla"}),
    (_ev(Pass, 2), {"referee": "Cy passes and is out of the auction"}),
    (_ev(Stake, 2, carrots=[carrot(5)], bunnies=[GREEN_CONGENIAL]),
     {"referee": "Cy stakes Carrot #05 - Remington (107) and Green Congenial Bunny (6)"}),
    (_ev(Stake, 2), {"referee": "Cy stakes no carrot and no bunny"}),
    (_ev(Choose, 1, carrots=[carrot(1), carrot(2)], pay=[DOLLA_2]),
     {"referee": "Bo picks Carrot #01 - Tucker (103) and Carrot #02 - Abu (104), pays with 2 Dolla (92)"}),
    (_ev(Choose, 1, bunnies=[BLUE_CONGENIAL], at=[0]),
     {"referee": "Bo chooses Blue Congenial Bunny (1), places it at space 1 of the circle"}),
    (_ev(Choose, 1, under=[BLUE_CONGENIAL, BLUE_CONGENIAL]),
     {"referee": "Bo puts the clovers under Blue Congenial Bunny (1) twice"}),
    (_ev(Choose, 1, give=SWORD, take=LASER),
     {"referee": "Bo gives Sword (41) and takes Laser Gun (45)",
      1: "Bo gives Sword (41) and takes Laser Gun (45)",
      0: "Bo makes the choice the card asks for", "spectator": "Bo makes the choice the card asks for"}),
    (_ev(Join, 2), {"referee": "Cy joins the game"}),
    (_ev(Leave, 2), {"referee": "Cy leaves the game"}),
    (_ev(Reshuffle, None, order=[SWORD, LASER, CLOVER_1]),
     {"referee": "the discard pile's 3 large cards are shuffled into a new draw pile",
      0: "the discard pile's 3 large cards are shuffled into a new draw pile"}),
    # The table form (R-KBQ-40): a draw names its card to its drawer alone, a Dolla to all.
    (_ev(Draw, None, seat=1, card=LASER),
     {"referee": "Bo draws Laser Gun (45)", 1: "Bo draws Laser Gun (45)", 0: "Bo draws a card",
      "spectator": "Bo draws a card"}),
    (_ev(Draw, None, seat=1, card=DOLLA_2),
     {"referee": "Bo draws 2 Dolla (92)", 0: "Bo draws 2 Dolla (92)"}),
    (_ev(Draw, None, seat=1, card="?"), {"referee": "Bo draws a card", 1: "Bo draws a card"}),
    (_ev(Reveal, None, cards=[3004]),
     {"referee": "the small carrot deck's bottom card is turned up: Small Carrot #04 (3004)"}),
    (_ev(Reveal, None, seat=2, cards=[SWORD]),
     {"referee": "Cy shows the weapons in the hand: Sword (41)",
      0: "Cy shows the weapons in the hand: Sword (41)"}),
]


def test_every_event_type_has_its_own_words() -> None:
    assert {type(e) for e, _ in EVENTS} == set(EVENT_TYPES)
    for event, _ in EVENTS:
        assert quest_words.describe(event, RULESET.event_view(event, "referee"), NAMES, W) is not None


def _event_id(x: object) -> str:
    return type(x).__name__ if isinstance(x, Event) else ""


@pytest.mark.parametrize(("event", "expected"), EVENTS, ids=_event_id)
def test_each_event_in_words_as_each_perspective_saw_it(event: Event,
                                                        expected: dict[Perspective, str]) -> None:
    for perspective, text in expected.items():
        assert said(event, perspective) == text, perspective


def test_what_a_seat_did_not_see_does_not_change_its_words() -> None:
    """Another seat's run cards, a trade's hand cards between two others, the weapons of an
    exchange and the order of every shuffle: change them, and nobody else's text changes."""
    pairs: list[tuple[Event, Event, list[Perspective]]] = [
        (_ev(Runs, 0, top=SWORD, bottom=LASER), _ev(Runs, 0, top=BLUE_CONGENIAL, bottom=CLOVER_1),
         [1, 2, "spectator"]),
        (_ev(Bottom, 1, card=SWORD), _ev(Bottom, 1, card=LASER), [0, 2, "spectator"]),
        (_ev(Trade, 0, partner=1, give_hand=[SWORD], get_hand=[LASER]),
         _ev(Trade, 0, partner=1, give_hand=[CLOVER_1], get_hand=[BLUE_CONGENIAL]), [2, "spectator"]),
        (_ev(Choose, 1, give=SWORD, take=LASER), _ev(Choose, 1, give=CLOVER_1, take=BLUE_CONGENIAL),
         [0, 2, "spectator"]),
        (_ev(Setup, None, draw=[SWORD, LASER], cabbage=[], water=[], carrots=[3001, 3007], first=0),
         _ev(Setup, None, draw=[LASER, SWORD], cabbage=[], water=[], carrots=[3007, 3001], first=0),
         [0, 1, 2, "spectator"]),
        (_ev(Reshuffle, None, order=[SWORD, LASER]), _ev(Reshuffle, None, order=[LASER, SWORD]),
         [0, 1, "spectator"]),
    ]
    for one, other, blind in pairs:
        for perspective in blind:
            assert said(one, perspective) == said(other, perspective), (one, perspective)
        assert said(one, "referee") != said(other, "referee") or isinstance(one, Setup | Reshuffle)


# -- a whole game: no hidden card in anyone else's text ----------------------------------------------
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
    """Cards the referee's view puts where ``seat`` cannot see them (others' hands and run
    cards, the draw pile and the small decks), less any the seat's own view shows."""
    hidden: set[int] = set()
    for s in referee["seats"]:
        if s["seat"] != seat:
            hidden |= set(s["hand"]) | {c for c in (s["top"], s["bottom"]) if isinstance(c, int)}
    piles = referee["piles"]
    for key in ("draw_order", "cabbage_order", "water_order"):
        hidden |= set(piles[key])
    if not referee["over"]:  # the small carrot deck is seen at the end (KBQ-END-2)
        hidden |= set(piles["magic_order"])
    shown = _card_numbers({k: v for k, v in seen.items() if k not in ("seq", "round", "turn", "piles")})
    shown |= _card_numbers({k: v for k, v in seen["piles"].items() if isinstance(v, list)})
    return hidden - shown


GAMES = [("ebola", None), ("join-leave-trade", None), ("market-and-money", None), ("gambles", None),
         ("abductions-and-answers", None), ("short-game-reshuffled", 120)]


@pytest.mark.parametrize(("name", "upto"), GAMES)
def test_no_seat_reads_a_card_it_could_not_see(name: str, upto: int | None) -> None:
    rs, header, events = _fixture(name)
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events[:upto] if upto else events)
    w = rs.card_words()
    checked = 0
    for seq in range(1, replay.last_seq + 1):
        step = replay.step(seq)
        referee = rs.view(step.before, "referee"), rs.view(step.after, "referee")
        for seat in [*range(len(names)), "spectator"]:
            before, after = rs.view(step.before, seat), rs.view(step.after, seat)
            # Hidden before and after: what the seat gave away in a trade it still knows.
            hidden = _hidden_from(referee[0], before, seat) & _hidden_from(referee[1], after, seat)
            text = [rs.describe(step.event, names, seat), *rs.describe_changes(before, after, names),
                    rs.render(after, names)]
            for effect in step.effects:
                shown = rs.effect_view(effect, seat)
                if shown is not None:
                    text += [rs.describe_fact(k, v, names) for k, v in shown.data.items()]
            joined = "\n".join(text)
            for card in hidden:
                assert w.card(card) not in joined, (name, seq, seat, w.card(card))
                checked += 1
            if not step.after.over:  # nobody learns the Magic Carrot before the end
                assert "Magic Carrot:" not in joined and "Magic Carrot is" not in joined, (name, seq, seat)
    assert checked > 1000  # the check looked at many hidden cards


def test_a_seat_reads_its_own_cards_by_name_and_others_as_counts() -> None:
    rs, header, events = _fixture("ebola")
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events)
    step = replay.step(6)  # Ada plays her bunny and draws Ice Pick
    mine = rs.describe_changes(rs.view(step.before, 0), rs.view(step.after, 0), names)
    theirs = rs.describe_changes(rs.view(step.before, 1), rs.view(step.after, 1), names)
    assert "Ada's hand: +Ice Pick (33) (5 → 6)" in mine
    assert "Ada's hand: 5 → 6 cards" in theirs and not any("Ice Pick" in line for line in theirs)
    assert "Ada's Blue Congenial Bunny (1) enters the circle, the first bunny in the circle" in mine
    drew = next(e for e in step.effects if e.kind == "drew")
    hidden = rs.effect_view(drew, 1)
    assert hidden is not None
    assert [rs.describe_fact(k, v, names) for k, v in hidden.data.items()] == ["seat: Ada"]
    assert [rs.describe_fact(k, v, names) for k, v in drew.data.items()] == ["seat: Ada",
                                                                           "card: Ice Pick (33)"]


def test_what_changed_names_the_circle_by_owner_and_place() -> None:
    rs, header, events = _fixture("ebola")
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events)
    step = replay.step(12)
    lines = rs.describe_changes(rs.view(step.before, "spectator"), rs.view(step.after, "spectator"), names)
    assert ("Cy's Orange Congenial Bunny (11) enters the circle, between Bo's Green Congenial Bunny (6) and "
            "Ada's Blue Congenial Bunny (1)") in lines
    assert "phase flipped → bottom" in lines and "draw pile: 129 → 128 cards" in lines
    step = replay.step(15)  # The Ebola Virus is launched on Bo's bunny
    lines = rs.describe_changes(rs.view(step.before, 2), rs.view(step.after, 2), names)
    assert "The Ebola Virus (47) now roams on Bo's Green Congenial Bunny (6)" in lines
    assert any(line.startswith("in play: The Ebola Virus (47) played by Ada on Green Congenial Bunny (6)")
               for line in lines)


def test_money_and_supplies_change_in_their_units() -> None:
    rs, header, events = _fixture("market-and-money")
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events)
    seen: list[str] = []
    for seq in range(1, replay.last_seq + 1):
        step = replay.step(seq)
        before, after = rs.view(step.before, "spectator"), rs.view(step.after, "spectator")
        seen += rs.describe_changes(before, after, names)
    dolla = [line for line in seen if re.match(r"\w+'s Dolla: \d+ Dolla → \d+ Dolla \(", line)]
    cabbage = [line for line in seen
               if re.match(r"\w+'s cabbage: \d+ cabbage units? → \d+ cabbage units? \(", line)]
    assert dolla and cabbage
    for line in dolla:  # the totals agree with the cards that came and went
        was, now = map(int, re.findall(r"(\d+) Dolla →? ?", line)[:2])
        came = sum(int(n) for n in re.findall(r"\+(\d+) Dolla \(", line))
        gone = sum(int(n) for n in re.findall(r"−(\d+) Dolla \(", line))
        assert now - was == came - gone, line


def test_effect_facts_name_seats_cards_places_and_prices() -> None:
    fact = RULESET.describe_fact
    assert fact("from", "run", NAMES) == "from: the run"
    assert fact("to", "discard", NAMES) == "to: the discard pile"
    assert fact("to", 2, NAMES) == "to: Cy" and fact("by", 0, NAMES) == "by: Ada"
    assert fact("carrot", carrot(7), NAMES) == "carrot: Carrot #07 - Presto (109)"
    assert fact("carrot", 10, NAMES) == "carrot: 10"  # the market's carrot price, not card 10
    assert fact("carrot", "7", NAMES) == "carrot: Carrot #07 - Presto (109)"  # the Magic Carrot's number
    assert fact("cards", 40, NAMES) == "cards: 40"  # a count (a reshuffle)
    assert fact("cards", [SWORD], NAMES) == "cards: Sword (41)"
    assert fact("cabbage", [CABBAGE_2], NAMES) == "cabbage: 2 Cabbage Units (1006)"
    assert fact("cabbage", 3, NAMES) == "cabbage: 3"
    assert fact("die", "black-d12", NAMES) == "die: the black d12"
    assert fact("price", 10, NAMES) == "price: 10 Dolla"
    assert fact("kind", "money", NAMES) == "kind: Dolla"
    assert fact("rolls", {0: 9, 1: 4}, NAMES) == "rolls: Ada 9, Bo 4"
    assert fact("at", 0, NAMES) == "placed at: space 1"
    assert fact("direction", "counter_clockwise", NAMES) == "direction: counter-clockwise"
    assert fact("stakes", [5, 1, 0], NAMES) == "stakes: 5 Dolla, 1 carrot and 0 bunnies"
    assert fact("magic_carrot", "2", NAMES) == "the Magic Carrot: Carrot #02 - Abu (104)"


def test_a_redirected_weapon_names_both_bunnies() -> None:
    rs, header, events = _fixture("abductions-and-answers")
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events)
    found = [e for s in range(1, replay.last_seq + 1) for e in replay.step(s).effects
             if e.kind == "weapon_redirected"]
    assert found, "the fixture redirects a weapon"
    data = found[0].data
    assert set(data) == {"card", "from_bunny", "to_bunny"}
    words = [rs.describe_fact(k, v, names) for k, v in data.items()]
    assert words[1] == f"from: {rs.card_words().card(data['from_bunny'])}"
    assert words[2] == f"to: {rs.card_words().card(data['to_bunny'])}"


# -- the position and the end ----------------------------------------------------------------------
def test_replay_draws_the_position_in_words_for_each_perspective() -> None:
    rs, header, events = _fixture("ebola")
    names = [p.name for p in header.players]
    replay = Replay(rs, header, events)
    state = replay.state_at(20)
    ada = rs.render(rs.view(state, 0), names).splitlines()
    assert ada[0] == "after event 20 · round 2, turn 6 · playing · to play: Cy"
    assert ("Kaballa's Market: open; a cabbage card 3 Dolla, a water card 3 Dolla, a carrot 10 Dolla; "
            "carrots for sale: Carrot #10 - Dex (163), Carrot #11 - Rick (164) and Carrot #12 - Arnie "
            "(165)") in ada
    assert ("Ada: hand 5 cards: Kitchen Whisk (31), Green Gelatin (with Evil Pineapple Chunks) (32), "
            "Guillotine (40), Sword (41) and Torus Ring (43)") in ada
    assert "  run: top Ice Pick (33), bottom Butcher's Cleaver (34)" in ada
    assert "Bo: hand 5 cards face down" in ada and "  run: top face down, bottom face down" in ada
    assert any(line.startswith("Bunny Circle, clockwise: Ada's Blue Congenial Bunny (1), The Ebola Virus "
                               "(47) waiting on it; Bo's Green Congenial Bunny (6)") for line in ada)
    assert ("roaming: The Ebola Virus (47), launched by Ada, on Ada's Blue Congenial Bunny (1), moving "
            "counter-clockwise") in ada
    referee = rs.render(rs.view(state, "referee"), names)
    assert "Bo: hand 5 cards: Laser Gun (45)" in referee and "  0 Dolla" not in referee


def test_the_end_names_the_winner_and_the_magic_carrot() -> None:
    rs, header, events = _fixture("ebola")
    names = [p.name for p in header.players]
    final = Replay(rs, header, events).final
    outcome = rs.outcome(final)
    assert isinstance(outcome, quest_words.QuestOutcome) and outcome.magic_carrot == final.magic == "7"
    assert rs.describe_outcome(outcome, names) == (
        "Game over: Cy wins with the Magic Carrot, carrot 7 (KBQ-END-4). Carrots held: Ada 3, Bo 5, Cy 4.")
    # Cy holds it: the large carrot numbered 7 is among Cy's carrots.
    assert rs.card_words().carrots["7"] in final.seats[2].carrots
    drawn = rs.render(rs.view(final, 1), names).splitlines()
    assert drawn[-1] == "the Magic Carrot: Carrot #07 - Presto (109); the winner: Cy"
    nobody = msgspec.structs.replace(outcome, winners=[], reason="no_winner", rule="KBQ-END-3")
    assert rs.describe_outcome(nobody, names).startswith(
        "Game over: nobody wins: the Magic Carrot is carrot 7, and no player with a bunny holds it "
        "(KBQ-END-3).")
