"""The state of a game of Bunnies at one position."""

from __future__ import annotations

from engine.hidden import Pool
from engine.ruleset import GameState


class BunniesState(GameState):
    """Everything on the table, mutable for a fast fold (see engine.ruleset)."""

    __slots__ = (
        "blinds",
        "bunnies",
        "ended",
        "first_seat",
        "hand_size",
        "hands",
        "known",
        "out",
        "owed",
        "partial",
        "peeked",
        "pile",
        "pool",
        "scores",
        "steal_from",
        "stock",
        "stole",
    )

    hands: list[list[str]]
    """Each seat's hand, in the order the cards arrived."""
    blinds: dict[str, str]
    """Blind slot -> card, for the blind cards still on the table (see layout)."""
    stock: list[str]
    """The face-down stock; the top card is the *last* element (pop is O(1))."""
    pile: list[str]
    """The face-up pile; the top card is the last element."""
    bunnies: list[list[str]]
    """Each seat's scored bunnies, as the rank of each."""
    known: list[set[str]]
    """Blind slots each seat has looked at (a look, or a blind card turned and returned)."""
    owed: str | None
    """The kind of bunny whose action the active player may still take, or None."""
    stole: bool
    peeked: bool
    out: int | None
    """The seat that went out, once the game is over."""
    ended: tuple[int, str, str] | None
    """(turn, rule, how) when a go was ended by a returned blind card or by choice after a
    bunny: only read on the error path, to tell a player who acts again which rule ended
    their go (a go that ends with a lay or a pick-up is told apart by the pile)."""
    scores: list[int] | None
    first_seat: int
    hand_size: int
    steal_from: str
    partial: bool
    """A game recorded at the table: cards nobody saw are ``"?"`` (engine.hidden)."""
    pool: Pool | None
    """In a partial game, the cards not yet seen anywhere; None when every card is known."""

    def __init__(self, first_seat: int, hand_size: int, steal_from: str, partial: bool = False) -> None:
        self._init_position()
        self.hands = [[], []]
        self.blinds = {}
        self.stock = []
        self.pile = []
        self.bunnies = [[], []]
        self.known = [set(), set()]
        self.owed = None
        self.stole = False
        self.peeked = False
        self.out = None
        self.ended = None
        self.scores = None
        self.first_seat = first_seat
        self.hand_size = hand_size
        self.steal_from = steal_from
        self.partial = partial
        self.pool = None

    def copy(self) -> BunniesState:
        new = BunniesState.__new__(BunniesState)
        new.seq = self.seq
        new.round = self.round
        new.turn = self.turn
        new.phase = self.phase
        new.active = self.active
        new.over = self.over
        new.hands = [self.hands[0][:], self.hands[1][:]]
        new.blinds = dict(self.blinds)
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.bunnies = [self.bunnies[0][:], self.bunnies[1][:]]
        new.known = [set(self.known[0]), set(self.known[1])]
        new.owed = self.owed
        new.stole = self.stole
        new.peeked = self.peeked
        new.out = self.out
        new.ended = self.ended
        new.scores = None if self.scores is None else self.scores[:]
        new.first_seat = self.first_seat
        new.hand_size = self.hand_size
        new.steal_from = self.steal_from
        new.partial = self.partial
        new.pool = None if self.pool is None else self.pool.copy()
        return new

    def all_cards(self) -> list[str]:
        """Every card wherever it is (conservation checks)."""
        cards = [*self.hands[0], *self.hands[1], *self.blinds.values(), *self.stock, *self.pile]
        for seat in (0, 1):
            for rank in self.bunnies[seat]:
                cards.extend(rank + suit for suit in "CDHS")
        return cards
