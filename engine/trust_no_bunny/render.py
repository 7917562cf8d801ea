"""Plain-text pictures of a Trust No Bunny view, and events and effects as each
perspective saw them (the night is secret; R-TNB-11)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.hidden import UNKNOWN
from engine.record import Event
from engine.rules import Effect
from engine.ruleset import Perspective
from engine.trust_no_bunny.events import (
    Act,
    CardLost,
    ChooseItem,
    Deal,
    Draw,
    Guard,
    HomeAction,
    Offers,
    Roles,
    Timeout,
    Vote,
)
from engine.trust_no_bunny.numbers import QUIRKS
from engine.trust_no_bunny.redaction import public_stage

_BASE = ("seq", "type", "actor")
PRIVATE_EFFECTS = frozenset({"medallion_told", "gazed"})
"""Effects only the seat named in them (and the referee) learns of."""
WEREBUNNY_EFFECTS = frozenset({"sabotage_succeeded"})
"""Effects only the Werebunnies named in them (and the referee) learn of."""
REFEREE_EFFECTS = frozenset({"sabotage_unnoticed", "discard_reshuffled"})
"""Effects nobody at the table learns of: an unnoticed Sabotage, the state of the deck."""


def event_view(event: Event, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` saw of ``event``: the night's actions stay with their actor."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if perspective == "referee":
        return record
    out = _event_view(event, record, perspective)
    # A recorded game's stage and reveal are the table's (what a seat was told, its own).
    if "stage" in record:
        out["stage"] = public_stage(record["stage"], perspective)
    if "reveal" in record:
        out["reveal"] = record["reveal"]
    return out


def _role_of(record: dict[str, Any], seat: int) -> str | None:
    """A seat's role in a roles event, ``"?"`` for a recorded game that does not know it."""
    wbs = record["werebunnies"]
    if seat in wbs:
        return "werebunny"
    if UNKNOWN not in wbs or record["quirks"][seat] in QUIRKS or record["mutations"][seat] is None:
        return "townsfolk"
    return UNKNOWN


def _event_view(event: Event, record: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
    seat = perspective if isinstance(perspective, int) else None
    kind = type(event)
    base = {k: record[k] for k in _BASE if k in record}
    if kind is Roles:
        base["first_mayor"] = record["first_mayor"]
        if seat is not None and 0 <= seat < len(record["quirks"]):
            wbs = record["werebunnies"]
            base["role"] = _role_of(record, seat)
            base["quirk"] = record["quirks"][seat]
            base["mutation"] = record["mutations"][seat]
            if seat in wbs:
                base["werebunnies"] = wbs
        return base
    if kind in (Offers, Deal, Draw):
        field = {Offers: "items", Deal: "hands", Draw: "cards"}[kind]
        if seat is not None and 0 <= seat < len(record[field]):
            base[field] = record[field][seat]
        return base
    if kind is CardLost:
        base["seat"] = record["seat"]
        if seat == record["seat"]:
            base["card"] = record["card"]
        return base
    if kind is Timeout:
        staged = [s for s in record.get("staged", ()) if s["seat"] == seat]
        if staged:
            base["staged"] = staged
        return base
    if event.actor == seat:
        return dict(record)
    if kind is ChooseItem or kind is Vote or kind is Act:
        return base
    if kind is Guard:
        return {**base, "type": "guard"}
    if issubclass(kind, HomeAction):
        return {**base, "type": "home_action"}
    return record


def effect_view(effect: Effect, perspective: Perspective) -> Effect | None:
    if perspective == "referee":
        return effect
    kind = effect.kind
    if kind in REFEREE_EFFECTS:
        return None
    if kind in PRIVATE_EFFECTS:
        return effect if effect.data.get("seat") == perspective else None
    if kind in WEREBUNNY_EFFECTS:
        return effect if perspective in effect.data.get("werebunnies", ()) else None
    if kind == "cards_drawn":
        drawn = effect.data.get("drawn", [])
        if isinstance(perspective, int) and 0 <= perspective < len(drawn):
            return Effect(effect.rule, kind, {"seat": perspective, "cards": drawn[perspective]})
        return Effect(effect.rule, kind, {})
    return effect


def _seat(s: int | None, names: list[str]) -> str:
    if s is None:
        return "-"
    return names[s] if 0 <= s < len(names) else f"seat {s}"  # by name: the number is --json's


def _seats(group: list[int] | None, names: list[str]) -> str:
    return ", ".join(_seat(s, names) for s in group) if group else "-"


def render(view: dict[str, Any], names: list[str]) -> str:
    table = view["table"]
    lines = [
        f"round {view['round']} of 5 · {view['phase']} · mayor {_seat(view['mayor'], names)}",
        f"Wall {view['wall']}/{table['wall']}  Tower {view['tower']}/{table['tower']}  "
        f"wolves tonight {view['wolves']} (limit 35)",
    ]
    if view["team"]:
        lines.append(f"team: {_seats(view['team'], names)}")
    if view["waiting_on"]:
        lines.append(f"waiting on: {_seats(view['waiting_on'], names)}")
    if view["nights"]:
        lines.append("nights:")
        for night in view["nights"]:
            lines.append(
                f"  {night['night']}: guards {_seats(night['guards'], names)} · wolves {night['wolves']}"
                f" · gnawed {night['gnawed']} · got through {night['unblocked']}"
                f" · Wall -{night['wall_damage']} -> {night['wall']}"
                f" · Tower -{night['tower_damage']} -> {night['tower']}")
    if view["proposals"]:
        lines.append("proposals:")
        for p in view["proposals"]:
            votes = "".join("Y" if v else "n" for v in p["votes"])
            verdict = "accepted" if p["approved"] else "rejected"
            team = "timer ran out" if p["team"] is None else _seats(p["team"], names)
            mayor = _seat(p["mayor"], names)
            lines.append(f"  round {p['round']}: mayor {mayor} · {team} · {votes} {verdict}")
    if view["accusations"]:
        lines.append("accusations:")
        for a in view["accusations"]:
            lines.append(f"  round {a['round']}: {_seat(a['seat'], names)} accuses "
                         f"{_seats(a['suspects'], names)}")
    me = view.get("me")
    if me:
        role = me["role"] or "?"
        secret = me["quirk"] or me["mutation"] or "-"
        extra = f", partner {_seat(me['partner'], names)}" if me.get("partner") is not None else ""
        item = me["item"] or "-"
        if me["item_lost"]:
            item += " (lost)"
        hand = f"{me['hand']}"
        if me.get("hand_size"):
            low, high = me["hand_size"]
            hand += f" ({low} to {high} cards)" if low != high else f" ({low} cards)"
        lines.append(f"me: {_seat(me['seat'], names)} · {role} ({secret}){extra} · item {item}"
                     f" · hand {hand}")
        for note in me["notes"]:
            lines.append("  " + ", ".join(f"{k}={v}" for k, v in note.items()))
    if "seats" in view:
        lines.append("seats:")
        for s in view["seats"]:
            lines.append(f"  {_seat(s['seat'], names)}: {s['role']} ({s['quirk'] or s['mutation']})"
                         f" · item {s['item']}{' (lost)' if s['item_lost'] else ''} · hand {s['hand']}")
        lines.append(f"deck {len(view['deck'])} cards · discard {len(view['discard'])} cards")
    if view["outcome"]:
        o = view["outcome"]
        lines.append(f"game over: {o['winner']} win ({o['reason']}, {o['rule']}); "
                     f"winners {_seats(o['winners'], names)}")
        lines.append(f"Werebunnies were {_seats(view['reveal']['werebunnies'], names)}")
    return "\n".join(lines)
