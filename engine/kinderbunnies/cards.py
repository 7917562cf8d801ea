"""What each card does in KinderBunnies: the effect primitives of the family kit
(engine.killer.catalogue.effects) read the KinderBunnies way.

A turn's card is checked by :func:`check_play` (the kit's resolver checks its one
primitive: ``Interpreter.check_card``), which raises the rule that forbids it and otherwise
returns a :data:`Plan` that applies it; nothing changes before the plan runs, so a refused
card leaves the state as it was. What a roll brings is walked by ``Interpreter.resolve``.
:func:`release` acts on a roll once nothing can answer it any more (the Re-Roll window has
closed, R-KIN-15); :func:`choose` settles the choices the cards wait for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.hidden import undetermined
from engine.killer import rolls
from engine.killer.catalogue import effects as fx
from engine.killer.interpreter import Interpreter
from engine.killer.words import choices_said
from engine.kinderbunnies.events import Card, Choose, Play
from engine.kinderbunnies.numbers import FIVE_DICE
from engine.kinderbunnies.state import HIDDEN, KinderState, Task
from engine.kinderbunnies.table import (
    Effects,
    cards,
    carrot_taken,
    check_pick,
    clockwise_from,
    discard_bunny,
    gain_bucks,
    has_bunny,
    holds,
    is_unknown,
    money,
    need_in_hand,
    owner_of,
    pay,
    refuse,
    refuse_unknown,
    return_carrot,
    spend,
    take_from_hand,
    take_from_pile,
    take_unseen,
    yellow,
)
from engine.rules import Effect
from engine.wording import cards_said

Plan = Callable[[KinderState, Effects], None]
"""Applies a checked card: moves it, starts its task or does what it does at once."""

CARD_RULE: dict[str, str] = {
    "take-2-carrots": "KIN-CARD-TAKE-2", "buy-back": "KIN-CARD-BUY-BACK",
    "carrot-trader": "KIN-CARD-CARROT-TRADER", "deep-sleep-nine": "KIN-CARD-DEEP-SLEEP",
    "drought": "KIN-CARD-DROUGHT", "maggots": "KIN-CARD-DROUGHT",
    "fake-phone-number": "KIN-CARD-FAKE-PHONE", "fugitive": "KIN-CARD-FUGITIVE",
    "hamlin-helper": "KIN-CARD-HAMLIN", "high-low-cash": "KIN-CARD-HI-LOW",
    "one-for-fun": "KIN-CARD-ONE-FOR-FUN", "pass-it-along": "KIN-CARD-PASS",
    "prime-time": "KIN-CARD-PRIME", "return-a-carrot": "KIN-CARD-RETURN",
    "secret-squid": "KIN-CARD-SQUID", "sneaky-burglar": "KIN-CARD-BURGLAR",
    "spin-to-win": "KIN-CARD-SPIN", "switch-a-roo": "KIN-CARD-SWITCH",
    "re-roll": "KIN-CARD-REROLL", "safety-skunk": "KIN-CARD-SKUNK",
    "no-news-is-good-news": "KIN-CARD-NO-NEWS",
}
"""The rule of each Yellow card with an effect of its own (the others follow the Blue
cards' rules)."""


_RULES: dict[int, str] = {}


def rule_of(state: KinderState, card: int) -> str:
    """The rule a card answers to (its own card rule, else its kind's)."""
    rule = _RULES.get(card)
    if rule is None:
        rule = _RULES[card] = _rule_of(state, card)
    return rule


def _rule_of(state: KinderState, card: int) -> str:
    c = cards(state).card(card)
    if c.id in CARD_RULE:
        return CARD_RULE[c.id]
    if "bad-news" in c.tags:
        return "KIN-CARD-BAD-NEWS"
    if "safety-hazard" in c.tags:
        return "KIN-HAZ-1"
    if "feed" in c.tags:
        return "KIN-FEED-1"
    if c.bunny is not None:
        return "KIN-BUNNY-1"
    if c.type == "special":
        return "KIN-FEED-2"
    return "KIN-CARROT-1"


def others_bunny(state: KinderState, seat: int, bunny: int | None, rule: str) -> int:
    """The bunny a card goes on: one of another player's bunnies on the table."""
    if bunny is None:
        refuse(rule, "the card goes on another player's bunny: name the bunny")
    owner = owner_of(state, bunny)
    if owner is None or owner == seat:
        refuse(rule, f"bunny {bunny} is not another player's bunny on the table", bunny=bunny,
             owner=owner)
    return owner


_FIELDS = ("carrot", "die", "number", "on", "pay", "player", "take")


def _fields(e: Play, allowed: set[str], rule: str = "KIN-TURN-1") -> None:
    """Refuse the fields a card does not take (its own rule says what it takes)."""
    if (e.on is None or "on" in allowed) and (e.carrot is None or "carrot" in allowed) \
            and (e.number is None or "number" in allowed) \
            and (e.player is None or "player" in allowed) \
            and (e.take is None or "take" in allowed) and (e.pay is None or "pay" in allowed) \
            and (e.die is None or "die" in allowed) and (not e.carrots or "carrots" in allowed):
        return  # every field named is one the card takes: none to refuse
    extra = [k for k in _FIELDS if k not in allowed and getattr(e, k) is not None]
    if e.carrots and "carrots" not in allowed:
        extra.append("carrots")
    if extra:
        refuse(rule, f"card {e.card} asks for no {choices_said(extra).removeprefix('a ')}", fields=extra)


class Turn:
    """A turn's card being checked, then played: who plays which card by what rule, and the
    choices its check read (nothing of the state changes before the apply). A plain class,
    its defaults on the class: one is made for every card played, and only the choices a
    card reads are set on it."""

    on: int | None = None
    """The bunny the card goes on."""
    owner: int | None = None
    """That bunny's owner; the player named; the hand swapped with."""
    carrots: Sequence[int] = ()
    """The carrots taken from the pile (kept, for a Bad News card)."""
    bunnies: Sequence[int] = ()
    """The bunnies a Bad News card's drawer named."""
    carrot: int | None = None
    """One carrot named (sent back, given back)."""
    holder: int | None = None
    """Who holds the carrot named."""
    number: int | None = None
    take: int | None = None
    """The card brought back from the discard pile."""
    paid: Sequence[int] = ()
    """The Bucks that pay for it."""
    why: str = ""
    """Why a bunny is lost, in words (a Safety Hazard's roll)."""

    def __init__(self, seat: int, card: int, rule: str, *, on: int | None = None,
                 number: int | None = None, carrots: Sequence[int] = (),
                 bunnies: Sequence[int] = (), why: str = "") -> None:
        self.seat = seat
        self.card = card
        self.rule = rule
        if on is not None:
            self.on = on
        if number is not None:
            self.number = number
        if carrots:
            self.carrots = carrots
        if bunnies:
            self.bunnies = bunnies
        if why:
            self.why = why


KINDER: Interpreter[KinderState, Turn, Play] = Interpreter("kinderbunnies")
"""What each primitive does in KinderBunnies (engine.killer.interpreter): a turn's card is
checked and applied; a rolling card's faces are read once the Re-Roll window has closed."""


def check_play(state: KinderState, seat: int, e: Play) -> Plan:
    """The turn's card ``e`` by ``seat`` (the turn and the hand already checked)."""
    C = cards(state)
    card = e.card
    data = C.card(card)
    effect = C.effects.get(card)  # C.effect
    rule = _RULES.get(card) or rule_of(state, card)
    if data.type in ("special", "very_special"):
        what = "a supply card answers a Feed The Bunny" if data.type == "special" else \
            "this card only answers another card"
        refuse(rule, f"card {C.label(card)} is not played as a turn's card: {what}", card=card)
    if data.type == "money":
        refuse("KIN-BUCK-1", f"card {C.label(card)} is a Bunny Buck: it went face up when drawn and "
             "is never played", card=card)
    if data.type == "play_immediately":
        refuse("KIN-BAD-1", f"card {C.label(card)} is played the moment it is drawn, never from "
             "the hand", card=card)
    if data.pink_box and not has_bunny(state, seat):
        refuse("KIN-STAR-1", f"card {C.label(card)} has the pink star: seat {seat} needs a bunny on "
             "the table first", card=card, bunnies=0)
    if data.bunny is not None:
        effect = _ENTERS  # a bunny card enters the table, whatever else its data says
    # a turn's card is a primitive with a check of its own here (the rest answer or are
    # what a roll brings)
    if effect is None or type(effect) not in KINDER.checks:
        refuse("KIN-TURN-1", f"card {C.label(card)} cannot be played as a turn's card", card=card)
    turn = Turn(seat=seat, card=card, rule=rule)
    KINDER.check_card(state, turn, (effect,), e)
    takes = KINDER.fields.get(type(effect))
    if takes is not None:  # a primitive written once says its choices (engine.killer.primitive)
        _fields(e, set(takes), rule)
    # the card's continuation is its one primitive: nothing to walk, so its apply is called
    # straight (every turn's card passes here)
    apply, played = KINDER.applies[type(effect)], effect

    def plan(state: KinderState, out: Effects) -> None:
        apply(state, turn, played, out)
    return plan


_ENTERS = fx.EnterCircle()


def played(state: KinderState, turn: Turn) -> None:
    """The turn's card leaves the hand for the discard pile."""
    take_from_hand(state, turn.seat, turn.card)
    state.discard.append(turn.card)


# -- circle ----------------------------------------------------------------------------------


@KINDER.check(fx.EnterCircle)
def _check_bunny(state: KinderState, turn: Turn, effect: object, e: Play) -> None:
    _fields(e, set(), turn.rule)


@KINDER.apply(fx.EnterCircle)
def _bunny(state: KinderState, turn: Turn, effect: object, out: Effects) -> None:
    take_from_hand(state, turn.seat, turn.card)
    state.table[turn.seat].append(turn.card)
    out.append(Effect("KIN-BUNNY-1", "bunny_played", {"seat": turn.seat, "bunny": turn.card}))


@KINDER.check(fx.SwitchPlaces, fx.EveryoneRolls, fx.RaceToRoll, fx.RollSpread, fx.PassHands,
              fx.Contest)
def _check_nothing_named(state: KinderState, turn: Turn, effect: object, e: Play) -> None:
    _fields(e, set(), turn.rule)


@KINDER.apply(fx.SwitchPlaces, fx.EveryoneRolls, fx.RaceToRoll)
def _all_roll(state: KinderState, turn: Turn, effect: object, out: Effects) -> None:
    order = clockwise_from(state, turn.seat)
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="roll", dice=len(order), rollers=order)


