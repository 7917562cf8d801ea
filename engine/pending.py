"""What a game waits for next, as data: the agenda every "who acts now?" question reads.

Every position of every game owes something next. A ruleset answers with an
:class:`Agenda` (``Ruleset.pending(state)``), and everything that asks who may act and
what they may do reads it: ``to_act``, ``chance`` and ``legal_actions`` on the ruleset,
the simulators, the dispute engine, the recorder and the dashboard. Nothing hides a
waiting decision in a ruleset's private flags.

An agenda has these parts:

``decisions`` and ``chance``
    What the game waits for before anything else happens: one or more seats'
    :class:`Decision` (several at once is a simultaneous step, such as Trust No Bunny's
    night), or a :class:`Chance` outcome owed (a deal, a shuffle, a die, a random card),
    which comes before every decision. ``optional`` chance may happen at any moment while
    decisions are owed without being owed (a timer running out).

``standing``
    Things that wait for a named :class:`Moment` rather than for somebody:
    a :class:`Deadline` (checked then: "feed this bunny by the end of its owner's next
    turn") and a :class:`Trigger` (acts then: a roaming card that attacks again at the end
    of its launcher's turn, every round). :func:`due` lists what falls due at a moment, in
    the one order every ruleset uses (see "Order at one moment" below).

``windows``
    :class:`Window`: moments in which other seats may act off their own turn (a Very
    Special card answering a weapon). A window never waits for a pass. It closes as soon
    as the game moves on: the first event recorded that is not a response to it (see
    "How a window closes").

How a window closes (warren's ruling, docs/design.md "Pending decisions")
    A record never says "nobody answered". While a window is open, responses from its
    seats may be recorded; the first event that is not one of them (the owed die, the
    active player's next action) closes it, and a response recorded after that is out
    of time. So a table that forgot to record a response cannot add it later except as
    a correction, and a record with no responses reads as "nobody answered".

Order at one moment (warren's ruling)
    When several standing items fall due at one moment, deadlines come before triggers
    (a bunny that starves at the end of a turn is gone before a roaming card looks for
    its next target), and within each kind the item put on the agenda first resolves
    first (by the seq that created it; ties, which can only come from one event, keep
    the order the ruleset listed them in). Resolving an item may put new decisions or
    chance on the agenda (a roaming card's die); those are settled before the next due item.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

MomentKind = Literal["turn_start", "turn_end", "round_end"]


class Moment(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A named point in the game at which standing items are checked.

    "The end of seat 2's next turn", said during turn 14, is ``Moment(kind="turn_end",
    seat=2, after=14)``: the first end of a turn of seat 2 numbered above 14. A trigger
    that acts at the end of each of its launcher's later turns has the same shape and
    stays after acting (``Trigger.repeat``), moving its ``after`` on as it goes.
    """

    kind: MomentKind
    """Start or end of a turn, or the end of a round."""
    seat: int | None = None
    """Whose turn; None for any seat's (and for a round end)."""
    after: int = 0
    """Only turns (or rounds, for ``round_end``) numbered above this count."""

    def matches(self, kind: MomentKind, seat: int | None, number: int) -> bool:
        """True when the game reaching (``kind``, ``seat``, turn or round ``number``) is
        this moment."""
        if self.kind != kind:
            return False
        if self.seat is not None and self.seat != seat:
            return False
        return number > self.after


class Decision(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag="decision"):
    """A seat owes a decision of some kind."""

    seat: int
    kind: str
    """What is decided, in the ruleset's words: ``turn``, ``vote``, ``night``, ``feed``..."""
    rule: str | None = None
    """The rule that asks for it, where one does."""
    off_turn: bool = False
    """True when the seat decides on somebody else's turn (a defender's choice)."""


class Chance(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag="chance"):
    """A chance outcome is owed: the next event is recorded by the table, not a seat."""

    kind: str
    """``deal``, ``shuffle``, ``draw``, ``roll``, ``pick``, ``timer``..."""
    seat: int | None = None
    """The seat the outcome belongs to (whose die, whose random card), if any."""
    rule: str | None = None
    optional: bool = False
    """True for chance that may happen while decisions are owed (a timer running out)."""


