"""Playing a card: its conditions and cost, the choices it asks for, and what each primitive of
the kit's effect vocabulary does in Odyssey.

A play is planned first (:func:`plan_play`: pure, every guard) and carried out after
(:func:`execute`), so a refused play changes nothing; the kit's resolver walks the card's
primitives in both (``Interpreter.check_card``, ``Interpreter.resolve``), each primitive a
step of the plan. A card that rolls dice leaves a
:class:`~engine.killer_bunnies_odyssey.state.Strike` waiting for them (:func:`roll_strike`); an
answer (a cancel) may stop it while it waits (ODY-CARD-3).

Which primitives Odyssey plays, and the rule each one answers to:

======================  ==============================================================
``enter_circle``        a creature enters the Bunny Circle or a city (ODY-POS-1, ODY-CITY-1)
``build``               a city enters the Center Circle (ODY-POS-2)
``attack``              a Ground Weapon, its area included (ODY-WPN-1, ODY-ADJ-2)
``raze``                a City Weapon (ODY-WPN-2)
``feed``                Feed The Bunny (ODY-FEED-1)
``attach``              a Bunny Modifier (ODY-CARD-9)
``civ``                 Civ points (ODY-CARD-2, ODY-ADJ-1)
``steal``               a creature or a city taken (ODY-CARD-4)
``pick_from_hand``      a card picked by back fanning and discarded (ODY-FAN-1)
``inspect``             a look at a hand (ODY-CARD-7)
``recycle``             discards back into the draw pile (ODY-CARD-6)
``revive``              a creature back from the discard pile (ODY-CARD-5)
``cancel``              an answer to an Aggressive card (ODY-CARD-3, ODY-AGG-1)
``settle_feed``         an answer to hunger (ODY-CARD-8)
``roll_bands``          a die's band decides (ODY-CARD-10)
======================  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.hidden import UNKNOWN, undetermined
from engine.killer import attack as kit_attack
from engine.killer import dice as kit_dice
from engine.killer import feeding
from engine.killer.attack import Guard
from engine.killer.catalogue import effects as fx
from engine.killer.circle import Space
from engine.killer.interpreter import Interpreter
from engine.killer.refusal import Refusal
from engine.killer_bunnies_odyssey import costs
from engine.killer_bunnies_odyssey.flow import destroy_city, end_turn, kill_creature
from engine.killer_bunnies_odyssey.library import Table
from engine.killer_bunnies_odyssey.state import OdysseyState, Strike
from engine.killer_bunnies_odyssey.table import (
    KIT_RULES,
    adjacent_players,
    cards,
    change_civ,
    city_room,
    creatures_in_play,
    has_bunny,
    has_city,
    leave_play,
    new_piece,
    opponents,
    refuse,
)
from engine.killer_bunnies_odyssey.unknowns import HandPlan, commit_hand, kind_of, plan_from_hand
from engine.rules import Effect, WarrenError

Source = Literal["flip", "hand", "saved"]
FIELDS = ("target", "opponent", "at", "into", "picked", "chosen")
ROLLING: frozenset[type] = frozenset({fx.Attack, fx.Raze, fx.RollBands})
"""The primitives that wait for a die in Odyssey (a strike)."""
SIDES = {"d6": 6, "d12": 12}


@dataclass(slots=True)
class Step:
    effect: fx.AnyEffect
    target: int | None = None
    opponent: int | None = None
    at: int | None = None
    into: int | None = None
    picked: int | None = None
    hand: HandPlan | None = None
    chosen: int | None = None
    gone: int | None = None
    """A creature's or city's circle size once a stolen one has left it."""


@dataclass(slots=True)
class Plan:
    """A play checked and not yet carried out: its payment and one step per effect."""

    seat: int
    kind: int
    pay: dict[str, int]
    steps: list[Step]
    notes: list[Effect] = field(default_factory=list)
    """Checks the record cannot decide (engine.hidden)."""
    asked: set[str] = field(default_factory=set)
    """The choices of the event the card's effects read (the rest is refused)."""
    current: int = 0
    """The step being checked or carried out."""
    stays: bool = False
    """The card stays in play (a creature, a city, a modifier, a Feed card)."""
    ends_turn: bool = False
    rolling: bool = False
    """The card waits for its dice (its last step started a strike)."""

    @property
    def step(self) -> Step:
        return self.steps[self.current]


ODYSSEY: Interpreter[OdysseyState, Plan, Any] = Interpreter("killer-bunnies-odyssey")
"""What each primitive does in Odyssey (engine.killer.interpreter); the rule each answers to
is in the module's docstring."""


def check_supported(table: Table) -> None:
    """Refuse a table whose cards use what Odyssey does not play (a primitive of another game,
    a card that rolls before its last effect, a choice asked twice)."""
    for kind in range(1, len(table.codes)):
        effects = list(table.effects[kind])
        code = table.code(kind)
        unplayed = ODYSSEY.unplayed(effects)
        if unplayed:
            raise WarrenError(f"card {code} uses the effect {unplayed[0]!r}, which "
                              "Killer Bunnies Odyssey does not play")
        for i, effect in enumerate(effects):
            if type(effect) in ROLLING and i != len(effects) - 1:
                raise WarrenError(f"card {code} rolls dice before its last effect; an Odyssey "
                                  "card rolls in its last effect only")
            for problem in ODYSSEY.problems_of(effect):
                raise WarrenError(f"card {code} {problem}")
        asked = [f for e in effects for f in sorted(ODYSSEY.takes_of(e))]
        if len(asked) != len(set(asked)):
            raise WarrenError(f"card {code} asks for one choice twice ({asked})")


