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

from typing import Any

import msgspec

from engine.hidden import UNKNOWN
from engine.ruleset import Perspective
from engine.trust_no_bunny.agenda import to_act
from engine.trust_no_bunny.notes import all_notes
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import hand_list
from engine.trust_no_bunny.unknowns import hand_range


def _role(state: TnbState, seat: int) -> str | None:
    if state.hidden is not None:
        # A game recorded at the table: "?" for a role the record does not know.
        return None if state.phase == "setup" else state.hidden.roles[seat]
    return None if state.werebunnies is None else ("werebunny" if state.is_werebunny[seat] else "townsfolk")


def _seat_secrets(state: TnbState, seat: int, notes: list[list[dict[str, Any]]]) -> dict[str, Any]:
    wb = state.is_werebunny[seat]
    play = state.plays[seat] if state.phase == "night" else None
    secrets: dict[str, Any] = {
        "seat": seat,
        "role": _role(state, seat),
        "quirk": state.quirks[seat],
        "mutation": state.mutations[seat],
        "offers": None if state.offers is None else list(state.offers[seat]),
        "item": state.items[seat],
        "item_lost": state.item_lost[seat],
        "item_used": state.item_used[seat],
        "hand": hand_list(state.hands[seat]),
        "vote": state.votes[seat] if state.phase == "voting" else None,
        "tonight": None if play is None else msgspec.to_builtins(play),
        "notes": notes[seat],
    }
    if wb and state.werebunnies is not None:
        a, b = state.werebunnies
        secrets["partner"] = b if seat == a else a
    hidden = state.hidden
    if hidden is not None and (hidden.lo[seat] or hidden.hi[seat]):
        # Cards of unknown value: shown as "?", with the fewest and most the hand can hold.
        secrets["hand"] += [UNKNOWN] * hidden.lo[seat]
        secrets["hand_size"] = list(hand_range(state, seat))
    return secrets


def _reveal(state: TnbState) -> dict[str, Any]:
    """What the end of the game shows everybody (R-TNB-18)."""
    sizes = [hand_range(state, s) for s in range(state.n)]
    return {
        "werebunnies": list(state.werebunnies or ()),
        "quirks": list(state.quirks),
        "mutations": list(state.mutations),
        "items": list(state.items),
        "hand_sizes": [low if low == high else None for low, high in sizes],
    }


def view(state: TnbState, perspective: Perspective) -> dict[str, Any]:
    table = state.table
    out: dict[str, Any] = {
        **state.position_view(perspective),
        "players": state.n,
        "table": {"guards": list(table.guards), "wolves": list(table.wolves), "wall": table.wall,
                  "tower": table.tower},
        "mayor": state.mayor,
        "wolves": state.wolves,
        "wall": state.wall,
        "tower": state.tower,
        "wall_fell": state.wall_fell,
        "team": None if state.team is None else list(state.team),
        "on_guard": [s for s in range(state.n) if state.on_guard[s]]
        if state.phase in ("night", "dawn") else [],
        "waiting_on": to_act(state),
        "awaiting_card_from": state.pending_loss,
        "proposals": list(state.proposals),
        "nights": list(state.nights),
        "accusations": list(state.accusation_log),
        "standing_accusations": [None if a is None else list(a) for a in state.accusations],
        "refuted_pairs": [list(p) for p in state.refuted],
        "timeouts": list(state.timeouts),
        "outcome": None,
        "reveal": None,
    }
    if state.over:
        out["outcome"] = {"winner": state.winner, "reason": state.reason, "rule": state.end_rule,
                          "winners": list(state.winners)}
        out["reveal"] = _reveal(state)
    if perspective == "referee":
        notes = all_notes(state)
        out["seats"] = [_seat_secrets(state, s, notes) for s in range(state.n)]
        hidden = state.hidden
        if hidden is None:
            out["deck"] = hand_list(state.deck)
            out["discard"] = hand_list(state.discard)
            out["owed"] = list(state.owed)
        else:
            # What a record of a game played at the table knows of the deck and the pile.
            out["deck"] = [UNKNOWN] * (hidden.deck_size or 0)
            out["deck_size"] = hidden.deck_size
            out["discard"] = hand_list(state.discard)
            out["discard_size"] = hidden.discard_size
            out["owed"] = [[low, high] for low, high in zip(hidden.owed_lo, hidden.owed_hi, strict=True)]
    elif isinstance(perspective, int) and 0 <= perspective < state.n:
        out["me"] = _seat_secrets(state, perspective, all_notes(state))
    return out
