"""A game of Killer Bunnies Quest recorded at the table: the cards nobody saw.

In a table-form record (docs/record-format.md, ruling R-KBQ-40) the engine does not know
the order of the draw pile, the small Cabbage and Water decks or the small carrot deck. It
keeps, instead of those orders:

* :data:`HIDDEN` wherever a card lies that the record has not named: in a hand, in a run
  position (run cards are face down), in the draw pile and the small decks (their cards
  are all unknown until taken), in the discard pile (a leaver's hand goes there unseen);
* ``state.pool``: every card of the game not yet seen anywhere. A card the record names
  where the engine holds a :data:`HIDDEN` one comes out of the pool (REC-UNK-2: each card
  comes to light once, and never where it is known not to be).

A card that goes to a hand unseen is a card a hand can hold: the Dolla and Play
Immediately cards drawn go face up at once, so the table sees them (ruling R-KBQ-41). A
card that leaves a hand without the record saying which may be any of its cards, so the
known ones become unknown again (R-KBQ-42). Where a rule depends on a card nobody saw, the
handler records an undetermined effect (engine.hidden) with what it needs, and play goes
on as recorded.
"""

from __future__ import annotations

from engine.hidden import UNKNOWN, settled
from engine.killer.catalogue.effects import AnyEffect
from engine.killer.refusal import refuse
from engine.killer_bunnies_quest.catalogue import deck
from engine.killer_bunnies_quest.state import Ctx, QuestState, Shown
from engine.rules import Effect

HIDDEN = -1
"""A card the record has not named, where it lies in the state."""

SHOWN_KINDS = frozenset({"money", "play_immediately"})
"""Cards drawn that go face up at once (KBQ-DRAW-1, KBQ-PI-1): never a hand's unknown card."""


def unseen(card: object) -> bool:
    """The record leaves this card unknown (``"?"``)."""
    return card == UNKNOWN


def refuse_unseen(state: QuestState, what: str) -> None:
    """``"?"`` only in a table-form record (REC-UNK-1)."""
    if not state.partial:
        refuse("REC-UNK-1", f"{what} leaves a card unknown ('?'), but only a game recorded at "
                            "the table, whose set-up names no pile's order, may")


def hand_card(state: QuestState, card: int) -> bool:
    """A card a hand can hold unseen: a large card that is not shown when drawn."""
    d = deck(state)
    return card in d.large and d.type[card] not in SHOWN_KINDS


def may_hold(state: QuestState, seat: int, card: int) -> bool:
    """``seat``'s hand holds ``card``, or may hold it as one of its unknown cards."""
    hand = state.seats[seat].hand
    if card in hand:
        return True
    return state.partial and HIDDEN in hand and card in state.pool and hand_card(state, card)


def come_to_light(state: QuestState, card: int, where: str) -> None:
    """``card`` is named where the engine held an unknown card: out of the pool, or refused
    (REC-UNK-2)."""
    if card not in state.pool:
        refuse("REC-UNK-2", f"{name(state, card)} is named {where}, but it has been "
                            "seen elsewhere already", card=card)
    state.pool.discard(card)


def take_from_hand(state: QuestState, seat: int, card: int) -> None:
    """Take ``card`` out of the hand (checked by :func:`may_hold`); an unknown card comes to
    light as it."""
    hand = state.seats[seat].hand
    if card in hand:
        hand.remove(card)
        return
    come_to_light(state, card, f"in seat {seat}'s hand")
    hand.remove(HIDDEN)
    if state.doubts:
        came_to_light(state, seat, card)


# -- undetermined checks, settled later ----------------------------------------------------------
#
# A doubt is an undetermined check about the unknown cards a seat's hand held at an event:
# ``[seq, rule, seat, kind, left, needs]``, ``kind`` "no_weapon" (none of them was a weapon:
# the Geneva Convention) or "weapon" (one of them was: Rooney's Weapons Exchange), ``left``
# how many of them are still unknown in the hand. While no other unknown card has joined the
# hand, every unknown card named there is one of them, so the check is settled: legal when
# they have all come to light without contradicting it, illegal as soon as one does.


def doubt(state: QuestState, rule: str, seat: int, kind: str, needs: str) -> None:
    """Keep an undetermined check about ``seat``'s unknown hand cards to settle later."""
    state.doubts.append([state.seq + 1, rule, seat, kind, state.seats[seat].hand.count(HIDDEN), needs])