# -- feeding ---------------------------------------------------------------------------------


@KINDER.check(fx.Feed)
def _check_feed(state: KinderState, turn: Turn, effect: fx.Feed, e: Play) -> None:
    _fields(e, {"on"}, turn.rule)
    turn.owner = others_bunny(state, turn.seat, e.on, "KIN-FEED-1")
    turn.on = e.on


@KINDER.apply(fx.Feed)
def _feed(state: KinderState, turn: Turn, effect: fx.Feed, out: Effects) -> None:
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="feed", bunny=turn.on, owner=turn.owner)


@KINDER.check(fx.LoseSupply)
def _check_lose(state: KinderState, turn: Turn, effect: fx.LoseSupply, e: Play) -> None:
    _fields(e, {"player"}, turn.rule)
    victim = e.player
    if victim is None or victim == turn.seat or not 0 <= victim < state.n:
        refuse(turn.rule, "name another player", player=victim)
    turn.owner = victim


@KINDER.apply(fx.LoseSupply)
def _lose(state: KinderState, turn: Turn, effect: fx.LoseSupply, out: Effects) -> None:
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="show", owner=turn.owner)


# -- carrots ---------------------------------------------------------------------------------


@KINDER.check(fx.TakeCarrot)
def _check_take(state: KinderState, turn: Turn, effect: fx.TakeCarrot, e: Play) -> None:
    _fields(e, {"carrots"}, turn.rule)
    check_pick(state, list(e.carrots), turn.rule, effect.count)
    turn.carrots = list(e.carrots)


