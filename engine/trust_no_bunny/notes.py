"""Each seat's private notes (its plays and what it was told), worked out when a view asks.

The rules never read a note: only the views (``me.notes``), the suspects analysis (which
reads the views) and the redaction of a night's stage (what a seat was told) do. So the
fold does not write them. It keeps the bare facts they come from, in the state (so a
snapshot holds them and a resumed game shows the same notes):

* ``night_plays``: every resolved night's actions, seat by seat, as the events played (a
  guard's timer expiry is the Guard or Rest it stood for, TNB-TIME-4/5);
* ``draws``: the cards each seat drew at each dawn;
* ``losses``: each card an accusation cost (round, seat, card; TNB-ACC-3).

Everything else a note says follows from those and from what the state holds for the whole
game: Items, Mutations, Quirks and roles are dealt before the first night and never change
in a game that records everything, an Item is lost at the dawn after a right Sabotage
(TNB-ITEM-9), and whether a night did damage is in its public record (``nights``).

A game recorded at the table that leaves something unknown writes its notes as they come
from the first unknown on (``written_notes``, unknowns_night.py, unknowns.py): everything the
facts above hold happened before, so those notes follow them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.trust_no_bunny.events import Bless, Brew, Gaze, Guard, Predict, Sabotage
from engine.trust_no_bunny.numbers import (
    BREW_CARDS,
    FRENZY,
    FRENZY_BONUS,
    MEDALLION,
    SHIELD,
    SHIELD_POINTS,
    STEALTH,
)

if TYPE_CHECKING:  # the state reads its notes from here (TnbState.notes)
    from engine.trust_no_bunny.state import TnbState

Note = dict[str, Any]


def all_notes(state: TnbState) -> list[list[Note]]:
    """Every seat's notes, oldest first, as the fold would have written them."""
    n = state.n
    notes: list[list[Note]] = [[] for _ in range(n)]
    losses = state.losses
    draws = state.draws
    lost = [False] * n  # Items lost so far (TNB-ITEM-9), night by night
    written_at: list[int] | None = None
    i = 0
    for k, plays in enumerate(state.night_plays, start=1):
        while i < len(losses) and losses[i][0] <= k:
            _lost_card(notes, losses[i])
            i += 1
        gone = [] if plays is None else _night(state, k, plays, lost, notes)
        drawn = draws[k - 1] if k <= len(draws) else []
        if plays is None:
            written_at = [len(seat) for seat in notes]
            lost = _lost_before(state, k)
        if drawn is None:
            written_at = [len(seat) for seat in notes]
        elif drawn:
            _drew(notes, k, drawn)
        for target in gone:
            lost[target] = True  # at the end of the night (TNB-ITEM-9)
    while i < len(losses):
        _lost_card(notes, losses[i])
        i += 1
    for seat, written in enumerate(state.written_notes):
        if written_at is None:
            notes[seat].extend(written)
        else:
            # A world made whole (worlds.py): the written notes are its past, its own nights
            # come after them.
            notes[seat][written_at[seat]:written_at[seat]] = written
    return notes


def _lost_before(state: TnbState, night: int) -> list[bool]:
    """Items lost by the end of ``night``, a night whose notes were written as they came: the
    Items lost now, but for those a later night's right Sabotage took (TNB-ITEM-9)."""
    later: set[int] = set()
    for plays in state.night_plays[night:]:
        for play in plays or ():
            if type(play) is Sabotage and state.quirks[play.target] == play.quirk:
                later.add(play.target)
    return [state.item_lost[s] and s not in later for s in range(state.n)]


def seat_notes(state: TnbState, seat: int) -> list[Note]:
    """``seat``'s notes, oldest first."""
    return all_notes(state)[seat]


def _lost_card(notes: list[list[Note]], loss: tuple[int, int, int]) -> None:
    round_, seat, card = loss
    notes[seat].append({"round": round_, "kind": "lost_card", "card": card})


def _drew(notes: list[list[Note]], night: int, cards: list[list[int]]) -> None:
    for seat, c in enumerate(cards):
        if c:
            notes[seat].append({"night": night, "kind": "drew", "cards": sorted(c)})


def _night(state: TnbState, night: int, plays: list[Any], lost: list[bool],
           notes: list[list[Note]]) -> list[int]:
    """The notes of one night's stage, in the order the stage tells them (night.resolve);
    returns the seats whose Item a right Sabotage takes at dawn."""
    n = state.n
    items, mutations, quirks = state.items, state.mutations, state.quirks
    seat_defend = [0] * n
    seat_weaken = [0] * n
    weaken = 0
    sabotages: list[tuple[int, int, str, bool]] = []
    for s in range(n):
        play = plays[s]
        if type(play) is Guard:
            d = sum(play.defend)
            if d and items[s] == SHIELD and not lost[s]:
                d += SHIELD_POINTS  # TNB-ITEM-7
            w = sum(play.weaken)
            if w and mutations[s] == FRENZY:
                w += FRENZY_BONUS * len(play.weaken)  # TNB-MUT-2
            seat_defend[s] = d
            seat_weaken[s] = w
            weaken += w
        elif type(play) is Sabotage:
            sabotages.append((s, play.target, play.quirk, quirks[play.target] == play.quirk))
    public = state.nights[night - 1]
    damaged = public["wall_damage"] + public["tower_damage"] > 0
    gone: list[int] = []
    successes = 0
    for saboteur, target, quirk, right in sabotages:
        notes[saboteur].append({"night": night, "kind": "sabotage", "target": target,
                                "quirk": quirk, "right": right})
        if right:
            successes += 1
            if target not in gone:
                gone.append(target)
            if mutations[saboteur] != STEALTH:
                # TNB-SAB-3: the target is told (not under Stealth, TNB-MUT-3).
                notes[target].append({"night": night, "kind": "sabotaged",
                                      "item": None if lost[target] else items[target]})
    if successes:
        for wb in state.werebunnies or ():
            notes[wb].append({"night": night, "kind": "sabotage_cards", "cards": successes})
    is_werebunny = state.is_werebunny
    for s in range(n):
        play = plays[s]
        kind = type(play)
        if kind is Guard:
            notes[s].append({"night": night, "kind": "guarded", "defend": list(play.defend),
                             "weaken": list(play.weaken), "defended": seat_defend[s],
                             "weakened": seat_weaken[s]})
            if items[s] == MEDALLION and not lost[s]:
                # TNB-ITEM-8: the weakening points the other guards played.
                notes[s].append({"night": night, "kind": "medallion",
                                 "weakened_by_others": weaken - seat_weaken[s]})
            continue
        if play.gnaw:
            notes[s].append({"night": night, "kind": "gnawed", "cards": list(play.gnaw)})
        if kind is Bless:
            notes[s].append({"night": night, "kind": "blessed", "target": play.target})
            notes[play.target].append({"night": night, "kind": "blessed_by", "seat": s})
        elif kind is Predict:
            notes[s].append({"night": night, "kind": "predicted", "damage": play.damage,
                             "right": play.damage == damaged})  # TNB-HOME-3
        elif kind is Gaze:
            notes[s].append({"night": night, "kind": "gaze", "target": play.target,
                             "werebunny": is_werebunny[play.target]})  # TNB-ITEM-4
        elif kind is Brew:
            notes[s].append({"night": night, "kind": "brewed", "cards": BREW_CARDS})  # TNB-ITEM-5
    return gone
