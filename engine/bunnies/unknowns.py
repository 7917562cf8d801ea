"""Bunnies played at a real table: what the record knows and what it does not.

A game recorded at the table (``source: "recorded"``) may deal unknown cards (``"?"``),
draw them, and steal them unseen; a card comes to light when it is laid, turned up,
looked at in the looker's own record, or drawn in the drawer's own record. These helpers
are the slow paths of handlers.py: a game whose every card is known never reaches them.

Every helper checks before it changes anything, like the handlers (a violation leaves the
state as it was): :func:`plan_from_hand` only says which unknown cards would be named,
and :func:`commit_reveals` names them once every guard has passed.
"""

from __future__ import annotations

from engine.bunnies.numbers import CARD_VALUE, DECK, RANKS
from engine.bunnies.state import BunniesState
from engine.hidden import UNKNOWN, Pool, undetermined
from engine.rules import Effect, RuleViolation


def _pool(state: BunniesState) -> Pool:
    """The cards nobody has seen: a game that left a card unknown always has them."""
    if state.pool is None:  # never: only a record with a card left unknown comes here
        raise RuleViolation("REC-UNK-2", "no card of this game was left unseen")
    return state.pool

_DECK_SET = frozenset(DECK)
_RANK_WORD = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


def refuse_unknowns(state: BunniesState, cards: list[str], what: str) -> None:
    """REC-UNK-1: only a recorded game leaves cards unknown."""
    if UNKNOWN in cards and not state.partial:
        raise RuleViolation("REC-UNK-1", f"{what} leaves cards unknown ('?'), but only a game recorded "
                            "at the table may", unknown=cards.count(UNKNOWN))


def deal_pool(dealt: list[str]) -> Pool:
    """The pool of a partial deal: every card of the deck not named in it."""
    named = {c for c in dealt if c != UNKNOWN}
    return Pool.of(c for c in DECK if c not in named)


def plan_from_hand(state: BunniesState, seat: int, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that are not known to be in the hand but can be unknown cards
    of it (in order); refuses nothing: a card that can be neither is left to the caller's
    own guards, which name the rule."""
    if not state.partial or state.pool is None:
        return []
    hand = state.hands[seat]
    unknown = hand.count(UNKNOWN)
    planned: list[str] = []
    for card in cards:
        if card in hand or card in planned:
            continue
        if card in state.pool and len(planned) < unknown:
            planned.append(card)
    return planned


def commit_reveals(state: BunniesState, seat: int, cards: list[str], where: str) -> None:
    """Name unknown cards of ``seat``'s hand as ``cards`` (planned by :func:`plan_from_hand`)."""
    hand = state.hands[seat]
    pool = _pool(state)
    for card in cards:
        pool.reveal(card, "REC-UNK-2", where)
        hand[hand.index(UNKNOWN)] = card


def rank_words(value: int) -> str:
    rank = RANKS[value - 2]
    return _RANK_WORD.get(rank, rank)


def pickup_doubt(state: BunniesState, seat: int) -> Effect | None:
    """A pick-up by a hand with unknown cards: legal only if none of them could be laid
    (BUN-PICKUP-1), which the record cannot tell; None when the known cards decide."""
    hand = state.hands[seat]
    if UNKNOWN not in hand or state.pool is None:
        return None
    top = CARD_VALUE[state.pile[-1]] if state.pile else 0
    if not any(CARD_VALUE[c] >= top for c in state.pool.unseen):
        return None  # no unseen card could have been laid: the pick-up is legal
    highest = top == CARD_VALUE["AC"]  # an ace on top: only an ace could have been laid
    needs = (f"legal only if seat {seat}'s hand held no ace" if state.pile and highest else
             f"legal only if seat {seat}'s hand held no card of rank {rank_words(top)} or higher"
             if state.pile else f"legal only if seat {seat}'s hand was empty")
    return undetermined("BUN-PICKUP-1", needs, seat=seat, unknown_cards=hand.count(UNKNOWN))


def drawn_card(state: BunniesState, named: str | None) -> str:
    """The card a draw puts in the hand: the stock's top, named by the record where the
    deal left it unknown (checked, not yet taken out of the pool)."""
    top = state.stock[-1]
    if named is None or named == top:
        return top
    if top != UNKNOWN:
        raise RuleViolation("REC-UNK-2", f"the record names {named} as drawn, but the top of the "
                            f"stock is {top}", named=named)
    if named not in _DECK_SET or state.pool is None or named not in state.pool:
        raise RuleViolation("REC-UNK-2", f"{named} cannot be drawn: it is not a card of the deck "
                            "or it has been seen elsewhere already", named=named)
    return named


def turned_card(state: BunniesState, slot: str, named: str | None) -> str:
    """The card a flip turns up: known from the deal, or named by the record (REC-UNK-3)."""
    card = state.blinds[slot]
    if card == UNKNOWN:
        if named is None:
            raise RuleViolation("REC-UNK-3", f"the blind card at slot {slot} is turned face up for the whole "
                                "table: the record names it (flip SLOT CARD)", slot=slot)
        if named not in _DECK_SET or state.pool is None or named not in state.pool:
            raise RuleViolation("REC-UNK-2", f"{named} cannot be the blind card at slot {slot}: it is not a "
                                "card of the deck or it has been seen elsewhere already", slot=slot)
        return named
    if named is not None and named != card:
        raise RuleViolation("REC-UNK-2", f"the record names {named} as the blind card at slot "
                            f"{slot}, but the card there is {card}", slot=slot, named=named)
    return card


def seen_card(state: BunniesState, slot: str, named: str | None) -> None:
    """A look named in the looker's own record: check it, and know it from now on."""
    if named is None:
        return
    card = state.blinds[slot]
    if card == UNKNOWN:
        if named not in _DECK_SET or state.pool is None or named not in state.pool:
            raise RuleViolation("REC-UNK-2", f"{named} cannot be the blind card at slot {slot}: it is not a "
                                "card of the deck or it has been seen elsewhere already", slot=slot)
        state.pool.reveal(named, "REC-UNK-2", f"the blind card at slot {slot}")
        state.blinds[slot] = named
    elif named != card:
        raise RuleViolation("REC-UNK-2", f"the record names {named} as the blind card at slot "
                            f"{slot}, but the card there is {card}", slot=slot, named=named)


def steal_unseen(state: BunniesState, seat: int) -> None:
    """An unseen steal (``"?"``): one of the opponent's cards, nobody recorded which.

    The thief holds one unknown card more, and the opponent one card fewer. Any of the
    opponent's cards could be the one gone, the known ones too, so they all become unknown
    again (back into the pool of unseen cards) and one unknown card leaves the hand.
    """
    other = 1 - seat
    hand = state.hands[other]
    pool = _pool(state)
    for card in hand:
        if card != UNKNOWN:
            pool.hide(card)
    hand[:] = [UNKNOWN] * (len(hand) - 1)
    state.hands[seat].append(UNKNOWN)
