"""What each event does to a game of Bunnies, guard by guard.

Every guard runs before the state changes, so a violation leaves the state as it was.
Each guard names the rule it enforces.
"""

from __future__ import annotations

from collections import Counter

from engine.bunnies.events import Deal, Draw, EndTurn, Flip, Lay, Peek, Pickup, Steal
from engine.bunnies.layout import (
    ALL_SLOTS,
    COVERED_BY,
    OWN_SLOTS,
    SHARED_SLOTS,
    is_uncovered,
    playable_by,
)
from engine.bunnies.numbers import (
    BLINDS_PER_SEAT,
    BONUS_PER_BLIND,
    BUNNY_SIZE,
    CARD_VALUE,
    DECK,
    MIN_BONUS,
    POINTS_PER_BUNNY,
    SHARED_BLINDS,
    bunny_kind,
)
from engine.bunnies.state import BunniesState
from engine.bunnies.unknowns import (
    commit_reveals,
    deal_pool,
    drawn_card,
    pickup_doubt,
    plan_from_hand,
    refuse_unknowns,
    seen_card,
    steal_unseen,
    turned_card,
)
from engine.hidden import UNKNOWN
from engine.rules import NO_EFFECTS, Effect, RuleViolation

_DECK_SET = frozenset(DECK)


# -- guards shared by the player's actions -----------------------------------------------
def _require_turn(state: BunniesState, actor: int | None) -> int:
    """The seat acting, once it is the one whose go it is (refused otherwise)."""
    if state.over:
        # BUN-END-1: nothing happens after the end.
        raise RuleViolation("BUN-END-1", "the game is already over", out=state.out)
    if state.phase == "setup":
        # BUN-DEAL-1: nothing is played before the deal.
        raise RuleViolation("BUN-DEAL-1", "the cards have not been dealt yet", phase=state.phase)
    if actor is None or actor != state.active:
        raise _not_your_go(state, actor)
    return actor


def _not_your_go(state: BunniesState, actor: int | None) -> RuleViolation:
    """The violation for acting out of turn, naming how the actor's own go ended if it just did.

    Only reached on the error path, so it may look around: a player who acts again right
    after their own go is told which rule ended that go, not merely whose go it is.
    """
    active = state.active
    just_ended = (
        actor is not None and active is not None and actor == 1 - active
        and state.turn > 1 and state.phase in ("draw", "lay")
    )
    if just_ended:
        ended = state.ended
        if ended is not None and ended[0] == state.turn:
            rule, how = ended[1], ended[2]
        elif state.pile:
            # BUN-LAY-3: a go that ends with the pile still face up ended with a lay.
            rule, how = "BUN-LAY-3", "with a lay that scored no bunny"
        else:
            # BUN-PICKUP-1: an empty pile at the change of go means it was picked up.
            rule, how = "BUN-PICKUP-1", "when the pile was picked up"
        return RuleViolation(rule, f"seat {actor}'s go ended {how}; it is seat {active}'s go",
                             active=active, actor=actor)
    # BUN-TURN-1: only the player whose go it is acts.
    return RuleViolation(
        "BUN-TURN-1", f"it is seat {active}'s go, not seat {actor}'s",
        active=active, actor=actor,
    )


def _require_laying(state: BunniesState) -> None:
    if state.phase == "draw":
        # BUN-DRAW-1: the go starts with a draw while the stock has cards.
        raise RuleViolation(
            "BUN-DRAW-1", "the go must start by drawing from the stock",
            stock=len(state.stock),
        )


def _top_value(state: BunniesState) -> int:
    return CARD_VALUE[state.pile[-1]] if state.pile else 0


def can_beat(state: BunniesState, seat: int) -> bool:
    """Does ``seat`` hold a card that equals or beats the top face-up card?"""
    if not state.pile:
        return bool(state.hands[seat])
    top = CARD_VALUE[state.pile[-1]]
    for card in state.hands[seat]:  # noqa: SIM110 - a plain loop is faster than any() here
        if card != UNKNOWN and CARD_VALUE[card] >= top:
            return True
    return False