@ODYSSEY.vets(fx.RollBands)
def _bands_vetted(effect: fx.RollBands) -> list[str]:
    """A band of an Odyssey roll changes its player's Civ points and asks nothing (the
    strike that resolves it has no event to carry a choice)."""
    inner = effect.nested()
    own_civ = [e for e in fx.every(inner, fx.GainCiv) if not ODYSSEY.takes_of(e)]
    if len(own_civ) != len(inner):
        return ["has a band that does more than change Civ points without a choice"]
    return []


@ODYSSEY.vets(fx.Attack, fx.Raze)
def _die_vetted(effect: fx.Attack | fx.Raze) -> list[str]:
    return [] if effect.die in SIDES else [f"rolls {effect.die!r}, not a die of the set"]


@ODYSSEY.takes_by(fx.GainCiv)
def _civ_takes(effect: fx.GainCiv, takes: frozenset[str]) -> frozenset[str]:
    """An own Civ change reads no choice; only one aimed at an opponent names him."""
    return takes if effect.target == "opponent" else frozenset()


for _kind, _fields in (
        (fx.EnterCircle, ("at", "into")), (fx.Build, ("at",)), (fx.Attack, ("target",)),
        (fx.Raze, ("target",)), (fx.Feed, ("target",)), (fx.Attach, ("target",)),
        (fx.GainCiv, ("opponent",)), (fx.Steal, ("target", "at", "into")),
        (fx.PickFromHand, ("opponent", "picked")), (fx.Inspect, ("opponent", "picked")),
        (fx.Revive, ("at", "into", "chosen")), (fx.Cancel, ("target",)),
        (fx.SettleFeed, ("target",))):
    ODYSSEY.takes(_kind, *_fields)


def available(state: OdysseyState, seat: int) -> dict[str, int]:
    """The seat's saved Resources not used this round, by colour (ODY-COST-1, ODY-COST-2)."""
    t = cards(state)
    out: dict[str, int] = {}
    pieces = state.pieces
    for pid in state.seats[seat].saved:
        p = pieces[pid]
        colour = t.resource[p.kind]
        if colour is not None and not p.used:
            out[colour] = out.get(colour, 0) + 1
    return out


def saved_colours(state: OdysseyState, seat: int) -> dict[str, int]:
    """Every saved Resource of the seat by colour, used this round or not."""
    t = cards(state)
    out: dict[str, int] = {}
    for pid in state.seats[seat].saved:
        colour = t.resource[state.pieces[pid].kind]
        if colour is not None:
            out[colour] = out.get(colour, 0) + 1
    return out


def affordable(state: OdysseyState, seat: int, cost: dict[str, int]) -> bool:
    return costs.affordable(cost, available(state, seat))


def available_real(state: OdysseyState, seat: int) -> int:
    """How many saved Resources the seat has unused this round (what feeding may spend)."""
    return sum(available(state, seat).values())


def plan_payment(state: OdysseyState, seat: int, cost: dict[str, int],
                 paid: dict[str, int] | None) -> dict[str, int]:
    """The Resources that pay ``cost``: as the record names them, else warren's own choice
    (every coloured hexagon by its colour, White ones by the most plentiful colour first)."""
    if not cost or not sum(cost.values()):
        if paid:
            refuse("ODY-COST-1", "the card costs nothing, yet the record pays for it", pay=paid)
        return {}
    have = available(state, seat)
    try:
        if paid is not None:
            costs.check_payment(cost, have, paid)
            return {c: n for c, n in paid.items() if n}
        return costs.payment(cost, have)
    except Refusal as short:
        # Not payable now: because Resources are used this round (ODY-COST-2), or not at all.
        saved = saved_colours(state, seat)
        try:
            if paid is not None:
                costs.check_payment(cost, saved, paid)
            else:
                costs.payment(cost, saved)
        except Refusal as exc:
            refuse("ODY-COST-1", exc.message, **{**exc.facts, "cost": dict(cost), "available": have})
        refuse("ODY-COST-2", f"{short.message}: saved Resources that paid this round are used up "
               "until it ends", cost=dict(cost), available=have)


def mark_used(state: OdysseyState, seat: int, pay: dict[str, int]) -> None:
    t = cards(state)
    left = dict(pay)
    for pid in sorted(state.seats[seat].saved):
        p = state.pieces[pid]
        colour = t.resource[p.kind]
        if colour is not None and not p.used and left.get(colour, 0) > 0:
            p.used = True
            left[colour] -= 1


