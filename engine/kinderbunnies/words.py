"""A game of KinderBunnies in words: events as the table would say them ("Ada plays Take A
Carrot (17), taking Carrot A - Athena (50)"), each perspective told only what it saw, the
position drawn in words for ``warren replay``, what changed between two views, the facts
of effects and verdicts, and the end ("Bo wins with 5: 3 carrots and 2 bunnies").

Cards are named by the family kit (engine.killer.words) from KinderBunnies' one catalogue
(a record played with other cards is refused, R-KIN-1, so no game needs its own): cards by
name and number, carrots by the letter printed on them, money in Bunny Bucks, the five
ten-sided dice by colour with a 0 counting as 10 (KIN-DICE-1).

What a perspective did not see never reaches its text: an event is worded from the event as
``views.event_view`` shows it to that perspective (another seat's draw, unless a Bunny Buck
or a Bad News card, which go face up at once; the card another player passes or swaps; the
Orange deck's order), and changes from views that are already filtered. A card hidden from
the perspective reads ``a card``; a card of a game recorded at the table that nobody saw
(``"?"``, R-KIN-17) reads ``a card nobody saw`` to those who would have seen it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Annotated, Any

import msgspec

from engine.capabilities import Perspective
from engine.hidden import UNKNOWN
from engine.killer.catalogue import effects as fx
from engine.killer.words import CardWords, FamilyFacts, named_in_play, plural, shared_phrases
from engine.kinderbunnies import events as ev
from engine.kinderbunnies.catalogue import catalogue
from engine.kinderbunnies.numbers import CARROT_PRICE, FIVE_DICE
from engine.kinderbunnies.views import LEVEL, SETTLING, KinderView
from engine.record import Event
from engine.ruleset import Outcome
from engine.said import (
    Card,
    Cards,
    Carrot,
    CountOfCards,
    Face,
    Meaning,
    Money,
    Seat,
    Seats,
)
from engine.said import Roll as Faces
from engine.wording import (
    ARROW,
    Names,
    Vocabulary,
    and_list,
    fact_text,
    possessive,
    seat_name,
    seats_text,
    value_text,
)

MOVES = Meaning("a KinderBunnies Switch-A-Roo's moves")
"""KinderBunnies' own meaning: who takes whose place."""

MONEY = "Bunny Bucks"
MONEY_ONE = "Bunny Buck"
"""KinderBunnies' money (docs/card-facts.md §2.2, the Buck cards)."""

LEVELS = {"beginner": "Beginner", "advanced": "Advanced", "really-advanced": "Really Advanced"}


class KinderOutcome(Outcome, frozen=True, kw_only=True):
    """How a game of KinderBunnies ended, with what decided it: each player's carrots,
    bunnies and Bunny Bucks (KIN-END-1, KIN-END-2), and in Really Advanced the carrot the
    bottom Orange card names (KIN-RA-3)."""

    carrots: list[int] = msgspec.field(default_factory=list)
    bunnies: list[int] = msgspec.field(default_factory=list)
    bucks: list[int] = msgspec.field(default_factory=list)
    magic_carrot: str | None = None
    """The letter of the carrot the bottom Orange card names (Really Advanced)."""


@cache
def card_words() -> CardWords:
    """The words for KinderBunnies' cards (built once)."""
    return CardWords.of(catalogue(), MONEY, MONEY_ONE)


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plain(text: object) -> str:
    return str(text).replace("_", " ").replace("-", " ")


def _effect(card: object) -> fx.AnyEffect | None:
    if not isinstance(card, int) or isinstance(card, bool):
        return None
    data = catalogue().by_number.get(card)
    return data.effects[0] if data is not None and data.effects else None


def _type(card: object) -> str | None:
    if not isinstance(card, int) or isinstance(card, bool):
        return None
    data = catalogue().by_number.get(card)
    return None if data is None else data.type


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


