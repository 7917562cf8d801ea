"""Dawn: the cards drawn, Items lost, and the end of the round (TNB-DRAW-*, TNB-ITEM-9,
TNB-END-2..4, TNB-QUIRK-*)."""

from __future__ import annotations

from engine.hidden import UNKNOWN
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


def ending(state: TnbState) -> tuple[str, str, str] | None:
    """Whether this dawn ends the game, from public facts alone: (winner, reason, rule)."""
    if state.wall == 0 and state.tower == 0:
        return "werebunnies", "defences_down", "TNB-END-2"
    if state.round >= ROUNDS:
        return "townsfolk", "town_survived", "TNB-END-3"
    if state.round == ROUNDS - 1 and state.early_end and state.wall > 0:
        return "townsfolk", "wall_held", "TNB-END-4"
    return None


def round_end(state: TnbState, hand_sizes: list[int]) -> tuple[str, str, str, list[int]] | None:
    """How the round ends the game, if it does: (winner, reason, rule, winners)."""
    n = state.n
    town = [s for s in range(n) if not state.is_werebunny[s]]
    if state.wall == 0 and state.tower == 0:
        return "werebunnies", "defences_down", "TNB-END-2", list(state.werebunnies or ())
    if state.round >= ROUNDS:
        winners = [s for s in town if quirk_met(state, s, hand_sizes[s])]
        return "townsfolk", "town_survived", "TNB-END-3", winners
    if state.round == ROUNDS - 1 and state.early_end and state.wall > 0:
        return "townsfolk", "wall_held", "TNB-END-4", town
    return None


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
    if state.partial or UNKNOWN in cards:
        # A game recorded at the table: draws nobody saw (unseen_night.py).
        return _draw_unseen(state, event)
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
    try:
        counted = [card_counts(c, "TNB-DRAW-2", "the draw") for c in cards]  # type: ignore[arg-type]
    except RuleViolation:
        if any(UNKNOWN in c for c in cards):
            return _draw_unseen(state, event)  # cards nobody saw, at the table
        raise
    need = [0, 0, 0, 0, 0]
    for counts in counted:
        for v in (1, 2, 3, 4):
            need[v] += counts[v]
    if any(need[v] > pool[v] for v in (1, 2, 3, 4)):
        # TNB-DRAW-2: the cards drawn must be in the deck.
        raise RuleViolation("TNB-DRAW-2", "the draw holds cards the deck does not have",
                            drawn=need[1:], deck=pool[1:])
    hand_sizes = [state.hand_size(s) + drawn[s] for s in range(n)]
    if event.reveal is not None:
        _check_reveal(state, event, hand_sizes)
    effects: list[Effect] = []
    if reshuffle:
        state.discard = [0, 0, 0, 0, 0]
        effects.append(Effect("TNB-DRAW-2", "discard_reshuffled", {}))
    for v in (1, 2, 3, 4):
        pool[v] -= need[v]
    state.deck = pool
    night = state.round
    for seat, counts in enumerate(counted):
        if drawn[seat]:
            hand = state.hands[seat]
            for v in (1, 2, 3, 4):
                hand[v] += counts[v]
            state.notes[seat].append({"night": night, "kind": "drew", "cards": sorted(cards[seat])})
    effects.append(Effect("TNB-DRAW-1", "cards_drawn", {"drawn": drawn}))
    for seat in state.pending_item_loss:
        # TNB-ITEM-9: the sabotaged Item goes at the end of the night.
        state.item_lost[seat] = True
    state.pending_item_loss = []
    state.owed = [0] * n
    ending = round_end(state, hand_sizes)
    if ending is not None:
        winner, reason, rule, winners = ending
        finish(state, winner, reason, rule, winners, effects)
    else:
        start_round(state)
    return tuple(effects)


def _draw_unseen(state: TnbState, event: Draw) -> tuple[Effect, ...]:
    from engine.trust_no_bunny.unseen_night import draw as draw_unseen

    return draw_unseen(state, event)


def _check_reveal(state: TnbState, event: Draw, hand_sizes: list[int]) -> None:
    """A reveal on a dawn of a record that knows everything: only when it ends the game, and
    then it must show what the state holds (TNB-REC-3)."""
    from engine.trust_no_bunny.unknown import check_reveal, refuse_misplaced_reveal

    if ending(state) is None:
        refuse_misplaced_reveal("this dawn does not end the game")
    assert event.reveal is not None
    check_reveal(state, event.reveal, [(size, size) for size in hand_sizes])
