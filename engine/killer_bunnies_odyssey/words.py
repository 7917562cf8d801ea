"""A game of Killer Bunnies and the Ultimate Odyssey in words: events as the table would say
them ("Bo cuts Ann's draw pile: 12 cards from the top go under", "Ann flips her top run card
and saves it, then draws WB01") and the vocabulary its views, effects and verdicts are worded
with (engine.wording gives the rest).

A card the perspective saw is named by the family kit (engine.killer.words) as its name and
its Card Identification Number, ``Technology (WB01)``, from the cards of the game's own decks:
the ruleset bound to a game (``Ruleset.for_game``) words it with that game's card table, an
unbound one with every card of the deck library (a code means one card in it). What is in
play is also told by its piece number, as the views list it. A card the perspective did not
see is missing from the event as it saw it (views.event_view) or is ``"?"`` (a game recorded
at the table), and is then told as "a card"; no name is looked up for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any

import msgspec

from engine.hidden import UNKNOWN
from engine.killer.words import CardWords, FamilyFacts, named_in_play
from engine.killer_bunnies_odyssey import events as ev
from engine.killer_bunnies_odyssey.library import Table, library
from engine.killer_bunnies_odyssey.numbers import DEAL, MULLIGAN_CIV
from engine.killer_bunnies_odyssey.views import (
    HIDDEN,
    PIECE,
    DemandSeen,
    Occupant,
    OdysseyView,
    PieceSeen,
    SeatSeen,
)
from engine.record import Event
from engine.said import CARD, CARDS, Card, Cards, Meaning, PerSeat, Seat, Seats
from engine.wording import Names, Vocabulary, and_list, possessive, seat_name


def _known(card: Any) -> str | None:
    """A card's code where the perspective saw it, else None."""
    return card if isinstance(card, str) and card not in (UNKNOWN, HIDDEN) else None


def table_words(table: Table) -> CardWords:
    """The words for the cards of one game: those of its decks (library.table_for)."""
    return CardWords({code: card for code, card in zip(table.codes[1:], table.cards[1:], strict=True)
                      if card is not None})


_LIBRARY_WORDS: dict[int, CardWords] = {}


def library_words() -> CardWords:
    """The words for every card of the deck library as it stands (a ruleset not bound to a
    game); made again when the library is read again."""
    lib = library()
    found = _LIBRARY_WORDS.get(id(lib))
    if found is None:
        _LIBRARY_WORDS.clear()
        found = _LIBRARY_WORDS[id(lib)] = CardWords(lib.by_code)
    return found


def card_text(card: Any, w: CardWords) -> str:
    """A card by its name and code, or ``a card`` when it was not seen."""
    known = _known(card)
    return "a card" if known is None else w.card(known)


def pay_text(pay: Mapping[str, int]) -> str:
    """Resources by colour: ``2 red and 1 blue``."""
    return and_list([f"{n} {colour}" for colour, n in pay.items()])


def _choices(record: Mapping[str, Any], names: Names, w: CardWords) -> list[str]:
    """What a played card asks for (events.Choices), in words, in the event's order."""
    inside = record.get("into") is not None  # a city piece is the place; "at" is then not said
    return named_in_play(record, (
        ("target", lambda _v: f"on {_piece(record, 'target', w)}"),
        ("opponent", lambda v: f"against {seat_name(v, names)}"),
        ("into", lambda _v: f"inside {_piece(record, 'into', w, 'city piece')}"),
        *([] if inside else [("at", lambda v: f"at place {v + 1} of the circle")]),
        ("pay", lambda v: f"paying {pay_text(v)}"),
        ("picked", lambda v: f"picking {card_text(v, w)}"),
        ("chosen", lambda v: f"choosing {card_text(v, w)} from the discard pile"),
    ))


def _piece(record: Mapping[str, Any], key: str, w: CardWords, what: str = "piece") -> str:
    """A piece in play the event names: its card where the position was at hand
    (views.seen_in_play), else its number as the views list it."""
    code = _known(record.get(f"{key}_card"))
    return w.card(code) if code is not None else f"{what} {record[key]}"


def _with(parts: list[str]) -> str:
    return f" ({', '.join(parts)})" if parts else ""


def _drew(record: Mapping[str, Any], w: CardWords) -> str:
    """The replacement card, named only where the perspective saw it."""
    if "drew" not in record:
        return ""
    return f", then draws {card_text(record.get('drew'), w)}"


