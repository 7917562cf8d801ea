"""What every part of KinderBunnies shares: the level's cards, hands with unknown cards, the
carrot pile, Bunny Bucks, and how the game moves on by itself (deal, refills, turns, the end).

Every function that can refuse checks before it changes anything; the handlers (handlers.py)
call them in that order.
"""

from __future__ import annotations

from typing import Any

from engine.hidden import UNKNOWN
from engine.killer import units
from engine.killer.refusal import Refusal
from engine.killer.refusal import refuse as refuse  # the family\'s one refusal (also table.refuse)
from engine.kinderbunnies.catalogue import Cards, cards_for
from engine.kinderbunnies.state import HIDDEN, KinderState
from engine.rules import Effect

Effects = list[Effect]




_LAST: list[Any] = [None, None]
"""The last options key asked for and its cards: a fold asks for the same ones every time."""


def cards(state: KinderState) -> Cards:
    key = state.opts_key
    last = _LAST
    if last[0] is key:
        found: Cards = last[1]
        return found
    found = cards_for(key[0], key[1])
    last[0], last[1] = key, found
    return found


def yellow(state: KinderState) -> bool:
    """The Yellow deck is played (Advanced, Really Advanced): its answers may come."""
    return state.level != "beginner"


def really_advanced(state: KinderState) -> bool:
    return state.level == "really-advanced"


def next_seat(state: KinderState, seat: int, by: int = 1) -> int:
    return (seat + by) % state.n


def clockwise_from(state: KinderState, seat: int) -> list[int]:
    return [(seat + i) % state.n for i in range(state.n)]


def has_bunny(state: KinderState, seat: int) -> bool:
    return bool(state.table[seat])


def owner_of(state: KinderState, bunny: int) -> int | None:
    for seat, bunnies in enumerate(state.table):
        if bunny in bunnies:
            return seat
    return None


def money(state: KinderState, seat: int) -> int:
    value = cards(state).bucks
    return sum(value[c] for c in state.bucks[seat])


def pile_size(state: KinderState) -> int:
    return len(state.pile) + state.pile_hidden


def refuse_over(state: KinderState) -> None:
    if state.over:
        refuse("KIN-END-3", "the game is already over", winners=state.winners)
    if state.ending:
        refuse("KIN-RA-1", "the last carrot is gone: the game has ended and only the bottom Orange "
             "card is still to be turned up")


def in_level(state: KinderState, card: int) -> None:
    """KIN-SET-1: a card of another level (a Yellow card in a Beginner game) never enters."""
    c = cards(state)
    if card in c.in_game:
        return
    deck = c.deck.get(card)
    if deck is None:
        refuse("KIN-SET-1", f"there is no card number {card} in KinderBunnies", card=card)
    level = state.level.replace("-", " ").title()
    what = {"yellow": "a Yellow card", "pink": "a carrot", "orange": "an Orange card"}.get(deck, deck)
    plays = {"beginner": "the Blue deck and carrots A-F",
             "advanced": "the Blue and Yellow decks and carrots A-J, without the Orange deck",
             "really-advanced": "every deck"}[state.level]
    refuse("KIN-SET-1", f"card {c.label(card)} is {what}, which is not in the game: a {level} game "
         f"plays with {plays}", card=card, level=state.level, deck=deck)


# -- hands with unknown cards ----------------------------------------------------------------
def holds(state: KinderState, seat: int, card: int) -> bool:
    """The seat holds ``card``, or may hold it as one of its unknown cards."""
    hand = state.hands[seat]
    if card in hand:
        return True
    return HIDDEN in hand and state.pool is not None and str(card) in state.pool


def need_in_hand(state: KinderState, seat: int, card: int, what: str = "play") -> None:
    if not holds(state, seat, card):
        refuse("KIN-HAND-1", f"seat {seat} does not hold card {cards(state).label(card)} to {what}",
             seat=seat, card=card, hand=len(state.hands[seat]))


def take_from_hand(state: KinderState, seat: int, card: int) -> None:
    """Take ``card`` out of the hand (checked by :func:`need_in_hand`); an unknown card of a
    recorded game comes to light as it (REC-UNK-2)."""
    hand = state.hands[seat]
    if card in hand:
        hand.remove(card)
        return
    pool = state.pool
    assert pool is not None
    pool.reveal(str(card), "REC-UNK-2", f"played by seat {seat}")
    hand.remove(HIDDEN)