class Deadline(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag="deadline"):
    """Something that must be done by a moment, checked when the moment comes."""

    at: Moment
    kind: str
    """``feed``... in the ruleset's words."""
    rule: str
    subject: str
    """What it is about, in the ruleset's terms (``bunny 7``)."""
    since: int
    """The seq of the event that set it (orders items due at one moment)."""


class Trigger(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag="trigger"):
    """A card or rule that acts by itself when a moment comes."""

    at: Moment
    kind: str
    rule: str
    subject: str
    since: int
    repeat: bool = True
    """True for a trigger that stays after acting (until the ruleset removes it)."""


class Window(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A chance for other seats to act off their own turn, closed by the next other event."""

    seats: tuple[int, ...]
    """Who may respond."""
    kinds: tuple[str, ...]
    """What may be played, in the ruleset's words (``very_special``...)."""
    rule: str
    subject: str = ""
    """What is being answered (``weapon 44 on bunny 3``)."""


Standing = Deadline | Trigger


class Agenda(msgspec.Struct, kw_only=True, omit_defaults=True):
    """What a position waits for (see the module docstring).

    A seat is asked one thing at a time, so decisions are kept by seat: a simultaneous
    step is several seats each owing its own decision, and settling one is a dict
    deletion (the night of a social-deduction game settles a seat per event).
    """

    decisions: dict[int, Decision] = {}
    """Seat -> the decision it owes now."""
    chance: Chance | None = None
    """A chance outcome owed now; it comes before every decision."""
    optional: Chance | None = None
    """Chance that may happen while decisions are owed, without being owed (a timer)."""
    standing: list[Standing] = []
    windows: list[Window] = []

    # -- questions ----------------------------------------------------------------
    def seats(self) -> list[int]:
        """Seats owing a decision now, lowest first; empty while a chance is owed."""
        if self.chance is not None:
            return []
        return sorted(self.decisions)

    def owes(self, seat: int) -> bool:
        return seat in self.decisions

    def decision(self, seat: int) -> Decision | None:
        """What ``seat`` owes now, if anything (nothing while a chance is owed)."""
        return None if self.chance is not None else self.decisions.get(seat)

    def responders(self) -> list[int]:
        """Seats that may act off-turn in an open window, lowest first."""
        return sorted({seat for window in self.windows for seat in window.seats})

    def windows_for(self, seat: int) -> list[Window]:
        return [w for w in self.windows if seat in w.seats]

    def may_act(self) -> list[int]:
        """Everybody who may record the next event: owed decisions and open windows."""
        return sorted({*self.seats(), *self.responders()})

    def copy(self) -> Agenda:
        """An independent agenda (items are frozen, so the containers are all that is copied)."""
        return Agenda(decisions=dict(self.decisions), chance=self.chance, optional=self.optional,
                      standing=self.standing[:], windows=self.windows[:])


def decisions_for(seats: Iterable[int], kind: str, rule: str | None = None) -> dict[int, Decision]:
    """Decisions of one kind for several seats at once (a simultaneous step)."""
    return {s: Decision(seat=s, kind=kind, rule=rule) for s in seats}


def due(standing: Iterable[Standing], kind: MomentKind, seat: int | None, number: int) -> list[Standing]:
    """The standing items that fall due at a moment, in the order they resolve.

    Deadlines before triggers, then by the seq that set them, then as listed (module
    docstring, "Order at one moment").
    """
    items = [(i, item) for i, item in enumerate(standing) if item.at.matches(kind, seat, number)]
    items.sort(key=lambda pair: (0 if isinstance(pair[1], Deadline) else 1, pair[1].since, pair[0]))
    return [item for _, item in items]


NOTHING = Agenda()
"""The agenda of a finished game: nothing is owed and nobody may act."""