def plan_play(state: OdysseyState, seat: int, kind: int, ev: Any, source: Source) -> Plan:
    """Every guard of playing card ``kind`` with the choices of ``ev`` (ODY-CARD-1)."""
    t = cards(state)
    code = t.code(kind)
    if t.pink[kind] and not has_bunny(state, seat):
        refuse("ODY-COND-1", f"{t.label(kind)} has a pink box: seat {seat} needs a bunny of his own "
               "in the Bunny Circle", card=code, seat=seat)
    if t.green[kind] and not has_city(state, seat):
        refuse("ODY-COND-2", f"{t.label(kind)} has a green box: seat {seat} needs a city of his own "
               "in the Center Circle", card=code, seat=seat)
    effects = t.effects[kind]
    if state.strike is not None and any(type(e) in ROLLING for e in effects):
        refuse("ODY-VSP-1", f"{t.label(kind)} rolls dice, and another card still waits for its roll",
               card=code)
    pay = plan_payment(state, seat, t.cost[kind], ev.pay)
    plan = Plan(seat=seat, kind=kind, pay=pay, steps=[])
    ODYSSEY.check_card(state, plan, effects, ev, KIT_RULES, _step_planned)
    for name in FIELDS:
        if getattr(ev, name) is not None and name not in plan.asked:
            refuse("ODY-CARD-1", f"{t.label(kind)} asks for no {name}", card=code, field=name)
    return plan


def _step_planned(state: OdysseyState, plan: Plan, index: int, effect: fx.AnyEffect) -> None:
    """Each primitive of the card is a step of its plan, which its check fills in."""
    plan.steps.append(Step(effect))
    plan.current = index


def _step_carried_out(state: OdysseyState, plan: Plan, index: int, effect: fx.AnyEffect) -> None:
    plan.current = index


def _placement(state: OdysseyState, seat: int, at: int | None, into: int | None, size: int,
               used: set[str], city_allowed: bool = True) -> tuple[int | None, int | None]:
    """Where a creature the seat acquires goes: index ``at`` of the Bunny Circle (of ``size``
    creatures) or inside its own city ``into`` with room (ODY-POS-1, ODY-CITY-1)."""
    used.update(("at", "into"))
    if into is not None:
        if at is not None:
            refuse("ODY-CARD-1", "a creature goes into the Bunny Circle or into a city, not both",
                   at=at, into=into)
        city = state.pieces.get(into)
        if city is None or city.where != "city" or not city_allowed:
            refuse("ODY-CITY-1", f"piece {into} is not a city in the Center Circle", into=into)
        if city.owner != seat:
            refuse("ODY-CITY-1", f"city {into} is not seat {seat}'s", into=into, owner=city.owner)
        if city_room(state, into) <= 0:
            refuse("ODY-CITY-1", f"city {into} has no room left", into=into)
        return None, into
    if at is not None and not 0 <= at <= size:
        refuse("ODY-POS-1", f"position {at} is not in the Bunny Circle (0 to {size})", at=at, size=size)
    return at, None


def _creature(state: OdysseyState, pid: int | None, rule: str, what: str) -> Any:
    if pid is None:
        refuse(rule, f"the card names the {what} it aims at")
    p = state.pieces.get(pid)
    if p is None or not cards(state).creature[p.kind]:
        refuse(rule, f"piece {pid} is not a creature in play", target=pid)
    return p


# -- the checks, by family ----------------------------------------------------------------------
# circle


@ODYSSEY.check(fx.EnterCircle)
def _check_enter(state: OdysseyState, plan: Plan, effect: fx.EnterCircle, ev: Any) -> None:
    plan.step.at, plan.step.into = _placement(state, plan.seat, ev.at, ev.into, len(state.circle),
                                              plan.asked)


@ODYSSEY.check(fx.Build)
def _check_build(state: OdysseyState, plan: Plan, effect: fx.Build, ev: Any) -> None:
    plan.asked.add("at")
    if ev.at is not None and not 0 <= ev.at <= len(state.center):
        refuse("ODY-POS-2", f"position {ev.at} is not in the Center Circle (0 to "
               f"{len(state.center)})", at=ev.at)
    plan.step.at = ev.at


@ODYSSEY.check(fx.Attach)
def _check_attach(state: OdysseyState, plan: Plan, effect: fx.Attach, ev: Any) -> None:
    plan.asked.add("target")
    p = _creature(state, ev.target, "ODY-CARD-9", "creature")
    if p.where != "circle" or p.owner != plan.seat:
        refuse("ODY-CARD-9", f"a Bunny Modifier goes under one of seat {plan.seat}'s own creatures "
               "in the Bunny Circle", target=p.id, owner=p.owner, where=p.where)
    plan.step.target = p.id


@ODYSSEY.check(fx.Steal)
def _check_steal(state: OdysseyState, plan: Plan, effect: fx.Steal, ev: Any) -> None:
    seat, step = plan.seat, plan.step
    plan.asked.update(("target", "at", "into"))
    if effect.what == "creature":
        p = _creature(state, ev.target, "ODY-CARD-4", "creature")
        if p.where not in ("circle", "inside"):
            refuse("ODY-CARD-4", f"piece {p.id} is not a creature in play", target=p.id)
        if p.owner == seat:
            refuse("ODY-CARD-4", f"piece {p.id} is already seat {seat}'s", target=p.id)
        size = len(state.circle) - (1 if p.where == "circle" else 0)
        step.target = p.id
        step.at, step.into = _placement(state, seat, ev.at, ev.into, size, plan.asked)
        return
    city = state.pieces.get(ev.target) if ev.target is not None else None
    if city is None or city.where != "city" or city.owner == seat:
        refuse("ODY-CARD-4", "the card takes an opponent's city", target=ev.target)
    if ev.into is not None:
        refuse("ODY-POS-2", "a city goes into the Center Circle, not into a city", into=ev.into)
    if ev.at is not None and not 0 <= ev.at <= len(state.center) - 1:
        refuse("ODY-POS-2", f"position {ev.at} is not in the Center Circle", at=ev.at)
    step.target, step.at = city.id, ev.at