def take_unseen(state: KinderState, seat: int) -> None:
    """A card leaves the hand without the record saying which: any of the hand's cards may be
    the one gone, so the known ones become unknown again (engine.hidden)."""
    hand = state.hands[seat]
    pool = state.pool
    assert pool is not None
    for card in hand:
        if card != HIDDEN:
            pool.hide(str(card))
    hand[:] = [HIDDEN] * (len(hand) - 1)


def refuse_unknown(state: KinderState, what: str) -> None:
    if not state.partial:
        refuse("REC-UNK-1", f"{what} leaves a card unknown ('?'), but only a game recorded at the "
             "table may")


def is_unknown(card: object) -> bool:
    return card == UNKNOWN


# -- carrots and money -----------------------------------------------------------------------
def carrot_taken(state: KinderState, fx: Effects) -> None:
    """KIN-RA-1: in a Really Advanced game the last carrot leaving the pile ends the game."""
    if really_advanced(state) and not state.carrot_pile and not state.ending:
        state.ending = True
        state.task = None
        state.refill = []
        state.phase = "reveal"
        state.active = None
        fx.append(Effect("KIN-RA-1", "last_carrot", {}))


def take_from_pile(state: KinderState, seat: int, carrot: int, rule: str, fx: Effects) -> None:
    state.carrot_pile.remove(carrot)
    state.carrots[seat].append(carrot)
    fx.append(Effect(rule, "carrot_taken", {"seat": seat, "carrot": cards(state).letter(carrot)}))


def return_carrot(state: KinderState, seat: int, carrot: int) -> None:
    state.carrots[seat].remove(carrot)
    state.carrot_pile.append(carrot)
    state.carrot_pile.sort()


def check_pick(state: KinderState, carrots: list[int], rule: str, count: int) -> None:
    """Carrots taken from the pile: ``count`` different ones still there (the first letters
    left under the ``top`` option; R-KIN-9)."""
    pile = state.carrot_pile
    want = min(count, len(pile))
    if len(carrots) != want or len(set(carrots)) != want or want == 0:
        refuse(rule, f"the card takes {want} carrot(s) of the pile, named once each"
             if want else "the carrot pile is empty", carrots=carrots, pile=len(pile))
    for c in carrots:
        if c not in pile:
            in_level(state, c)
            refuse(rule, f"carrot {cards(state).letter(c)} is not in the carrot pile",
                 carrot=c, pile=[cards(state).letter(p) for p in pile])
    if state.opts_key[2] == "top" and sorted(carrots) != pile[:want]:
        refuse(rule, "carrots are taken from the top of the stack, first letter first "
             "(option carrot_pick=top)", carrots=carrots, top=pile[:want])


def pay(state: KinderState, seat: int, amount: int, named: list[int] | None, rule: str) -> list[int]:
    """Check a payment of ``amount`` Bucks (named Buck cards, or warren's smallest) and return
    the cards; refuses with ``rule``."""
    value = cards(state).bucks
    holding = state.bucks[seat]
    if named is None:
        exact = [c for c in holding if value[c] == amount]
        if exact:  # one card of the very amount: warren's smallest payment at once
            return [min(exact)]
        chosen = units.choose_payment(holding, amount, value)
        if chosen is None:
            refuse(rule, f"seat {seat} has {money(state, seat)} Bunny Bucks, not {amount}",
                 money=money(state, seat), price=amount)
        return chosen
    try:
        units.check_owned(named, holding, "Bunny Buck")
        units.check_payment(named, amount, value, "Bunny Buck")
    except Refusal as refusal:
        refuse(rule, refusal.message, **refusal.facts)
    return list(named)


def spend(state: KinderState, seat: int, paid: list[int], amount: int, fx: Effects, rule: str) -> None:
    """Hand the Buck cards to the discard pile (the bank) and take change from it, as far as
    it holds Bucks (R-KIN-10)."""
    value = cards(state).bucks
    for c in paid:
        state.bucks[seat].remove(c)
        state.discard.append(c)
    change = units.total(paid, value) - amount
    if change > 0:
        got = gain_bucks(state, seat, change)
        fx.append(Effect(rule, "change", {"seat": seat, "due": change, "cards": got}))


def gain_bucks(state: KinderState, seat: int, amount: int) -> list[int]:
    """Bucks worth up to ``amount`` from the discard pile (largest first): only what it holds."""
    value = cards(state).bucks
    pile = [c for c in state.discard if c in value]
    got, _ = units.make_change(pile, amount, value)
    for c in got:
        state.discard.remove(c)
        state.bucks[seat].append(c)
    return got


