"""A game of Killer Bunnies and the Ultimate Odyssey in words: events as the table would say
them ("Bo cuts Ann's draw pile: 12 cards from the top go under", "Ann flips her top run card
and saves it, then draws WB01") and the vocabulary its views, effects and verdicts are worded
with (engine.wording gives the rest).

Cards in hands, piles and run positions are named by their Card Identification Number
(``WB07``); what is in play by its piece number, as the views list them. A card the
perspective did not see is missing from the event as it saw it (views.event_view) or is
``"?"`` (a game recorded at the table), and is then told as "a card".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.hidden import UNKNOWN
from engine.killer_odyssey.events import (
    Bottom,
    Cut,
    Deal,
    Discard,
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
from engine.killer_odyssey.table import DEAL, MULLIGAN_CIV
from engine.killer_odyssey.views import HIDDEN
from engine.record import Event
from engine.wording import Names, Vocabulary, and_list, possessive, seat_name


def _known(card: Any) -> str | None:
    """A card's code where the perspective saw it, else None."""
    return card if isinstance(card, str) and card not in (UNKNOWN, HIDDEN) else None


def card_text(card: Any) -> str:
    """A card by its code, or ``a card`` when it was not seen."""
    return _known(card) or "a card"


def pay_text(pay: Mapping[str, int]) -> str:
    """Resources by colour: ``2 red and 1 blue``."""
    return and_list([f"{n} {colour}" for colour, n in pay.items()])


def _choices(record: Mapping[str, Any], names: Names) -> list[str]:
    """What a played card asks for (events.Choices), in words, in the event's order."""
    out: list[str] = []
    if record.get("target") is not None:
        out.append(f"on piece {record['target']}")
    if record.get("opponent") is not None:
        out.append(f"against {seat_name(record['opponent'], names)}")
    if record.get("into") is not None:
        out.append(f"inside city piece {record['into']}")
    elif record.get("at") is not None:
        out.append(f"at place {record['at'] + 1} of the circle")
    if record.get("pay"):
        out.append(f"paying {pay_text(record['pay'])}")
    if record.get("picked") is not None:
        out.append(f"picking {card_text(record['picked'])}")
    if record.get("chosen") is not None:
        out.append(f"choosing {card_text(record['chosen'])} from the discard pile")
    return out


def _with(parts: list[str]) -> str:
    return f" ({', '.join(parts)})" if parts else ""


def _drew(record: Mapping[str, Any]) -> str:
    """The replacement card, named only where the perspective saw it."""
    if "drew" not in record:
        return ""
    drawn = _known(record.get("drew"))
    return f", then draws {drawn}" if drawn else ", then draws a card"