@ODYSSEY.check(fx.Revive)
def _check_revive(state: OdysseyState, plan: Plan, effect: fx.Revive, ev: Any) -> None:
    plan.asked.add("chosen")
    if ev.chosen is None:
        refuse("ODY-CARD-5", "the card names the creature it brings back")
    t = cards(state)
    kind = kind_of(state, ev.chosen, "the creature revived")
    if not kind or not t.creature[kind] or kind not in state.seats[plan.seat].discard:
        refuse("ODY-CARD-5", f"{ev.chosen} is no creature of seat {plan.seat}'s discard pile",
               chosen=ev.chosen)
    plan.step.chosen = kind
    plan.step.at, plan.step.into = _placement(state, plan.seat, ev.at, ev.into, len(state.circle),
                                              plan.asked)


# combat and feeding: a Ground Weapon and a Feed card aim alike


@ODYSSEY.check(fx.Attack)
def _check_weapon_aim(state: OdysseyState, plan: Plan, effect: fx.Attack, ev: Any) -> None:
    _check_aim(state, plan, effect, ev, "ODY-WPN-1")


@ODYSSEY.check(fx.Feed)
def _check_feed_aim(state: OdysseyState, plan: Plan, effect: fx.Feed, ev: Any) -> None:
    _check_aim(state, plan, effect, ev, "ODY-FEED-1")


def _check_aim(state: OdysseyState, plan: Plan, effect: fx.Attack | fx.Feed, ev: Any,
               rule: str) -> None:
    plan.asked.add("target")
    p = _creature(state, ev.target, rule, "creature")
    if p.where != "circle":
        refuse(rule, f"piece {p.id} is not in the Bunny Circle (a creature inside a city is out "
               "of a Ground Weapon's and a Feed card's reach)", target=p.id, where=p.where)
    if effect.target != "any_bunny" and p.owner == plan.seat:
        refuse(rule, f"piece {p.id} is seat {plan.seat}'s own: the card aims at an opponent's "
               "creature", target=p.id)
    plan.step.target = p.id


@ODYSSEY.check(fx.Raze)
def _check_raze(state: OdysseyState, plan: Plan, effect: fx.Raze, ev: Any) -> None:
    plan.asked.add("target")
    city = state.pieces.get(ev.target) if ev.target is not None else None
    if city is None or city.where != "city":
        refuse("ODY-WPN-2", "a City Weapon aims at a city in the Center Circle",
               target=ev.target)
    if city.owner == plan.seat:
        refuse("ODY-WPN-2", f"city {city.id} is seat {plan.seat}'s own: a City Weapon aims at an "
               "opponent's city", target=city.id)
    plan.step.target = city.id


@ODYSSEY.check(fx.Cancel)
def _check_cancel(state: OdysseyState, plan: Plan, effect: fx.Cancel, ev: Any) -> None:
    seat = plan.seat
    t = cards(state)
    plan.asked.add("target")
    if ev.target is None:
        strike = state.strike
        if strike is None:
            refuse("ODY-CARD-3", "no card waits for its dice to be answered")
        if not strike.aggressive:
            refuse("ODY-AGG-1", f"{t.label(strike.card)} is not an Aggressive card",
                   card=t.code(strike.card))
        owners = {state.pieces[p].owner for p in strike.targets if p in state.pieces}
        if seat not in owners:
            refuse("ODY-CARD-3", f"{t.label(strike.card)} is not aimed at seat {seat}'s things",
                   aimed_at=sorted(owners))
        return
    d = state.pieces.get(ev.target)
    demand = next((x for x in state.demands if x.card == ev.target), None)
    if d is None or demand is None:
        refuse("ODY-CARD-3", f"piece {ev.target} is no Feed The Bunny card waiting on a "
               "creature", target=ev.target)
    if demand.owner != seat:
        refuse("ODY-CARD-3", f"the Feed The Bunny card {ev.target} is not on seat {seat}'s "
               "creature", target=ev.target)
    if not t.aggressive[d.kind]:
        refuse("ODY-AGG-1", f"{t.label(d.kind)} is not an Aggressive card", target=ev.target)
    plan.step.target = ev.target


@ODYSSEY.check(fx.SettleFeed)
def _check_settle(state: OdysseyState, plan: Plan, effect: fx.SettleFeed, ev: Any) -> None:
    plan.asked.add("target")
    p = _creature(state, ev.target, "ODY-CARD-8", "creature")
    if p.owner != plan.seat or not feeding.on_bunny(state.demands, p.id):
        refuse("ODY-CARD-8", f"piece {p.id} is not a creature of seat {plan.seat}'s with a Feed "
               "The Bunny card on it", target=p.id)
    plan.step.target = p.id


