"""Trust No Bunny recorded at a real table: what the record knows, and the slow paths of
set-up and the day (docs/rulings.md, R-TNB-22 to R-TNB-27).

A scorekeeper sees what the table sees (R-TNB-22): who proposes which team, the votes, the
accusations and that each cost a card, who is on guard, the night's stage, the end. Nobody
at the table sees the roles, Quirks, Mutations, Items, hands, draws or what anybody did at
night, so a record of such a game writes them as ``"?"`` (engine.hidden.UNKNOWN) and a
night action nobody saw as ``act``. A player may keep the record of its own game too, and
then names everything it knows.

Once the first ``"?"`` is read the state turns *partial* and keeps, beside what it knows,
a :class:`engine.trust_no_bunny.state.Hidden`: each seat's role as far as known, how many
cards of unknown value each hand holds (at least, at most), and the cards of each value not
known to be anywhere. A record that names everything never reaches this module: its state
stays whole and the handlers run exactly as for a simulated game.

Three ways a rule meets what nobody saw (R-TNB-27):

* what the known facts rule out is refused, with the rule (a third Werebunny, a fourth card
  of a hand of three, the same value named more often than the deck holds it);
* what the table saw happen shows what it needed: an accusation shows that its accuser held
  a card, a card lost that there was one to lose, a draw what a seat had earned;
* a secret action a record names although nobody could see it (a Sabotage by a seat whose
  role nobody knows) is checked as far as the facts allow, and where its legality needs a
  hidden fact the handler records an ``undetermined`` effect naming the rule and the fact.

Every helper checks before it changes anything, like the handlers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.hidden import UNKNOWN, undetermined
from engine.rules import NO_EFFECTS, Effect, RuleViolation
from engine.trust_no_bunny.events import Accuse, CardLost, ChooseItem, Deal, Offers, Reveal, Roles
from engine.trust_no_bunny.numbers import (
    GNAW,
    ITEMS,
    MUTATIONS,
    OFFERED_ITEMS,
    ONE_HOLDER_ITEMS,
    QUIRKS,
    STARTING_HAND,
    WEREBUNNIES,
)
from engine.trust_no_bunny.rounds import close_muster, quirk_met, start_round
from engine.trust_no_bunny.rounds import finish as end_game
from engine.trust_no_bunny.state import Hidden, offer_of
from engine.trust_no_bunny.table import ask_everybody, guard_cards, is_seat, settled

if TYPE_CHECKING:
    from engine.trust_no_bunny.state import TnbState

WEREBUNNY = "werebunny"
TOWNSFOLK = "townsfolk"


# -- what is known --------------------------------------------------------------------
def refuse_unknowns(state: TnbState, what: str) -> None:
    """REC-UNK-1: only a game recorded at the table leaves anything unknown."""
    if not state.recorded:
        raise RuleViolation("REC-UNK-1", f"{what} leaves something unknown ('?'), but only a game "
                            "recorded at the table (source \"recorded\") may")


def go_partial(state: TnbState) -> Hidden:
    """The state's :class:`Hidden`, made from the whole truth it holds so far on the first
    unknown of the record (everything known until now stays known)."""
    hidden = state.hidden
    if hidden is not None:
        return hidden
    n = state.n
    dealt = state.werebunnies is not None
    roles = [(WEREBUNNY if state.is_werebunny[s] else TOWNSFOLK) if dealt else UNKNOWN for s in range(n)]
    hidden = Hidden(roles=roles, closed=[False] * n, lo=[0] * n, hi=[0] * n, unseen=list(state.deck),
                    deck_size=sum(state.deck), discard_size=sum(state.discard), owed_lo=list(state.owed),
                    owed_hi=list(state.owed), reach=[0] * n)
    state.hidden = hidden
    state.partial = True
    return hidden


def hid(state: TnbState) -> Hidden:
    """The :class:`Hidden` of a partial state."""
    hidden = state.hidden
    assert hidden is not None, "only a partial state has unknowns"
    return hidden


def role(state: TnbState, seat: int) -> str:
    """``werebunny``, ``townsfolk``, or ``"?"`` where the record does not know."""
    if state.hidden is not None:
        return state.hidden.roles[seat]
    if state.werebunnies is None:
        return UNKNOWN
    return WEREBUNNY if state.is_werebunny[seat] else TOWNSFOLK


def could_be_werebunny(state: TnbState, seat: int) -> bool:
    return role(state, seat) != TOWNSFOLK


def could_gnaw(state: TnbState, seat: int) -> bool:
    """Could the seat be the Werebunny with Gnaw (TNB-MUT-1)?"""
    mutation = state.mutations[seat]
    return mutation == GNAW or (mutation == UNKNOWN and GNAW in state.table.mutations
                                and could_be_werebunny(state, seat))


def could_hold(state: TnbState, seat: int, item: str) -> bool:
    """Could the seat hold ``item``, not lost (TNB-ITEM-9)? Certain for an open seat."""
    held = state.items[seat]
    if held == item:
        return not state.item_lost[seat]
    if held != UNKNOWN:
        return False
    offer = state.offers[seat] if state.offers is not None else [UNKNOWN]
    return item in offer or UNKNOWN in offer


def is_open(state: TnbState, seat: int) -> bool:
    """Does the record know everything about the seat, and so everything it was told?

    True for every seat of a record that knows everything, and in a player's own record for
    that player: its role, Quirk or Mutation, Item offers and choice and every card of its
    hand are named, and no event concerning it went unseen. For such a seat the stage lists
    all it was told (R-TNB-25), so its notes and its dawn cards follow exactly.
    """
    hidden = state.hidden
    if hidden is None:
        return True
    if hidden.closed[seat] or hidden.lo[seat] or hidden.hi[seat]:
        return False
    known_role = hidden.roles[seat]
    if known_role == UNKNOWN:
        return False
    trait = state.quirks[seat] if known_role == TOWNSFOLK else state.mutations[seat]
    if trait == UNKNOWN or state.items[seat] == UNKNOWN:
        return False
    return state.offers is None or UNKNOWN not in state.offers[seat]


def hand_range(state: TnbState, seat: int) -> tuple[int, int]:
    """The fewest and the most cards the seat's hand can hold."""
    known = state.hand_size(seat)
    hidden = state.hidden
    if hidden is None:
        return known, known
    return known + hidden.lo[seat], known + hidden.hi[seat]


