"""The table form's chance events: a card off a face-down pile (``draw``) and a card turned
up at the end or shown from a hand (``reveal``), ruling R-KBQ-40.

In the full form the engine draws by itself from the recorded order (flow). In the table
form the game waits, at the same moment, for the table to say what came: the frame on top
of the stack says which pile and for whom (the deal, a seat's draws, a seat's small cards,
the Magic Carrot, a hand shown). Each handler checks the card against what is known
(engine.killer_bunnies_quest.unknowns) and then does what the full form's draw does.
"""

from __future__ import annotations

from engine.hidden import undetermined
from engine.killer_bunnies_quest import flow, table, waiting
from engine.killer_bunnies_quest.events import Draw, Reveal
from engine.killer_bunnies_quest.numbers import DEAL
from engine.killer_bunnies_quest.state import (
    Deal,
    Draws,
    MagicReveal,
    QuestState,
    Shown,
    Supplies,
)
from engine.killer_bunnies_quest.unknowns import (
    HIDDEN,
    come_to_light,
    doubt,
    hand_card,
    hand_cards_unseen,
    may_hold,
    name,
    unknown_slots,
    unseen,
)
from engine.rules import Effect

refuse = table.refuse


def _table_chance(state: QuestState, event: Draw | Reveal, kind: str, rule: str) -> int | None:
    """The game waits for this chance event now; returns the seat it is owed to."""
    if state.over:
        refuse("KBQ-END-4", "the game is over")
    if event.actor is not None:
        refuse(rule, f"a {kind} is recorded by the table (actor null)")
    owed = waiting.awaited(state)
    if owed.chance != kind:
        if not state.partial:
            refuse("REC-UNK-1", f"a {kind} event belongs to a game recorded at the table, whose "
                                "set-up names no pile's order; this one's engine draws by itself")
        said = owed.chance or ", ".join(f"seat {s}'s {k}" for s, k in sorted(owed.decisions.items()))
        refuse(rule, f"the game does not wait for a {kind} now (it waits for {said or 'nothing'})",
               waiting_for=owed.chance)
    return owed.chance_seat


# -- draw ------------------------------------------------------------------------------------------


def draw(state: QuestState, e: Draw) -> tuple[Effect, ...]:
    top = state.stack[-1] if state.stack else None
    rule = ("KBQ-SET-2" if isinstance(top, Deal) else top.rule if isinstance(top, Draws | Supplies)
            else "KBQ-TURN-3")
    # a card of the deal is owed as the deal (the recorder enters a deal nobody saw at once)
    owed = _table_chance(state, e, "deal" if isinstance(top, Deal) else "draw", rule)
    if e.seat != owed:
        refuse(rule, f"no card is owed to seat {e.seat} now: the next card is seat {owed}'s",
               seat=e.seat, owed=owed)
    out: list[Effect] = []
    if isinstance(top, Supplies):
        _supply(state, top, e, out)
    else:
        card = _off_the_pile(state, e, rule)
        if isinstance(top, Deal):
            _dealt(state, top, e.seat, card, out)
        else:
            assert isinstance(top, Draws)
            flow.drawn(state, top, card, out)
    flow.advance(state, out)
    return tuple(out)


def _off_the_pile(state: QuestState, e: Draw, rule: str) -> int:
    """The card the draw pile gives: named (out of the pool) or unseen (a hand card)."""
    d = table.deck(state)
    if unseen(e.card):
        # Dolla and Play Immediately cards go face up (R-KBQ-41): an unseen card is a hand
        # card, and one must be left for it.
        if unknown_slots(state) + 1 > hand_cards_unseen(state):
            refuse(rule, "every card a hand could hold unseen is accounted for: the table must "
                         "say which card was drawn (a Dolla or a Play Immediately card is shown)",
                   seat=e.seat)
        state.draw.pop()
        return HIDDEN
    card = e.card
    assert isinstance(card, int)
    if card not in d.large:
        refuse(rule, f"{name(state, card)} is not a card of the draw pile", card=card)
    come_to_light(state, card, "drawn")
    if hand_card(state, card) and unknown_slots(state) > hand_cards_unseen(state):
        state.pool.add(card)
        refuse("REC-UNK-2", f"{name(state, card)} must be one of the unknown cards already held: "
                            "no other card is left for them", card=card)
    state.draw.pop()
    return card