# -- consequences ---------------------------------------------------------------------
def _end_go(state: BunniesState) -> None:
    """Pass the go to the other seat (BUN-TURN-1)."""
    state.active = 1 - (state.active or 0)
    state.turn += 1
    state.round = (state.turn + 1) // 2
    state.phase = "draw" if state.stock else "lay"
    state.owed = None
    state.stole = False
    state.peeked = False


def _has_gone_out(state: BunniesState, seat: int) -> bool:
    """BUN-END-1: empty hand and none of the seat's own blind cards left."""
    if state.hands[seat]:
        return False
    blinds = state.blinds
    return not any(slot in blinds for slot in OWN_SLOTS[seat])


def _finish(state: BunniesState, seat: int, effects: list[Effect]) -> None:
    """BUN-END-1 and BUN-END-2: the game ends; score bunnies and the going-out bonus."""
    other = 1 - seat
    left = sum(1 for slot in OWN_SLOTS[other] if slot in state.blinds)
    bonus = max(MIN_BONUS, BONUS_PER_BLIND * left)
    scores = [POINTS_PER_BUNNY * len(state.bunnies[0]), POINTS_PER_BUNNY * len(state.bunnies[1])]
    scores[seat] += bonus
    state.scores = scores
    state.out = seat
    state.over = True
    state.phase = "over"
    state.active = None
    state.owed = None
    effects.append(Effect("BUN-END-1", "went_out", {"seat": seat}))
    effects.append(Effect("BUN-END-2", "scored", {
        "scores": scores, "bonus": bonus, "opponent_blinds_left": left,
    }))


def _after_lay(state: BunniesState, seat: int, effects: list[Effect] | None) -> tuple[Effect, ...]:
    """Check for a bunny (BUN-BUNNY-1), going out (BUN-END-1), else end the go (BUN-LAY-3).

    This runs after every lay, so the common case (no bunny, cards still in hand) is kept to
    a few comparisons.
    """
    pile = state.pile
    rank = pile[-1][0]
    if len(pile) >= BUNNY_SIZE and pile[-2][0] == rank and pile[-3][0] == rank and pile[-4][0] == rank:
        return _score_bunny(state, seat, rank, effects or [])
    if not state.hands[seat] and _has_gone_out(state, seat):
        effects = effects or []
        _finish(state, seat, effects)
        return tuple(effects)
    # BUN-LAY-3: no bunny, so the go passes (inline _end_go: this is the hot path).
    state.active = 1 - seat
    turn = state.turn = state.turn + 1
    state.round = (turn + 1) // 2
    state.phase = "draw" if state.stock else "lay"
    state.owed = None
    return tuple(effects) if effects else NO_EFFECTS


def _score_bunny(state: BunniesState, seat: int, rank: str, effects: list[Effect]) -> tuple[Effect, ...]:
    """BUN-BUNNY-1: four of a rank on top of the pile leave play as the layer's bunny."""
    pile = state.pile
    scored = pile[-BUNNY_SIZE:]
    del pile[-BUNNY_SIZE:]
    state.bunnies[seat].append(rank)
    kind = bunny_kind(rank)
    effects.append(Effect("BUN-BUNNY-1", "bunny_scored", {
        "seat": seat, "rank": rank, "kind": kind, "cards": scored,
    }))
    if _has_gone_out(state, seat):
        # R-BUN-7: going out ends the game at once; the bunny's action is forfeited.
        _finish(state, seat, effects)
    else:
        state.phase = "bunny"
        state.owed = kind
        state.stole = False
        state.peeked = False
    return tuple(effects)