def count_values(cards: list[int | str], rule: str, what: str) -> tuple[list[int], int]:
    """Counts per value of the named cards of ``cards``, and how many are ``"?"``."""
    counts = [0, 0, 0, 0, 0]
    unknown = 0
    for card in cards:
        if card == UNKNOWN:
            unknown += 1
        elif type(card) is int and 1 <= card <= 4:
            counts[card] += 1
        else:
            raise RuleViolation(rule, f"{card!r} is not a card value (1 to 4) in {what}", cards=list(cards))
    return counts, unknown


def plan_cards(state: TnbState, seat: int, counts: list[int], rule: str,
               doubts: list[Effect]) -> list[int]:
    """The cards of ``counts`` (per value) the seat's hand holds only as unknown cards, checked:
    refuses more cards than the hand can hold, or a value named more often than the game
    has left unseen (REC-UNK-2); adds a doubt when the hand might hold too few."""
    hand = state.hands[seat]
    extra = [0, 0, 0, 0, 0]
    need = 0
    for v in (1, 2, 3, 4):
        e = counts[v] - hand[v]
        if e > 0:
            extra[v] = e
            need += e
    if not need:
        return extra
    hidden = hid(state)
    high = hand_range(state, seat)[1]
    if need > hidden.hi[seat]:
        played = sum(counts)
        raise RuleViolation(rule, f"seat {seat} does not hold {guard_cards(_cards(counts))}: its hand holds "
                            f"at most {high} cards", cards=_cards(counts), at_most=high, played=played)
    for v in (1, 2, 3, 4):
        if extra[v] > hidden.unseen[v]:
            raise RuleViolation("REC-UNK-2", f"seat {seat} cannot hold {counts[v]} cards of value {v}: "
                                "every other card of that value is known to be elsewhere", value=v)
    if need > hidden.lo[seat]:
        fewest = state.hand_size(seat) + need
        doubts.append(undetermined(rule, f"legal only if seat {seat} held at least {fewest} cards", seat=seat,
                                   cards=_cards(counts)))
    return extra


