"""What each perspective knows of a game of Trust No Bunny (R-TNB-11, R-TNB-18).

Public (everybody, the spectator included): the table's numbers, the mayors, proposals
and, once a vote is complete, every vote (TNB-VOTE-4); who has still to act in the current
step; accusations; each night's stage (guards, wolves, gnawed points, wolves that got
through, damage to the Wall and Tower); timer expiries; the end, with every role revealed.

A seat adds what only it knows, under ``me``: its role (and, for a Werebunny, its
partner), its Quirk or Mutation, its offered and chosen Item, its hand, its own action
tonight and vote, and its private notes (its plays, predictions, blessings, what the
Crystal Ball or the Medallion told it, a Sabotage against it).

The referee sees everything, under ``seats``, plus the deck and the discard pile.

A game recorded at the table shows what its record knows: ``"?"`` for a role, Quirk,
Mutation, Item or card value nobody saw, and, for a hand holding cards of unknown value,
``hand_size`` (the fewest and the most cards it can hold). A seat the record knows whole
(a player's own record) is shown exactly as in the whole game.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from engine.hidden import UNKNOWN
from engine.ruleset import Perspective
from engine.said import SUBJECT, Meaning, PerSeat, Seat, Seats, View
from engine.trust_no_bunny.agenda import to_act
from engine.trust_no_bunny.notes import all_notes
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import hand_list
from engine.trust_no_bunny.unknowns import hand_range

# Trust No Bunny's own meanings: what reads its own way (engine.trust_no_bunny.words).
THING = Meaning("a Trust No Bunny Quirk, Mutation or Item")
ROLE = Meaning("a Trust No Bunny role, or the side that won")
PROPOSAL = Meaning("a Trust No Bunny proposal and its vote")
NIGHT = Meaning("a Trust No Bunny night")
ACCUSATION = Meaning("a Trust No Bunny accusation")
TIMEOUT = Meaning("a Trust No Bunny timer running out")
TONIGHT = Meaning("what a Trust No Bunny player does tonight")
NOTE = Meaning("what only one Trust No Bunny player knows")
ENDING = Meaning("how a Trust No Bunny game ended")
REVEAL = Meaning("the roles revealed at the end of a Trust No Bunny game")

Thing = Annotated[str, THING]
Role = Annotated[str, ROLE]
Record = dict[str, Any]
"""One of the records the game keeps (state.TnbState), worded by its meaning."""


class TableSeen(msgspec.Struct, kw_only=True):
    """The table's numbers for this many players (numbers.TABLE)."""

    guards: list[int]
    wolves: list[int]
    wall: int
    tower: int


class Secrets(msgspec.Struct, kw_only=True):
    """What one player holds that the others do not see (his own view, the referee's)."""

    seat: Seat
    role: Role | None
    quirk: Thing | None
    mutation: Thing | None
    offers: list[Thing] | None
    item: Thing | None
    item_lost: bool
    item_used: bool
    hand: list[int | str]
    """Card values; ``"?"`` for one nobody saw."""
    vote: bool | None
    tonight: Annotated[Record | None, TONIGHT]
    notes: list[Annotated[Record, NOTE]]
    partner: Seat | msgspec.UnsetType = msgspec.UNSET
    """A Werebunny's partner."""
    hand_size: list[int] | msgspec.UnsetType = msgspec.UNSET
    """A hand of cards of unknown value: the fewest and the most it can hold."""


class RevealSeen(msgspec.Struct, kw_only=True):
    """What the end of the game shows everybody (R-TNB-18)."""

    werebunnies: Seats
    quirks: PerSeat[Thing | None]
    mutations: PerSeat[Thing | None]
    items: PerSeat[Thing | None]
    hand_sizes: PerSeat[int | None]


class EndingSeen(msgspec.Struct, kw_only=True):
    winner: Role | None
    reason: str | None
    rule: str | None
    winners: Seats


class TnbView(View, kw_only=True):
    """What a perspective knows of a game of Trust No Bunny (views.view)."""

    players: int
    table: TableSeen
    mayor: Seat | None
    wolves: int
    wall: int
    tower: int
    wall_fell: int | None
    """The night the Wall fell, if it has."""
    team: Seats | None
    on_guard: Seats
    waiting_on: Seats
    awaiting_card_from: Seat | None
    proposals: list[Annotated[Record, PROPOSAL]]
    nights: list[Annotated[Record, NIGHT]]
    accusations: list[Annotated[Record, ACCUSATION]]
    standing_accusations: PerSeat[Seats | None]
    refuted_pairs: list[list[int]]
    timeouts: list[Annotated[Record, TIMEOUT]]
    outcome: Annotated[EndingSeen | None, ENDING]
    reveal: Annotated[RevealSeen | None, REVEAL]
    seats: PerSeat[Secrets] | msgspec.UnsetType = msgspec.UNSET
    """The referee's view: every player's secrets."""
    deck: list[int | str] | msgspec.UnsetType = msgspec.UNSET
    deck_size: int | msgspec.UnsetType | None = msgspec.UNSET
    discard: list[int | str] | msgspec.UnsetType = msgspec.UNSET
    discard_size: int | msgspec.UnsetType | None = msgspec.UNSET
    owed: PerSeat[int | list[int]] | msgspec.UnsetType = msgspec.UNSET
    """Cards owed at dawn, by seat (the fewest and the most, in a game recorded at the table)."""
    me: Annotated[Secrets, SUBJECT] | msgspec.UnsetType = msgspec.UNSET
    """A player's view: his own secrets."""


