"""A game of Bunnies in words: cards as their faces (A♠, 10♣), blind cards by whose they
are and where they lie, events as the table would say them ("Ann lays A♠", "the deal: 7
cards each, 4 blind cards each, 3 shared blind cards, 31 in the stock") and what changed
between two positions (engine.wording gives the rest).

Cards are read here too: the notation of a proposed action accepts the ten as ``10C`` as
well as the record's ``TC``, and names a value that is no card ("9X is not a card").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import ALL_SLOTS, SHARED_SLOTS, owner
from engine.bunnies.numbers import DECK
from engine.bunnies.views import BUNNY_KIND, RANK, SLOT, BunniesView, BunnyKind, Rank, Slot
from engine.hidden import UNKNOWN
from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import Outcome
from engine.said import CARD, CARDS, Card, Cards, Facts, PerSeat, Seat, Seats
from engine.wording import (
    Names,
    Vocabulary,
    and_list,
    change_lines,
    possessive,
    seat_name,
)

SUIT_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RANK_FACE = {"T": "10"}
"""How a rank is printed on the card: the record writes the ten as ``T``."""
HIDDEN_FACE = "??"
"""A face-down card in a view (engine.bunnies.views.HIDDEN)."""
_DECK = frozenset(DECK)
RANK_WORDS = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
              "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings",
              "A": "aces"}
"""A bunny is four cards of one rank: ``a bunny of kings``."""


def card_face(code: str) -> str:
    """A card as printed: ``TC`` -> ``10♣``, ``AS`` -> ``A♠``; an unseen card is ``a
    face-down card``."""
    if code in (UNKNOWN, HIDDEN_FACE):
        return "a face-down card"
    if code not in _DECK:
        return code
    return RANK_FACE.get(code[0], code[0]) + SUIT_SYMBOL[code[1]]


def cards_text(cards: list[str]) -> str:
    if not cards:
        return "no card"
    if all(c in (UNKNOWN, HIDDEN_FACE) for c in cards):
        return f"{len(cards)} face-down card" + ("s" if len(cards) != 1 else "")
    return " ".join(card_face(c) for c in cards)


def slot_text(slot: str, names: Names | None, actor: int | None = None) -> str:
    """A blind card's place: ``Ann's blind card 3`` (columns counted 1 to 4 from the left,
    as seen by the dealer: engine.bunnies.layout), ``their blind card 3`` when ``actor``
    owns it, ``the left shared blind card``."""
    if slot in SHARED_SLOTS:
        return f"the {slot} shared blind card"
    seat = owner(slot)
    column = int(slot.split(".")[1]) + 1
    whose = "their" if seat == actor else possessive(seat_name(seat, names))
    return f"{whose} blind card {column}"


_SLOT = re.compile(r"\b(?:the blind card at )?slot (\d\.\d|left|right|top)\b")


def slots_named(message: str, names: Names | None) -> str:
    """A rule's message with its blind cards' places in words: the rules write ``the blind
    card at slot 1.0`` (the record's spelling), the table reads ``Bo's blind card 1``. A
    place the layout does not have is left as it is."""
    def named(m: re.Match[str]) -> str:
        return slot_text(m[1], names) if m[1] in ALL_SLOTS else m[0]

    return _SLOT.sub(named, message)


# -- reading cards in proposed actions ---------------------------------------------------------
CARD_FIELDS = frozenset({"cards", "card"})
"""The fields of Bunnies' events that hold cards."""


class NotACard(WarrenError):
    """A value typed as a card that names no card of the deck."""


def read_card(text: str) -> str:
    """A card as typed (``10C``, ``tc``, ``TC``, ``?``) as the record writes it (``TC``)."""
    raw = text.strip()
    # A face as warren writes it (9♣, 10♥) and a suit's name (9 of clubs) read too.
    code = raw.upper().translate(_SUIT_LETTER)
    words = code.replace(" OF ", " ").split()
    if len(words) == 2 and words[1] in _SUIT_NAMES:
        code = words[0] + _SUIT_NAMES[words[1]]
    code = _RANK_NAMES.get(code[:-1], code[:-1]) + code[-1:] if len(code) > 1 else code
    if code.startswith("10"):
        code = "T" + code[2:]
    if code == UNKNOWN or code in _DECK:
        return code
    # The ranks of engine.bunnies.numbers.RANKS, the ten as players write it too.
    raise NotACard(f"{raw!r} is not a card: a card is a rank (2 to 9, 10 or T, J, Q, K or A) "
                   "then a suit (C, D, H or S, or ♣ ♦ ♥ ♠), e.g. 10C, TC or 10♣ for the ten of clubs")


_SUIT_LETTER = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"})
_SUIT_NAMES = {"CLUBS": "C", "CLUB": "C", "DIAMONDS": "D", "DIAMOND": "D", "HEARTS": "H", "HEART": "H",
               "SPADES": "S", "SPADE": "S"}
_RANK_NAMES = {"ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "T"}


def read_cards(field: str, value: Any) -> Any:
    """A proposed action's field with every card read by :func:`read_card`."""
    if field not in CARD_FIELDS:
        return value
    if isinstance(value, str):
        return read_card(value)
    if isinstance(value, list):
        return [read_card(v) if isinstance(v, str) else v for v in value]
    return value


def short_spellings(event: Event) -> tuple[str, ...]:
    """An action as a scorekeeper jots or says it; the recorder reads it among the actions
    allowed now. A lay of one rank: the rank, then each suit (``9chs`` for 9♣ 9♥ 9♠, ``10d``
    for 10♦). A blind card by its place as the words name it (``flip blind 4``, ``steal blind
    card 4``, ``peek left``): a player's own column counted 1 to 4, as :func:`slot_text` says."""
    if isinstance(event, Flip | Peek | Steal) and event.slot is not None:
        return _slot_spellings(event)
    if not isinstance(event, Lay) or not event.cards or any(c not in _DECK for c in event.cards):
        return ()
    cards = event.cards
    ranks = {c[0] for c in cards}
    if len(ranks) != 1:
        return ()
    rank = RANK_FACE.get(cards[0][0], cards[0][0]).lower()
    jotted = rank + "".join(c[1].lower() for c in cards)
    # as the table says it, which the notation reads too: ``lay queen of clubs``
    spoken = "lay " + " ".join(f"{_SPOKEN_RANKS[c[0]]} of {_SPOKEN_SUITS[c[1]]}" for c in cards)
    return (jotted, spoken)


_VERBS: dict[type, str] = {Flip: "flip", Peek: "peek", Steal: "steal"}


def _slot_spellings(event: Flip | Peek | Steal) -> tuple[str, ...]:
    slot, verb = event.slot, _VERBS[type(event)]
    assert slot is not None
    card = f" {event.card}" if event.card is not None and event.card != UNKNOWN else ""
    if slot in SHARED_SLOTS:
        return (f"{verb} {slot} shared{card}", f"{verb} the {slot} shared blind card{card}")
    if "." not in slot or not slot.split(".")[1].isdigit():
        return ()
    column = int(slot.split(".")[1]) + 1
    return (f"{verb} blind {column}{card}", f"{verb} blind card {column}{card}")


_SPOKEN_RANKS = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
                 "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
                 "A": "ace"}
_SPOKEN_SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# -- events ---------------------------------------------------------------------------------------
def _seen(record: Mapping[str, Any], shape: str) -> str:
    """The event's card by its face in ``shape`` (``" ({})"``), where the perspective saw
    it; nothing where it did not."""
    card = record.get("card")
    return shape.format(card_face(card)) if card and card != UNKNOWN else ""


def describe(event: Event, record: Mapping[str, Any], names: Names) -> str | None:
    """``event`` in words, from ``record`` (the event as the perspective saw it: a card it
    did not see is missing there); None for an event that is not Bunnies' own."""
    who = seat_name(event.actor, names)
    if isinstance(event, Deal):
        hand = len(event.hands[0]) if event.hands else 0
        blinds = len(event.blinds[0]) if event.blinds else 0
        return (f"the deal: {hand} cards each, {blinds} blind cards each, {len(event.shared)} shared "
                f"blind cards, {len(event.stock)} in the stock")
    if isinstance(event, Lay):
        return f"{who} lays {cards_text(list(record.get('cards', event.cards)))}"
    if isinstance(event, Draw):
        return f"{who} draws a card" + _seen(record, " ({})")
    if isinstance(event, Pickup):
        return f"{who} picks up the face-up pile"
    if isinstance(event, Flip):
        return f"{who} turns up {slot_text(event.slot, names, event.actor)}{_seen(record, ': {}')}"
    if isinstance(event, Steal):
        other = seat_name(1 - event.actor, names) if event.actor in (0, 1) else "the other player"
        if event.slot is not None:
            return (f"{who} steals {slot_text(event.slot, names, event.actor)}"
                    f"{_seen(record, ' ({})')}")
        return f"{who} steals {_seen(record, '{}') or 'a card'} from {other}"
    if isinstance(event, Peek):
        return f"{who} looks at {slot_text(event.slot, names, event.actor)}{_seen(record, ' ({})')}"
    if isinstance(event, EndTurn):
        return f"{who} ends the go"
    return None


# -- views and facts --------------------------------------------------------------------------------
class BunniesFacts(Facts, kw_only=True):
    """What the facts of Bunnies' effects and refusals hold (a fact's key is one of these
    fields; the view's own keys are typed by views.BunniesView)."""

    from_: Seat = msgspec.field(name="from")
    """The player a card is stolen from."""
    bunny_of: Seat
    first_seat: Seat
    winners: Seats
    seats_to_act: Seats
    to_act: Seats
    card: Card
    cards: Cards | int
    top: Card | Cards
    laid: Cards
    named: Card
    duplicated: Cards
    missing: Cards
    hand: PerSeat[int] | Cards | int
    """A hand's cards, or how many (one figure a seat)."""
    bunnies: PerSeat[list[Rank]] | PerSeat[int]
    blinds_left: PerSeat[int]
    hand_sizes: PerSeat[int]
    blind_counts: PerSeat[int]
    rank: Rank
    kind: BunnyKind
    slot: Slot
    bonus: int
    opponent_blinds_left: int


_KINDS = {"bunny": "a bunny", "royal": "a royal bunny", "super": "a super bunny"}


def _cards_said(cards: Any, names: Names) -> str:
    said = [card_face(str(c)) for c in cards]
    return " ".join(said) if all(len(c) <= 4 for c in said) else ", ".join(said)


VOCABULARY = Vocabulary(
    labels={"active": "to play", "hands": "hand", "pile": "face-up pile", "bunnies": "bunnies",
            "bunny_action": "bunny action owed", "scores": "score", "out": "went out",
            "top": "top card", "laid": "laid", "stock": "stock", "first_seat": "first to play",
            "opponent_blinds_left": "opponent's blind cards left", "from": "taken from",
            "bunny_of": "in the bunny of", "hand_sizes": "hand sizes", "named": "named"},
    types=(BunniesFacts, BunniesView),
    writers={
        CARD: lambda v, _n: card_face(str(v)),
        CARDS: _cards_said,
        RANK: lambda v, _n: RANK_WORDS.get(v, str(v)),
        BUNNY_KIND: lambda v, _n: _KINDS.get(v, str(v)),
        SLOT: lambda v, n: slot_text(v, n) if v in ALL_SLOTS else str(v),
    },
)
"""The names of Bunnies' keys and, by their types, what each holds."""


def describe_changes(before: dict[str, Any], after: dict[str, Any], names: Names) -> list[str]:
    """What changed between two Bunnies views: the blind cards by place (dealt, seen,
    uncovered, gone), the rest worded by the vocabulary."""
    lines = change_lines(VOCABULARY, {k: v for k, v in before.items() if k != "blinds"},
                         {k: v for k, v in after.items() if k != "blinds"}, names)
    blinds = _blind_changes(before.get("blinds", {}), after.get("blinds", {}), names)
    # The blind cards come after the hands, as on the table.
    at = next((i for i, line in enumerate(lines) if "hand" not in line.split(":")[0]), len(lines))
    return lines[:at] + blinds + lines[at:]


def _blind_changes(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]],
                   names: Names) -> list[str]:
    if not before and after:
        own = sum(1 for s in after if s not in SHARED_SLOTS)
        shared = sum(1 for s in after if s in SHARED_SLOTS)
        return [f"blind cards dealt: {own // 2} each and {shared} shared"]
    lines = []
    for slot in ALL_SLOTS:
        b, a = before.get(slot), after.get(slot)
        where = slot_text(slot, names)
        where = where[0].upper() + where[1:]
        if b is not None and a is None:
            lines.append(f"{where} left the table (it was {card_face(b['card'])})")
        elif b is not None and a is not None:
            if b["card"] != a["card"]:
                lines.append(f"{where} is known: {card_face(a['card'])}")
            if b["covered"] and not a["covered"]:
                lines.append(f"{where} is uncovered (nothing lies on it now)")
            elif a["covered"] and not b["covered"]:
                lines.append(f"{where} is covered again")
        elif a is not None:
            lines.append(f"{where}: {card_face(a['card'])}")
    return lines


def describe_outcome(outcome: Outcome, names: Names) -> str:
    """``Game over: Bo wins 18 to 2 (went out, BUN-END-2).``"""
    winners = outcome.winners
    who = and_list([seat_name(w, names) for w in winners])
    scores = outcome.scores or []
    if len(winners) == 1 and len(scores) == 2:
        result = f"{who} wins {max(scores)} to {min(scores)}"
    else:
        result = f"{who} share the win" if len(winners) > 1 else f"{who} wins"
        if scores:
            result += " (" + ", ".join(f"{seat_name(s, names)} {p}" for s, p in enumerate(scores)) + ")"
    return f"Game over: {result} ({outcome.reason.replace('_', ' ')}, {outcome.rule})."


_CODE = re.compile(r"'?\b([2-9TJQKA][CDHS])\b'?")


def faces_named(message: str) -> str:
    """A rule's message with its cards as faces: ``9C does not equal or beat the top card
    QH`` reads ``9♣ does not equal or beat the top card Q♥``."""
    return _CODE.sub(lambda m: card_face(m[1]), message)