@KINDER.apply(fx.TakeCarrot)
def _take(state: KinderState, turn: Turn, effect: fx.TakeCarrot, out: Effects) -> None:
    played(state, turn)
    for c in turn.carrots:
        take_from_pile(state, turn.seat, c, turn.rule, out)
    carrot_taken(state, out)


@KINDER.check(fx.ReturnCarrot)
def _check_return(state: KinderState, turn: Turn, effect: fx.ReturnCarrot, e: Play) -> None:
    _fields(e, {"carrot"}, turn.rule)
    holder = _carrot_holder(state, e.carrot)
    if holder is None or holder == turn.seat:
        refuse(turn.rule, "name a carrot another player holds", carrot=e.carrot)
    turn.holder, turn.carrot = holder, e.carrot


@KINDER.apply(fx.ReturnCarrot)
def _send_back(state: KinderState, turn: Turn, effect: fx.ReturnCarrot, out: Effects) -> None:
    assert turn.holder is not None and turn.carrot is not None
    played(state, turn)
    return_carrot(state, turn.holder, turn.carrot)
    out.append(Effect(turn.rule, "carrot_returned", {"seat": turn.holder,
                                                     "carrot": cards(state).letter(turn.carrot)}))


@KINDER.check(fx.ExchangeCarrots)
def _check_trade(state: KinderState, turn: Turn, effect: fx.ExchangeCarrots, e: Play) -> None:
    seat, rule = turn.seat, turn.rule
    _fields(e, {"carrot", "carrots"}, rule)
    if e.carrot is None or e.carrot not in state.carrots[seat]:
        refuse(rule, f"give back one of seat {seat}'s own carrots", carrot=e.carrot,
             own=list(state.carrots[seat]))
    if not state.carrot_pile:
        refuse(rule, "the carrot pile has no carrot to take", pile=0)
    check_pick(state, list(e.carrots), rule, effect.take)
    turn.carrot, turn.carrots = e.carrot, list(e.carrots)


@KINDER.apply(fx.ExchangeCarrots)
def _trade(state: KinderState, turn: Turn, effect: fx.ExchangeCarrots, out: Effects) -> None:
    assert turn.carrot is not None
    played(state, turn)
    for c in turn.carrots:
        take_from_pile(state, turn.seat, c, turn.rule, out)
    return_carrot(state, turn.seat, turn.carrot)
    out.append(Effect(turn.rule, "carrot_returned", {"seat": turn.seat,
                                                     "carrot": cards(state).letter(turn.carrot)}))


@KINDER.check(fx.StealCarrot)
def _check_burglar(state: KinderState, turn: Turn, effect: fx.StealCarrot, e: Play) -> None:
    if effect.pick != "by_roll":  # a steal by choice is no KinderBunnies turn's card
        refuse("KIN-TURN-1", f"card {cards(state).label(turn.card)} cannot be played as a turn's "
               "card", card=turn.card)
    _fields(e, set(), turn.rule)


@KINDER.apply(fx.StealCarrot)
def _steal(state: KinderState, turn: Turn, effect: fx.StealCarrot, out: Effects) -> None:
    if effect.pick == "by_roll":  # the turn's card: a die names the carrot
        played(state, turn)
        state.task = Task(card=turn.card, seat=turn.seat, step="roll", dice=1, rollers=[turn.seat])
        return
    # a roll's prize: the player picks a carrot another player holds (choose)
    task = state.task
    assert task is not None
    others = any(state.carrots[s] for s in range(state.n) if s != task.seat)
    _ask(state, task, "steal", 1 if others else 0)


@KINDER.apply(fx.Revive)
def _revive(state: KinderState, turn: Turn, effect: fx.Revive, out: Effects) -> None:
    """A roll's prize: the player picks bunnies of the discard pile (choose)."""
    task = state.task
    assert task is not None
    _ask(state, task, "revive", min(effect.count, _bunnies_back(state)))


@KINDER.apply(fx.SkipTurn)
def _skip(state: KinderState, turn: Turn, effect: fx.SkipTurn, out: Effects) -> None:
    """A player whose face came up misses his next turn(s) (``self``: that player)."""
    state.skips[turn.seat] += effect.turns
    out.append(Effect(turn.rule, "will_miss_a_turn", {"seat": turn.seat, "face": turn.number}))


# -- money -----------------------------------------------------------------------------------


@KINDER.check(fx.ReplayDiscard)
def _check_buy_back(state: KinderState, turn: Turn, effect: fx.ReplayDiscard, e: Play) -> None:
    seat, rule = turn.seat, turn.rule
    _fields(e, {"take", "pay"}, rule)
    take = e.take
    if take is None or take not in state.discard or take in cards(state).bucks:
        refuse(rule, "name a card of the discard pile to bring back", take=take)
    turn.paid = pay(state, seat, effect.price, e.pay, rule)
    trial = state.copy()
    take_from_hand(trial, seat, turn.card)
    trial.discard.remove(take)
    trial.hands[seat].append(take)
    trial.forced = take
    if not plays_for(trial, seat, take, first=True):
        refuse(rule, f"card {cards(state).label(take)} could not be played now", take=take)
    turn.take = take


