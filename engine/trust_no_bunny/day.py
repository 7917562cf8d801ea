"""The day: muster and accusations, the mayor's proposal, the vote, the wolves
(TNB-MUSTER-1, TNB-ACC-*, TNB-DAY-*, TNB-VOTE-*, TNB-WOLF-*)."""

from __future__ import annotations

from engine.hidden import UNKNOWN
from engine.rules import NO_EFFECTS, Effect, RuleViolation
from engine.trust_no_bunny.events import Accuse, CardLost, Propose, Ready, Reveal, Vote
from engine.trust_no_bunny.numbers import WOLF_LIMIT
from engine.trust_no_bunny.rounds import close_muster, finish, pass_mayor, start_night, the_mayor
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import (
    EVERYBODY,
    no_actor,
    refuse_if_over,
    require_chance,
)
from engine.wording import seats_said


def _require_muster(state: TnbState, rule: str) -> None:
    if state.phase != "muster":
        raise RuleViolation(rule, "this is done during the muster, at the start of the day",
                            phase=state.phase)
    if state.pending_loss is not None:
        # TNB-ACC-3: the accusation's random card comes right after it.
        raise RuleViolation("TNB-ACC-3", f"the card seat {state.pending_loss}'s accusation costs "
                            "must be recorded first", accuser=state.pending_loss)


def accuse(state: TnbState, event: Accuse) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-ACC-1")
    # TNB-ACC-1: accusations are made during the muster.
    if state.phase != "muster" or state.pending_loss is not None:
        _require_muster(state, "TNB-ACC-1")
    if state.accused[seat]:
        # TNB-ACC-2: one accusation per player per round.
        raise RuleViolation("TNB-ACC-2", f"seat {seat} already accused this round", round=state.round)
    if seat not in state.agenda.decisions:
        # TNB-MUSTER-1: a player musters once; ready means done for this round.
        raise RuleViolation("TNB-MUSTER-1", f"seat {seat} already declared itself ready this round",
                            round=state.round)
    named = event.suspects
    n = state.n
    if len(named) != 2 or named[0] == named[1] or seat in named or not (
            type(named[0]) is int and 0 <= named[0] < n and type(named[1]) is int and 0 <= named[1] < n):
        # TNB-ACC-1: two different players, neither of them the accuser.
        raise RuleViolation("TNB-ACC-1", "an accusation names two different other players",
                            suspects=list(named))
    if state.partial:
        # A game recorded at the table that does not know everything (unknowns.py).
        from engine.trust_no_bunny.unknowns import accuse as accuse_unseen

        return accuse_unseen(state, seat, event)
    hand = state.hands[seat]
    if not (hand[1] or hand[2] or hand[3] or hand[4]):
        # TNB-ACC-1: the accusation costs a card, so an empty hand cannot accuse.
        raise RuleViolation("TNB-ACC-1", f"seat {seat} holds no card to pay for an accusation", hand=0)
    a, b = named if named[0] < named[1] else (named[1], named[0])
    pair = (a, b)
    wbs = state.werebunnies
    accusations = state.accusations
    is_werebunny = state.is_werebunny
    # TNB-ACC-4: every Townsfolk's latest accusation names both Werebunnies.
    unanimous = not is_werebunny[seat] and pair == wbs and _town_agrees(accusations, is_werebunny, seat, pair)
    if event.reveal is not None:
        _check_reveal(state, event, unanimous)
    accusations[seat] = pair
    state.accused[seat] = True
    del state.agenda.decisions[seat]  # the seat has mustered (engine.pending)
    state.accusation_log.append({"round": state.round, "seat": seat, "suspects": [a, b]})
    accused = Effect("TNB-ACC-1", "accused", {"seat": seat, "suspects": [a, b]})
    if unanimous:
        effects = [accused]
        finish(state, "townsfolk", "unanimous_accusation", "TNB-ACC-4",
               [s for s in range(n) if not is_werebunny[s]], effects)
        return tuple(effects)
    state.pending_loss = seat
    # Everybody outside the pair accuses it when n - 2 standing accusations name it: the
    # pair's own seats never do (an accusation names two other players).
    if accusations.count(pair) == n - 2 and pair not in state.refuted:
        # Everybody outside the pair accuses it and the game goes on: the table knows the
        # pair is wrong (TNB-ACC-4 would have ended the game otherwise).
        state.refuted.append(pair)
        return accused, Effect("TNB-ACC-4", "pair_refuted", {"suspects": [a, b]})
    return (accused,)


