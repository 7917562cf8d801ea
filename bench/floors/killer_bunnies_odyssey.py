"""The bare floor for benchmarks: the same Odyssey events folded into a mutable state with no
rule checks, no effects, no unknown cards and no history: only the bookkeeping the outcome
needs (cards moving between piles, hands, run positions and the two circles, Resources used,
Civ points, dice settling attacks, deadlines, turns).

Checked replay (``Ruleset.fold``) is compared with this on the same events (target: within
10x); see docs/performance.md. Nothing in warren replays games with it, and it trusts every
event it is given.
"""

from __future__ import annotations

from typing import Any

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_odyssey.library import Table, table_for
from engine.killer_bunnies_odyssey.options import OdysseyOptions
from engine.record import Event, Header


def _take(cards: list[int], card: int) -> None:
    """Take a card out if it is there (the floor trusts the record and never refuses)."""
    if card in cards:
        cards.remove(card)


class _Seat:
    __slots__ = ("bottom", "civ", "discard", "draw", "hand", "saved", "top", "turns")

    def __init__(self, draw: list[int]) -> None:
        self.draw = draw
        self.hand: list[int] = []
        self.discard: list[int] = []
        self.saved: list[list[int]] = []
        """[piece, kind, used] per saved card."""
        self.top: int | None = None
        self.bottom: int | None = None
        self.civ = 10
        self.turns = 0


