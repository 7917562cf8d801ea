"""The night and dawn of a game recorded at the table: actions nobody saw, the stage the
table was shown, what each seat was told (docs/rulings.md, R-TNB-24 to R-TNB-27).

The table sees who is on guard and that each player acted, never what (R-TNB-11): a record
of such a night writes each action it did not see as ``act`` and the event that ends the
night carries the :class:`NightStage`: the wolves that got through and the points gnawed
from home (TNB-REC-1). The engine works out every bound the known facts give (how many
cards each guard can hold, who could be a Werebunny with Frenzy, who could gnaw) and
refuses a stage outside them (TNB-RES-1, TNB-MUT-1); the damage to the Wall and the Tower
then follows from the rules as always (TNB-RES-2, TNB-RES-3).

A player's own record also names what it was told at dawn (a blessing, a Sabotage, the
Medallion's count, the Crystal Ball's answer, whether its own guess was right) in the
stage's ``told`` list (TNB-REC-2), so its notes and its dawn cards follow exactly. For a
seat the record does not know (:func:`engine.trust_no_bunny.unknowns.is_open`) the engine
keeps the fewest and the most cards it can be owed, and checks the draw against them.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from engine.hidden import UNKNOWN, undetermined
from engine.record import Event
from engine.rules import Effect, RuleViolation
from engine.trust_no_bunny.events import (
    Act,
    AnyNotice,
    Bless,
    BlessedBy,
    Brew,
    Draw,
    Gaze,
    GazeTold,
    Guard,
    GuessTold,
    HomeAction,
    ItemLost,
    MedallionTold,
    NightStage,
    Notice,
    Predict,
    Rest,
    Sabotage,
    SabotageCards,
    Sabotaged,
    Timeout,
)
from engine.trust_no_bunny.numbers import (
    BREW_CARDS,
    CRYSTAL_BALL,
    FRENZY,
    FRENZY_BONUS,
    HORSESHOE,
    MEDALLION,
    MYSTICAL_RECIPE,
    QUIRKS,
    SHIELD,
    SHIELD_POINTS,
    STEALTH,
    WEREBUNNIES,
)
from engine.trust_no_bunny.rounds import ending, start_round
from engine.trust_no_bunny.state import TnbState
from engine.trust_no_bunny.table import (
    card_counts,
    check_stage_claims,
    hand_list,
    has_item,
    is_seat,
    refuse_if_over,
    require_night,
    require_other_seat,
    require_player,
)
from engine.trust_no_bunny.unknowns import (
    TOWNSFOLK,
    WEREBUNNY,
    commit_cards,
    could_be_werebunny,
    could_gnaw,
    could_hold,
    go_partial,
    hand_range,
    hid,
    hide_hand,
    is_open,
    plan_cards,
    refuse_unknowns,
    role,
)

MAX_CARD = 4
"""The highest card value: the most points one card can play."""
MAX_SABOTAGE_CARDS = WEREBUNNIES
"""At most two right Sabotages a night (one per Werebunny at home), a card each."""

Plan = tuple[list[int], list[int]] | None
"""The cards a known action plays (counts per value) and those of them only the hand's
unknown cards can give (unknown.plan_cards); None for an action that plays none."""


# -- the actions ----------------------------------------------------------------------
def _require_night(state: TnbState, seat: int) -> None:

    require_night(state, seat)


def act(state: TnbState, event: Act) -> tuple[Effect, ...]:
    """A night action nobody saw (R-TNB-24): the seat acted once tonight (TNB-NIGHT-1)."""
    refuse_if_over(state)
    seat = require_player(event, "TNB-NIGHT-1")
    _require_night(state, seat)
    refuse_unknowns(state, "a night action nobody saw")
    go_partial(state)
    return _play(state, seat, event, None, [])


def guard(state: TnbState, seat: int, event: Guard) -> tuple[Effect, ...]:
    """A guard's known cards in a partial game (after the night's checks, TNB-GUARD-1)."""
    doubts: list[Effect] = []
    plan = _guard_plan(state, seat, event.defend, event.weaken, "TNB-GUARD-2", doubts)
    return _play(state, seat, event, plan, doubts)


def _guard_plan(state: TnbState, seat: int, defend: list[int], weaken: list[int], rule: str,
                doubts: list[Effect]) -> Plan:
    d = card_counts(defend, rule, "the cards played")
    w = card_counts(weaken, rule, "the cards played")
    if weaken:
        known = role(state, seat)
        if known == TOWNSFOLK:
            # TNB-GUARD-3: only a Werebunny weakens the defences.
            raise RuleViolation("TNB-GUARD-3", f"seat {seat} is Townsfolk and cannot weaken the defences",
                                weaken=list(weaken))
        if known == UNKNOWN:
            doubts.append(undetermined("TNB-GUARD-3", f"legal only if seat {seat} is a Werebunny", seat=seat))
    both = [d[v] + w[v] for v in range(5)]
    # TNB-GUARD-2: the cards come from the player's own hand.
    return both, plan_cards(state, seat, both, rule, doubts)


def home(state: TnbState, event: HomeAction) -> tuple[Effect, ...]:
    """A known home action in a partial game (TNB-HOME-*, TNB-SAB-*, TNB-MUT-1, TNB-ITEM-4/5)."""

    refuse_if_over(state)
    seat = require_player(event, "TNB-HOME-1")
    _require_night(state, seat)
    if state.on_guard[seat]:
        # TNB-HOME-1: a guard plays cards; home actions are for players at home.
        raise RuleViolation("TNB-HOME-1", f"seat {seat} is on guard tonight, not at home", guards=state.team)
    doubts: list[Effect] = []
    plan: Plan = None
    if event.gnaw:
        mutation = state.mutations[seat]
        if not could_gnaw(state, seat):
            # TNB-MUT-1: only a Werebunny with Gnaw weakens from home.
            raise RuleViolation("TNB-MUT-1", f"seat {seat} has no Gnaw and cannot weaken from home",
                                gnaw=list(event.gnaw))
        if mutation == UNKNOWN:
            doubts.append(undetermined("TNB-MUT-1", f"legal only if seat {seat} is the Werebunny with Gnaw",
                                       seat=seat))
        g = card_counts(event.gnaw, "TNB-MUT-1", "the cards gnawed")
        plan = (g, plan_cards(state, seat, g, "TNB-MUT-1", doubts))
    if isinstance(event, Bless):
        target = event.target
        require_other_seat(state, seat, target, "TNB-HOME-2", "a blessing")
        if state.on_guard[target]:
            # TNB-HOME-2: the blessed player must be at home too.
            raise RuleViolation("TNB-HOME-2", f"seat {target} is on guard, not at home", target=target)
    elif isinstance(event, Sabotage):
        known = role(state, seat)
        if known == TOWNSFOLK:
            # TNB-SAB-1: Sabotage is the Werebunnies' alone.
            raise RuleViolation("TNB-SAB-1", f"seat {seat} is Townsfolk and cannot Sabotage", seat=seat)
        if known == UNKNOWN:
            doubts.append(undetermined("TNB-SAB-1", f"legal only if seat {seat} is a Werebunny", seat=seat))
        require_other_seat(state, seat, event.target, "TNB-SAB-2", "a Sabotage")
        if event.quirk not in QUIRKS:
            # TNB-SAB-2: the guess is one of the three Quirks.
            raise RuleViolation("TNB-SAB-2", f"{event.quirk!r} is not a Quirk ({', '.join(QUIRKS)})",
                                quirk=event.quirk)
    elif isinstance(event, Gaze):
        _item_action(state, seat, CRYSTAL_BALL, "TNB-ITEM-4", doubts)
        require_other_seat(state, seat, event.target, "TNB-ITEM-4", "a gaze")
    elif isinstance(event, Brew):
        _item_action(state, seat, MYSTICAL_RECIPE, "TNB-ITEM-5", doubts)
    return _play(state, seat, event, plan, doubts)


def _item_action(state: TnbState, seat: int, item: str, rule: str, doubts: list[Effect]) -> None:
    """The once-a-game Item action, as far as the record knows the seat's Item."""
    held = state.items[seat]
    if held == item and state.item_lost[seat]:
        # TNB-ITEM-9: an Item lost to Sabotage works no more.
        raise RuleViolation("TNB-ITEM-9", f"seat {seat} lost its {item} to a Sabotage", item=item)
    if not could_hold(state, seat, item):
        # TNB-ITEM-4 / TNB-ITEM-5: only the Item's holder uses it.
        raise RuleViolation(rule, f"seat {seat} does not hold the {item}", item=held)
    if held == item and state.item_used[seat]:
        # TNB-ITEM-4 / TNB-ITEM-5: once a game.
        raise RuleViolation(rule, f"the {item} works once a game and seat {seat} has used it", item=item)
    if not is_open(state, seat):
        doubts.append(undetermined(rule, f"legal only if seat {seat} holds the {item}, has not lost it "
                                   "and has not used it yet", seat=seat))