def commit_cards(state: TnbState, seat: int, counts: list[int], extra: list[int]) -> None:
    """Play ``counts`` from the hand to the discard pile: known cards first, then unknown
    ones, which come to light (planned by :func:`plan_cards`)."""
    hand = state.hands[seat]
    hidden = hid(state)
    need = 0
    for v in (1, 2, 3, 4):
        c = counts[v]
        if c:
            hand[v] -= c - extra[v]
            hidden.unseen[v] -= extra[v]
            state.discard[v] += c
            need += extra[v]
    if need:
        hidden.lo[seat] = max(0, hidden.lo[seat] - need)
        hidden.hi[seat] -= need
    if hidden.discard_size is not None:
        hidden.discard_size += sum(counts)


def hide_hand(state: TnbState, seat: int) -> None:
    """Every known card of the hand becomes a card of unknown value (it may or may not still
    be there after something nobody saw)."""
    hand = state.hands[seat]
    hidden = hid(state)
    known = 0
    for v in (1, 2, 3, 4):
        if hand[v]:
            hidden.unseen[v] += hand[v]
            known += hand[v]
            hand[v] = 0
    hidden.lo[seat] += known
    hidden.hi[seat] += known


def _cards(counts: list[int]) -> list[int]:
    return [v for v in (1, 2, 3, 4) for _ in range(counts[v])]


