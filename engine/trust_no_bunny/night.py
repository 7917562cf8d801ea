"""The night: guards play cards, the rest act at home; the last action in resolves the
night (TNB-NIGHT-1, TNB-GUARD-*, TNB-HOME-*, TNB-SAB-*, TNB-MUT-*, TNB-ITEM-4..9,
TNB-RES-*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from engine.record import Event
from engine.rules import NO_EFFECTS, Effect, RuleViolation
from engine.trust_no_bunny.events import (
    Bless,
    Brew,
    Gaze,
    Guard,
    HomeAction,
    NightStage,
    Predict,
    Rest,
    Sabotage,
)
from engine.trust_no_bunny.numbers import (
    BREW_CARDS,
    CRYSTAL_BALL,
    FRENZY,
    FRENZY_BONUS,
    GNAW,
    HORSESHOE,
    MEDALLION,
    MYSTICAL_RECIPE,
    QUIRKS,
    SHIELD,
    SHIELD_POINTS,
    STEALTH,
)
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import (
    STAGE_EFFECTS,
    card_counts,
    check_stage_claims,
    move_to_discard,
    no_actor,
    refuse_if_over,
    require_in_hand,
    require_night,
    require_other_seat,
)

# -- guards ----------------------------------------------------------------------------


def check_guard_play(state: TnbState, seat: int, defend: list[int], weaken: list[int],
                     rule: str = "TNB-GUARD-2") -> tuple[list[int], list[int]]:
    """Counts of the cards a guard plays, after checking them (TNB-GUARD-2, TNB-GUARD-3)."""
    d = card_counts(defend, rule, "the cards played")
    if not weaken:
        # Most guards only defend: nothing to weaken with, nothing to add up.
        require_in_hand(state, seat, d, rule, defend)  # TNB-GUARD-2
        return d, [0, 0, 0, 0, 0]
    w = card_counts(weaken, rule, "the cards played")
    if not state.is_werebunny[seat]:
        # TNB-GUARD-3: only a Werebunny weakens the defences.
        raise RuleViolation("TNB-GUARD-3", f"seat {seat} is Townsfolk and cannot weaken the defences",
                            weaken=list(weaken))
    both = [d[v] + w[v] for v in range(5)]
    # TNB-GUARD-2: the cards come from the player's own hand.
    require_in_hand(state, seat, both, rule, [*defend, *weaken])
    return d, w


def guard(state: TnbState, event: Guard) -> tuple[Effect, ...]:
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-GUARD-1")
    waiting = state.agenda.decisions
    if state.phase != "night" or seat not in waiting:
        require_night(state, seat)
    if not state.on_guard[seat]:
        # TNB-GUARD-1: only guards play cards at the Tower.
        raise RuleViolation("TNB-GUARD-1", f"seat {seat} is at home tonight, not on guard",
                            guards=state.team)
    if state.partial:
        # A game recorded at the table that does not know everything (unknowns_night.py).
        from engine.trust_no_bunny.unknowns_night import guard as guard_unseen

        return guard_unseen(state, seat, event)
    defend = event.defend
    if event.weaken:
        d, weakened = check_guard_play(state, seat, defend, event.weaken)
    else:
        # check_guard_play for a guard who only defends (most do), inline: the helpers are
        # called only to refuse a card that is no card value or not in the hand (TNB-GUARD-2).
        d = [0, defend.count(1), defend.count(2), defend.count(3), defend.count(4)]
        if d[1] + d[2] + d[3] + d[4] != len(defend):
            card_counts(defend, "TNB-GUARD-2", "the cards played")
        hand = state.hands[seat]
        if d[1] > hand[1] or d[2] > hand[2] or d[3] > hand[3] or d[4] > hand[4]:
            require_in_hand(state, seat, d, "TNB-GUARD-2", defend)
        weakened = None  # nothing to take out of the hand for weakening
    if len(waiting) == 1:
        return _close(state, seat, event, d, weakened)
    if event.claims or event.stage is not None:
        _not_the_end(event)
    # commit_play, for a guard: the cards leave the hand, the play stays secret.
    hand = state.hands[seat]
    discard = state.discard
    if weakened is None:
        for v in defend:  # card values, checked above (most guards play one or two)
            hand[v] -= 1
            discard[v] += 1
    else:
        for v in (1, 2, 3, 4):
            c = d[v] + weakened[v]
            if c:
                hand[v] -= c
                discard[v] += c
    state.plays[seat] = event
    del waiting[seat]  # the seat's night decision is made
    return NO_EFFECTS


def _not_the_end(event: Guard | HomeAction) -> None:
    """A night action that does not end the night shows no stage (R-TNB-19, TNB-REC-1)."""
    if event.claims:
        check_stage_claims(event.claims, None)
    if event.stage is not None:
        from engine.trust_no_bunny.unknowns_night import misplaced_stage

        misplaced_stage()


def _home(state: TnbState, event: HomeAction) -> tuple[int, list[int] | None]:
    """Checks every home action shares; returns the seat and the gnaw counts (or None)."""
    if state.over:
        refuse_if_over(state)
    seat = event.actor
    if seat is None:
        raise no_actor(event, "TNB-HOME-1")
    if state.phase != "night" or seat not in state.agenda.decisions:
        require_night(state, seat)
    if state.on_guard[seat]:
        # TNB-HOME-1: a guard plays cards; home actions are for players at home.
        raise RuleViolation("TNB-HOME-1", f"seat {seat} is on guard tonight, not at home",
                            guards=state.team)
    if not event.gnaw:
        return seat, None
    if state.mutations[seat] != GNAW:
        # TNB-MUT-1: only a Werebunny with Gnaw weakens from home.
        raise RuleViolation("TNB-MUT-1", f"seat {seat} has no Gnaw and cannot weaken from home",
                            gnaw=list(event.gnaw))
    g = card_counts(event.gnaw, "TNB-MUT-1", "the cards gnawed")
    require_in_hand(state, seat, g, "TNB-MUT-1", list(event.gnaw))
    return seat, g


def _finish_home(state: TnbState, seat: int, event: HomeAction, g: list[int] | None) -> tuple[Effect, ...]:
    waiting = state.agenda.decisions
    if len(waiting) == 1:
        return _close(state, seat, event, g, None)
    if event.claims or event.stage is not None:
        _not_the_end(event)
    # commit_play, for one home action.
    if g is not None:
        move_to_discard(state, seat, g)
    state.plays[seat] = event
    del waiting[seat]  # the seat's night decision is made
    if type(event) in (Gaze, Brew):
        state.item_used[seat] = True
    return NO_EFFECTS


def _home_unseen(state: TnbState, event: HomeAction) -> tuple[Effect, ...]:
    """A home action of a game recorded at the table that does not know everything."""
    from engine.trust_no_bunny.unknowns_night import home

    return home(state, event)


def bless(state: TnbState, event: Bless) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    target = event.target
    if type(target) is not int or not 0 <= target < state.n or target == seat:
        require_other_seat(state, seat, target, "TNB-HOME-2", "a blessing")
    if state.on_guard[target]:
        # TNB-HOME-2: the blessed player must be at home too.
        raise RuleViolation("TNB-HOME-2", f"seat {target} is on guard, not at home", target=target)
    return _finish_home(state, seat, event, g)


def predict(state: TnbState, event: Predict) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    return _finish_home(state, seat, event, g)


def sabotage(state: TnbState, event: Sabotage) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    if not state.is_werebunny[seat]:
        # TNB-SAB-1: Sabotage is the Werebunnies' alone.
        raise RuleViolation("TNB-SAB-1", f"seat {seat} is Townsfolk and cannot Sabotage", seat=seat)
    target = event.target
    if type(target) is not int or not 0 <= target < state.n or target == seat:
        require_other_seat(state, seat, target, "TNB-SAB-2", "a Sabotage")
    if event.quirk not in QUIRKS:
        # TNB-SAB-2: the guess is one of the three Quirks.
        raise RuleViolation("TNB-SAB-2", f"{event.quirk!r} is not a Quirk ({', '.join(QUIRKS)})",
                            quirk=event.quirk)
    return _finish_home(state, seat, event, g)


def gaze(state: TnbState, event: Gaze) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    _require_item_action(state, seat, CRYSTAL_BALL, "TNB-ITEM-4")
    require_other_seat(state, seat, event.target, "TNB-ITEM-4", "a gaze")
    return _finish_home(state, seat, event, g)


def brew(state: TnbState, event: Brew) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    _require_item_action(state, seat, MYSTICAL_RECIPE, "TNB-ITEM-5")
    return _finish_home(state, seat, event, g)


def rest(state: TnbState, event: Rest) -> tuple[Effect, ...]:
    if state.partial:
        return _home_unseen(state, event)
    seat, g = _home(state, event)
    return _finish_home(state, seat, event, g)


def _require_item_action(state: TnbState, seat: int, item: str, rule: str) -> None:
    if state.items[seat] == item and state.item_lost[seat]:
        # TNB-ITEM-9: an Item lost to Sabotage works no more.
        raise RuleViolation("TNB-ITEM-9", f"seat {seat} lost its {item} to a Sabotage", item=item)
    if state.items[seat] != item:
        # TNB-ITEM-4 / TNB-ITEM-5: only the Item's holder uses it.
        raise RuleViolation(rule, f"seat {seat} does not hold the {item}", item=state.items[seat])
    if state.item_used[seat]:
        # TNB-ITEM-4 / TNB-ITEM-5: once a game.
        raise RuleViolation(rule, f"the {item} works once a game and seat {seat} has used it", item=item)


# -- committing and resolving ------------------------------------------------------------
def commit_play(state: TnbState, seat: int, event: Event, first: list[int] | None,
                second: list[int] | None) -> None:
    """Take the played cards out of the hand and keep the action secret until the stage."""
    if first is not None:
        move_to_discard(state, seat, first)
    if second is not None:
        move_to_discard(state, seat, second)
    state.plays[seat] = event
    del state.agenda.decisions[seat]  # the seat's night decision is made
    if type(event) in (Gaze, Brew):
        state.item_used[seat] = True


def _close(state: TnbState, seat: int, event: Event, first: list[int] | None,
           second: list[int] | None) -> tuple[Effect, ...]:
    """The last action of the night: check what the record claims of the stage (on a trial
    copy, so a refusal leaves the state as it was), then commit and resolve."""
    plays = state.plays[:]
    plays[seat] = event
    if event.claims or event.stage is not None:  # type: ignore[attr-defined]  # night actions have it
        check_stage(state, event.claims, event.stage, plays,  # type: ignore[attr-defined]  # as above
                    lambda trial: commit_play(trial, seat, event, first, second))
    commit_play(state, seat, event, first, second)
    return resolve(state, plays)


def tower_open(state: TnbState) -> bool:
    """May the wolves damage the Tower tonight? Only on a night after the Wall fell (TNB-RES-3)."""
    return state.wall == 0 and state.wall_fell is not None and state.wall_fell < state.round


def check_stage(state: TnbState, claims: list[dict[str, Any]] | None, stage: NightStage | None,
                plays: list[Event | None], commit: Callable[[TnbState], None]) -> None:
    """The stage a record writes on the event that ends a night, checked against the one
    the rules give (R-TNB-19, TNB-REC-1, TNB-REC-2). ``commit(trial)`` plays the night's
    last actions on a copy of the state; ``plays`` are the night's actions. Pure."""
    trial = state.copy()
    commit(trial)
    effects = resolve(trial, plays)
    if claims:
        check_stage_claims(claims, tuple(e for e in effects if e.kind in STAGE_EFFECTS), tower_open(state))
    if stage is not None:
        from engine.trust_no_bunny.unknowns_night import check_known_stage

        def night(again: TnbState) -> None:
            commit(again)
            resolve(again, plays)

        resolved = effects[0].data  # night_resolved, the first effect of every stage
        check_known_stage(state, stage, resolved["unblocked"], resolved["gnawed"], night)


