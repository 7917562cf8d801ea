"""Set-up: roles, Item offers and choices, the deal (TNB-SET-*, TNB-ITEM-1..3, TNB-DEAL-1)."""

from __future__ import annotations

from itertools import chain

from engine.hidden import UNKNOWN
from engine.rules import NO_EFFECTS, Effect, RuleViolation
from engine.trust_no_bunny import unknowns
from engine.trust_no_bunny.events import ChooseItem, Deal, Offers, Roles
from engine.trust_no_bunny.numbers import (
    ITEMS,
    MEDALLION,
    MYSTICAL_RECIPE,
    OFFERED_ITEMS,
    ONE_HOLDER_ITEMS,
    QUIRKS,
    STARTING_HAND,
    WEREBUNNIES,
)
from engine.trust_no_bunny.rounds import start_round
from engine.trust_no_bunny.state import TnbState, offer_of
from engine.trust_no_bunny.table import (
    ask_everybody,
    card_counts,
    is_seat,
    no_actor,
    refuse_if_over,
    require_chance,
)
from engine.trust_no_bunny.words import thing
from engine.wording import and_list, or_list


def roles(state: TnbState, event: Roles) -> tuple[Effect, ...]:
    refuse_if_over(state)
    if state.phase != "setup":
        # TNB-SET-1: roles are dealt once, before anything else.
        raise RuleViolation("TNB-SET-1", "the roles were already dealt", phase=state.phase)
    require_chance(event, "TNB-SET-1")
    n = state.n
    # A "?" fails one of the checks below; a game recorded at the table is then read by
    # unknowns.py (on the error path, so a record that names everything pays nothing).
    wbs: list[int] = event.werebunnies  # type: ignore[assignment]  # a "?" is refused below
    if not _two_seats(wbs, n):
        if _unknown_roles(event):
            return unknowns.roles(state, event)
        # TNB-SET-1: two Werebunnies at two different seats of the game.
        raise RuleViolation("TNB-SET-1", f"the Werebunnies must be two different players of the {n}",
                            werebunnies=list(wbs))
    quirks, mutations = event.quirks, event.mutations
    if len(quirks) != n or not _quirks_fit(quirks, wbs):
        if _unknown_roles(event):
            return unknowns.roles(state, event)
        # TNB-SET-2: one of the three Quirks per Townsfolk, none for a Werebunny.
        quirk = or_list([thing(q) for q in QUIRKS])
        raise RuleViolation("TNB-SET-2", f"every Townsfolk needs one of the Quirks {quirk} and "
                            "every Werebunny none", quirks=list(quirks))
    pool = state.table.mutations
    if len(mutations) != n or not _mutations_fit(mutations, wbs, pool):
        if _unknown_roles(event):
            return unknowns.roles(state, event)
        # TNB-SET-3: a Mutation of the game's pool per Werebunny (none without a pool), none
        # for a Townsfolk.
        wanted = (f"one of the Mutations {or_list([thing(m) for m in pool])}" if pool
                  else "no Mutation (this game has none)")
        raise RuleViolation("TNB-SET-3", f"every Werebunny needs {wanted} and every Townsfolk none",
                            mutations=list(mutations), pool=list(pool))
    if state.table.distinct_mutations and mutations[wbs[0]] == mutations[wbs[1]]:
        # TNB-SET-3, by option: the two Werebunnies' Mutations differ.
        raise RuleViolation("TNB-SET-3", "the two Werebunnies must have different Mutations "
                            "(the game's distinct Mutations option)", mutations=list(mutations))
    if not is_seat(state, event.first_mayor):
        # TNB-SET-4: the first mayor is a seat of the game.
        raise RuleViolation("TNB-SET-4", f"the first mayor must be one of the {n} players",
                            first_mayor=event.first_mayor)
    a, b = sorted(wbs)
    state.werebunnies = (a, b)
    for s in (a, b):
        state.is_werebunny[s] = True
    state.quirks = list(quirks)
    state.mutations = list(mutations)
    state.mayor = event.first_mayor
    state.phase = "offers"
    return (Effect("TNB-SET-1", "roles_dealt", {"first_mayor": event.first_mayor}),)


def _two_seats(wbs: list[int], n: int) -> bool:
    """Two different seats of the game (TNB-SET-1)?"""
    if len(wbs) != WEREBUNNIES:
        return False
    a, b = wbs
    return type(a) is int and type(b) is int and a != b and 0 <= a < n and 0 <= b < n


def _quirks_fit(quirks: list[str | None], wbs: list[int]) -> bool:
    """One of the three Quirks per Townsfolk, none for a Werebunny (TNB-SET-2)?"""
    for s, q in enumerate(quirks):
        if s in wbs:
            if q is not None:
                return False
        elif q not in QUIRKS:
            return False
    return True


def _mutations_fit(mutations: list[str | None], wbs: list[int], pool: tuple[str, ...]) -> bool:
    """A Mutation of the pool per Werebunny (none without a pool), none for a Townsfolk
    (TNB-SET-3)?"""
    for s, m in enumerate(mutations):
        if s in wbs and pool:
            if m not in pool:
                return False
        elif m is not None:
            return False
    return True


def _unknown_roles(event: Roles) -> bool:
    return UNKNOWN in event.werebunnies or UNKNOWN in event.quirks or UNKNOWN in event.mutations