# -- set-up ---------------------------------------------------------------------------
def roles(state: TnbState, event: Roles) -> tuple[Effect, ...]:
    """Roles of a recorded game: ``"?"`` for what the record does not know (R-TNB-22).

    A seat's role is known when ``werebunnies`` names it, when both Werebunnies are named
    (everybody else is Townsfolk), or when its Quirk is named or its Mutation is null
    (Townsfolk); when every Townsfolk is known, the two seats left are the Werebunnies.
    """
    refuse_unknowns(state, "the roles")
    n = state.n
    wbs = event.werebunnies
    named = [w for w in wbs if w != UNKNOWN]
    if len(wbs) != WEREBUNNIES or not all(is_seat(state, w) for w in named) or len(set(named)) != len(named):
        # TNB-SET-1: two Werebunnies at two different seats ("?" for one nobody knows).
        raise RuleViolation("TNB-SET-1", f"the Werebunnies are two different players of the {n} (or '?')",
                            werebunnies=list(wbs))
    quirks, mutations = event.quirks, event.mutations
    if len(quirks) != n:
        raise RuleViolation("TNB-SET-2", f"the roles give a Quirk (or null, or '?') for each of the {n} "
                            "seats", quirks=list(quirks))
    if len(mutations) != n:
        raise RuleViolation("TNB-SET-3", f"the roles give a Mutation (or null, or '?') for each of the {n} "
                            "seats", mutations=list(mutations))
    pool = state.table.mutations  # the game's Mutations (R-TNB-5): none if empty
    seen: list[str] = []
    for s in range(n):
        q, m = quirks[s], mutations[s]
        if s in named or len(named) == WEREBUNNIES:
            seen.append(WEREBUNNY if s in named else TOWNSFOLK)
        elif q in QUIRKS or (m is None and pool):  # without Mutations, none says nothing
            seen.append(TOWNSFOLK)
        elif q is None or m in MUTATIONS:
            # TNB-SET-1: a seat without a Quirk, or with a Mutation, is a Werebunny: say so.
            raise RuleViolation("TNB-SET-1", f"the roles give seat {s} no Quirk or a Mutation, so it is a "
                                "Werebunny: name it among the werebunnies", seat=s)
        else:
            seen.append(UNKNOWN)
    for s, r in enumerate(seen):
        q, m = quirks[s], mutations[s]
        if q not in ((None, UNKNOWN) if r == WEREBUNNY else (*QUIRKS, UNKNOWN)):
            # TNB-SET-2: a Townsfolk's Quirk is one of the three; a Werebunny has none.
            raise RuleViolation("TNB-SET-2", f"seat {s} cannot have the Quirk {q!r}", seat=s, quirk=q)
        werebunny_may = (*pool, UNKNOWN) if pool else (None, UNKNOWN)
        if m not in ((None, UNKNOWN) if r == TOWNSFOLK else werebunny_may if r == WEREBUNNY
                     else (None, *pool, UNKNOWN)):
            # TNB-SET-3: a Werebunny's Mutation is one of the game's pool; a Townsfolk has none.
            raise RuleViolation("TNB-SET-3", f"seat {s} cannot have the Mutation {m!r}", seat=s, mutation=m)
    towns = seen.count(TOWNSFOLK)
    if towns > n - WEREBUNNIES:
        # TNB-SET-1: two of the players are Werebunnies.
        raise RuleViolation("TNB-SET-1", f"the roles make {towns} players Townsfolk, but two of the {n} are "
                            "Werebunnies", townsfolk=towns)
    if towns == n - WEREBUNNIES:
        seen = [WEREBUNNY if r == UNKNOWN else r for r in seen]
    werebunnies = [s for s, r in enumerate(seen) if r == WEREBUNNY]
    known = [mutations[s] for s in werebunnies if mutations[s] in MUTATIONS]
    if state.table.distinct_mutations and len(known) == WEREBUNNIES and known[0] == known[1]:
        # TNB-SET-3, by option (distinct_mutations): the two Werebunnies' Mutations differ.
        raise RuleViolation("TNB-SET-3", "the two Werebunnies must have different Mutations",
                            mutations=list(mutations))
    if not is_seat(state, event.first_mayor):
        # TNB-SET-4: the first mayor is a seat of the game (the table sees who it is).
        raise RuleViolation("TNB-SET-4", f"the first mayor must be one of the {n} players",
                            first_mayor=event.first_mayor)
    hidden = go_partial(state)
    hidden.roles = seen
    state.is_werebunny = [r == WEREBUNNY for r in seen]
    state.werebunnies = (werebunnies[0], werebunnies[1]) if len(werebunnies) == WEREBUNNIES else None
    state.quirks = [None if r == WEREBUNNY else quirks[s] for s, r in enumerate(seen)]
    state.mutations = [None if r == TOWNSFOLK else mutations[s] for s, r in enumerate(seen)]
    state.mayor = event.first_mayor
    state.phase = "offers"
    return (Effect("TNB-SET-1", "roles_dealt", {"first_mayor": event.first_mayor}),)


def offers(state: TnbState, event: Offers) -> tuple[Effect, ...]:
    """Item offers of a recorded game, ``"?"`` for an Item nobody saw (TNB-ITEM-1, -2)."""
    refuse_unknowns(state, "the Item offers")
    offered = event.items
    if len(offered) != state.n or any(
        len(pair) != OFFERED_ITEMS or any(i not in ITEMS and i != UNKNOWN for i in pair)
        or (pair[0] == pair[1] and pair[0] != UNKNOWN)
        for pair in offered
    ):
        # TNB-ITEM-1: two different Items of the five for every player ('?' where unseen).
        raise RuleViolation("TNB-ITEM-1", f"every player is offered two different Items of {list(ITEMS)} "
                            "('?' for one nobody saw)", items=[list(p) for p in offered])
    for item in ONE_HOLDER_ITEMS:
        holders = [s for s, pair in enumerate(offered) if item in pair]
        if len(holders) > 1:
            # TNB-ITEM-2: the Recipe and the Medallion appear for one player only.
            raise RuleViolation("TNB-ITEM-2", f"{item} may be offered to one player only",
                                item=item, offered_to=holders)
    go_partial(state)
    state.offers = [list(pair) for pair in offered]
    state.phase = "items"
    ask_everybody(state, "item")
    return (Effect("TNB-ITEM-1", "items_offered", {}),)