# -- handlers, one per event type ------------------------------------------------------
def deal(state: BunniesState, event: Deal) -> tuple[Effect, ...]:
    if state.over:
        raise RuleViolation("BUN-END-1", "the game is already over", out=state.out)
    if state.phase != "setup":
        # BUN-DEAL-1: there is one deal per game.
        raise RuleViolation("BUN-DEAL-1", "the cards were already dealt", phase=state.phase)
    if event.actor is not None:
        raise RuleViolation("BUN-DEAL-1", "the deal is chance, recorded with a null actor",
                            actor=event.actor)
    hands, blinds, shared = event.hands, event.blinds, event.shared
    if len(hands) != 2 or any(len(h) != state.hand_size for h in hands):
        raise RuleViolation("BUN-DEAL-1", f"each of the two hands gets {state.hand_size} cards",
                            hand_sizes=[len(h) for h in hands])
    if len(blinds) != 2 or any(len(b) != BLINDS_PER_SEAT for b in blinds):
        raise RuleViolation("BUN-DEAL-1", f"each player gets {BLINDS_PER_SEAT} blind cards",
                            blind_counts=[len(b) for b in blinds])
    if len(shared) != SHARED_BLINDS:
        raise RuleViolation("BUN-DEAL-1", f"there are {SHARED_BLINDS} shared blind cards",
                            shared=len(shared))
    cards = [*hands[0], *hands[1], *blinds[0], *blinds[1], *shared, *event.stock]
    refuse_unknowns(state, cards, "the deal")
    counts = Counter(cards)
    if state.partial:
        # A deal at the table: the named cards are each a card of the deck, once; the rest
        # are unknown, and together they are the whole deck (REC-UNK-2).
        hidden = counts.pop(UNKNOWN, 0)
        unknown = sorted(c for c in counts if c not in _DECK_SET)
        twice = sorted(c for c, n in counts.items() if n > 1)
        if unknown or twice or sum(counts.values()) + hidden != len(DECK):
            raise RuleViolation("BUN-DEAL-1", "the deal must hold each of the 52 cards exactly once "
                                "(unknown ones as '?')", unknown=unknown, duplicated=twice,
                                cards=sum(counts.values()) + hidden)
        state.pool = deal_pool(cards)
        return _laid_out(state, event)
    unknown = sorted(c for c in counts if c not in _DECK_SET)
    twice = sorted(c for c, n in counts.items() if n > 1)
    missing = sorted(_DECK_SET - counts.keys())
    if unknown or twice or missing:
        raise RuleViolation("BUN-DEAL-1", "the deal must hold each of the 52 cards exactly once",
                            unknown=unknown, duplicated=twice, missing=missing)
    return _laid_out(state, event)


def _laid_out(state: BunniesState, event: Deal) -> tuple[Effect, ...]:
    hands, blinds, shared = event.hands, event.blinds, event.shared
    state.hands = [list(hands[0]), list(hands[1])]
    state.blinds = dict(zip(ALL_SLOTS, [*blinds[0], *blinds[1], *shared], strict=True))
    state.stock = list(reversed(event.stock))
    state.pile = []
    state.turn = 1
    state.round = 1
    state.active = state.first_seat
    state.phase = "draw" if state.stock else "lay"
    return (Effect("BUN-DEAL-1", "dealt", {
        "first_seat": state.first_seat, "stock": len(state.stock),
    }),)


def draw(state: BunniesState, event: Draw) -> tuple[Effect, ...]:
    seat = event.actor
    if seat is None or seat != state.active or state.phase != "draw":
        _require_turn(state, seat)
        # BUN-DRAW-2: one draw per go, never from an empty stock.
        why = "the stock is empty" if not state.stock else "this go's draw was already made"
        raise RuleViolation("BUN-DRAW-2", why, stock=len(state.stock), phase=state.phase)
    pool = state.pool
    if event.card is None and pool is None:
        state.hands[seat].append(state.stock.pop())
    else:
        card = drawn_card(state, event.card)
        if card != state.stock[-1] and pool is not None:  # a card other than the top: from the pool
            pool.reveal(card, "REC-UNK-2", "drawn")
        state.stock.pop()
        state.hands[seat].append(card)
    state.phase = "lay"
    return NO_EFFECTS


