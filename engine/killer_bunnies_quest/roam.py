"""Roaming Red Runs in play: where they wait, when they attack, how they end
(KBQ-ROAM-1..4; rulings R-KBQ-18).

The ``roaming`` module beside this one keeps the roaming card's state and finds the next viable bunny;
this module says what "viable" means in Quest (a bunny the card could harm: the Halo makes
a bunny non-viable, the Containment Suit does so for the Ebola Virus, and the Ebola Virus
never infects a bunny twice) and what happens when the bunny it waits on leaves the circle
(Cyber Bunny moves on; the Ebola Virus is gone: docs/card-facts.md §1.7 R-Q13, R-Q14).
"""

from __future__ import annotations

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import roaming, table
from engine.killer_bunnies_quest.catalogue import deck
from engine.killer_bunnies_quest.state import QuestState
from engine.rules import Effect


def spec(state: QuestState, card: int) -> fx.Roam:
    effect = deck(state).effects(card)[0]
    assert isinstance(effect, fx.Roam)
    return effect


def tags(state: QuestState, card: int) -> tuple[str, ...]:
    weapon = deck(state).card(card).weapon
    return tuple(weapon.tags) if weapon is not None else ()


def viable(state: QuestState, card: int, bunny: int) -> bool:
    return not table.shielded(state, bunny, "harm", tags(state, card))


def find(state: QuestState, card: int) -> roaming.Roamer | None:
    return next((r for r in state.roamers if r.card == card), None)


def gone(state: QuestState, r: roaming.Roamer, why: str, out: list[Effect]) -> None:
    """The roaming card leaves play for the discard pile (KBQ-ROAM-3)."""
    state.roamers.remove(r)
    table.to_discard(state, [r.card], out)
    out.append(Effect("KBQ-ROAM-3", "roaming_gone", {"card": r.card, "why": why}))


def move_on(state: QuestState, r: roaming.Roamer, after: int, leaving: bool,
            out: list[Effect]) -> None:
    """After an attack (or when its bunny leaves), on to the next viable bunny."""
    nxt = roaming.next_host(state.circle, r, after, lambda b: viable(state, r.card, b), leaving)
    if nxt is None:
        gone(state, r, "no_viable_bunny", out)
        return
    r.host = nxt
    # "bunny", not "to": an effect's "to" is always a seat.
    out.append(Effect("KBQ-ROAM-1", "roaming_moved", {"card": r.card, "bunny": nxt}))


def host_leaving(state: QuestState, bunny: int, out: list[Effect]) -> None:
    """The bunny a roaming card waits on is leaving the circle (not by that card's attack)."""
    for r in [r for r in state.roamers if r.host == bunny]:
        if spec(state, r.card).carrier_death_ends:
            gone(state, r, "carrier_gone", out)
        else:
            move_on(state, r, bunny, True, out)


def recheck(state: QuestState, out: list[Effect]) -> None:
    """A roaming card whose bunny became non-viable (a Halo or Containment Suit placed under
    it) moves on to the next viable bunny."""
    for r in list(state.roamers):
        if r.host is not None and not viable(state, r.card, r.host):
            move_on(state, r, r.host, False, out)
