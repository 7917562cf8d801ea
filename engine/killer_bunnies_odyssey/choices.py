"""The choices a card may be played with: every set of targets, places and opponents an
Odyssey card's effects ask for, each tried against the play's own guards (the card
interpreter's plan). The legal-action lists offer them, and a flipped card is burned rather
than discarded only when it has none (ODY-BURN-1)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_odyssey import cards as card_rules
from engine.killer_bunnies_odyssey.cards import ODYSSEY
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards, has_bunny, has_city, opponents
from engine.rules import RuleViolation


def rooms(state: OdysseyState, seat: int) -> list[int]:
    """The cities of ``seat`` with room for one more occupant."""
    t = cards(state)
    out = []
    for city in state.center.owned_by(seat):
        cap = t.capacity[state.pieces[city].kind] or 0
        if len(state.center.spaces[city].inside) < cap:
            out.append(city)
    return out


def _placements(state: OdysseyState, seat: int, size: int) -> list[dict[str, Any]]:
    return [{"at": i} for i in range(size + 1)] + [{"into": c} for c in rooms(state, seat)]


Fields = list[dict[str, Any]]


@ODYSSEY.options(fx.EnterCircle)
def _enter(state: OdysseyState, seat: int, effect: fx.EnterCircle) -> Fields:
    return _placements(state, seat, len(state.circle))


@ODYSSEY.options(fx.Build)
def _build(state: OdysseyState, seat: int, effect: fx.Build) -> Fields:
    return [{"at": i} for i in range(len(state.center) + 1)]


@ODYSSEY.options(fx.Attack, fx.Feed)
def _aim(state: OdysseyState, seat: int, effect: fx.Attack | fx.Feed) -> Fields:
    return [{"target": b} for b in state.circle.order if state.pieces[b].owner != seat]


@ODYSSEY.options(fx.Raze)
def _raze(state: OdysseyState, seat: int, effect: fx.Raze) -> Fields:
    return [{"target": c} for c in state.center.order if state.pieces[c].owner != seat]


@ODYSSEY.options(fx.Attach)
def _attach(state: OdysseyState, seat: int, effect: fx.Attach) -> Fields:
    return [{"target": b} for b in state.circle.owned_by(seat)]


@ODYSSEY.options(fx.GainCiv)
def _civ(state: OdysseyState, seat: int, effect: fx.GainCiv) -> Fields:
    return [{"opponent": o} for o in opponents(state, seat)] if effect.target == "opponent" else [{}]


@ODYSSEY.options(fx.Steal)
def _steal(state: OdysseyState, seat: int, effect: fx.Steal) -> Fields:
    pieces = state.pieces
    if effect.what == "city":
        return [{"target": c, "at": i} for c in state.center.order if pieces[c].owner != seat
                for i in range(len(state.center))]
    t = cards(state)
    out = []
    for pid, p in sorted(pieces.items()):
        if p.owner == seat or p.where not in ("circle", "inside") or not t.creature[p.kind]:
            continue
        size = len(state.circle) - (1 if p.where == "circle" else 0)
        out += [{"target": pid, **place} for place in _placements(state, seat, size)]
    return out


@ODYSSEY.options(fx.PickFromHand)
def _pick(state: OdysseyState, seat: int, effect: fx.PickFromHand) -> Fields:
    t = cards(state)
    return [{"opponent": o, "picked": t.code(k)} for o in opponents(state, seat)
            for k in sorted({k for k in state.seats[o].hand if k})]


@ODYSSEY.options(fx.Inspect)
def _inspect(state: OdysseyState, seat: int, effect: fx.Inspect) -> Fields:
    t = cards(state)
    out = []
    for o in opponents(state, seat):
        held = sorted({k for k in state.seats[o].hand if k and t.type[k] == effect.discard_type})
        out += [{"opponent": o, "picked": t.code(k)} for k in held] or [{"opponent": o}]
    return out


@ODYSSEY.options(fx.Revive)
def _revive(state: OdysseyState, seat: int, effect: fx.Revive) -> Fields:
    t = cards(state)
    kinds = sorted({k for k in state.seats[seat].discard if t.creature[k]})
    return [{"chosen": t.code(k), **place} for k in kinds
            for place in _placements(state, seat, len(state.circle))]


@ODYSSEY.options(fx.Cancel)
def _cancel(state: OdysseyState, seat: int, effect: fx.Cancel) -> Fields:
    out: Fields = [{}] if state.strike is not None else []
    out += [{"target": d.card} for d in state.demands if d.owner == seat]
    return out


@ODYSSEY.options(fx.SettleFeed)
def _settle(state: OdysseyState, seat: int, effect: fx.SettleFeed) -> Fields:
    return [{"target": b} for b in sorted({d.bunny for d in state.demands if d.owner == seat})]


def _options(state: OdysseyState, seat: int, effect: fx.AnyEffect) -> Fields:
    """The choice sets of one effect (a primitive that asks nothing: the empty one)."""
    options = ODYSSEY.options_of(effect)
    return [{}] if options is None else options(state, seat, effect)


class _Choices:
    """A choice set as the fields of an event (what plan_play reads)."""

    __slots__ = ("at", "chosen", "into", "opponent", "pay", "picked", "target")

    def __init__(self, **fields: Any) -> None:
        for name in self.__slots__:
            setattr(self, name, fields.get(name))


def play_choices(state: OdysseyState, seat: int, kind: int, first: bool = False) -> list[dict[str, Any]]:
    """Every choice set card ``kind`` may be played with by ``seat`` here (payment left to
    warren's own choice), each checked by the play's own guards; with ``first``, the first
    one found only (is the card playable at all?)."""
    t = cards(state)
    if t.pink[kind] and not has_bunny(state, seat):
        return []
    if t.green[kind] and not has_city(state, seat):
        return []
    if t.cost[kind] and not card_rules.affordable(state, seat, t.cost[kind]):
        return []
    per_effect: Iterable[list[dict[str, Any]]] = [_options(state, seat, e) for e in t.effects[kind]]
    out: list[dict[str, Any]] = []
    for combo in itertools.product(*per_effect):
        fields: dict[str, Any] = {}
        for part in combo:
            fields.update(part)
        try:
            card_rules.plan_play(state, seat, kind, _Choices(**fields), "hand")
        except RuleViolation:
            continue
        out.append(fields)
        if first:
            break
    return out