def offers(state: TnbState, event: Offers) -> tuple[Effect, ...]:
    refuse_if_over(state)
    if state.phase != "offers":
        # TNB-ITEM-1: Items are offered once, after the roles.
        raise RuleViolation("TNB-ITEM-1", "Items are offered once, right after the roles",
                            phase=state.phase)
    require_chance(event, "TNB-ITEM-1")
    offered = event.items
    if state.partial:
        return unknowns.offers(state, event)
    if len(offered) != state.n or not _offered_pairs(offered):
        if any(UNKNOWN in pair for pair in offered):
            # An offer nobody saw, in a game recorded at the table (unknowns.py).
            return unknowns.offers(state, event)
        # TNB-ITEM-1: two different Items of the five for every player.
        raise RuleViolation("TNB-ITEM-1", "every player is offered two different Items of the five "
                            f"({and_list([thing(i) for i in ITEMS])})",
                            items=[list(p) for p in offered])
    every = list(chain.from_iterable(offered))
    if every.count(MYSTICAL_RECIPE) > 1 or every.count(MEDALLION) > 1:
        # Each pair names two different Items, so an Item twice is two players offered it.
        for item in ONE_HOLDER_ITEMS:
            holders = [s for s, pair in enumerate(offered) if item in pair]
            if len(holders) > 1:
                # TNB-ITEM-2: the Recipe and the Medallion appear for one player only.
                raise RuleViolation("TNB-ITEM-2", f"{item} may be offered to one player only",
                                    item=item, offered_to=holders)
    state.offers = [list(pair) for pair in offered]
    state.phase = "items"
    ask_everybody(state, "item")
    return (Effect("TNB-ITEM-1", "items_offered", {}),)


def _offered_pairs(offered: list[list[str]]) -> bool:
    """Is every offer two different Items of the five (TNB-ITEM-1)?"""
    for pair in offered:
        if len(pair) != OFFERED_ITEMS or pair[0] == pair[1] or pair[0] not in ITEMS or pair[1] not in ITEMS:
            return False
    return True


def choose_item(state: TnbState, event: ChooseItem) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-ITEM-3")
    if state.phase != "items":
        # TNB-ITEM-3: an Item is chosen once, from the offer.
        raise RuleViolation("TNB-ITEM-3", "Items are chosen only right after they are offered",
                            phase=state.phase)
    waiting = state.agenda.decisions
    if seat not in waiting:
        raise RuleViolation("TNB-ITEM-3", f"seat {seat} already chose its Item", seat=seat)
    offer = offer_of(state, seat)
    if event.item not in offer:
        if event.item == UNKNOWN or UNKNOWN in offer:
            # An Item nobody saw, or an offer the record knows only in part (unknowns.py).
            return unknowns.choose_item(state, seat, event)
        raise RuleViolation("TNB-ITEM-3", f"the {event.item} was not offered to seat {seat}",
                            item=event.item)
    state.items[seat] = event.item
    del waiting[seat]  # the seat has chosen (engine.pending)
    if not waiting:
        state.phase = "deal"
    return NO_EFFECTS


def all_items_chosen(state: TnbState, fills: dict[int, str]) -> None:
    """Give the timed-out seats their first offered Item (TNB-TIME-6)."""
    for seat, item in fills.items():
        state.items[seat] = item
    state.agenda.decisions = {}
    state.phase = "deal"


def deal(state: TnbState, event: Deal) -> tuple[Effect, ...]:
    refuse_if_over(state)
    if state.phase != "deal":
        # TNB-DEAL-1: the deal follows the Item choices, once.
        raise RuleViolation("TNB-DEAL-1", "the cards are dealt once, after every Item is chosen",
                            phase=state.phase)
    require_chance(event, "TNB-DEAL-1")
    hands = event.hands
    if state.partial:
        return unknowns.deal(state, event)
    try:
        if len(hands) != state.n or list(map(len, hands)).count(STARTING_HAND) != state.n:
            raise RuleViolation("TNB-DEAL-1", f"every player is dealt {STARTING_HAND} cards",
                                dealt=[len(h) for h in hands])
        # card_counts for each hand, inline: the helper is called only to name a bad card.
        counted = [[0, h.count(1), h.count(2), h.count(3), h.count(4)] for h in hands]
        if sum(map(sum, counted)) != sum(map(len, hands)):
            counted = [card_counts(h, "TNB-DEAL-1", "the deal") for h in hands]
    except RuleViolation:
        if any(UNKNOWN in hand for hand in hands):
            # Cards nobody saw, in a game recorded at the table (unknowns.py).
            return unknowns.deal(state, event)
        raise
    total = [0, 0, 0, 0, 0]
    for counts in counted:
        total[1] += counts[1]
        total[2] += counts[2]
        total[3] += counts[3]
        total[4] += counts[4]
    deck = state.deck
    if total[1] > deck[1] or total[2] > deck[2] or total[3] > deck[3] or total[4] > deck[4]:
        raise RuleViolation("TNB-DEAL-1", "the deal holds more cards of a value than the deck has",
                            dealt=total[1:], deck=deck[1:])
    for seat, counts in enumerate(counted):
        state.hands[seat] = counts
    for v in (1, 2, 3, 4):
        deck[v] -= total[v]
    start_round(state)
    return (Effect("TNB-DEAL-1", "dealt", {"cards_each": STARTING_HAND}),)