def choose_item(state: TnbState, seat: int, event: ChooseItem) -> tuple[Effect, ...]:
    """An Item choice the record does not know (``"?"``), or a known choice from an offer it
    knows only in part: the choice then names the offered Item (TNB-ITEM-1..3)."""
    offer = offer_of(state, seat)
    item = event.item
    if item == UNKNOWN:
        refuse_unknowns(state, "the Item choice")
    elif item not in ITEMS or UNKNOWN not in offer:
        # TNB-ITEM-3: the Item kept is one of the two offered.
        raise RuleViolation("TNB-ITEM-3", f"the {item} was not offered to seat {seat}", item=item)
    else:
        others = [s for s, pair in enumerate(state.offers or ()) if s != seat and item in pair]
        if item in ONE_HOLDER_ITEMS and others:
            # TNB-ITEM-2: the Recipe and the Medallion appear for one player only.
            raise RuleViolation("TNB-ITEM-2", f"{item} may be offered to one player only", item=item,
                                offered_to=[*others, seat])
    go_partial(state)
    if item != UNKNOWN:
        offer[offer.index(UNKNOWN)] = item
    state.items[seat] = item
    settled(state, seat)
    if not state.agenda.decisions:
        state.phase = "deal"
    return NO_EFFECTS


def deal(state: TnbState, event: Deal) -> tuple[Effect, ...]:
    """The deal of a recorded game: three cards each, ``"?"`` for a card nobody saw."""

    hands = event.hands
    n = state.n
    if len(hands) != n or any(len(h) != STARTING_HAND for h in hands):
        # TNB-DEAL-1: three cards for every player (the number is public, the values not).
        raise RuleViolation("TNB-DEAL-1", f"every player is dealt {STARTING_HAND} cards",
                            dealt=[len(h) for h in hands])
    counted = [count_values(list(h), "TNB-DEAL-1", "the deal") for h in hands]
    if any(unknown for _, unknown in counted):
        refuse_unknowns(state, "the deal")
    hidden = go_partial(state)
    total = [0, 0, 0, 0, 0]
    for counts, _ in counted:
        for v in (1, 2, 3, 4):
            total[v] += counts[v]
    if any(total[v] > hidden.unseen[v] for v in (1, 2, 3, 4)):
        raise RuleViolation("TNB-DEAL-1", "the deal holds more cards of a value than the deck has",
                            dealt=total[1:], deck=hidden.unseen[1:])
    for seat, (counts, unknown) in enumerate(counted):
        state.hands[seat] = counts
        hidden.lo[seat] = hidden.hi[seat] = unknown
    for v in (1, 2, 3, 4):
        hidden.unseen[v] -= total[v]
    if hidden.deck_size is not None:
        hidden.deck_size -= STARTING_HAND * n
    start_round(state)
    return (Effect("TNB-DEAL-1", "dealt", {"cards_each": STARTING_HAND}),)


# -- the day --------------------------------------------------------------------------
def pair_is_werebunnies(state: TnbState, pair: tuple[int, int]) -> bool | None:
    """Are both seats of ``pair`` the Werebunnies? None where the record cannot tell."""
    a, b = pair
    ra, rb = role(state, a), role(state, b)
    if TOWNSFOLK in (ra, rb):
        return False
    if ra == rb == WEREBUNNY:
        return True
    if any(role(state, s) == WEREBUNNY for s in range(state.n) if s not in pair):
        return False
    return None


