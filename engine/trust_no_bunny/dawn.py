"""Dawn: the cards drawn, Items lost, and the end of the round (TNB-DRAW-*, TNB-ITEM-9,
TNB-END-2..4, TNB-QUIRK-*)."""

from __future__ import annotations

from itertools import chain

from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.common import card_counts, refuse_if_over, require_chance
from engine.trust_no_bunny.day import finish, start_round
from engine.trust_no_bunny.events import Draw
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import (
    BRAVE,
    HOARDER,
    HOARDER_CARDS,
    HOMEBODY,
    HOMEBODY_NIGHTS,
    ROUNDS,
)

QUIRK_RULE = {BRAVE: "TNB-QUIRK-1", HOMEBODY: "TNB-QUIRK-2", HOARDER: "TNB-QUIRK-3"}


def quirk_met(state: TnbState, seat: int, hand_size: int | None = None) -> bool:
    """Has ``seat`` met its Quirk (TNB-QUIRK-1..3)? ``hand_size`` overrides the hand held."""
    quirk = state.quirks[seat]
    if quirk == BRAVE:
        return state.nights_guarded[seat] >= 1
    if quirk == HOMEBODY:
        return state.nights_home[seat] >= HOMEBODY_NIGHTS
    if quirk == HOARDER:
        size = state.hand_size(seat) if hand_size is None else hand_size
        return size >= HOARDER_CARDS
    return False


def round_end(state: TnbState, hand_sizes: list[int] | None = None) -> tuple[str, str, str, list[int]] | None:
    """How the round ends the game, if it does: (winner, reason, rule, winners).
    ``hand_sizes`` stand for the hands held (default: the hands as they are)."""
    if state.wall == 0 and state.tower == 0:
        return "werebunnies", "defences_down", "TNB-END-2", list(state.werebunnies or ())
    last = state.round >= ROUNDS
    if not last and not (state.round == ROUNDS - 1 and state.early_end and state.wall > 0):
        return None
    town = [s for s in range(state.n) if not state.is_werebunny[s]]
    if last:
        winners = [s for s in town if quirk_met(state, s, None if hand_sizes is None else hand_sizes[s])]
        return "townsfolk", "town_survived", "TNB-END-3", winners
    return "townsfolk", "wall_held", "TNB-END-4", town


def _shortfall(state: TnbState) -> tuple[int, bool]:
    """Cards that can be drawn now, and whether the discard pile must be shuffled in."""
    owed = sum(state.owed)
    deck = state.deck
    available = deck[1] + deck[2] + deck[3] + deck[4]
    if owed <= available:
        return available, False
    d = state.discard
    return available + d[1] + d[2] + d[3] + d[4], True


def draw(state: TnbState, event: Draw) -> tuple[Effect, ...]:
    refuse_if_over(state)
    if state.phase != "dawn":
        # TNB-DRAW-1: cards are drawn at dawn, once a night.
        raise RuleViolation("TNB-DRAW-1", "cards are drawn only at dawn", phase=state.phase)
    require_chance(event, "TNB-DRAW-1")
    n = state.n
    cards = event.cards
    owed = state.owed
    if len(cards) != n:
        raise RuleViolation("TNB-DRAW-1", f"the draw lists cards for each of the {n} seats",
                            seats=len(cards))
    available, reshuffle = _shortfall(state)
    total_owed = sum(owed)
    drawn = [len(c) for c in cards]
    if total_owed <= available:
        if drawn != owed:
            # TNB-DRAW-1: each seat draws exactly what it is owed.
            raise RuleViolation("TNB-DRAW-1", f"the seats are owed {owed} cards, not {drawn}",
                                owed=list(owed), drawn=drawn)
    elif sum(drawn) != available or any(d > o for d, o in zip(drawn, owed, strict=True)):
        # TNB-DRAW-2: a deck run dry deals what it has, never more than a seat is owed.
        raise RuleViolation("TNB-DRAW-2", f"only {available} cards are left to draw for {owed}",
                            owed=list(owed), drawn=drawn, available=available)
    pool = state.deck[:]
    if reshuffle:
        for v in (1, 2, 3, 4):
            pool[v] += state.discard[v]
    # Every card of the draw counted at once (C speed); when the counts miss a card, one of
    # them is not a card value, and card_counts names it.
    flat = list(chain.from_iterable(cards))
    need = card_counts(flat, "TNB-DRAW-2", "the draw")
    if need[1] > pool[1] or need[2] > pool[2] or need[3] > pool[3] or need[4] > pool[4]:
        # TNB-DRAW-2: the cards drawn must be in the deck.
        raise RuleViolation("TNB-DRAW-2", "the draw holds cards the deck does not have",
                            drawn=need[1:], deck=pool[1:])
    effects: list[Effect] = []
    if reshuffle:
        state.discard = [0, 0, 0, 0, 0]
        effects.append(Effect("TNB-DRAW-2", "discard_reshuffled", {}))
    pool[1] -= need[1]
    pool[2] -= need[2]
    pool[3] -= need[3]
    pool[4] -= need[4]
    state.deck = pool
    night = state.round
    hands, notes = state.hands, state.notes
    for seat, drawn_cards in enumerate(cards):
        if drawn_cards:
            hand = hands[seat]
            for card in drawn_cards:  # values checked above: 1 to 4
                hand[card] += 1
            notes[seat].append({"night": night, "kind": "drew", "cards": sorted(drawn_cards)})
    effects.append(Effect("TNB-DRAW-1", "cards_drawn", {"drawn": drawn}))
    for seat in state.pending_item_loss:
        # TNB-ITEM-9: the sabotaged Item goes at the end of the night.
        state.item_lost[seat] = True
    state.pending_item_loss = []
    state.owed = [0] * n
    ending = round_end(state)  # the hands as drawn: the Hoarder's (TNB-QUIRK-3)
    if ending is not None:
        winner, reason, rule, winners = ending
        finish(state, winner, reason, rule, winners, effects)
    else:
        start_round(state)
    return tuple(effects)
