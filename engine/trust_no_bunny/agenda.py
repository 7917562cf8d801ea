"""The legal actions of a seat at a position of a game of Trust No Bunny."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from engine.hidden import UNKNOWN
from engine.pending import NOTHING, Agenda, Chance, Decision
from engine.record import Event
from engine.trust_no_bunny.events import (
    Accuse,
    Act,
    Bless,
    Brew,
    ChooseItem,
    Gaze,
    Guard,
    Predict,
    Propose,
    Ready,
    Rest,
    Sabotage,
    Vote,
)
from engine.trust_no_bunny.numbers import CRYSTAL_BALL, GNAW, MYSTICAL_RECIPE, QUIRKS, TIMED_PHASES
from engine.trust_no_bunny.state import TnbState, offer_of
from engine.trust_no_bunny.table import has_item


def sub_hands(hand: list[int]) -> Iterator[list[int]]:
    """Every sub-multiset of a hand of counts, as counts (the empty one first)."""
    for a in range(hand[1] + 1):
        for b in range(hand[2] + 1):
            for c in range(hand[3] + 1):
                for d in range(hand[4] + 1):
                    yield [0, a, b, c, d]


def as_cards(counts: list[int]) -> list[int]:
    return [v for v in (1, 2, 3, 4) for _ in range(counts[v])]


def guard_plays(state: TnbState, seat: int, seq: int) -> list[Event]:
    hand = state.hands[seat]
    plays: list[Event] = []
    if not state.is_werebunny[seat]:
        for part in sub_hands(hand):
            plays.append(Guard(seq=seq, actor=seat, defend=as_cards(part)))
        return plays
    for part in sub_hands(hand):
        rest = [hand[v] - part[v] for v in range(5)]
        defend = as_cards(part)
        for other in sub_hands(rest):
            plays.append(Guard(seq=seq, actor=seat, defend=defend, weaken=as_cards(other)))
    return plays


def home_actions(state: TnbState, seat: int, seq: int) -> list[Event]:
    n = state.n
    gnaws = [as_cards(p) for p in sub_hands(state.hands[seat])] if state.mutations[seat] == GNAW else [[]]
    actions: list[Event] = []
    for gnaw in gnaws:
        actions.append(Rest(seq=seq, actor=seat, gnaw=gnaw))
        actions.append(Predict(seq=seq, actor=seat, damage=True, gnaw=gnaw))
        actions.append(Predict(seq=seq, actor=seat, damage=False, gnaw=gnaw))
        for t in range(n):
            if t != seat and not state.on_guard[t]:
                actions.append(Bless(seq=seq, actor=seat, target=t, gnaw=gnaw))
        if state.is_werebunny[seat]:
            for t in range(n):
                if t != seat:
                    for quirk in QUIRKS:
                        actions.append(Sabotage(seq=seq, actor=seat, target=t, quirk=quirk, gnaw=gnaw))
        if not state.item_used[seat]:
            if has_item(state, seat, CRYSTAL_BALL):
                actions.extend(Gaze(seq=seq, actor=seat, target=t, gnaw=gnaw) for t in range(n) if t != seat)
            if has_item(state, seat, MYSTICAL_RECIPE):
                actions.append(Brew(seq=seq, actor=seat, gnaw=gnaw))
    return actions


def decision_actions(state: TnbState, decision: Decision) -> list[Event]:
    """Every event that settles the decision a seat owes (engine.pending)."""
    seat = decision.seat
    seq = state.seq + 1
    kind = decision.kind
    if state.partial and kind not in ("propose", "vote"):
        return recorded_actions(state, decision)
    if kind == "item":
        return [ChooseItem(seq=seq, actor=seat, item=i) for i in offer_of(state, seat)]
    if kind == "muster":
        actions: list[Event] = [Ready(seq=seq, actor=seat)]
        if not state.accused[seat] and state.hand_size(seat) > 0:
            others = [s for s in range(state.n) if s != seat]
            actions.extend(Accuse(seq=seq, actor=seat, suspects=list(p)) for p in combinations(others, 2))
        return actions
    if kind == "propose":
        size = state.table.guards[state.round - 1]
        return [Propose(seq=seq, actor=seat, team=list(t)) for t in combinations(range(state.n), size)]
    if kind == "vote":
        return [Vote(seq=seq, actor=seat, accept=True), Vote(seq=seq, actor=seat, accept=False)]
    if kind == "guard":
        return guard_plays(state, seat, seq)
    return home_actions(state, seat, seq)


def recorded_actions(state: TnbState, decision: Decision) -> list[Event]:
    """What a game recorded at the table may record next for a seat, as far as it knows:
    ``"?"`` for an Item choice nobody saw, ``act`` for a night action nobody saw, and every
    action the rules allow where the record knows the seat whole (a player's own record)."""
    from engine.trust_no_bunny.unknowns import hand_range, is_open

    seat = decision.seat
    seq = state.seq + 1
    kind = decision.kind
    if kind == "item":
        offer = offer_of(state, seat)
        known = [ChooseItem(seq=seq, actor=seat, item=i) for i in offer if i != UNKNOWN]
        return [*known, ChooseItem(seq=seq, actor=seat, item=UNKNOWN)]
    if kind == "muster":
        actions: list[Event] = [Ready(seq=seq, actor=seat)]
        if not state.accused[seat] and hand_range(state, seat)[1] > 0:
            others = [s for s in range(state.n) if s != seat]
            actions.extend(Accuse(seq=seq, actor=seat, suspects=list(p)) for p in combinations(others, 2))
        return actions
    if kind in ("guard", "home"):
        unseen: list[Event] = [Act(seq=seq, actor=seat)]
        if not is_open(state, seat):
            return unseen
        known_actions = guard_plays(state, seat, seq) if kind == "guard" else home_actions(state, seat, seq)
        return [*known_actions, *unseen]
    raise ValueError(f"no recorded actions for a {kind} decision")


_CHANCE: dict[str, Chance] = {
    "setup": Chance(kind="roles", rule="TNB-SET-1"),
    "offers": Chance(kind="offers", rule="TNB-ITEM-1"),
    "deal": Chance(kind="deal", rule="TNB-DEAL-1"),
    "dawn": Chance(kind="draw", rule="TNB-DRAW-1"),
}
_TIMER = Chance(kind="timer", rule="TNB-TIME-1", optional=True)
_LOSSES = [Chance(kind="card_lost", seat=s, rule="TNB-ACC-3") for s in range(8)]


def pending(state: TnbState) -> Agenda:
    """What the position waits for: chance in set-up, at dawn and after an accusation;
    otherwise the decisions the state keeps, with the timer that may run out meanwhile."""
    if state.over:
        return NOTHING
    phase = state.phase
    owed = _CHANCE.get(phase)
    if owed is not None:
        return Agenda(chance=owed)
    if state.pending_loss is not None:
        return Agenda(chance=_LOSSES[state.pending_loss])
    timer = _TIMER if phase in TIMED_PHASES else None
    return Agenda(decisions=dict(state.agenda.decisions), optional=timer)


def to_act(state: TnbState) -> list[int]:
    """Seats that still have to act; empty while the game waits on chance or is over."""
    return pending(state).seats()
