"""Write a game of Trust No Bunny by hand: chosen roles, Items and cards, then rounds.

Used by the hand-made fixtures (fixtures/make_tnb.py) and the tests; :class:`TableScenario`
writes a game as a scorekeeper at the table sees it (nobody's cards or roles known). Every event goes
through the rules as it is added, so a scenario that breaks a rule fails where it does;
:meth:`Scenario.attempt` tries one more event and returns the violation instead. Cards
drawn at dawn come from the deck in a fixed order (lowest value first that the deck still
holds, unless a hand is given), so a scenario is the same every time it is built.

    g = Scenario(players=5, werebunnies=(3, 4))
    g.start()                                   # roles, offers, Item choices, the deal
    g.day(team=[0, 1])                          # muster (all ready), proposal, all accept
    g.night(guards={0: [3, 2], 1: [4]}, home={2: Bless(target=3)})
    g.dawn()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from engine.hidden import UNKNOWN
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict, header_to_dict, seal, unsealed
from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny import RULESET
from engine.trust_no_bunny.events import (
    Accuse,
    Act,
    CardLost,
    ChooseItem,
    Deal,
    Draw,
    Guard,
    HomeAction,
    NightStage,
    Offers,
    Propose,
    Ready,
    Rest,
    Reveal,
    Roles,
    Vote,
)
from engine.trust_no_bunny.numbers import (
    CRYSTAL_BALL,
    GNAW,
    HOMEBODY,
    HORSESHOE,
    ITEMS,
    MUTATIONS,
    RULEBOOK_MUTATIONS,
    STEALTH,
)
from engine.trust_no_bunny.state import TnbState

CREATED = "2026-11-30T12:00:00Z"


class Scenario:
    def __init__(
        self,
        players: int = 5,
        werebunnies: tuple[int, int] = (3, 4),
        quirks: Sequence[str | None] | None = None,
        mutations: Mapping[int, str] | None = None,
        first_mayor: int = 0,
        items: Sequence[str] | None = None,
        hands: Sequence[Sequence[int]] | None = None,
        options: dict[str, Any] | None = None,
        game_id: str = "tnb-scenario",
    ) -> None:
        self.ruleset = RULESET
        wbs = sorted(werebunnies)
        # By default Mutations that change nothing unless used (Stealth, Gnaw).
        muts = dict(mutations) if mutations is not None else {wbs[0]: STEALTH, wbs[1]: GNAW}
        options = dict(options or {})
        used = [m for m in MUTATIONS if m in muts.values()]
        if "mutations" not in options and any(m not in RULEBOOK_MUTATIONS for m in used):
            # warren's own Mutations are played by option only (R-TNB-5): name the ones used.
            options["mutations"] = used
        self.header = Header(
            warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset=RULESET.slug,
            options=options,
            players=[Player(seat=s, name=f"player {s}") for s in range(players)],
            source="recorded", created=CREATED,
        )
        RULESET.check_header(self.header)
        self.state: TnbState = RULESET.setup(self.header)
        self.events: list[Event] = []
        self.effects: list[tuple[Effect, ...]] = []
        n = players
        self.werebunnies = wbs
        self.quirks = list(quirks) if quirks is not None else [
            None if s in wbs else HOMEBODY for s in range(n)]
        self.mutations = [muts.get(s) for s in range(n)]
        self.first_mayor = first_mayor
        self.items = list(items) if items is not None else [HORSESHOE] * n
        self.hands = [list(h) for h in hands] if hands is not None else [[1, 2, 3]] * n

    # -- adding events ----------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.events) + 1

    def make(self, kind: type[Event], actor: int | None, **fields: Any) -> Event:
        return kind(seq=self.seq, actor=actor, **fields)

    def add(self, kind: type[Event], actor: int | None = None, **fields: Any) -> tuple[Effect, ...]:
        return self.add_event(self.make(kind, actor, **fields))

    def add_event(self, event: Event) -> tuple[Effect, ...]:
        event = msgspec.structs.replace(event, seq=self.seq)
        effects = self.ruleset.apply(self.state, event)
        self.events.append(event)
        self.effects.append(effects)
        return effects

    def attempt(self, kind: type[Event], actor: int | None = None, **fields: Any) -> RuleViolation | None:
        """Try one more event on the live state: the violation (state untouched), or None
        and the event kept."""
        try:
            self.add(kind, actor, **fields)
        except RuleViolation as exc:
            return exc
        return None

    # -- set-up -----------------------------------------------------------------------
    def roles(self) -> None:
        self.add(Roles, werebunnies=self.werebunnies, quirks=self.quirks, mutations=self.mutations,
                 first_mayor=self.first_mayor)

    def offers(self) -> None:
        offered = []
        for item in self.items:
            other = next(i for i in (HORSESHOE, CRYSTAL_BALL, *ITEMS) if i != item)
            offered.append([item, other])
        self.add(Offers, items=offered)

    def choose(self) -> None:
        for seat, item in enumerate(self.items):
            self.add(ChooseItem, seat, item=item)

    def deal(self) -> None:
        self.add(Deal, hands=self.hands)

    def start(self) -> None:
        self.roles()
        self.offers()
        self.choose()
        self.deal()

    # -- the day ----------------------------------------------------------------------
    def muster(self, accuse: Mapping[int, Sequence[int]] | None = None,
               lose: Mapping[int, int] | None = None) -> None:
        """Everybody musters: the accusers accuse (losing ``lose[seat]`` or their lowest
        card), the rest are ready."""
        accuse = accuse or {}
        for seat in range(self.state.n):
            if self.state.over:
                return
            if seat in accuse:
                self.add(Accuse, seat, suspects=list(accuse[seat]))
                if self.state.pending_loss is not None:
                    hand = self.state.hands[seat]
                    card = (lose or {}).get(seat) or next(v for v in (1, 2, 3, 4) if hand[v])
                    self.add(CardLost, seat=seat, card=card)
            else:
                self.add(Ready, seat)

    def propose(self, team: Sequence[int], reject: Sequence[int] = ()) -> None:
        """The mayor proposes ``team``; everybody votes, the seats in ``reject`` against."""
        self.add(Propose, self.state.mayor, team=list(team))
        for seat in range(self.state.n):
            if self.state.over or self.state.phase != "voting":
                return
            self.add(Vote, seat, accept=seat not in reject)

    def day(self, team: Sequence[int], accuse: Mapping[int, Sequence[int]] | None = None) -> None:
        self.muster(accuse)
        self.propose(team)

    # -- the night and dawn -----------------------------------------------------------
    def night(self, guards: Mapping[int, Sequence[int] | tuple[Sequence[int], Sequence[int]]] | None = None,
              home: Mapping[int, HomeAction] | None = None) -> None:
        """Every seat acts: a guard's entry is its defending cards, or (defend, weaken);
        a home seat's entry is a home action (seq and actor filled in); missing seats play
        nothing or rest; seats that already acted are skipped."""
        guards = guards or {}
        home = home or {}
        for seat in range(self.state.n):
            if not self.state.agenda.owes(seat):
                continue
            if self.state.on_guard[seat]:
                entry = guards.get(seat, [])
                if isinstance(entry, tuple):
                    defend, weaken = entry
                else:
                    defend, weaken = entry, []
                self.add(Guard, seat, defend=list(defend), weaken=list(weaken))
            else:
                action = home.get(seat)
                if action is None:
                    self.add(Rest, seat)
                else:
                    self.add_event(msgspec.structs.replace(action, actor=seat))

    def dawn_cards(self) -> list[list[int]]:
        """The cards each seat is owed, lowest value first that the deck holds."""
        pool = self.state.deck[:]
        if sum(self.state.owed) > sum(pool):
            pool = [a + b for a, b in zip(pool, self.state.discard, strict=True)]
        out = []
        for owed in self.state.owed:
            cards = []
            for _ in range(owed):
                v = next((v for v in (1, 2, 3, 4) if pool[v]), None)
                if v is None:
                    break
                pool[v] -= 1
                cards.append(v)
            out.append(cards)
        return out

    def dawn(self, cards: Sequence[Sequence[int]] | None = None) -> tuple[Effect, ...]:
        return self.add(Draw, cards=[list(c) for c in cards] if cards is not None else self.dawn_cards())

    def round(self, team: Sequence[int], guards: Mapping[int, Any] | None = None,
              home: Mapping[int, HomeAction] | None = None,
              accuse: Mapping[int, Sequence[int]] | None = None) -> None:
        """A whole round: muster, the team accepted, the night, dawn."""
        self.day(team, accuse)
        self.night(guards, home)
        self.dawn()

    # -- the record -------------------------------------------------------------------
    def lines(self, sealed: bool = True) -> list[bytes]:
        header = header_to_dict(self.header)
        events = [event_to_dict(e) for e in self.events]
        return seal(header, events) if sealed else unsealed(header, events)

    def with_claims(self, index: int, claims: list[dict[str, Any]]) -> None:
        """Attach claims to an event already added (0-based), without re-checking."""
        self.events[index] = msgspec.structs.replace(self.events[index], claims=claims)


class TableScenario:
    """Write a game of Trust No Bunny down as a scorekeeper at the table sees it (R-TNB-22):
    roles, Items, cards and draws nobody saw (``"?"``), every night action an ``act``, each
    night's stage on its last action, the reveal on the event that ends the game. Every
    event goes through the rules as it is added, like :class:`Scenario`.

        t = TableScenario(players=5, first_mayor=2)
        t.start()                                # "?" roles, offers, choices and deal
        t.day(team=[0, 2])                       # all ready, the mayor's team, all accept
        t.night(unblocked=1, gnawed=2)           # five acts, the stage on the last
        t.dawn()                                 # every seat's draw unseen
    """

    def __init__(self, players: int = 5, first_mayor: int = 0, options: dict[str, Any] | None = None,
                 game_id: str = "tnb-table") -> None:
        self.ruleset = RULESET
        self.header = Header(
            warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset=RULESET.slug,
            options=dict(options or {}),
            players=[Player(seat=s, name=f"player {s}") for s in range(players)],
            source="recorded", created=CREATED,
        )
        RULESET.check_header(self.header)
        self.state: TnbState = RULESET.setup(self.header)
        self.events: list[Event] = []
        self.effects: list[tuple[Effect, ...]] = []
        self.first_mayor = first_mayor

    @classmethod
    def of(cls, header: Header, events: Sequence[Event]) -> TableScenario:
        """A record already written (a redaction, a file) to go on with."""
        table = cls.__new__(cls)
        table.ruleset = RULESET
        table.header = header
        table.state = RULESET.setup(header)
        table.events = []
        table.effects = []
        table.first_mayor = 0
        for event in events:
            table.effects.append(RULESET.apply(table.state, event))
            table.events.append(event)
        return table

    @property
    def seq(self) -> int:
        return len(self.events) + 1

    def make(self, kind: type[Event], actor: int | None, **fields: Any) -> Event:
        return kind(seq=self.seq, actor=actor, **fields)

    def add(self, kind: type[Event], actor: int | None = None, **fields: Any) -> tuple[Effect, ...]:
        event = self.make(kind, actor, **fields)
        effects = self.ruleset.apply(self.state, event)
        self.events.append(event)
        self.effects.append(effects)
        return effects

    def attempt(self, kind: type[Event], actor: int | None = None, **fields: Any) -> RuleViolation | None:
        """Try one more event: the violation (state untouched), or None and the event kept."""
        try:
            self.add(kind, actor, **fields)
        except RuleViolation as exc:
            return exc
        return None

    def start(self) -> None:
        n = self.state.n
        self.add(Roles, werebunnies=[UNKNOWN, UNKNOWN], quirks=[UNKNOWN] * n, mutations=[UNKNOWN] * n,
                 first_mayor=self.first_mayor)
        self.add(Offers, items=[[UNKNOWN, UNKNOWN] for _ in range(n)])
        for seat in range(n):
            self.add(ChooseItem, seat, item=UNKNOWN)
        self.add(Deal, hands=[[UNKNOWN] * 3 for _ in range(n)])

    def muster(self, accuse: Mapping[int, Sequence[int]] | None = None) -> None:
        """Everybody musters in seat order; each accusation costs a card nobody saw."""
        accuse = accuse or {}
        for seat in range(self.state.n):
            if seat in accuse:
                self.add(Accuse, seat, suspects=list(accuse[seat]))
                if self.state.pending_loss is not None:
                    self.add(CardLost, seat=seat, card=UNKNOWN)
            else:
                self.add(Ready, seat)

    def propose(self, team: Sequence[int], reject: Sequence[int] = ()) -> None:
        self.add(Propose, self.state.mayor, team=list(team))
        for seat in range(self.state.n):
            if self.state.phase != "voting":
                return
            self.add(Vote, seat, accept=seat not in reject)

    def day(self, team: Sequence[int], accuse: Mapping[int, Sequence[int]] | None = None) -> None:
        self.muster(accuse)
        self.propose(team)

    def night(self, unblocked: int, gnawed: int = 0) -> None:
        """Every seat acts unseen, in seat order; the last one carries the stage."""
        n = self.state.n
        for seat in range(n):
            stage = NightStage(unblocked=unblocked, gnawed=gnawed) if seat == n - 1 else None
            self.add(Act, seat, stage=stage)

    def dawn(self, reveal: Reveal | None = None) -> tuple[Effect, ...]:
        return self.add(Draw, cards=[UNKNOWN] * self.state.n, reveal=reveal)

    def lines(self, sealed: bool = True) -> list[bytes]:
        header = header_to_dict(self.header)
        events = [event_to_dict(e) for e in self.events]
        return seal(header, events) if sealed else unsealed(header, events)
