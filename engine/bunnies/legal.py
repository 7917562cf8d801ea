"""The legal actions of a seat at a position of a game of Bunnies."""

from __future__ import annotations

from itertools import combinations

from engine.bunnies.events import Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import OWN_SLOTS, is_uncovered, playable_by
from engine.bunnies.numbers import CARD_VALUE, RANKS
from engine.bunnies.state import BunniesState
from engine.record import Event


def _lays(state: BunniesState, seat: int, seq: int) -> list[Event]:
    top = CARD_VALUE[state.pile[-1]] if state.pile else 0
    by_rank: dict[str, list[str]] = {}
    for card in state.hands[seat]:
        if CARD_VALUE[card] >= top:
            by_rank.setdefault(card[0], []).append(card)
    lays: list[Event] = []
    for rank in RANKS:
        group = sorted(by_rank.get(rank, ()))
        for size in range(1, len(group) + 1):
            for cards in combinations(group, size):
                lays.append(Lay(seq=seq, actor=seat, cards=list(cards)))
    return lays


def _flips(state: BunniesState, seat: int, seq: int) -> list[Event]:
    return [
        Flip(seq=seq, actor=seat, slot=slot)
        for slot in sorted(state.blinds)
        if playable_by(slot, seat) and is_uncovered(slot, state.blinds)
    ]


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
                    if s in state.blinds and is_uncovered(s, state.blinds)
                ]
            actions += [Steal(seq=seq, actor=seat, card=c) for c in sorted(stealable)]
        if kind != "bunny" and not state.peeked:
            actions += [
                Peek(seq=seq, actor=seat, slot=s)
                for s in sorted(state.blinds) if playable_by(s, seat)
            ]
    actions += _lays(state, seat, seq) if hand else _flips(state, seat, seq)
    actions.append(EndTurn(seq=seq, actor=seat))
    return actions