def _stage_of(event: Event) -> NightStage | None:
    stage: NightStage | None = getattr(event, "stage", None)
    return stage


def _play(state: TnbState, seat: int, event: Event, plan: Plan, doubts: list[Effect]) -> tuple[Effect, ...]:
    """Commit one night action of a partial game; the last one resolves the night."""
    if len(state.agenda.decisions) > 1:
        if event.claims:
            check_stage_claims(event.claims, None)
        if _stage_of(event) is not None:
            misplaced_stage()
        _commit(state, seat, event, plan)
        return tuple(doubts)
    plays = state.plays[:]
    plays[seat] = event
    reach = hid(state).reach[:]
    reach[seat] = _reach(state, seat)
    night = UnseenNight(state, plays, reach, _stage_of(event))
    if event.claims:
        check_stage_claims(event.claims, night.stage_effects(), night.tower_open)
    _commit(state, seat, event, plan)
    return (*doubts, *night.apply(state))


def misplaced_stage() -> None:
    # TNB-REC-1: only the event that ends a night shows its stage.
    raise RuleViolation("TNB-REC-1", "a stage is written on the event that ends the night, and the night "
                        "is not over yet")


def _reach(state: TnbState, seat: int) -> int:
    """The most cards a night action nobody saw can have played (TNB-GUARD-2, TNB-MUT-1)."""
    if state.on_guard[seat] or could_gnaw(state, seat):
        return hand_range(state, seat)[1]
    return 0


def _commit(state: TnbState, seat: int, event: Event, plan: Plan) -> None:
    hidden = hid(state)
    if type(event) is Act:
        reach = _reach(state, seat)
        hidden.reach[seat] = reach
        if reach:
            # Any of its cards may have been played: what is left is unknown.
            hide_hand(state, seat)
            hidden.lo[seat] = 0
            hidden.discard_size = None
        hidden.closed[seat] = True
    elif plan is not None:
        commit_cards(state, seat, plan[0], plan[1])
    state.plays[seat] = event
    del state.agenda.decisions[seat]
    if type(event) in (Gaze, Brew):
        state.item_used[seat] = True


