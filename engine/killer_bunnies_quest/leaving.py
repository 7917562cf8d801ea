"""Bunnies leaving the Bunny Circle (killed, abducted, their owner leaving) and changing
owner: what goes with them, what the roaming cards do about it (KBQ-MOD-4, KBQ-ROAM-3), and
the Minilith that a player without bunnies loses (R-KBQ-28)."""

from __future__ import annotations

from typing import Any

from engine.killer import feeding
from engine.killer_bunnies_quest import roam
from engine.killer_bunnies_quest.state import Dormant, QuestState
from engine.killer_bunnies_quest.table import deck, has_bunny, to_discard
from engine.rules import Effect


def remove_bunny(state: QuestState, bunny: int, out: list[Effect], how: str, rule: str,
                 cause: str | None = None, by: int | None = None, discard_bunny: bool = True) -> None:
    """A bunny leaves the circle (dies, is abducted, its owner leaves): the cards under and
    on it are discarded (KBQ-MOD-4), its feed demands go with it, a dormant card under it is
    discarded, and a roaming card waiting on it moves on or is discarded (KBQ-ROAM-3)."""
    circle = state.circle
    owner = circle.owner(bunny)
    roam.host_leaving(state, bunny, out)
    space = circle.remove(bunny)
    gone = feeding.drop_bunny(state.demands, bunny)
    # A Feed The Bunny card lies on its bunny and is also its demand's card: discard it once.
    leftovers = [*space.under, *space.on, *(d.card for d in gone if d.card not in space.on)]
    leftovers += [dm.card for dm in state.dormant if dm.host == bunny]
    state.dormant = [dm for dm in state.dormant if dm.host != bunny]
    if leftovers:
        out.append(Effect("KBQ-MOD-4", "discarded_with_bunny", {"bunny": bunny,
                                                                "cards": leftovers[:]}))
    if discard_bunny:
        leftovers.insert(0, bunny)
    to_discard(state, leftovers, out)
    data: dict[str, Any] = {"bunny": bunny, "owner": owner, "discarded": leftovers}
    if cause is not None:
        data["cause"] = cause
    if by is not None:
        data["by"] = by
    out.append(Effect(rule, how, data))
    check_minilith(state, owner, out)

def kill(state: QuestState, bunny: int, cause: str, rule: str, out: list[Effect],
         by: int | None = None) -> None:
    remove_bunny(state, bunny, out, "bunny_died", rule, cause=cause, by=by)

def check_minilith(state: QuestState, seat: int, out: list[Effect]) -> None:
    """The Minilith is discarded the moment its holder has no bunny (R-Q16)."""
    if has_bunny(state, seat):
        return
    d = deck(state)
    for card in [c for c in state.seats[seat].saved if d.card(c).keep_needs_bunny]:
        state.seats[seat].saved.remove(card)
        to_discard(state, [card], out)
        out.append(Effect("KBQ-CARD-" + d.card(card).id.upper(), "saved_card_lost",
                          {"seat": seat, "card": card}))

def change_owner(state: QuestState, bunny: int, seat: int, rule: str, out: list[Effect]) -> None:
    """A bunny changes hands where it stands (KBQ-POS-2); its demands follow it."""
    old = state.circle.owner(bunny)
    if old == seat:
        return
    state.circle.change_owner(bunny, seat)
    feeding.follow_owner(state.demands, bunny, seat)
    out.append(Effect(rule, "bunny_changed_hands", {"bunny": bunny, "from": old, "to": seat}))
    out.append(Effect("KBQ-POS-2", "kept_its_place", {"bunny": bunny,
                                                      "at": state.circle.index(bunny)}))
    under = state.circle.space(bunny).under
    if under:
        out.append(Effect("KBQ-MOD-2", "modifiers_kept", {"bunny": bunny, "cards": under[:]}))
    check_minilith(state, old, out)

def dormant_of(state: QuestState, seat: int) -> list[Dormant]:
    """Dormant cards under ``seat``'s bunnies (a Trojan Bunny waits for its host's owner)."""
    return [d for d in state.dormant if state.circle.spaces[d.host].owner == seat]
