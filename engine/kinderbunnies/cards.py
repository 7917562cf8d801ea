"""What each card does in KinderBunnies: the effect primitives of the family kit
(engine.killer.catalogue.effects) read the KinderBunnies way.

A turn's card is checked by :func:`check_play`, which raises the rule that forbids it and
otherwise returns a :data:`Plan` that applies it; nothing changes before the plan runs, so
a refused card leaves the state as it was. :func:`release` acts on a roll once nothing can
answer it any more (the Re-Roll window has closed, R-KIN-15); :func:`choose` settles the
choices the cards wait for.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.hidden import undetermined
from engine.killer import rolls
from engine.killer.catalogue import effects as fx
from engine.kinderbunnies.catalogue import FIVE_DICE
from engine.kinderbunnies.events import Card, Choose, Play
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
        refuse(rule, "the card goes on another player's bunny: name it (on=BUNNY)")
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
        refuse(rule, f"card {e.card} takes no {', '.join(extra)}", fields=extra)


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
    base = _base(card, seat)

    if isinstance(effect, fx.EnterCircle) or data.bunny is not None:
        _fields(e, set(), rule)

        def bunny(state: KinderState, out: Effects) -> None:
            take_from_hand(state, seat, card)
            state.table[seat].append(card)
            out.append(Effect("KIN-BUNNY-1", "bunny_played", {"seat": seat, "bunny": card}))
        return bunny

    if isinstance(effect, fx.TakeCarrot):
        _fields(e, {"carrots"}, rule)
        check_pick(state, list(e.carrots), rule, effect.count)
        chosen = list(e.carrots)

        def take_carrots(state: KinderState, out: Effects) -> None:
            base(state, out)
            for c in chosen:
                take_from_pile(state, seat, c, rule, out)
            carrot_taken(state, out)
        return take_carrots

    if isinstance(effect, fx.Feed):
        _fields(e, {"on"}, rule)
        owner = others_bunny(state, seat, e.on, "KIN-FEED-1")
        bunny_on = e.on

        def feed(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="feed", bunny=bunny_on, owner=owner)
        return feed

    if isinstance(effect, fx.RollMatches) and effect.target is not None:
        _fields(e, {"on"}, rule)
        owner = others_bunny(state, seat, e.on, "KIN-HAZ-1")
        assert e.on is not None
        if "safety-hazard" in C.immune.get(e.on, ()):
            refuse("KIN-CARD-ADVENTURE", f"bunny {C.label(e.on)} cannot have a Safety Hazard put on it",
                 bunny=e.on)
        bunny_on = e.on

        def hazard(state: KinderState, out: Effects) -> None:
            base(state, out)
            # The owner may answer with Safety Skunk before the roll where the Yellow deck
            # is played (KIN-CARD-SKUNK); in Beginner the dice come at once.
            step = "hazard" if yellow(state) else "roll"
            state.task = Task(card=card, seat=seat, step=step, bunny=bunny_on, owner=owner,
                              dice=len(effect.dice), rollers=[owner])
        return hazard

    if isinstance(effect, fx.RollMatches):
        allowed = {"number"} if effect.number == "chosen" else set()
        _fields(e, allowed, rule)
        lo, hi = effect.lowest, effect.highest
        if effect.number == "chosen" and (e.number is None or not lo <= e.number <= hi):
            refuse(rule, f"name a number from {effect.lowest} to {effect.highest} (number=N)",
                 number=e.number)
        number = e.number

        def dice_card(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="roll", dice=len(effect.dice),
                              rollers=[seat], number=number)
        return dice_card

    if isinstance(effect, fx.ReturnCarrot):
        _fields(e, {"carrot"}, rule)
        holder = _carrot_holder(state, e.carrot)
        if holder is None or holder == seat:
            refuse(rule, "name a carrot another player holds (carrot=CARD)", carrot=e.carrot)
        carrot = e.carrot
        assert carrot is not None

        def send_back(state: KinderState, out: Effects) -> None:
            base(state, out)
            return_carrot(state, holder, carrot)
            out.append(Effect(rule, "carrot_returned", {"seat": holder,
                                                        "carrot": cards(state).letter(carrot)}))
        return send_back

    if isinstance(effect, fx.LoseSupply):
        _fields(e, {"player"}, rule)
        victim = e.player
        if victim is None or victim == seat or not 0 <= victim < state.n:
            refuse(rule, "name another player (player=SEAT)", player=victim)

        def lose(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="show", owner=victim)
        return lose

    if isinstance(effect, fx.EveryoneRolls | fx.RaceToRoll | fx.SwitchPlaces):
        _fields(e, set(), rule)

        def all_roll(state: KinderState, out: Effects) -> None:
            base(state, out)
            order = clockwise_from(state, seat)
            state.task = Task(card=card, seat=seat, step="roll", dice=len(order), rollers=order)
        return all_roll

    if isinstance(effect, fx.RollSpread):
        _fields(e, set(), rule)

        def spread(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="roll", dice=len(effect.dice),
                              rollers=[seat])
        return spread

    if isinstance(effect, fx.StealCarrot) and effect.pick == "by_roll":
        _fields(e, set(), rule)

        def burglar(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="roll", dice=1, rollers=[seat])
        return burglar

    if isinstance(effect, fx.RollOff):
        _fields(e, {"on"}, rule)
        others_bunny(state, seat, e.on, rule)
        bunny_on = e.on

        def fugitive(state: KinderState, out: Effects) -> None:
            base(state, out)
            order = clockwise_from(state, seat)
            state.task = Task(card=card, seat=seat, step="roll", bunny=bunny_on, dice=len(order),
                              rollers=order, off=rolls.start(order, "high", seat, "none"))
        return fugitive

    if isinstance(effect, fx.PassHands):
        _fields(e, set(), rule)

        def pass_along(state: KinderState, out: Effects) -> None:
            base(state, out)
            waiting = [s for s in clockwise_from(state, seat) if state.hands[s]]
            if waiting:
                state.task = Task(card=card, seat=seat, step="pass", waiting=waiting)
        return pass_along

    if isinstance(effect, fx.SwapWithHand):
        _fields(e, {"player"}, rule)
        other = e.player
        if other is None or other == seat or not 0 <= other < state.n or not state.hands[other]:
            refuse(rule, "name another player who holds cards (player=SEAT)", player=other)
        if len(state.hands[seat]) < 2:
            refuse(rule, "the player needs a card of his own to swap", hand=len(state.hands[seat]))

        def squid(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="swap", owner=other)
        return squid

    if isinstance(effect, fx.Contest):
        _fields(e, set(), rule)

        def spin(state: KinderState, out: Effects) -> None:
            base(state, out)
            state.task = Task(card=card, seat=seat, step="spin")
        return spin

    if isinstance(effect, fx.ExchangeCarrots):
        _fields(e, {"carrot", "carrots"}, rule)
        if e.carrot is None or e.carrot not in state.carrots[seat]:
            refuse(rule, "give back one of the player's own carrots (carrot=CARD)", carrot=e.carrot,
                 own=list(state.carrots[seat]))
        if not state.carrot_pile:
            refuse(rule, "the carrot pile has no carrot to take", pile=0)
        check_pick(state, list(e.carrots), rule, effect.take)
        given = e.carrot
        chosen = list(e.carrots)

        def trade(state: KinderState, out: Effects) -> None:
            base(state, out)
            for c in chosen:
                take_from_pile(state, seat, c, rule, out)
            return_carrot(state, seat, given)
            out.append(Effect(rule, "carrot_returned", {"seat": seat,
                                                        "carrot": cards(state).letter(given)}))
        return trade

    if isinstance(effect, fx.ReplayDiscard):
        _fields(e, {"take", "pay"}, rule)
        take = e.take
        if take is None or take not in state.discard or take in C.bucks:
            refuse(rule, "bring back a card of the discard pile (take=CARD)", take=take)
        paid = pay(state, seat, effect.price, e.pay, rule)
        trial = state.copy()
        take_from_hand(trial, seat, card)
        trial.discard.remove(take)
        trial.hands[seat].append(take)
        trial.forced = take
        if not plays_for(trial, seat, take, first=True):
            refuse(rule, f"card {C.label(take)} could not be played now", take=take)
        price = effect.price

        def buy_back(state: KinderState, out: Effects) -> None:
            take_from_hand(state, seat, card)
            state.discard.append(card)
            spend(state, seat, paid, price, out, rule)
            state.discard.remove(take)
            state.hands[seat].append(take)
            state.forced = take
            out.append(Effect(rule, "card_brought_back", {"seat": seat, "card": take}))
        return buy_back

    refuse("KIN-TURN-1", f"card {C.label(card)} cannot be played as a turn's card", card=card)


def _base(card: int, seat: int) -> Plan:
    def base(state: KinderState, out: Effects) -> None:
        take_from_hand(state, seat, card)
        state.discard.append(card)
    return base


def _carrot_holder(state: KinderState, carrot: int | None) -> int | None:
    if carrot is None:
        return None
    for s, own in enumerate(state.carrots):
        if carrot in own:
            return s
    return None


# -- the legal plays of a card ---------------------------------------------------------------
def candidates(state: KinderState, seat: int, card: int) -> list[Play]:
    """Every choice a card could be played with (checked by :func:`plays_for`)."""
    C = cards(state)
    effect = C.effect(card)
    seq = state.seq + 1
    mk = _maker(seq, seat, card)
    others = [b for s in range(state.n) if s != seat for b in state.table[s]]
    if isinstance(effect, fx.TakeCarrot):
        pile = state.carrot_pile
        if effect.count == 1 or len(pile) < 2:
            return [mk(carrots=[c]) for c in pile]
        return [mk(carrots=[a, b]) for i, a in enumerate(pile) for b in pile[i + 1:]]
    if isinstance(effect, fx.Feed | fx.RollOff) or (
            isinstance(effect, fx.RollMatches) and effect.target is not None):
        return [mk(on=b) for b in others]
    if isinstance(effect, fx.RollMatches) and effect.number == "chosen":
        return [mk(number=k) for k in range(effect.lowest, effect.highest + 1)]
    if isinstance(effect, fx.ReturnCarrot):
        return [mk(carrot=c) for s in range(state.n) if s != seat for c in state.carrots[s]]
    if isinstance(effect, fx.LoseSupply | fx.SwapWithHand):
        return [mk(player=s) for s in range(state.n) if s != seat]
    if isinstance(effect, fx.ExchangeCarrots):
        pile = state.carrot_pile
        picks = [[c] for c in pile] if len(pile) < 2 else [
            [a, b] for i, a in enumerate(pile) for b in pile[i + 1:]]
        return [mk(carrot=g, carrots=p) for g in state.carrots[seat] for p in picks]
    if isinstance(effect, fx.ReplayDiscard):
        if money(state, seat) < effect.price:
            return []
        return [mk(take=t) for t in sorted(set(state.discard)) if t not in C.bucks]
    return [mk()]


def _maker(seq: int, seat: int, card: int) -> Callable[..., Play]:
    def mk(**kw: object) -> Play:
        return Play(seq=seq, actor=seat, card=card, **kw)  # type: ignore[arg-type]  # Play's own fields
    return mk


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
    C = cards(state)
    effect = C.effect(task.card)
    faces = task.faces
    rule = rule_of(state, task.card)
    if isinstance(effect, fx.RollMatches) and effect.target is not None:
        saved = effect.number in faces
        out.append(Effect("KIN-HAZ-1", "hazard_rolled", {"bunny": task.bunny, "faces": faces,
                                                         "number": effect.number, "saved": saved}))
        if not saved and task.bunny is not None:
            discard_bunny(state, task.bunny, "KIN-HAZ-1", "safety hazard", out, task.card)
        state.task = None
        return
    if isinstance(effect, fx.RollMatches):
        wanted = set(effect.any_of) if effect.any_of else {
            task.number if effect.number == "chosen" else effect.number}
        hits = sum(1 for f in faces if f in wanted)
        task.tries += 1
        out.append(Effect(rule, "dice_matched", {"faces": faces, "matches": hits}))
        if effect.per_match:
            _ask(state, task, "revive", min(hits, _bunnies_back(state)))
            return
        if hits >= effect.need:
            then = effect.then[0] if effect.then else None
            if isinstance(then, fx.Revive):
                _ask(state, task, "revive", min(then.count, _bunnies_back(state)))
            elif isinstance(then, fx.StealCarrot):
                others = any(state.carrots[s] for s in range(state.n) if s != task.seat)
                _ask(state, task, "steal", 1 if others else 0)
            else:
                state.task = None
            return
        if task.tries < effect.tries:
            task.step = "roll"
            return
        state.task = None
        return
    if isinstance(effect, fx.EveryoneRolls):
        hit = set(fx.parse_faces(effect.faces))
        for seat, face in zip(task.rollers, faces, strict=True):
            if face in hit:
                state.skips[seat] += 1
                out.append(Effect(rule, "will_miss_a_turn", {"seat": seat, "face": face}))
        state.task = None
        return
    if isinstance(effect, fx.RollSpread):
        amount = max(faces) - min(faces)
        got = gain_bucks(state, task.seat, amount)
        out.append(Effect(rule, "bucks_gained", {"seat": task.seat, "due": amount,
                                                 "paid": sum(C.bucks[c] for c in got)}))
        state.task = None
        return
    if isinstance(effect, fx.RaceToRoll):
        first = next((s for s, f in zip(task.rollers, faces, strict=True) if f == effect.face), None)
        if first is None:
            task.step = "roll"
            return
        _race_won(state, first, effect.each, out, rule)
        state.task = None
        return
    if isinstance(effect, fx.StealCarrot):
        letters = "ABCDEFGHIJ"
        letter = letters[faces[0] - 1]
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
        return
    if isinstance(effect, fx.SwitchPlaces):
        _switch(state, task.rollers, faces, out, rule)
        state.task = None
        return
    if isinstance(effect, fx.RollOff):
        off = task.off
        assert off is not None
        for seat, face in zip(list(off.contenders), faces, strict=True):
            rolls.record(off, seat, face)
        rolls.close_round(off)
        if off.decided is None:
            task.rollers = list(off.contenders)
            task.dice = len(off.contenders)
            task.step = "roll"
            return
        winner = off.decided
        bunny = task.bunny
        state.task = None
        owner = None if bunny is None else owner_of(state, bunny)
        if bunny is not None and owner is not None and owner != winner:
            state.table[owner].remove(bunny)
            state.table[winner].append(bunny)
            out.append(Effect(rule, "bunny_taken", {"seat": winner, "from": owner, "bunny": bunny}))
        return
    state.task = None


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
                 "(choose bunnies=...)", bunnies=picked, discarded=sorted(bunnies))
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
            refuse(rule, "take one carrot another player holds (choose carrots=CARD)",
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
    table = state.table[seat]
    if isinstance(effect, fx.KeepOnly):
        carrot_sets: list[list[int]] = [[c] for c in state.carrots[seat]] or [[]]
        if len(state.carrots[seat]) <= effect.carrots:
            carrot_sets = [list(state.carrots[seat])]
        bunny_sets = [[b] for b in table] if len(table) > effect.bunnies else [list(table)]
        return [(b, c) for b in bunny_sets for c in carrot_sets]
    if isinstance(effect, fx.Kill) and effect.target == "own_bunny":
        return [([b], []) for b in table]
    return [([], [])]


def bad_news_needs_choice(state: KinderState, card: int, seat: int) -> bool:
    """The drawer decides: the Yellow deck's No News Is Good News may answer, or the card
    leaves him a choice."""
    return yellow(state) or len(bad_news_choices(state, card, seat)) > 1


def apply_bad_news(state: KinderState, card: int, seat: int, bunnies: list[int],
                   carrots: list[int], out: Effects) -> None:
    C = cards(state)
    effect = C.effect(card)
    table = state.table[seat]
    if isinstance(effect, fx.KeepOnly):
        lost = [b for b in table if b not in bunnies]
        gone = [c for c in state.carrots[seat] if c not in carrots]
    elif isinstance(effect, fx.Kill) and effect.target == "own_bunny":
        lost, gone = list(bunnies), []
    else:
        lost, gone = list(table), []
    for b in lost:
        discard_bunny(state, b, "KIN-CARD-BAD-NEWS", C.name[card], out, card)
    for c in gone:
        return_carrot(state, seat, c)
        out.append(Effect("KIN-CARD-BAD-NEWS", "carrot_returned",
                          {"seat": seat, "carrot": C.letter(c), "card": card}))
    state.discard.append(card)


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
    effect = C.effect(task.card)
    assert isinstance(effect, fx.LoseSupply)
    kind = effect.kind
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
        refuse("KIN-CARD-PASS", "a pass names one card (choose give=CARD)")
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
        refuse("KIN-CARD-SQUID", "a swap names the card given and the card taken (choose give=A take=B)")
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