@KINDER.apply(fx.ReplayDiscard)
def _buy_back(state: KinderState, turn: Turn, effect: fx.ReplayDiscard, out: Effects) -> None:
    take = turn.take
    assert take is not None
    played(state, turn)
    spend(state, turn.seat, list(turn.paid), effect.price, out, turn.rule)
    state.discard.remove(take)
    state.hands[turn.seat].append(take)
    state.forced = take
    out.append(Effect(turn.rule, "card_brought_back", {"seat": turn.seat, "card": take}))


# -- rolls -----------------------------------------------------------------------------------


@KINDER.check(fx.RollMatches)
def _check_matches(state: KinderState, turn: Turn, effect: fx.RollMatches, e: Play) -> None:
    rule = turn.rule
    if effect.target is not None:  # a Safety Hazard: put on a bunny, then rolled for
        _fields(e, {"on"}, rule)
        turn.owner = others_bunny(state, turn.seat, e.on, "KIN-HAZ-1")
        assert e.on is not None
        if "safety-hazard" in cards(state).immune.get(e.on, ()):
            refuse("KIN-CARD-ADVENTURE", f"card {e.on} cannot have a Safety "
                   "Hazard put on it", bunny=e.on)
        turn.on = e.on
        return
    allowed = {"number"} if effect.number == "chosen" else set()
    _fields(e, allowed, rule)
    lo, hi = effect.lowest, effect.highest
    if effect.number == "chosen" and (e.number is None or not lo <= e.number <= hi):
        refuse(rule, f"name a number from {effect.lowest} to {effect.highest}",
             number=e.number)
    turn.number = e.number


@KINDER.apply(fx.RollMatches)
def _matches(state: KinderState, turn: Turn, effect: fx.RollMatches, out: Effects) -> None:
    if effect.target is not None:
        # The owner may answer with Safety Skunk before the roll where the Yellow deck is
        # played (KIN-CARD-SKUNK); in Beginner the dice come at once.
        step = "hazard" if yellow(state) else "roll"
        owner = turn.owner
        assert owner is not None  # the check named the bunny's owner
        played(state, turn)
        state.task = Task(card=turn.card, seat=turn.seat, step=step, bunny=turn.on, owner=owner,
                          dice=len(effect.dice), rollers=[owner])
        return
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="roll", dice=len(effect.dice),
                      rollers=[turn.seat], number=turn.number)


@KINDER.apply(fx.RollSpread)
def _spread(state: KinderState, turn: Turn, effect: fx.RollSpread, out: Effects) -> None:
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="roll", dice=len(effect.dice),
                      rollers=[turn.seat])


@KINDER.check(fx.RollOff)
def _check_fugitive(state: KinderState, turn: Turn, effect: fx.RollOff, e: Play) -> None:
    _fields(e, {"on"}, turn.rule)
    others_bunny(state, turn.seat, e.on, turn.rule)
    turn.on = e.on


@KINDER.apply(fx.RollOff)
def _fugitive(state: KinderState, turn: Turn, effect: fx.RollOff, out: Effects) -> None:
    order = clockwise_from(state, turn.seat)
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="roll", bunny=turn.on, dice=len(order),
                      rollers=order, off=rolls.start(order, "high", turn.seat, "none"))


@KINDER.apply(fx.Contest)
def _spin(state: KinderState, turn: Turn, effect: fx.Contest, out: Effects) -> None:
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="spin")


# -- hands -----------------------------------------------------------------------------------


@KINDER.apply(fx.PassHands)
def _pass_along(state: KinderState, turn: Turn, effect: fx.PassHands, out: Effects) -> None:
    played(state, turn)
    waiting = [s for s in clockwise_from(state, turn.seat) if state.hands[s]]
    if waiting:
        state.task = Task(card=turn.card, seat=turn.seat, step="pass", waiting=waiting)


@KINDER.check(fx.SwapWithHand)
def _check_squid(state: KinderState, turn: Turn, effect: fx.SwapWithHand, e: Play) -> None:
    seat, rule = turn.seat, turn.rule
    _fields(e, {"player"}, rule)
    other = e.player
    if other is None or other == seat or not 0 <= other < state.n or not state.hands[other]:
        refuse(rule, "name another player who holds cards", player=other)
    if len(state.hands[seat]) < 2:
        refuse(rule, f"seat {seat} needs a card of his own to swap", hand=len(state.hands[seat]))
    turn.owner = other


@KINDER.apply(fx.SwapWithHand)
def _squid(state: KinderState, turn: Turn, effect: fx.SwapWithHand, out: Effects) -> None:
    played(state, turn)
    state.task = Task(card=turn.card, seat=turn.seat, step="swap", owner=turn.owner)


def _carrot_holder(state: KinderState, carrot: int | None) -> int | None:
    if carrot is None:
        return None
    for s, own in enumerate(state.carrots):
        if carrot in own:
            return s
    return None


# -- the legal plays of a card ---------------------------------------------------------------
Fields = list[dict[str, Any]]


def candidates(state: KinderState, seat: int, card: int) -> list[Play]:
    """Every choice a card could be played with (checked by :func:`plays_for`)."""
    effect = cards(state).effect(card)
    # a turn's card only (a Bad News card's options are its drawer's, bad_news_choices)
    options = KINDER.options_of(effect) if effect is not None and type(effect) in KINDER.checks \
        else None
    fields: Fields = [{}] if options is None else options(state, seat, effect)
    seq = state.seq + 1
    return [Play(seq=seq, actor=seat, card=card, **f) for f in fields]


def _others_bunnies(state: KinderState, seat: int) -> Fields:
    return [{"on": b} for s in range(state.n) if s != seat for b in state.table[s]]