# -- events -----------------------------------------------------------------------------------
def describe(event: Event, record: Mapping[str, Any], perspective: Perspective, names: Names,
             w: CardWords) -> str | None:
    """``event`` in words, from ``record``: the event as ``perspective`` saw it (a card it did
    not see is ``"?"`` there). None for an event that is not KinderBunnies' own."""
    said = _SAYS.get(type(event))
    if said is None:
        return None
    return said(record, _Ctx(seat_name(event.actor, names), event.actor, perspective, names, w))


class _Ctx:
    __slots__ = ("actor", "names", "perspective", "w", "who")

    def __init__(self, who: str, actor: int | None, perspective: Perspective, names: Names,
                 w: CardWords) -> None:
        self.who, self.actor, self.perspective, self.names, self.w = who, actor, perspective, names, w

    def sees(self, seat: int | None) -> bool:
        """The perspective saw what ``seat`` held (the referee sees everything)."""
        return self.perspective == "referee" or (seat is not None and self.perspective == seat)

    def card(self, card: object, holder: int | None) -> str:
        """A card that was ``holder``'s: named where the view shows it, ``a card`` where the
        perspective could not see it, ``a card nobody saw`` where the record does not know it
        but the perspective would have seen it."""
        if card == UNKNOWN and not self.sees(holder):
            return "a card"
        return self.w.card(card)  # type: ignore[arg-type]  # a card number, or "?" named as such


Says = Callable[[Mapping[str, Any], _Ctx], str]


def _set_aside(r: Mapping[str, Any], c: _Ctx) -> str:
    # The same words for every perspective: naming the bottom card would tell even the
    # referee's replay the end at its first step (KIN-SET-2, KIN-RA-1).
    count = len(r.get("orange") or [])
    return (f"the table shuffles the Orange deck and sets its {plural(count, 'card')} aside face "
            "down: the bottom one will name the winning carrot")


def _draw(r: Mapping[str, Any], c: _Ctx) -> str:
    seat = r.get("seat")
    who = seat_name(seat, c.names)
    card = r.get("card")
    kind = _type(card)
    if kind == "money":
        return f"{who} draws {c.w.card(card)} and lays it face up (KIN-BUCK-1)"
    if kind == "play_immediately":
        return f"{who} draws {c.w.card(card)}: Bad News, played at once (KIN-BAD-1)"
    return f"{who} draws {c.card(card, seat)}"


def _buy(r: Mapping[str, Any], c: _Ctx) -> str:
    said = f"{c.who} buys {c.w.card(r['carrot'])} for {c.w.dolla(CARROT_PRICE)}"
    if r.get("pay"):
        said += f", paying with {c.w.cards(r['pay'])}"
    return said


def _feeding(r: Mapping[str, Any], c: _Ctx, named: str, effect: fx.SettleFeed) -> str:
    return f"{c.who} answers the Feed The Bunny with {named}: the bunny is fed (KIN-FEED-2)"


def _cancelling(r: Mapping[str, Any], c: _Ctx, named: str, effect: fx.Cancel) -> str:
    what = "the Safety Hazard before its roll" if effect.cancels("safety-hazard") else "the Bad News"
    return f"{c.who} plays {named}, cancelling {what}"


def _rolling_again(r: Mapping[str, Any], c: _Ctx, named: str, effect: fx.RerollDie) -> str:
    die = r.get("die")
    which = ORDINALS[die] if isinstance(die, int) and 0 <= die < len(ORDINALS) else f"die {die}"
    return f"{c.who} plays {named} and rolls the {which} die of the roll again"


def _entering(r: Mapping[str, Any], c: _Ctx, named: str, effect: fx.EnterCircle) -> str:
    return f"{c.who} puts {named} on the table"


_PLAYED: dict[type, Callable[[Mapping[str, Any], _Ctx, str, Any], str]] = {
    fx.SettleFeed: _feeding, fx.Cancel: _cancelling, fx.RerollDie: _rolling_again,
    fx.EnterCircle: _entering}
"""A play whose card's primitive is said in a sentence of its own, by the primitive's kind
(any other play is said by what it names)."""

_CARROT_BACK: dict[type, str] = {fx.ExchangeCarrots: "giving back"}
"""How a play that names a carrot says it goes back (to the pile, unless traded)."""


