"""Roaming Red Runs (Cyber Bunny, the Ebola Virus) in play: where they wait, when they attack,
how they end (Quest §Roaming Red Run Cards, KBQ-ROAM-1..4; rulings R-KBQ-18).

A roaming card attacks the bunny it is first put on, then moves on to the next *viable*
bunny in its direction and waits on it (sharing its space), attacking again at the end of
each of its launcher's turns: once a round, starting the round after the launch. It can come
round to its launcher's own bunnies, and is discarded when no viable bunny is left. Viable
means a bunny the card could harm: the Halo makes a bunny non-viable, the Containment Suit
does so for the Ebola Virus, and the Ebola Virus never infects a bunny twice. When the bunny
it waits on leaves the circle, Cyber Bunny moves on and the Ebola Virus is gone
(docs/card-facts.md §1.7 R-Q13, R-Q14). The attack itself is an ordinary exposure
(``engine.killer.attack``); the card in play is a ``state.Roamer``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.killer.catalogue import effects as fx
from engine.killer.circle import BunnyCircle
from engine.killer_bunnies_quest import table
from engine.killer_bunnies_quest.catalogue import deck
from engine.killer_bunnies_quest.state import QuestState, Roamer
from engine.rules import Effect


def spec(state: QuestState, card: int) -> fx.Roam:
    return fx.expect(deck(state).effects(card)[0], fx.Roam)


def tags(state: QuestState, card: int) -> tuple[str, ...]:
    weapon = deck(state).card(card).weapon
    return tuple(weapon.tags) if weapon is not None else ()


def viable(state: QuestState, card: int, bunny: int) -> bool:
    return not table.shielded(state, bunny, "harm", tags(state, card))


def find(state: QuestState, card: int) -> Roamer | None:
    return next((r for r in state.roamers if r.card == card), None)


def gone(state: QuestState, r: Roamer, why: str, out: list[Effect]) -> None:
    """The roaming card leaves play for the discard pile (KBQ-ROAM-3)."""
    state.roamers.remove(r)
    table.to_discard(state, [r.card], out)
    out.append(Effect("KBQ-ROAM-3", "roaming_gone", {"card": r.card, "why": why}))


def move_on(state: QuestState, r: Roamer, after: int, leaving: bool,
            out: list[Effect]) -> None:
    """After an attack (or when its bunny leaves), on to the next viable bunny."""
    nxt = next_host(state.circle, r, after, lambda b: viable(state, r.card, b), leaving)
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


def attacks_now(roamer: Roamer, launcher_turn_ending: int) -> bool:
    """Does it attack at the end of the launcher's turn number ``launcher_turn_ending``?"""
    return roamer.host is not None and launcher_turn_ending > roamer.launched_turn


def next_host(circle: BunnyCircle, roamer: Roamer, after: int,
              viable: Callable[[int], bool], leaving: bool = False) -> int | None:
    """The next viable bunny from ``after`` in the roamer's direction, or None.

    ``after`` is the bunny it comes from (its last target, still in the circle);
    ``leaving`` says that bunny is about to leave the circle (it died), so it cannot be
    chosen again. A roamer that revisits may stay on the same bunny if it is the only
    viable one; one that does not never goes back to a bunny it has visited."""
    n = len(circle)
    if n == 0:
        return None
    for step in range(1, n + 1):
        candidate = circle.step(after, roamer.direction, step)
        if candidate == after and (leaving or not roamer.revisit):
            continue
        if not roamer.revisit and candidate in roamer.visited:
            continue
        if viable(candidate):
            return candidate
    return None