# money: Civ points


@ODYSSEY.check(fx.GainCiv)
def _check_civ(state: OdysseyState, plan: Plan, effect: fx.GainCiv, ev: Any) -> None:
    if effect.target == "opponent":
        plan.asked.add("opponent")
        plan.step.opponent = _opponent(state, plan.seat, ev.opponent)


# hands


@ODYSSEY.check(fx.PickFromHand)
def _check_pick(state: OdysseyState, plan: Plan, effect: fx.PickFromHand, ev: Any) -> None:
    plan.asked.update(("opponent", "picked"))
    who = plan.step.opponent = _opponent(state, plan.seat, ev.opponent)
    if not state.seats[who].hand:
        refuse("ODY-FAN-1", f"seat {who} has no card in hand to pick", opponent=who)
    if ev.picked is None or ev.picked == UNKNOWN:
        refuse("ODY-FAN-1", "the card picked from the hand is discarded face up: the record "
               "names it", opponent=who)
    plan.step.hand = plan_from_hand(state, who, [ev.picked], "ODY-FAN-1", "the card picked")
    plan.step.picked = plan.step.hand.kinds[0]


@ODYSSEY.check(fx.Inspect)
def _check_inspect(state: OdysseyState, plan: Plan, effect: fx.Inspect, ev: Any) -> None:
    plan.asked.update(("opponent", "picked"))
    t = cards(state)
    who = plan.step.opponent = _opponent(state, plan.seat, ev.opponent)
    hand = state.seats[who].hand
    wanted = effect.discard_type
    if ev.picked is not None:
        kind = kind_of(state, ev.picked, "the card named")
        if t.type[kind] != wanted:
            refuse("ODY-CARD-7", f"{ev.picked} is not a {wanted.replace('_', ' ')} card",
                   picked=ev.picked)
        plan.step.hand = plan_from_hand(state, who, [ev.picked], "ODY-CARD-7", "the card named")
        plan.step.picked = kind
        return
    known = [k for k in hand if k and t.type[k] == wanted]
    if known:
        refuse("ODY-CARD-7", f"seat {who} holds {t.code(known[0])}, a "
               f"{wanted.replace('_', ' ')} card: the player names the one discarded",
               opponent=who)
    pool = state.seats[who].unseen
    if 0 in hand and pool is not None and any(
            t.type[t.kind[c]] == wanted for c in pool.unseen if c in t.kind):
        plan.notes.append(undetermined(
            "ODY-CARD-7", f"legal only if seat {who}'s hand held no "
            f"{wanted.replace('_', ' ')} card", seat=who, unknown_cards=hand.count(0)))


def _opponent(state: OdysseyState, seat: int, who: int | None) -> int:
    if who is None:
        refuse("ODY-OPP-1", "the card names the opponent")
    if not 0 <= who < state.n or who == seat:
        refuse("ODY-OPP-1", f"seat {who} is not an opponent of seat {seat}", opponent=who)
    return who


# -- carrying it out ----------------------------------------------------------------------------


def place_creature(state: OdysseyState, pid: int, at: int | None, into: int | None) -> None:
    """A creature goes where its owner placed it; what lay under and on it comes along."""
    p = state.pieces[pid]
    if into is not None:
        state.center.spaces[into].inside.append(pid)
        p.where, p.host = "inside", into
        return
    state.circle.place(pid, p.owner, at)
    space = state.circle.spaces[pid]
    for q in sorted(state.pieces):
        other = state.pieces[q]
        if other.host == pid and other.where == "under":
            space.under.append(q)
        elif other.host == pid and other.where == "on":
            space.on.append(q)
    p.where, p.host = "circle", None


def place_city(state: OdysseyState, pid: int, at: int | None) -> None:
    p = state.pieces[pid]
    state.center.place(pid, p.owner, at)
    space = state.center.spaces[pid]
    space.inside = sorted(q for q, o in state.pieces.items() if o.host == pid and o.where == "inside")
    p.where, p.host = "city", None


def take_out(state: OdysseyState, pid: int) -> None:
    """A creature or city leaves its place to be placed again (stolen, traded): what lies
    under, on and inside it stays with it."""
    p = state.pieces[pid]
    if p.where == "circle":
        state.circle.remove(pid)
    elif p.where == "city":
        state.center.remove(pid)
    elif p.where == "inside" and p.host is not None:
        state.center.spaces[p.host].inside.remove(pid)
        p.host = None
    p.where = "limbo"


def change_hands(state: OdysseyState, pid: int, seat: int) -> None:
    """A piece (and its occupants) becomes ``seat``'s; Feed cards on a creature now wait on
    its new owner's next turn (the kit's demands follow the bunny)."""
    p = state.pieces[pid]
    p.owner = seat
    for q in state.pieces.values():
        if q.host == pid and q.where == "inside":
            q.owner = seat
    feeding.follow_owner(state.demands, pid, seat)
    for d in state.demands:
        if d.bunny == pid:
            d.due_turn = feeding.due_turn(state.seats[seat].turns)