def _play(r: Mapping[str, Any], c: _Ctx) -> str:
    card = r["card"]
    effect = _effect(card)
    w = c.w
    named = w.card(card)
    own = _PLAYED.get(type(effect))
    if own is not None:
        return own(r, c, named, effect)
    said = f"{c.who} plays {named}"
    if r.get("on") is not None:
        said += f" on {w.card(r['on'])}"
    shared = shared_phrases(c.names, w)
    verb = _CARROT_BACK.get(type(effect), "sending back")
    extra = named_in_play(r, (
        ("player", shared["player"]),
        ("carrot", lambda v: f"{verb} {w.card(v)}"),
        ("carrots", shared["carrots"]), ("number", shared["number"]),
        ("take", lambda v: f"bringing back {w.card(v)} from the discard pile"),
        ("pay", lambda v: f"paying with {w.cards(v)}"),
    ))
    return ", ".join([said, *extra])


def _discard(r: Mapping[str, Any], c: _Ctx) -> str:
    return f"{c.who} lays down {c.w.card(r['card'])} for nothing: no card in hand can be used"


def _accept(r: Mapping[str, Any], c: _Ctx) -> str:
    return f"{c.who} lets the card on the bunny go unanswered"


def _choose(r: Mapping[str, Any], c: _Ctx) -> str:
    w = c.w
    give, take = r.get("give"), r.get("take")
    if give is not None and take is not None:  # Secret Squid (KIN-CARD-SQUID)
        return (f"{c.who} swaps {c.card(give, c.actor)} from the hand for "
                f"{c.card(take, c.actor)} from the other player's")
    if give is not None:  # Pass It Along (KIN-CARD-PASS)
        return f"{c.who} passes {c.card(give, c.actor)} to the left"
    parts = []
    if r.get("bunnies"):
        parts.append(f"names {w.cards(r['bunnies'])}")
    if r.get("carrots"):
        parts.append(f"takes {w.cards(r['carrots'])}" if not r.get("bunnies")
                     else f"keeps {w.cards(r['carrots'])}")
    if r.get("cards"):
        go = "goes" if len(r["cards"]) == 1 else "go"
        parts.append(f"shows {w.cards(r['cards'])}, which {go} to the discard pile")
    if not parts:
        return f"{c.who} has nothing to name or show"
    return f"{c.who} " + " and ".join(parts)


def _roll(r: Mapping[str, Any], c: _Ctx) -> str:
    faces = list(r.get("faces") or [])
    if len(faces) == len(FIVE_DICE):  # a card's five dice, in their order (cards/*.toml)
        colours = ", ".join(c.w.die(d).removeprefix("the ").removesuffix(" d10") for d in FIVE_DICE)
        return f"the five dice ({colours}) show {c.w.roll(faces)}"
    if len(faces) == 1:
        return "the die shows " + c.w.roll(faces)
    return "the dice show " + c.w.roll(faces)


def _spin(r: Mapping[str, Any], c: _Ctx) -> str:
    return f"the table judges that {possessive(seat_name(r.get('winner'), c.names))} die spun longest"


def _reveal(r: Mapping[str, Any], c: _Ctx) -> str:
    card = r.get("card")
    data = catalogue().by_number.get(card) if isinstance(card, int) else None
    said = f"the bottom Orange card is turned up: {c.w.card(card)}"
    if data is not None and data.carrot:
        said += f", naming {c.w.carrot(data.carrot)} the winning carrot"
    return said


_SAYS: dict[type[Event], Says] = {
    ev.SetAside: _set_aside, ev.Draw: _draw, ev.Buy: _buy, ev.Play: _play, ev.Discard: _discard,
    ev.Accept: _accept, ev.Choose: _choose, ev.Roll: _roll, ev.Spin: _spin, ev.Reveal: _reveal,
}