def discard_bunny(state: KinderState, bunny: int, rule: str, why: str, fx: Effects,
                  card: int | None = None) -> None:
    """The bunny leaves the table for the discard pile; ``card`` is the card that cost it."""
    seat = owner_of(state, bunny)
    if seat is None:
        return
    state.table[seat].remove(bunny)
    state.discard.append(bunny)
    data: dict[str, Any] = {"seat": seat, "bunny": bunny, "why": why}
    if card is not None:
        data["card"] = card
    fx.append(Effect(rule, "bunny_lost", data))


# -- how the game moves on -------------------------------------------------------------------
def drawable(state: KinderState, fx: Effects | None) -> bool:
    """A card can be drawn; in Really Advanced an empty draw pile takes the discard pile
    first (KIN-RA-2)."""
    if pile_size(state):
        return True
    if really_advanced(state) and state.discard:
        if fx is not None:
            moved = len(state.discard)
            if state.partial:
                pool = state.pool
                assert pool is not None
                for c in state.discard:
                    pool.hide(str(c))
                state.pile_hidden += moved
            else:
                state.pile = set(state.discard)
            state.discard = []
            fx.append(Effect("KIN-RA-2", "reshuffled", {"cards": moved}))
        return True
    return False


def owed_draw(state: KinderState) -> int | None:
    """The seat a card is owed to now, or None."""
    if state.over or state.ending or state.task is not None:
        return None
    if state.dealing:
        return state.deal_seat
    if state.refill:
        return state.refill[0]
    return None


def advance(state: KinderState, fx: Effects) -> None:
    """Move the game on until it waits for somebody or for chance: finish the deal, give the
    cards owed, end the turn, start the next one or end the game."""
    while not state.over and not state.ending and state.task is None:
        if state.dealing:
            full = [len(h) >= state.hand_size for h in state.hands]
            if not all(full):
                seat = state.deal_seat
                while full[seat]:
                    seat = next_seat(state, seat)
                state.deal_seat = seat
                if drawable(state, fx):
                    return
            state.dealing = False
            state.turn, state.round = 1, 1
            state.active = state.youngest
            state.phase = "play"
            state.played = False
            fx.append(Effect("KIN-TURN-1", "first_player", {"seat": state.youngest}))
            continue
        refill = state.refill
        while refill:
            if len(state.hands[refill[0]]) < state.hand_size and (
                    state.pile or state.pile_hidden or drawable(state, fx)):
                return
            refill.pop(0)
        if not state.played and (state.hands[state.active] or  # type: ignore[index]  # set in play
                                 state.forced is not None):
            return
        # The card is played, or the hand is empty with nothing to draw: the turn passes
        # (end_turn ends a game in which nobody holds a card).
        end_turn(state, fx)


def end_turn(state: KinderState, fx: Effects) -> None:
    state.played = False
    state.forced = None
    if not any(state.hands):
        if not drawable(state, None):
            finish(state, fx)
            return
        # Every hand empty but cards to draw (a Really Advanced discard pile): everyone draws
        # up again, from the next player on.
        first = next_seat(state, state.active or 0)
        state.refill = clockwise_from(state, first)
        state.active = first
        state.turn += 1
        state.round = (state.turn - 1) // state.n + 1
        state.phase = "play"
        return
    seat = state.active
    assert seat is not None
    n, hands, skips = state.n, state.hands, state.skips
    for _ in range(n * (1 + sum(skips)) + 1):
        seat = (seat + 1) % n  # next_seat
        if not hands[seat]:
            continue
        if skips[seat]:
            state.skips[seat] -= 1
            fx.append(Effect("KIN-CARD-DEEP-SLEEP", "turn_missed", {"seat": seat}))
            continue
        break
    state.active = seat
    state.turn += 1
    state.round = (state.turn - 1) // state.n + 1
    state.phase = "play"


def finish(state: KinderState, fx: Effects) -> None:
    """The end: Beginner and Advanced score (KIN-END-1, KIN-END-2); Really Advanced turns
    the bottom Orange card up first (KIN-RA-1)."""
    if really_advanced(state):
        state.ending = True
        state.phase = "reveal"
        state.active = None
        return
    scores = [len(state.carrots[s]) + len(state.table[s]) for s in range(state.n)]
    best = max(scores)
    tied = [s for s in range(state.n) if scores[s] == best]
    if len(tied) > 1:
        most = max(money(state, s) for s in tied)
        tied = [s for s in tied if money(state, s) == most]
    state.scores = scores
    state.winners = tied
    state.over = True
    state.phase = "over"
    state.active = None
    fx.append(Effect("KIN-END-1", "game_over", {"scores": scores}))
    fx.append(Effect("KIN-END-2", "winners", {"winners": tied, "shared": len(tied) > 1}))