def _pile_picks(pile: list[int], count: int) -> list[list[int]]:
    if count == 1 or len(pile) < 2:
        return [[c] for c in pile]
    return [[a, b] for i, a in enumerate(pile) for b in pile[i + 1:]]


@KINDER.options(fx.TakeCarrot)
def _take_options(state: KinderState, seat: int, effect: fx.TakeCarrot) -> Fields:
    return [{"carrots": p} for p in _pile_picks(state.carrot_pile, effect.count)]


@KINDER.options(fx.Feed, fx.RollOff)
def _aim_options(state: KinderState, seat: int, effect: object) -> Fields:
    return _others_bunnies(state, seat)


@KINDER.options(fx.RollMatches)
def _matches_options(state: KinderState, seat: int, effect: fx.RollMatches) -> Fields:
    if effect.target is not None:
        return _others_bunnies(state, seat)
    if effect.number == "chosen":
        return [{"number": k} for k in range(effect.lowest, effect.highest + 1)]
    return [{}]


@KINDER.options(fx.ReturnCarrot)
def _return_options(state: KinderState, seat: int, effect: fx.ReturnCarrot) -> Fields:
    return [{"carrot": c} for s in range(state.n) if s != seat for c in state.carrots[s]]


@KINDER.options(fx.LoseSupply, fx.SwapWithHand)
def _player_options(state: KinderState, seat: int, effect: object) -> Fields:
    return [{"player": s} for s in range(state.n) if s != seat]


@KINDER.options(fx.ExchangeCarrots)
def _trade_options(state: KinderState, seat: int, effect: fx.ExchangeCarrots) -> Fields:
    picks = _pile_picks(state.carrot_pile, 2)
    return [{"carrot": g, "carrots": p} for g in state.carrots[seat] for p in picks]


@KINDER.options(fx.ReplayDiscard)
def _buy_back_options(state: KinderState, seat: int, effect: fx.ReplayDiscard) -> Fields:
    if money(state, seat) < effect.price:
        return []
    bucks = cards(state).bucks
    return [{"take": t} for t in sorted(set(state.discard)) if t not in bucks]


def plays_for(state: KinderState, seat: int, card: int, first: bool = False) -> list[Play]:
    """The legal plays of ``card`` as ``seat``'s turn card (``first``: stop at one)."""
    from engine.rules import RuleViolation

    out: list[Play] = []
    for play in candidates(state, seat, card):
        try:
            check_play(state, seat, play)
        except RuleViolation:
            continue
        out.append(play)
        if first:
            break
    return out


def usable(state: KinderState, seat: int) -> int | None:
    """A card of the hand that can be used as the turn's card, or None (KIN-PLAY-1).

    The quick answers first: a bunny can always be played; answers, Bad News and Bucks are
    never the turn's card, and a pink-star card is not while the player has no bunny down."""
    C = cards(state)
    hand = sorted(set(state.hands[seat]) - {HIDDEN})
    for card in hand:
        if card in C.bunnies:
            return card
    no_bunny = not state.table[seat]
    for card in hand:
        if card in C.never_turn_card or (no_bunny and card in C.pink):
            continue
        if plays_for(state, seat, card, first=True):
            return card
    return None


# -- rolls -----------------------------------------------------------------------------------
def release(state: KinderState, out: Effects) -> None:
    """Act on the roll held in the task (the Re-Roll window has closed)."""
    task = state.task
    assert task is not None and task.held
    task.held = False
    effect = cards(state).effect(task.card)
    outcome = KINDER.outcomes.get(type(effect))
    if outcome is None:
        state.task = None
        return
    outcome(state, task, effect, task.faces, out)


@KINDER.outcome(fx.RollMatches)
def _matched(state: KinderState, task: Task, effect: fx.RollMatches, faces: list[int],
             out: Effects) -> list[fx.AnyEffect]:
    if effect.target is not None:  # a Safety Hazard: no match, and its ``if_none`` happens
        saved = effect.number in faces
        out.append(Effect("KIN-HAZ-1", "hazard_rolled", {"bunny": task.bunny, "faces": faces,
                                                         "number": effect.number, "saved": saved}))
        turn = Turn(seat=task.seat, card=task.card, rule="KIN-HAZ-1", on=task.bunny,
                    why="safety hazard")
        _then(state, turn, [] if saved else list(effect.if_none), out)
        state.task = None
        return []
    wanted = set(effect.any_of) if effect.any_of else {
        task.number if effect.number == "chosen" else effect.number}
    hits = sum(1 for f in faces if f in wanted)
    task.tries += 1
    rule = rule_of(state, task.card)
    out.append(Effect(rule, "dice_matched", {"faces": faces, "matches": hits}))
    if effect.per_match:
        then = fx.merge_revives(list(effect.per_match) * hits)
    elif hits >= effect.need:
        then = list(effect.then)
    elif task.tries < effect.tries:
        task.step = "roll"
        return []
    else:
        then = []
    step = task.step
    _then(state, Turn(seat=task.seat, card=task.card, rule=rule), then, out)
    if state.task is task and task.step == step:  # no choice is asked: the card is done
        state.task = None
    return []


def _then(state: KinderState, turn: Turn, then: list[fx.AnyEffect], out: Effects) -> None:
    """What a roll brings, each primitive in turn (none waits: a choice it asks is a task the
    next event answers)."""
    KINDER.resolve(state, turn, list(then), out)


@KINDER.outcome(fx.EveryoneRolls)
def _everyone_rolled(state: KinderState, task: Task, effect: fx.EveryoneRolls, faces: list[int],
                     out: Effects) -> list[fx.AnyEffect]:
    hit = set(fx.parse_faces(effect.faces))
    rule = rule_of(state, task.card)
    for seat, face in zip(task.rollers, faces, strict=True):
        if face in hit:  # ``then`` happens to that player
            _then(state, Turn(seat=seat, card=task.card, rule=rule, number=face),
                  list(effect.then), out)
    state.task = None
    return []


