"""Trust No Bunny positions made whole: every secret a position leaves open drawn at random.

A seat's record (or the table's, or a game recorded at the table: R-TNB-22) leaves open
what nobody at that seat saw, and its position keeps that as a :class:`Hidden` (roles,
Quirks, Mutations, Item offers and choices as ``"?"``, each hand as its known cards plus
between ``lo`` and ``hi`` cards of unknown value, the cards of each value nobody has seen,
the deck's and the discard pile's sizes where still known, the cards owed at dawn as a
range, and tonight's unseen actions as ``act``). A world fills each in, in this order:

* **the Werebunnies**: a pair drawn uniformly from the pairs the perspective cannot rule
  out (engine/trust_no_bunny/suspects.py reads the perspective's view: its role, its notes,
  the nights' stages, refuted accusations) and that the record's known roles allow;
* **Quirks and Mutations** as the set-up deals them (TNB-SET-2, TNB-SET-3: a Quirk of the
  three for each Townsfolk, a Mutation of the game's pool for each Werebunny, different
  where the game says so); **offers** as the set-up deals them (TNB-ITEM-1, TNB-ITEM-2);
  an unknown **Item** chosen between its two offers with equal chances;
* **cards**: each hand's number of unknown cards within its range, the rest of the unseen
  cards to the deck and the discard pile (their sizes where known; where not, the split
  is drawn uniformly), and then the unseen cards, shuffled, dealt over those places, so that
  every arrangement of them is as likely as another;
* **cards owed at dawn** within each seat's range;
* **tonight's unseen actions**: each seat that acted unseen tonight acts again in the
  world, as the heuristic bot would from the hand the world gave it (a night's actions
  are secret until the stage, so nothing the perspective saw depends on which).

What a world does not do: weigh a pair by how likely its seats' past votes or plays were
(the suspects model is uniform over consistent pairs, R-TNB-21), or invent the actions of
past nights nobody saw. Those nights' notes stay as the record wrote them
(``written_notes``); the world's own nights are written after them (notes.py), numbered
on from the nights already played.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from engine.hidden import UNKNOWN
from engine.record import Event
from engine.rules import Effect, WarrenError
from engine.ruleset import Perspective
from engine.trust_no_bunny.bots import HeuristicBot
from engine.trust_no_bunny.chance import draw_from
from engine.trust_no_bunny.events import Act
from engine.trust_no_bunny.numbers import ITEM_WEIGHT, ITEMS, ONE_HOLDER_ITEMS, QUIRKS, WEREBUNNIES
from engine.trust_no_bunny.state import Hidden, TnbState
from engine.trust_no_bunny.suspects import suspects_from_view
from engine.trust_no_bunny.table import ask
from engine.trust_no_bunny.unknowns import WEREBUNNY, is_open
from engine.trust_no_bunny.views import view

Apply = Callable[[TnbState, Event], tuple[Effect, ...]]


def fill(state: TnbState, rng: random.Random, apply: Apply) -> TnbState:
    """A complete copy of ``state`` (see the module docstring); ``apply`` plays an event
    with the rules (the ruleset's handlers), for tonight's unseen actions."""
    world = state.copy()
    hidden = world.hidden
    if not world.partial or hidden is None:
        return world
    if world.phase != "setup":
        _roles(world, state, hidden, rng)
    _offers(world, rng)
    _cards(world, hidden, rng)
    if world.phase == "dawn":
        world.owed = [rng.randint(lo, hi) for lo, hi in zip(hidden.owed_lo, hidden.owed_hi, strict=True)]
    unseen = [s for s in range(world.n) if type(world.plays[s]) is Act] if world.phase == "night" else []
    _notes_numbered_on(world)
    world.partial = False
    world.hidden = None
    _act_again(world, unseen, rng, apply)
    return world


# -- roles ---------------------------------------------------------------------------------
def _perspective(state: TnbState) -> Perspective:
    """Whose knowledge the partial position is: the one seat its record knows whole, or the
    table."""
    open_seats = [s for s in range(state.n) if is_open(state, s)]
    return open_seats[0] if len(open_seats) == 1 else "spectator"


def _roles(world: TnbState, state: TnbState, hidden: Hidden, rng: random.Random) -> None:
    """The Werebunnies, their Mutations and the Townsfolk's Quirks (TNB-SET-1..3)."""
    known = hidden.roles
    allowed = [pair for pair in combinations(range(world.n), WEREBUNNIES)
               if all((known[s] == WEREBUNNY) == (s in pair) for s in range(world.n) if known[s] != UNKNOWN)]
    consistent = set(suspects_from_view(view(state, _perspective(state))).pairs)
    pairs = [p for p in allowed if p in consistent] or allowed
    if not pairs:
        raise WarrenError("this Trust No Bunny position allows no pair of Werebunnies: "
                          "it cannot be dealt out")
    a, b = pairs[rng.randrange(len(pairs))]
    world.werebunnies = (a, b)
    world.is_werebunny = [s in (a, b) for s in range(world.n)]
    pool = world.table.mutations
    for s in range(world.n):
        if s in (a, b):
            world.quirks[s] = None
            if world.mutations[s] == UNKNOWN:
                world.mutations[s] = None  # drawn below, once the partner's is known
        else:
            world.mutations[s] = None
            if world.quirks[s] == UNKNOWN or world.quirks[s] is None:
                world.quirks[s] = rng.choice(QUIRKS)
    for s in (a, b):
        if world.mutations[s] is None and pool:
            partner = b if s == a else a
            taken = world.mutations[partner]
            kinds = [m for m in pool if not (world.table.distinct_mutations and m == taken)]
            world.mutations[s] = rng.choice(kinds)


# -- Items -----------------------------------------------------------------------------------
def _offers(world: TnbState, rng: random.Random) -> None:
    """Unknown offers drawn as the set-up draws them (TNB-ITEM-1, TNB-ITEM-2: the Recipe and
    the Medallion for one player only), then unknown choices between each seat's two."""
    offers = world.offers
    if offers is not None:
        taken = {i for pair in offers for i in pair if i in ONE_HOLDER_ITEMS}
        for pair in offers:
            for k, item in enumerate(pair):
                if item != UNKNOWN:
                    continue
                pool = [i for i in ITEMS if i not in taken and i not in pair]
                pick = rng.choices(pool, weights=[ITEM_WEIGHT[i] for i in pool])[0]
                pair[k] = pick
                if pick in ONE_HOLDER_ITEMS:
                    taken.add(pick)
    for s, chosen in enumerate(world.items):
        if chosen == UNKNOWN and offers is not None:
            world.items[s] = rng.choice(offers[s])


# -- cards -----------------------------------------------------------------------------------
def _cards(world: TnbState, hidden: Hidden, rng: random.Random) -> None:
    """Each hand's unknown cards, the deck and the discard pile dealt from the unseen cards."""
    n = world.n
    unseen = hidden.unseen
    total = sum(unseen[1:])
    known_discards = sum(world.discard[1:])
    deck_size = hidden.deck_size
    lost_discards = None if hidden.discard_size is None else hidden.discard_size - known_discards
    room = total - (deck_size or 0) - (lost_discards or 0)
    exact = deck_size is not None and lost_discards is not None
    counts = _hand_counts(hidden.lo, hidden.hi, room, exact, rng)
    rest = room - sum(counts)
    if deck_size is None and lost_discards is None:
        deck_size = rng.randint(0, rest)
        lost_discards = rest - deck_size
    elif deck_size is None:
        deck_size = rest
    elif lost_discards is None:
        lost_discards = rest
    if min(deck_size, lost_discards or 0, rest) < 0:
        raise WarrenError("this Trust No Bunny position leaves more cards unknown than are unseen: "
                          "it cannot be dealt out")
    pile = unseen[:]
    for s in range(n):
        for v in draw_from(pile, counts[s], rng):
            world.hands[s][v] += 1
    for v in draw_from(pile, lost_discards or 0, rng):
        world.discard[v] += 1
    world.deck = pile


def _hand_counts(lo: list[int], hi: list[int], room: int, exact: bool, rng: random.Random) -> list[int]:
    """How many unknown cards each hand holds: each within its range, together ``room`` when
    ``exact`` (the deck and the pile are counted), at most ``room`` otherwise. Seats in a random
    order, each drawn uniformly among the counts that leave the others a way to fit."""
    n = len(lo)
    counts = lo[:]
    left = room - sum(lo)
    if left < 0:
        raise WarrenError("this Trust No Bunny position holds more cards of unknown value than are unseen: "
                          "it cannot be dealt out")
    order = list(range(n))
    rng.shuffle(order)
    spare_after = [0] * n
    acc = 0
    for i in reversed(range(n)):
        spare_after[i] = acc
        acc += hi[order[i]] - lo[order[i]]
    if exact and acc < left:
        raise WarrenError("this Trust No Bunny position holds fewer cards than are unseen: "
                          "it cannot be dealt out")
    for i, s in enumerate(order):
        spare = hi[s] - lo[s]
        least = max(0, left - spare_after[i]) if exact else 0
        extra = rng.randint(least, min(spare, left))
        counts[s] += extra
        left -= extra
    return counts


# -- notes and tonight ---------------------------------------------------------------------------
def _notes_numbered_on(world: TnbState) -> None:
    """The nights and dawns the record wrote notes for stand as written out (None), so the
    world's own nights are numbered after them (notes.py)."""
    nights = len(world.nights)
    dawns = nights - 1 if world.phase == "dawn" else nights
    world.night_plays.extend([None] * (nights - len(world.night_plays)))
    world.draws.extend([None] * (dawns - len(world.draws)))


def _act_again(world: TnbState, seats: list[int], rng: random.Random, apply: Apply) -> None:
    """Tonight's unseen actions played again in the world, by the heuristic bot from each
    seat's hand: the night is still open (an action nobody saw that closed it would have
    been staged), so the seats are owed again, then settle as they did."""
    if not seats:
        return
    seq = world.seq
    decisions = dict(world.agenda.decisions)
    for s in seats:
        world.plays[s] = None
        ask(world, [s], "guard" if world.on_guard[s] else "home")
        decisions.update(world.agenda.decisions)
    world.agenda.decisions = decisions
    bot = HeuristicBot(rng)
    for s in seats:
        apply(world, bot.decide(world, s))
    world.seq = seq
