"""What every part of the Odyssey ruleset shares: the card table, refusals, pieces, Civ points,
scores and the end of the game, draws and discards.

Handlers check every guard before they change anything (a refused event leaves the state as
it was); the helpers here that change the state are called only once the guards have passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.killer.refusal import Refusal, as_violation
from engine.killer.refusal import refuse as refuse  # the family\'s one refusal (also table.refuse)
from engine.killer_bunnies_odyssey import civ as civ_points
from engine.killer_bunnies_odyssey.library import Table, table_by_key
from engine.killer_bunnies_odyssey.numbers import TARGET
from engine.killer_bunnies_odyssey.state import OdysseyState, Piece, Where
from engine.rules import Effect, RuleViolation

T = TypeVar("T")

KIT_RULES: dict[str, str] = {
    "card.unplayed": "ODY-CARD-1",
    "circle.no_such_bunny": "ODY-CARD-1",
    "circle.already_in": "ODY-POS-1",
    "circle.bad_position": "ODY-POS-1",
    "cost.short": "ODY-COST-1",
    "cost.bad_payment": "ODY-COST-1",
    "piles.bad_shuffle": "ODY-SHUF-1",
    "piles.bad_cut": "ODY-SHUF-3",
    "piles.empty": "ODY-TURN-4",
    "dice.no_such_face": "ODY-WPN-1",
    "rolloff.over": "ODY-SET-2",
    "rolloff.not_your_roll": "ODY-SET-2",
    "trade.same_player": "ODY-TRADE-2",
    "trade.not_on_turn": "ODY-TRADE-1",
    "trade.empty": "ODY-TRADE-2",
    "trade.repeated": "ODY-TRADE-2",
    "trade.not_held": "ODY-TRADE-2",
    "trade.run_card": "ODY-TRADE-5",
    "trade.once": "ODY-TRADE-3",
    "trade.hand_one_for_one": "ODY-TRADE-4",
    "feed.no_such_demand": "ODY-FEED-1",
}
"""The kit's refusal codes as Odyssey's rule ids."""

CIV_DIE = civ_points.DieCounter()


_last: list[Any] = [None, None]
"""The table looked up last (key, table): one game is folded at a time in the hot loop."""


def cards(state: OdysseyState) -> Table:
    """The card tables of the state's game (engine.killer_bunnies_odyssey.library)."""
    if _last[0] is state.key:
        table: Table = _last[1]
        return table
    table = table_by_key(state.key, state.opts)
    _last[0], _last[1] = state.key, table
    return table




def kit(call: Callable[[], T], rule: str | None = None) -> T:
    """Run a kit mechanic, turning its refusal into this game's rule violation."""
    try:
        return call()
    except Refusal as exc:
        if rule is not None:
            raise RuleViolation(rule, exc.message, **exc.facts) from None
        raise as_violation(exc, KIT_RULES) from None


def hand_size(state: OdysseyState) -> int:
    return state.opts.hand_size


def opponents(state: OdysseyState, seat: int) -> list[int]:
    """Everybody else, clockwise from the seat's left (ODY-OPP-1)."""
    return [(seat + i) % state.n for i in range(1, state.n)]


def adjacent_players(state: OdysseyState, seat: int) -> list[int]:
    """The players either side (ODY-ADJ-1): left and right; in a two-player game the one
    opponent, once, or twice under the option ``adjacent_twice``."""
    left, right = (seat + 1) % state.n, (seat - 1) % state.n
    if left == right:
        return [left, left] if state.opts.adjacent_twice else [left]
    return [left, right]


# -- pieces -----------------------------------------------------------------------------------


def new_piece(state: OdysseyState, kind: int, owner: int, where: Where, host: int | None = None) -> int:
    pid = state.next_piece
    state.next_piece += 1
    state.pieces[pid] = Piece(id=pid, kind=kind, owner=owner, where=where, host=host)
    return pid


def piece(state: OdysseyState, pid: int, rule: str = "ODY-CARD-1") -> Piece:
    found = state.pieces.get(pid)
    if found is None:
        refuse(rule, f"there is no piece {pid} in play", piece=pid)
    return found


def creatures_in_play(state: OdysseyState, seat: int) -> list[int]:
    """The seat's creatures in play: in the Bunny Circle or inside its cities (ODY-INPLAY-1)."""
    out = list(state.circle.owned_by(seat))
    for city in state.center.owned_by(seat):
        out.extend(state.center.spaces[city].inside)
    return out


def has_bunny(state: OdysseyState, seat: int) -> bool:
    """A bunny of the seat's in the Bunny Circle (the pink box, ODY-COND-1); a creature that
    is not a bunny, or a bunny inside a city, does not count."""
    bunny = cards(state).bunny
    pieces = state.pieces
    return any(bunny[pieces[b].kind] for b in state.circle.owned_by(seat))


def has_city(state: OdysseyState, seat: int) -> bool:
    """A city of the seat's in the Center Circle (the green box, ODY-COND-2)."""
    return state.center.count(seat) > 0


def city_room(state: OdysseyState, city: int) -> int:
    cap = cards(state).capacity[state.pieces[city].kind] or 0
    return cap - len(state.center.spaces[city].inside)


# -- Civ points and the score -----------------------------------------------------------------


def creature_points(state: OdysseyState, pid: int) -> int:
    """A creature's points: its card and the modifiers under it (ODY-CARD-9)."""
    t = cards(state)
    points = t.points[state.pieces[pid].kind]
    space = state.circle.spaces.get(pid)
    if space is not None:
        points += sum(t.modifier_points[state.pieces[m].kind] for m in space.under)
    return points


