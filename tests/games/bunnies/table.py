"""A game of Bunnies laid out from a chosen deal, for tests: play actions, expect refusals."""

from __future__ import annotations

import copy
from typing import Any

from engine.bunnies import RULESET
from engine.bunnies.state import BunniesState
from engine.bunnies.views import view
from engine.record import FORMAT_VERSION, Event, Header, Player
from engine.rules import Effect, RuleViolation
from engine.ruleset import GameState
from tests.scenarios.bunnies import deal_deck, parse_action, stack_deck

CREATED = "2026-01-01T00:00:00Z"


def header(game_id: str = "bunnies-test", **options: Any) -> Header:
    return Header(
        warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset="bunnies",
        options=options, players=[Player(seat=0, name="Ada"), Player(seat=1, name="Bo")],
        source="recorded", created=CREATED,
    )


def cards(text: str) -> list[str]:
    return text.split()


def snapshot(state: BunniesState) -> dict[str, Any]:
    """Every field of a state, deep-copied: equal snapshots mean equal states."""
    slots = [*GameState.__slots__, *BunniesState.__slots__]
    return {name: copy.deepcopy(getattr(state, name)) for name in slots}


class Table:
    """A game dealt from a stacked deck; seat 1 opens unless ``first_seat`` says otherwise.

    ``hands`` are given in full (their length sets ``hand_size``); blind cards, shared
    cards and the top of the stock may be given in part, the rest comes in deck order.
    """

    def __init__(
        self,
        hand0: str,
        hand1: str,
        blinds0: str = "",
        blinds1: str = "",
        shared: str = "",
        stock: str = "",
        *,
        dealt: bool = True,
        **options: Any,
    ) -> None:
        h0, h1 = cards(hand0), cards(hand1)
        hand_size = len(h0)
        if hand_size != 7:
            options["hand_size"] = hand_size
        self.header = header(**options)
        self.deck = stack_deck((h0, h1), (cards(blinds0), cards(blinds1)), cards(shared),
                               cards(stock), hand_size=hand_size)
        self.state: BunniesState = RULESET.setup(self.header)
        self.events: list[Event] = []
        self.effects: list[tuple[Effect, ...]] = []
        self.deal = deal_deck(self.deck, hand_size)
        if dealt:
            self.apply(self.deal)

    # -- playing ---------------------------------------------------------------------------
    def apply(self, event: Event) -> tuple[Effect, ...]:
        effects = RULESET.apply(self.state, event)
        self.events.append(event)
        self.effects.append(effects)
        return effects

    def event(self, line: str) -> Event:
        return parse_action(line, self.state.seq + 1)

    def play(self, *lines: str) -> tuple[Effect, ...]:
        """Apply each action; return the effects of the last one."""
        effects: tuple[Effect, ...] = ()
        for line in lines:
            effects = self.apply(self.event(line))
        return effects

    def refuses(self, line: str | Event, rule: str) -> RuleViolation:
        """The action is refused with ``rule`` and leaves the state exactly as it was."""
        event = self.event(line) if isinstance(line, str) else line
        before = snapshot(self.state)
        seen = view(self.state, "referee")
        try:
            RULESET.apply(self.state, event)
        except RuleViolation as exc:
            assert exc.rule == rule, f"{line!r} refused with {exc.rule} ({exc.message}), not {rule}"
            assert snapshot(self.state) == before, f"{line!r} changed the state before refusing"
            assert view(self.state, "referee") == seen
            return exc
        raise AssertionError(f"{line!r} was allowed; expected {rule}")

    def fold_refuses(self, line: str | Event, rule: str) -> None:
        """The fast fold (what ``warren check`` runs) refuses it with the same rule."""
        state = RULESET.copy_state(self.state)
        event = self.event(line) if isinstance(line, str) else line
        try:
            RULESET.fold(state, [event])
        except RuleViolation as exc:
            assert exc.rule == rule
            assert exc.seq == event.seq
            return
        raise AssertionError(f"{line!r} was allowed by the fold; expected {rule}")

    # -- looking -----------------------------------------------------------------------------
    def rules_cited(self, effects: tuple[Effect, ...] | None = None) -> list[str]:
        chosen = self.effects[-1] if effects is None else effects
        return [e.rule for e in chosen]

    def kinds(self) -> list[str]:
        return [e.kind for e in self.effects[-1]]

    @property
    def hands(self) -> list[list[str]]:
        return self.state.hands

    @property
    def pile(self) -> list[str]:
        return self.state.pile


# -- positions used by several tests ---------------------------------------------------------
def opening(**options: Any) -> Table:
    """The seven-card deal most lay tests start from.

    Seat 0 (the dealer): ``2C 3C 9C QC QD KC 5H``; seat 1: ``5C 5D 9D QH AC AD KS``.
    Blind cards (filled in deck order): seat 0 ``2D 2H 2S 3D``, seat 1 ``3H 3S 4H 4S``,
    shared left ``6C``, right ``6D``, top ``6H``. Stock from the top: ``5S 4C 4D 7C 7D``...
    """
    return Table("2C 3C 9C QC QD KC 5H", "5C 5D 9D QH AC AD KS", stock="5S 4C 4D 7C 7D",
                 **options)


