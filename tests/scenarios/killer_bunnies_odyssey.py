"""Writing Odyssey games by hand: the fixtures, the tests and the dispute tables use it.

A :class:`Scenario` stacks each seat's draw pile (the cards it will deal and draw, in order),
plays the set-up, and then takes the players' actions in the dispute notation
(``flip play at=0``, ``bottom WB03``, ``roll 1 9``...), applying each to the game as it goes,
so a scenario that breaks a rule fails where it breaks it. ``illegal`` appends an event
without applying it (the illegal fixtures).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict, header_to_dict, seal


class Scenario:
    def __init__(self, players: Sequence[str], decks: Sequence[str], *, game_id: str = "odyssey-scenario",
                 options: dict[str, Any] | None = None, source: str = "simulated",
                 created: str = "2026-01-01T00:00:00Z") -> None:
        from engine.killer_bunnies_odyssey import RULESET

        self.rs = RULESET
        opts = {"decks": list(decks), **(options or {})}
        self.header = Header(warren=FORMAT_VERSION, kind="header", game_id=game_id,
                             ruleset=RULESET.slug, options=RULESET.record_options(opts),
                             players=[Player(seat=i, name=n) for i, n in enumerate(players)],
                             source=source, created=created)  # type: ignore[arg-type]
        RULESET.check_header(self.header)
        self.state = RULESET.setup(self.header)
        self.events: list[Event] = []

    # -- building blocks --------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.events) + 1

    def deck(self, seat: int) -> list[str]:
        from engine.killer_bunnies_odyssey.table import cards

        t = cards(self.state)
        return sorted(t.code(k) for k in t.seat_cards(seat))

    def order(self, seat: int, first: Sequence[str]) -> list[str]:
        """A shuffle of the seat's deck (or its draw pile now) with ``first`` on top, in
        order, and the rest after them in code order."""
        from engine.killer_bunnies_odyssey.table import cards

        t = cards(self.state)
        pile = [t.code(k) for k in self.state.seats[seat].draw]
        rest = Counter(pile)
        rest.subtract(first)
        if any(v < 0 for v in rest.values()):
            raise ValueError(f"seat {seat}'s pile does not hold {list(first)}")
        return [*first, *sorted(rest.elements())]

    def event(self, item: str | dict[str, Any], seat: int | None = None) -> Event:
        from engine.dispute import propose

        return propose(self.rs, self.state, item, n_seats=self.state.n, seat=seat)

    def act(self, item: str | dict[str, Any], seat: int | None = None) -> list[Any]:
        """Apply one action (notation or JSON) and keep it; returns its effects."""
        event = self.event(item, seat)
        effects = self.rs.apply(self.state, event)
        self.events.append(event)
        return list(effects)

    def many(self, *items: str | dict[str, Any]) -> None:
        for item in items:
            self.act(item)

    def illegal(self, item: str | dict[str, Any], seat: int | None = None) -> Event:
        """Append an event without applying it (it is to be refused)."""
        event = self.event(item, seat)
        self.events.append(event)
        return event

    def correct(self, seq: int, item: str | dict[str, Any] | None, reason: str) -> None:
        """Put event ``seq`` right (or strike it, with ``item`` None) by a correction, as a
        scorekeeper does; the game is then folded again as corrected (engine.corrections)."""
        fixed: dict[str, Any] | None = None
        if item is not None:
            saved, self.state = self.state, self._state_before(seq)
            try:
                fixed = msgspec.to_builtins(self.event(item))
            finally:
                self.state = saved
            assert fixed is not None
            for key in ("seq", "hash", "claims"):
                fixed.pop(key, None)
        self.act({"type": "correct", "actor": None, "corrects": seq, "reason": reason, "event": fixed})
        effective, problem = self.rs.effective(self.events)
        assert problem is None, problem
        self.state = self.rs.setup(self.header)
        self.rs.fold(self.state, effective)

    def _state_before(self, seq: int) -> Any:
        effective, _ = self.rs.effective(self.events[:seq - 1])
        state = self.rs.setup(self.header)
        self.rs.fold(state, effective)
        return state

    def shuffle(self, seat: int, first: Sequence[str] = (), unknown: bool = False) -> None:
        order = None if unknown else self.order(seat, first)
        self.act({"type": "shuffle", "actor": None, "seat": seat, "order": order})

    def roll(self, seat: int, face: int, die: str = "d12") -> list[Any]:
        return self.act({"type": "roll", "actor": None, "seat": seat, "face": face, "die": die})

    # -- the set-up -------------------------------------------------------------------------
    def setup(self, hands: Sequence[Sequence[str]], runs: Sequence[tuple[str, str]],
              draws: Sequence[Sequence[str]] = (), first: int = 0,
              refill: Sequence[Sequence[str]] = ()) -> None:
        """Every seat shuffles (its seven-card ``hands`` on top, then its ``draws``), deals,
        puts its ``runs`` down (and, under the seven-card reading, draws ``refill``); then the
        d12 makes ``first`` the first player."""
        n = self.state.n
        for seat in range(n):
            extra = list(refill[seat]) if refill else []
            more = list(draws[seat]) if draws else []
            self.shuffle(seat, [*hands[seat], *extra, *more])
            self.act("deal", seat)
            top, bottom = runs[seat]
            self.act(f"runs {top} {bottom}", seat)
            while self.state.setup_seat == seat and self.state.setup_step == "refill":
                self.act("draw", seat)
        for seat in range(n):
            self.roll(seat, 12 if seat == first else 1)

    # -- output -----------------------------------------------------------------------------
    def lines(self) -> list[bytes]:
        return seal(header_to_dict(self.header), [event_to_dict(e) for e in self.events])

    def record(self) -> bytes:
        return b"".join(self.lines())

    def as_json_events(self) -> list[dict[str, Any]]:
        out = []
        for e in self.events:
            body = msgspec.to_builtins(e)
            body.pop("seq", None)
            body.pop("hash", None)
            out.append(body)
        return out