def _dealt(state: QuestState, frame: Deal, seat: int, card: int, out: list[Effect]) -> None:
    """One card of the deal, as the full form deals it (flow.dealt); the deal is over once
    every seat holds seven (or the pile is out)."""
    if not flow.dealt(state, seat, card, out):
        return
    frame.dealt += 1
    if frame.dealt >= DEAL * len(frame.order) or not state.draw:
        state.stack.pop()


def _supply(state: QuestState, frame: Supplies, e: Draw, out: list[Effect]) -> None:
    """A small card off its deck, face up: named (REC-UNK-3), of the right kind, unseen."""
    card = e.card
    if unseen(card):
        refuse("REC-UNK-3", f"a {frame.kind} card goes face up: the table names it (its units)",
               seat=e.seat)
    assert isinstance(card, int)
    if table.deck(state).type.get(card) != frame.kind:
        refuse("KBQ-SMALL-1", f"{name(state, card)} is not a {frame.kind} card: the "
                              f"{frame.kind} deck gives {frame.kind} cards", card=card)
    come_to_light(state, card, f"off the {frame.kind} deck")
    pile = state.cabbage_deck if frame.kind == "cabbage" else state.water_deck
    pile.pop()
    table.holding_of(state.seats[frame.seat], frame.kind).append(card)
    frame.got.append(card)
    frame.count -= 1


@flow.step(Supplies)
def _supplies_step(state: QuestState, frame: Supplies, out: list[Effect]) -> bool:
    pile = state.cabbage_deck if frame.kind == "cabbage" else state.water_deck
    if frame.count > 0 and not pile and state.opts.reshuffle_supplies:
        used = state.cabbage_discard if frame.kind == "cabbage" else state.water_discard
        state.pool.update(used)
        pile.extend([HIDDEN] * len(used))
        used.clear()
    if frame.count > 0 and pile:
        return False  # the table says the card (a draw event)
    if frame.count > 0:
        out.append(Effect("KBQ-SUP-1", "supplies_out", {"kind": frame.kind}))
    state.stack.pop()
    out.append(Effect(frame.rule, "supply_taken", {"seat": frame.seat, "kind": frame.kind,
                                                   "cards": frame.got}))
    return True


def _waits(state: QuestState, frame: object, out: list[Effect]) -> bool:
    return False


flow.STEPS[Deal] = _waits
flow.STEPS[MagicReveal] = _waits
flow.STEPS[Shown] = _waits


# -- reveal ----------------------------------------------------------------------------------------


def reveal(state: QuestState, e: Reveal) -> tuple[Effect, ...]:
    top = state.stack[-1] if state.stack else None
    if e.look or (e.seat is not None and not isinstance(top, Shown | MagicReveal)):
        # a look (a record before R-KBQ-45 leaves ``look`` out: a seat's reveal no frame asks)
        return _looked(state, e)
    if isinstance(top, Shown):
        return _shown(state, top, e)
    _table_chance(state, e, "reveal", "KBQ-END-2")
    if e.seat is not None:
        refuse("KBQ-END-2", "the Magic Carrot's card is turned up by the table, not shown from a "
                            "hand: no seat", seat=e.seat)
    d = table.deck(state)
    if len(e.cards) != 1 or d.type.get(e.cards[0]) != "magic_carrot":
        refuse("KBQ-END-2", "the end turns up one card, the small carrot deck's bottom one: name "
                            "that small carrot card", cards=e.cards)
    card = e.cards[0]
    come_to_light(state, card, "at the bottom of the small carrot deck")
    state.magic_deck[-1] = card
    state.stack.pop()
    out: list[Effect] = []
    table.end_game(state, out)
    return tuple(out)