def timeout(state: TnbState, event: Timeout) -> tuple[Effect, ...]:
    """The night's timer in a partial game (TNB-TIME-4, TNB-TIME-5). A guard the timeout does
    not list may have staged cards nobody saw (R-TNB-24); one listed with no cards staged
    none."""
    n = state.n
    whole_hand = state.guard_timeout == "whole_hand"
    doubts: list[Effect] = []
    fills: dict[int, tuple[Event, Plan]] = {}
    for entry in event.staged:
        seat = entry.seat
        if not (type(seat) is int and 0 <= seat < n) or not state.on_guard[seat]:
            # TNB-TIME-4: a player at home stages nothing; its timer means no action.
            raise RuleViolation("TNB-TIME-4", f"seat {seat} is not on guard and stages no cards", seat=seat)
        if not state.agenda.owes(seat) or seat in fills or whole_hand:
            # TNB-TIME-5: staged cards only for a guard who has not played.
            raise RuleViolation("TNB-TIME-5", f"seat {seat} cannot have cards staged now", seat=seat,
                                guard_timeout=state.guard_timeout)
        plan = _guard_plan(state, seat, entry.defend, entry.weaken, "TNB-TIME-5", doubts)
        fills[seat] = (Guard(seq=event.seq, actor=seat, defend=list(entry.defend), weaken=list(entry.weaken)),
                       plan)
    missing = sorted(state.agenda.decisions)
    hidden = hid(state)
    whole: list[int] = []
    for s in missing:
        if s in fills:
            continue
        if not state.on_guard[s]:
            # TNB-TIME-4: no action at home, the dawn card still comes.
            fills[s] = (Rest(seq=event.seq, actor=s), None)
        elif whole_hand and hidden.hi[s] == 0:
            # TNB-TIME-5 (variant): every card in hand defends.
            cards = hand_list(state.hands[s])
            fills[s] = (Guard(seq=event.seq, actor=s, defend=cards), (state.hands[s][:], [0, 0, 0, 0, 0]))
        else:
            fills[s] = (Act(seq=event.seq, actor=s), None)
            if whole_hand:
                whole.append(s)
    plays = state.plays[:]
    reach = hidden.reach[:]
    for s, (play, _) in fills.items():
        plays[s] = play
        if type(play) is Act:
            reach[s] = _reach(state, s)
    night = UnseenNight(state, plays, reach, event.stage)
    if event.claims:
        check_stage_claims(event.claims, night.stage_effects(), night.tower_open)
    for s in missing:
        play, plan = fills[s]
        _commit(state, s, play, plan)
    for s in whole:
        # The whole hand was played: the seat holds nothing now (R-TNB-14's variant).
        hidden.lo[s] = hidden.hi[s] = 0
    state.timeouts.append({"round": state.round, "phase": "night", "seats": missing})
    rule = "TNB-TIME-5" if event.staged else "TNB-TIME-4"
    return (*doubts, Effect(rule, "night_timed_out", {"seats": missing}), *night.apply(state))


# -- the stage ------------------------------------------------------------------------
def _shield(state: TnbState, seat: int) -> tuple[int, int]:
    """Fewest and most Shield points for a seat that defends with a card (TNB-ITEM-7)."""
    if is_open(state, seat):
        return (SHIELD_POINTS, SHIELD_POINTS) if has_item(state, seat, SHIELD) else (0, 0)
    return (0, SHIELD_POINTS) if could_hold(state, seat, SHIELD) else (0, 0)


def _frenzy(state: TnbState, seat: int) -> tuple[int, int]:
    """Fewest and most Frenzy points per weakening card (TNB-MUT-2)."""
    mutation = state.mutations[seat]
    if mutation == FRENZY:
        return FRENZY_BONUS, FRENZY_BONUS
    if mutation == UNKNOWN and FRENZY in state.table.mutations and could_be_werebunny(state, seat):
        return 0, FRENZY_BONUS  # only a game that plays Frenzy (its option, R-TNB-5)
    return 0, 0