def execute(state: OdysseyState, plan: Plan, ends_turn: bool = False) -> list[Effect]:
    """Carry out a planned play; the card has already left the hand, run position or saved
    cards. Returns the effects; leaves a strike waiting when the card rolls."""
    t = cards(state)
    seat, kind = plan.seat, plan.kind
    out: list[Effect] = list(plan.notes)
    plan.ends_turn = ends_turn
    if plan.pay:
        mark_used(state, seat, plan.pay)
        out.append(Effect("ODY-COST-1", "paid", {"seat": seat, "card": t.code(kind), "pay": plan.pay}))
    ODYSSEY.resolve(state, plan, [step.effect for step in plan.steps], out, lambda: plan.rolling,
                    _step_carried_out)
    if plan.rolling:
        return out  # the card waits for its strike (it rolls in its last primitive only)
    if not plan.stays:
        state.seats[seat].discard.append(kind)
    if ends_turn:
        out.extend(end_turn(state))
    return out


# -- what each primitive does, by family --------------------------------------------------------
# circle


@ODYSSEY.apply(fx.EnterCircle)
def _enter(state: OdysseyState, plan: Plan, effect: fx.EnterCircle, out: list[Effect]) -> None:
    step = plan.step
    pid = new_piece(state, plan.kind, plan.seat, "limbo")
    place_creature(state, pid, step.at, step.into)
    plan.stays = True
    out.append(Effect("ODY-CITY-1" if step.into is not None else "ODY-POS-1", "entered",
                      {"seat": plan.seat, "piece": pid, "card": cards(state).code(plan.kind),
                       "at": step.at, "into": step.into}))


@ODYSSEY.apply(fx.Build)
def _build(state: OdysseyState, plan: Plan, effect: fx.Build, out: list[Effect]) -> None:
    pid = new_piece(state, plan.kind, plan.seat, "limbo")
    place_city(state, pid, plan.step.at)
    plan.stays = True
    out.append(Effect("ODY-POS-2", "built", {"seat": plan.seat, "piece": pid,
                                             "card": cards(state).code(plan.kind),
                                             "at": plan.step.at}))


@ODYSSEY.apply(fx.Attach)
def _attach(state: OdysseyState, plan: Plan, effect: fx.Attach, out: list[Effect]) -> None:
    host = plan.step.target
    assert host is not None
    pid = new_piece(state, plan.kind, plan.seat, "under", host=host)
    state.circle.spaces[host].under.append(pid)
    plan.stays = True
    out.append(Effect("ODY-CARD-9", "attached", {"seat": plan.seat, "piece": pid, "host": host,
                                                 "card": cards(state).code(plan.kind)}))


@ODYSSEY.apply(fx.Steal)
def _steal(state: OdysseyState, plan: Plan, effect: fx.Steal, out: list[Effect]) -> None:
    step = plan.step
    assert step.target is not None
    victim = state.pieces[step.target].owner
    take_out(state, step.target)
    change_hands(state, step.target, plan.seat)
    if effect.what == "creature":
        place_creature(state, step.target, step.at, step.into)
    else:
        place_city(state, step.target, step.at)
    out.append(Effect("ODY-CARD-4", "stolen", {"seat": plan.seat, "from": victim,
                                               "piece": step.target, "at": step.at,
                                               "into": step.into}))


@ODYSSEY.apply(fx.Revive)
def _revive(state: OdysseyState, plan: Plan, effect: fx.Revive, out: list[Effect]) -> None:
    step = plan.step
    assert step.chosen is not None
    state.seats[plan.seat].discard.remove(step.chosen)
    pid = new_piece(state, step.chosen, plan.seat, "limbo")
    place_creature(state, pid, step.at, step.into)
    out.append(Effect("ODY-CARD-5", "revived", {"seat": plan.seat, "piece": pid,
                                                "card": cards(state).code(step.chosen),
                                                "at": step.at, "into": step.into}))


# combat


@ODYSSEY.apply(fx.Cancel)
def _cancel_apply(state: OdysseyState, plan: Plan, effect: fx.Cancel, out: list[Effect]) -> None:
    out.extend(_cancel(state, plan.seat, plan.step.target))


# feeding


@ODYSSEY.apply(fx.Feed)
def _feed(state: OdysseyState, plan: Plan, effect: fx.Feed, out: list[Effect]) -> None:
    target = plan.step.target
    assert target is not None
    seat = plan.seat
    owner = state.pieces[target].owner
    pid = new_piece(state, plan.kind, seat, "on", host=target)
    state.circle.spaces[target].on.append(pid)
    due = feeding.due_turn(state.seats[owner].turns)
    state.demands.append(feeding.FeedDemand(card=pid, bunny=target, owner=owner,
                                            cabbage=effect.cabbage, water=effect.water,
                                            due_turn=due, placed_by=seat))
    plan.stays = True
    out.append(Effect("ODY-FEED-1", "feed_demand", {"seat": owner, "piece": pid, "on": target,
                                                    "by": seat,
                                                    "units": effect.cabbage + effect.water,
                                                    "due_turn": due}))


