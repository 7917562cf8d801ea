"""engine.said and the typed words of engine.wording: a value reads as its type says (a seat
by name, a card by the game's writer, one entry per seat player by player), a value its
type does not foresee reads plainly and never through a writer meant for another type, and
the key tables are only for a game that types nothing."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
import pytest

from engine.said import (
    CARD,
    CARDS,
    Card,
    Cards,
    CountOfCards,
    Meaning,
    PerSeat,
    Seat,
    Seats,
    checker,
    hints_of,
)
from engine.wording import GENERIC, Vocabulary, change_lines, fact_text, value_text

NAMES = ["Ann", "Bo", "Cy"]
GIFT = Meaning("a test's gift")


class Gift(msgspec.Struct, kw_only=True):
    card: Card
    to: Seat


class Facts(msgspec.Struct, kw_only=True):
    seat: Seat
    winners: Seats
    money: PerSeat[int]
    hand: Cards | CountOfCards
    hands: PerSeat[Cards | CountOfCards]
    from_: Seat | str = msgspec.field(name="from")
    gift: Annotated[Gift, GIFT]
    gifts: list[Gift]
    count: int


class View(msgspec.Struct, kw_only=True):
    seat: Card  # a view that means a card where the facts mean a seat: the facts' word stands
    pile: Cards


def _card(value: Any, names: Any) -> str:
    if not isinstance(value, int | str) or isinstance(value, bool):
        raise TypeError(f"a card writer was given {value!r}")
    return f"card #{value}"


def _cards(value: Any, names: Any) -> str:
    if not isinstance(value, list):
        raise TypeError(f"a cards writer was given {value!r}")
    return " and ".join(_card(v, names) for v in value)


VOCAB = Vocabulary(types=(Facts, View), writers={
    CARD: _card, CARDS: _cards, GIFT: lambda v, n: f"{_card(v['card'], n)} for {n[v['to']]}",
})


def test_each_key_reads_as_its_type_says() -> None:
    assert value_text(VOCAB, "seat", 1, NAMES) == "Bo"
    assert value_text(VOCAB, "seat", None, NAMES) == "nobody"
    assert value_text(VOCAB, "winners", [0, 2], NAMES) == "Ann and Cy"
    assert value_text(VOCAB, "money", [3, 0, 1], NAMES) == "Ann 3, Bo 0, Cy 1"
    assert value_text(VOCAB, "hand", [4, 9], NAMES) == "card #4 and card #9"
    assert value_text(VOCAB, "hand", 2, NAMES) == "2"  # a count: no writer for counts here
    assert value_text(VOCAB, "hands", [[4], 2, []], NAMES) == "Ann card #4, Bo 2, Cy none"
    assert value_text(VOCAB, "from", 2, NAMES) == "Cy"
    assert value_text(VOCAB, "from", "saved_cards", NAMES) == "saved cards"
    assert value_text(VOCAB, "gift", {"card": 7, "to": 0}, NAMES) == "card #7 for Ann"
    assert value_text(VOCAB, "gifts", [{"card": 7, "to": 0}, {"card": 8, "to": 2}], NAMES) == \
        "card card #7, to Ann; card card #8, to Cy"
    assert fact_text(VOCAB, "count", 3, NAMES) == "count: 3"


def test_a_value_its_type_does_not_foresee_is_said_plainly_not_by_another_writer() -> None:
    # ``hand`` is cards or a count; a flag there reaches no writer (the cards writer raises)
    assert value_text(VOCAB, "hand", True, NAMES) == "yes"
    assert value_text(VOCAB, "hand", {"odd": 1}, NAMES) == "odd 1"
    assert value_text(VOCAB, "seat", "east", NAMES) == "east"
    assert VOCAB.plan_for(Cards | CountOfCards, "east") is None
    assert VOCAB.plan_for(Cards | CountOfCards, [1]) is not None and not checker(CountOfCards)([1])


def test_what_changed_reads_each_value_as_the_type_it_is_under() -> None:
    """What changed in one seat's hand names the cards that came and went; a hidden hand's
    count reads as a count; a record's fields as its Struct says."""
    before = {"hands": [[1, 2], 3, 0], "pile": [], "gifts": [{"card": 7, "to": 0}]}
    after = {"hands": [[2], 4, 0], "pile": [1], "gifts": [{"card": 7, "to": 1}]}
    assert change_lines(VOCAB, before, after, NAMES) == [
        "Ann's hands: −card #1 (2 → 1)", "Bo's hands: 3 → 4", "pile: +card #1 (0 → 1)",
        "gifts 1 › to: Ann → Bo"]


def test_the_first_struct_that_types_a_key_decides_it_and_nested_fields_are_typed() -> None:
    hints = hints_of((Facts, View))
    assert hints["seat"] == Seat  # Facts before View
    assert hints["from"] == Seat | str  # the name the JSON uses
    assert hints["to"] == Seat  # a field of the Gift a fact holds
    assert VOCAB.names_seat("seat") and VOCAB.names_seat("to") and not VOCAB.names_seat("count")
    assert VOCAB.names_seats("winners") and VOCAB.per_seat("money") and not VOCAB.per_seat("pile")


def test_key_tables_are_for_a_game_that_types_nothing() -> None:
    untyped = Vocabulary(seat_keys=frozenset({"seat"}))
    assert value_text(untyped, "seat", 1, NAMES) == "Bo"
    assert value_text(untyped, "seat", None, NAMES) == "none"
    # a typed game's key tables stand only for keys its types do not name
    mixed = Vocabulary(types=(Facts,), seat_keys=frozenset({"count", "other"}))
    assert not mixed.names_seat("count") and mixed.names_seat("other")
    assert GENERIC.names_seat("winner_seat") and not Vocabulary().names_seat("seat")


@pytest.mark.parametrize("value", [[1, "?"], 3])
def test_a_view_field_validates_as_its_type(value: object) -> None:
    assert msgspec.convert({"seat": 1, "pile": [], "hand": value}, _Hand).hand == value


class _Hand(msgspec.Struct):
    seat: Seat
    pile: Cards
    hand: Cards | CountOfCards


@pytest.mark.parametrize(("slug", "card"), [("killer-bunnies-quest", 17), ("kinderbunnies", 17),
                                            ("killer-bunnies-odyssey", "WB01"), ("bunnies", "QH")])
def test_a_game_words_a_card_by_name_where_its_type_says_card(slug: str, card: object) -> None:
    """What the Record page and the generic words use (``worded_vocabulary``): a card is
    named as the game names it, never left as its number or code."""
    from engine.registry import get_ruleset

    rs = get_ruleset(slug)
    said = value_text(rs.worded_vocabulary(), "card", card, NAMES)
    assert said == rs.card_text(card) and said != str(card), said
