"""Who could the Werebunnies be? The pairs a perspective cannot rule out, and each
player's chance of being a Werebunny.

The analysis reads a *view* (views.py), never the state itself, so it can only use what
that perspective knows. Model: **uniform over consistent pairs**. Every pair of seats that
no known fact rules out is taken as equally likely, and a player's probability is the
share of those pairs that contain it. Nothing else is weighted: not votes, not proposals,
not accusations (what players say is not evidence under the rules), not how much a
player probably holds. The facts used (docs/rulings.md, R-TNB-21):

* A Townsfolk seat is not a Werebunny; a Werebunny knows its partner; the end of the
  game reveals both.
* A night where more wolves got through than attacked plus the points gnawed had a
  weakening card played at the Tower, so a Werebunny was among its guards (TNB-RES-1).
* A night with gnawed points had the Gnaw Werebunny at home (TNB-MUT-1).
* A Townsfolk guard also knows its own defending points: if the wolves that got through
  exceed what its own cards leave unexplained, one of the *other* guards weakened.
* The Medallion reporting weakening points means a Werebunny among the other guards
  (TNB-ITEM-8); the Crystal Ball says outright whether a player is one (TNB-ITEM-4).
* Being told of a Sabotage means a Werebunny other than oneself was at home that night
  (TNB-SAB-3).
* A pair that everybody outside it accused without ending the game is not the pair
  (TNB-ACC-4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from engine.capabilities import Perspective, SuspectReport
from engine.wording import and_list

__all__ = ["MODEL", "SuspectReport", "suspects", "suspects_from_view"]

MODEL = "uniform over consistent pairs"


def suspects(state: Any, perspective: Perspective, names: Sequence[str] | None = None) -> SuspectReport:
    """The analysis for ``perspective`` (a seat, ``"spectator"`` or ``"referee"``); its
    deductions name the players by ``names`` (by seat number without them)."""
    from engine.trust_no_bunny.views import view

    return suspects_from_view(view(state, perspective), names)


def suspects_from_view(view: dict[str, Any], names: Sequence[str] | None = None) -> SuspectReport:
    """The analysis from a view alone (see the module docstring for the model)."""
    who = _namer(names)
    n: int = view["players"]
    perspective = view["perspective"]
    seats = range(n)
    everyone = frozenset(seats)
    known = _known_pair(view)
    if known is not None:
        return _report(perspective, n, [known], ["the Werebunnies are known to this perspective"])
    # Each requirement: (seats of which the pair must hold at least one, why).
    need: list[tuple[frozenset[int], str]] = []
    excluded: set[int] = set()
    ruled_out_pairs: set[tuple[int, int]] = {(p[0], p[1]) for p in view.get("refuted_pairs") or ()}
    deductions: list[str] = []
    if ruled_out_pairs:
        deductions.append("pairs everybody else accused without ending the game: "
                          + ", ".join(f"{who(a)} and {who(b)}" for a, b in sorted(ruled_out_pairs)))
    for seat in view.get("seats") or ():
        # A record of a game played at the table knows some roles and not others.
        if seat.get("role") == "townsfolk":
            excluded.add(seat["seat"])
            deductions.append(f"{who(seat['seat'])} is Townsfolk (the record knows it)")
        elif seat.get("role") == "werebunny":
            known = seat["seat"]
            need.append((frozenset({known}), f"{who(known)} is a Werebunny (the record knows it)"))
    me = view.get("me") or {}
    my_seat = me.get("seat")
    townsfolk = me.get("role") == "townsfolk"
    if townsfolk and my_seat is not None:
        excluded.add(my_seat)
        deductions.append(f"{who(my_seat)} is Townsfolk (own role)")
    guards_of: dict[int, frozenset[int]] = {}
    own_defence: dict[int, int] = {}
    for note in me.get("notes") or ():
        if note.get("kind") == "guarded":
            own_defence[note["night"]] = note["defended"]
    for night in view.get("nights") or ():
        k = night["night"]
        guards = frozenset(night["guards"])
        guards_of[k] = guards
        home = everyone - guards
        wolves, gnawed, through = night["wolves"], night["gnawed"], night["unblocked"]
        if gnawed > 0:
            need.append((home, f"night {k}: {gnawed} points gnawed from home, so a Werebunny was "
                               f"at home ({_seats(home, who)})"))
        if townsfolk and my_seat in guards and k in own_defence:
            others = guards - {my_seat}
            if through > 0 and through - wolves - gnawed + own_defence[k] > 0:
                need.append((others, f"night {k}: {through} wolves got through against {wolves} "
                                     f"with {own_defence[k]} of my own points, so another guard "
                                     f"weakened ({_seats(others, who)})"))
                continue
        if through > wolves + gnawed:
            need.append((guards, f"night {k}: {through} wolves got through against {wolves} "
                                 f"attacking, so a guard weakened ({_seats(guards, who)})"))
    if townsfolk:
        for note in me.get("notes") or ():
            kind = note.get("kind")
            k = note.get("night")
            if kind == "medallion" and note["weakened_by_others"] > 0 and k in guards_of:
                others = guards_of[k] - {my_seat}
                need.append((others, f"night {k}: the Medallion counted {note['weakened_by_others']} "
                                     f"weakening points from {_seats(others, who)}"))
            elif kind == "gaze":
                target = note["target"]
                if note["werebunny"]:
                    need.append((frozenset({target}), f"night {k}: the Crystal Ball shows "
                                                      f"{who(target)} is a Werebunny"))
                else:
                    excluded.add(target)
                    deductions.append(f"night {k}: the Crystal Ball shows {who(target)} is Townsfolk")
            elif kind == "sabotaged" and k in guards_of:
                home = everyone - guards_of[k] - {my_seat}
                need.append((home, f"night {k}: sabotaged, so a Werebunny was at home "
                                   f"({_seats(home, who)})"))
    deductions.extend(why for _, why in need)
    pairs = [
        (a, b) for a, b in combinations(seats, 2)
        if a not in excluded and b not in excluded and (a, b) not in ruled_out_pairs
        and all(a in group or b in group for group, _ in need)
    ]
    return _report(perspective, n, pairs, deductions)


def _known_pair(view: dict[str, Any]) -> tuple[int, int] | None:
    reveal = view.get("reveal")
    if reveal and len(reveal.get("werebunnies") or ()) == 2:
        a, b = sorted(reveal["werebunnies"])
        return a, b
    if "seats" in view:
        wbs = [s["seat"] for s in view["seats"] if s["role"] == "werebunny"]
        if len(wbs) == 2:
            return wbs[0], wbs[1]
    me = view.get("me") or {}
    if me.get("role") == "werebunny" and me.get("partner") is not None:
        a, b = sorted((me["seat"], me["partner"]))
        return a, b
    return None


def _report(perspective: Perspective, n: int, pairs: list[tuple[int, int]],
            deductions: list[str]) -> SuspectReport:
    counts = [0] * n
    for a, b in pairs:
        counts[a] += 1
        counts[b] += 1
    total = len(pairs)
    probabilities = {s: (counts[s] / total if total else 0.0) for s in range(n)}
    return SuspectReport(perspective, pairs, probabilities, MODEL, deductions)


def _namer(names: Sequence[str] | None) -> Callable[[int], str]:
    """A seat as a sentence names it: its player's name (``seat 3`` without names)."""
    if names is None:
        return lambda seat: f"seat {seat}"
    return lambda seat: names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _seats(group: frozenset[int], who: Callable[[int], str]) -> str:
    """A group of which at least one is meant: ``one of Ann, Bob and Cy``."""
    said = [who(s) for s in sorted(group)]
    return said[0] if len(said) == 1 else "one of " + and_list(said)