@KINDER.outcome(fx.RollSpread)
def _spread_rolled(state: KinderState, task: Task, effect: fx.RollSpread, faces: list[int],
                   out: Effects) -> list[fx.AnyEffect]:
    amount = max(faces) - min(faces)
    got = gain_bucks(state, task.seat, amount)
    bucks = cards(state).bucks
    out.append(Effect(rule_of(state, task.card), "bucks_gained",
                      {"seat": task.seat, "due": amount, "paid": sum(bucks[c] for c in got)}))
    state.task = None
    return []


@KINDER.outcome(fx.RaceToRoll)
def _race_rolled(state: KinderState, task: Task, effect: fx.RaceToRoll, faces: list[int],
                 out: Effects) -> list[fx.AnyEffect]:
    first = next((s for s, f in zip(task.rollers, faces, strict=True) if f == effect.face), None)
    if first is None:
        task.step = "roll"
        return []
    _race_won(state, first, effect.each, out, rule_of(state, task.card))
    state.task = None
    return []


@KINDER.outcome(fx.StealCarrot)
def _burglar_rolled(state: KinderState, task: Task, effect: fx.StealCarrot, faces: list[int],
                    out: Effects) -> list[fx.AnyEffect]:
    C = cards(state)
    rule = rule_of(state, task.card)
    letter = "ABCDEFGHIJ"[faces[0] - 1]
    carrot = C.carrot_of.get(letter)
    holder = _carrot_holder(state, carrot)
    out.append(Effect(rule, "carrot_named", {"face": faces[0], "carrot": letter}))
    state.task = None
    if carrot is not None and carrot in state.carrot_pile:
        take_from_pile(state, task.seat, carrot, rule, out)
        carrot_taken(state, out)
    elif carrot is not None and holder is not None and holder != task.seat:
        state.carrots[holder].remove(carrot)
        state.carrots[task.seat].append(carrot)
        out.append(Effect(rule, "carrot_stolen", {"seat": task.seat, "from": holder,
                                                  "carrot": letter}))
    return []


@KINDER.outcome(fx.SwitchPlaces)
def _switch_rolled(state: KinderState, task: Task, effect: fx.SwitchPlaces, faces: list[int],
                   out: Effects) -> list[fx.AnyEffect]:
    _switch(state, task.rollers, faces, out, rule_of(state, task.card))
    state.task = None
    return []


@KINDER.outcome(fx.RollOff)
def _fugitive_rolled(state: KinderState, task: Task, effect: fx.RollOff, faces: list[int],
                     out: Effects) -> list[fx.AnyEffect]:
    off = task.off
    assert off is not None
    for seat, face in zip(list(off.contenders), faces, strict=True):
        rolls.record(off, seat, face)
    rolls.close_round(off)
    if off.decided is None:
        task.rollers = list(off.contenders)
        task.dice = len(off.contenders)
        task.step = "roll"
        return []
    winner = off.decided
    bunny = task.bunny
    state.task = None
    owner = None if bunny is None else owner_of(state, bunny)
    if bunny is not None and owner is not None and owner != winner:
        state.table[owner].remove(bunny)
        state.table[winner].append(bunny)
        out.append(Effect(rule_of(state, task.card), "bunny_taken",
                          {"seat": winner, "from": owner, "bunny": bunny}))
    return []


def _bunnies_back(state: KinderState) -> int:
    """The bunnies in the discard pile, which a card may bring back (counted only then)."""
    bunnies = cards(state).bunnies
    return sum(1 for c in state.discard if c in bunnies)


def _ask(state: KinderState, task: Task, what: str, count: int) -> None:
    if count <= 0:
        state.task = None
        return
    task.step = what
    task.count = count
    task.owner = task.seat


def _race_won(state: KinderState, winner: int, each: int, out: Effects, rule: str) -> None:
    """Every other player who has Bucks pays ``each`` through the bank (R-KIN-12)."""
    value = cards(state).bucks
    due = got = 0
    for seat in clockwise_from(state, winner)[1:]:
        if money(state, seat) <= 0:
            continue
        paid = pay(state, seat, each, None, rule)
        for c in paid:
            state.bucks[seat].remove(c)
            state.discard.append(c)
        due += each
        got += sum(value[c] for c in gain_bucks(state, winner, each))
        change = sum(value[c] for c in paid) - each
        if change > 0:
            back = gain_bucks(state, seat, change)
            out.append(Effect(rule, "change", {"seat": seat, "due": change, "cards": back}))
    out.append(Effect(rule, "race_won", {"seat": winner, "due": due, "paid": got}))


def _switch(state: KinderState, order: list[int], faces: list[int], out: Effects, rule: str) -> None:
    """Players on one face change places with what lies in front of them (R-KIN-14)."""
    groups: dict[int, list[int]] = {}
    for seat, face in zip(order, faces, strict=True):
        groups.setdefault(face, []).append(seat)
    moves: dict[int, int] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        ring = sorted(members)
        for i, seat in enumerate(ring):
            moves[seat] = ring[(i + 1) % len(ring)]
    if not moves:
        return
    table, bucks, carrots = state.table[:], state.bucks[:], state.carrots[:]
    for seat, place in moves.items():
        state.table[seat], state.bucks[seat], state.carrots[seat] = table[place], bucks[place], carrots[place]
    out.append(Effect(rule, "places_changed", {"moves": {str(k): v for k, v in sorted(moves.items())}}))