FIVES = ("1 draw", "1 lay 5C 5D 5S", "0 draw", "0 lay 5H")
"""From :func:`opening`: seat 0's 5H completes four fives, a plain bunny."""


def court(**options: Any) -> Table:
    """A five-card deal for royal and super bunnies.

    Seat 0: ``QC QD AC AD 2C``; seat 1: ``QH QS AH AS 3C``. Blind cards: seat 0
    ``2D 2H 2S 3D``, seat 1 ``3H 3S 5D 5H``, shared left ``5S``, right ``6C``, top ``6D``.
    Stock from the top: ``4C 4D 4H 4S 5C``...
    """
    return Table("QC QD AC AD 2C", "QH QS AH AS 3C", stock="4C 4D 4H 4S 5C", **options)


ROYAL = ("1 draw", "1 lay QH QS", "0 draw", "0 lay QC QD")
"""From :func:`court`: seat 0 scores a royal bunny of queens (hand then ``AC AD 2C 4D``)."""
SUPER = (*ROYAL, "0 end", "1 draw", "1 lay AH AS", "0 draw", "0 lay AC AD")
"""From :func:`court`: then a super bunny of aces for seat 0 (hand ``2C 4D 4S``)."""


# A 20-card deal leaves one card in the stock, so hands run out and blind cards come into
# play within a few goes. Seat 1 holds the 2s to 6s (five bunnies in a row), seat 0 the 7s
# to 10s, three jacks and a queen.
LATE_HAND0 = "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH QC"
LATE_HAND1 = "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S"


def late_deal(**options: Any) -> Table:
    """The 20-card deal. Blind cards: seat 0 ``KC AC AS AD``, seat 1 ``KD QH KH JS``,
    shared left ``AH``, right ``KS``, top ``QD``; the stock is the single ``QS``."""
    return Table(LATE_HAND0, LATE_HAND1, blinds0="KC AC AS AD", blinds1="KD QH KH JS",
                 shared="AH KS QD", stock="QS", **options)


LATE_OPENING = (
    "1 draw",             # QS, the whole stock
    "1 lay 2C 2D 2H 2S",  # a bunny (plain), its steal not taken
    "1 lay 3C 3D 3H 3S",
    "1 lay 4C 4D 4H 4S",
    "1 lay 5C 5D 5H 5S",
    "1 lay 6C 6D 6H 6S",  # five bunnies in one go
    "1 lay QS",           # no bunny: the go ends, seat 1's hand is empty
    "0 lay QC",           # the stock is empty, so seat 0 lays without drawing
)


def late_game(**options: Any) -> Table:
    """After :data:`LATE_OPENING`: seat 1 to lay with an empty hand on ``QS QC``; seat 0
    holds nothing higher than a jack."""
    table = late_deal(**options)
    table.play(*LATE_OPENING)
    return table


# Both players hold five whole ranks, so both hands empty in the first two goes and the
# game becomes a race through the blind cards.
RACE_HAND0 = "7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS"
RACE_HAND1 = LATE_HAND1


def race_deal(**options: Any) -> Table:
    """Blind cards: seat 0 ``KC AC QD AD``, seat 1 ``KD QC KH QH``, shared left ``AH``,
    right ``KS``, top ``AS``; the stock is the single ``QS``."""
    return Table(RACE_HAND0, RACE_HAND1, blinds0="KC AC QD AD", blinds1="KD QC KH QH",
                 shared="AH KS AS", stock="QS", **options)


RACE_OPENING = (
    "1 draw", "1 lay 2C 2D 2H 2S", "1 lay 3C 3D 3H 3S", "1 lay 4C 4D 4H 4S",
    "1 lay 5C 5D 5H 5S", "1 lay 6C 6D 6H 6S",
    "1 end",              # seat 1 keeps QS
    "0 lay 7C 7D 7H 7S", "0 lay 8C 8D 8H 8S", "0 lay 9C 9D 9H 9S", "0 lay TC TD TH TS",
    "0 lay JC JD JH JS",  # seat 0: five bunnies, hand empty
)
RACE_FINISH = (
    "0 end", "1 lay QS",
    "0 flip 0.0",         # KC on QS: laid
    "1 flip top",         # AS: laid
    "0 flip 0.3",         # AD
    "1 flip left",        # AH: the third ace
    "0 flip 0.1",         # AC, uncovered now: the fourth ace, a super bunny for seat 0
    "0 flip right",       # lay again with an empty hand: KS on the emptied pile
    "1 flip 1.1",         # QC cannot beat KS: back it goes, seat 1 picks up
    "0 flip 0.2",         # QD on the empty pile: seat 0's last blind card, out
)
"""Seat 0 goes out with six bunnies and 3 x 4 for seat 1's four blind cards: 18 to 5."""


def race_game(**options: Any) -> Table:
    table = race_deal(**options)
    table.play(*RACE_OPENING)
    return table