def describe(event: Event, record: Mapping[str, Any], names: Names, w: CardWords) -> str | None:
    """``event`` in words, from ``record`` (the event as the perspective saw it), its cards
    named by ``w``; None for an event that is not Odyssey's own (a correction: the generic
    words)."""
    who = seat_name(event.actor, names)
    if isinstance(event, ev.Shuffle):
        order = record.get("order")
        seen = f": {len(order)} cards, {card_text(order[0], w)} on top" if order else ""
        return f"{possessive(seat_name(event.seat, names))} draw pile is shuffled{seen}"
    if isinstance(event, ev.Cut):
        return (f"{who} cuts {possessive(seat_name(event.seat, names))} draw pile: {event.depth} "
                f"cards from the top go under")
    if isinstance(event, ev.Deal):
        dealt = [card_text(c, w) for c in record.get("cards") or ()]
        return f"{who} deals a hand of {DEAL} cards" + (f": {', '.join(dealt)}" if dealt else "")
    if isinstance(event, ev.Mulligan):
        return f"{who} takes a mulligan: the {DEAL} cards go back, Civ points down to {MULLIGAN_CIV}"
    if isinstance(event, ev.Runs):
        top, bottom = _known(record.get("top")), _known(record.get("bottom"))
        if top is None and bottom is None:
            return f"{who} puts down the first top and bottom run cards, face down"
        return (f"{who} puts down the first run cards: {card_text(top, w)} on top, "
                f"{card_text(bottom, w)} below")
    if isinstance(event, ev.Draw | ev.Overdraw):
        drawn = _known(record.get("card"))
        if not isinstance(event, ev.Overdraw):
            return f"{who} draws {card_text(drawn, w)}"
        return f"{who} draws {w.card(drawn)}, a card not owed" if drawn else f"{who} draws a card not owed"
    if isinstance(event, ev.Roll):
        return f"{seat_name(event.seat, names)} rolls the {event.die}: {event.face}"
    if isinstance(event, ev.Flip):
        flipped = _known(record.get("card"))
        card = f"the top run card, {w.card(flipped)}," if flipped else "the top run card"
        how = {"play": "plays it", "discard": "discards it", "save": "saves it"}[event.how]
        return f"{who} flips {card} and {how}{_with(_choices(record, names, w))}{_drew(record, w)}"
    if isinstance(event, ev.Play):
        card = card_text(record.get("card"), w)
        if event.save:
            return f"{who} tries to save {card} straight from the hand{_drew(record, w)}"
        return f"{who} plays {card} from the hand{_with(_choices(record, names, w))}{_drew(record, w)}"
    if isinstance(event, ev.Use):
        used = _piece(record, "piece", w)
        used = used if _known(record.get("piece_card")) else f", {used}"
        return f"{who} uses the saved card{' ' if not used.startswith(',') else ''}{used}" \
            f"{_with(_choices(record, names, w))}"
    if isinstance(event, ev.Discard):
        return (f"{who} discards {card_text(record.get('card'), w)} from the hand as the "
                f"turn{_drew(record, w)}")
    if isinstance(event, ev.Bottom):
        return (f"{who} puts {card_text(record.get('card'), w)} down as the bottom run card; the "
                "turn ends")
    if isinstance(event, ev.Pass):
        return f"{who} has nothing to play; the turn passes"
    if isinstance(event, ev.Feed):
        paying = f", paying {pay_text(event.pay)}" if event.pay else ""
        if _known(record.get("demand_card")):
            return f"{who} feeds against {_piece(record, 'demand', w)}{paying}"
        return f"{who} feeds against the Feed The Bunny card, piece {event.demand}{paying}"
    if isinstance(event, ev.Place):
        if event.into is not None:
            where = f"inside {_piece(record, 'into', w, 'city piece')}"
        elif event.at is not None:
            where = f"at place {event.at + 1}"
        else:
            where = "at the end"
        return f"{who} places {_piece(record, 'piece', w)} {where}"
    if isinstance(event, ev.Trade):
        gives = _goods(event.give, record.get("give_cards"), event.give_hand, w)
        takes = _goods(event.take, record.get("take_cards"), event.take_hand, w)
        return f"{who} trades with {seat_name(event.partner, names)}: gives {gives}, takes {takes}"
    if isinstance(event, ev.Hexascrewup):
        return (f"{who} spots an extra card in {possessive(seat_name(event.against, names))} hand: "
                f"{card_text(record.get('card'), w)} is picked from it and discarded")
    return None


def _goods(pieces: list[int], named: list[str] | None, hand: list[str], w: CardWords) -> str:
    """What one side of a trade gives: pieces in play (by card where the position named
    them: views.seen_in_play) and cards from the hand."""
    shown = [w.card(c) if _known(c) else f"piece {p}" for p, c in zip(pieces, named, strict=True)] \
        if named is not None else [f"piece {p}" for p in pieces]
    things = shown + [card_text(c, w) for c in hand]
    return and_list(things) if things else "nothing"