# -- choices ---------------------------------------------------------------------------------
def choose(state: KinderState, seat: int, e: Choose, out: Effects) -> None:
    """Settle the choice the task waits for (checked first, then applied)."""
    task = state.task
    assert task is not None
    C = cards(state)
    rule = rule_of(state, task.card)
    step = task.step
    if step == "bad_news":
        _bad_news(state, seat, task, e, out)
        return
    if step == "revive":
        picked = list(e.bunnies)
        bunnies = [c for c in state.discard if c in C.bunnies]
        if len(picked) != task.count or len(set(picked)) != len(picked) or \
                any(b not in bunnies for b in picked) or e.carrots or e.cards or e.give or e.take:
            refuse(rule, f"bring back {task.count} different bunny card(s) of the discard pile "
                 "by name", bunnies=picked, discarded=sorted(bunnies))
        state.task = None
        for b in picked:
            state.discard.remove(b)
            state.table[seat].append(b)
            out.append(Effect(rule, "bunny_back", {"seat": seat, "bunny": b}))
        return
    if step == "steal":
        picked = list(e.carrots)
        holder = _carrot_holder(state, picked[0]) if len(picked) == 1 else None
        if holder is None or holder == seat or e.bunnies or e.cards:
            refuse(rule, "name one carrot another player holds to take",
                 carrots=picked)
        state.task = None
        state.carrots[holder].remove(picked[0])
        state.carrots[seat].append(picked[0])
        out.append(Effect(rule, "carrot_stolen", {"seat": seat, "from": holder,
                                                  "carrot": C.letter(picked[0])}))
        return
    if step == "carrot":
        check_pick(state, list(e.carrots), rule, 1)
        state.task = None
        take_from_pile(state, seat, e.carrots[0], rule, out)
        carrot_taken(state, out)
        return
    if step == "show":
        _show(state, seat, task, e, out)
        return
    if step == "pass":
        _stage_pass(state, seat, task, e, out)
        return
    if step == "swap":
        _swap(state, seat, task, e, out)
        return
    refuse("KIN-TURN-1", "nothing is waiting for a choice now", step=step)


def bad_news_choices(state: KinderState, card: int, seat: int) -> list[tuple[list[int], list[int]]]:
    """(bunnies, carrots) a Bad News card's drawer may name (KIN-CARD-BAD-NEWS)."""
    effect = cards(state).effect(card)
    options = KINDER.options_of(effect) if effect is not None else None
    if options is None:
        return [([], [])]
    return [(o.get("bunnies", []), o.get("carrots", [])) for o in options(state, seat, effect)]


@KINDER.options(fx.KeepOnly)
def _keep_options(state: KinderState, seat: int, effect: fx.KeepOnly) -> Fields:
    table = state.table[seat]
    carrot_sets: list[list[int]] = [[c] for c in state.carrots[seat]] or [[]]
    if len(state.carrots[seat]) <= effect.carrots:
        carrot_sets = [list(state.carrots[seat])]
    bunny_sets = [[b] for b in table] if len(table) > effect.bunnies else [list(table)]
    return [{"bunnies": b, "carrots": c} for b in bunny_sets for c in carrot_sets]


@KINDER.options(fx.Kill)
def _kill_options(state: KinderState, seat: int, effect: fx.Kill) -> Fields:
    if effect.target == "own_bunny":
        return [{"bunnies": [b]} for b in state.table[seat]]
    return [{}]


def bad_news_needs_choice(state: KinderState, card: int, seat: int) -> bool:
    """The drawer decides: the Yellow deck's No News Is Good News may answer, or the card
    leaves him a choice."""
    return yellow(state) or len(bad_news_choices(state, card, seat)) > 1


def apply_bad_news(state: KinderState, card: int, seat: int, bunnies: list[int],
                   carrots: list[int], out: Effects) -> None:
    """A Bad News card happens to its drawer, who named ``bunnies`` and ``carrots`` (what he
    keeps, or what he loses: the card's primitive says)."""
    effect = cards(state).effect(card)
    turn = Turn(seat=seat, card=card, rule="KIN-CARD-BAD-NEWS", carrots=list(carrots),
                bunnies=list(bunnies))
    if effect is None:  # a Bad News card of a deck file that names no primitive: all is lost
        _lose_all(state, turn, effect, out)
    else:
        KINDER.resolve(state, turn, [effect], out)
    state.discard.append(card)


@KINDER.apply(fx.KeepOnly)
def _keep_only(state: KinderState, turn: Turn, effect: fx.KeepOnly, out: Effects) -> None:
    table = state.table[turn.seat]
    _bad_news_losses(state, turn, [b for b in table if b not in turn.bunnies],
                     [c for c in state.carrots[turn.seat] if c not in turn.carrots], out)


@KINDER.apply(fx.Kill)
def _kill(state: KinderState, turn: Turn, effect: fx.Kill, out: Effects) -> None:
    if effect.target == "host":  # the bunny a Safety Hazard sits on
        if turn.on is not None:
            discard_bunny(state, turn.on, turn.rule, turn.why, out, turn.card)
        return
    if effect.target != "own_bunny":
        _lose_all(state, turn, effect, out)
        return
    _bad_news_losses(state, turn, list(turn.bunnies), [], out)


def _lose_all(state: KinderState, turn: Turn, effect: object, out: Effects) -> None:
    _bad_news_losses(state, turn, list(state.table[turn.seat]), [], out)


def _bad_news_losses(state: KinderState, turn: Turn, lost: list[int], gone: list[int],
                     out: Effects) -> None:
    C = cards(state)
    card, seat = turn.card, turn.seat
    for b in lost:
        discard_bunny(state, b, "KIN-CARD-BAD-NEWS", C.name[card], out, card)
    for c in gone:
        return_carrot(state, seat, c)
        out.append(Effect("KIN-CARD-BAD-NEWS", "carrot_returned",
                          {"seat": seat, "carrot": C.letter(c), "card": card}))


