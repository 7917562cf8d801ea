"""Games of Quest written by hand: the hand-made fixtures and the rule tests.

A :class:`Scenario` arranges the set-up's shuffles so that each seat is dealt the cards it
is given and later draws come in the order given, then records events one by one through
the rules (an illegal event raises). Everything it writes is an ordinary record.

``hands[s]`` lists seat ``s``'s seven cards: the first two become its top and bottom run
cards, the other five its hand. ``money[s]`` lists Dolla cards dealt to it (they go face up
and are replaced, as in any deal). ``draws`` are the cards drawn after the deal, in order.
Seats without a hand get filler cards (weapons and the like, nothing that plays itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.killer_bunnies_quest import RULESET
from engine.killer_bunnies_quest import table as quest_table
from engine.killer_bunnies_quest.events import (
    Bid,
    Bottom,
    Buy,
    Choose,
    Discard,
    EndTurn,
    Feed,
    Flip,
    Pass,
    Play,
    Roll,
    Runs,
    Save,
    Setup,
    Stake,
    Starve,
    Trade,
)
from engine.killer_bunnies_quest.numbers import DEAL
from engine.killer_bunnies_quest.state import QuestState
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict, header_to_dict, seal
from engine.rules import Effect

CREATED = "2026-12-01T12:00:00Z"


class Scenario:
    def __init__(self, players: int = 3, *, game_id: str = "quest-scenario",
                 options: dict[str, Any] | None = None,
                 hands: dict[int, Sequence[int]] | None = None,
                 money: dict[int, Sequence[int]] | None = None,
                 draws: Sequence[int] = (), first: int = 0,
                 magic: Sequence[int] | None = None,
                 cabbage: Sequence[int] | None = None, water: Sequence[int] | None = None,
                 gifts: Sequence[Sequence[int]] = (), removed: Sequence[int] = (),
                 lay: bool = True, names: Sequence[str] | None = None) -> None:
        opts = RULESET.record_options(dict(options or {}))
        self.header = Header(
            warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset=RULESET.slug,
            options=opts,
            players=[Player(seat=s, name=(names[s] if names else f"player-{s}"))
                     for s in range(players)],
            source="recorded", created=CREATED)
        RULESET.check_header(self.header)
        self.state: QuestState = RULESET.setup(self.header)
        self.events: list[Event] = []
        self.effects: list[tuple[Effect, ...]] = []
        d = quest_table.deck(self.state)
        dealt: dict[int, list[int]] = {s: list(h) for s, h in (hands or {}).items()}
        money = {s: list(m) for s, m in (money or {}).items()}
        late = set(self.state.opts.late)
        seats = [s for s in range(players) if s not in late]
        order_seats = [(first + k) % players for k in range(players)
                       if (first + k) % players in seats]
        used = {c for h in dealt.values() for c in h} | {c for m in money.values() for c in m} \
            | set(draws) | set(removed)
        filler = [c for c in d.catalogue.draw_pile()
                  if c not in used and d.type[c] not in ("money", "play_immediately")
                  and d.bunny.get(c) is None and d.card(c).modifier is None]
        filler.sort(key=lambda c: (d.weapon_level.get(c) is None, c))
        for s in seats:
            while len(dealt.setdefault(s, [])) < DEAL:
                dealt[s].append(filler.pop(0))
        top_first: list[int] = []
        for r in range(DEAL):
            for s in order_seats:
                if r == 0:
                    top_first.extend(money.get(s, []))
                top_first.append(dealt[s][r])
        top_first.extend(draws)
        taken = set(top_first) | set(removed)
        rest = [c for c in d.catalogue.draw_pile() if c not in taken]
        rest.sort(key=lambda c: (d.type[c] in ("money", "play_immediately"), c))
        draw = top_first + rest
        self.chance(Setup(seq=0, actor=None, draw=draw,
                          cabbage=list(cabbage) if cabbage else sorted(d.catalogue.numbers("cabbage")),
                          water=list(water) if water else sorted(d.catalogue.numbers("water")),
                          carrots=list(magic) if magic else sorted(d.catalogue.numbers("magic_carrot")),
                          first=first, gifts=[list(x) for x in gifts], removed=list(removed)))
        if lay:
            for s in seats:
                self.act(Runs, s, top=dealt[s][0], bottom=dealt[s][1])

    # -- recording -----------------------------------------------------------------------------
    def apply(self, event: Event) -> tuple[Effect, ...]:
        event = msgspec.structs.replace(event, seq=self.state.seq + 1)
        effects = RULESET.apply(self.state, event)
        self.events.append(event)
        self.effects.append(effects)
        return effects

    def chance(self, event: Event) -> tuple[Effect, ...]:
        return self.apply(event)

    def act(self, kind: type[Event], seat: int | None, **fields: Any) -> tuple[Effect, ...]:
        return self.apply(kind(seq=0, actor=seat, **fields))

    def trial(self, kind: type[Event], seat: int | None, **fields: Any) -> tuple[Effect, ...]:
        """Apply an event to a copy: the scenario goes on from where it was."""
        copy = RULESET.copy_state(self.state)
        return RULESET.apply(copy, kind(seq=self.state.seq + 1, actor=seat, **fields))

    def event(self, kind: type[Event], seat: int | None, **fields: Any) -> Event:
        return kind(seq=self.state.seq + 1, actor=seat, **fields)

    # -- shorthands ------------------------------------------------------------------------------
    def flip(self, seat: int) -> tuple[Effect, ...]:
        return self.act(Flip, seat)

    def play(self, seat: int, card: int, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Play, seat, card=card, **fields)

    def discard(self, seat: int, card: int) -> tuple[Effect, ...]:
        return self.act(Discard, seat, card=card)

    def save(self, seat: int, card: int) -> tuple[Effect, ...]:
        return self.act(Save, seat, card=card)

    def bottom(self, seat: int, card: int | None = None) -> tuple[Effect, ...]:
        """Lay the new bottom run card (the last card drawn, by default)."""
        if card is None:
            card = self.state.seats[seat].hand[-1]
        return self.act(Bottom, seat, card=card)

    def roll(self, *faces: int) -> tuple[Effect, ...]:
        return self.act(Roll, None, faces=list(faces))

    def choose(self, seat: int, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Choose, seat, **fields)

    def buy(self, seat: int, goods: str, carrot: int | None = None, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Buy, seat, goods=goods, carrot=carrot, **fields)

    def feed(self, seat: int, bunny: int, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Feed, seat, bunny=bunny, **fields)

    def starve(self, seat: int, bunny: int) -> tuple[Effect, ...]:
        return self.act(Starve, seat, bunny=bunny)

    def trade(self, seat: int, partner: int, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Trade, seat, partner=partner, **fields)

    def bid(self, seat: int, amount: int | None) -> tuple[Effect, ...]:
        return self.act(Bid, seat, amount=amount) if amount is not None else self.act(Pass, seat)

    def stake(self, seat: int, **fields: Any) -> tuple[Effect, ...]:
        return self.act(Stake, seat, **fields)

    def end_turn(self, seat: int) -> tuple[Effect, ...]:
        return self.act(EndTurn, seat)

    def run_card(self, seat: int, card_fields: dict[str, Any] | None = None,
                 bottom: int | None = None) -> tuple[Effect, ...]:
        """A whole ordinary turn: flip the top card, play it (with ``card_fields``), lay the
        new bottom card."""
        self.flip(seat)
        card = self.state.flipped
        assert card is not None
        out = list(self.play(seat, card, **(card_fields or {})))
        if self.state.phase == "bottom":
            out += self.bottom(seat, bottom)
        return tuple(out)

    # -- the record -------------------------------------------------------------------------------
    def lines(self) -> list[bytes]:
        return seal(header_to_dict(self.header), [event_to_dict(e) for e in self.events])

    def record(self) -> bytes:
        return b"".join(self.lines())

    def all_effects(self) -> list[Effect]:
        return [e for batch in self.effects for e in batch]
