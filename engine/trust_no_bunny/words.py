"""A game of Trust No Bunny in words: events as the table would say them ("Bo accuses Cy and
Di", "Ann proposes Bo and Cy as guards"), each perspective told only what it saw (the night
is secret: R-TNB-11), and the records of a view (a night's result, a proposal, a player's
notes) spelled out for "what changed" (engine.wording gives the rest).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.hidden import UNKNOWN
from engine.record import Event
from engine.said import Facts, PerSeat, Seat, Seats
from engine.trust_no_bunny import events as ev
from engine.trust_no_bunny.numbers import ITEMS, MUTATIONS, QUIRKS
from engine.trust_no_bunny.views import (
    ACCUSATION,
    ENDING,
    NIGHT,
    NOTE,
    PROPOSAL,
    REVEAL,
    ROLE,
    THING,
    TIMEOUT,
    TONIGHT,
    Role,
    Secrets,
    Thing,
    TnbView,
)
from engine.wording import Names, Vocabulary, and_list, entry_text, seat_name, seats_text

NAMES_OF_THINGS = frozenset({"quirk", "quirks", "mutation", "mutations", "item", "items", "offers"})
"""Keys whose values are the game's named things (Items, Quirks, Mutations)."""


def thing(name: str | None) -> str:
    """An Item, Quirk or Mutation by its name: ``crystal_ball`` -> ``Crystal Ball``; one a
    game recorded at the table did not see (``"?"``) is ``unknown``."""
    if not name:
        return "none"
    if name == UNKNOWN:
        return "unknown"
    return " ".join(word.capitalize() for word in name.split("_"))


_THINGS = re.compile(r"\b(" + "|".join(sorted((*ITEMS, *QUIRKS, *MUTATIONS), key=len, reverse=True))
                     + r")\b")


def things_named(message: str) -> str:
    """A rule's message with each Item, Quirk and Mutation id as its name."""
    return _THINGS.sub(lambda m: thing(m[1]), message)


def cards(values: Sequence[int | str] | str) -> str:
    """Cards by value, as the record writes them: ``1 2 4``; ``?`` for a card nobody saw, and
    ``cards nobody saw`` for a whole draw nobody counted (a recorded game)."""
    if values == UNKNOWN:
        return "cards nobody saw"
    return " ".join(str(v) for v in values) if values else "no card"


def seats_or_unknown(seats: Sequence[int | str], names: Names) -> str:
    """Seats by name; a seat a recorded game did not know (``"?"``) as ``someone unknown``."""
    return and_list([seat_name(s, names) if isinstance(s, int) else "someone unknown" for s in seats])


def _gnaw(record: Mapping[str, Any]) -> str:
    gnaw = record.get("gnaw") or []
    return f", gnawing with {cards(gnaw)}" if gnaw else ""


# -- events ---------------------------------------------------------------------------------------
def describe(event: Event, record: Mapping[str, Any], names: Names, seen: bool,
             viewer: int | None) -> str | None:
    """``event`` in words (see :func:`_event`), then what a recorded game writes on it: the
    night's stage the table was shown (TNB-REC-1), the reveal at the end (TNB-REC-3)."""
    said = _event(event, record, names, seen, viewer)
    if said is None:
        return None
    stage = _stage(event)
    if stage is not None:
        wolves = "wolf" if stage.unblocked == 1 else "wolves"
        said += f"; the night's stage: {stage.unblocked} {wolves} got through" + (
            f", {stage.gnawed} points gnawed" if stage.gnawed else "")
    reveal = _reveal(event)
    if reveal is not None:
        said += f"; the end reveals the Werebunnies: {seats_text(reveal.werebunnies, names)}"
    return said


def _stage(event: Event) -> ev.NightStage | None:
    """The night's stage a recorded game writes on the event that ends a night (public)."""
    if isinstance(event, ev.Guard | ev.HomeAction | ev.Act | ev.Timeout):
        return event.stage
    return None


def _reveal(event: Event) -> ev.Reveal | None:
    """The reveal a recorded game writes on the event that ends it (public)."""
    if isinstance(event, ev.Accuse | ev.Vote | ev.Draw | ev.Timeout):
        return event.reveal
    return None