def _bad_news_choice(bunnies: list[int], carrots: list[int]) -> str:
    """One way out of Bad News in words: the bunnies by card, the carrots by number."""
    parts = [f"lose {cards_said(bunnies)}"] if bunnies else []
    if carrots:
        parts.append(f"give up {len(carrots)} carrot" + ("s" if len(carrots) != 1 else ""))
    return " and ".join(parts) or "lose nothing"


def _bad_news(state: KinderState, seat: int, task: Task, e: Choose, out: Effects) -> None:
    options = bad_news_choices(state, task.card, seat)
    wanted = (sorted(e.bunnies), sorted(e.carrots))
    if wanted not in [(sorted(b), sorted(c)) for b, c in options] or e.cards or e.give or e.take:
        refuse("KIN-CARD-BAD-NEWS", f"{cards(state).name[task.card]} leaves these choices: "
             + "; or ".join(_bad_news_choice(b, c) for b, c in options),
             bunnies=list(e.bunnies), carrots=list(e.carrots))
    state.task = None
    apply_bad_news(state, task.card, seat, list(e.bunnies), list(e.carrots), out)


def supply_of(state: KinderState, card: int) -> tuple[str, ...]:
    return cards(state).supply_kinds.get(card, ())


def _show(state: KinderState, seat: int, task: Task, e: Choose, out: Effects) -> None:
    """Drought and Maggots: the player named shows every card of the supply (R-KIN-6)."""
    C = cards(state)
    kind = fx.expect(C.effect(task.card), fx.LoseSupply).kind
    shown = list(e.cards)
    if any(is_unknown(c) for c in shown) or e.bunnies or e.carrots or e.give or e.take:
        refuse("KIN-CARD-DROUGHT", "the cards shown are named: they are discarded face up",
             cards=shown)
    named = [int(c) for c in shown]
    if len(set(named)) != len(named) or any(supply_of(state, c) != (kind,) for c in named):
        refuse("KIN-CARD-DROUGHT", f"only {kind.title()} cards are shown, each once", cards=named)
    for c in named:
        need_in_hand(state, seat, c, "show")
    hand = state.hands[seat]
    others = [c for c in hand if c != HIDDEN and c not in named and supply_of(state, c) == (kind,)]
    if others:
        refuse("KIN-CARD-DROUGHT", f"seat {seat} also holds {kind.title()} card(s) {others}: every one "
             "is shown", held=others)
    state.task = None
    for c in named:
        take_from_hand(state, seat, c)
        state.discard.append(c)
    out.append(Effect("KIN-CARD-DROUGHT", "supply_lost", {"seat": seat, "kind": kind, "cards": named}))
    if HIDDEN in hand:
        out.append(undetermined("KIN-CARD-DROUGHT", f"legal only if seat {seat}'s hand held no other "
                                f"{kind.title()} card", seat=seat, unknown_cards=hand.count(HIDDEN)))
    if named:
        state.refill.insert(0, seat)


def _hand_card(state: KinderState, seat: int, card: Card | None, rule: str, what: str) -> int:
    """A card leaving ``seat``'s hand (checked, not yet taken): named, or HIDDEN."""
    if card is None:
        refuse(rule, f"name the card {what}", seat=seat)
    if is_unknown(card):
        refuse_unknown(state, "the card " + what)
        if not state.hands[seat]:
            refuse(rule, f"seat {seat} holds no card", seat=seat)
        return HIDDEN
    assert isinstance(card, int)
    if not holds(state, seat, card):
        refuse(rule, f"seat {seat} does not hold card {card}", seat=seat, card=card)
    return card


def _leave_hand(state: KinderState, seat: int, card: int) -> None:
    if card == HIDDEN:
        take_unseen(state, seat)
    else:
        take_from_hand(state, seat, card)


def _stage_pass(state: KinderState, seat: int, task: Task, e: Choose, out: Effects) -> None:
    if seat not in task.waiting:
        refuse("KIN-CARD-PASS", f"seat {seat} has already passed its card, or holds none",
             waiting=task.waiting)
    if e.bunnies or e.carrots or e.cards or e.take is not None:
        refuse("KIN-CARD-PASS", "a pass names one card of the hand")
    card = _hand_card(state, seat, e.give, "KIN-CARD-PASS", "passed")
    _leave_hand(state, seat, card)
    task.staged[seat] = card
    task.waiting.remove(seat)
    if task.waiting:
        return
    state.task = None
    for giver, passed in sorted(task.staged.items()):
        state.hands[(giver + 1) % state.n].append(passed)
    out.append(Effect("KIN-CARD-PASS", "cards_passed", {"seats": sorted(task.staged)}))


def _swap(state: KinderState, seat: int, task: Task, e: Choose, out: Effects) -> None:
    other = task.owner
    assert other is not None
    if seat != task.seat:
        refuse("KIN-CARD-SQUID", f"seat {task.seat} makes the swap", seat=seat)
    if e.bunnies or e.carrots or e.cards:
        refuse("KIN-CARD-SQUID", "a swap names the card given and the card taken")
    give = _hand_card(state, seat, e.give, "KIN-CARD-SQUID", "given")
    take = _hand_card(state, other, e.take, "KIN-CARD-SQUID", "taken")
    state.task = None
    _leave_hand(state, seat, give)
    _leave_hand(state, other, take)
    state.hands[seat].append(take)
    state.hands[other].append(give)
    out.append(Effect("KIN-CARD-SQUID", "cards_swapped", {"seat": seat, "with": other}))


def chooser(task: Task) -> int:
    """Who makes the choice a task waits for: Secret Squid's player, else the player the
    task names (the bunny's owner, the player named, the winner), else the card's player."""
    if task.step == "swap" or task.owner is None:
        return task.seat
    return task.owner


def hazard_dice() -> int:
    return len(FIVE_DICE)