def describe(event: Event, record: Mapping[str, Any], names: Names) -> str | None:
    """``event`` in words, from ``record`` (the event as the perspective saw it); None for an
    event that is not Odyssey's own (a correction: the generic words)."""
    who = seat_name(event.actor, names)
    if isinstance(event, Shuffle):
        order = record.get("order")
        seen = f": {len(order)} cards, {order[0]} on top" if order else ""
        return f"{possessive(seat_name(event.seat, names))} draw pile is shuffled{seen}"
    if isinstance(event, Cut):
        return (f"{who} cuts {possessive(seat_name(event.seat, names))} draw pile: {event.depth} "
                f"cards from the top go under")
    if isinstance(event, Deal):
        dealt = [card_text(c) for c in record.get("cards") or ()]
        return f"{who} deals a hand of {DEAL} cards" + (f": {' '.join(dealt)}" if dealt else "")
    if isinstance(event, Mulligan):
        return f"{who} takes a mulligan: the {DEAL} cards go back, Civ points down to {MULLIGAN_CIV}"
    if isinstance(event, Runs):
        top, bottom = _known(record.get("top")), _known(record.get("bottom"))
        if top is None and bottom is None:
            return f"{who} puts down the first top and bottom run cards, face down"
        return f"{who} puts down the first run cards: {card_text(top)} on top, {card_text(bottom)} below"
    if isinstance(event, Draw | Overdraw):
        drawn = _known(record.get("card"))
        what = "a card not owed" if isinstance(event, Overdraw) else "a card"
        return f"{who} draws {what}" + (f" ({drawn})" if drawn else "")
    if isinstance(event, Roll):
        return f"{seat_name(event.seat, names)} rolls the {event.die}: {event.face}"
    if isinstance(event, Flip):
        flipped = _known(record.get("card"))
        card = f"the top run card {flipped}" if flipped else "the top run card"
        how = {"play": "plays it", "discard": "discards it", "save": "saves it"}[event.how]
        return f"{who} flips {card} and {how}{_with(_choices(record, names))}{_drew(record)}"
    if isinstance(event, Play):
        card = card_text(record.get("card"))
        if event.save:
            return f"{who} tries to save {card} straight from the hand{_drew(record)}"
        return f"{who} plays {card} from the hand{_with(_choices(record, names))}{_drew(record)}"
    if isinstance(event, Use):
        return f"{who} uses the saved card, piece {event.piece}{_with(_choices(record, names))}"
    if isinstance(event, Discard):
        return f"{who} discards {card_text(record.get('card'))} from the hand as the turn{_drew(record)}"
    if isinstance(event, Bottom):
        return f"{who} puts {card_text(record.get('card'))} down as the bottom run card; the turn ends"
    if isinstance(event, Pass):
        return f"{who} has nothing to play; the turn passes"
    if isinstance(event, Feed):
        paying = f", paying {pay_text(event.pay)}" if event.pay else ""
        return f"{who} feeds against the Feed The Bunny card, piece {event.demand}{paying}"
    if isinstance(event, Place):
        if event.into is not None:
            where = f"inside city piece {event.into}"
        elif event.at is not None:
            where = f"at place {event.at + 1}"
        else:
            where = "at the end"
        return f"{who} places piece {event.piece} {where}"
    if isinstance(event, Trade):
        return (f"{who} trades with {seat_name(event.partner, names)}: gives "
                f"{_goods(event.give, event.give_hand)}, takes {_goods(event.take, event.take_hand)}")
    if isinstance(event, Hexascrewup):
        return (f"{who} spots an extra card in {possessive(seat_name(event.against, names))} hand: "
                f"{card_text(record.get('card'))} is picked from it and discarded")
    return None


def _goods(pieces: list[int], hand: list[str]) -> str:
    """What one side of a trade gives: pieces in play and cards from the hand."""
    things = [f"piece {p}" for p in pieces] + [card_text(c) for c in hand]
    return and_list(things) if things else "nothing"


# -- views, effects and verdicts -----------------------------------------------------------------
def _value(key: str, value: Any, names: Names) -> str | None:
    if isinstance(value, str) and value in (UNKNOWN, HIDDEN):
        return "face down" if value == HIDDEN else "not seen"
    return None


def _entry(key: str, entry: dict[str, Any], names: Names) -> str | None:
    """A card in play (a saved card, a creature, a city, what lies on one): its code and name,
    then its piece number."""
    if "piece" in entry and "card" in entry and "name" in entry:
        whose = f", {possessive(seat_name(entry['owner'], names))}" if "owner" in entry else ""
        return f"{entry['card']} {entry['name']} (piece {entry['piece']}{whose})"
    if key == "pay" and all(isinstance(n, int) for n in entry.values()):
        return pay_text(entry)
    return None


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
    seat_keys=frozenset({"seat", "actor", "active", "owner", "player", "by", "partner", "against",
                         "opponent", "first", "cut_owed", "winner_seat"}),
    seat_list_keys=frozenset({"winners", "seats", "again", "shuffle_owed"}),
    per_seat_keys=frozenset({"seats", "civ", "totals", "scores"}),
    value=_value,
    entry=_entry,
)
