"""The state of a game of KinderBunnies at one position.

Cards are numbers; a hand's unknown card (a game recorded at the table, R-KIN-17) is
:data:`HIDDEN` (0, which no card has). The draw pile is a multiset: its order is never
recorded (each draw names its card, R-KIN-16), so ``pile`` holds the cards known to be in
it (a set) and ``pile_hidden`` how many unknown ones it holds (a recorded game: all).
"""

from __future__ import annotations

import msgspec

from engine.hidden import Pool
from engine.killer.rolls import RollOff
from engine.ruleset import GameState

HIDDEN = 0
"""A card in a hand (or in the Orange deck) that the record does not know."""


class Task(msgspec.Struct, kw_only=True):
    """What the game is resolving: one card played (or one Bad News card drawn) and where
    its resolution stands. ``step`` names what it waits for next."""

    card: int
    seat: int
    """The card's player (a Bad News card's drawer)."""
    step: str
    """``feed``, ``hazard``, ``roll``, ``choose``, ``pass``, ``swap``, ``show``, ``spin``,
    ``bad_news``, ``reroll`` (a Re-Roll's die), ``carrot`` (Spin To Win's prize)."""
    bunny: int | None = None
    """The bunny it is on (feed, hazard, Fugitive)."""
    owner: int | None = None
    """Who answers or chooses (the bunny's owner, the player named, the winner)."""
    dice: int = 0
    """Dice owed for the next roll."""
    faces: list[int] = []
    """The roll made, held until the Re-Roll window closes."""
    held: bool = False
    """The roll is made but not yet acted on (R-KIN-15)."""
    rollers: list[int] = []
    """Who rolls, in order, when every player rolls one die."""
    number: int | None = None
    """Hamlin Helper's number."""
    tries: int = 0
    """Rolls made (Fake Phone Number)."""
    count: int = 0
    """How many to choose (bunnies to bring back...)."""
    reroll_die: int | None = None
    off: RollOff | None = None
    """Fugitive's roll-off (engine.killer.rolls)."""
    staged: dict[int, int] = {}
    """Pass It Along: seat -> the card it passes (HIDDEN when unknown)."""
    waiting: list[int] = []
    """Pass It Along: seats still to choose."""


class KinderState(GameState):
    """Everything on the table, mutable for a fast fold (see engine.ruleset)."""

    __slots__ = (
        "bucks",
        "carrot_pile",
        "carrots",
        "deal_seat",
        "dealing",
        "discard",
        "ending",
        "forced",
        "hand_size",
        "hands",
        "level",
        "magic",
        "n",
        "opts_key",
        "orange",
        "partial",
        "pile",
        "pile_hidden",
        "played",
        "pool",
        "refill",
        "scores",
        "skips",
        "table",
        "task",
        "winners",
        "youngest",
    )

    level: str
    opts_key: tuple[str, bool, str]
    """(level, Bad News in a Beginner game, carrot pick): the card table and its rules."""
    n: int
    hand_size: int
    youngest: int
    partial: bool
    """A game recorded at the table: cards nobody saw are unknown (engine.hidden)."""
    pool: Pool | None
    """In a partial game, the cards not yet seen anywhere (by number, as text)."""
    hands: list[list[int]]
    table: list[list[int]]
    """Each seat's bunnies on the table, in the order they came."""
    bucks: list[list[int]]
    """Each seat's Bunny Buck cards, face up in front of it."""
    carrots: list[list[int]]
    """Each seat's carrots."""
    pile: set[int]
    pile_hidden: int
    discard: list[int]
    carrot_pile: list[int]
    """The carrots in the middle, A first."""
    orange: list[int]
    """The set-aside Orange deck, top first (Really Advanced)."""
    dealing: bool
    deal_seat: int
    refill: list[int]
    """Seats owed cards to fill their hands, first first."""
    skips: list[int]
    """Turns each seat will miss (Deep Sleep Nine)."""
    played: bool
    """The active player has played his turn's card."""
    forced: int | None
    """The card Buy Back brought back, which must be played now."""
    task: Task | None
    ending: bool
    """Really Advanced: the last carrot is gone and the Orange card is to be turned up."""
    magic: int | None
    """The bottom Orange card, once turned up."""
    winners: list[int]
    scores: list[int]

    def copy(self) -> KinderState:
        new = KinderState.__new__(KinderState)
        new.seq, new.round, new.turn = self.seq, self.round, self.turn
        new.phase, new.active, new.over = self.phase, self.active, self.over
        new.level, new.opts_key, new.n = self.level, self.opts_key, self.n
        new.hand_size, new.youngest, new.partial = self.hand_size, self.youngest, self.partial
        new.pool = None if self.pool is None else self.pool.copy()
        new.hands = list(map(list.copy, self.hands))
        new.table = list(map(list.copy, self.table))
        new.bucks = list(map(list.copy, self.bucks))
        new.carrots = list(map(list.copy, self.carrots))
        new.pile = self.pile.copy()
        new.pile_hidden = self.pile_hidden
        new.discard = self.discard[:]
        new.carrot_pile = self.carrot_pile[:]
        new.orange = self.orange[:]
        new.dealing, new.deal_seat = self.dealing, self.deal_seat
        new.refill = self.refill[:]
        new.skips = self.skips[:]
        new.played, new.forced = self.played, self.forced
        new.task = None if self.task is None else copy_task(self.task)
        new.ending, new.magic = self.ending, self.magic
        new.winners = self.winners[:]
        new.scores = self.scores[:]
        return new


    def take_from(self, other: KinderState) -> None:
        """Become ``other`` (a trial copy that passed): every slot taken over."""
        self.seq, self.round, self.turn = other.seq, other.round, other.turn
        self.phase, self.active, self.over = other.phase, other.active, other.over
        self.level, self.opts_key, self.n = other.level, other.opts_key, other.n
        self.hand_size, self.youngest, self.partial = other.hand_size, other.youngest, other.partial
        self.pool, self.hands, self.table, self.bucks = other.pool, other.hands, other.table, other.bucks
        self.carrots, self.pile, self.pile_hidden = other.carrots, other.pile, other.pile_hidden
        self.discard, self.carrot_pile, self.orange = other.discard, other.carrot_pile, other.orange
        self.dealing, self.deal_seat, self.refill = other.dealing, other.deal_seat, other.refill
        self.skips, self.played, self.forced = other.skips, other.played, other.forced
        self.task, self.ending, self.magic = other.task, other.ending, other.magic
        self.winners, self.scores = other.winners, other.scores


def copy_task(task: Task) -> Task:
    """A task sharing nothing mutable: a shallow copy (msgspec's own, field by field) with
    its lists, dict and roll-off copied."""
    new: Task = task.__copy__()  # type: ignore[attr-defined]  # msgspec's, not in its stubs
    off = task.off
    new.faces = task.faces[:]
    new.rollers = task.rollers[:]
    new.off = None if off is None else off.copy()
    new.staged = dict(task.staged)
    new.waiting = task.waiting[:]
    return new


SLOTS = [name for cls in KinderState.__mro__ for name in getattr(cls, "__slots__", ())]
"""Every slot of a state."""