def _looked(state: QuestState, e: Reveal) -> tuple[Effect, ...]:
    """A seat's own record names the face-down top run card it was passed (Top Run Rotate):
    only that seat sees it, and nothing changes but what the record knows (R-KBQ-43)."""
    if state.over:
        refuse("KBQ-END-4", "the game is over")
    if not state.partial or e.actor is not None:
        refuse("REC-UNK-1", "a reveal of a face-down card belongs to a game recorded at the "
                            "table, by the table (actor null)")
    seat = e.seat
    if seat is None or not 0 <= seat < state.n:
        refuse("KBQ-RUN-1", "a look names the seat whose top run card it is", seat=seat)
    if e.look and not e.cards and state.seats[seat].run.top is not None:
        # another seat's record of his look: he saw a card, this record does not (R-KBQ-45)
        return (Effect("KBQ-RUN-1", "run_card_looked", {"seat": seat}),)
    if len(e.cards) != 1 or state.seats[seat].run.top != HIDDEN:
        refuse("KBQ-RUN-1", f"a reveal names the one face-down top run card of seat {seat} "
                            "that the record does not know yet", seat=seat, cards=e.cards)
    card = e.cards[0]
    if card not in table.deck(state).type or not hand_card(state, card):
        refuse("KBQ-RUN-1", f"{name(state, card)} cannot lie face down in a run position", card=card)
    come_to_light(state, card, f"in seat {seat}'s top run position")
    state.seats[seat].run.top = card
    return (Effect("KBQ-RUN-1", "run_card_seen", {"seat": seat, "card": card}),)


def _shown(state: QuestState, frame: Shown, e: Reveal) -> tuple[Effect, ...]:
    """The weapons of a hand with unknown cards, shown because a card asks for them
    (R-KBQ-43): each named card must be a weapon the hand may hold; whether it held no other
    is undetermined while unknown cards remain."""
    rule = table.card_rule(state, frame.ctx.card)
    if e.actor is not None:
        refuse(rule, "the cards shown are recorded by the table (actor null)")
    if e.seat != frame.seat:
        refuse(rule, f"seat {frame.seat} shows his weapons now, not seat {e.seat}", seat=e.seat)
    d = table.deck(state)
    hand = state.seats[frame.seat].hand
    if len(set(e.cards)) != len(e.cards):
        refuse(rule, "each weapon is shown once", cards=e.cards)
    for card in e.cards:
        if not d.is_weapon(card):
            refuse(rule, f"{name(state, card)} is not a weapon", card=card)
        if not may_hold(state, frame.seat, card):
            refuse("REC-UNK-2", f"seat {frame.seat}'s hand cannot hold {name(state, card)}: it is "
                                "known to be elsewhere", card=card)
    known = [c for c in hand if c != HIDDEN and d.is_weapon(c)]
    missing = [c for c in known if c not in e.cards]
    if missing:
        refuse(rule, f"seat {frame.seat}'s hand holds {name(state, missing[0])} too: every weapon "
                     "in it is shown", card=missing[0])
    for card in e.cards:
        if card not in hand:
            come_to_light(state, card, f"in seat {frame.seat}'s hand")
            hand[hand.index(HIDDEN)] = card
    out: list[Effect] = []
    if HIDDEN in hand:
        needs = f"legal only if seat {frame.seat}'s other {hand.count(HIDDEN)} card(s) held no weapon"
        out.append(undetermined(rule, needs, seat=frame.seat, unknown_cards=hand.count(HIDDEN)))
        doubt(state, rule, frame.seat, "no_weapon", needs)  # settled when they come to light
    state.stack.pop()
    from engine.killer_bunnies_quest.cards import apply_primitive

    frame.ctx.shown.append(frame.seat)
    apply_primitive(state, frame.ctx, frame.effect, out)
    flow.advance(state, out)
    return tuple(out)
