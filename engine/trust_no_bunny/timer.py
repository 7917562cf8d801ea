"""The timer running out, step by step (TNB-TIME-1..6)."""

from __future__ import annotations

from engine.record import Event
from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.day import close_vote
from engine.trust_no_bunny.events import Guard, Rest, Timeout
from engine.trust_no_bunny.night import check_guard_play, check_stage, commit_play, resolve
from engine.trust_no_bunny.numbers import TIMED_PHASES
from engine.trust_no_bunny.rounds import close_muster, pass_mayor
from engine.trust_no_bunny.setup import all_items_chosen
from engine.trust_no_bunny.state import TnbState, offer_of
from engine.trust_no_bunny.table import check_stage_claims, hand_list, refuse_if_over, require_chance


def timeout(state: TnbState, event: Timeout) -> tuple[Effect, ...]:
    refuse_if_over(state)
    require_chance(event, "TNB-TIME-1")
    phase = state.phase
    if phase not in TIMED_PHASES or state.pending_loss is not None:
        # TNB-TIME-1: no timer runs while the game waits on chance or is set up.
        raise RuleViolation("TNB-TIME-1", f"no timer runs in the {phase} step", phase=phase)
    if event.staged and phase != "night":
        # TNB-TIME-5: cards are staged only by guards at night.
        raise RuleViolation("TNB-TIME-5", "cards are staged only by guards at night", phase=phase)
    n = state.n
    reveal = event.reveal
    if reveal is not None and phase != "voting":
        from engine.trust_no_bunny.unknowns import refuse_misplaced_reveal

        refuse_misplaced_reveal(f"a timeout in the {phase} step does not end it")
    if phase == "night":
        if state.partial:
            # A game recorded at the table that does not know everything (unknowns_night.py).
            from engine.trust_no_bunny.unknowns_night import timeout as timeout_unseen

            return timeout_unseen(state, event)
        return _night(state, event)
    if event.claims:
        check_stage_claims(event.claims, None)
    if event.stage is not None:
        from engine.trust_no_bunny.unknowns_night import misplaced_stage

        misplaced_stage()
    if phase == "proposal":
        # TNB-TIME-2: everybody votes no, the wolves stay, the mayor passes.
        mayor = state.mayor
        state.proposals.append({"round": state.round, "mayor": mayor, "team": None,
                                "votes": [False] * n, "approved": False, "timed_out": [mayor]})
        state.timeouts.append({"round": state.round, "phase": phase, "seats": [mayor]})
        pass_mayor(state)
        return (Effect("TNB-TIME-2", "mayor_timed_out", {"mayor": state.mayor}),)
    if phase == "voting":
        missing = [s for s in range(n) if state.votes[s] is None]
        if reveal is not None:
            from engine.trust_no_bunny.unknowns import check_vote_reveal

            check_vote_reveal(state, sum(1 for v in state.votes if v) + len(missing), reveal)
        # TNB-TIME-3: the missing votes count as accept.
        for s in missing:
            state.votes[s] = True
        state.agenda.decisions = {}
        state.timeouts.append({"round": state.round, "phase": phase, "seats": missing})
        return (Effect("TNB-TIME-3", "votes_timed_out", {"seats": missing}),
                *close_vote(state, missing, reveal))
    if phase == "items":
        missing = sorted(state.agenda.decisions)
        # TNB-TIME-6: the first Item offered is kept.
        all_items_chosen(state, {s: offer_of(state, s)[0] for s in missing})
        state.timeouts.append({"round": 0, "phase": phase, "seats": missing})
        return (Effect("TNB-TIME-6", "items_timed_out", {"seats": missing}),)
    # phase == "muster"
    missing = sorted(state.agenda.decisions)
    # TNB-TIME-6: whoever has not mustered is ready.
    state.agenda.decisions = {}
    state.timeouts.append({"round": state.round, "phase": phase, "seats": missing})
    close_muster(state)
    return (Effect("TNB-TIME-6", "muster_timed_out", {"seats": missing}),)


def _night(state: TnbState, event: Timeout) -> tuple[Effect, ...]:
    n = state.n
    staged_by: dict[int, Guard] = {}
    counts: dict[int, tuple[list[int], list[int]]] = {}
    whole_hand = state.guard_timeout == "whole_hand"
    for entry in event.staged:
        seat = entry.seat
        if not (type(seat) is int and 0 <= seat < n) or not state.on_guard[seat]:
            # TNB-TIME-4: a player at home stages nothing; its timer means no action.
            raise RuleViolation("TNB-TIME-4", f"seat {seat} is not on guard and stages no cards", seat=seat)
        if not state.agenda.owes(seat) or seat in staged_by or whole_hand:
            # TNB-TIME-5: staged cards only for a guard who has not played (not in the
            # whole-hand variant, where the hand itself is played).
            raise RuleViolation("TNB-TIME-5", f"seat {seat} cannot have cards staged now", seat=seat,
                                guard_timeout=state.guard_timeout)
        d, w = check_guard_play(state, seat, entry.defend, entry.weaken, "TNB-TIME-5")
        staged_by[seat] = Guard(seq=event.seq, actor=seat, defend=list(entry.defend),
                                weaken=list(entry.weaken))
        counts[seat] = (d, w)
    missing = sorted(state.agenda.decisions)
    plays: list[Event | None] = state.plays[:]
    fills: dict[int, Event] = {}
    for s in missing:
        if state.on_guard[s]:
            if s in staged_by:
                fills[s] = staged_by[s]
            elif whole_hand:
                # TNB-TIME-5 (variant): every card in hand defends.
                fills[s] = Guard(seq=event.seq, actor=s, defend=hand_list(state.hands[s]))
                counts[s] = (state.hands[s][:], [0, 0, 0, 0, 0])
            else:
                fills[s] = Guard(seq=event.seq, actor=s)
        else:
            # TNB-TIME-4: no action at home, the dawn card still comes.
            fills[s] = Rest(seq=event.seq, actor=s)
        plays[s] = fills[s]

    def commit(target: TnbState) -> None:
        for s, play in fills.items():
            first, second = counts.get(s, (None, None))
            commit_play(target, s, play, first, second)

    if event.claims or event.stage is not None:
        check_stage(state, event.claims, event.stage, plays, commit)
    commit(state)
    state.timeouts.append({"round": state.round, "phase": "night", "seats": missing})
    rule = "TNB-TIME-5" if staged_by else "TNB-TIME-4"
    effects = (Effect(rule, "night_timed_out", {"seats": missing}),)
    return effects + resolve(state, plays)