@ODYSSEY.apply(fx.SettleFeed)
def _settle(state: OdysseyState, plan: Plan, effect: fx.SettleFeed, out: list[Effect]) -> None:
    target = plan.step.target
    assert target is not None
    settled = [d.card for d in feeding.on_bunny(state.demands, target)]
    for demand in settled:
        leave_play(state, demand)
    out.append(Effect("ODY-CARD-8", "fed", {"seat": plan.seat, "piece": target,
                                            "demands": settled, "paid": 0}))


# money: Civ points


@ODYSSEY.apply(fx.GainCiv)
def _civ(state: OdysseyState, plan: Plan, effect: fx.GainCiv, out: list[Effect]) -> None:
    out.extend(gain_civ(state, plan.seat, effect, plan.step.opponent))


# hands


@ODYSSEY.apply(fx.PickFromHand)
def _pick(state: OdysseyState, plan: Plan, effect: fx.PickFromHand, out: list[Effect]) -> None:
    step = plan.step
    assert step.hand is not None and step.opponent is not None and step.picked is not None
    commit_hand(state, step.hand)
    state.seats[step.opponent].discard.append(step.picked)
    out.append(Effect("ODY-FAN-1", "picked", {"seat": step.opponent, "by": plan.seat,
                                              "card": cards(state).code(step.picked),
                                              "discarded": True}))


@ODYSSEY.apply(fx.Inspect)
def _inspect(state: OdysseyState, plan: Plan, effect: fx.Inspect, out: list[Effect]) -> None:
    step = plan.step
    assert step.opponent is not None
    if step.hand is not None and step.picked is not None:
        commit_hand(state, step.hand)
        state.seats[step.opponent].discard.append(step.picked)
    out.append(Effect("ODY-CARD-7", "inspected", {
        "seat": step.opponent, "by": plan.seat,
        "discarded": None if step.picked is None else cards(state).code(step.picked)}))


@ODYSSEY.apply(fx.Recycle)
def _recycle(state: OdysseyState, plan: Plan, effect: fx.Recycle, out: list[Effect]) -> None:
    seat = plan.seat
    s = state.seats[seat]
    moved = s.discard[-effect.count:] if s.discard else []
    if moved:
        del s.discard[-len(moved):]
        s.draw.extend(moved)
        if seat not in state.shuffles:
            state.shuffles.append(seat)
    out.append(Effect("ODY-CARD-6", "recycled", {"seat": seat,
                                                 "cards": [cards(state).code(k) for k in moved]}))


def gain_civ(state: OdysseyState, seat: int, effect: fx.GainCiv, opponent: int | None) -> list[Effect]:
    if effect.target == "self":
        who = [seat]
    elif effect.target == "opponent":
        assert opponent is not None
        who = [opponent]
    elif effect.target == "each_opponent":
        who = opponents(state, seat)
    else:
        who = adjacent_players(state, seat)
    amount = effect.amount
    out: list[Effect] = []
    if effect.per == "own_creature_in_play":
        in_play = creatures_in_play(state, seat)
        amount *= len(in_play)
        inside = len(in_play) - state.circle.count(seat)
        out.append(Effect("ODY-INPLAY-1", "in_play", {"seat": seat, "creatures": len(in_play),
                                                      "inside_cities": inside}))
    rule = "ODY-ADJ-1" if effect.target == "adjacent_players" else "ODY-CARD-2"
    for w in who:
        out.extend(change_civ(state, w, amount, rule, f"a card of seat {seat}"))
    return out


def _cancel(state: OdysseyState, seat: int, target: int | None) -> list[Effect]:
    t = cards(state)
    if target is None:
        strike = state.strike
        assert strike is not None
        state.strike = None
        state.seats[strike.player].discard.append(strike.card)
        out = [Effect("ODY-CARD-3", "cancelled", {"seat": seat, "card": t.code(strike.card),
                                                  "of": strike.player})]
        if strike.ends_turn:
            out.extend(end_turn(state))
        return out
    kind = state.pieces[target].kind
    leave_play(state, target)
    return [Effect("ODY-CARD-3", "cancelled", {"seat": seat, "card": t.code(kind), "demand": target})]


# -- cards that wait for their dice -------------------------------------------------------------


def _guard(state: OdysseyState) -> Any:
    t = cards(state)

    def guard(pid: int) -> Guard:
        space = state.circle.spaces.get(pid)
        if space is None:
            return kit_attack.NO_GUARD
        return kit_attack.guard_of(space.under, lambda m: t.cards[state.pieces[m].kind])  # type: ignore[arg-type,return-value]  # kit guard over Odyssey cards
    return guard


def _strike(state: OdysseyState, plan: Plan) -> Strike:
    """The card's strike, waiting for its dice (a rolling primitive is a card's last:
    check_supported); the card leaves the turn to it (ODY-CARD-3: an answer may stop it)."""
    t = cards(state)
    kind = plan.kind
    plan.rolling = True
    return Strike(kind="bands", card=kind, player=plan.seat, aggressive=t.aggressive[kind],
                  die="d6", ends_turn=plan.ends_turn, effect=len(t.effects[kind]) - 1)


def _wait(state: OdysseyState, strike: Strike, out: list[Effect]) -> None:
    state.strike = strike
    out.extend(advance(state))


