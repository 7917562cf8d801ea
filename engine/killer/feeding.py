"""Feed The Bunny: demands on a bunny, their deadlines, stacking and settling.

A Feed The Bunny card put on a bunny is a demand for so many cabbage and water units
(Quest §Feed The Bunny). It falls due at the end of the owner's *next* turn: the owner may
still play an Aggressive card that turn, buy at the market and trade to find the supplies;
if the bunny is not fed by the end of that turn it dies of hunger. Several demands may sit
on one bunny; each is settled (or falls due) on its own. Some cards demand feeding at once
(a Casino or Bakery result): that demand is due immediately, and its owner pays from what
he holds. A card may settle a demand without units (a Large Prune Danish settles every
demand on one bunny; Sunny Day clears every demand in the circle).

Deadlines count the owner's turns: a demand placed when the owner has begun ``t`` turns is
due at the end of his turn ``t + 1``; if placed during the owner's own turn, that turn does
not count (the demand waits for the next one).
"""

from __future__ import annotations

import msgspec

from engine.killer.refusal import Refusal


class FeedDemand(msgspec.Struct, kw_only=True):
    """One pending demand."""

    card: int
    """The Feed The Bunny card (or the card whose result demanded feeding)."""
    bunny: int
    owner: int
    """Who must feed (the bunny's owner when the demand was placed; follows the bunny)."""
    cabbage: int
    water: int
    due_turn: int | None
    """The owner's turn number at whose end it falls due; None: due at once."""
    placed_by: int | None = None


def due_turn(owner_turns_begun: int) -> int:
    """The owner's turn at whose end a demand placed now falls due.

    ``owner_turns_begun`` counts the turns the owner has begun so far, his current turn
    included when he is the active player. His next turn is the first one not yet begun, so
    a demand placed during his own turn waits for the following one."""
    return owner_turns_begun + 1


def falling_due(demands: list[FeedDemand], seat: int, turn: int) -> list[FeedDemand]:
    """The demands on ``seat``'s bunnies due at the end of its turn ``turn``, oldest first."""
    return [d for d in demands if d.owner == seat and d.due_turn is not None
            and d.due_turn <= turn]


def on_bunny(demands: list[FeedDemand], bunny: int) -> list[FeedDemand]:
    return [d for d in demands if d.bunny == bunny]


def need(demands: list[FeedDemand]) -> tuple[int, int]:
    """Cabbage and water units the demands ask for together."""
    return sum(d.cabbage for d in demands), sum(d.water for d in demands)


def find(demands: list[FeedDemand], card: int) -> FeedDemand:
    for d in demands:
        if d.card == card:
            return d
    raise Refusal("feed.no_such_demand", f"no Feed The Bunny demand from card {card} is pending",
                  card=card, pending=[d.card for d in demands])


def drop_bunny(demands: list[FeedDemand], bunny: int) -> list[FeedDemand]:
    """Remove (and return) every demand on a bunny that left the circle."""
    gone = [d for d in demands if d.bunny == bunny]
    demands[:] = [d for d in demands if d.bunny != bunny]
    return gone


def follow_owner(demands: list[FeedDemand], bunny: int, seat: int) -> None:
    """A bunny with demands changed hands: its new owner must feed it."""
    for d in demands:
        if d.bunny == bunny:
            d.owner = seat