class UnseenNight:
    """A night's stage when the record does not know every action: the bounds the known
    facts give, the stage written on the event that ends the night checked against them,
    and what follows (see the module docstring). Worked out without touching the state."""

    def __init__(self, state: TnbState, plays: list[Event | None], reach: list[int],
                 stage: NightStage | None) -> None:
        n = state.n
        self.state = state
        self.plays = plays
        self.night = state.round
        wolves = self.wolves = state.wolves
        self.wall_before = state.wall
        self.tower_before = state.tower
        self.weaken_range: list[tuple[int, int]] = [(0, 0)] * n
        self.defended: list[int | None] = [None] * n
        self.weakened: list[int | None] = [None] * n
        # Per guard: defending points (fewest, most), weakening points (fewest), and the most
        # it can weaken as (points without Frenzy, Frenzy's extra, certainly a Werebunny).
        self.defend_range: list[tuple[int, int]] = [(0, 0)] * n
        self.weakening: dict[int, tuple[int, int, bool]] = {}
        g_lo = 0
        g_known = 0
        g_most: list[int] = []
        werebunnies_home = 0
        for s in range(n):
            play = plays[s]
            if state.on_guard[s]:
                if type(play) is Guard:
                    sh = _shield(state, s) if play.defend else (0, 0)
                    fr = _frenzy(state, s) if play.weaken else (0, 0)
                    d, w, k = sum(play.defend), sum(play.weaken), len(play.weaken)
                    d_range = (d + sh[0], d + sh[1])
                    w_range = (w + fr[0] * k, w + fr[1] * k)
                    if d_range[0] == d_range[1]:
                        self.defended[s] = d_range[0]
                    if w_range[0] == w_range[1]:
                        self.weakened[s] = w_range[0]
                    if play.weaken or role(state, s) == WEREBUNNY:
                        self.weakening[s] = (w, fr[1] * k, True)
                else:
                    most = reach[s]
                    sh = (0, SHIELD_POINTS if most and could_hold(state, s, SHIELD) else 0)
                    d_range = (0, MAX_CARD * most + sh[1])
                    werebunny = could_be_werebunny(state, s)
                    w_range = (0, (MAX_CARD + _frenzy(state, s)[1]) * most if werebunny else 0)
                    if could_be_werebunny(state, s):
                        self.weakening[s] = (MAX_CARD * most, _frenzy(state, s)[1] * most,
                                             role(state, s) == WEREBUNNY)
                self.defend_range[s] = d_range
                self.weaken_range[s] = w_range
            else:
                if role(state, s) == WEREBUNNY:
                    werebunnies_home += 1
                if isinstance(play, HomeAction):
                    g_lo += sum(play.gnaw)
                    g_known += bool(play.gnaw)
                elif could_gnaw(state, s):
                    g_most.append(MAX_CARD * reach[s])
        # TNB-MUT-1: a seat with Gnaw gnaws. When the Werebunnies' Mutations must differ, one
        # has Gnaw and a known gnawer is the only one; when they may share it (the default,
        # R-TNB-5), up to two seats gnaw.
        gnawers = 1 if state.table.distinct_mutations else WEREBUNNIES
        g_most.sort(reverse=True)
        g_hi = g_lo + sum(g_most[:max(0, gnawers - g_known)])
        self.werebunnies_home = werebunnies_home
        c_lo = sum(w[0] for w in self.weaken_range) - sum(d[1] for d in self.defend_range)
        c_hi = -sum(d[0] for d in self.defend_range)
        self.c_range = (c_lo, c_hi)
        self.g_range = (g_lo, g_hi)
        if stage is None:
            top = c_hi + self.most_weakening(g_lo > 0)
            through = (max(0, wolves + g_lo + c_lo), max(0, wolves + g_lo + top))
            if g_lo != g_hi or through[0] != through[1]:
                # TNB-REC-1: what the engine cannot work out, the record states.
                raise RuleViolation("TNB-REC-1", "the record does not know every action of night "
                                    f"{self.night}: the event that ends it states the stage the table was "
                                    "shown (wolves that got through, points gnawed)", night=self.night)
            self.gnawed, self.unblocked = g_lo, through[0]
            self.told: list[Notice] = []
        else:
            self._check_stage(stage)
            self.gnawed, self.unblocked = stage.gnawed, stage.unblocked
            self.told = list(stage.told)
        # TNB-RES-2 / TNB-RES-3: the Wall first, no overflow; the Tower only on a later night.
        self.tower_open = state.wall == 0 and state.wall_fell is not None and state.wall_fell < state.round
        if state.wall > 0:
            self.wall_damage = min(self.unblocked, state.wall)
            self.tower_damage = 0
        elif self.tower_open:
            self.wall_damage = 0
            self.tower_damage = min(self.unblocked, state.tower)
        else:
            self.wall_damage = self.tower_damage = 0
        self.hp_lost = self.wall_damage + self.tower_damage
        self._read_notices()

    def _check_stage(self, stage: NightStage) -> None:
        g_lo, g_hi = self.g_range
        gnawed, through = stage.gnawed, stage.unblocked
        if type(gnawed) is not int or type(through) is not int or gnawed < 0 or through < 0:
            raise RuleViolation("TNB-REC-1", "a stage's figures are whole numbers, never below zero",
                                gnawed=gnawed, unblocked=through)
        if not g_lo <= gnawed <= g_hi:
            # TNB-MUT-1: only the Gnaw Werebunny weakens from home, with the cards it holds.
            why = "no seat at home could gnaw tonight" if g_hi == 0 else (
                f"tonight's actions gnaw exactly {g_lo}" if g_lo == g_hi else f"only {g_lo} to {g_hi} can be")
            raise RuleViolation("TNB-MUT-1", f"the stage shows {gnawed} points gnawed from home, but {why}",
                                gnawed=gnawed, at_least=g_lo, at_most=g_hi)
        on_guard = sum(1 for w in self.weakening.values() if w[2])
        if gnawed and on_guard >= WEREBUNNIES:
            # TNB-MUT-1: the gnawing Werebunny is at home, but both are known to be on guard.
            raise RuleViolation("TNB-MUT-1", f"the stage shows {gnawed} points gnawed from home, but both "
                                "Werebunnies are known to be on guard", gnawed=gnawed)
        c_lo, c_hi = self.c_range
        low = max(0, self.wolves + gnawed + c_lo)
        high = max(0, self.wolves + gnawed + c_hi + self.most_weakening(gnawed > 0))
        if not low <= through <= high:
            # TNB-RES-1: wolves + weakening + gnawed - defending, as far as the known facts go.
            allowed = f"exactly {low}" if low == high else f"only {low} to {high}"
            raise RuleViolation("TNB-RES-1", f"the stage shows {through} wolves getting through, but with "
                                f"{self.wolves} wolves, {gnawed} points gnawed and what the guards can hold, "
                                f"{allowed} can", unblocked=through, at_least=low, at_most=high)

    def most_weakening(self, gnawed: bool, leave_out: int | None = None) -> int:
        """The most weakening points the guards (but ``leave_out``) can have played: only the
        two Werebunnies weaken (TNB-GUARD-3), fewer on guard when one is known at home or
        gnawed from home (TNB-MUT-1); Frenzy only where the game plays it (TNB-MUT-2), for
        one of them when their Mutations must differ (TNB-SET-3, by option)."""
        at_home = max(self.werebunnies_home, 1 if gnawed else 0)
        slots = WEREBUNNIES - at_home
        options = {s: w for s, w in self.weakening.items() if s != leave_out}
        forced = [s for s, w in options.items() if w[2]]
        free = [s for s in options if s not in forced]
        best = 0
        for k in range(0, max(0, slots - len(forced)) + 1):
            for extra in combinations(free, k):
                chosen = [*forced, *extra]
                # Frenzy's extra points: one Werebunny's at most when their Mutations must
                # differ, both of them when they may share it (R-TNB-5).
                extras = [options[s][1] for s in chosen]
                bonus = max(extras, default=0) if self.state.table.distinct_mutations else sum(extras)
                points = sum(options[s][0] for s in chosen) + bonus
                best = max(best, points)
        return best

    # -- what the seats were told ----------------------------------------------------
    def _read_notices(self) -> None:
        """Check each notice against the known facts (TNB-REC-2 and the rules it tells of),
        and work out what each seat is told, where the record knows."""
        state = self.state
        n = state.n
        plays = self.plays
        home = [s for s in range(n) if not state.on_guard[s]]
        self.blessers: list[list[int]] = [[] for _ in range(n)]
        self.sabotaged = [0] * n
        self.item_gone = [False] * n
        self.medallion: list[int | None] = [None] * n
        self.gaze: list[bool | None] = [None] * n
        self.guess: list[bool | None] = [None] * n
        self.cards: list[int | None] = [None] * n
        for s in range(n):
            play = plays[s]
            if type(play) is Bless:
                self.blessers[play.target].append(s)
        single: set[tuple[str, int]] = set()
        for notice in self.told:
            t = notice.seat
            kind = str(type(notice).__struct_config__.tag)
            if not is_seat(state, t):
                raise RuleViolation("TNB-REC-2", f"the stage tells seat {t!r}, which is not at this table",
                                    seat=t)
            if kind != "blessed_by" and kind != "sabotaged":
                if (kind, t) in single:
                    raise RuleViolation("TNB-REC-2", f"the stage tells seat {t} {kind} twice", seat=t)
                single.add((kind, t))
            if isinstance(notice, BlessedBy):
                self._blessed_by(t, notice.by, home)
            elif isinstance(notice, (Sabotaged, ItemLost)):
                self._sabotaged(t, isinstance(notice, Sabotaged), home)
            elif isinstance(notice, MedallionTold):
                self._medallion(t, notice.weakened_by_others)
            elif isinstance(notice, GazeTold):
                self._gazed(t, notice.werebunny)
            elif isinstance(notice, GuessTold):
                self._guessed(t, notice.right)
            elif isinstance(notice, SabotageCards):
                if not could_be_werebunny(state, t) or not 1 <= notice.cards <= MAX_SABOTAGE_CARDS:
                    # TNB-SAB-3: each right Sabotage gives each Werebunny a card.
                    raise RuleViolation("TNB-SAB-3", f"the stage gives seat {t} {notice.cards} cards for "
                                        "right Sabotages, which only a Werebunny gets, one or two a night",
                                        seat=t)
                self.cards[t] = notice.cards
        self._derive()

    def _blessed_by(self, t: int, by: object, home: list[int]) -> None:
        state = self.state
        if not is_seat(state, by) or by == t:
            raise RuleViolation("TNB-REC-2", f"the stage says seat {t} was blessed by {by!r}, not by "
                                "another seat", seat=t, by=by)
        assert isinstance(by, int)
        if t not in home or by not in home:
            # TNB-HOME-2: a blessing is given at home, to a player at home.
            raise RuleViolation("TNB-HOME-2", f"the stage says seat {by} blessed seat {t}, but a blessing is "
                                "between two players at home", seat=t, by=by)
        play = self.plays[by]
        if type(play) is not Act and not (type(play) is Bless and play.target == t):
            raise RuleViolation("TNB-REC-2", f"the stage says seat {by} blessed seat {t}, but the record has "
                                f"seat {by}'s action tonight as {_what(play)}", seat=t, by=by)
        if any(by in blessers for blessers in self.blessers) and by not in self.blessers[t]:
            raise RuleViolation("TNB-REC-2", f"seat {by} blessed one player tonight, not two", by=by)
        if by not in self.blessers[t]:
            self.blessers[t].append(by)

    def _saboteurs(self, t: int, home: list[int], noticed: bool) -> list[int]:
        """Seats at home whose Sabotage could have rightly hit ``t`` tonight (told or not)."""
        state = self.state
        out = []
        for s in home:
            if s == t or not could_be_werebunny(state, s):
                continue
            play = self.plays[s]
            if type(play) is not Act and not (type(play) is Sabotage and play.target == t):
                continue
            mutation = state.mutations[s]
            pool = state.table.mutations  # an unknown Mutation is one of the game's (R-TNB-5)
            might_be_stealth = mutation == STEALTH or (mutation == UNKNOWN and STEALTH in pool)
            might_not_be = mutation != STEALTH and not (mutation == UNKNOWN and pool == (STEALTH,))
            if (noticed and not might_not_be) or (not noticed and not might_be_stealth):
                continue
            out.append(s)
        return out

    def _sabotaged(self, t: int, noticed: bool, home: list[int]) -> None:
        state = self.state
        what = "told of a right Sabotage" if noticed else "without its Item"
        if role(state, t) == WEREBUNNY:
            # TNB-SAB-3: a Werebunny has no Quirk, so no guess at it is right.
            raise RuleViolation("TNB-SAB-3", f"the stage leaves seat {t} {what}, but a Werebunny has no "
                                "Quirk to guess", seat=t)
        could = self._saboteurs(t, home, noticed)
        if (noticed and self.sabotaged[t] >= len(could)) or (not noticed and not could):
            # TNB-SAB-3 / TNB-MUT-3: a right Sabotage needs a Werebunny at home to make it.
            raise RuleViolation("TNB-SAB-3", f"the stage leaves seat {t} {what}, but no Werebunny at home "
                                "could have sabotaged it tonight" + ("" if noticed else " under Stealth"),
                                seat=t, could_have=could)
        if state.items[t] is None:
            raise RuleViolation("TNB-SAB-3", f"seat {t} holds no Item to lose", seat=t)
        if noticed:
            self.sabotaged[t] += 1
        self.item_gone[t] = True

    def _medallion(self, t: int, weakened: int) -> None:
        state = self.state
        if not state.on_guard[t] or not could_hold(state, t, MEDALLION):
            # TNB-ITEM-8: the Medallion tells its holder, after a night on guard.
            raise RuleViolation("TNB-ITEM-8", f"the stage gives seat {t} the Medallion's count, but it "
                                f"{'is at home' if not state.on_guard[t] else 'holds no Medallion'} tonight",
                                seat=t)
        low = sum(self.weaken_range[s][0] for s in range(state.n) if s != t)
        high = self.most_weakening(self.gnawed > 0, leave_out=t)
        if type(weakened) is not int or not low <= weakened <= high:
            raise RuleViolation("TNB-ITEM-8", f"the Medallion tells seat {t} of {weakened!r} weakening "
                                f"points, but the other guards can have played only {low} to {high}",
                                seat=t, weakened_by_others=weakened)
        self.medallion[t] = weakened

    def _gazed(self, t: int, werebunny: bool) -> None:
        play = self.plays[t]
        if type(play) is not Gaze:
            raise RuleViolation("TNB-REC-2", f"the stage tells seat {t} what the Crystal Ball showed, but "
                                f"the record has seat {t}'s action as {_what(play)}", seat=t)
        known = role(self.state, play.target)
        if known != UNKNOWN and (known == WEREBUNNY) != werebunny:
            # TNB-ITEM-4: the Crystal Ball shows the truth.
            shown = "a Werebunny" if werebunny else "Townsfolk"
            raise RuleViolation("TNB-ITEM-4", f"the Crystal Ball cannot show seat {play.target} as {shown}: "
                                f"the record knows it is {known}", seat=t, target=play.target)
        self.gaze[t] = werebunny

    def _guessed(self, t: int, right: bool) -> None:
        play = self.plays[t]
        if type(play) is not Sabotage:
            raise RuleViolation("TNB-REC-2", f"the stage tells seat {t} whether its Sabotage was right, "
                                f"but the record has seat {t}'s action as {_what(play)}", seat=t)
        quirk = self.state.quirks[play.target]
        if quirk != UNKNOWN and (quirk == play.quirk) != right:
            # TNB-SAB-3: the guess is right when it names the target's Quirk.
            raise RuleViolation("TNB-SAB-3", f"seat {t}'s guess {play.quirk} at seat {play.target} was "
                                f"{'wrong' if right else 'right'}, not {'right' if right else 'wrong'}",
                                seat=t, target=play.target)
        self.guess[t] = right

    def _derive(self) -> None:
        """What the rules tell each seat where the record knows enough, and the check that a
        seat the record knows was told what its record lists (TNB-REC-2)."""
        state = self.state
        n = state.n
        plays = self.plays
        for s in range(n):
            play = plays[s]
            if type(play) is Sabotage and self.guess[s] is None:
                quirk = state.quirks[play.target]
                if quirk != UNKNOWN:
                    self.guess[s] = quirk == play.quirk
                elif is_open(state, s):
                    raise _untold(s, "whether its Sabotage guessed right")
            elif type(play) is Gaze and self.gaze[s] is None:
                known = role(state, play.target)
                if known != UNKNOWN:
                    self.gaze[s] = known == WEREBUNNY
                elif is_open(state, s):
                    raise _untold(s, "what the Crystal Ball showed")
        for s in range(n):
            if type(plays[s]) is Guard and has_item(state, s, MEDALLION) and self.medallion[s] is None:
                low = sum(self.weaken_range[t][0] for t in range(n) if t != s)
                high = self.most_weakening(self.gnawed > 0, leave_out=s)
                if low == high:
                    self.medallion[s] = low
                elif is_open(state, s):
                    raise _untold(s, "what the Medallion counted")
        # Right Sabotages tonight, where the record can count them.
        saboteurs = [s for s in range(n) if not state.on_guard[s] and could_be_werebunny(state, s)]
        if all(type(plays[s]) is not Act for s in saboteurs) and all(
                type(plays[s]) is not Sabotage or self.guess[s] is not None for s in saboteurs):
            successes: int | None = sum(1 for s in saboteurs if type(plays[s]) is Sabotage and self.guess[s])
        else:
            told = [c for s, c in enumerate(self.cards) if c is not None]
            open_werebunnies = [s for s in range(n) if role(state, s) == WEREBUNNY and is_open(state, s)]
            successes = told[0] if told else (0 if open_werebunnies else None)
        right_known = sum(1 for s in range(n) if type(plays[s]) is Sabotage and self.guess[s])
        if successes is not None and (successes < right_known or any(
                c is not None and c != successes for c in self.cards)):
            raise RuleViolation("TNB-SAB-3", f"the stage counts {successes} right Sabotages tonight, but the "
                                f"record knows of {right_known}", successes=successes)
        self.successes = successes
        # Sabotages the record knows were right tell their target (not under Stealth).
        for s in range(n):
            play = plays[s]
            if type(play) is Sabotage and self.guess[s]:
                t = play.target
                self.item_gone[t] = True
                noticed = state.mutations[s] != STEALTH
                if noticed and is_open(state, t) and self.sabotaged[t] == 0:
                    raise _untold(t, "the right Sabotage against it")

    # -- the stage as effects, and what follows --------------------------------------
    def stage_effects(self) -> tuple[Effect, ...]:
        """The stage as effects: the wolves, the Wall, the Tower (TNB-RES-1..3)."""
        night = self.night
        effects = [Effect("TNB-RES-1", "night_resolved", {
            "night": night, "wolves": self.wolves, "gnawed": self.gnawed, "unblocked": self.unblocked,
        })]
        if self.wall_damage:
            wall = self.wall_before - self.wall_damage
            effects.append(Effect("TNB-RES-2", "wall_damaged", {"damage": self.wall_damage, "wall": wall}))
            if wall == 0:
                effects.append(Effect("TNB-RES-2", "wall_fell", {"night": night}))
        if self.tower_damage:
            effects.append(Effect("TNB-RES-3", "tower_damaged", {
                "damage": self.tower_damage, "tower": self.tower_before - self.tower_damage,
            }))
        return tuple(effects)

    def apply(self, state: TnbState) -> tuple[Effect, ...]:
        """Put the stage on the table: damage, what each seat is told, the cards owed at dawn.
        Notes come in the order the whole game gives them (notes.py)."""
        n = state.n
        night = self.night
        plays = self.plays
        hidden = hid(state)
        effects = list(self.stage_effects())
        if self.wall_damage:
            state.wall -= self.wall_damage
            if state.wall == 0:
                state.wall_fell = night
        if self.tower_damage:
            state.tower -= self.tower_damage
        notes = state.written_notes
        damaged = self.hp_lost > 0
        for s in range(n):
            play = plays[s]
            if type(play) is Sabotage:
                right = self.guess[s]
                notes[s].append({"night": night, "kind": "sabotage", "target": play.target,
                                 "quirk": play.quirk, "right": UNKNOWN if right is None else right})
                if right and state.mutations[s] == STEALTH:
                    effects.append(Effect("TNB-MUT-3", "sabotage_unnoticed", {"night": night}))
        for t in range(n):
            for _ in range(self.sabotaged[t]):
                notes[t].append({"night": night, "kind": "sabotaged",
                                 "item": None if state.item_lost[t] else state.items[t]})
            if self.item_gone[t] and t not in state.pending_item_loss:
                state.pending_item_loss.append(t)
        successes = self.successes
        if successes:
            werebunnies = [s for s in range(n) if role(state, s) == WEREBUNNY]
            if len(werebunnies) == WEREBUNNIES:
                effects.append(Effect("TNB-SAB-3", "sabotage_succeeded", {
                    "successes": successes, "werebunnies": werebunnies}))
        for s in range(n):
            told = self.cards[s]
            if told is None and successes and role(state, s) == WEREBUNNY:
                told = successes
            if told:
                notes[s].append({"night": night, "kind": "sabotage_cards", "cards": told})
        owed_lo = [0] * n
        owed_hi = [0] * n
        blessed_by = [(b, t) for t in range(n) for b in self.blessers[t]]
        for s in range(n):
            play = plays[s]
            if state.on_guard[s]:
                state.nights_guarded[s] += 1
                if type(play) is Guard:
                    notes[s].append({"night": night, "kind": "guarded", "defend": list(play.defend),
                                     "weaken": list(play.weaken),
                                     "defended": _figure(self.defended[s]),
                                     "weakened": _figure(self.weakened[s])})
                if self.medallion[s] is not None:
                    # TNB-ITEM-8: the weakening points the other guards played.
                    notes[s].append({"night": night, "kind": "medallion",
                                     "weakened_by_others": self.medallion[s]})
                    effects.append(Effect("TNB-ITEM-8", "medallion_told", {"seat": s}))
            else:
                state.nights_home[s] += 1
                if isinstance(play, HomeAction) and play.gnaw:
                    notes[s].append({"night": night, "kind": "gnawed", "cards": list(play.gnaw)})
                if isinstance(play, Bless):
                    notes[s].append({"night": night, "kind": "blessed", "target": play.target})
                elif isinstance(play, Predict):
                    right = play.damage == damaged  # TNB-HOME-3
                    notes[s].append({"night": night, "kind": "predicted", "damage": play.damage,
                                     "right": right})
                elif isinstance(play, Gaze):
                    answer = self.gaze[s]
                    notes[s].append({"night": night, "kind": "gaze", "target": play.target,
                                     "werebunny": UNKNOWN if answer is None else answer})
                    effects.append(Effect("TNB-ITEM-4", "gazed", {"seat": s}))
                elif isinstance(play, Brew):
                    notes[s].append({"night": night, "kind": "brewed", "cards": BREW_CARDS})
                for b, t in blessed_by:
                    if b == s:
                        notes[t].append({"night": night, "kind": "blessed_by", "seat": s})
            owed_lo[s], owed_hi[s] = self._owed(s, damaged)
        hidden.owed_lo = owed_lo
        hidden.owed_hi = owed_hi
        hidden.reach = [0] * n
        state.owed = owed_lo[:]
        state.nights.append({
            "night": night, "guards": list(state.team or []), "wolves": self.wolves, "gnawed": self.gnawed,
            "unblocked": self.unblocked, "wall_damage": self.wall_damage,
            "tower_damage": self.tower_damage, "wall": state.wall, "tower": state.tower,
        })
        state.phase = "dawn"
        return tuple(effects)

    def _owed(self, s: int, damaged: bool) -> tuple[int, int]:
        """Fewest and most cards seat ``s`` draws at dawn (TNB-DRAW-1): exact for a seat the
        record knows, bounds for the others."""
        state = self.state
        play = self.plays[s]
        exact = is_open(state, s)
        werebunny = role(state, s)
        if self.successes is not None and werebunny == WEREBUNNY:
            cards = (self.successes, self.successes)
        elif self.cards[s] is not None:
            cards = (self.cards[s] or 0, self.cards[s] or 0)
        elif werebunny == TOWNSFOLK or (exact and werebunny == WEREBUNNY):
            cards = (0, 0)
        else:
            cards = (0, MAX_SABOTAGE_CARDS)
        if state.on_guard[s]:
            return cards
        low = high = 1 + cards[0]
        high += cards[1] - cards[0]
        if exact:
            low += 1 if has_item(state, s, HORSESHOE) else 0
            high = low
        elif could_hold(state, s, HORSESHOE):
            high += 1
        blessed = len(self.blessers[s])
        low += blessed
        high += blessed
        if not exact:
            high += sum(1 for b in range(state.n) if b != s and not state.on_guard[b]
                        and type(self.plays[b]) is Act and all(b not in bl for bl in self.blessers))
        kind = type(play)
        if type(play) is Predict:
            bonus = 1 if play.damage == damaged else 0
            low, high = low + bonus, high + bonus
        elif kind is Brew:
            low, high = low + BREW_CARDS, high + BREW_CARDS
        elif kind is Act:
            high += BREW_CARDS if could_hold(state, s, MYSTICAL_RECIPE) else 1
        return low, high


