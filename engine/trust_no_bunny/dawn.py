"""Dawn: the cards drawn, Items lost, and the end of the round (TNB-DRAW-*, TNB-ITEM-9,
TNB-END-2..4, TNB-QUIRK-*)."""

from __future__ import annotations

from itertools import chain

from engine.hidden import UNKNOWN
from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.events import Draw
from engine.trust_no_bunny.numbers import (
    ROUNDS,
)
from engine.trust_no_bunny.rounds import ending, finish, quirk_met, start_round
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import card_counts, refuse_if_over, require_chance
from engine.wording import and_list


def round_end(state: TnbState, hand_sizes: list[int] | None) -> tuple[str, str, str, list[int]] | None:
    """How the round ends the game, if it does: (winner, reason, rule, winners).
    ``hand_sizes``: the hands as the end counts them (None: the hands held)."""
    if state.wall == 0 and state.tower == 0:
        return "werebunnies", "defences_down", "TNB-END-2", list(state.werebunnies or ())
    if state.round < ROUNDS - 1:
        return None  # no round before the last two can end the game at its dawn otherwise
    is_werebunny = state.is_werebunny
    town = [s for s in range(state.n) if not is_werebunny[s]]
    if state.round >= ROUNDS:
        winners = [s for s in town if quirk_met(state, s, None if hand_sizes is None else hand_sizes[s])]
        return "townsfolk", "town_survived", "TNB-END-3", winners
    if state.round == ROUNDS - 1 and state.early_end and state.wall > 0:
        return "townsfolk", "wall_held", "TNB-END-4", town
    return None


def draw(state: TnbState, event: Draw) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    if state.phase != "dawn":
        # TNB-DRAW-1: cards are drawn at dawn, once a night.
        raise RuleViolation("TNB-DRAW-1", "cards are drawn only at dawn", phase=state.phase)
    if event.actor is not None:
        require_chance(event, "TNB-DRAW-1")
    n = state.n
    cards = event.cards
    if state.partial or UNKNOWN in cards:
        # A game recorded at the table: draws nobody saw (unknowns_night.py).
        return _draw_unseen(state, event)
    owed = state.owed
    if len(cards) != n:
        raise RuleViolation("TNB-DRAW-1", f"the draw lists cards for each of the {n} seats",
                            seats=len(cards))
    # The cards that can be drawn now, and whether the discard pile must be shuffled in.
    total_owed = sum(owed)
    deck = state.deck
    available = deck[1] + deck[2] + deck[3] + deck[4]
    reshuffle = total_owed > available
    if reshuffle:
        d = state.discard
        available += d[1] + d[2] + d[3] + d[4]
    drawn = list(map(len, cards))
    if total_owed <= available:
        if drawn != owed:
            # TNB-DRAW-1: each seat draws exactly what it is owed.
            raise RuleViolation("TNB-DRAW-1", f"each seat draws what it is owed "
                                f"({_per_seat(owed)}), not {_per_seat(drawn)}",
                                owed=list(owed), drawn=drawn)
    elif sum(drawn) != available or any(d > o for d, o in zip(drawn, owed, strict=True)):
        # TNB-DRAW-2: a deck run dry deals what it has, never more than a seat is owed.
        raise RuleViolation("TNB-DRAW-2", f"only {available} cards are left to draw for {owed}",
                            owed=list(owed), drawn=drawn, available=available)
    pool = deck[:]
    if reshuffle:
        for v in (1, 2, 3, 4):
            pool[v] += state.discard[v]
    # The whole table's draw counted at once, at C speed; when the counts miss a card, one
    # seat's list holds something that is not a card value, and counting seat by seat finds
    # it (or finds cards nobody saw, at the table).
    every = list(chain.from_iterable(cards))
    need = [0, every.count(1), every.count(2), every.count(3), every.count(4)]
    if need[1] + need[2] + need[3] + need[4] != len(every):
        try:
            for c in cards:
                card_counts(c, "TNB-DRAW-2", "the draw")
        except RuleViolation:
            if any(UNKNOWN in c for c in cards):
                return _draw_unseen(state, event)  # cards nobody saw, at the table
            raise
    if need[1] > pool[1] or need[2] > pool[2] or need[3] > pool[3] or need[4] > pool[4]:
        # TNB-DRAW-2: the cards drawn must be in the deck.
        raise RuleViolation("TNB-DRAW-2", "the draw holds cards the deck does not have",
                            drawn=need[1:], deck=pool[1:])
    hands = state.hands
    if event.reveal is not None:
        sizes = [h[1] + h[2] + h[3] + h[4] + d for h, d in zip(hands, drawn, strict=True)]
        _check_reveal(state, event, sizes)
    effects: list[Effect] = []
    if reshuffle:
        state.discard = [0, 0, 0, 0, 0]
        effects.append(Effect("TNB-DRAW-2", "discard_reshuffled", {}))
    state.deck = [0, pool[1] - need[1], pool[2] - need[2], pool[3] - need[3], pool[4] - need[4]]
    for seat, c in enumerate(cards):
        if c:
            hand = hands[seat]
            for card in c:
                hand[card] += 1  # type: ignore[index]  # card values, checked above
    state.draws.append(cards)  # type: ignore[arg-type]  # for the notes of what was drawn (notes.py)
    effects.append(Effect("TNB-DRAW-1", "cards_drawn", {"drawn": drawn}))
    if state.pending_item_loss:
        for seat in state.pending_item_loss:
            # TNB-ITEM-9: the sabotaged Item goes at the end of the night.
            state.item_lost[seat] = True
        state.pending_item_loss = []
    state.owed = [0] * n
    # The hands now hold what they drew: their sizes are what the round's end reads. Before
    # the last two rounds only the fallen defences end the game (round_end, asked then only).
    ending = (round_end(state, None) if state.round >= ROUNDS - 1 or (state.wall == 0 and state.tower == 0)
              else None)
    if ending is not None:
        winner, reason, rule, winners = ending
        finish(state, winner, reason, rule, winners, effects)
    else:
        start_round(state)
    return tuple(effects)


def _draw_unseen(state: TnbState, event: Draw) -> tuple[Effect, ...]:
    from engine.trust_no_bunny.unknowns_night import draw as draw_unseen

    return draw_unseen(state, event)


def _check_reveal(state: TnbState, event: Draw, hand_sizes: list[int]) -> None:
    """A reveal on a dawn of a record that knows everything: only when it ends the game, and
    then it must show what the state holds (TNB-REC-3)."""
    from engine.trust_no_bunny.unknowns import check_reveal, refuse_misplaced_reveal

    if ending(state) is None:
        refuse_misplaced_reveal("this dawn does not end the game")
    assert event.reveal is not None
    check_reveal(state, event.reveal, [(size, size) for size in hand_sizes])


def _per_seat(counts: list[int]) -> str:
    """``2 for seat 2 and 1 for seat 3`` (named by ``say``); ``none for anyone``."""
    said = [f"{n} for seat {s}" for s, n in enumerate(counts) if n]
    return and_list(said) if said else "none for anyone"
