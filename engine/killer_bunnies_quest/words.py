"""A game of Killer Bunnies Quest in words: events as the table would say them ("Cy plays
Choose A Carrot (17), taking Carrot #12 - Arnie (165)"), each perspective told only what it
saw, the position drawn in words for ``warren replay``, what changed between two views,
the facts of effects and verdicts, and the end ("Cy wins with the Magic Carrot").

Cards are named by the family kit (engine.killer.words) from the catalogue the game is
played with: its deck set, printing and extra decks (the 2002 printing numbers cards 59-63
differently, a house deck adds cards of its own). A view names its catalogue by content
hash; an event does not, so the ruleset bound to a game (``Ruleset.for_game``) words its
events with that game's cards, and an unbound one with the Blue Starter box's.

What a perspective did not see never reaches its text: an event is worded from the event as
``views.event_view`` shows it to that perspective (another player's run cards and new bottom
card, the hand cards of a trade between two others, the weapons of an exchange, the order of
every shuffled deck, the small carrot deck until the end: KBQ-FACE-1, KBQ-END-2), and
changes from views that are already filtered.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Annotated, Any

import msgspec

from engine.hidden import UNKNOWN
from engine.killer.words import (
    FACE_DOWN,
    CardWords,
    FamilyFacts,
    an,
    named_in_play,
    place,
    plural,
    shared_phrases,
)
from engine.killer_bunnies_quest import events as ev
from engine.killer_bunnies_quest.catalogue import DECKS, Deck, deck_for
from engine.killer_bunnies_quest.options import QuestOptions
from engine.killer_bunnies_quest.views import (
    ABDUCTED,
    CHOICE,
    DIRECTION,
    FEEDS,
    HITS,
    KIND,
    OWED,
    ROLLS,
    RUN_CARD,
    WAITING,
    QuestView,
    RoamerSeen,
    RunCard,
    SeatSeen,
    Unit,
)
from engine.record import Event
from engine.ruleset import Outcome
from engine.said import Card, Cards, Carrot, Dice, Die, Meaning, Money, Place, Places, Seat, Seats
from engine.wording import (
    ARROW,
    Names,
    Vocabulary,
    and_list,
    fact_text,
    possessive,
    seat_name,
    seats_text,
)
from engine.wording import value_text as said_value

MONEY = "Dolla"
"""Quest's money: Kaballa Dolla (docs/card-facts.md §1.2)."""

MARKET = "Kaballa's Market"


class QuestOutcome(Outcome, frozen=True, kw_only=True):
    """How a game of Quest ended: who won, and the carrot that decided it (KBQ-END-2)."""

    magic_carrot: str | None = None
    """The number of the carrot the bottom card of the small carrot deck names."""


# -- the cards of a game ---------------------------------------------------------------------------
_WORDS: dict[str, CardWords] = {}


def words_of(deck: Deck) -> CardWords:
    """The words for the cards of ``deck`` (built once per deck)."""
    found = _WORDS.get(deck.key)
    if found is None:
        found = _WORDS[deck.key] = CardWords.of(deck.catalogue, MONEY)
    return found


def starter_words() -> CardWords:
    """The words for the cards of the default game: the Blue Starter box, current printing."""
    return words_of(deck_for(QuestOptions()))


def deck_of_view(view: Mapping[str, Any]) -> Deck | None:
    """The deck whose catalogue a view names by content hash, if this process has loaded it
    (it has, once a game with it was set up)."""
    wanted = view.get("catalogue")
    return next((d for d in list(DECKS.values()) if d.catalogue.content_hash == wanted), None)


def words_of_view(view: Mapping[str, Any], fallback: CardWords) -> CardWords:
    """The words for the catalogue a view names, else ``fallback``."""
    deck = deck_of_view(view)
    return fallback if deck is None else words_of(deck)


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plain(text: object) -> str:
    return str(text).replace("_", " ")


# -- events ----------------------------------------------------------------------------------------
def describe(event: Event, record: Mapping[str, Any], names: Names, w: CardWords) -> str | None:
    """``event`` in words, from ``record``: the event as the perspective saw it (what it did
    not see is missing there, or a count). None for an event that is not Quest's own."""
    said = _SAYS.get(type(event))
    return None if said is None else said(record, seat_name(event.actor, names), names, w)


Says = Callable[[Mapping[str, Any], str, Names, CardWords], str]