# -- views, effects and verdicts -----------------------------------------------------------------
PAY = Meaning("an Odyssey payment in resources")


class OdysseyFacts(FamilyFacts, kw_only=True):
    """What the facts of Odyssey's effects and refusals hold (a fact's key is one of these
    fields; the view's own keys are typed by views.OdysseyView)."""

    by: Seat
    partner: Seat
    against: Seat
    opponent: Seat
    winner_seat: Seat
    from_: Seat | str = msgspec.field(name="from")
    """The player a card is taken from, or where it comes from (``hand``, ``saved``)."""
    seats: Seats | PerSeat[SeatSeen]
    """Players (a fact), or the view's players one by one."""
    again: Seats
    """The players who roll again (a tie)."""
    civ: PerSeat[int] | int
    totals: PerSeat[int]
    scores: PerSeat[int]
    target: int
    """A piece (a card in play) by its number; so are ``piece``, ``into`` and ``host``."""
    piece: int
    into: int
    host: int
    cards: Cards | int
    discarded: Card | bool
    pay: Annotated[dict[str, int], PAY]
    # plain facts: numbers, pieces and the rules' own words
    at: int | None
    """A place of the Bunny Circle (0 first)."""
    demand: int
    demands: list[int] | list[DemandSeen]
    """Feed The Bunny cards by piece (a fact), or the view's records of them."""
    occupants: list[int] | list[Annotated[Occupant, PIECE]]
    on: int | list[Annotated[PieceSeen, PIECE]]
    neighbours: list[int]
    """The pieces beside a bunny an attack reaches."""
    face: int
    faces: str
    """The band of faces a roll fell in (``1-2``)."""
    roll: int
    level: int
    depth: int
    change: int
    lost: int
    paid: int
    resources: int
    creatures: int
    inside_cities: int
    with_: int = msgspec.field(name="with")
    """How many other creatures an attack takes with its target."""
    how: str
    weapon: str
    why: str
    hash: str


def _piece_text(entry: Mapping[str, Any], names: Names) -> str:
    """A card in play (a saved card, a creature, a city, what lies on one): its code and name,
    then its piece number and whose it is."""
    whose = f", {possessive(seat_name(entry['owner'], names))}" if "owner" in entry else ""
    return f"{entry['card']} {entry['name']} (piece {entry['piece']}{whose})"


VOCABULARY = Vocabulary(
    labels={"active": "to play", "civ": "Civ points", "total": "total", "totals": "totals",
            "hand": "hand", "run": "run cards", "draw": "draw pile", "discard": "discard pile",
            "saved": "saved cards", "mulliganed": "took a mulligan", "turns": "turns played",
            "circle": "Bunny Circle", "center": "Center Circle", "demands": "Feed The Bunny cards",
            "strike": "attack under way", "placing": "to be placed", "shuffle_owed": "shuffles owed",
            "cut_owed": "cut owed", "first": "first player", "hand_size": "hand size",
            "deck": "deck", "occupants": "inside", "under": "under it", "on": "on it",
            "due_turn": "due at turn", "units": "units to feed", "by": "by", "owner": "owner",
            "partner": "partner", "against": "against", "opponent": "opponent",
            "gave": "gave", "got": "got", "gave_hand": "gave from the hand",
            "got_hand": "got from the hand", "again": "roll again", "seats": "players",
            "top": "top run card", "bottom": "bottom run card", "used": "used to pay"},
    types=(OdysseyFacts, OdysseyView),
)


@lru_cache(maxsize=64)  # one a game's card table in use; a long-lived dashboard sees few
def vocabulary_of(w: CardWords) -> Vocabulary:
    """:data:`VOCABULARY` naming the cards of ``w``: a code a view shows (a hand, a run
    position) reads as ``Technology (WB01)``; what the view hides stays as it hides it
    (``face down``; ``not seen`` in a game recorded at the table)."""
    def card(item: Any, names: Names) -> str:
        if item in (UNKNOWN, HIDDEN):
            return "face down" if item == HIDDEN else "not seen"
        return w.card(item) if isinstance(item, str) and w.name(item) is not None else str(item)

    def cards(items: Any, names: Names) -> str:
        said = [card(c, names) for c in items]
        return " ".join(said) if all(len(c) <= 4 for c in said) else ", ".join(said)

    return dataclasses.replace(VOCABULARY, writers={
        CARD: card, CARDS: cards, PIECE: lambda v, n: _piece_text(v, n), PAY: lambda v, _n: pay_text(v),
    })