def _figure(value: int | None) -> int | str:
    return UNKNOWN if value is None else value


def _what(play: Event | None) -> str:
    if play is None:
        return "nothing"
    tag = str(play.__struct_config__.tag)
    return "unseen" if tag == "act" else tag


def _untold(seat: int, what: str) -> RuleViolation:
    # TNB-REC-2: a seat the record knows is told at the stage what its record lists.
    return RuleViolation("TNB-REC-2", f"the record knows seat {seat}'s secrets, so its stage says {what}",
                         seat=seat)


# -- dawn -----------------------------------------------------------------------------
def draw(state: TnbState, event: Draw) -> tuple[Effect, ...]:
    """The dawn draw of a partial game (TNB-DRAW-1, TNB-DRAW-2), the end of the round."""
    from engine.trust_no_bunny.unknowns import check_reveal, finish, refuse_misplaced_reveal

    n = state.n
    cards = event.cards
    if len(cards) != n:
        raise RuleViolation("TNB-DRAW-1", f"the draw lists cards for each of the {n} seats", seats=len(cards))
    if any(c == UNKNOWN or UNKNOWN in c for c in cards):
        refuse_unknowns(state, "the draw")
    hidden = go_partial(state)
    owed_lo, owed_hi = hidden.owed_lo, hidden.owed_hi
    deck, discard = hidden.deck_size, hidden.discard_size
    most = sum(owed_hi)
    short = deck is None or (most > deck and (discard is None or most > deck + discard))
    counts: list[int | None] = [None if c == UNKNOWN else len(c) for c in cards]
    values: list[list[int]] = []
    unknown_cards = [0] * n
    need = [0, 0, 0, 0, 0]
    for s, entry in enumerate(cards):
        got = [0, 0, 0, 0, 0]
        if entry != UNKNOWN:
            for card in entry:
                if card == UNKNOWN:
                    unknown_cards[s] += 1
                elif type(card) is int and 1 <= card <= 4:
                    got[card] += 1
                else:
                    raise RuleViolation("TNB-DRAW-2", f"{card!r} is not a card value (1 to 4) in the draw")
        values.append(got)
        for v in (1, 2, 3, 4):
            need[v] += got[v]
        drawn = counts[s]
        if drawn is not None and not (0 if short else owed_lo[s]) <= drawn <= owed_hi[s]:
            # TNB-DRAW-1: each seat draws what it earned (TNB-DRAW-2: never more).
            owed = f"{owed_lo[s]}" if owed_lo[s] == owed_hi[s] else f"{owed_lo[s]} to {owed_hi[s]}"
            raise RuleViolation("TNB-DRAW-1", f"seat {s} draws {drawn} cards, but it is owed {owed} tonight",
                                seat=s, drawn=drawn, owed_at_least=owed_lo[s], owed_at_most=owed_hi[s])
    total = None if None in counts else sum(c or 0 for c in counts)
    if total is not None and deck is not None and discard is not None and total > deck + discard:
        # TNB-DRAW-2: the deck and the discard pile hold no more.
        raise RuleViolation("TNB-DRAW-2", f"only {deck + discard} cards are left to draw", drawn=total)
    reshuffle_certain = deck is not None and total is not None and total > deck
    reshuffle_maybe = deck is None or most > deck
    pool = hidden.unseen[:]
    if reshuffle_maybe:
        for v in (1, 2, 3, 4):
            pool[v] += state.discard[v]
    if any(need[v] > pool[v] for v in (1, 2, 3, 4)):
        # TNB-DRAW-2: the cards drawn must be in the deck.
        raise RuleViolation("TNB-DRAW-2", "the draw holds cards the deck cannot have", drawn=need[1:],
                            unseen=pool[1:])
    after: list[tuple[int, int]] = []
    for s in range(n):
        low, high = hand_range(state, s)
        drawn = counts[s]
        if drawn is None:
            after.append((low + (0 if short else owed_lo[s]), high + owed_hi[s]))
        else:
            after.append((low + drawn, high + drawn))
    end = ending(state)
    reveal = event.reveal
    if reveal is not None:
        if end is None:
            refuse_misplaced_reveal("this dawn does not end the game")
        check_reveal(state, reveal, after)
    effects: list[Effect] = []
    if reshuffle_maybe:
        hidden.unseen = pool
        state.discard = [0, 0, 0, 0, 0]
        if reshuffle_certain:
            effects.append(Effect("TNB-DRAW-2", "discard_reshuffled", {}))
            hidden.deck_size = None if deck is None or discard is None else deck + discard
            hidden.discard_size = 0
        else:
            hidden.deck_size = hidden.discard_size = None
    night = state.round
    for s in range(n):
        got = values[s]
        hand = state.hands[s]
        for v in (1, 2, 3, 4):
            hand[v] += got[v]
            hidden.unseen[v] -= got[v]
        drawn = counts[s]
        if drawn is None:
            hidden.lo[s] += 0 if short else owed_lo[s]
            hidden.hi[s] += owed_hi[s]
            hidden.closed[s] = True
        elif unknown_cards[s]:
            hidden.lo[s] += unknown_cards[s]
            hidden.hi[s] += unknown_cards[s]
            hidden.closed[s] = True
        if drawn:
            shown: list[int | str] = [*hand_list(got), *[UNKNOWN] * unknown_cards[s]]
            state.written_notes[s].append({"night": night, "kind": "drew", "cards": shown})
    if hidden.deck_size is not None:
        hidden.deck_size = None if total is None else hidden.deck_size - total
    drawn_shown = [UNKNOWN if c is None else c for c in counts]
    effects.append(Effect("TNB-DRAW-1", "cards_drawn", {"drawn": drawn_shown}))
    for seat in state.pending_item_loss:
        # TNB-ITEM-9: the sabotaged Item goes at the end of the night.
        state.item_lost[seat] = True
    state.pending_item_loss = []
    state.owed = [0] * n
    hidden.owed_lo = [0] * n
    hidden.owed_hi = [0] * n
    if end is not None:
        winner, reason, rule = end
        finish(state, winner, reason, rule, effects, reveal)
    else:
        start_round(state)
    return tuple(effects)


