"""What every part of the Quest engine shares: reading the cards, refusing with a rule id,
who is where, bunnies leaving the circle, money and supplies moving through the bank, draws,
and the end of the game.

The bank is the discard pile (Quest §Making Change; docs/card-facts.md §1.7 R-Q7): money and
units paid go onto it, and every payout or change comes from it, the largest cards that
fit first, with an IOU for what it cannot pay (R-KBQ-13).
"""

from __future__ import annotations

from typing import Literal

from engine.killer import attack, units
from engine.killer.refusal import Refusal, as_violation
from engine.killer.refusal import refuse as refuse  # the family\'s one refusal (also table.refuse)
from engine.killer_bunnies_quest import carrots, triplets
from engine.killer_bunnies_quest.catalogue import DECKS as _DECKS
from engine.killer_bunnies_quest.catalogue import deck as deck  # also read as table.deck
from engine.killer_bunnies_quest.rulebook import CUSTOM_CARD, RULES, card_rule_id
from engine.killer_bunnies_quest.state import Draws, MagicReveal, QuestState, Seat
from engine.rules import Effect, RuleViolation

Supply = Literal["cabbage", "water"]
UnitKind = Literal["cabbage", "water", "money"]

KIT_RULES: dict[str, str] = {
    "card.unplayed": "KBQ-CARD-CUSTOM",  # only a user's deck file can name such a primitive
    "circle.no_such_bunny": "KBQ-ADJ-2",
    "circle.bad_position": "KBQ-POS-1",
    "circle.already_in": "KBQ-POS-2",
    "units.short": "KBQ-CHANGE-1",
    "units.overpaid": "KBQ-CHANGE-1",
    "units.not_held": "KBQ-CHANGE-1",
    "units.repeated": "KBQ-CHANGE-1",
    "market.closed": "KBQ-MKT-4",
    "market.no_such_carrot": "KBQ-MKT-1",
    "market.empty_order": "KBQ-MKT-1",
    "trade.same_player": "KBQ-TRADE-1",
    "trade.not_on_turn": "KBQ-TRADE-1",
    "trade.empty": "KBQ-TRADE-2",
    "trade.repeated": "KBQ-TRADE-2",
    "trade.not_held": "KBQ-TRADE-2",
    "trade.run_card": "KBQ-TRADE-4",
    "trade.hand_one_for_one": "KBQ-TRADE-3",
    "trade.once": "KBQ-TRADE-5",
    "dice.no_such_face": "KBQ-DICE-1",
    "rolloff.no_reroll": "KBQ-DICE-2",
    "auction.not_your_bid": "KBQ-BID-1",
    "auction.too_low": "KBQ-BID-1",
    "auction.cannot_pay": "KBQ-BID-1",
    "piles.bad_shuffle": "KBQ-SHUF-1",
}
"""Kit refusal codes -> this game's rule ids (engine.killer.refusal)."""


def kit(refusal: Refusal) -> RuleViolation:
    return as_violation(refusal, KIT_RULES)




# -- seats ---------------------------------------------------------------------------------------


def present(state: QuestState) -> list[int]:
    """Seats in the game, clockwise from seat 0."""
    return [s for s in range(state.n) if state.seats[s].present]


def clockwise_from(state: QuestState, seat: int) -> list[int]:
    """Seats in the game in turn order, starting with ``seat``."""
    n = state.n
    return [(seat + k) % n for k in range(n) if state.seats[(seat + k) % n].present]


def adjacent_players(state: QuestState, seat: int) -> list[int]:
    """The players directly left and right of ``seat`` among those in the game (one player
    when only two are left) (KBQ-ADJ-1)."""
    order = clockwise_from(state, seat)
    if len(order) < 2:
        return []
    return sorted({order[1], order[-1]})


def next_seat(state: QuestState, seat: int) -> int:
    """The next seat clockwise still in the game (``seat`` itself when alone)."""
    n, seats = state.n, state.seats
    for k in range(1, n):
        if seats[(seat + k) % n].present:
            return (seat + k) % n
    return seat


def units_of(state: QuestState, cards: list[int]) -> int:
    value = (_DECKS.get(state.deck) or deck(state)).value
    return sum(value[c] for c in cards)


def money_of(state: QuestState, seat: int) -> int:
    return units_of(state, state.seats[seat].money)