def accuse(state: TnbState, seat: int, event: Accuse) -> tuple[Effect, ...]:
    """An accusation in a partial game (after the muster's checks, TNB-ACC-1, -2, -4).

    The table saw it, so it shows that the accuser held a card (R-TNB-27). When everybody
    outside the pair now accuses it, the game ends if the pair is the Werebunnies
    (TNB-ACC-4); where the record cannot tell, the event says so with a reveal, or the game
    goes on and the check is undetermined (R-TNB-26).
    """

    low, high = hand_range(state, seat)
    if high == 0:
        # TNB-ACC-1: the accusation costs a card, so an empty hand cannot accuse.
        raise RuleViolation("TNB-ACC-1", f"seat {seat} holds no card to pay for an accusation", hand=0)
    a, b = sorted(event.suspects)
    pair = (a, b)
    n = state.n
    accusations = state.accusations
    everybody = all(accusations[s] == pair for s in range(n) if s not in pair and s != seat)
    reveal = event.reveal
    ends: bool | None = False
    if everybody and pair not in state.refuted:
        ends = pair_is_werebunnies(state, pair)
        if ends is None and reveal is not None:
            ends = sorted(reveal.werebunnies) == [a, b]
    if reveal is not None:
        if not ends:
            refuse_misplaced_reveal("this accusation does not end the game")
        check_reveal(state, reveal, [hand_range(state, s) for s in range(n)])
    hidden = hid(state)
    if low == 0:
        hidden.lo[seat] += 1  # the accusation shows a card in hand (R-TNB-27)
    accusations[seat] = pair
    state.accused[seat] = True
    settled(state, seat)
    state.accusation_log.append({"round": state.round, "seat": seat, "suspects": [a, b]})
    effects: list[Effect] = [Effect("TNB-ACC-1", "accused", {"seat": seat, "suspects": [a, b]})]
    if ends:
        if reveal is not None:
            apply_reveal(state, reveal)
        town = [s for s in range(n) if s not in pair]
        end_game(state, "townsfolk", "unanimous_accusation", "TNB-ACC-4", town, effects)
        return tuple(effects)
    if everybody and pair not in state.refuted:
        if ends is None:
            effects.append(undetermined("TNB-ACC-4", f"the game goes on only if seats {a} and {b} are not "
                                        "both Werebunnies", suspects=[a, b]))
        state.refuted.append(pair)
        effects.append(Effect("TNB-ACC-4", "pair_refuted", {"suspects": [a, b]}))
    state.pending_loss = seat
    return tuple(effects)


def card_lost(state: TnbState, seat: int, event: CardLost) -> tuple[Effect, ...]:
    """The card an accusation cost, in a partial game or written ``"?"`` (TNB-ACC-3)."""

    card = event.card
    hand = state.hands[seat]
    if card == UNKNOWN:
        refuse_unknowns(state, "the card an accusation cost")
        hidden = go_partial(state)
        if hand_range(state, seat)[1] == 0:
            # TNB-ACC-3: the card is taken from the accuser's hand.
            raise RuleViolation("TNB-ACC-3", f"seat {seat} holds no card to lose", hand=0)
        values = [v for v in (1, 2, 3, 4) if hand[v]]
        if hidden.hi[seat] == 0 and len(values) == 1:
            card = values[0]  # every card of the hand has one value: that is the card lost
    if card == UNKNOWN:
        hidden = hid(state)
        hide_hand(state, seat)
        hidden.lo[seat] = max(0, hidden.lo[seat] - 1)
        hidden.hi[seat] -= 1
        hidden.closed[seat] = True
    else:
        if type(card) is not int or not 1 <= card <= 4:
            raise RuleViolation("TNB-ACC-3", f"seat {seat} holds no card {card!r}", card=card)
        if hand[card] == 0:
            hidden = hid(state)
            if hidden.hi[seat] == 0:
                raise RuleViolation("TNB-ACC-3", f"seat {seat} holds no card {card!r}", card=card,
                                    hand=hand[1:], unknown=0)
            if hidden.unseen[card] == 0:
                raise RuleViolation("REC-UNK-2", f"seat {seat} cannot lose a {card}: every card of that "
                                    "value is known to be elsewhere", card=card)
            hidden.lo[seat] = max(0, hidden.lo[seat] - 1)
            hidden.hi[seat] -= 1
            hidden.unseen[card] -= 1
        else:
            hand[card] -= 1
        state.discard[card] += 1
    hidden = hid(state)
    if hidden.discard_size is not None:
        hidden.discard_size += 1
    state.pending_loss = None
    state.written_notes[seat].append({"round": state.round, "kind": "lost_card", "card": card})
    if not state.agenda.decisions:
        close_muster(state)
    return (Effect("TNB-ACC-3", "card_lost", {"seat": seat}),)