def _setup(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    # The same words for every perspective: the orders are the referee's alone, and naming
    # the Magic Carrot here would tell even the referee's replay the end at its first step.
    said = f"the set-up: every deck is shuffled; {seat_name(r.get('first'), names)} plays first"
    gifts = r.get("gifts") or []
    if any(gifts):
        said += "; starting carrots: " + "; ".join(
            f"{seat_name(s, names)} {w.cards(g)}" for s, g in enumerate(gifts) if g)
    if r.get("removed"):
        said += f"; left out of the draw pile: {w.cards(r['removed'])}"
    return said


def _seen(card: object, w: CardWords, unseen: str = "a card face down") -> str:
    """A card by name, or what the table saw of it (``"?"``: the record does not say)."""
    return unseen if card == UNKNOWN or not isinstance(card, int | str) else w.card(card)


def _runs(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    if r.get("top") == UNKNOWN and r.get("bottom") == UNKNOWN:
        return f"{who} lays the first run cards face down"
    if "top" in r:
        return f"{who} lays the first run cards: {w.run(r['top'], r['bottom'])}"
    return f"{who} lays the first run cards face down"


def _flip(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    if r.get("card") is not None:
        return f"{who} turns up the top run card: {w.card(r['card'])}"
    return f"{who} turns up the top run card"


def _stakes(stakes: Sequence[int], w: CardWords) -> str:
    """Poverty Poker's stakes, ``[Dolla, carrots, bunnies]`` (KBQ-CARD-POVERTY-POKER)."""
    parts = [w.dolla(stakes[0]) if stakes else w.dolla(0)]
    if len(stakes) > 1:
        parts.append(plural(stakes[1], "carrot"))
    if len(stakes) > 2:
        parts.append(plural(stakes[2], "bunny", "bunnies"))
    return and_list(parts)


def _sources(sources: Sequence[int], names: Names) -> str:
    """Rock Bottom's opponents taken from, cabbage first (KBQ-CARD-ROCK-BOTTOM)."""
    if len(sources) == 2:
        return f"cabbage from {seat_name(sources[0], names)} and water from {seat_name(sources[1], names)}"
    return f"from {seats_text(list(sources), names)}"


def _play(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    said = f"{who} plays {w.card(r['card'])}"
    if r.get("on") is not None:
        said += (f" on the roaming card waiting on {w.card(r['on'])}" if r.get("roamer")
                 else f" on {w.card(r['on'])}")
    shared = shared_phrases(names, w)
    extra = named_in_play(r, (
        ("at", lambda v: f"placing it at {place(v)} of the circle"),
        ("player", shared["player"]), ("carrots", shared["carrots"]), ("number", shared["number"]),
        ("weapon", lambda v: f"using {w.card(v)} again"),
        ("stakes", lambda v: f"setting the stakes at {_stakes(v, w)}"),
        ("sources", lambda v: f"taking {_sources(v, names)}"),
    ))
    return ", ".join([said, *extra])


def _discard(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} discards {w.card(r['card'])}"


def _save(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} saves {w.card(r['card'])} face up"


def _bottom(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    if "card" in r and r["card"] != UNKNOWN:
        return f"{who} lays {w.card(r['card'])} as the new bottom run card"
    return f"{who} lays a new bottom run card face down"


def _end_turn(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} ends the turn without a second card"


GOODS = {"cabbage": "a cabbage card", "water": "a water card", "carrot": "a carrot"}


def _buy(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    goods = r.get("goods")
    what = w.card(r["carrot"]) if goods == "carrot" and r.get("carrot") is not None \
        else GOODS.get(str(goods), _plain(goods))
    said = f"{who} buys {what} from {MARKET}"
    if r.get("pay"):
        said += f", paying with {w.cards(r['pay'])}"
    return said


def _feed(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    said = f"{who} feeds {w.card(r['bunny'])}"
    if r.get("demand") is not None:
        said += f" for {w.card(r['demand'])}"
    paid = [*(r.get("cabbage") or []), *(r.get("water") or [])]
    if paid:
        said += f" with {w.cards(paid)}"
    return said


def _starve(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} leaves {w.card(r['bunny'])} unfed, and it starves"


def _trade(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    said = (f"{who} trades with {seat_name(r.get('partner'), names)}: gives "
            f"{w.cards(r.get('give') or [])}, gets {w.cards(r.get('get') or [])}")
    given, got = r.get("give_hand") or [], r.get("get_hand") or []
    if isinstance(given, int) or isinstance(got, int):  # counts: the hand cards went unseen
        count = given if isinstance(given, int) else len(given)
        if count:
            said += f"; and {plural(count, 'hand card')} each way, face down"
    elif UNKNOWN in given or UNKNOWN in got:
        said += f"; from hand, {and_list([_seen(c, w) for c in given])} for " \
                f"{and_list([_seen(c, w) for c in got])}"
    elif given or got:
        said += f"; from hand, {w.cards(given)} for {w.cards(got)}"
    return said


def _roll(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"the roll: {w.roll(r.get('faces') or [])}"


def _bid(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} bids {w.dolla(r['amount'])}"


def _pass(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} passes and is out of the auction"


def _stake(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    put = [*(r.get("carrots") or []), *(r.get("bunnies") or [])]
    return f"{who} stakes {w.cards(put)}" if put else f"{who} stakes no carrot and no bunny"


def _choose(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    parts = []
    if r.get("carrots"):
        parts.append(f"picks {w.cards(r['carrots'])}")
    if r.get("bunnies"):
        parts.append(f"chooses {w.cards(r['bunnies'])}")
    if r.get("at"):
        what = "it" if len(r["at"]) == 1 else "them"
        parts.append(f"places {what} at " + and_list([place(a) for a in r["at"]]) + " of the circle")
    if r.get("under"):
        parts.append(f"puts the clovers under {w.cards(r['under'])}")
    if r.get("give") is not None or r.get("take") is not None:
        parts.append(f"gives {_seen(r.get('give'), w, 'a weapon face down')} and takes "
                     f"{_seen(r.get('take'), w, 'a weapon face down')}")
    if r.get("pay"):
        parts.append(f"pays with {w.cards(r['pay'])}")
    if not parts:
        return f"{who} makes the choice the card asks for"
    return f"{who} " + ", ".join(parts)


def _join(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} joins the game"


def _leave(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    return f"{who} leaves the game"


def _reshuffle(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    count = len(r["order"]) if isinstance(r.get("order"), list) else int(r.get("cards") or 0)
    return f"the discard pile's {plural(count, 'large card')} are shuffled into a new draw pile"


def _draw(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    seat = seat_name(r.get("seat"), names)
    if r.get("card") in (None, UNKNOWN):
        return f"{seat} draws a card"
    return f"{seat} draws {w.card(r['card'])}"


def _reveal(r: Mapping[str, Any], who: str, names: Names, w: CardWords) -> str:
    cards = r.get("cards") or []
    if r.get("seat") is None:
        return f"the small carrot deck's bottom card is turned up: {w.cards(cards)}"
    if r.get("look"):
        seen = f": {w.cards(cards)}" if cards else ""
        return f"{seat_name(r['seat'], names)} looks at the top run card passed to him{seen}"
    shown = w.cards(cards) if cards else "no weapon"
    return f"{seat_name(r['seat'], names)} shows the weapons in the hand: {shown}"


_SAYS: dict[type[Event], Says] = {
    ev.Setup: _setup, ev.Runs: _runs, ev.Flip: _flip, ev.Play: _play, ev.Discard: _discard,
    ev.Save: _save, ev.Bottom: _bottom, ev.EndTurn: _end_turn, ev.Buy: _buy, ev.Feed: _feed,
    ev.Starve: _starve, ev.Trade: _trade, ev.Roll: _roll, ev.Bid: _bid, ev.Pass: _pass,
    ev.Stake: _stake, ev.Choose: _choose, ev.Join: _join, ev.Leave: _leave,
    ev.Reshuffle: _reshuffle, ev.Draw: _draw, ev.Reveal: _reveal,
}


# -- values and facts ------------------------------------------------------------------------------
PLACES = {"run": "the run", "hand": "the hand", "saved": "the saved cards",
          "discard": "the discard pile", "draw_pile": "the bottom of the draw pile"}
"""Where a card comes from or goes, when an effect names a place rather than a seat."""
KINDS = {"money": MONEY, "cabbage": "cabbage", "water": "water", "carrot": "carrot"}
CHOICES = {"carrot": "carrots to take", "revive": "bunnies to revive", "clovers": "where the clovers go",
           "misfortune": "the bunny the misfortune takes", "return": "where a returning bunny goes",
           "exchange": "the weapons to exchange", "upkeep": "the carrots to keep fresh",
           "stake": "what to stake", "feed_now": "how to feed at once"}
"""What a Choice frame waits for (engine.killer_bunnies_quest.state.Choice.kind)."""

WHENCE = Meaning("a Quest place a card comes from or goes to")
GOODS_BOUGHT = Meaning("what a Quest player buys")
STAKES = Meaning("Poverty Poker's stakes")
GIFTS = Meaning("Quest's starting carrots")
FACES = Meaning("Quest dice faces")
CARROT_CARD = Meaning("a Quest carrot card, or a price")

Whence = Annotated[str, WHENCE]
Several = Cards | int
"""Cards, or how many (a hidden hand, a pile, a count an effect names)."""


class QuestFacts(FamilyFacts, kw_only=True):
    """What the facts of Quest's effects and refusals hold (a fact's key is one of these
    fields; the view's own keys are typed by views.QuestView)."""

    winner: Seat
    by: Seat
    with_: Seat = msgspec.field(name="with")
    partner: Seat
    first: Seat
    high_bidder: Seat
    launcher: Seat
    to: Seat | Whence
    from_: Seat | Whence = msgspec.field(name="from")
    seats: Seats | list[SeatSeen]
    winners: Seats
    players: Seats | int
    sources: Seats
    neighbours: Seats
    bunny: Card
    on: Card
    host: Card
    weapon: Card | bool
    gave: Card
    took: Card
    demand: Card
    roamer: Card
    flipped: Card
    top: RunCard
    bottom: RunCard
    from_bunny: Card
    to_bunny: Card
    target: Card
    give: Card | Cards
    take: Card | Cards
    cards: Several
    get: Cards
    give_hand: Several
    get_hand: Several
    pay: Cards
    hand: Several
    saved: Cards
    money: Several
    cabbage: Several
    water: Several
    carrots: Several
    karma: Cards
    under: Cards
    roaming: Cards
    dormant: Cards
    discard: Cards
    discarded: Cards
    bunnies: Cards
    removed: Cards
    draw: Several
    order: Cards
    cabbage_discard: Cards
    water_discard: Cards
    draw_order: Cards
    magic_order: Cards
    cabbage_order: Cards
    water_order: Cards
    options: Cards
    roamers: Cards | list[RoamerSeen]
    dice: Dice
    lowest: Dice
    faces: Annotated[list[int], FACES]
    at: Place | Places
    stakes: Annotated[list[int], STAKES]
    gifts: Annotated[list[list[int]], GIFTS]
    carrot: Carrot | Annotated[int, CARROT_CARD]
    magic_carrot: Carrot
    die: Die
    kind: Annotated[str, KIND]
    goods: Annotated[str, GOODS_BOUGHT]
    choice: Annotated[str, CHOICE]
    direction: Annotated[str, DIRECTION]
    price: Money
    high_bid: Money
    dolla: Money
    cabbage_units: Unit
    water_units: Unit
    # plain facts: numbers and the rules' own words
    amount: int | None
    units: int
    printed: int
    """A bunny's printed level."""
    clovers: int
    number: int
    matches: int
    pattern: str
    band: str
    """The band of a roll's faces that decided it."""
    cause: str
    why: str


LABELS = {
    "active": "to play", "at": "placed at", "magic_carrot": "the Magic Carrot", "from_bunny": "from",
    "to_bunny": "to", "lose_turns": "turns to lose", "cabbage_units": "cabbage", "water_units": "water",
    "dolla": MONEY, "money": f"{MONEY} cards", "high_bid": "high bid", "high_bidder": "high bidder",
    "due_turn": "due by turn", "give_hand": "hand cards given", "get_hand": "hand cards got",
    "cabbage_deck": "cabbage deck", "water_deck": "water deck", "magic_deck": "small carrot deck",
    "draw": "draw pile", "discard": "discard pile", "cabbage_discard": "cabbage discards",
    "water_discard": "water discards", "flipped": "flipped card", "abducted": "held by the aliens",
    "karma": "Bad Karma", "half_price": "half price for", "owed": "owed by the bank",
    "demand": "feed demand", "printed": "printed level", "lives": "lives", "roamer": "roaming card",
    "winners": "winners", "first": "first to play", "with": "with", "gifts": "starting carrots",
    "removed": "left out", "stakes": "stakes", "sources": "taken from",
}

VOCABULARY = Vocabulary(
    labels=LABELS,
    types=(QuestFacts, QuestView),
    quiet_keys=frozenset({"perspective", "seq", "deck_set", "printing", "catalogue"}),
)
"""The names of Quest's keys and, by their types, what each holds (the Record page's pickers
read which name seats)."""


def label(key: str) -> str:
    return VOCABULARY.label(key)


@lru_cache(maxsize=64)  # one a catalogue in use; a long-lived dashboard sees few
def vocabulary(w: CardWords) -> Vocabulary:
    """:data:`VOCABULARY` with the cards, money, dice and supplies of ``w``, and the values
    only Quest has: stakes, starting carrots, an attack's hits, what the bank owes..."""
    def carrot_card(value: Any, names: Names) -> str:
        # a carrot's card number and a carrot's price are both ints under "carrot"
        return w.card(value) if w.is_a(value, "carrot") else str(value)

    def gifts(value: Any, names: Names) -> str:
        return "; ".join(f"{seat_name(s, names)} {w.cards(g)}" for s, g in enumerate(value) if g) or "none"

    def rolls(value: Any, names: Names) -> str:  # a roll-off: seat -> face
        return ", ".join(f"{seat_name(int(s), names)} {f}" for s, f in value.items())

    def owed(value: Any, names: Names) -> str:
        return and_list([w.amount(str(k), int(v)) for k, v in value.items()]) if value else "nothing"

    return dataclasses.replace(VOCABULARY, writers={
        **w.writers(),
        RUN_CARD: lambda v, _n: w.run_card(v) if v in (FACE_DOWN, UNKNOWN) else w.card(v),
        WHENCE: lambda v, _n: PLACES.get(v, _plain(v)),
        GOODS_BOUGHT: lambda v, _n: GOODS.get(v, _plain(v)),
        KIND: lambda v, _n: KINDS.get(v, _plain(v)),
        CHOICE: lambda v, _n: CHOICES.get(v, _plain(v)),
        DIRECTION: lambda v, _n: str(v).replace("_", "-"),
        FACES: lambda v, _n: and_list([str(f) for f in v]),
        STAKES: lambda v, _n: _stakes(v, w),
        GIFTS: gifts,
        CARROT_CARD: carrot_card,
        HITS: lambda v, _n: "; ".join(_hit(h, w) for h in v if isinstance(h, dict)),
        FEEDS: lambda v, _n: "; ".join(_feed_text(f, w) for f in v if isinstance(f, dict)),
        ABDUCTED: lambda v, n: abducted_text(v, n, w),
        ROLLS: rolls,
        OWED: owed,
        WAITING: lambda v, n: waiting_text(v, n, w),
    })


def value_text(key: str, value: Any, names: Names, w: CardWords) -> str:
    """One value under ``key`` in Quest's words, as its type says (:class:`QuestFacts`,
    views.QuestView)."""
    return said_value(vocabulary(w), key, value, names)


def _hit(hit: Mapping[str, Any], w: CardWords) -> str:
    """One bunny an attack reaches: the level it faces and, once known, its fate."""
    said = f"{w.card(hit.get('bunny'))} faces level {hit.get('level')}"
    if hit.get("face") is not None:
        said += f", rolled {an(hit['face'])} {hit['face']}"
    if hit.get("lives") is not None:
        said += ": it lives" if hit["lives"] else ": it dies"
    return said


def _feed_text(feed: Mapping[str, Any], w: CardWords) -> str:
    """A feed demand on a bunny: what it asks and by when (a Casino's or Bakery's is due at
    once: KBQ-FEED-6)."""
    due = feed.get("due_turn")
    return (f"{w.card(feed.get('card'))}: {w.units('cabbage', int(feed.get('cabbage') or 0))} and "
            f"{w.units('water', int(feed.get('water') or 0))} "
            + (f"by the owner's turn {due}" if due is not None else "due at once"))


def abducted_text(abducted: Sequence[int], names: Names, w: CardWords) -> str:
    """The bunny the aliens hold, and whose it is (a view writes ``[bunny, owner]``)."""
    if not abducted:
        return "none"
    return w.bunny(abducted[0], abducted[1] if len(abducted) > 1 else None, names)


def describe_fact(key: str, value: Any, names: Names, w: CardWords) -> str:
    """A named fact (of an effect, a verdict or a position) as ``what: value``."""
    return fact_text(vocabulary(w), key, value, names)


# -- what the game waits for ----------------------------------------------------------------------
def waiting_text(info: Mapping[str, Any] | None, names: Names, w: CardWords) -> str:
    """The card in play and what it waits for (views.waiting_view), in words."""
    if not info:
        return "nothing"
    frame = info.get("frame")
    parts = []
    if info.get("card") is not None:
        head = f"{w.card(info['card'])}"
        if info.get("by") is not None:
            head += f" played by {seat_name(info['by'], names)}"
        if info.get("on") is not None:
            head += f" on {w.card(info['on'])}"
        if info.get("player") is not None:
            head += f", naming {seat_name(info['player'], names)}"
        parts.append(head)
    if frame == "attack":
        parts.append(f"attacking {w.card(info.get('target'))}")
        if info.get("hits"):
            parts.append(value_text("hits", info["hits"], names, w))
    elif frame == "choice":
        said = (f"{seat_name(info.get('seat'), names)} to choose "
                f"{CHOICES.get(str(info.get('choice')), _plain(info.get('choice')))}")
        if info.get("count"):
            said += f" ({info['count']})"
        if info.get("options"):
            said += f" from {w.cards(info['options'])}"
        parts.append(said)
    elif frame == "roll_off":
        said = f"a roll-off between {seats_text(info.get('players') or [], names)}"
        if info.get("rolls"):
            said += f": {value_text('rolls', info['rolls'], names, w)}"
        parts.append(said)
    elif frame == "auction":
        if info.get("high_bidder") is not None:
            parts.append(f"an auction, high bid {w.dolla(info.get('high_bid') or 0)} by "
                         f"{seat_name(info['high_bidder'], names)}")
        else:
            parts.append("an auction, no bid yet")
    elif frame == "roll_card":
        parts.append("dice owed: " + and_list([w.die(str(d)) for d in info.get("dice") or []]))
    elif frame == "hold":
        parts.append("waiting for answers")
    elif frame == "draws":
        parts.append("cards still to draw")
    elif frame == "turn_end":
        parts.append("the turn is ending")
    return "; ".join(parts) if parts else _plain(frame)


# -- the position --------------------------------------------------------------------------------
def _who(seat: Any, names: Names) -> str:
    return seat_name(seat, names) if isinstance(seat, int) else "nobody"


# -- what changed --------------------------------------------------------------------------------------
POSITION = ("round", "turn", "phase", "active", "over")


def describe_changes(before: Mapping[str, Any], after: Mapping[str, Any], names: Names,
                     fallback: CardWords) -> list[str]:
    """What changed between two views of one perspective, one line per change: where the
    game stands, then the circle, the market, the piles, what is in play, each player."""
    w = words_of_view(after, fallback)
    out: list[str] = []
    moved = [f"{label(k)} {value_text(k, before[k], names, w)} {ARROW} {value_text(k, after[k], names, w)}"
             for k in POSITION if k in before and k in after and before[k] != after[k]]
    if moved:
        out.append(" · ".join(moved))
    out += _circle_changes(before.get("circle") or [], after.get("circle") or [], names, w)
    if before.get("abducted") != after.get("abducted"):
        held, holds = before.get("abducted") or [], after.get("abducted") or []
        if held:
            out.append(f"the aliens no longer hold {abducted_text(held, names, w)}")
        if holds:
            out.append(f"the aliens hold {abducted_text(holds, names, w)}")
    out += _market_changes(before.get("market") or {}, after.get("market") or {}, names, w)
    out += _pile_changes(before.get("piles") or {}, after.get("piles") or {}, w)
    if before.get("flipped") != after.get("flipped"):
        out.append(f"flipped card: {w.card(after.get('flipped'))}")
    if before.get("waiting") != after.get("waiting"):
        out.append(f"in play: {waiting_text(after.get('waiting'), names, w)}")
    out += _roamer_changes(before.get("roamers") or [], after.get("roamers") or [],
                           after.get("circle") or [], names, w)
    for b, a in zip(before.get("seats") or [], after.get("seats") or [], strict=False):
        if b != a:
            out += _seat_changes(b, a, names, w)
    if before.get("magic_carrot") != after.get("magic_carrot") and after.get("magic_carrot") is not None:
        out.append(f"the Magic Carrot is revealed: {w.carrot(after['magic_carrot'])}")
    if before.get("winners") != after.get("winners"):
        out.append(f"winners: {seats_text(after.get('winners') or [], names)}")
    return out


def _neighbours(order: list[int], bunny: int, circle: Mapping[int, Mapping[str, Any]],
                names: Names, w: CardWords) -> str:
    if len(order) == 1:
        return "the first bunny in the circle"
    i = order.index(bunny)
    left, right = order[i - 1], order[(i + 1) % len(order)]
    if left == right:
        return f"beside {w.bunny(left, circle[left].get('owner'), names)}"
    return (f"between {w.bunny(left, circle[left].get('owner'), names)} and "
            f"{w.bunny(right, circle[right].get('owner'), names)}")


def _circle_changes(before: list[dict[str, Any]], after: list[dict[str, Any]], names: Names,
                    w: CardWords) -> list[str]:
    if before == after:
        return []
    was = {b["bunny"]: b for b in before}
    now = {b["bunny"]: b for b in after}
    order = [b["bunny"] for b in after]
    out = []
    for bunny, gone in was.items():
        if bunny not in now:
            out.append(f"{_upper(w.bunny(bunny, gone.get('owner'), names))} leaves the circle")
    for bunny, a in now.items():
        b = was.get(bunny)
        if b is None:
            out.append(f"{_upper(w.bunny(bunny, a.get('owner'), names))} enters the circle, "
                       f"{_neighbours(order, bunny, now, names, w)}")
            for card in a.get("under") or []:
                out.append(f"under {w.card(bunny)}: {w.card(card)}")
            continue
        who = w.bunny(bunny, a.get("owner"), names)
        if b.get("owner") != a.get("owner"):
            out.append(f"{_upper(w.card(bunny))} passes from {seat_name(b.get('owner'), names)} to "
                       f"{seat_name(a.get('owner'), names)}")
        # What roams on a bunny is told by the roaming cards' own changes.
        for key, what in (("under", "under"), ("dormant", "dormant under")):
            if (b.get(key) or []) != (a.get(key) or []):
                out.append(f"{what} {who}: {w.moves(b.get(key) or [], a.get(key) or [])}")
        if (b.get("feeds") or []) != (a.get("feeds") or []):
            placed = [f for f in a.get("feeds") or [] if f not in (b.get("feeds") or [])]
            settled = [f for f in b.get("feeds") or [] if f not in (a.get("feeds") or [])]
            for f in placed:
                out.append(f"to feed {who}: {_feed_text(f, w)}")
            for f in settled:
                out.append(f"no longer to feed {who}: {w.card(f.get('card'))}")
    return out


def _market_changes(before: Mapping[str, Any], after: Mapping[str, Any], names: Names,
                    w: CardWords) -> list[str]:
    if before == after or not after:
        return []
    out = []
    if before.get("open") != after.get("open"):
        out.append(f"{MARKET} {'opens' if after.get('open') else 'closes'}")
    prices = [f"{goods} {w.dolla(before[key])} {ARROW} {w.dolla(after[key])}"
              for key, goods in (("cabbage", "a cabbage card"), ("water", "a water card"),
                                 ("carrot", "a carrot"))
              if key in before and before[key] != after.get(key)]
    if prices:
        out.append("market prices: " + ", ".join(prices))
    if before.get("carrots") != after.get("carrots"):
        out.append(f"carrots for sale: {w.moves(before.get('carrots') or [], after.get('carrots') or [])}")
    if before.get("half_price") != after.get("half_price"):
        out.append(f"half price: {_who(after.get('half_price'), names)}")
    return out


PILES = (("draw", "draw pile"), ("cabbage_deck", "cabbage deck"), ("water_deck", "water deck"),
         ("magic_deck", "small carrot deck"))
"""Face-down piles: a view counts their cards (the referee's also holds their order)."""
DISCARDS = (("discard", "discard pile"), ("cabbage_discard", "cabbage discards"),
            ("water_discard", "water discards"))


def _pile_changes(before: Mapping[str, Any], after: Mapping[str, Any], w: CardWords) -> list[str]:
    out = []
    for key, what in PILES:
        if key in before and key in after and before[key] != after[key]:
            out.append(f"{what}: {before[key]} {ARROW} {plural(after[key], 'card')}")
    for key, what in DISCARDS:
        if key in before and key in after and before[key] != after[key]:
            out.append(f"{what}: {w.moves(before[key], after[key])}")
    return out


def _roamer_changes(before: list[dict[str, Any]], after: list[dict[str, Any]],
                    circle: list[dict[str, Any]], names: Names, w: CardWords) -> list[str]:
    was = {r["card"]: r for r in before}
    now = {r["card"]: r for r in after}
    owners = {b["bunny"]: b.get("owner") for b in circle}
    out = []
    for card, r in now.items():
        b = was.get(card)
        if b is None or b.get("host") != r.get("host"):
            host = r.get("host")
            out.append(f"{_upper(w.card(card))} now roams on "
                       f"{w.bunny(host, owners.get(host), names) if isinstance(host, int) else 'no bunny'}")
    for card in was:
        if card not in now:
            out.append(f"{_upper(w.card(card))} no longer roams")
    return out


def _seat_changes(b: Mapping[str, Any], a: Mapping[str, Any], names: Names, w: CardWords) -> list[str]:
    """What changed for one player: cards by name where the view shows them, counts where it
    shows backs."""
    name = seat_name(a["seat"], names)
    mine = possessive(name)
    out = []
    if b.get("present") != a.get("present"):
        out.append(f"{name} {'joins' if a.get('present') else 'leaves'} the game")
    hb, ha = b.get("hand"), a.get("hand")
    if hb != ha:
        if isinstance(hb, list) and isinstance(ha, list):
            out.append(f"{mine} hand: {w.moves(hb, ha)}")
        else:
            out.append(f"{mine} hand: {_count(hb)} {ARROW} {plural(_count(ha), 'card')}")
    for key, what in (("top", "top run card"), ("bottom", "bottom run card")):
        if b.get(key) != a.get(key):
            out.append(f"{mine} {what}: {w.run_card(b.get(key))} {ARROW} {w.run_card(a.get(key))}")
    for key, what in (("saved", "saved cards"), ("carrots", "carrots"), ("karma", "Bad Karma")):
        if (b.get(key) or []) != (a.get(key) or []):
            out.append(f"{mine} {what}: {w.moves(b.get(key) or [], a.get(key) or [])}")
    for cards, total, kind in (("money", "dolla", "money"), ("cabbage", "cabbage_units", "cabbage"),
                               ("water", "water_units", "water")):
        if (b.get(cards) or []) != (a.get(cards) or []) or b.get(total) != a.get(total):
            was, now = int(b.get(total) or 0), int(a.get(total) or 0)
            amount = f"{w.amount(kind, was)} {ARROW} {w.amount(kind, now)}"
            what = MONEY if kind == "money" else kind
            out.append(f"{mine} {what}: {amount} ({w.moves(b.get(cards) or [], a.get(cards) or [])})")
    if b.get("triplet") != a.get("triplet"):
        out.append(f"{name} {'has a Bunny Triplet' if a.get('triplet') else 'no longer has a Bunny Triplet'}")
    if b.get("lose_turns") != a.get("lose_turns"):
        out.append(f"{mine} turns to lose: {b.get('lose_turns')} {ARROW} {a.get('lose_turns')}")
    if b.get("owed") != a.get("owed"):
        out.append(f"owed to {name} by the bank: {value_text('owed', a.get('owed') or {}, names, w)}")
    return out


def _count(hand: Any) -> int:
    return len(hand) if isinstance(hand, list) else int(hand or 0)


# -- the end ----------------------------------------------------------------------------------------
def describe_outcome(outcome: Outcome, names: Names, w: CardWords) -> str:
    """``Game over: Cy wins with the Magic Carrot, carrot 7 (KBQ-END-4). Carrots held: Ada 3,
    Bo 5, Cy 4.``"""
    magic = outcome.magic_carrot if isinstance(outcome, QuestOutcome) else None
    carrot = f", {w.carrot_label(magic)}" if magic is not None else ""
    if outcome.winners:
        who = and_list([seat_name(s, names) for s in outcome.winners])
        said = f"{who} {'wins' if len(outcome.winners) == 1 else 'win'} with the Magic Carrot{carrot}"
    elif magic is not None:
        said = (f"nobody wins: the Magic Carrot is {w.carrot_label(magic)}, and no player with a "
                "bunny holds it")
    else:
        said = f"nobody wins ({_plain(outcome.reason)})"
    text = f"Game over: {said} ({outcome.rule})."
    if outcome.scores:
        text += " Carrots held: " + ", ".join(f"{seat_name(s, names)} {n}"
                                              for s, n in enumerate(outcome.scores)) + "."
    return text