# -- the stage of a record that knows everything ---------------------------------------
def notices_for(before: TnbState, after: TnbState, seat: int) -> list[AnyNotice]:
    """What ``seat`` was told at the stage that took ``before`` to ``after`` (a whole-truth
    pair of states), as the notices a record of its own would list (TNB-REC-2)."""
    from engine.trust_no_bunny.notes import seat_notes

    new = seat_notes(after, seat)[len(seat_notes(before, seat)):]
    out: list[AnyNotice] = []
    for note in new:
        kind = note.get("kind")
        if kind == "sabotaged":
            # Told of a right Sabotage, whatever the record knows of the Item it cost (an
            # unknown Item does not make the notice one of Stealth's, TNB-MUT-3).
            out.append(Sabotaged(seat=seat))
            continue
        if UNKNOWN in note.values():
            continue  # a note the record itself could not fill in tells nothing
        if kind == "blessed_by":
            out.append(BlessedBy(seat=seat, by=note["seat"]))
        elif kind == "medallion":
            out.append(MedallionTold(seat=seat, weakened_by_others=note["weakened_by_others"]))
        elif kind == "gaze":
            out.append(GazeTold(seat=seat, werebunny=note["werebunny"]))
        elif kind == "sabotage":
            out.append(GuessTold(seat=seat, right=note["right"]))
        elif kind == "sabotage_cards":
            out.append(SabotageCards(seat=seat, cards=note["cards"]))
    if seat in after.pending_item_loss and not any(isinstance(n, Sabotaged) for n in out):
        # The Item goes: without Stealth in the game a right Sabotage is always told
        # (TNB-SAB-3), with it maybe not (TNB-MUT-3, by option: R-TNB-5).
        out.append(ItemLost(seat=seat) if STEALTH in after.table.mutations else Sabotaged(seat=seat))
    return out