def _role(state: TnbState, seat: int) -> str | None:
    if state.hidden is not None:
        # A game recorded at the table: "?" for a role the record does not know.
        return None if state.phase == "setup" else state.hidden.roles[seat]
    return None if state.werebunnies is None else ("werebunny" if state.is_werebunny[seat] else "townsfolk")


def _seat_secrets(state: TnbState, seat: int, notes: list[list[dict[str, Any]]]) -> Secrets:
    wb = state.is_werebunny[seat]
    play = state.plays[seat] if state.phase == "night" else None
    secrets = Secrets(
        seat=seat,
        role=_role(state, seat),
        quirk=state.quirks[seat],
        mutation=state.mutations[seat],
        offers=None if state.offers is None else list(state.offers[seat]),
        item=state.items[seat],
        item_lost=state.item_lost[seat],
        item_used=state.item_used[seat],
        hand=list(hand_list(state.hands[seat])),
        vote=state.votes[seat] if state.phase == "voting" else None,
        tonight=None if play is None else msgspec.to_builtins(play),
        notes=notes[seat],
    )
    if wb and state.werebunnies is not None:
        a, b = state.werebunnies
        secrets.partner = b if seat == a else a
    hidden = state.hidden
    if hidden is not None and (hidden.lo[seat] or hidden.hi[seat]):
        # Cards of unknown value: shown as "?", with the fewest and most the hand can hold.
        secrets.hand += [UNKNOWN] * hidden.lo[seat]
        secrets.hand_size = list(hand_range(state, seat))
    return secrets


def _reveal(state: TnbState) -> RevealSeen:
    """What the end of the game shows everybody (R-TNB-18)."""
    sizes = [hand_range(state, s) for s in range(state.n)]
    return RevealSeen(
        werebunnies=list(state.werebunnies or ()),
        quirks=list(state.quirks),
        mutations=list(state.mutations),
        items=list(state.items),
        hand_sizes=[low if low == high else None for low, high in sizes],
    )


def view(state: TnbState, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` knows of the position, as the JSON of :class:`TnbView`."""
    out: dict[str, Any] = msgspec.to_builtins(typed_view(state, perspective))
    return out


def typed_view(state: TnbState, perspective: Perspective) -> TnbView:
    """What ``perspective`` knows of the position."""
    table = state.table
    out = TnbView(
        **state.position_view(perspective),
        players=state.n,
        table=TableSeen(guards=list(table.guards), wolves=list(table.wolves), wall=table.wall,
                        tower=table.tower),
        mayor=state.mayor,
        wolves=state.wolves,
        wall=state.wall,
        tower=state.tower,
        wall_fell=state.wall_fell,
        team=None if state.team is None else list(state.team),
        on_guard=[s for s in range(state.n) if state.on_guard[s]]
        if state.phase in ("night", "dawn") else [],
        waiting_on=to_act(state),
        awaiting_card_from=state.pending_loss,
        proposals=list(state.proposals),
        nights=list(state.nights),
        accusations=list(state.accusation_log),
        standing_accusations=[None if a is None else list(a) for a in state.accusations],
        refuted_pairs=[list(p) for p in state.refuted],
        timeouts=list(state.timeouts),
        outcome=None,
        reveal=None,
    )
    if state.over:
        out.outcome = EndingSeen(winner=state.winner, reason=state.reason, rule=state.end_rule,
                                 winners=list(state.winners))
        out.reveal = _reveal(state)
    if perspective == "referee":
        notes = all_notes(state)
        out.seats = [_seat_secrets(state, s, notes) for s in range(state.n)]
        hidden = state.hidden
        if hidden is None:
            out.deck = list(hand_list(state.deck))
            out.discard = list(hand_list(state.discard))
            out.owed = list(state.owed)
        else:
            # What a record of a game played at the table knows of the deck and the pile.
            out.deck = [UNKNOWN] * (hidden.deck_size or 0)
            out.deck_size = hidden.deck_size
            out.discard = list(hand_list(state.discard))
            out.discard_size = hidden.discard_size
            out.owed = [[low, high] for low, high in zip(hidden.owed_lo, hidden.owed_hi, strict=True)]
    elif isinstance(perspective, int) and 0 <= perspective < state.n:
        out.me = _seat_secrets(state, perspective, all_notes(state))
    return out
