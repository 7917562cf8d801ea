"""The legal actions of a seat at a position of a game of Bunnies."""

from __future__ import annotations

from itertools import combinations

from engine.bunnies.events import Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import OWN_SLOTS, is_uncovered, playable_by
from engine.bunnies.numbers import CARD_VALUE, RANKS
from engine.bunnies.state import BunniesState
from engine.hidden import UNKNOWN
from engine.record import Event


def _lays(state: BunniesState, seat: int, seq: int) -> list[Event]:
    top = CARD_VALUE[state.pile[-1]] if state.pile else 0
    by_rank: dict[str, list[str]] = {}
    hand = state.hands[seat]
    unknown = hand.count(UNKNOWN) if state.partial else 0
    for card in hand:
        if card != UNKNOWN and CARD_VALUE[card] >= top:
            by_rank.setdefault(card[0], []).append(card)
    lays: list[Event] = []
    for rank in RANKS:
        group = sorted(by_rank.get(rank, ()))
        # In a recorded game an unknown card of the hand may be any unseen card (R-BUN-17).
        unseen = sorted(c for c in state.pool.unseen if c[0] == rank and CARD_VALUE[c] >= top) \
            if unknown and state.pool is not None else []
        for size in range(1, len(group) + min(unknown, len(unseen)) + 1):
            for cards in combinations(group + unseen, size):
                if sum(1 for c in cards if c in unseen) <= unknown:
                    lays.append(Lay(seq=seq, actor=seat, cards=list(cards)))
    return lays


def _flips(state: BunniesState, seat: int, seq: int) -> list[Event]:
    flips: list[Event] = []
    for slot in sorted(state.blinds):
        if playable_by(slot, seat) and is_uncovered(slot, state.blinds):
            if state.blinds[slot] == UNKNOWN and state.pool is not None:
                # The whole table sees the card turned up: the record names it (REC-UNK-3).
                flips.extend(Flip(seq=seq, actor=seat, slot=slot, card=c) for c in sorted(state.pool.unseen))
            else:
                flips.append(Flip(seq=seq, actor=seat, slot=slot))
    return flips


def decision_actions(state: BunniesState, seat: int) -> list[Event]:
    """What the active ``seat`` may do at the step of its go the game is in."""
    seq = state.seq + 1
    phase = state.phase
    if phase == "draw":
        return [Draw(seq=seq, actor=seat)]
    hand = state.hands[seat]
    if phase == "lay":
        if not hand:
            return _flips(state, seat, seq)
        lays = _lays(state, seat, seq)
        if lays and UNKNOWN in hand:
            # A hand nobody saw may hold nothing that beats the pile: picking up is open,
            # undetermined until the hand is known (BUN-PICKUP-1, REC-UNK-2).
            lays.append(Pickup(seq=seq, actor=seat))
        return lays or [Pickup(seq=seq, actor=seat)]
    # phase == "bunny": the bunny's action(s), laying again, or ending the go.
    actions: list[Event] = []
    kind = state.owed
    royal_used = kind == "royal" and (state.stole or state.peeked)
    if kind is not None and not royal_used:
        if not state.stole:
            other = 1 - seat
            stealable = list(state.hands[other])
            if state.steal_from == "hand_or_blind":
                stealable += [
                    state.blinds[s] for s in OWN_SLOTS[other]
                    if s in state.blinds and is_uncovered(s, state.blinds) and state.blinds[s] != UNKNOWN
                ]
            if UNKNOWN in stealable and state.pool is not None:
                stealable += state.pool.unseen  # an unknown card of the hand may be named
            actions += [Steal(seq=seq, actor=seat, card=c) for c in sorted(set(stealable))]
            if state.steal_from == "hand_or_blind":
                # a blind card nobody saw is taken by its slot, its face unseen (R-BUN-17)
                actions += [
                    Steal(seq=seq, actor=seat, card=UNKNOWN, slot=s) for s in OWN_SLOTS[other]
                    if state.blinds.get(s) == UNKNOWN and is_uncovered(s, state.blinds)
                ]
        if kind != "bunny" and not state.peeked:
            actions += [
                Peek(seq=seq, actor=seat, slot=s)
                for s in sorted(state.blinds) if playable_by(s, seat)
            ]
    actions += _lays(state, seat, seq) if hand else _flips(state, seat, seq)
    actions.append(EndTurn(seq=seq, actor=seat))
    return actions