def unknown_joins(state: QuestState, seat: int) -> None:
    """An unknown card joins ``seat``'s hand (or the known ones become unknown): a card named
    there later may be that one, so the seat's doubts can no longer be settled."""
    if state.doubts:
        state.doubts = [d for d in state.doubts if d[2] != seat]


def came_to_light(state: QuestState, seat: int, card: int) -> None:
    """``card`` was one of ``seat``'s unknown hand cards: settle what it decides."""
    d = deck(state)
    weapon = d.is_weapon(card)
    for entry in state.doubts:
        seq, rule, holder, kind, left = entry[:5]
        if holder != seat or left <= 0:
            continue
        if kind == "no_weapon" and weapon:
            refuse(rule, f"{name(state, card)} was in seat {seat}'s hand at event {seq}, which "
                         f"it needed not to hold there ({entry[5]})", card=card, event=seq)
        entry[4] = left - 1
        if kind == "weapon" and weapon:
            entry[4] = -1  # settled: legal
        elif kind == "weapon" and entry[4] == 0:
            refuse(rule, f"every card of seat {seat}'s hand at event {seq} has come to light and "
                         f"none was a weapon ({entry[5]})", event=seq)
        elif kind == "no_weapon" and entry[4] == 0:
            entry[4] = -1  # settled: legal


def held_a_weapon(state: QuestState, seat: int, rule: str) -> None:
    """``seat``'s hand is shown to have held a weapon (he gave one in an exchange): his
    "weapon" doubts under ``rule`` are settled legal."""
    for entry in state.doubts:
        if entry[2] == seat and entry[3] == "weapon" and entry[1] == rule:
            entry[4] = -1


def settlements(state: QuestState) -> list[Effect]:
    """The doubts settled legal by this event, as effects (and out of the list)."""
    done = [entry for entry in state.doubts if entry[4] == -1]
    if not done:
        return []
    state.doubts = [entry for entry in state.doubts if entry[4] != -1]
    return [settled(entry[1], entry[0], f"seat {entry[2]}'s hand came to light", seat=entry[2])
            for entry in done]


def take_unseen(state: QuestState, seat: int) -> int:
    """A card leaves the hand without the record saying which (R-KBQ-42): an unknown one
    when the hand holds only unknown cards; otherwise any of them may be the one gone, so
    the known ones go back to the pool. Returns :data:`HIDDEN`."""
    hand = state.seats[seat].hand
    if not hand:
        refuse("KBQ-TURN-3", f"seat {seat}'s hand is empty", seat=seat)
    unknown_joins(state, seat)
    for card in hand:
        if card != HIDDEN:
            state.pool.add(card)
    hand[:] = [HIDDEN] * (len(hand) - 1)
    return HIDDEN


def unknown_slots(state: QuestState) -> int:
    """Unknown cards a hand, a run position or the discard pile (a leaver's hand) holds:
    each must be a hand card of the pool."""
    return sum(s.hand.count(HIDDEN) + (s.run.top == HIDDEN) + (s.run.bottom == HIDDEN)
               for s in state.seats) + state.discard.count(HIDDEN)


def hand_cards_unseen(state: QuestState) -> int:
    """Hand cards of the pool that are in no known place: what unknown slots may be."""
    return sum(1 for c in state.pool if hand_card(state, c))


def name(state: QuestState, card: int) -> str:
    """A card by its name (the name its copies share)."""
    d = deck(state)
    return d.card(card).name if card in d.type else f"card {card}"


def shown(value: int | None) -> int | str | None:
    """A card as a view writes it: :data:`HIDDEN` becomes ``"?"``."""
    return UNKNOWN if value == HIDDEN else value


def needs_showing(state: QuestState, seat: int, effect: AnyEffect, ctx: Ctx) -> bool:
    """The table form: ``seat``'s hand holds unknown cards that a card needs shown (its
    weapons, R-KBQ-43); pushes the :class:`Shown` frame, and the game then waits for a
    ``reveal`` of them (engine.killer_bunnies_quest.drawing)."""
    if not state.partial or HIDDEN not in state.seats[seat].hand or seat in ctx.shown:
        return False
    state.stack.append(Shown(ctx=ctx, seat=seat, effect=effect))
    return True


def hand_candidates(state: QuestState, seat: int) -> list[int]:
    """The cards ``seat`` may hold: the known ones, and while the hand holds unknown cards,
    every hand card nobody has seen (what the legal actions offer a recorder)."""
    hand = state.seats[seat].hand
    known = [c for c in hand if c != HIDDEN]
    if HIDDEN not in hand:
        return known
    return [*known, *sorted(c for c in state.pool if hand_card(state, c) and c not in known)]
