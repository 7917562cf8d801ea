"""The state of a game of Killer Bunnies and the Ultimate Odyssey.

Cards in hands, draw piles, discard piles and run positions are card *kinds* (ints: kind k
is the k-th Card Identification Number at the table, engine.killer_bunnies_odyssey.library.Table;
kind 0 is a card nobody saw, in a game recorded at the table). Copies of one card are alike
there. What is in play is a :class:`Piece`, numbered as it enters play, so that two copies
in the Bunny Circle are told apart and a trade can be made once per item.

Every slot is annotated for the state codec (engine.codec); the containers are the kit's
own (the Bunny Circle, run positions, feed demands, roll-offs) where the kit has one.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.hidden import Pool
from engine.killer.circle import BunnyCircle
from engine.killer.feeding import FeedDemand
from engine.killer.rolls import RollOff
from engine.killer.run import RunPositions
from engine.killer_bunnies_odyssey.options import OdysseyOptions
from engine.ruleset import GameState

Where = Literal["saved", "circle", "city", "inside", "under", "on", "limbo"]
"""Where a piece is: saved face up beside its owner, a creature in the Bunny Circle, a city in
the Center Circle, a creature inside a city, a modifier under a creature, a Feed The Bunny
card on a creature, or acquired and waiting to be placed."""


class Piece(msgspec.Struct, kw_only=True):
    """A card in play."""

    id: int
    kind: int
    owner: int
    """Who controls it now (a trade or a steal changes it)."""
    where: Where
    host: int | None = None
    """The city a creature is inside, the creature a modifier or Feed card lies on."""
    used: bool = False
    """A Resource that has paid this round (ODY-COST-2)."""
    traded: bool = False
    """It has been traded once (ODY-TRADE-3)."""

    def copy(self) -> Piece:
        return Piece(id=self.id, kind=self.kind, owner=self.owner, where=self.where,
                     host=self.host, used=self.used, traded=self.traded)


class Seat(msgspec.Struct, kw_only=True):
    """One player's cards and counters."""

    civ: int
    """The d20 (ODY-CIV-1)."""
    draw: list[int] = []
    """The draw pile, top card last."""
    hand: list[int] = []
    run: RunPositions = msgspec.field(default_factory=RunPositions)
    discard: list[int] = []
    """The discard pile, face up, newest last."""
    saved: list[int] = []
    """Saved pieces (Resources, Specials, Very Specials), face up."""
    mulliganed: bool = False
    turns: int = 0
    """Turns begun (feed deadlines count them)."""
    unseen: Pool | None = None
    """In a game recorded at the table: the cards of this seat's hidden places (draw pile,
    hand, run positions) that nobody has seen, one per ``0`` there."""

    def copy(self) -> Seat:
        return Seat(civ=self.civ, draw=self.draw[:], hand=self.hand[:], run=self.run.copy(),
                    discard=self.discard[:], saved=self.saved[:], mulliganed=self.mulliganed,
                    turns=self.turns, unseen=None if self.unseen is None else self.unseen.copy())


StrikeKind = Literal["attack", "raze", "bands"]


class Strike(msgspec.Struct, kw_only=True):
    """A played card waiting for its dice: an attack on creatures, a City Weapon on a city, or
    a d6 band (ODY-WPN-1, ODY-WPN-2, ODY-CARD-10). An answer may cancel it while it waits."""

    kind: StrikeKind
    card: int
    """The card's kind."""
    player: int
    aggressive: bool
    die: str
    targets: list[int] = []
    """Pieces still to roll for, in order (the target first, then its neighbours)."""
    levels: list[int] = []
    """The level each of ``targets`` faces."""
    effect: int = 0
    """The index of the effect that rolls, in the card's effects."""
    ends_turn: bool = False
    """A Special card played from the hand: the turn ends once it has resolved."""

    def copy(self) -> Strike:
        return Strike(kind=self.kind, card=self.card, player=self.player,
                      aggressive=self.aggressive, die=self.die, targets=self.targets[:],
                      levels=self.levels[:], effect=self.effect, ends_turn=self.ends_turn)

    def roller(self, owner_of: dict[int, int]) -> int:
        """Who rolls now: the owner of the next target, or the card's player for a band."""
        if self.kind == "bands" or not self.targets:
            return self.player
        return owner_of[self.targets[0]]