def _event(event: Event, record: Mapping[str, Any], names: Names, seen: bool,
           viewer: int | None) -> str | None:
    """``event`` in words from ``record``, the event as the perspective saw it; ``seen``
    says whether the perspective saw a player's secret choice (its own, or the referee);
    ``viewer`` is the seat looking, if a seat is."""
    who = seat_name(event.actor, names)
    mine = f"{seat_name(viewer, names)}: " if viewer is not None else ""
    if isinstance(event, ev.Roles):
        mayor = f"first mayor {seat_name(event.first_mayor, names)}"
        if "werebunnies" in record and "quirks" in record:  # the referee's record
            if all(s == UNKNOWN for s in event.werebunnies):
                return f"the roles are dealt (nobody at the table saw them); {mayor}"
            return f"the roles: Werebunnies {seats_or_unknown(event.werebunnies, names)}; {mayor}"
        if record.get("role") is not None:
            role = "a Werebunny" if record["role"] == "werebunny" else "a Townsfolk"
            secret = thing(record.get("quirk") or record.get("mutation"))
            partner = ""
            if record.get("werebunnies"):
                partner = " with " + seats_or_unknown(record["werebunnies"], names)
            return (f"the roles are dealt in secret: {seat_name(viewer, names)} is {role} ({secret})"
                    f"{partner}; {mayor}")
        return f"the roles are dealt in secret; {mayor}"
    if isinstance(event, ev.Offers):
        offered = record.get("items")
        if isinstance(offered, list) and offered and isinstance(offered[0], str):
            return f"two Items are offered to each player ({mine_text(offered, viewer, names)})"
        return "two Items are offered to each player"
    if isinstance(event, ev.ChooseItem):
        if not seen or event.item == UNKNOWN:
            return f"{who} chooses an Item"
        return f"{who} keeps the {thing(event.item)}"
    if isinstance(event, ev.Deal):
        hand = record.get("hands")
        own = ""
        if isinstance(hand, list) and hand and isinstance(hand[0], int):
            own = f" ({mine}{cards(hand)})"
        size = len(event.hands[0]) if event.hands else 0
        return f"the deal: {size} cards each{own}"
    if isinstance(event, ev.Accuse):
        return f"{who} accuses {seats_text(event.suspects, names)}"
    if isinstance(event, ev.Ready):
        return f"{who} is ready, accusing nobody"
    if isinstance(event, ev.CardLost):
        lost = f" (a {record['card']})" if record.get("card") not in (None, UNKNOWN) else ""
        return f"{seat_name(event.seat, names)} loses a card for the accusation{lost}"
    if isinstance(event, ev.Propose):
        return f"{who} proposes {seats_text(event.team, names)} as guards"
    if isinstance(event, ev.Vote):
        # A vote is secret until the vote is complete (TNB-VOTE-4): the board shows it then.
        return f"{who} votes {'yes' if event.accept else 'no'}" if seen else f"{who} votes"
    if isinstance(event, ev.Guard):
        if not seen:
            return f"{who} plays guard cards in secret"
        parts = [f"defends with {cards(event.defend)}"] if event.defend else []
        if event.weaken:
            parts.append(f"weakens with {cards(event.weaken)}")
        return f"{who} guards: " + (" and ".join(parts) if parts else "no card")
    if isinstance(event, ev.HomeAction):
        if not seen:
            return f"{who} acts at home in secret"
        return _home(event, record, who, names)
    if isinstance(event, ev.Draw):
        drawn_cards = record.get("cards")
        if isinstance(drawn_cards, list) and (not drawn_cards or isinstance(drawn_cards[0], int)):
            return f"dawn: the cards are drawn ({mine}{cards(drawn_cards)})"
        if isinstance(drawn_cards, list) and all(c == UNKNOWN for c in drawn_cards):
            return "dawn: the cards are drawn (nobody at the table saw them)"
        if isinstance(drawn_cards, list):
            drawn = [f"{seat_name(s, names)} {cards(c)}" for s, c in enumerate(drawn_cards) if c]
            return "dawn: the cards are drawn (" + (", ".join(drawn) or "nobody draws") + ")"
        return "dawn: the cards are drawn"
    if isinstance(event, ev.Act):
        return f"{who} acts tonight (nobody at the table saw what)"
    if isinstance(event, ev.Timeout):
        staged = record.get("staged") or []
        extra = "; staged: " + "; ".join(
            f"{seat_name(s['seat'], names)} {cards(s.get('defend') or [])}" for s in staged) if staged else ""
        return "the timer runs out" + extra
    return None