def city_points(state: OdysseyState, city: int, occupants: bool = True) -> int:
    t = cards(state)
    points = t.points[state.pieces[city].kind]
    if occupants:
        points += sum(t.points[state.pieces[c].kind] for c in state.center.spaces[city].inside)
    return points


def total(state: OdysseyState, seat: int) -> int:
    """d20 + creatures in the circle + cities (+ occupants by default) (ODY-SCORE-1)."""
    return totals(state)[seat]


def totals(state: OdysseyState) -> list[int]:
    """Every seat's total (ODY-SCORE-1), in one pass over the two circles."""
    t = cards(state)
    points, mod_points = t.points, t.modifier_points
    pieces = state.pieces
    out = [s.civ for s in state.seats]
    spaces = state.circle.spaces
    for pid in state.circle.order:
        space = spaces[pid]
        value = points[pieces[pid].kind]
        for m in space.under:
            value += mod_points[pieces[m].kind]
        out[space.owner] += value
    occupants = state.opts.occupants_score
    for pid, space in state.center.spaces.items():
        value = points[pieces[pid].kind]
        if occupants:
            for c in space.inside:
                value += points[pieces[c].kind]
        out[space.owner] += value
    return out


def change_civ(state: OdysseyState, seat: int, amount: int, rule: str, why: str) -> list[Effect]:
    """Move a seat's d20 by ``amount``, kept to the die's faces unless the option says
    otherwise (ODY-CIV-2)."""
    old = state.seats[seat].civ
    if state.opts.civ_bounds == "die":
        new, lost = CIV_DIE.add(old, amount)
    else:
        new, lost = old + amount, 0
    state.seats[seat].civ = new
    out = [Effect(rule, "civ", {"seat": seat, "change": amount, "civ": new, "why": why})]
    if lost:
        out.append(Effect("ODY-CIV-2", "civ_bounded", {"seat": seat, "lost": lost, "civ": new}))
    return out


def check_end(state: OdysseyState, scores: list[int] | None = None) -> list[Effect]:
    """The game ends the moment a total reaches 60, on any turn (ODY-END-1); of several who
    reach it at once, the highest total wins (ties share: R-ODY-16)."""
    if state.over or state.phase in ("setup", "first"):
        return []
    if scores is None:
        scores = totals(state)
    winners = civ_points.reached(scores, TARGET)
    if not winners:
        return []
    state.over = True
    state.phase = "over"
    state.winners = winners
    state.end_reason = "reached_60"
    state.end_rule = "ODY-END-1"
    state.strike = None
    state.placing = []
    return [Effect("ODY-END-1", "game_over", {"winners": winners, "totals": scores,
                                              "active": state.active})]


# -- draws, discards, piles -------------------------------------------------------------------


def to_discard(state: OdysseyState, seat: int, kinds: Iterable[int]) -> None:
    state.seats[seat].discard.extend(kinds)


def leave_play(state: OdysseyState, pid: int) -> list[int]:
    """A piece leaves play (killed, destroyed, used up): it and everything on, under or inside
    it go to their owners' discard piles (whoever controls a card owns it: ruling R-ODY-21).
    Returns the pieces gone (the piece first)."""
    p = state.pieces[pid]
    gone = [pid]
    if p.where == "circle":
        space = state.circle.remove(pid)
        for m in [*space.under, *space.on]:
            gone.append(m)
        state.demands[:] = [d for d in state.demands if d.bunny != pid]
    elif p.where == "city":
        space = state.center.remove(pid)
        for c in space.inside:
            gone.append(c)
    elif p.where == "inside" and p.host is not None:
        state.center.spaces[p.host].inside.remove(pid)
    elif p.where == "saved":
        state.seats[p.owner].saved.remove(pid)
    elif p.where == "on" and p.host is not None:
        host = state.circle.spaces.get(p.host)
        if host is not None and pid in host.on:
            host.on.remove(pid)
        state.demands[:] = [d for d in state.demands if d.card != pid]
    elif p.where == "limbo":
        state.placing.remove(pid)
    for g in gone:
        q = state.pieces.pop(g)
        state.seats[q.owner].discard.append(q.kind)
    return gone


def queue_reshuffles(state: OdysseyState) -> list[Effect]:
    """An empty draw pile is made again from its seat's discard pile, to be shuffled and cut
    (ODY-PILE-1; option empty_pile)."""
    if state.opts.empty_pile != "reshuffle" or state.over:
        return []
    if all(s.draw or not s.discard for s in state.seats):
        return []
    out: list[Effect] = []
    for seat, s in enumerate(state.seats):
        if s.draw or not s.discard or seat in state.shuffles or state.cut_owed == seat:
            continue
        moved = len(s.discard)
        s.draw = s.discard
        s.discard = []
        state.shuffles.append(seat)
        out.append(Effect("ODY-PILE-1", "pile_remade", {"seat": seat, "cards": moved}))
    return out


_PIECE = re.compile(r"\b(piece|card|city|creature|bunny) (\d+)\b")


def pieces_said(state: OdysseyState, message: str) -> str:
    """A refusal with its pieces in play by their cards: handlers write ``piece 11``, ``city
    5`` (the views' numbers); the table reads ``WG04 Painter Bunny``, which the game's
    :meth:`say` then writes name first. Cards in play lie face up, so naming them tells no
    secret. A number that is no piece is left as it is."""
    t = cards(state)

    def named(m: re.Match[str]) -> str:
        p = state.pieces.get(int(m[2]))
        if p is None or not p.kind:
            return m[0]
        label = t.label(p.kind)
        return label if m[1] in ("piece", "card") else f"{m[1]} {label}"

    return _PIECE.sub(named, message)