# -- values and facts -------------------------------------------------------------------------
class KinderFacts(FamilyFacts, kw_only=True):
    """What the facts of KinderBunnies' effects and refusals hold (a fact's key is one of
    these fields; the view's own keys are typed by views.KinderView)."""

    winner: Seat
    from_: Seat = msgspec.field(name="from")
    with_: Seat = msgspec.field(name="with")
    drawer: Seat
    chooser: Seat
    asked_by: Seat
    seats: Seats
    winners: Seats
    passed: Seats
    bunny: Card
    on: Card
    take: Card
    give: Card
    could: Card
    usable: Card
    bottom: Card
    top: Card
    carrot: Carrot | Card
    """A carrot by its letter, or a carrot card by its number."""
    magic_carrot: Carrot
    cards: Cards | CountOfCards
    unknown_cards: CountOfCards
    pay: Cards
    bunnies: Cards
    hand: Cards
    held: Cards
    discarded: Cards
    own: Cards
    due: Money
    paid: Money
    value: Money
    money: Money
    price: Money
    face: Face
    faces: Faces
    # plain facts: numbers and the rules' own words
    die: int
    """Which die of a roll (0 first)."""
    matches: int
    saved: bool
    shared: bool
    kind: str
    why: str
    moves: Annotated[dict[str, int], MOVES]
    """Switch-A-Roo: each seat and the seat whose place it takes (R-KIN-14)."""


def _moves_text(value: Mapping[Any, Any], names: Names) -> str:
    return "; ".join(f"{seat_name(int(s), names)} takes {possessive(seat_name(int(t), names))} place"
                     for s, t in value.items())


@lru_cache(maxsize=64)  # one a catalogue in use; a long-lived dashboard sees few
def vocabulary(w: CardWords) -> Vocabulary:
    """:data:`VOCABULARY` with KinderBunnies' cards, money and dice named by ``w``."""
    return dataclasses.replace(VOCABULARY, writers={
        **w.writers(),
        MOVES: _moves_text,
        LEVEL: lambda v, _n: LEVELS.get(v, str(v)),
        SETTLING: lambda v, n: settling_text(v, n, w),
    })


LABELS = {
    "active": "to play", "seat": "player", "bucks": MONEY, "buck_cards": f"{MONEY_ONE} cards",
    "carrot_pile": "carrot pile", "draw_pile": "draw pile", "discard": "discard pile",
    "orange": "Orange deck", "magic": "winning carrot", "skips": "turns to miss",
    "hand_size": "hand size", "table": "bunnies", "settling": "in play", "refill": "to draw",
    "forced": "to play now (Buy Back)", "due": "due", "paid": "paid", "matches": "matches",
    "magic_carrot": "winning carrot", "with": "with", "from": "from", "why": "why",
}

VOCABULARY = Vocabulary(
    labels=LABELS,
    types=(KinderFacts, KinderView),
    quiet_keys=frozenset({"perspective", "seq", "catalogue"}),
)
"""The names of KinderBunnies' keys and, by their types, what each holds (the Record page's
pickers read which name seats)."""


def label(key: str) -> str:
    return VOCABULARY.label(key)


def describe_fact(key: str, value: Any, names: Names, w: CardWords) -> str:
    """A named fact (of an effect, a verdict or a position) as ``what: value``."""
    return fact_text(vocabulary(w), key, value, names)


# -- the card being settled --------------------------------------------------------------------
STEPS = {
    "feed": "for {owner} to feed the bunny or let it go",
    "hazard": "for {owner} to answer before the roll",
    "roll": "for the dice",
    "reroll": "for the die rolled again",
    "rolled": "rolled; a Re-Roll may still answer",
    "choose": "for {owner} to choose",
    "bad_news": "for {owner} to say what the Bad News takes",
    "revive": "for {owner} to bring bunnies back",
    "steal": "for {owner} to take a carrot",
    "carrot": "for {owner} to take a carrot",
    "show": "for {owner} to show the cards it asks for",
    "pass": "for every player to pass a card to the left",
    "swap": "for {seat} to swap a card with {owner}",
    "spin": "for the table to judge the spin",
}
"""What a card being settled waits for (engine.kinderbunnies.state.Task.step)."""