def lay(state: BunniesState, event: Lay) -> tuple[Effect, ...]:
    seat = event.actor
    phase = state.phase
    # Laying is for the bunny phase or the lay phase; anything else (no deal yet, a draw
    # still owed, a finished game) goes through the full guards.
    if seat is None or seat != state.active or (phase != "lay" and phase != "bunny"):
        seat = _require_turn(state, seat)
        _require_laying(state)
    cards = event.cards
    hand = state.hands[seat]
    pile = state.pile
    if len(cards) == 1:
        # One card, the common lay: an empty or unknown name is simply not in the hand.
        card = cards[0]
        reveal = None
        if card not in hand:
            reveal = plan_from_hand(state, seat, cards)
            if not reveal:
                _check_group(state, seat, cards)  # raises the rule that forbids it
        rank = card[0]
        if pile and CARD_VALUE[card] < CARD_VALUE[pile[-1]]:
            _too_low(card, pile[-1], cards)
        if reveal:
            commit_reveals(state, seat, reveal, "laid")
        hand.remove(card)
        pile.append(card)
    else:
        n = len(cards)
        if n == 0 or len(set(cards)) != n:
            _check_group(state, seat, cards)
        try:
            rank = cards[0][0]
        except IndexError:  # an empty card name (free when no exception is raised)
            _check_group(state, seat, cards)
        reveal = plan_from_hand(state, seat, cards) if state.partial else []
        for card in cards:
            if (card not in hand and card not in reveal) or card[0] != rank:
                _check_group(state, seat, cards)  # raises the rule that forbids it
        if pile and CARD_VALUE[cards[0]] < CARD_VALUE[pile[-1]]:
            _too_low(cards[0], pile[-1], cards)
        if reveal:
            commit_reveals(state, seat, reveal, "laid")
        for card in cards:
            hand.remove(card)
        pile.extend(cards)
    if hand and (len(pile) < BUNNY_SIZE or pile[-4][0] != rank or pile[-3][0] != rank
                 or pile[-2][0] != rank):
        # BUN-LAY-3: no bunny and cards left, so the go passes (the hot path, inlined).
        state.active = 1 - seat
        turn = state.turn = state.turn + 1
        state.round = (turn + 1) // 2
        state.phase = "draw" if state.stock else "lay"
        state.owed = None
        return NO_EFFECTS
    return _after_lay(state, seat, None)


def _too_low(card: str, top: str, cards: list[str]) -> None:
    # BUN-LAY-2: equal or higher than the top face-up card, aces high.
    raise RuleViolation(
        "BUN-LAY-2", f"{card} does not equal or beat the top card {top}", top=top, laid=list(cards),
    )


def _check_group(state: BunniesState, seat: int, cards: list[str]) -> None:
    """Say why a lay is refused (the error path of :func:`lay`)."""
    hand = state.hands[seat]
    if not cards:
        raise RuleViolation("BUN-LAY-1", "a lay names at least one card", cards=cards)
    for card in cards:
        if card in hand:
            continue
        for slot in OWN_SLOTS[seat] + SHARED_SLOTS:
            if state.blinds.get(slot) == card:
                # BUN-BLIND-3: a blind card reaches the pile only by being turned up.
                raise RuleViolation(
                    "BUN-BLIND-3",
                    f"{card} is the blind card at slot {slot}: it is turned up (flip), not laid from hand",
                    card=card, slot=slot)
        for owner in (0, 1):
            if card in _DECK_SET and card[0] in state.bunnies[owner]:
                # BUN-BUNNY-1: the four cards of a bunny have left play.
                raise RuleViolation("BUN-BUNNY-1", f"{card} left play in seat {owner}'s bunny",
                                    card=card, bunny_of=owner)
        # BUN-LAY-1: cards are laid from the player's own hand.
        seen = (" (it has come to light elsewhere already, REC-UNK-2)"
                if state.partial and UNKNOWN in hand and card in _DECK_SET else "")
        raise RuleViolation("BUN-LAY-1", f"{card!r} is not in seat {seat}'s hand{seen}",
                            card=card, hand=sorted(hand))
    rank = cards[0][0]
    for card in cards:
        if card[0] != rank:
            # BUN-LAY-1: several cards at once only when they share a rank.
            raise RuleViolation("BUN-LAY-1", "cards laid together must share one rank",
                                cards=list(cards))
    if len(set(cards)) != len(cards):
        raise RuleViolation("BUN-LAY-1", "the same card is named twice", cards=list(cards))


