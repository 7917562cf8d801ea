"""A heuristic player for simulated games of Trust No Bunny.

It decides from its own seat's view only (views.py), never from the referee's state:
Townsfolk play just enough cards to hold the wolves, vote and pick teams by the
"who could it be?" analysis, bless players they trust and accuse once they are sure;
Werebunnies weaken when the blame would be shared or time runs short, defend a little
otherwise, and Sabotage at home.
"""

from __future__ import annotations

import math
import random
from itertools import combinations
from typing import Any

from engine.record import Event
from engine.trust_no_bunny.agenda import as_cards, sub_hands
from engine.trust_no_bunny.events import (
    Accuse,
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
from engine.trust_no_bunny.numbers import (
    CRYSTAL_BALL,
    FRENZY,
    GNAW,
    HORSESHOE,
    MEDALLION,
    MYSTICAL_RECIPE,
    QUIRKS,
    ROUNDS,
    SHIELD,
    SHIELD_POINTS,
    WOLF_LIMIT,
)
from engine.trust_no_bunny.suspects import SuspectReport, suspects_from_view
from engine.trust_no_bunny.views import view as seat_view

TOWN_ITEMS = (CRYSTAL_BALL, MEDALLION, MYSTICAL_RECIPE, HORSESHOE, SHIELD)
WEREBUNNY_ITEMS = (MYSTICAL_RECIPE, HORSESHOE, SHIELD, CRYSTAL_BALL, MEDALLION)


def _counts(cards: list[int]) -> list[int]:
    c = [0, 0, 0, 0, 0]
    for v in cards:
        c[v] += 1
    return c


def _risk(report: SuspectReport, team: list[int]) -> float:
    """Share of the consistent pairs that put a Werebunny on ``team``."""
    if not report.pairs:
        return 0.0
    members = set(team)
    return sum(1 for a, b in report.pairs if a in members or b in members) / len(report.pairs)


def cheapest_cover(hand: list[int], need: int) -> list[int]:
    """The fewest points (then fewest cards) reaching ``need``; the whole hand if none do."""
    if need <= 0:
        return []
    best: tuple[int, int, list[int]] | None = None
    for part in sub_hands(hand):
        points = part[1] + 2 * part[2] + 3 * part[3] + 4 * part[4]
        if points < need:
            continue
        key = (points, part[1] + part[2] + part[3] + part[4])
        if best is None or key < best[:2]:
            best = (*key, part)
    return as_cards(best[2]) if best else as_cards(hand)


class HeuristicBot:
    """Plays by simple rules of thumb from what its seat knows. The events it builds list
    cards lowest first, as ``legal_actions`` does, so they compare equal to a listed one."""

    name = "heuristic"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, ruleset: Any, state: Any, seat: int, actions: list[Event]) -> Event:
        choice = self.decide(state, seat)
        if choice in actions:
            return choice
        return self.rng.choice(actions)  # never expected; kept so a game always goes on

    def decide(self, state: Any, seat: int) -> Event:
        """The action this seat picks, from its own view of ``state``."""
        v = seat_view(state, seat)
        me = v["me"]
        phase = v["phase"]
        seq = v["seq"] + 1
        wb = me["role"] == "werebunny"
        if phase == "items":
            prefs = WEREBUNNY_ITEMS if wb else TOWN_ITEMS
            item = min(me["offers"], key=prefs.index)
            choice: Event = ChooseItem(seq=seq, actor=seat, item=item)
        elif phase == "muster":
            choice = self._muster(v, me, seat, seq, wb)
        elif phase == "proposal":
            choice = self._propose(v, me, seat, seq, wb)
        elif phase == "voting":
            choice = Vote(seq=seq, actor=seat, accept=self._accept(v, me, wb))
        elif phase == "night" and seat in v["on_guard"]:
            choice = self._guard(v, me, seat, seq, wb)
        else:
            choice = self._home(v, me, seat, seq, wb)
        return choice

    # -- the day ------------------------------------------------------------------------
    def _muster(self, v: dict[str, Any], me: dict[str, Any], seat: int, seq: int, wb: bool) -> Event:
        if not me["hand"]:
            return Ready(seq=seq, actor=seat)
        if wb:
            # Now and then a Werebunny accuses two Townsfolk, to look like one of them.
            if len(me["hand"]) >= 4 and self.rng.random() < 0.1:
                town = [s for s in range(v["players"]) if s not in (seat, me["partner"])]
                return Accuse(seq=seq, actor=seat, suspects=sorted(self.rng.sample(town, 2)))
            return Ready(seq=seq, actor=seat)
        report = suspects_from_view(v)
        if len(report.pairs) == 1:
            pair = list(report.pairs[0])
            if v["standing_accusations"][seat] != pair:
                return Accuse(seq=seq, actor=seat, suspects=pair)
        return Ready(seq=seq, actor=seat)

    def _propose(self, v: dict[str, Any], me: dict[str, Any], seat: int, seq: int, wb: bool) -> Event:
        n = v["players"]
        size = v["table"]["guards"][v["round"] - 1]
        if wb:
            # Look innocent: the players the table suspects least, and no second Werebunny.
            public = suspects_from_view({**v, "me": None})
            others = [s for s in range(n) if s not in (seat, me["partner"])]
        else:
            public = suspects_from_view(v)
            others = [s for s in range(n) if s != seat]
        self.rng.shuffle(others)
        others.sort(key=lambda s: public.probabilities[s])
        return Propose(seq=seq, actor=seat, team=sorted([seat, *others[:size - 1]]))

    def _accept(self, v: dict[str, Any], me: dict[str, Any], wb: bool) -> bool:
        team = v["team"]
        raise_by = len(team)
        rejection_ends = v["wolves"] + raise_by > WOLF_LIMIT
        if wb:
            if rejection_ends:
                return False
            return me["seat"] in team or me["partner"] in team
        rejected = sum(1 for p in v["proposals"] if p["round"] == v["round"])
        if rejection_ends or v["wolves"] + 3 * raise_by > WOLF_LIMIT or rejected >= 3:
            return True
        # Accept a team no riskier than a team picked blindly would be.
        report = suspects_from_view(v)
        risks = [_risk(report, list(t)) for t in combinations(range(v["players"]), len(team))]
        return _risk(report, team) <= sum(risks) / len(risks) + 0.02

    # -- the night ----------------------------------------------------------------------
    def _guard(self, v: dict[str, Any], me: dict[str, Any], seat: int, seq: int, wb: bool) -> Event:
        hand = _counts(me["hand"])
        guards = v["on_guard"]
        wolves = v["wolves"]
        if not wb:
            report = suspects_from_view(v)
            suspected = sum(report.probabilities[s] for s in guards if s != seat)
            trusted = max(1.0, len(guards) - suspected)
            # Once the Tower is under attack every point counts: expect a Werebunny on
            # guard to weaken hard.
            tower_open = v["wall"] == 0 and v["wall_fell"] is not None and v["wall_fell"] < v["round"]
            expected = 6 if tower_open or v["wall"] <= 3 else 3
            need = math.ceil((wolves + expected * suspected) / trusted)
            if me["item"] == SHIELD and not me["item_lost"]:
                need -= SHIELD_POINTS
            return Guard(seq=seq, actor=seat, defend=cheapest_cover(hand, need))
        # A Werebunny: hitting a Wall that cannot matter any more (it stands after the
        # fourth night) or a Tower that cannot be hit tonight gains nothing but suspicion.
        tower_open = v["wall"] == 0 and v["wall_fell"] is not None and v["wall_fell"] < v["round"]
        target = v["tower"] if tower_open else v["wall"]
        hopeless = not tower_open and v["round"] >= ROUNDS
        partner_on_guard = me["partner"] in guards
        safe = (len(guards) >= 3 and not partner_on_guard) or v["round"] >= ROUNDS - 1 or target <= 3
        if safe and not hopeless and me["hand"]:
            # Enough to break through what the town is likely to play, no more.
            frenzy = me["mutation"] == FRENZY
            want = target + (0 if v["round"] >= ROUNDS - 1 else 1)
            cards = sorted(me["hand"], reverse=True)
            weaken: list[int] = []
            while cards and sum(weaken) + (len(weaken) if frenzy else 0) < want:
                weaken.append(cards.pop(0))
            return Guard(seq=seq, actor=seat, weaken=sorted(weaken))
        # Not safe: defend a little, to be trusted.
        share = math.ceil(wolves / max(1, len(guards))) // 2
        return Guard(seq=seq, actor=seat, defend=cheapest_cover(hand, share))

    def _home(self, v: dict[str, Any], me: dict[str, Any], seat: int, seq: int, wb: bool) -> Event:
        n = v["players"]
        guards = set(v["on_guard"])
        home = [s for s in range(n) if s not in guards and s != seat]
        gnaw: list[int] = []
        if wb and me["mutation"] == GNAW and me["hand"] and v["round"] >= 3:
            gnaw = sorted(sorted(me["hand"], reverse=True)[:2])
        item_ready = not me["item_lost"] and not me["item_used"]
        if me["item"] == MYSTICAL_RECIPE and item_ready:
            return Brew(seq=seq, actor=seat, gnaw=gnaw)
        if wb:
            town = [s for s in range(n) if s not in (seat, me["partner"])]
            return Sabotage(seq=seq, actor=seat, target=self.rng.choice(town),
                            quirk=self.rng.choice(QUIRKS), gnaw=gnaw)
        report = suspects_from_view(v)
        probs = report.probabilities
        if me["item"] == CRYSTAL_BALL and item_ready:
            unsure = [s for s in range(n) if s != seat and 0.0 < probs[s] < 1.0]
            if unsure:
                return Gaze(seq=seq, actor=seat, target=max(unsure, key=lambda s: probs[s]))
        trusted = [s for s in home if probs[s] < 0.2]
        if trusted:
            return Bless(seq=seq, actor=seat, target=min(trusted, key=lambda s: probs[s]))
        if not home and not guards:
            return Rest(seq=seq, actor=seat)
        damage = v["wolves"] > 3 * max(1, len(guards))
        return Predict(seq=seq, actor=seat, damage=damage)