def settling_text(t: Mapping[str, Any] | None, names: Names, w: CardWords) -> str:
    """The card being settled and what it waits for (views.view's ``settling``)."""
    if not t:
        return "nothing"
    said = f"{w.card(t.get('card'))}, of {seat_name(t.get('seat'), names)}"
    if t.get("bunny") is not None:
        said += f", on {w.bunny(t['bunny'], t.get('owner'), names)}"
    if t.get("number") is not None:
        said += f", naming the number {t['number']}"
    step = str(t.get("step"))
    wait = STEPS.get(step, _plain(step)).format(owner=seat_name(t.get("owner"), names),
                                                 seat=seat_name(t.get("seat"), names))
    said += f"; waiting {wait}" if not wait.startswith("rolled") else f"; {wait}"
    if t.get("faces"):
        said += f"; dice {w.roll(t['faces'])}"
    if t.get("passed"):
        said += f"; passed already: {seats_text(t['passed'], names)}"
    return said


# -- the position -----------------------------------------------------------------------------
def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else int(value or 0)


# -- what changed ------------------------------------------------------------------------------
POSITION = ("round", "turn", "phase", "active", "over")


def describe_changes(before: Mapping[str, Any], after: Mapping[str, Any], names: Names,
                     w: CardWords) -> list[str]:
    """What changed between two views of one perspective, one line per change: where the
    game stands, the carrot pile, the piles, the card being settled, then each player."""
    out: list[str] = []
    v = vocabulary(w)
    moved = [f"{label(k)} {value_text(v, k, before[k], names)} {ARROW} {value_text(v, k, after[k], names)}"
             for k in POSITION if k in before and k in after and before[k] != after[k]]
    if moved:
        out.append(" · ".join(moved))
    if before.get("dealing") and not after.get("dealing"):
        out.append("the deal is done")
    if before.get("carrot_pile") != after.get("carrot_pile"):
        pile = w.moves(_carrot_cards(before.get("carrot_pile"), w),
                       _carrot_cards(after.get("carrot_pile"), w))
        out.append(f"carrot pile: {pile}")
    b, a = before.get("draw_pile"), after.get("draw_pile")
    if b != a and b is not None and a is not None:
        out.append(f"draw pile: {_count(b)} {ARROW} {plural(_count(a), 'card')}")
    if before.get("discard") != after.get("discard"):
        out.append(f"discard pile: {w.moves(before.get('discard') or [], after.get('discard') or [])}")
    if _count(before.get("orange")) != _count(after.get("orange")):
        out.append(f"Orange deck: {plural(_count(after.get('orange')), 'card')} set aside face down")
    if before.get("settling") != after.get("settling"):
        out.append(f"in play: {settling_text(after.get('settling'), names, w)}")
    if before.get("forced") != after.get("forced"):
        out.append(f"to play now (Buy Back): {w.card(after.get('forced'))}")
    for seat in range(min(len(before.get("hands") or []), len(after.get("hands") or []))):
        out += _seat_changes(before, after, seat, names, w)
    if before.get("magic") != after.get("magic") and after.get("magic") is not None:
        out.append(f"the bottom Orange card names {w.carrot(after['magic'])}")
    if before.get("scores") != after.get("scores") and after.get("scores"):
        out.append("scores: " + value_text(v, "scores", after["scores"], names))
    if before.get("winners") != after.get("winners") and after.get("winners") is not None:
        out.append(f"winners: {seats_text(after['winners'], names)}")
    return out


def _carrot_cards(letters: Any, w: CardWords) -> list[int | str]:
    return [w.carrots.get(x, x) for x in letters or []]


def _at(view: Mapping[str, Any], key: str, seat: int) -> Any:
    values = view.get(key) or []
    return values[seat] if seat < len(values) else None