def _town_agrees(accusations: list[tuple[int, int] | None], is_werebunny: list[bool], seat: int,
                 pair: tuple[int, int]) -> bool:
    """Does every Townsfolk other than ``seat`` stand accusing ``pair``? (Asked only when
    ``seat`` names the Werebunnies; a loop that stops at the first who does not.)"""
    for s, accused in enumerate(accusations):
        if accused != pair and s != seat and not is_werebunny[s]:
            return False
    return True


def _check_reveal(state: TnbState, event: Accuse, unanimous: bool) -> None:
    """A reveal on an accusation of a record that knows everything: only when it ends the
    game, and then it must show what the state holds (TNB-REC-3)."""
    from engine.trust_no_bunny.unknowns import check_reveal, refuse_misplaced_reveal

    if not unanimous:
        refuse_misplaced_reveal("this accusation does not end the game")
    assert event.reveal is not None
    check_reveal(state, event.reveal, [(state.hand_size(s), state.hand_size(s)) for s in range(state.n)])


def card_lost(state: TnbState, event: CardLost) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = state.pending_loss
    if seat is None:
        # TNB-ACC-3: a card is lost only to an accusation just made.
        raise RuleViolation("TNB-ACC-3", "no accusation is waiting for its card", phase=state.phase)
    if event.actor is not None:
        require_chance(event, "TNB-ACC-3")
    if event.seat != seat:
        raise RuleViolation("TNB-ACC-3", f"the card is owed by seat {seat}, the accuser",
                            seat=event.seat, accuser=seat)
    card = event.card
    if state.partial or card == UNKNOWN:
        # A game recorded at the table: the card may be unknown (unknowns.py).
        from engine.trust_no_bunny.unknowns import card_lost as card_lost_unseen

        return card_lost_unseen(state, seat, event)
    if type(card) is not int or not 1 <= card <= 4 or state.hands[seat][card] == 0:
        raise RuleViolation("TNB-ACC-3", f"seat {seat} holds no card {card!r}",
                            card=card, hand=state.hands[seat][1:])
    state.hands[seat][card] -= 1
    state.discard[card] += 1
    state.pending_loss = None
    state.losses.append((state.round, seat, card))  # for the seat's notes (notes.py)
    if not state.agenda.decisions:
        close_muster(state)
    return (Effect("TNB-ACC-3", "card_lost", {"seat": seat}),)


def ready(state: TnbState, event: Ready) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-MUSTER-1")
    # TNB-MUSTER-1: ready is declared during the muster, once.
    if state.phase != "muster" or state.pending_loss is not None:
        _require_muster(state, "TNB-MUSTER-1")
    waiting = state.agenda.decisions
    if seat not in waiting:
        raise RuleViolation("TNB-MUSTER-1", f"seat {seat} has already mustered this round",
                            round=state.round)
    del waiting[seat]
    if not waiting:
        close_muster(state)
    return NO_EFFECTS


def propose(state: TnbState, event: Propose) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-DAY-1")
    if state.phase == "muster":
        # TNB-MUSTER-1: the proposal waits for the muster to end.
        raise RuleViolation("TNB-MUSTER-1", "the muster is not over yet",
                            waiting_on=sorted(state.agenda.decisions))
    if state.phase != "proposal":
        # TNB-DAY-1: a team is proposed only in the proposal step.
        raise RuleViolation("TNB-DAY-1", "no team can be proposed now", phase=state.phase)
    if seat != state.mayor:
        raise _not_mayor(state, seat)
    team = event.team
    size = state.table.guards[state.round - 1]
    # Seats are ints (events decode strictly), so the bounds of the smallest and the largest
    # say whether all are seats of the game (TNB-DAY-2).
    if len(team) != size or len(set(team)) != size or (team and not 0 <= min(team) <= max(team) < state.n):
        # TNB-DAY-2: exactly tonight's number of guards, all different seats.
        raise RuleViolation("TNB-DAY-2", f"night {state.round} needs a team of {size} different "
                            f"seats, not {seats_said(list(team))}", size=size, team=list(team))
    state.team = sorted(team)
    state.phase = "voting"
    state.active = None
    state.votes = [None] * state.n
    state.agenda.decisions = EVERYBODY[state.n, "vote"].copy()  # table.ask_everybody, inline
    return (Effect("TNB-DAY-1", "team_proposed", {"mayor": seat, "team": state.team}),)