# -- the end --------------------------------------------------------------------------
def refuse_misplaced_reveal(why: str) -> None:
    # TNB-REC-3: the end reveals; an event that does not end the game reveals nothing.
    raise RuleViolation("TNB-REC-3", f"a reveal comes only with the event that ends the game, and {why}")


def check_reveal(state: TnbState, reveal: Reveal, sizes: list[tuple[int, int]]) -> None:
    """TNB-REC-3: the reveal names every role, Quirk, Mutation, Item and hand size, and
    agrees with everything known (``sizes``: each hand's fewest and most cards at the end).
    Pure: refuses or returns."""
    n = state.n
    wbs = reveal.werebunnies
    if len(wbs) != WEREBUNNIES or len(set(wbs)) != WEREBUNNIES or not all(is_seat(state, s) for s in wbs):
        raise RuleViolation("TNB-REC-3", f"the reveal names two different players of the {n} as the "
                            "Werebunnies", werebunnies=list(wbs))
    if any(len(field) != n for field in (reveal.quirks, reveal.mutations, reveal.items, reveal.hand_sizes)):
        raise RuleViolation("TNB-REC-3", f"the reveal gives a Quirk, a Mutation, an Item and a hand size for "
                            f"each of the {n} seats")
    a, b = sorted(wbs)
    if (a, b) in state.refuted:
        raise RuleViolation("TNB-REC-3", f"the reveal makes seats {a} and {b} the Werebunnies, but the whole "
                            "table saw the game go on when everybody else accused them (TNB-ACC-4)",
                            werebunnies=[a, b])
    mutations = [reveal.mutations[s] for s in (a, b)]
    pool = state.table.mutations
    if state.table.distinct_mutations and mutations[0] == mutations[1]:
        raise RuleViolation("TNB-REC-3", "the reveal gives both Werebunnies the same Mutation "
                            "(option distinct_mutations)", mutations=list(reveal.mutations))
    for s in range(n):
        werebunny = s in (a, b)
        q, m, item, size = reveal.quirks[s], reveal.mutations[s], reveal.items[s], reveal.hand_sizes[s]
        bad_quirk = q is not None if werebunny else q not in QUIRKS
        bad_mutation = (m not in pool if pool else m is not None) if werebunny else m is not None
        if bad_quirk or bad_mutation:
            raise RuleViolation("TNB-REC-3", f"the reveal gives seat {s} the Quirk {q!r} and the Mutation "
                                f"{m!r}, which a {'Werebunny' if werebunny else 'Townsfolk'} cannot have",
                                seat=s)
        if item not in ITEMS:
            raise RuleViolation("TNB-REC-3", f"the reveal gives seat {s} {item!r}, which is not an Item",
                                seat=s)
        known = role(state, s)
        if known != UNKNOWN and known != (WEREBUNNY if werebunny else TOWNSFOLK):
            raise RuleViolation("TNB-REC-3", f"the reveal makes seat {s} a "
                                f"{'Werebunny' if werebunny else 'Townsfolk'}, but the record knows it is a "
                                f"{known}", seat=s)
        for what, have, said in (("Quirk", state.quirks[s], q), ("Mutation", state.mutations[s], m),
                                 ("Item", state.items[s], item)):
            if have != UNKNOWN and have != said:
                raise RuleViolation("TNB-REC-3", f"the reveal gives seat {s} the {what} {said!r}, but the "
                                    f"record knows it is {have!r}", seat=s)
        offer = state.offers[s] if state.offers is not None else []
        if offer and UNKNOWN not in offer and item not in offer:
            raise RuleViolation("TNB-REC-3", f"the reveal gives seat {s} the {item}, which it was not "
                                "offered", seat=s, offered=list(offer))
        low, high = sizes[s]
        if type(size) is not int or not low <= size <= high:
            holds = f"{low} to {high}" if low != high else f"{low}"
            raise RuleViolation("TNB-REC-3", f"the reveal shows seat {s} holding {size!r} cards, but its "
                                f"hand holds {holds}", seat=s, hand_size=size)