def resolve(state: TnbState, plays: list[Event | None]) -> tuple[Effect, ...]:
    """The night's stage, once every seat has acted (``plays``, the state's plays already
    committed): the wolves against the guards, damage, the cards owed at dawn. The night's
    actions are kept for the notes of what each seat played and was told (notes.py): the
    state keeps ``plays`` itself, each action without the hash its record line carried (the
    seal of a line, not part of the game: a game read from a file and the same game played
    by bots hold the same state)."""
    n = state.n
    night = state.round
    items, item_lost = state.items, state.item_lost
    nights_guarded, nights_home = state.nights_guarded, state.nights_home
    owed = [0] * n
    defend = weaken = gnawed = 0
    told: list[Effect] = []  # what Items told, seat by seat (after the stage and Sabotages)
    predictions: list[tuple[int, bool]] = []
    sabotages: list[tuple[int, bool]] = []
    for s in range(n):
        play: Any = plays[s]
        if play.hash is not None:
            plays[s] = msgspec.structs.replace(play, hash=None)
        kind = type(play)
        if kind is Guard:
            nights_guarded[s] += 1
            d = sum(play.defend)
            if d and items[s] == SHIELD and not item_lost[s]:
                d += SHIELD_POINTS  # TNB-ITEM-7
            w = sum(play.weaken)
            if w and state.mutations[s] == FRENZY:
                w += FRENZY_BONUS * len(play.weaken)  # TNB-MUT-2
            defend += d
            weaken += w
            if items[s] == MEDALLION and not item_lost[s]:
                # TNB-ITEM-8: the Medallion tells its holder (the note: notes.py).
                told.append(Effect("TNB-ITEM-8", "medallion_told", {"seat": s}))
            continue
        nights_home[s] += 1
        cards = 1  # TNB-DRAW-1: everybody at home draws a card.
        if items[s] == HORSESHOE and not item_lost[s]:
            cards += 1  # TNB-ITEM-6
        if play.gnaw:
            gnawed += sum(play.gnaw)  # TNB-MUT-1
        if kind is Bless:
            owed[play.target] += 1  # TNB-HOME-2
        elif kind is Predict:
            predictions.append((s, play.damage))
        elif kind is Sabotage:
            sabotages.append((s, state.quirks[play.target] == play.quirk))
            if state.quirks[play.target] == play.quirk and play.target not in state.pending_item_loss:
                # TNB-SAB-3: the target loses its Item at dawn (and is told: notes.py).
                state.pending_item_loss.append(play.target)
        elif kind is Gaze:
            told.append(Effect("TNB-ITEM-4", "gazed", {"seat": s}))
        elif kind is Brew:
            cards += BREW_CARDS  # TNB-ITEM-5
        owed[s] += cards
    # TNB-RES-1: wolves + weakening + gnawed - defending, never below zero.
    unblocked = state.wolves + weaken + gnawed - defend
    if unblocked < 0:
        unblocked = 0
    effects = [Effect("TNB-RES-1", "night_resolved", {
        "night": night, "wolves": state.wolves, "gnawed": gnawed, "unblocked": unblocked,
    })]
    # TNB-RES-2 / TNB-RES-3: the Wall first, no overflow; the Tower only on a later night.
    wall_damage = tower_damage = 0
    if state.wall > 0:
        wall_damage = min(unblocked, state.wall)
        if wall_damage:
            state.wall -= wall_damage
            effects.append(Effect("TNB-RES-2", "wall_damaged", {"damage": wall_damage, "wall": state.wall}))
            if state.wall == 0:
                state.wall_fell = night
                effects.append(Effect("TNB-RES-2", "wall_fell", {"night": night}))
    elif state.wall_fell is not None and state.wall_fell < night:
        tower_damage = min(unblocked, state.tower)
        if tower_damage:
            state.tower -= tower_damage
            effects.append(Effect("TNB-RES-3", "tower_damaged",
                                  {"damage": tower_damage, "tower": state.tower}))
    damaged = wall_damage + tower_damage > 0
    for s, damage in predictions:
        if damage == damaged:
            owed[s] += 1  # TNB-HOME-3
    successes = 0
    for saboteur, right in sabotages:
        if right:
            successes += 1
            if state.mutations[saboteur] == STEALTH:
                effects.append(Effect("TNB-MUT-3", "sabotage_unnoticed", {"night": night}))
    if successes:
        effects.append(Effect("TNB-SAB-3", "sabotage_succeeded", {
            "successes": successes, "werebunnies": list(state.werebunnies or ())}))
        for wb in state.werebunnies or ():
            owed[wb] += successes
    if told:
        effects.extend(told)
    state.night_plays.append(plays)
    state.owed = owed
    state.nights.append({
        "night": night, "guards": list(state.team or ()), "wolves": state.wolves, "gnawed": gnawed,
        "unblocked": unblocked, "wall_damage": wall_damage, "tower_damage": tower_damage,
        "wall": state.wall, "tower": state.tower,
    })
    state.phase = "dawn"
    return tuple(effects)