@ODYSSEY.apply(fx.Attack)
def _attack(state: OdysseyState, plan: Plan, effect: fx.Attack, out: list[Effect]) -> None:
    strike = _strike(state, plan)
    target = plan.step.target
    assert target is not None
    levels = kit_attack.ring_levels(effect.area, effect.level, len(state.circle))
    exposed = kit_attack.exposures(state.circle, target, levels, _guard(state), effect.category,
                                   (), effect.clovers)
    strike.kind, strike.die = "attack", effect.die
    strike.targets = [e.bunny for e in exposed if not e.shielded]
    strike.levels = [e.level for e in exposed if not e.shielded]
    # copies: the strike's own lists are worked down as its rolls come in
    out.append(Effect("ODY-WPN-1", "attack", {"seat": plan.seat, "card": cards(state).code(plan.kind),
                                              "targets": list(strike.targets),
                                              "levels": list(strike.levels)}))
    if len(exposed) > 1:
        out.append(Effect("ODY-ADJ-2", "adjacent_reached",
                          {"target": target, "neighbours": [e.bunny for e in exposed[1:]]}))
    _wait(state, strike, out)


@ODYSSEY.apply(fx.Raze)
def _raze(state: OdysseyState, plan: Plan, effect: fx.Raze, out: list[Effect]) -> None:
    strike = _strike(state, plan)
    target = plan.step.target
    assert target is not None
    strike.kind, strike.die = "raze", effect.die
    strike.targets, strike.levels = [target], [effect.level]
    out.append(Effect("ODY-WPN-2", "attack", {"seat": plan.seat, "card": cards(state).code(plan.kind),
                                              "targets": [target], "levels": [effect.level]}))
    _wait(state, strike, out)


@ODYSSEY.apply(fx.RollBands)
def _bands(state: OdysseyState, plan: Plan, effect: fx.RollBands, out: list[Effect]) -> None:
    strike = _strike(state, plan)
    strike.die = effect.die
    _wait(state, strike, out)


def advance(state: OdysseyState) -> list[Effect]:
    """Settle the targets whose fate needs no roll (level 0 or below lives, the die's top or
    above dies: kit.dice); finish the card when none is left to roll for."""
    strike = state.strike
    out: list[Effect] = []
    if strike is None or strike.kind == "bands":
        return out
    sides = SIDES.get(strike.die, 12)
    while strike.targets:
        pid, level = strike.targets[0], strike.levels[0]
        p = state.pieces.get(pid)
        if p is None or p.where not in ("circle", "city"):
            strike.targets.pop(0)
            strike.levels.pop(0)
            continue
        certain = kit_dice.outcome_if_certain(level, sides)
        if certain is None:
            return out
        strike.targets.pop(0)
        strike.levels.pop(0)
        if certain:
            out.append(Effect(_strike_rule(strike), "survived", {"seat": p.owner, "piece": pid,
                                                                 "level": level, "roll": None}))
        else:
            out.extend(_fall(state, strike, pid))
    out.extend(_finish(state))
    return out


def _strike_rule(strike: Strike) -> str:
    return {"attack": "ODY-WPN-1", "raze": "ODY-WPN-2", "bands": "ODY-CARD-10"}[strike.kind]


def _fall(state: OdysseyState, strike: Strike, pid: int) -> list[Effect]:
    if strike.kind == "raze":
        return destroy_city(state, pid, strike.player, "ODY-WPN-2")
    return kill_creature(state, pid, strike.player, "ODY-WPN-1", "ground")


def _finish(state: OdysseyState) -> list[Effect]:
    strike = state.strike
    assert strike is not None
    state.strike = None
    state.seats[strike.player].discard.append(strike.card)
    if strike.ends_turn and not state.over:
        return end_turn(state)
    return []


def roll_strike(state: OdysseyState, seat: int, die: str, face: int) -> list[Effect]:
    """A roll for the waiting card (guards checked by the caller)."""
    strike = state.strike
    assert strike is not None
    t = cards(state)
    out: list[Effect] = []
    if strike.kind == "bands":
        effect = fx.expect(t.effects[strike.card][strike.effect], fx.RollBands)
        band = effect.band_for(face)
        out.append(Effect("ODY-CARD-10", "band", {"seat": seat, "face": face, "faces": band.faces}))
        for inner in band.then:  # each an own Civ change (vetted when the deck loaded)
            out.extend(gain_civ(state, strike.player, fx.expect(inner, fx.GainCiv), None))
        out.extend(_finish(state))
        return out
    pid, level = strike.targets.pop(0), strike.levels.pop(0)
    if kit_dice.survives(face, level):
        out.append(Effect(_strike_rule(strike), "survived", {"seat": state.pieces[pid].owner,
                                                             "piece": pid, "level": level, "roll": face}))
    else:
        out.extend(_fall(state, strike, pid))
    if not state.over:
        out.extend(advance(state))
    return out


def strike_roller(state: OdysseyState) -> int:
    strike = state.strike
    assert strike is not None
    return strike.roller({pid: p.owner for pid, p in state.pieces.items() if pid in strike.targets[:1]})


def _space(state: OdysseyState, pid: int) -> Space:
    return state.circle.spaces[pid]
