"""What each perspective sees of a game of Quest, of its events and of its effects.

Face down: hands, run cards and the draw pile (a seat sees its own hand and run cards), the
order of the small decks, and the small carrot deck until the end (KBQ-END-2). Face up for
everyone (KBQ-FACE-1): saved cards, Dolla, cabbage and water cards, carrots, the Bunny
Circle with everything under and on each bunny, the market, the discard piles. The referee
sees everything; a spectator what every seat sees.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import table
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    AuctionFrame,
    Choice,
    Hold,
    QuestState,
    RollCard,
    RollOffFrame,
)
from engine.record import Event
from engine.rules import Effect
from engine.ruleset import Perspective

PRIVATE_EFFECTS = {"drew": "seat", "dealt": "seat"}
"""Effect kind -> the field naming the only seat (with the referee) that sees its card."""


def _sees(perspective: Perspective, seat: int) -> bool:
    return perspective == "referee" or perspective == seat


def view(state: QuestState, perspective: Perspective) -> dict[str, Any]:
    d = table.deck(state)
    out = state.position_view(perspective)
    referee = perspective == "referee"
    seats = []
    for s, st in enumerate(state.seats):
        mine = _sees(perspective, s)
        seats.append({
            "seat": s, "present": st.present,
            "hand": sorted(st.hand) if mine else len(st.hand),
            "top": st.run.top if mine else (None if st.run.top is None else "back"),
            "bottom": st.run.bottom if mine else (None if st.run.bottom is None else "back"),
            "saved": st.saved[:], "money": st.money[:], "dolla": table.money_of(state, s),
            "cabbage": st.cabbage[:], "cabbage_units": table.units_of(state, st.cabbage),
            "water": st.water[:], "water_units": table.units_of(state, st.water),
            "carrots": sorted(st.carrots), "karma": st.karma[:], "lose_turns": st.lose_turns,
            "turns": st.turns, "triplet": table.has_triplet(state, s),
            "neighbours": table.adjacent_players(state, s) if st.present else [],
            "owed": {i.kind: i.amount for i in state.ious if i.seat == s},
        })
    circle = []
    for b in state.circle.order:
        space = state.circle.space(b)
        face = d.bunny.get(b)
        circle.append({
            "bunny": b, "name": d.card(b).name, "owner": space.owner,
            "colour": face.colour if face else None, "kind": face.kind if face else None,
            "wild": bool(face and face.wild), "under": space.under[:],
            "feeds": [{"card": x.card, "cabbage": x.cabbage, "water": x.water,
                       "due_turn": x.due_turn} for x in state.demands if x.bunny == b],
            "roaming": [r.card for r in state.roamers if r.host == b],
            "dormant": [x.card for x in state.dormant if x.host == b],
        })
    m = state.market
    out.update({
        "deck_set": d.catalogue.set_name, "printing": d.catalogue.printing,
        "catalogue": d.catalogue.content_hash,
        "seats": seats, "circle": circle,
        "abducted": state.abducted[:],
        "market": {"open": m.open, "cabbage": m.prices.cabbage, "water": m.prices.water,
                   "carrot": m.prices.carrot, "carrots": m.carrots[:],
                   "half_price": state.coupon[0] if state.coupon else None},
        "piles": {"draw": len(state.draw), "discard": state.discard[:],
                  "cabbage_deck": len(state.cabbage_deck), "water_deck": len(state.water_deck),
                  "cabbage_discard": state.cabbage_discard[:],
                  "water_discard": state.water_discard[:],
                  "magic_deck": len(state.magic_deck)},
        "flipped": state.flipped,
        "roamers": [{"card": r.card, "launcher": r.launcher, "host": r.host,
                     "direction": r.direction} for r in state.roamers],
        "waiting": waiting_view(state, perspective),
        "magic_carrot": state.magic if state.over else None,
        "winners": state.winners[:],
    })
    if referee:
        out["piles"]["draw_order"] = list(reversed(state.draw))
        out["piles"]["magic_order"] = state.magic_deck[:]
        out["piles"]["cabbage_order"] = list(reversed(state.cabbage_deck))
        out["piles"]["water_order"] = list(reversed(state.water_deck))
    return out


def waiting_view(state: QuestState, perspective: Perspective) -> dict[str, Any] | None:
    """The card in play and what it waits for (public: the cards were played face up)."""
    if not state.stack:
        return None
    top = state.stack[-1]
    info: dict[str, Any] = {"frame": type(top).__struct_config__.tag}
    ctx = getattr(top, "ctx", None)
    if ctx is not None:
        info.update({"card": ctx.card, "by": ctx.by, "on": ctx.host, "player": ctx.player})
    if isinstance(top, AttackFrame):
        info["target"] = top.target
        info["hits"] = [{"bunny": h.bunny, "roamer": h.roamer, "level": h.level, "face": h.face,
                         "lives": h.lives} for h in top.hits]
    elif isinstance(top, (Choice,)):
        info["seat"] = top.seat
        info["choice"] = top.kind
        info["count"] = top.count
        if top.kind != "exchange" or _sees(perspective, top.seat):
            info["options"] = top.options[:]
    elif isinstance(top, RollOffFrame):
        info["rolls"] = {str(k): v for k, v in top.off.rolls.items()}
        info["players"] = top.off.contenders[:]
    elif isinstance(top, AuctionFrame):
        info["high_bid"] = top.auction.high_bid
        info["high_bidder"] = top.auction.high_bidder
    elif isinstance(top, RollCard):
        info["dice"] = top.dice[:]
    elif isinstance(top, Hold):
        info["held"] = fx.tag_of(top.effect)
    return info


def event_view(event: Event, perspective: Perspective) -> dict[str, Any]:
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if perspective == "referee":
        return record
    kind = record["type"]
    if kind == "setup":
        return {k: record[k] for k in ("seq", "type", "actor", "first", "gifts", "removed")
                if k in record}
    if kind == "reshuffle":
        return {"seq": record["seq"], "type": kind, "actor": None, "cards": len(record["order"])}
    if kind in ("runs", "bottom") and perspective != event.actor:
        return {k: record[k] for k in ("seq", "type", "actor")}
    if kind == "trade" and perspective not in (event.actor, record.get("partner")):
        for name in ("give_hand", "get_hand"):
            if name in record:
                record[name] = len(record[name])
    if kind == "choose" and ("give" in record or "take" in record) \
            and (not isinstance(perspective, int) or perspective != event.actor):
        # a Weapons Exchange: only the player who chose sees the weapons swapped
        record.pop("give", None)
        record.pop("take", None)
    return record


def effect_view(effect: Effect, perspective: Perspective) -> Effect | None:
    if perspective == "referee":
        return effect
    field = PRIVATE_EFFECTS.get(effect.kind)
    if field is not None and perspective != effect.data.get(field):
        data = {k: v for k, v in effect.data.items() if k != "card"}
        return Effect(effect.rule, effect.kind, data)
    if effect.kind == "weapons_shown" and perspective not in (effect.data.get("seat"),
                                                              effect.data.get("to")):
        return Effect(effect.rule, effect.kind, {k: v for k, v in effect.data.items()
                                                 if k != "cards"})
    if effect.kind == "weapons_exchanged" and perspective not in (effect.data.get("seat"),
                                                                  effect.data.get("with")):
        return Effect(effect.rule, effect.kind, {"seat": effect.data.get("seat"),
                                                 "with": effect.data.get("with")})
    return effect