def money_each(state: QuestState) -> list[int]:
    """Every seat's money, in seat order."""
    value = ((_DECKS.get(state.deck) or deck(state)).value).__getitem__
    return [sum(map(value, s.money)) for s in state.seats]


# -- bunnies and what protects them --------------------------------------------------------------


def guard(state: QuestState, bunny: int) -> attack.Guard:
    under = state.circle.space(bunny).under
    if not under:
        return attack.NO_GUARD  # what guard_of sums up from no cards
    return attack.guard_of(under, deck(state).card)


def shielded(state: QuestState, bunny: int, category: str, tags: tuple[str, ...] | list[str] = ()) -> bool:
    under = state.circle.space(bunny).under
    if not under:
        return False  # nothing under it: no modifier protects it (KBQ-MOD-5)
    return attack.guard_of(under, deck(state).card).shielded(category, tags)


def has_bunny(state: QuestState, seat: int) -> bool:
    """A bunny in the circle (an abducted one does not count: R-Q12)."""
    spaces = state.circle.spaces
    return any(spaces[b].owner == seat for b in state.circle.order)


def alive(state: QuestState, seat: int) -> bool:
    """A bunny in the circle or held by the aliens (for winning: R-Q2)."""
    return has_bunny(state, seat) or (bool(state.abducted) and state.abducted[1] == seat)


def can_aggress(state: QuestState, seat: int) -> bool:
    """An own bunny in the circle that the Halo does not protect (KBQ-AGG-2)."""
    return any(not shielded(state, b, "harm") for b in state.circle.owned_by(seat))


def _box_refused(state: QuestState, seat: int, card: int) -> str | None:
    """The rule a play of ``card`` by ``seat`` breaks by its box, or None (see check_box)."""
    d = _DECKS.get(state.deck) or deck(state)
    if d.pink[card] and not has_bunny(state, seat):
        return "KBQ-RUN-2"
    if d.aggressive[card] and not can_aggress(state, seat):
        return "KBQ-AGG-2"
    return None


def check_box(state: QuestState, seat: int, card: int) -> None:
    """A pink box needs an own bunny; an Aggressive card one the Halo does not protect. The
    catalogue marks every pink-box card Aggressive but Choose A Carrot (KBQ-AGG-1). A pending
    feed on the bunny changes nothing here (KBQ-FEED-4)."""
    rule = _box_refused(state, seat, card)
    if rule == "KBQ-RUN-2":
        refuse("KBQ-RUN-2", f"card {card} has a pink box and seat {seat} has no bunny in "
                     "the Bunny Circle", card=card, seat=seat)
    if rule == "KBQ-AGG-2":
        refuse("KBQ-AGG-2", f"card {card} is Aggressive and every bunny of seat {seat} "
                     "in the circle is protected by the Heavenly Halo", card=card, seat=seat)


def box_ok(state: QuestState, seat: int, card: int) -> bool:
    """``card``'s box allows ``seat`` to play it (check_box, without building its refusal)."""
    return _box_refused(state, seat, card) is None


def has_triplet(state: QuestState, seat: int) -> bool:
    """A Bunny Triplet among ``seat``'s bunnies in the circle (KBQ-TRIP-1). The answer
    depends only on which bunnies they are, so the deck keeps it per set of bunnies: the
    check is made once for each set a game's circle shows a player with."""
    spaces = state.circle.spaces
    owned = tuple([b for b in state.circle.order if spaces[b].owner == seat])
    if len(owned) < 3:
        return False  # fewer than three bunnies make no triplet (triplets.has_triplet)
    d = _DECKS.get(state.deck) or deck(state)
    known = d.triplets.get(owned)
    if known is None:
        known = triplets.has_triplet([d.bunny[b] for b in owned], d.catalogue.colours)
        if len(d.triplets) >= _TRIPLETS_KEPT:
            d.triplets.clear()
        d.triplets[owned] = known
    return known


_TRIPLETS_KEPT = 1 << 16
"""Sets of bunnies whose triplet check a deck keeps (cleared when full)."""


# -- cards moving ---------------------------------------------------------------------------------