SetupStep = Literal["shuffle", "deal", "keep", "refill", "done"]
"""Where the set-up of ``setup_seat`` stands: its first shuffle is owed, its deal, its choice
of run cards (or the mulligan), its draws back to the hand size; ``done`` after the last."""


class OdysseyState(GameState):
    __slots__ = (
        "center",
        "circle",
        "cut_owed",
        "demands",
        "end_reason",
        "end_rule",
        "first",
        "key",
        "n",
        "next_piece",
        "opts",
        "partial",
        "pieces",
        "placing",
        "played",
        "refill_seat",
        "replace_owed",
        "rolloff",
        "seats",
        "setup_seat",
        "setup_step",
        "shuffles",
        "strike",
        "winners",
    )

    opts: OdysseyOptions
    key: str
    """The card table's key (engine.killer_bunnies_odyssey.library.table_by_key)."""
    n: int
    partial: bool
    """A game recorded at the table: cards may be unknown (engine.hidden)."""
    seats: list[Seat]
    pieces: dict[int, Piece]
    next_piece: int
    circle: BunnyCircle
    """The Bunny Circle: creatures by piece, clockwise; modifiers under, Feed cards on them."""
    center: BunnyCircle
    """The Center Circle: cities by piece; their occupants inside."""
    demands: list[FeedDemand]
    """Feed The Bunny cards waiting on creatures (``card`` and ``bunny`` are pieces)."""
    strike: Strike | None
    placing: list[int]
    """Acquired creatures and cities waiting for their new owner to place them."""
    setup_seat: int
    setup_step: SetupStep
    refill_seat: int | None
    """The seat whose run cards went down last in the set-up, until the next seat begins: the
    one a draw back to the hand size is owed by (ODY-HAND-1)."""
    shuffles: list[int]
    """Seats whose draw pile must be shuffled (cards were added or taken), oldest first."""
    cut_owed: int | None
    """The seat whose freshly shuffled draw pile an opponent must cut."""
    rolloff: RollOff | None
    """The d12 roll for the first player, while it lasts."""
    first: int
    played: bool
    """The active player has made his regular play this turn (ODY-TURN-6)."""
    replace_owed: bool
    """The active player has flipped and owes REPLACE (ODY-TURN-5)."""
    winners: list[int]
    end_reason: str | None
    end_rule: str | None

    def copy(self) -> OdysseyState:
        new = OdysseyState.__new__(OdysseyState)
        new.seq, new.round, new.turn, new.phase = self.seq, self.round, self.turn, self.phase
        new.active, new.over = self.active, self.over
        new.opts, new.key, new.n, new.partial = self.opts, self.key, self.n, self.partial
        new.seats = [s.copy() for s in self.seats]
        new.pieces = {k: p.copy() for k, p in self.pieces.items()}
        new.next_piece = self.next_piece
        new.circle = self.circle.copy()
        new.center = self.center.copy()
        new.demands = [FeedDemand(card=d.card, bunny=d.bunny, owner=d.owner, cabbage=d.cabbage,
                                  water=d.water, due_turn=d.due_turn, placed_by=d.placed_by)
                       for d in self.demands]
        new.strike = None if self.strike is None else self.strike.copy()
        new.placing = self.placing[:]
        new.setup_seat, new.setup_step = self.setup_seat, self.setup_step
        new.refill_seat = self.refill_seat
        new.shuffles = self.shuffles[:]
        new.cut_owed = self.cut_owed
        new.rolloff = None if self.rolloff is None else self.rolloff.copy()
        new.first, new.played, new.replace_owed = self.first, self.played, self.replace_owed
        new.winners = self.winners[:]
        new.end_reason, new.end_rule = self.end_reason, self.end_rule
        return new