def _seat_changes(before: Mapping[str, Any], after: Mapping[str, Any], seat: int, names: Names,
                  w: CardWords) -> list[str]:
    """What changed for one player: cards by name where the view shows them, counts where it
    shows backs."""
    name = seat_name(seat, names)
    mine = possessive(name)
    out = []
    hb, ha = _at(before, "hands", seat), _at(after, "hands", seat)
    if hb != ha:
        if isinstance(hb, list) and isinstance(ha, list):
            out.append(f"{mine} hand: {w.moves(hb, ha)}")
        else:
            out.append(f"{mine} hand: {_count(hb)} {ARROW} {plural(_count(ha), 'card')}")
    tb, ta = _at(before, "table", seat) or [], _at(after, "table", seat) or []
    if tb != ta:
        out.append(f"{mine} bunnies: {w.moves(tb, ta)}")
    cb, ca = _at(before, "carrots", seat) or [], _at(after, "carrots", seat) or []
    if cb != ca:
        out.append(f"{mine} carrots: {w.moves(_carrot_cards(cb, w), _carrot_cards(ca, w))}")
    mb, ma = _at(before, "bucks", seat), _at(after, "bucks", seat)
    kb, ka = _at(before, "buck_cards", seat) or [], _at(after, "buck_cards", seat) or []
    if mb != ma or kb != ka:
        out.append(f"{mine} {MONEY}: {w.dolla(int(mb or 0))} {ARROW} {w.dolla(int(ma or 0))} "
                   f"({w.moves(kb, ka)})")
    sb, sa = _at(before, "skips", seat), _at(after, "skips", seat)
    if sb != sa:
        out.append(f"{mine} turns to miss: {sb} {ARROW} {sa}")
    return out


# -- the end -----------------------------------------------------------------------------------
def _points(o: KinderOutcome, seat: int) -> str:
    carrots = o.carrots[seat] if seat < len(o.carrots) else 0
    bunnies = o.bunnies[seat] if seat < len(o.bunnies) else 0
    return f"{plural(carrots, 'carrot')} and {plural(bunnies, 'bunny', 'bunnies')}"


def describe_outcome(outcome: Outcome, names: Names, w: CardWords) -> str:
    """``Game over: Bo wins with 5 (3 carrots and 2 bunnies) (KIN-END-2). Scores: Ada 4,
    Bo 5.`` A tie on points is settled by Bunny Bucks, and a tie on both is a shared win;
    in Really Advanced the winner holds the carrot the bottom Orange card names (KIN-RA-3)."""
    k = outcome if isinstance(outcome, KinderOutcome) else None
    winners = list(outcome.winners)
    who = and_list([seat_name(s, names) for s in winners])
    scores = outcome.scores or []
    if k is not None and k.magic_carrot is not None:
        carrot = w.carrot(k.magic_carrot)
        if winners:
            said = f"{who} wins: the bottom Orange card names {carrot}, and {who} holds it with a bunny"
        else:
            said = f"nobody wins: the bottom Orange card names {carrot}, and no player with a bunny holds it"
        text = f"Game over: {said} ({outcome.rule})."
        if scores:
            text += " Carrots held: " + ", ".join(f"{seat_name(s, names)} {n}"
                                                  for s, n in enumerate(scores)) + "."
        return text
    if not winners:
        said = f"nobody wins ({_plain(outcome.reason)})"
    else:
        best = scores[winners[0]] if winners[0] < len(scores) else None
        tied = [s for s, n in enumerate(scores) if n == best]
        points = "" if best is None else f" with {best}"
        how = f" ({_points(k, winners[0])})" if k is not None and len(winners) == 1 else ""
        bucks = (k.bucks if k is not None else [])
        if len(winners) > 1:
            said = f"{who} share the win{points} each"
            if len(bucks) == len(scores):
                said += f", and {w.dolla(bucks[winners[0]])} each"
        elif len(tied) > 1:
            said = f"{who} wins{points}{how}, tied on points and ahead on {MONEY}"
            if len(bucks) == len(scores):
                said += " (" + ", ".join(f"{seat_name(s, names)} {w.dolla(bucks[s])}" for s in tied) + ")"
        else:
            said = f"{who} wins{points}{how}"
    text = f"Game over: {said} ({outcome.rule})."
    if scores:
        text += " Scores (carrots and bunnies): " + ", ".join(
            f"{seat_name(s, names)} {n}" for s, n in enumerate(scores)) + "."
    return text