def pickup(state: BunniesState, event: Pickup) -> tuple[Effect, ...]:
    seat = event.actor
    if seat is None or seat != state.active or state.phase != "lay":
        seat = _require_turn(state, seat)
        _require_laying(state)
    if state.phase == "bunny":
        # BUN-BUNNY-5: after a bunny the player lays again or ends the go; no pick-up.
        raise RuleViolation("BUN-BUNNY-5", "after a bunny, lay again or end the go",
                            phase=state.phase)
    if not state.hands[seat]:
        # BUN-BLIND-1: with an empty hand the player must turn up a blind card first.
        raise RuleViolation("BUN-BLIND-1", "an empty hand turns up a blind card instead",
                            hand=0)
    if can_beat(state, seat):
        # BUN-PICKUP-1: picking up is only for a player who cannot beat the top card.
        raise RuleViolation(
            "BUN-PICKUP-1", f"seat {seat} holds a card that equals or beats the top card "
                            f"{state.pile[-1] if state.pile else ''}".rstrip(),
            top=state.pile[-1] if state.pile else None, hand=sorted(state.hands[seat]),
        )
    doubt = pickup_doubt(state, seat) if state.partial else None
    taken = state.pile
    state.hands[seat].extend(taken)
    state.pile = []
    _end_go(state)
    picked = Effect("BUN-PICKUP-1", "pile_picked_up", {"seat": seat, "cards": len(taken)})
    return (picked,) if doubt is None else (doubt, picked)


def flip(state: BunniesState, event: Flip) -> tuple[Effect, ...]:
    seat = _require_turn(state, event.actor)
    _require_laying(state)
    slot = event.slot
    if state.hands[seat]:
        # BUN-BLIND-1: blind cards are only for an empty hand.
        raise RuleViolation("BUN-BLIND-1", "the player still holds cards",
                            hand=len(state.hands[seat]))
    if slot not in state.blinds:
        # BUN-BLIND-2: the slot must still hold a blind card.
        raise RuleViolation("BUN-BLIND-2", f"no blind card lies at {slot!r} (the places are 0.0 to 1.3, "
                            "left, right and top)", slot=slot,
                            on_table=sorted(state.blinds))
    if not playable_by(slot, seat):
        # BUN-BLIND-5: the opponent's own blind cards are not yours to take.
        raise RuleViolation("BUN-BLIND-5", f"the blind card at slot {slot} is the opponent's", slot=slot)
    if not is_uncovered(slot, state.blinds):
        # BUN-DEAL-2: a blind card with another still lying on it cannot be taken.
        raise RuleViolation("BUN-DEAL-2", f"the blind card at slot {slot} is covered by the blind card at "
                            f"slot {COVERED_BY[slot]}", slot=slot, covered_by=COVERED_BY[slot])
    card = state.blinds[slot]
    if card == UNKNOWN or event.card is not None:
        card = turned_card(state, slot, event.card)
        if state.blinds[slot] == UNKNOWN:
            if state.pool is not None:  # always so: turned_card takes an unknown card from the pool
                state.pool.reveal(card, "REC-UNK-2", f"the blind card at slot {slot}")
            state.blinds[slot] = card
    state.known[seat].add(slot)
    if state.pile and CARD_VALUE[card] < CARD_VALUE[state.pile[-1]]:
        # BUN-BLIND-4: it cannot beat the top: back it goes, and the pile is picked up.
        taken = state.pile
        state.hands[seat].extend(taken)
        state.pile = []
        _end_go(state)
        state.ended = (state.turn, "BUN-BLIND-4", "when a turned-up blind card went back")
        return (
            Effect("BUN-BLIND-4", "blind_returned", {"seat": seat, "slot": slot, "card": card}),
            Effect("BUN-PICKUP-1", "pile_picked_up", {"seat": seat, "cards": len(taken)}),
        )
    # BUN-BLIND-3: it beats the top, so it is laid.
    del state.blinds[slot]
    state.known[0].discard(slot)
    state.known[1].discard(slot)
    state.pile.append(card)
    return _after_lay(state, seat, [
        Effect("BUN-BLIND-3", "blind_laid", {"seat": seat, "slot": slot, "card": card}),
    ])