def to_discard(state: QuestState, cards: list[int], out: list[Effect] | None = None) -> None:
    """Cards go to their discard pile (a small card to its own); the game's IOUs in that
    kind are paid as soon as the pile can (KBQ-CHANGE-2)."""
    kind_of = (_DECKS.get(state.deck) or deck(state)).type
    if not state.ious:  # nothing owed: the cards only go to their piles
        for card in cards:
            kind = kind_of[card]
            if kind == "cabbage":
                state.cabbage_discard.append(card)
            elif kind == "water":
                state.water_discard.append(card)
            else:
                state.discard.append(card)
        return
    kinds: set[UnitKind] = set()
    for card in cards:
        kind = kind_of[card]
        if kind == "cabbage":
            state.cabbage_discard.append(card)
            kinds.add("cabbage")
        elif kind == "water":
            state.water_discard.append(card)
            kinds.add("water")
        else:
            state.discard.append(card)
            if kind == "money":
                kinds.add("money")
    for kind in sorted(kinds):
        _settle(state, kind, out)


def pile_of(state: QuestState, kind: UnitKind) -> list[int]:
    if kind == "cabbage":
        return state.cabbage_discard
    if kind == "water":
        return state.water_discard
    return state.discard


def holding_of(seat: Seat, kind: UnitKind) -> list[int]:
    if kind == "cabbage":
        return seat.cabbage
    if kind == "water":
        return seat.water
    return seat.money


def _settle(state: QuestState, kind: UnitKind, out: list[Effect] | None) -> None:
    d = deck(state)
    pile = pile_of(state, kind)
    money = [c for c in pile if c in d.value] if kind == "money" else pile
    paid = units.settle_ious(state.ious, kind, money, d.value)
    for seat, cards in paid:
        if kind == "money":
            for c in cards:
                pile.remove(c)
        holding_of(state.seats[seat], kind).extend(cards)
        if out is not None:
            out.append(Effect("KBQ-CHANGE-2", "iou_paid", {"seat": seat, "kind": kind,
                                                           "cards": cards}))


def payout(state: QuestState, seat: int, kind: UnitKind, amount: int, iou: bool,
           rule: str, out: list[Effect]) -> int:
    """``amount`` units of ``kind`` from the bank to ``seat``; with ``iou`` the rest is owed.
    Returns the units paid now."""
    if amount <= 0:
        return 0
    d = deck(state)
    pile = pile_of(state, kind)
    candidates = [c for c in pile if c in d.value]
    cards, left = units.make_change(candidates, amount, d.value)
    for c in cards:
        pile.remove(c)
    holding_of(state.seats[seat], kind).extend(cards)
    paid = amount - left
    out.append(Effect(rule, "paid_out", {"seat": seat, "kind": kind, "cards": cards,
                                         "units": paid}))
    if left and iou:
        state.ious.append(units.IOU(seat=seat, kind=kind, amount=left))
        out.append(Effect("KBQ-CHANGE-2", "iou", {"seat": seat, "kind": kind, "amount": left}))
    return paid


def check_pay(state: QuestState, seat: int, kind: UnitKind, amount: int,
              named: list[int] | None, rule: str) -> list[int]:
    """The cards a payment hands over: those named (checked) or warren's smallest payment."""
    held = holding_of(state.seats[seat], kind)
    value = deck(state).value
    if named is not None:
        try:
            units.check_owned(named, held, kind)
            units.check_payment(named, amount, value, kind)
        except Refusal as r:
            # handing over a card that is not needed is a matter of change (KBQ-CHANGE-1)
            cited = "KBQ-CHANGE-1" if r.code == "units.overpaid" else rule
            raise RuleViolation(cited, r.message, **r.facts) from None
        return list(named)
    chosen = units.choose_payment(held, amount, value)
    if chosen is None:
        what = "Dolla" if kind == "money" else f"{kind} units"
        refuse(rule, f"seat {seat} holds {units.total(held, value)} {what}, "
                     f"not the {amount} due", seat=seat, due=amount,
                     held=units.total(held, value))
    return chosen


def pay(state: QuestState, seat: int, kind: UnitKind, cards: list[int], amount: int,
        rule: str, out: list[Effect]) -> None:
    """Hand ``cards`` (checked already) to the bank for ``amount``; change comes back from
    the pile of that kind, the rest as an IOU (KBQ-CHANGE-1, KBQ-CHANGE-2)."""
    held = holding_of(state.seats[seat], kind)
    for c in cards:
        held.remove(c)
    paid = units_of(state, cards)
    to_discard(state, cards, out)
    out.append(Effect(rule, "paid", {"seat": seat, "kind": kind, "cards": cards,
                                     "units": amount}))
    change = paid - amount
    if change > 0:
        payout(state, seat, kind, change, True, "KBQ-CHANGE-1", out)