def mine_text(items: list[str], viewer: int | None, names: Names) -> str:
    return f"{seat_name(viewer, names)}: " + " or ".join(map(thing, items))


def _home(event: ev.HomeAction, record: Mapping[str, Any], who: str, names: Names) -> str:
    gnaw = _gnaw(record)
    if isinstance(event, ev.Bless):
        return f"{who} blesses {seat_name(event.target, names)}{gnaw}"
    if isinstance(event, ev.Predict):
        return f"{who} predicts {'damage' if event.damage else 'no damage'} tonight{gnaw}"
    if isinstance(event, ev.Sabotage):
        return (f"{who} tries to sabotage {seat_name(event.target, names)}, guessing the Quirk "
                f"{thing(event.quirk)}{gnaw}")
    if isinstance(event, ev.Gaze):
        return f"{who} looks into the Crystal Ball at {seat_name(event.target, names)}{gnaw}"
    if isinstance(event, ev.Brew):
        return f"{who} brews the Mystical Recipe{gnaw}"
    if isinstance(event, ev.Rest):
        return f"{who} rests at home{gnaw}"
    return f"{who} acts at home"


# -- views and facts ----------------------------------------------------------------------------------
class TnbFacts(Facts, kw_only=True):
    """What the facts of Trust No Bunny's effects and refusals hold (a fact's key is one of
    these fields; the view's own keys are typed by views.TnbView)."""

    target: Seat
    partner: Seat
    first_mayor: Seat
    accuser: Seat
    from_: Seat = msgspec.field(name="from")
    seats: Seats | PerSeat[Secrets]
    werebunnies: Seats
    winners: Seats
    guards: Seats
    suspects: Seats
    votes: PerSeat[bool | None]
    quirks: PerSeat[Thing | None]
    mutations: PerSeat[Thing | None]
    items: PerSeat[Thing | None]
    hand_sizes: PerSeat[int | None]
    hands: PerSeat[list[int | str] | int]
    quirk: Thing
    mutation: Thing
    item: Thing
    offers: list[Thing]
    role: Role
    winner: Role
    # plain facts: the table's numbers
    night: int
    cards_each: int
    accepts: int
    successes: int
    damage: int
    gnawed: int
    unblocked: int
    by: int
    """How many wolves are raised by."""
    drawn: list[Any]


_ROLES = {"werebunny": "Werebunny", "townsfolk": "Townsfolk", "werebunnies": "the Werebunnies"}


def _proposal(entry: dict[str, Any], names: Names) -> str:
    mayor = seat_name(entry.get("mayor"), names)
    if entry.get("team") is None:
        return f"round {entry.get('round')}: mayor {mayor} ran out of time"
    votes = entry.get("votes") or []
    yes = sum(1 for v in votes if v)
    no = sum(1 for v in votes if v is False)
    verdict = "accepted" if entry.get("approved") else "rejected"
    return (f"round {entry.get('round')}: {mayor} proposes {seats_text(entry['team'], names)}, "
            f"{yes} yes / {no} no, {verdict}")


def _night(entry: dict[str, Any], names: Names) -> str:
    return (f"night {entry.get('night')}: guards {seats_text(entry.get('guards') or [], names)}, "
            f"{entry.get('wolves')} wolves, {entry.get('gnawed', 0)} gnawed, "
            f"{entry.get('unblocked')} got through; Wall −{entry.get('wall_damage')} to "
            f"{entry.get('wall')}, Tower −{entry.get('tower_damage')} to {entry.get('tower')}")


def _ending(entry: dict[str, Any], names: Names) -> str:
    side = "the Townsfolk" if entry.get("winner") == "townsfolk" else "the Werebunnies"
    return (f"{side} win ({str(entry.get('reason')).replace('_', ' ')}, {entry.get('rule')}); "
            f"winners {seats_text(entry.get('winners') or [], names)}")


def _revealed(entry: dict[str, Any], names: Names) -> str:
    werebunnies = seats_text(entry.get("werebunnies") or [], names)
    return f"every role is revealed: the Werebunnies were {werebunnies}"