def _require_bunny_action(state: BunniesState, event: Steal | Peek, action: str) -> int:
    """The seat acting, once its steal or look is owed now (refused otherwise)."""
    seat = _require_turn(state, event.actor)
    if state.phase != "bunny" or state.owed is None:
        # BUN-BUNNY-1: a steal or a look needs a bunny just scored in this go.
        raise RuleViolation("BUN-BUNNY-1", f"no bunny has just been scored, so there is no {action}",
                            phase=state.phase, top=state.pile[-4:])
    kind = state.owed
    if action == "look" and kind == "bunny":
        # BUN-BUNNY-2: a plain bunny (2-10) steals; it gives no look.
        raise RuleViolation("BUN-BUNNY-2", "a plain bunny (2-10) gives a steal, not a look",
                            kind=kind)
    if (action == "steal" and state.stole) or (action == "look" and state.peeked):
        # BUN-BUNNY-6: each action at most once per bunny.
        raise RuleViolation("BUN-BUNNY-6", f"this bunny's {action} was already taken", kind=kind)
    if kind == "royal" and (state.stole or state.peeked):
        # BUN-BUNNY-2: a royal bunny gives a steal OR a look, not both.
        raise RuleViolation("BUN-BUNNY-2", "a royal bunny gives a steal or a look, not both",
                            kind=kind, stole=state.stole, looked=state.peeked)
    return seat


def steal(state: BunniesState, event: Steal) -> tuple[Effect, ...]:
    seat = _require_bunny_action(state, event, "steal")
    other = 1 - seat
    card = event.card
    from_slot: str | None = None
    if event.slot is not None:
        return _steal_blind(state, seat, event.slot, card)
    if card == UNKNOWN:
        return _steal_unseen(state, seat)
    reveal = plan_from_hand(state, other, [card]) if state.partial else []
    if card not in state.hands[other] and not reveal:
        if state.steal_from == "hand_or_blind":
            for slot in OWN_SLOTS[other]:
                if state.blinds.get(slot) == card and is_uncovered(slot, state.blinds):
                    from_slot = slot
                    break
        if from_slot is None and card in _DECK_SET and card[0] in state.bunnies[other]:
            # BUN-END-2: scored bunnies are the opponent's points; a steal never takes them.
            raise RuleViolation("BUN-END-2", f"{card} is in seat {other}'s bunny stack, which "
                                "counts toward the score and cannot be stolen",
                                card=card, bunnies=list(state.bunnies[other]))
        if from_slot is None:
            # BUN-BUNNY-3: the card taken must be one the opponent can lose to a steal.
            where = "hand or uncovered blind cards" if state.steal_from == "hand_or_blind" else "hand"
            raise RuleViolation("BUN-BUNNY-3", f"{card} is not in the opponent's {where}",
                                card=card, opponent_hand=len(state.hands[other]))
    if reveal:
        commit_reveals(state, other, reveal, "stolen")
    if from_slot is None:
        state.hands[other].remove(card)
    else:
        _leaves(state, from_slot)
    state.hands[seat].append(card)
    return _stolen(state, seat, card, from_slot)


def _leaves(state: BunniesState, slot: str) -> None:
    """A blind card leaves the table (stolen): nobody knows that slot any more."""
    del state.blinds[slot]
    state.known[0].discard(slot)
    state.known[1].discard(slot)


def _stolen(state: BunniesState, seat: int, card: str, slot: str | None) -> tuple[Effect, ...]:
    """The steal is taken (the card is in the thief's hand): said, and the game over when it
    took the last card the victim had in control (R-BUN-12)."""
    other = 1 - seat
    state.stole = True
    effects = [Effect("BUN-BUNNY-3", "card_stolen", {
        "seat": seat, "from": other, "card": card, "slot": slot,
    })]
    if _has_gone_out(state, other):
        # R-BUN-12: a player left with nothing in control by a steal has gone out.
        _finish(state, other, effects)
    return tuple(effects)


