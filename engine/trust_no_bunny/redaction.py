"""A game of Trust No Bunny as one seat, or the table, saw it: each event written as a record
of a game played at the table writes it (engine.redact; docs/rulings.md, R-TNB-22).

The table (``spectator``) sees the public steps whole (the mayor, proposals, votes,
accusations, the muster, the timer's expiry), who acted at night but not what, the stage
of each night, that an accusation cost a card, and the end with everything it reveals. It
sees no role, Quirk, Mutation, Item, card value, draw or night action: those are ``"?"``,
and every night action is an ``act``.

A seat sees, besides, its own role (a Werebunny also its partner), its Quirk or Mutation,
its Item offers and choice, its cards, its own night actions, and what it was told at
each night's stage (written on the stage, TNB-REC-2). The contract suite folds each
redaction and checks that it shows the perspective the very views the whole game does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from engine.hidden import UNKNOWN
from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import Perspective
from engine.trust_no_bunny.events import (
    Accuse,
    Act,
    CardLost,
    ChooseItem,
    Deal,
    Draw,
    Guard,
    HomeAction,
    NightStage,
    Offers,
    Reveal,
    Roles,
    Staged,
    Timeout,
    Vote,
)
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.unknowns import hand_range, is_open
from engine.trust_no_bunny.unknowns_night import notices_for

if TYPE_CHECKING:
    from engine.trust_no_bunny import TrustNoBunny

U = UNKNOWN


def redact(ruleset: TrustNoBunny, event: Event, perspective: Perspective, before: TnbState) -> Event:
    """``event`` as ``perspective`` saw it, ``before`` being the position before it."""
    if perspective == "referee":
        return event
    seat = perspective if isinstance(perspective, int) and 0 <= perspective < before.n else None
    kind = type(event)
    if type(event) is Roles:
        return _roles(event, seat)
    if type(event) is Offers:
        return msgspec.structs.replace(event, items=[list(p) if s == seat else [U] * len(p)
                                                     for s, p in enumerate(event.items)])
    if kind is ChooseItem:
        return event if event.actor == seat else msgspec.structs.replace(event, item=U)
    if type(event) is Deal:
        return msgspec.structs.replace(event, hands=[list(h) if s == seat else [U] * len(h)
                                                     for s, h in enumerate(event.hands)])
    if type(event) is CardLost:
        return event if event.seat == seat else msgspec.structs.replace(event, card=U)
    seen = event
    if kind is Guard or kind is Act or isinstance(event, HomeAction):
        seen = event if event.actor == seat else Act(seq=event.seq, actor=event.actor)
    elif type(event) is Timeout:
        staged = [entry for entry in event.staged if entry.seat == seat]
        if (seat is not None and not staged and before.phase == "night" and before.on_guard[seat]
                and before.agenda.owes(seat) and before.guard_timeout == "staged" and is_open(before, seat)):
            staged = [Staged(seat=seat)]  # it staged nothing, and knows it
        seen = msgspec.structs.replace(event, staged=staged)
    elif type(event) is Draw:
        seen = msgspec.structs.replace(event, cards=[(U if c == U else list(c)) if s == seat else U
                                                     for s, c in enumerate(event.cards)])
    elif kind is not Accuse and kind is not Vote:
        return event
    after = _after(ruleset, event, before)
    if after is None:
        return seen  # an illegal event: the redacted game stops before it (engine.redact)
    return _with_reveal(_with_stage(seen, before, after, seat), before, after)


def _roles(event: Roles, seat: int | None) -> Roles:
    n = len(event.quirks)
    wbs = event.werebunnies
    if seat is None:
        return msgspec.structs.replace(event, werebunnies=[U, U], quirks=[U] * n, mutations=[U] * n)
    # What the record itself does not know stays unknown ("?" is never replaced by a value).
    if seat in wbs:
        # A Werebunny knows its partner, not the partner's Mutation (R-TNB-1).
        return msgspec.structs.replace(
            event, quirks=[event.quirks[s] if s in wbs else U for s in range(n)],
            mutations=[U if s in wbs and s != seat else event.mutations[s] for s in range(n)])
    return msgspec.structs.replace(
        event, werebunnies=[U, U], quirks=[event.quirks[s] if s == seat else U for s in range(n)],
        mutations=[event.mutations[s] if s == seat else U for s in range(n)])


def _after(ruleset: TrustNoBunny, event: Event, before: TnbState) -> TnbState | None:
    after = ruleset.copy_state(before)
    try:
        ruleset.apply(after, event)
    except WarrenError:
        return None
    return after


def _with_stage(seen: Event, before: TnbState, after: TnbState, seat: int | None) -> Event:
    """The stage, on the event that ends a night: public figures, and what ``seat`` was told."""
    if not (before.phase == "night" and after.phase == "dawn"):
        return seen
    night = after.nights[-1]
    told = [] if seat is None else notices_for(before, after, seat)
    stage = NightStage(unblocked=night["unblocked"], gnawed=night["gnawed"], told=told)
    return msgspec.structs.replace(seen, stage=stage)


def _with_reveal(seen: Event, before: TnbState, after: TnbState) -> Event:
    """What the end showed everybody, on the event that ends the game (R-TNB-18)."""
    if before.over or not after.over or after.werebunnies is None:
        return seen
    sizes = [hand_range(after, s) for s in range(after.n)]
    if U in after.quirks or U in after.mutations or U in after.items or any(lo != hi for lo, hi in sizes):
        return seen  # a record that does not know everything the end shows cannot say it
    reveal = Reveal(werebunnies=list(after.werebunnies), quirks=list(after.quirks),
                    mutations=list(after.mutations), items=list(after.items),
                    hand_sizes=[lo for lo, _ in sizes])
    return msgspec.structs.replace(seen, reveal=reveal)


def public_stage(stage: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
    """A stage as ``perspective`` saw it: the figures, and only what it was told itself."""
    told = [n for n in stage.get("told", ()) if perspective == "referee" or n.get("seat") == perspective]
    out = {k: v for k, v in stage.items() if k != "told"}
    if told:
        out["told"] = told
    return out