def check_known_stage(state: TnbState, stage: NightStage, unblocked: int, gnawed: int,
                      commit: Callable[[TnbState], None]) -> None:
    """A stage written on the event that ends a night the record knows whole: it must be the
    stage the rules give, and tell each seat only what it was told (TNB-REC-1, TNB-REC-2).
    ``commit(trial)`` plays the night's last action on a copy of the state. Pure."""
    if stage.unblocked != unblocked or stage.gnawed != gnawed:
        raise RuleViolation("TNB-REC-1", f"the stage shows {stage.unblocked} wolves getting through and "
                            f"{stage.gnawed} points gnawed, but the night's actions give {unblocked} and "
                            f"{gnawed}", unblocked=stage.unblocked, gnawed=stage.gnawed)
    if not stage.told:
        return
    trial = state.copy()
    commit(trial)
    for s in sorted({notice.seat for notice in stage.told}):
        if not is_seat(state, s):
            raise RuleViolation("TNB-REC-2", f"the stage tells seat {s!r}, which is not at this table",
                                seat=s)
        derived = notices_for(state, trial, s)
        for notice in (n for n in stage.told if n.seat == s):
            if notice in derived:
                derived.remove(notice)
            else:
                raise RuleViolation("TNB-REC-2", f"the stage tells seat {s} "
                                    f"{type(notice).__struct_config__.tag}, which the night did not tell it",
                                    seat=s)
