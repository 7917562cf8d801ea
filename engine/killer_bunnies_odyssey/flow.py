"""How the game moves on by itself: the start and end of a turn, rounds, Resources coming back,
Feed The Bunny deadlines, kills and their scores.
"""

from __future__ import annotations

from engine.killer import feeding
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import (
    cards,
    change_civ,
    check_end,
    city_points,
    creature_points,
    leave_play,
    queue_reshuffles,
    totals,
)
from engine.pending import Deadline, Moment
from engine.rules import Effect


def reset_resources(state: OdysseyState, seats: list[int]) -> list[Effect]:
    """Used Resources come back (ODY-COST-2)."""
    back: dict[int, int] = {}
    for s in seats:
        for pid in state.seats[s].saved:
            p = state.pieces[pid]
            if p.used:
                p.used = False
                back[s] = back.get(s, 0) + 1
    return [Effect("ODY-COST-2", "resources_back", {"seat": s, "resources": n}) for s, n in back.items()]


def start_turn(state: OdysseyState, seat: int) -> list[Effect]:
    """``seat``'s turn begins (ODY-TURN-1): a new round when the first player's turn comes
    round again, and the used Resources come back (at the round's end by default, at their
    owner's turn under ``resource_reset = "own_turn"``)."""
    out: list[Effect] = []
    if seat == state.first:
        state.round += 1
        out.append(Effect("ODY-TURN-1", "round_started", {
            "round": state.round, "civ": [s.civ for s in state.seats], "totals": totals(state)}))
        if state.opts.resource_reset == "round":
            out.extend(reset_resources(state, list(range(state.n))))
    if state.opts.resource_reset == "own_turn":
        out.extend(reset_resources(state, [seat]))
    state.active = seat
    state.turn += 1
    state.seats[seat].turns += 1
    state.played = False
    state.replace_owed = False
    state.phase = "turn"
    return out


def end_turn(state: OdysseyState) -> list[Effect]:
    """The active player's turn is over: his creatures whose Feed The Bunny cards fall due
    starve (ODY-FEED-1), the game may end, and the next player clockwise begins
    (ODY-TURN-1)."""
    seat = state.active
    assert seat is not None
    out: list[Effect] = [Effect("ODY-TURN-1", "turn_ended", {"seat": seat, "turn": state.turn})]
    starved = False
    for demand in feeding.falling_due(state.demands, seat, state.seats[seat].turns):
        if demand.bunny in state.pieces and demand in state.demands:
            out.extend(kill_creature(state, demand.bunny, demand.placed_by, "ODY-FEED-1", "feed",
                                     starved=True))
            starved = True
    out.extend(queue_reshuffles(state))
    if starved:
        out.extend(scored(state))
    if state.over:
        return out
    out.extend(start_turn(state, (seat + 1) % state.n))
    return out


def scored(state: OdysseyState) -> list[Effect]:
    """After an event that may have changed a total: every total (ODY-SCORE-1), and the end of
    the game if one reaches 60 (ODY-END-1)."""
    scores = totals(state)
    return [Effect("ODY-SCORE-1", "totals", {"totals": scores, "civ": [s.civ for s in state.seats]}),
            *check_end(state, scores)]


def kill_creature(state: OdysseyState, pid: int, by: int | None, rule: str, weapon: str,
                  starved: bool = False) -> list[Effect]:
    """A creature dies: it leaves play with what lies under and on it; a player who killed an
    opponent's creature adds its points to his d20 (ODY-KILL-1)."""
    p = state.pieces[pid]
    points = creature_points(state, pid)
    t = cards(state)
    gone = leave_play(state, pid)
    out = [Effect(rule, "starved" if starved else "killed",
                  {"seat": p.owner, "piece": pid, "card": t.code(p.kind), "by": by,
                   "points": points, "weapon": weapon, "with": len(gone) - 1})]
    if by is not None and by != p.owner:
        out.extend(change_civ(state, by, points, "ODY-KILL-1", f"killed piece {pid}"))
    return out


def destroy_city(state: OdysseyState, pid: int, by: int | None, rule: str) -> list[Effect]:
    """A city falls with its occupants; a player who destroyed an opponent's city adds the
    city's points and every occupant's to his d20 (ODY-KILL-2)."""
    p = state.pieces[pid]
    points = city_points(state, pid, occupants=True)
    occupants = list(state.center.spaces[pid].inside)
    t = cards(state)
    leave_play(state, pid)
    out = [Effect(rule, "destroyed", {"seat": p.owner, "piece": pid, "card": t.code(p.kind),
                                      "by": by, "points": points, "occupants": occupants,
                                      "weapon": "city"})]
    if by is not None and by != p.owner:
        out.extend(change_civ(state, by, points, "ODY-KILL-2", f"destroyed city {pid}"))
    return out


def feed_deadlines(state: OdysseyState) -> list[Deadline]:
    """Every Feed The Bunny card waiting, as a deadline at the end of its owner's turn
    (engine.pending)."""
    out = []
    for d in state.demands:
        if d.due_turn is None:
            continue
        # The moment is the end of the owner's own turn number ``due_turn`` (his turns are
        # what the kit counts); pieces are numbered in the order they came into play, so the
        # Feed card's piece orders deadlines as the seq that set them would.
        out.append(Deadline(at=Moment(kind="turn_end", seat=d.owner, after=d.due_turn - 1),
                            kind="feed", rule="ODY-FEED-1", subject=f"piece {d.bunny}",
                            since=d.card))
    return out