def _accusation(entry: dict[str, Any], names: Names) -> str:
    return (f"round {entry.get('round')}: {seat_name(entry.get('seat'), names)} accuses "
            f"{seats_text(entry.get('suspects') or [], names)}")


def _timeout(entry: dict[str, Any], names: Names) -> str:
    return (f"round {entry.get('round')}: the timer ran out in the {entry.get('phase')} for "
            f"{seats_text(entry.get('seats') or [], names)}")


def _tonight(entry: dict[str, Any], names: Names) -> str:
    if "type" not in entry:
        return entry_text(VOCABULARY, "tonight", entry, names)
    return str(entry["type"]).replace("_", " ") + "".join(
        f", {k} {_plain_value(k, v, names)}" for k, v in entry.items()
        if k not in ("type", "seq", "actor", "gnaw") and v not in (None, []))


def _noted(entry: dict[str, Any], names: Names) -> str:
    said = _note(entry, names)
    return said if said is not None else entry_text(VOCABULARY, "notes", entry, names)


def _plain_value(key: str, value: Any, names: Names) -> str:
    if key in ("target", "seat") and isinstance(value, int):
        return seat_name(value, names)
    if isinstance(value, list):
        return cards(value) if all(isinstance(v, int) for v in value) else ", ".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in NAMES_OF_THINGS and isinstance(value, str):
        return thing(value)
    return str(value)


def _note(note: dict[str, Any], names: Names) -> str | None:
    """A private note (what only its seat knows) in words."""
    kind = note.get("kind")
    when = f"night {note['night']}" if "night" in note else f"round {note.get('round')}"
    target = seat_name(note.get("target"), names) if isinstance(note.get("target"), int) else ""
    said = {
        "drew": lambda: f"drew {cards(note.get('cards') or [])}",
        "lost_card": lambda: f"lost a {note.get('card')} for accusing",
        "guarded": lambda: f"guarded: defended {note.get('defended')}, weakened {note.get('weakened')}",
        "medallion": lambda: f"the Medallion tells of {note.get('weakened_by_others')} weakening by others",
        "gnawed": lambda: f"gnawed with {cards(note.get('cards') or [])}",
        "blessed": lambda: f"blessed {target}",
        "blessed_by": lambda: f"blessed by {seat_name(note.get('seat'), names)}",
        "predicted": lambda: (f"predicted {'damage' if note.get('damage') else 'no damage'}, "
                              f"{'right' if note.get('right') else 'wrong'}"),
        "gaze": lambda: (f"the Crystal Ball shows {target} "
                         f"{'is' if note.get('werebunny') else 'is not'} a Werebunny"),
        "sabotage": lambda: (f"sabotage of {target} ({thing(note.get('quirk'))}): "
                             f"{'right' if note.get('right') else 'wrong'}"),
        "sabotaged": lambda: f"sabotaged: lost the {thing(note.get('item'))}",
        "sabotage_cards": lambda: f"sabotage cards: {note.get('cards')}",
        "brewed": lambda: f"brewed the Mystical Recipe: {note.get('cards')} cards",
    }.get(str(kind))
    return None if said is None else f"{when}: {said()}"


VOCABULARY = Vocabulary(
    labels={"waiting_on": "to act", "on_guard": "on guard", "awaiting_card_from": "owes a card",
            "wall_fell": "the Wall has fallen", "team": "proposed team", "mayor": "mayor",
            "standing_accusations": "standing accusation", "refuted_pairs": "refuted pairs",
            "tonight": "action tonight", "item_lost": "Item lost", "item_used": "Item used",
            "hand": "hand", "hands": "hand", "notes": "notes", "first_mayor": "first mayor",
            "werebunnies": "Werebunnies", "suspects": "suspects", "guards": "guards",
            "active": "mayor to propose", "owed": "cards owed at dawn", "deck": "deck",
            "discard": "discard pile", "offers": "Items offered", "item": "Item"},
    types=(TnbFacts, TnbView),
    quiet_keys=frozenset({"perspective", "seq", "table", "players"}),
    writers={
        THING: lambda v, _n: thing(v),
        ROLE: lambda v, _n: _ROLES.get(v, str(v)),
        PROPOSAL: _proposal, NIGHT: _night, ENDING: _ending, REVEAL: _revealed,
        ACCUSATION: _accusation, TIMEOUT: _timeout, TONIGHT: _tonight, NOTE: _noted,
    },
)