def apply_reveal(state: TnbState, reveal: Reveal) -> None:
    """Everything the end showed becomes known (checked by :func:`check_reveal`)."""
    hidden = hid(state)
    a, b = sorted(reveal.werebunnies)
    state.werebunnies = (a, b)
    state.is_werebunny = [s in (a, b) for s in range(state.n)]
    hidden.roles = [WEREBUNNY if s in (a, b) else TOWNSFOLK for s in range(state.n)]
    state.quirks = list(reveal.quirks)
    state.mutations = list(reveal.mutations)
    state.items = list(reveal.items)
    for s, size in enumerate(reveal.hand_sizes):
        hidden.lo[s] = hidden.hi[s] = size - state.hand_size(s)


def known_winners(state: TnbState, winner: str, rule: str) -> list[int] | None:
    """Who won, when the record knows (after a reveal it always does); None otherwise."""

    n = state.n
    roles_known = [role(state, s) for s in range(n)]
    if UNKNOWN in roles_known:
        return None
    if winner == "werebunnies":
        return [s for s in range(n) if roles_known[s] == WEREBUNNY]
    town = [s for s in range(n) if roles_known[s] == TOWNSFOLK]
    if rule != "TNB-END-3":
        return town
    winners = []
    for s in town:
        low, high = hand_range(state, s)
        if state.quirks[s] == UNKNOWN or low != high:
            return None
        if quirk_met(state, s, low):
            winners.append(s)
    return winners


def finish(state: TnbState, winner: str, reason: str, rule: str, effects: list[Effect],
           reveal: Reveal | None) -> None:
    """The end of a partial game: the winners from the reveal, or undetermined (R-TNB-26)."""

    if reveal is not None:
        apply_reveal(state, reveal)
    winners = known_winners(state, winner, rule)
    if winners is None:
        effects.append(undetermined(rule, f"the {winner} win; who they are depends on roles the record "
                                    "does not reveal (a reveal on the event that ends the game names them)",
                                    winner=winner))
        winners = []
    end_game(state, winner, reason, rule, winners, effects)


def check_vote_reveal(state: TnbState, accepts: int, reveal: Reveal) -> None:
    """A reveal on the vote (or voting timer) that closes the vote: only when the rejection
    takes the wolves past the limit and ends the game (TNB-WOLF-3, TNB-REC-3). Pure."""
    from engine.trust_no_bunny.numbers import WOLF_LIMIT

    team = state.team or []
    raise_by = len(team) if state.rejection_raise == "team_size" else 1
    if accepts * 2 > state.n or state.wolves + raise_by <= WOLF_LIMIT:
        refuse_misplaced_reveal("this vote does not end the game")
    check_reveal(state, reveal, [hand_range(state, s) for s in range(state.n)])