def transfer(state: QuestState, payer: int, taker: int, kind: UnitKind, amount: int, rule: str,
             out: list[Effect]) -> None:
    """``amount`` units of ``kind`` from one player to another: the payer hands over the
    smallest sufficient cards and takes his change from the discard pile of that kind, the
    rest as an IOU (KBQ-CHANGE-1, KBQ-CHANGE-2)."""
    if amount <= 0:
        return
    cards = check_pay(state, payer, kind, amount, None, rule)
    for c in cards:
        holding_of(state.seats[payer], kind).remove(c)
    holding_of(state.seats[taker], kind).extend(cards)
    out.append(Effect(rule, "handed_over", {"from": payer, "to": taker, "kind": kind,
                                            "cards": cards, "units": amount}))
    change = units_of(state, cards) - amount
    if change > 0:
        payout(state, payer, kind, change, True, "KBQ-CHANGE-1", out)


# -- draws -----------------------------------------------------------------------------------------


def draw_cards(state: QuestState, seat: int, count: int, then: str,
               unused_misfortune: bool = False, rule: str = "KBQ-TURN-3") -> None:
    """``seat`` is to draw ``count`` cards; what follows is ``then`` (engine.killer_bunnies_quest.flow)."""
    state.stack.append(Draws(seat=seat, count=count, then=then,  # type: ignore[arg-type]  # flow's steps
                             unused_misfortune=unused_misfortune, rule=rule))


# -- the end ---------------------------------------------------------------------------------------


def check_end(state: QuestState, out: list[Effect]) -> bool:
    """When the last carrot leaves the market the game is over at once (KBQ-END-1)."""
    if state.market.carrots or state.over:
        return state.over
    out.append(Effect("KBQ-END-1", "last_carrot_taken", {}))
    if state.partial and state.magic_deck and state.magic_deck[-1] < 0:
        # the table form: the game waits for the small carrot deck's bottom card (a reveal)
        state.stack.clear()
        state.stack.append(MagicReveal())
        state.phase = "reveal"
        state.active = None
        return True
    end_game(state, out)
    return True


def end_game(state: QuestState, out: list[Effect]) -> None:
    d = deck(state)
    seats = present(state)
    owner = {c: s for s in range(state.n) for c in state.seats[s].carrots}
    magic = carrots.magic_carrot(state.magic_deck, d.carrot_label)
    end = carrots.settle(owner, d.carrot_label, seats, lambda s: alive(state, s),
                         lambda s: money_of(state, s),
                         lambda s: state.circle.count(s), magic, state.n)
    for carrot, heir in end.passed.items():
        giver = owner[carrot]
        state.seats[giver].carrots.remove(carrot)
        state.seats[heir].carrots.append(carrot)
        out.append(Effect("KBQ-END-3", "carrot_passed", {"carrot": carrot, "from": giver,
                                                         "to": heir}))
    state.magic = magic
    state.over = True
    state.phase = "over"
    state.active = None
    state.stack.clear()
    state.winners = [] if end.winner is None else [end.winner]
    state.end_reason = "magic_carrot" if end.winner is not None else "no_winner"
    state.end_rule = "KBQ-END-4" if end.winner is not None else "KBQ-END-3"
    out.append(Effect("KBQ-END-2", "magic_carrot", {"carrot": magic,
                                                    "card": state.magic_deck[-1]}))
    out.append(Effect(state.end_rule, "game_over", {"winner": end.winner,
                                                     "magic_carrot": magic,
                                                     "owner": end.owner}))


def card_rule(state: QuestState, card: int) -> str:
    """The card's own rule, or KBQ-CARD-CUSTOM for a card from a user's deck file."""
    d = _DECKS.get(state.deck) or deck(state)
    rule = d.rules.get(card)
    if rule is None:
        rule = card_rule_id(d.card(card).id)
        rule = d.rules[card] = rule if rule in RULES else CUSTOM_CARD
    return rule