def _steal_blind(state: BunniesState, seat: int, slot: str, named: str) -> tuple[Effect, ...]:
    """A steal of the blind card at ``slot``: one of the opponent's own, uncovered, and only
    under ``steal_from: hand_or_blind`` (R-BUN-4); its face may stay unseen in a recorded game
    (``"?"``) or be named there where the deal left it unknown (R-BUN-17)."""
    other = 1 - seat
    if state.steal_from != "hand_or_blind":
        # BUN-BUNNY-3 (R-BUN-4): by default a steal takes from the hand only.
        raise RuleViolation("BUN-BUNNY-3", "a steal takes a card from the opponent's hand; a blind "
                            "card only in a game played with the option steal_from: hand_or_blind",
                            slot=slot)
    if slot not in OWN_SLOTS[other] or slot not in state.blinds \
            or not is_uncovered(slot, state.blinds):
        # BUN-BUNNY-3: only the opponent's own blind cards that nothing covers.
        raise RuleViolation("BUN-BUNNY-3", f"a steal takes one of seat {other}'s own blind cards "
                            f"that nothing covers, not the blind card at slot {slot}", slot=slot)
    if named == UNKNOWN:
        refuse_unknowns(state, [UNKNOWN], "the steal")
    else:  # the card the record names is the one there, or an unseen one it names (REC-UNK-2)
        seen_card(state, slot, named)
    card = state.blinds[slot]
    _leaves(state, slot)
    state.hands[seat].append(card)
    return _stolen(state, seat, card, slot)


def _steal_unseen(state: BunniesState, seat: int) -> tuple[Effect, ...]:
    """A steal the scorekeeper did not see (``"?"``): only in a recorded game, and only from
    the hand, the one place a card leaves without the table seeing which (R-BUN-17)."""
    refuse_unknowns(state, [UNKNOWN], "the steal")
    other = 1 - seat
    if not state.hands[other]:
        # BUN-BUNNY-3: a steal needs a card to take.
        raise RuleViolation("BUN-BUNNY-3", f"seat {other} holds no card to steal", opponent_hand=0)
    steal_unseen(state, seat)
    return _stolen(state, seat, UNKNOWN, None)


def peek(state: BunniesState, event: Peek) -> tuple[Effect, ...]:
    seat = _require_bunny_action(state, event, "look")
    slot = event.slot
    if slot not in state.blinds or not playable_by(slot, seat):
        # BUN-BUNNY-4: a look is at one of the player's own or the shared blind cards.
        raise RuleViolation("BUN-BUNNY-4", f"the blind card at slot {slot} is not one of seat {seat}'s",
                            slot=slot, own_or_shared=sorted(
                                s for s in state.blinds if playable_by(s, seat)))
    seen_card(state, slot, event.card)
    state.known[seat].add(slot)
    state.peeked = True
    return (Effect("BUN-BUNNY-4", "blind_seen", {
        "seat": seat, "slot": slot, "card": state.blinds[slot],
    }),)


def end_turn(state: BunniesState, event: EndTurn) -> tuple[Effect, ...]:
    _require_turn(state, event.actor)
    if state.phase != "bunny":
        # BUN-BUNNY-5: a go ends by choice only after a bunny.
        raise RuleViolation("BUN-BUNNY-5", "a go can be ended by choice only after a bunny",
                            phase=state.phase)
    _end_go(state)
    state.ended = (state.turn, "BUN-BUNNY-5", "by choice after a bunny")
    return (Effect("BUN-BUNNY-5", "go_ended", {"seat": event.actor}),)


HANDLERS = {
    Deal: deal, Draw: draw, Lay: lay, Pickup: pickup, Flip: flip,
    Steal: steal, Peek: peek, EndTurn: end_turn,
}
__all__ = ["HANDLERS", "SHARED_SLOTS", "can_beat"]