class Bare:
    __slots__ = ("active", "center", "circle", "demands", "first", "n", "next_piece", "opts",
                 "over", "phase", "pieces", "rolls", "seats", "strike", "t")

    def __init__(self, header: Header, opts: OdysseyOptions) -> None:
        self.t: Table = table_for(opts)
        self.opts = opts
        self.n = len(header.players)
        self.seats = [_Seat(self.t.seat_cards(s)) for s in range(self.n)]
        self.pieces: dict[int, list[int]] = {}
        """piece -> [kind, owner]"""
        self.circle: list[int] = []
        self.center: dict[int, list[int]] = {}
        """city piece -> its occupants"""
        self.demands: dict[int, tuple[int, int, int, int]] = {}
        """feed piece -> (creature, owner, due turn, placed by)"""
        self.next_piece = 1
        self.strike: list[Any] | None = None
        self.rolls: dict[int, int] = {}
        self.active = 0
        self.first = 0
        self.phase = "setup"
        self.over = False

    # -- helpers ------------------------------------------------------------------------------
    def draw(self, seat: int) -> None:
        s = self.seats[seat]
        if s.draw:
            s.hand.append(s.draw.pop())
        elif self.opts.empty_pile == "reshuffle" and s.discard:
            s.draw, s.discard = s.discard, []

    def pay(self, seat: int, kind: int) -> None:
        need = sum(self.t.cost[kind].values())
        for entry in self.seats[seat].saved:
            if need == 0:
                break
            if self.t.resource[entry[1]] is not None and not entry[2]:
                entry[2] = 1
                need -= 1

    def kill(self, pid: int, by: int | None) -> None:
        kind, owner = self.pieces.pop(pid)
        points = self.t.points[kind]
        if pid in self.circle:
            self.circle.remove(pid)
        for city in self.center.values():
            if pid in city:
                city.remove(pid)
        occupants = self.center.pop(pid, [])
        for o in occupants:
            points += self.t.points[self.pieces.pop(o)[0]]
        self.seats[owner].discard.append(kind)
        if by is not None and by != owner:
            self.seats[by].civ = min(20, self.seats[by].civ + points)

    def play(self, seat: int, kind: int, ev: Any) -> None:
        self.pay(seat, kind)
        stays = False
        for effect in self.t.effects[kind]:
            if isinstance(effect, fx.EnterCircle):
                pid = self._new(kind, seat)
                if ev.into is not None and ev.into in self.center:
                    self.center[ev.into].append(pid)
                else:
                    self.circle.insert(len(self.circle) if ev.at is None else ev.at, pid)
                stays = True
            elif isinstance(effect, fx.Build):
                self.center[self._new(kind, seat)] = []
                stays = True
            elif isinstance(effect, fx.Attach | fx.Feed):
                pid = self._new(kind, seat)
                if isinstance(effect, fx.Feed) and ev.target in self.pieces:
                    owner = self.pieces[ev.target][1]
                    self.demands[pid] = (ev.target, owner, self.seats[owner].turns + 1, seat)
                stays = True
            elif isinstance(effect, fx.Attack | fx.Raze):
                targets = [ev.target]
                if isinstance(effect, fx.Attack) and not isinstance(effect.area, fx.Single) \
                        and ev.target in self.circle and len(self.circle) > 1:
                    i = self.circle.index(ev.target)
                    targets += list(dict.fromkeys([self.circle[(i + 1) % len(self.circle)],
                                                   self.circle[(i - 1) % len(self.circle)]]))
                self.strike = [kind, seat, targets, effect.level]
                return
            elif isinstance(effect, fx.RollBands):
                self.strike = [kind, seat, [], 0]
                return
            elif isinstance(effect, fx.GainCiv):
                who = [ev.opponent] if ev.opponent is not None else [seat]
                for w in who:
                    self.seats[w].civ = max(1, min(20, self.seats[w].civ + effect.amount))
            elif isinstance(effect, fx.Steal) and ev.target in self.pieces:
                self.pieces[ev.target][1] = seat
            elif isinstance(effect, fx.PickFromHand | fx.Inspect) and ev.picked is not None:
                victim = self.seats[ev.opponent]
                k = self.t.kind[ev.picked]
                if k in victim.hand:
                    victim.hand.remove(k)
                    victim.discard.append(k)
            elif isinstance(effect, fx.Recycle):
                s = self.seats[seat]
                moved = s.discard[-effect.count:]
                del s.discard[-len(moved):]
                s.draw.extend(moved)
            elif isinstance(effect, fx.Revive) and ev.chosen is not None:
                k = self.t.kind[ev.chosen]
                _take(self.seats[seat].discard, k)
                self.circle.append(self._new(k, seat))
            elif isinstance(effect, fx.Cancel):
                if ev.target is None:
                    self.strike = None
                else:
                    self.demands.pop(ev.target, None)
            elif isinstance(effect, fx.SettleFeed):
                for d in [d for d, v in self.demands.items() if v[0] == ev.target]:
                    del self.demands[d]
        if not stays:
            self.seats[seat].discard.append(kind)

    def _new(self, kind: int, owner: int) -> int:
        pid = self.next_piece
        self.next_piece += 1
        self.pieces[pid] = [kind, owner]
        return pid

    def check_end(self) -> None:
        """The totals, and the end at 60: the bookkeeping the outcome needs."""
        points = self.t.points
        totals = [s.civ for s in self.seats]
        for pid in self.circle:
            kind, owner = self.pieces[pid]
            totals[owner] += points[kind]
        for pid, inside in self.center.items():
            kind, owner = self.pieces[pid]
            totals[owner] += points[kind] + sum(points[self.pieces[o][0]] for o in inside)
        if max(totals) >= 60:
            self.over = True

    def end_turn(self) -> None:
        seat = self.active
        turns = self.seats[seat].turns
        for d, (creature, owner, due, by) in list(self.demands.items()):
            if owner == seat and due <= turns:
                del self.demands[d]
                if creature in self.pieces:
                    self.kill(creature, by)
        self.active = (seat + 1) % self.n
        if self.active == self.first:
            for s in self.seats:
                for entry in s.saved:
                    entry[2] = 0
        self.seats[self.active].turns += 1

    # -- events ---------------------------------------------------------------------------------
    def apply(self, ev: Any) -> None:
        tag = ev.__struct_config__.tag
        t = self.t
        if tag == "shuffle":
            if ev.order is not None:
                self.seats[ev.seat].draw = [t.kind[c] for c in reversed(ev.order)]
        elif tag == "cut":
            pile = self.seats[ev.seat].draw
            if 0 < ev.depth < len(pile):
                pile[:] = pile[-ev.depth:] + pile[:-ev.depth]
        elif tag == "deal":
            for _ in range(7):
                self.draw(ev.actor)
        elif tag == "mulligan":
            s = self.seats[ev.actor]
            s.draw.extend(s.hand)
            s.hand = []
            s.civ = 5
        elif tag == "runs":
            s = self.seats[ev.actor]
            s.top, s.bottom = t.kind[ev.top], t.kind[ev.bottom]
            _take(s.hand, s.top)
            _take(s.hand, s.bottom)
        elif tag in ("draw", "overdraw"):
            self.draw(ev.actor)
        elif tag == "roll":
            self._roll(ev)
            self.check_end()
        elif tag == "flip":
            s = self.seats[ev.actor]
            kind = s.top or 0
            s.top, s.bottom = s.bottom, None
            self.draw(ev.actor)
            if ev.how == "save":
                s.saved.append([self._new(kind, ev.actor), kind, 0])
            elif ev.how == "discard":
                s.discard.append(kind)
            else:
                self.play(ev.actor, kind, ev)
                self.check_end()
        elif tag == "play":
            s = self.seats[ev.actor]
            kind = t.kind[ev.card]
            _take(s.hand, kind)
            self.draw(ev.actor)
            self.play(ev.actor, kind, ev)
            self.check_end()
            if t.type[kind] == "special" and self.strike is None:
                self.end_turn()
        elif tag == "use":
            s = self.seats[ev.actor]
            entry = next((e for e in s.saved if e[0] == ev.piece), None)
            if entry is not None:
                s.saved.remove(entry)
                self.play(ev.actor, entry[1], ev)
                self.check_end()
        elif tag == "discard":
            s = self.seats[ev.actor]
            kind = t.kind[ev.card]
            _take(s.hand, kind)
            s.discard.append(kind)
            self.draw(ev.actor)
            self.end_turn()
        elif tag == "bottom":
            s = self.seats[ev.actor]
            kind = t.kind[ev.card]
            _take(s.hand, kind)
            s.bottom = kind
            self.end_turn()
        elif tag == "pass":
            self.end_turn()
        elif tag == "feed":
            self.demands.pop(ev.demand, None)
        elif tag == "hexascrewup":
            s = self.seats[ev.against]
            kind = t.kind[ev.card]
            if kind in s.hand:
                s.hand.remove(kind)
                s.discard.append(kind)
            s.civ = max(1, s.civ - 5)
        elif tag == "trade":
            for pid in ev.give:
                if pid in self.pieces:
                    self.pieces[pid][1] = ev.partner

    def _roll(self, ev: Any) -> None:
        if self.phase == "setup":
            self.rolls[ev.seat] = ev.face
            if len(self.rolls) == self.n:
                best = max(self.rolls.values())
                tied = [s for s, f in self.rolls.items() if f == best]
                self.rolls = {}
                if len(tied) == 1:
                    self.first = self.active = tied[0]
                    self.phase = "play"
                    self.seats[self.active].turns += 1
            return
        strike = self.strike
        if strike is None:
            return
        kind, player, targets, level = strike
        if not targets:
            self.strike = None
            self.seats[player].discard.append(kind)
            return
        target = targets.pop(0)
        if ev.face <= level and target in self.pieces:
            self.kill(target, player)
        if not targets:
            self.strike = None
            self.seats[player].discard.append(kind)


def bare_fold(header: Header, events: list[Event], opts: OdysseyOptions) -> Bare:
    """Fold ``events`` without checking them (the benchmark's floor)."""
    state = Bare(header, opts)
    apply = state.apply
    for event in events:
        apply(event)
    return state
