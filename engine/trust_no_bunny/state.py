"""The state of a game of Trust No Bunny at one position.

Mutable for a fast fold (see engine.ruleset). Hands, deck and discard pile are counts per
card value (index 1..4; index 0 unused), since cards of one value are alike. History
entries (proposals, nights, accusations, and the facts each seat's private notes are made
of, notes.py) are appended once and never changed afterwards; a copy still copies them, so
it shares nothing mutable (events it keeps are shared: nobody changes an event).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.pending import Agenda
from engine.record import Event
from engine.rules import RuleViolation
from engine.ruleset import GameState
from engine.trust_no_bunny.numbers import Table


def _clone(entry: dict[str, Any]) -> dict[str, Any]:
    """A history entry with its lists copied (entries hold ints, strings and lists)."""
    return {k: v[:] if isinstance(v, list) else v for k, v in entry.items()}


class Hidden(msgspec.Struct, kw_only=True):
    """What a game recorded at the table does not know (engine/trust_no_bunny/unknowns.py).

    Cards of one value are alike, so a hand is the cards known to be in it (the state's
    ``hands``) plus between ``lo`` and ``hi`` cards whose values nobody saw. ``unseen``
    counts, per value, the cards not known to be anywhere: in the deck, in a hand as an
    unknown card, or among unknown discards; a card named where it was not known is taken
    out of it, so no value comes to light more often than the deck holds it (REC-UNK-2).
    """

    roles: list[str]
    """Per seat: ``werebunny``, ``townsfolk`` or ``"?"``."""
    closed: list[bool]
    """Seats an unseen event concerned (a night action nobody saw, a card lost or drawn
    unseen): the record no longer knows everything the seat knows (unknown.is_open)."""
    lo: list[int]
    """Per seat: at least this many cards of unknown value in the hand."""
    hi: list[int]
    """Per seat: at most this many."""
    unseen: list[int]
    """Per value (index 0 unused): cards not known to be anywhere."""
    deck_size: int | None
    """Cards in the deck, None once nobody knows."""
    discard_size: int | None
    """Cards in the discard pile, None once nobody knows."""
    owed_lo: list[int]
    """Per seat: at least this many cards owed at dawn."""
    owed_hi: list[int]
    """Per seat: at most this many."""
    reach: list[int]
    """Per seat: the most cards it could have played tonight in an action nobody saw."""

    def copy(self) -> Hidden:
        return Hidden(roles=self.roles[:], closed=self.closed[:], lo=self.lo[:], hi=self.hi[:],
                      unseen=self.unseen[:], deck_size=self.deck_size, discard_size=self.discard_size,
                      owed_lo=self.owed_lo[:], owed_hi=self.owed_hi[:], reach=self.reach[:])


class TnbState(GameState):
    __slots__ = (
        "accusation_log",
        "accusations",
        "accused",
        "agenda",
        "deck",
        "discard",
        "draws",
        "early_end",
        "end_rule",
        "guard_timeout",
        "hands",
        "hidden",
        "is_werebunny",
        "item_lost",
        "item_used",
        "items",
        "losses",
        "mayor",
        "mutations",
        "n",
        "night_plays",
        "nights",
        "nights_guarded",
        "nights_home",
        "offers",
        "on_guard",
        "owed",
        "partial",
        "pending_item_loss",
        "pending_loss",
        "plays",
        "proposals",
        "quirks",
        "reason",
        "recorded",
        "refuted",
        "rejection_raise",
        "table",
        "team",
        "timeouts",
        "tower",
        "votes",
        "wall",
        "wall_fell",
        "werebunnies",
        "winner",
        "winners",
        "wolves",
        "written_notes",
    )

    n: int
    """Number of players."""
    table: Table
    """The numbers this game is played with (table.py, header options)."""
    rejection_raise: str
    early_end: bool
    guard_timeout: str
    # -- secrets dealt at set-up ------------------------------------------------------
    werebunnies: tuple[int, int] | None
    is_werebunny: list[bool]
    quirks: list[str | None]
    mutations: list[str | None]
    offers: list[list[str]] | None
    items: list[str | None]
    """The Item each seat chose (None until chosen)."""
    item_lost: list[bool]
    """Lost to a Sabotage (TNB-ITEM-9)."""
    item_used: list[bool]
    """The once-a-game Item action (Gaze, Brew) has been used."""
    # -- cards --------------------------------------------------------------------------
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    # -- the day ------------------------------------------------------------------------
    mayor: int | None
    agenda: Agenda
    """The seats a simultaneous step (Items, muster, vote, night) or the mayor still
    owes a decision (engine.pending); chance owed is derived from the phase."""
    accused: list[bool]
    """Seats that accused this round (TNB-ACC-2)."""
    accusations: list[tuple[int, int] | None]
    """Each seat's latest accusation, lower seat first (TNB-ACC-4)."""
    pending_loss: int | None
    """The seat whose accusation still awaits its random card (TNB-ACC-3)."""
    team: list[int] | None
    """The team up for the vote, or the guards of the night."""
    votes: list[bool | None]
    wolves: int
    """Wolves attacking tonight (TNB-WOLF-1, raised by TNB-WOLF-2)."""
    # -- the night ----------------------------------------------------------------------
    on_guard: list[bool]
    plays: list[Event | None]
    """Each seat's action tonight (secret until the stage)."""
    wall: int
    tower: int
    wall_fell: int | None
    """The night the Wall fell (TNB-RES-3)."""
    owed: list[int]
    """Cards each seat draws at dawn (TNB-DRAW-1)."""
    pending_item_loss: list[int]
    nights_guarded: list[int]
    nights_home: list[int]
    # -- what the table has seen ------------------------------------------------------
    proposals: list[dict[str, Any]]
    nights: list[dict[str, Any]]
    accusation_log: list[dict[str, Any]]
    refuted: list[tuple[int, int]]
    """Pairs the whole table knows are wrong (a unanimous accusation that did not end it)."""
    timeouts: list[dict[str, Any]]
    # -- what each seat's private notes are made of (notes.py): the fold keeps the facts,
    # a view writes the notes ----------------------------------------------------------
    night_plays: list[list[Event | None] | None]
    """Every night resolved with everything known: each seat's action, as played (None for a
    night whose notes were written as they came, in a world made whole: worlds.py)."""
    draws: list[list[list[int]] | None]
    """Every dawn drawn with everything known: the cards each seat drew (None as above)."""
    losses: list[tuple[int, int, int]]
    """Every card an accusation cost, with everything known: (round, seat, card)."""
    written_notes: list[list[dict[str, Any]]]
    """Private notes per seat written as they come, once the record leaves something
    unknown (unknowns_night.py, unknowns.py): they follow the notes of the facts above."""
    # -- the end --------------------------------------------------------------------------
    winner: str | None
    """``werebunnies`` or ``townsfolk`` once over."""
    reason: str | None
    end_rule: str | None
    winners: list[int]
    # -- a game recorded at the table (unknowns.py) --------------------------------------
    recorded: bool
    """The record is of a game played at the table: it may leave things unknown (REC-UNK-1)."""
    partial: bool
    """Something is unknown: handlers take the slow paths of unknowns.py and unknowns_night.py.
    While it is False (every simulated game, every record that names everything) the state
    holds the whole truth and the handlers run exactly as for a simulated game."""
    hidden: Hidden | None
    """What the record does not know, once ``partial``: which roles are open, how many cards
    of unknown value each hand holds, the cards nobody has seen (unknown.Hidden). In a
    partial state ``hands`` holds the cards known to be in each hand, ``quirks``,
    ``mutations``, ``items`` and ``offers`` hold ``"?"`` where unknown, and
    ``is_werebunny`` is True only for a Werebunny the record knows."""

    def __init__(self, table: Table, rejection_raise: str, early_end: bool, guard_timeout: str,
                 recorded: bool = False) -> None:
        self._init_position()
        n = table.players
        self.n = n
        self.table = table
        self.rejection_raise = rejection_raise
        self.early_end = early_end
        self.guard_timeout = guard_timeout
        self.werebunnies = None
        self.is_werebunny = [False] * n
        self.quirks = [None] * n
        self.mutations = [None] * n
        self.offers = None
        self.items = [None] * n
        self.item_lost = [False] * n
        self.item_used = [False] * n
        self.hands = [[0, 0, 0, 0, 0] for _ in range(n)]
        self.deck = list(table.deck)
        self.discard = [0, 0, 0, 0, 0]
        self.mayor = None
        self.agenda = Agenda()
        self.accused = [False] * n
        self.accusations = [None] * n
        self.pending_loss = None
        self.team = None
        self.votes = [None] * n
        self.wolves = table.wolves[0]
        self.on_guard = [False] * n
        self.plays = [None] * n
        self.wall = table.wall
        self.tower = table.tower
        self.wall_fell = None
        self.owed = [0] * n
        self.pending_item_loss = []
        self.nights_guarded = [0] * n
        self.nights_home = [0] * n
        self.proposals = []
        self.nights = []
        self.accusation_log = []
        self.refuted = []
        self.timeouts = []
        self.night_plays = []
        self.draws = []
        self.losses = []
        self.written_notes = [[] for _ in range(n)]
        self.winner = None
        self.reason = None
        self.end_rule = None
        self.winners = []
        self.recorded = recorded
        self.partial = False
        self.hidden = None

    def copy(self) -> TnbState:
        """An independent copy: nothing mutable is shared (history entries included, so a
        what-if branch can never write into its parent's past)."""
        new = TnbState.__new__(TnbState)
        for name in ("seq", "round", "turn", "phase", "active", "over", "n", "table",
                     "rejection_raise", "early_end", "guard_timeout", "werebunnies",
                     "mayor", "pending_loss", "wolves", "wall", "tower",
                     "wall_fell", "winner", "reason", "end_rule", "recorded", "partial"):
            setattr(new, name, getattr(self, name))
        for name in ("is_werebunny", "quirks", "mutations", "items", "item_lost", "item_used",
                     "deck", "discard", "accused", "accusations", "votes",
                     "on_guard", "plays", "owed", "pending_item_loss",
                     "nights_guarded", "nights_home", "refuted", "winners", "losses"):
            setattr(new, name, getattr(self, name)[:])
        for name in ("proposals", "nights", "accusation_log", "timeouts"):
            setattr(new, name, [_clone(entry) for entry in getattr(self, name)])
        new.offers = None if self.offers is None else [pair[:] for pair in self.offers]
        new.team = None if self.team is None else self.team[:]
        new.agenda = self.agenda.copy()
        new.hands = [hand[:] for hand in self.hands]
        new.night_plays = [None if plays is None else plays[:] for plays in self.night_plays]
        new.draws = [None if draw is None else [cards[:] for cards in draw] for draw in self.draws]
        new.written_notes = [[_clone(note) for note in notes] for notes in self.written_notes]
        new.hidden = None if self.hidden is None else self.hidden.copy()
        return new

    @property
    def notes(self) -> list[list[dict[str, Any]]]:
        """Private notes per seat: own plays and results, what the seat was told (worked
        out from the facts the state keeps, notes.py)."""
        from engine.trust_no_bunny.notes import all_notes

        return all_notes(self)

    def hand_size(self, seat: int) -> int:
        """Cards in the hand (in a partial state: the cards known to be there)."""
        h = self.hands[seat]
        return h[1] + h[2] + h[3] + h[4]

    def card_counts(self) -> list[int]:
        """Cards of each value wherever they are (hands, deck, discard): conservation checks."""
        total = [a + b for a, b in zip(self.deck, self.discard, strict=True)]
        for hand in self.hands:
            for v in range(1, 5):
                total[v] += hand[v]
        return total

    def night(self) -> int:
        """The number of the current (or last) night: the round."""
        return self.round


def offer_of(state: TnbState, seat: int) -> list[str]:
    """The two Items ``seat`` was offered (TNB-ITEM-1): the offers come before any choice."""
    offers = state.offers
    if offers is None:  # never: an Item is chosen only once the offers are recorded
        raise RuleViolation("TNB-ITEM-1", "no Items have been offered yet")
    return offers[seat]
