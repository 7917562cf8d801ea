"""Write a game of Bunnies by hand: a chosen deck order, and actions as short text.

A deck order is dealt exactly as warren's own shuffle is dealt (:func:`deal_deck`), so a
hand-written position and a simulated one are laid out alike. :func:`stack_deck` builds
a deck order from the cards that matter (the hands, some blind cards, the top of the
stock) and fills the rest in deck order. Actions are one line each::

    1 draw            seat 1 draws
    1 lay 9H 9D       seat 1 lays two nines
    0 pickup          seat 0 picks up the pile
    0 flip 0.3        seat 0 turns up its blind card in column 3 (slots: see layout)
    1 steal 5C        seat 1's steal takes the five of clubs (chance, recorded)
    1 steal ? 0.3     ...or, under steal_from hand_or_blind, seat 0's blind card in column 3
    1 peek top        seat 1 looks at the shared top card
    1 end             seat 1 ends the go after a bunny

The seat may be ``-`` for a null actor (only the deal is recorded that way; anything
else is refused by the rules, which is what some tests want).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.numbers import BLINDS_PER_SEAT, DECK, HAND_SIZE, SHARED_BLINDS
from engine.record import Event
from engine.rules import WarrenError


class ScriptError(WarrenError):
    """An action line or a deck order that cannot be read."""


def deal_deck(deck: Sequence[str], hand_size: int = HAND_SIZE, seq: int = 1) -> Deal:
    """The deal of ``deck`` (top first): the hands, then each seat's four blind cards, then
    the shared ones (left, right, top), the rest as the stock, top first (BUN-DEAL-1)."""
    h, b = hand_size, BLINDS_PER_SEAT
    return Deal(
        seq=seq, actor=None,
        hands=[list(deck[0:h]), list(deck[h:2 * h])],
        blinds=[list(deck[2 * h:2 * h + b]), list(deck[2 * h + b:2 * h + 2 * b])],
        shared=list(deck[2 * h + 2 * b:2 * h + 2 * b + SHARED_BLINDS]),
        stock=list(deck[2 * h + 2 * b + SHARED_BLINDS:]),
    )


def stack_deck(
    hands: tuple[Iterable[str], Iterable[str]],
    blinds: tuple[Iterable[str], Iterable[str]] = ((), ()),
    shared: Iterable[str] = (),
    stock_top: Iterable[str] = (),
    hand_size: int = HAND_SIZE,
) -> list[str]:
    """A deck order that deals the given cards where they are asked for.

    Hands must be given in full; blind cards (own columns 0..3, shared left, right, top)
    and the top of the stock may be given in part: the cards not named fill the gaps in
    deck order (2C 2D 2H 2S 3C ...).
    """
    wanted_hands = [list(hands[0]), list(hands[1])]
    wanted_blinds = [list(blinds[0]), list(blinds[1])]
    wanted_shared = list(shared)
    wanted_top = list(stock_top)
    for seat, hand in enumerate(wanted_hands):
        if len(hand) != hand_size:
            raise ScriptError(f"seat {seat}'s hand has {len(hand)} cards, not {hand_size}")
    for seat, row in enumerate(wanted_blinds):
        if len(row) > BLINDS_PER_SEAT:
            raise ScriptError(f"seat {seat} has at most {BLINDS_PER_SEAT} blind cards")
    if len(wanted_shared) > SHARED_BLINDS:
        raise ScriptError(f"there are at most {SHARED_BLINDS} shared blind cards")
    named = [*wanted_hands[0], *wanted_hands[1], *wanted_blinds[0], *wanted_blinds[1],
             *wanted_shared, *wanted_top]
    unknown = [c for c in named if c not in DECK]
    if unknown:
        raise ScriptError(f"not cards of the deck: {unknown}")
    twice = sorted({c for c in named if named.count(c) > 1})
    if twice:
        raise ScriptError(f"cards named twice: {twice}")
    spare = iter([c for c in DECK if c not in set(named)])

    def fill(cards: list[str], size: int) -> list[str]:
        return cards + [next(spare) for _ in range(size - len(cards))]

    row0 = fill(wanted_blinds[0], BLINDS_PER_SEAT)
    row1 = fill(wanted_blinds[1], BLINDS_PER_SEAT)
    middle = fill(wanted_shared, SHARED_BLINDS)
    return [*wanted_hands[0], *wanted_hands[1], *row0, *row1, *middle, *wanted_top, *spare]


def parse_action(line: str, seq: int) -> Event:
    """One action line (see the module docstring) as the event with ``seq``."""
    words = line.split()
    if len(words) < 2:
        raise ScriptError(f"action {line!r}: expected '<seat> <verb> [...]'")
    who, verb, args = words[0], words[1], words[2:]
    if who == "-":
        actor: int | None = None
    elif who.isdigit():
        actor = int(who)
    else:
        raise ScriptError(f"action {line!r}: the seat is a number or '-'")

    def one() -> str:
        if len(args) != 1:
            raise ScriptError(f"action {line!r}: {verb} takes exactly one argument")
        return args[0]

    def none() -> None:
        if args:
            raise ScriptError(f"action {line!r}: {verb} takes no argument")

    if verb == "draw":
        none()
        return Draw(seq=seq, actor=actor)
    if verb == "lay":
        return Lay(seq=seq, actor=actor, cards=list(args))
    if verb == "pickup":
        none()
        return Pickup(seq=seq, actor=actor)
    if verb == "flip":
        return Flip(seq=seq, actor=actor, slot=one())
    if verb == "steal":  # steal CARD [SLOT]: a blind card is named by its slot too
        if len(args) not in (1, 2):
            raise ScriptError(f"action {line!r}: steal takes a card and, for a blind card, its slot")
        return Steal(seq=seq, actor=actor, card=args[0], slot=args[1] if len(args) == 2 else None)
    if verb == "peek":
        return Peek(seq=seq, actor=actor, slot=one())
    if verb == "end":
        none()
        return EndTurn(seq=seq, actor=actor)
    raise ScriptError(f"action {line!r}: unknown verb {verb!r} "
                      "(draw, lay, pickup, flip, steal, peek, end)")


def script_events(deck: Sequence[str], actions: Iterable[str], hand_size: int = HAND_SIZE) -> list[Event]:
    """The deal of ``deck`` followed by the actions, numbered 1, 2, 3..."""
    events: list[Event] = [deal_deck(deck, hand_size)]
    for line in actions:
        events.append(parse_action(line, len(events) + 1))
    return events