def _not_mayor(state: TnbState, seat: int) -> RuleViolation:
    """The violation for a proposal by someone else than the mayor (the error path only):
    a player who was mayor a moment ago is told why the office moved on."""
    mayor = the_mayor(state)
    this_round = [p for p in state.proposals if p["round"] == state.round]
    if seat == (mayor - 1) % state.n and (this_round or state.round > 1):
        if this_round and this_round[-1]["team"] is None:
            # TNB-TIME-2: the mayor's timer ran out and the office passed on.
            return RuleViolation("TNB-TIME-2", f"seat {seat}'s time as mayor ran out; seat {mayor} "
                                 "is the mayor now", mayor=mayor)
        # TNB-DAY-3: after a rejected team or a new round the mayor is the next seat.
        return RuleViolation("TNB-DAY-3", f"the mayor has passed clockwise from seat {seat} to seat "
                             f"{mayor}", mayor=mayor)
    # TNB-DAY-1: only the mayor proposes.
    return RuleViolation("TNB-DAY-1", f"seat {mayor} is the mayor, not seat {seat}", mayor=mayor)


def vote(state: TnbState, event: Vote) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-VOTE-1")
    if state.phase != "voting":
        # TNB-VOTE-1: votes only while a team is up for the vote.
        raise RuleViolation("TNB-VOTE-1", "no team is up for the vote", phase=state.phase)
    votes = state.votes
    if votes[seat] is not None:
        # TNB-VOTE-2: one vote per player per team.
        raise RuleViolation("TNB-VOTE-2", f"seat {seat} has already voted on this team",
                            seat=seat, team=state.team)
    if event.reveal is not None:
        _check_vote_reveal(state, event)
    votes[seat] = event.accept
    waiting = state.agenda.decisions
    del waiting[seat]  # the seat's vote is in (engine.pending)
    if not waiting:
        return close_vote(state, None, event.reveal)
    return NO_EFFECTS


def _check_vote_reveal(state: TnbState, event: Vote) -> None:
    """A reveal on a vote: only on the last vote, when the rejection ends the game (TNB-REC-3)."""
    from engine.trust_no_bunny.unknowns import check_vote_reveal, refuse_misplaced_reveal

    if len(state.agenda.decisions) != 1:
        refuse_misplaced_reveal("votes are still to come")
    accepts = sum(1 for v in state.votes if v) + (1 if event.accept else 0)
    assert event.reveal is not None
    check_vote_reveal(state, accepts, event.reveal)


def close_vote(state: TnbState, timed_out: list[int] | None,
               reveal: Reveal | None = None) -> tuple[Effect, ...]:
    """Count the votes (TNB-VOTE-3), reveal them (TNB-VOTE-4), raise the wolves on a
    rejection (TNB-WOLF-2) and end the game past the limit (TNB-WOLF-3). ``reveal``: what
    the end showed, already checked by the caller (TNB-REC-3)."""
    n = state.n
    votes = state.votes
    accepts = votes.count(True)  # votes are bools (events decode strictly), None where missing
    approved = accepts * 2 > n
    team = state.team
    if team is None:  # never: votes are cast on a proposed team
        raise RuleViolation("TNB-DAY-1", "no team has been proposed to vote on")
    state.proposals.append({
        "round": state.round, "mayor": state.mayor, "team": team, "votes": votes[:],
        "approved": approved, "timed_out": timed_out,
    })
    effects = [Effect("TNB-VOTE-3", "team_accepted" if approved else "team_rejected",
                      {"team": team, "accepts": accepts, "votes": votes[:]})]
    if approved:
        start_night(state, team)
        return tuple(effects)
    raise_by = len(team) if state.rejection_raise == "team_size" else 1
    state.wolves += raise_by
    effects.append(Effect("TNB-WOLF-2", "wolves_raised", {"by": raise_by, "wolves": state.wolves}))
    if state.wolves > WOLF_LIMIT:
        if state.partial:
            from engine.trust_no_bunny.unknowns import finish as finish_unseen

            finish_unseen(state, "werebunnies", "too_many_wolves", "TNB-WOLF-3", effects, reveal)
            return tuple(effects)
        finish(state, "werebunnies", "too_many_wolves", "TNB-WOLF-3",
               list(state.werebunnies or ()), effects)
        return tuple(effects)
    pass_mayor(state)
    effects.append(Effect("TNB-DAY-3", "mayor_passed", {"mayor": state.mayor}))
    return tuple(effects)


