"""What each event does to a game of KinderBunnies, guard by guard.

Every guard runs before the state changes, so a violation leaves the state as it was. A
roll waiting for the Re-Roll window to close (R-KIN-15) is acted on by the next event that
does not answer it: that event is then applied to a copy with the roll released, and the
copy replaces the state only if the event is legal (:func:`after_roll`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.hidden import undetermined
from engine.killer import holds
from engine.killer.catalogue import effects as fx
from engine.kinderbunnies import cards as card_rules
from engine.kinderbunnies.cards import KINDER
from engine.kinderbunnies.catalogue import catalogue
from engine.kinderbunnies.events import (
    Accept,
    Buy,
    Choose,
    Discard,
    Draw,
    Play,
    Reveal,
    Roll,
    SetAside,
    Spin,
)
from engine.kinderbunnies.numbers import CARROT_PRICE
from engine.kinderbunnies.state import HIDDEN, KinderState, Task
from engine.kinderbunnies.table import (
    Effects,
    advance,
    cards,
    carrot_taken,
    check_pick,
    discard_bunny,
    end_turn,
    has_bunny,
    in_level,
    is_unknown,
    need_in_hand,
    owed_draw,
    pay,
    pile_size,
    refuse,
    refuse_over,
    refuse_unknown,
    spend,
    take_from_hand,
    take_from_pile,
    yellow,
)
from engine.record import Event
from engine.rules import Effect

Handler = Callable[[KinderState, Any], tuple[Effect, ...]]

_SIDES = catalogue().dice["violet-d10"].sides
"""Every KinderBunnies die is a d10 read with 0 as 10 (cards/sets.toml; KIN-DICE-1)."""
assert all(d.sides == _SIDES and d.zero_is_ten for d in catalogue().dice.values())


def _chance(e: Event, rule: str) -> None:
    if e.actor is not None:
        refuse(rule, "this is chance, recorded by the table with a null actor", actor=e.actor)


def _set_aside_first(state: KinderState, rule: str) -> None:
    if state.level == "really-advanced" and not state.orange:
        refuse("KIN-SET-2", "a Really Advanced game sets the Orange deck aside before anything else",
             asked_by=rule)


def _require_turn(state: KinderState, seat: int | None, what: str) -> int:
    """The seat's own turn, with nothing else owed first (KIN-TURN-1)."""
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    if not state.orange:  # _set_aside_first refuses only then
        _set_aside_first(state, "KIN-TURN-1")
    if state.dealing or state.refill or state.task is not None:
        owed = "the deal" if state.dealing else "a card drawn" if state.refill else \
            f"card {cards(state).label(state.task.card)} to be settled"  # type: ignore[union-attr]  # the task
        refuse("KIN-TURN-1", f"{what} must wait: the game waits for {owed}", seat=seat)
    if seat != state.active:
        refuse("KIN-TURN-1", f"it is seat {state.active}'s turn, not seat {seat}'s",
             active=state.active, actor=seat)
    assert seat is not None
    return seat


# -- handlers --------------------------------------------------------------------------------
def set_aside(state: KinderState, e: SetAside) -> tuple[Effect, ...]:
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    _chance(e, "KIN-SET-2")
    C = cards(state)
    if state.level != "really-advanced":
        refuse("KIN-SET-2", f"only a Really Advanced game sets an Orange deck aside, not this "
             f"{state.level} game", level=state.level)
    if state.orange or state.seq > 0:
        refuse("KIN-SET-2", "the Orange deck is set aside once, before the deal")
    named = [c for c in e.orange if not is_unknown(c)]
    if len(named) < len(e.orange):
        refuse_unknown(state, "the Orange deck")
    if len(e.orange) != len(C.orange) or len(set(named)) != len(named) or \
            any(c not in C.orange for c in named):
        refuse("KIN-SET-2", f"the Orange deck is the {len(C.orange)} Orange cards, each once",
             orange=list(e.orange))
    state.orange = [HIDDEN if is_unknown(c) else int(c) for c in e.orange]
    if state.pool is not None:
        for c in named:
            state.pool.reveal(str(c), "REC-UNK-2", "set aside")
    return (Effect("KIN-SET-2", "orange_set_aside", {"cards": len(e.orange)}),)


def draw(state: KinderState, e: Draw) -> tuple[Effect, ...]:
    task = state.task
    if task is not None and task.held:
        return _after_roll(draw, state, e)
    refill = state.refill
    card = e.card
    if refill and refill[0] == e.seat and card in state.pile and e.actor is None \
            and state.task is None and not state.dealing and not state.over and not state.ending:
        # The common draw, every guard passed at once: a known card of the pile owed to the
        # seat drawing back up (KIN-DRAW-1).
        if card not in cards(state).not_kept:
            state.pile.discard(card)
            hand = state.hands[e.seat]
            hand.append(card)
            if len(hand) < state.hand_size and (state.pile or state.pile_hidden):
                return ()
            out: Effects = []
            if len(hand) >= state.hand_size and len(refill) == 1 and state.played:
                # The hand is full again and nobody else is owed a card: the turn passes, as
                # advance's first step would find; the rest of advance only when it has work.
                refill.pop()
                end_turn(state, out)
                if not state.over and not state.ending and not refill and state.hands[state.active]:  # type: ignore[index]  # in play
                    return tuple(out)
            advance(state, out)
            return tuple(out)
    elif state.dealing and state.deal_seat == e.seat and card in state.pile and e.actor is None \
            and not (state.level == "really-advanced" and not state.orange) \
            and card not in cards(state).not_kept:
        # A card of the deal that is neither a Buck nor a Bad News card (KIN-DEAL-1).
        state.pile.discard(card)
        state.hands[e.seat].append(card)
        nxt = state.deal_seat = (e.seat + 1) % state.n
        if len(state.hands[nxt]) < state.hand_size and (state.pile or state.pile_hidden) \
                and state.task is None and not state.over and not state.ending:
            return ()  # the deal goes on to the next seat, as advance would find
        out = []
        advance(state, out)
        return tuple(out)
    return _draw(state, e)


def _draw(state: KinderState, e: Draw) -> tuple[Effect, ...]:
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    rule = "KIN-DEAL-1" if state.dealing else "KIN-DRAW-1"
    _chance(e, rule)
    _set_aside_first(state, rule)
    owed = owed_draw(state)
    if owed is None:
        refuse(rule, "no card is owed to anybody now", seat=e.seat)
    if e.seat != owed:
        refuse(rule, f"the card is owed to seat {owed}, not seat {e.seat}", owed=owed, seat=e.seat)
    C = cards(state)
    card = e.card
    if is_unknown(card):
        refuse_unknown(state, "the draw")
        if state.pile_hidden <= 0:
            refuse(rule, "the draw pile holds no unknown card", pile=len(state.pile))
        num = HIDDEN
    else:
        assert isinstance(card, int)
        num = card
        state_card_known = num in state.pile
        if not state_card_known:
            in_level(state, num)
            if not state.partial or state.pool is None or str(num) not in state.pool \
                    or state.pile_hidden <= 0:
                refuse(rule, f"card {C.label(num)} is not in the draw pile", card=num,
                     pile=pile_size(state))
    # -- every guard passed
    out: Effects = []
    seat = e.seat
    if num == HIDDEN:
        state.pile_hidden -= 1
        state.hands[seat].append(HIDDEN)
    else:
        if num in state.pile:
            state.pile.discard(num)
        else:
            if state.pool is not None:  # always so: a card not in the known pile is one nobody saw
                state.pool.reveal(str(num), "REC-UNK-2", "drawn")
            state.pile_hidden -= 1
        if num in C.bucks:
            state.bucks[seat].append(num)
            out.append(Effect("KIN-BUCK-1", "bucks_down", {"seat": seat, "card": num,
                                                           "value": C.bucks[num]}))
        elif num in C.bad_news:
            if not has_bunny(state, seat):
                state.discard.append(num)
                out.append(Effect("KIN-BAD-2", "bad_news_harmless", {"seat": seat, "card": num}))
            elif card_rules.bad_news_needs_choice(state, num, seat):
                state.task = Task(card=num, seat=seat, step="bad_news", owner=seat)
                out.append(Effect("KIN-BAD-1", "bad_news", {"seat": seat, "card": num}))
            else:
                out.append(Effect("KIN-BAD-1", "bad_news", {"seat": seat, "card": num}))
                bunnies, carrots = card_rules.bad_news_choices(state, num, seat)[0]
                card_rules.apply_bad_news(state, num, seat, bunnies, carrots, out)
        else:
            state.hands[seat].append(num)
    # The deal moves on clockwise after a card kept; a Buck or a harmless Bad News is
    # replaced at once by the same seat (KIN-BUCK-1, KIN-BAD-2).
    if state.dealing and (len(state.hands[seat]) >= state.hand_size
                          or (num not in C.bucks and num not in C.bad_news)):
        state.deal_seat = (seat + 1) % state.n
    advance(state, out)
    return tuple(out)


def buy(state: KinderState, e: Buy) -> tuple[Effect, ...]:
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    if e.actor == state.active and not state.dealing and (state.played or state.forced is not None):
        refuse("KIN-BUY-1", "carrots are bought before the turn's card is played, not after",
             seat=e.actor)
    seat = _require_turn(state, e.actor, "a purchase")
    check_pick(state, [e.carrot], "KIN-BUY-1", 1)
    paid = pay(state, seat, CARROT_PRICE, e.pay, "KIN-BUY-1")
    out: Effects = []
    spend(state, seat, paid, CARROT_PRICE, out, "KIN-BUY-1")
    take_from_pile(state, seat, e.carrot, "KIN-BUY-1", out)
    carrot_taken(state, out)
    advance(state, out)
    return tuple(out)


def play(state: KinderState, e: Play) -> tuple[Effect, ...]:
    task = state.task
    if task is not None and task.held and not _answers_roll(state, e):
        return _after_roll(play, state, e)
    seat = e.actor
    card = e.card
    if seat == state.active and not state.played and state.task is None and not state.refill \
            and not state.dealing and not state.over and not state.ending \
            and state.forced is None and card in state.hands[seat]:  # type: ignore[index]  # the active seat
        C = cards(state)
        if card in C.bunnies and e.on is None and e.player is None and not e.carrots \
                and e.carrot is None and e.number is None and e.die is None \
                and e.take is None and e.pay is None:
            # A bunny from the hand on the player's own turn: it goes down (KIN-BUNNY-1).
            assert seat is not None
            state.hands[seat].remove(card)
            state.table[seat].append(card)
            state.played = True
            state.refill.append(seat)
            out: Effects = [Effect("KIN-BUNNY-1", "bunny_played", {"seat": seat, "bunny": card})]
            advance(state, out)
            return tuple(out)
        if card not in C.bucks and e.carrot is None and e.take is None \
                and card not in C.replays:
            # Any other turn's card: the turn's guards have passed, the card's own follow.
            assert seat is not None
            plan = card_rules.check_play(state, seat, e)
            out = []
            plan(state, out)
            state.played = True
            state.refill.append(seat)
            advance(state, out)
            return tuple(out)
    return _play(state, e)


def _play(state: KinderState, e: Play) -> tuple[Effect, ...]:
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    seat = e.actor
    if seat is None:
        refuse("KIN-TURN-1", "a card is played by a seat, not by the table")
    in_level(state, e.card)
    if e.carrots or e.carrot is not None or e.take is not None:
        for named in (*e.carrots, e.carrot, e.take):
            if named is not None:
                in_level(state, named)
    if state.task is not None or ((state.dealing or state.refill) and seat != state.active):
        return _answer(state, seat, e)
    seat = _require_turn(state, seat, "a card")
    if state.played:
        refuse("KIN-TURN-1", f"seat {seat} has played this turn's card already", seat=seat)
    if e.card in cards(state).bucks:
        refuse("KIN-BUCK-1", f"card {cards(state).label(e.card)} is a Bunny Buck: it went face up "
             "when drawn and is never held or played", card=e.card)
    need_in_hand(state, seat, e.card)
    if state.forced is not None and e.card != state.forced:
        refuse("KIN-CARD-BUY-BACK", f"Buy Back brought card {state.forced} back: it is played now",
             forced=state.forced)
    plan = card_rules.check_play(state, seat, e)
    out: Effects = []
    buy_back = e.card in cards(state).replays
    plan(state, out)
    if not buy_back:
        state.played = True
        state.forced = None
        state.refill.append(seat)
    advance(state, out)
    return tuple(out)


ANSWERS = frozenset({fx.SettleFeed, fx.RerollDie, fx.Cancel})
"""The primitives played off the turn's flow, as answers to the card being settled."""


def _answer(state: KinderState, seat: int, e: Play) -> tuple[Effect, ...]:
    """A card played off the turn's flow: an answer to the card being settled."""
    C = cards(state)
    task = state.task
    effect = C.effect(e.card)
    if effect is None or type(effect) not in ANSWERS:
        if task is None:
            refuse("KIN-TURN-1", f"it is seat {state.active}'s turn, and nothing is waiting for an "
                   "answer", active=state.active, actor=seat)
        _roll_not_held(state, task, e.card)
        refuse("KIN-TURN-1", f"card {C.label(task.card)} is being settled; card {C.label(e.card)} "
             "does not answer it", waiting=task.step, card=e.card)
    turn = card_rules.Turn(seat=seat, card=e.card, rule=card_rules.rule_of(state, e.card))
    KINDER.check_card(state, turn, [effect], e)
    out: Effects = []
    KINDER.resolve(state, turn, [effect], out)
    return tuple(out)


def _none_waiting(state: KinderState, turn: card_rules.Turn, rule: str, what: str) -> Task:
    task = state.task
    if task is None:
        refuse(rule, f"card {cards(state).label(turn.card)} answers {what}, and none is waiting",
               card=turn.card)
    return task


def _roll_not_held(state: KinderState, task: Task, card: int) -> None:
    """Only a Re-Roll answers a roll just made (R-KIN-15)."""
    if task.held:
        rule = card_rules.rule_of(state, card)
        refuse(rule if rule.startswith("KIN-CARD") else "KIN-TURN-1",
               f"card {cards(state).label(card)} cannot answer the roll just made", card=card)


def _answered(state: KinderState, turn: card_rules.Turn) -> None:
    """The answer leaves the hand for the discard pile; its player draws first."""
    take_from_hand(state, turn.seat, turn.card)
    state.discard.append(turn.card)


@KINDER.check(fx.RerollDie)
def _check_reroll(state: KinderState, turn: card_rules.Turn, effect: fx.RerollDie, e: Play) -> None:
    task = _none_waiting(state, turn, "KIN-CARD-REROLL", "a roll just made")
    if not task.held:
        refuse("KIN-CARD-REROLL", "Re-Roll answers a roll just made, and none is waiting",
             step=task.step)
    if e.die is None or not 0 <= e.die < len(task.faces):
        refuse("KIN-CARD-REROLL", f"name the die rolled again: 0 to {len(task.faces) - 1}",
             die=e.die)
    need_in_hand(state, turn.seat, turn.card)
    turn.number = e.die


@KINDER.apply(fx.RerollDie)
def _reroll(state: KinderState, turn: card_rules.Turn, effect: fx.RerollDie, out: Effects) -> None:
    task = state.task
    assert task is not None
    _answered(state, turn)
    task.held = False
    task.reroll_die = turn.number
    task.step = "reroll"
    state.refill.insert(0, turn.seat)
    out.append(Effect("KIN-CARD-REROLL", "re_roll", {"seat": turn.seat, "die": turn.number}))


@KINDER.check(fx.SettleFeed)
def _check_fed(state: KinderState, turn: card_rules.Turn, effect: fx.SettleFeed, e: Play) -> None:
    C = cards(state)
    seat = turn.seat
    task = _none_waiting(state, turn, "KIN-FEED-2", "a Feed The Bunny on its holder's bunny")
    _roll_not_held(state, task, turn.card)
    if task.step != "feed":
        refuse("KIN-FEED-2", f"card {C.label(turn.card)} answers a Feed The Bunny, and none is "
             "waiting", card=turn.card, step=task.step)
    if seat != task.owner:
        refuse("KIN-FEED-1", f"only the bunny's owner, seat {task.owner}, answers the Feed The Bunny",
             owner=task.owner, seat=seat)
    feed = C.card(task.card).feed
    asked = "water" if feed is not None and feed.water else "cabbage"
    if asked not in effect.kinds:
        refuse("KIN-FEED-2", f"this Feed The Bunny asks for {asked}; card {C.label(turn.card)} "
             f"is {' or '.join(effect.kinds)}", asked=asked, card=turn.card)
    need_in_hand(state, seat, turn.card, "feed the bunny")


@KINDER.apply(fx.SettleFeed)
def _fed(state: KinderState, turn: card_rules.Turn, effect: fx.SettleFeed, out: Effects) -> None:
    task = state.task
    assert task is not None
    _answered(state, turn)
    out.append(Effect("KIN-FEED-2", "bunny_fed", {"seat": turn.seat, "bunny": task.bunny,
                                                  "card": turn.card}))
    state.task = None
    state.refill.insert(0, turn.seat)
    advance(state, out)


@KINDER.check(fx.Cancel)
def _check_cancel(state: KinderState, turn: card_rules.Turn, effect: fx.Cancel, e: Play) -> None:
    C = cards(state)
    seat = turn.seat
    hazard = "safety-hazard" in effect.what
    what = "a Safety Hazard before its dice are rolled" if hazard else "a Bad News card just drawn"
    task = _none_waiting(state, turn, turn.rule, what)
    _roll_not_held(state, task, turn.card)
    if hazard:
        if task.step != "hazard":
            refuse("KIN-CARD-SKUNK", "Safety Skunk answers a Safety Hazard before its dice are rolled",
                 step=task.step)
        if seat != task.owner:
            refuse("KIN-CARD-SKUNK", f"only the bunny's owner, seat {task.owner}, may answer",
                 owner=task.owner, seat=seat)
    elif "bad-news" in effect.what:
        if task.step != "bad_news":
            refuse("KIN-CARD-NO-NEWS", "No News Is Good News answers a Bad News card just drawn",
                 step=task.step)
        if seat != task.seat:
            refuse("KIN-CARD-NO-NEWS", f"only the drawer, seat {task.seat}, may cancel it",
                 drawer=task.seat, seat=seat)
    else:
        refuse("KIN-TURN-1", f"card {C.label(task.card)} is being settled; card "
               f"{C.label(turn.card)} does not answer it", waiting=task.step, card=turn.card)
    need_in_hand(state, seat, turn.card)


@KINDER.apply(fx.Cancel)
def _cancelled(state: KinderState, turn: card_rules.Turn, effect: fx.Cancel, out: Effects) -> None:
    task = state.task
    assert task is not None
    seat = turn.seat
    _answered(state, turn)
    state.task = None
    if "safety-hazard" in effect.what:
        state.refill.insert(0, seat)
        out.append(Effect("KIN-CARD-SKUNK", "hazard_cancelled", {"seat": seat, "bunny": task.bunny}))
    else:
        state.discard.append(task.card)
        if seat not in state.refill:
            state.refill.insert(0, seat)
        out.append(Effect("KIN-CARD-NO-NEWS", "bad_news_cancelled", {"seat": seat,
                                                                     "card": task.card}))
    advance(state, out)


def discard(state: KinderState, e: Discard) -> tuple[Effect, ...]:
    held = state.task
    if held is not None and held.held:  # a roll waits for the Re-Roll window (R-KIN-15)
        return _after_roll(discard, state, e)
    seat = _require_turn(state, e.actor, "a card")
    if state.played:
        refuse("KIN-TURN-1", f"seat {seat} has played this turn's card already", seat=seat)
    if e.card not in cards(state).in_game:  # in_level refuses only then
        in_level(state, e.card)
    if e.card not in state.hands[seat]:  # need_in_hand refuses only then, or takes an unknown card
        need_in_hand(state, seat, e.card, "lay down")
    if state.forced is not None and e.card != state.forced:
        refuse("KIN-CARD-BUY-BACK", f"Buy Back brought card {state.forced} back: it is played now",
             forced=state.forced)
    could = card_rules.usable(state, seat)
    if could is not None:
        refuse("KIN-PLAY-1", f"seat {seat} can use card {cards(state).label(could)}: a card is laid "
             "down for nothing only when none can be used", usable=could)
    out: Effects = []
    if HIDDEN in state.hands[seat]:
        out.append(undetermined("KIN-PLAY-1", f"legal only if none of seat {seat}'s unknown cards "
                                "could be used", seat=seat,
                                unknown_cards=state.hands[seat].count(HIDDEN)))
    take_from_hand(state, seat, e.card)
    state.discard.append(e.card)
    out.append(Effect("KIN-PLAY-1", "laid_for_nothing", {"seat": seat, "card": e.card}))
    state.played = True
    state.forced = None
    state.refill.append(seat)
    advance(state, out)
    return tuple(out)


def accept(state: KinderState, e: Accept) -> tuple[Effect, ...]:
    held = state.task
    if held is not None and held.held:  # a roll waits for the Re-Roll window (R-KIN-15)
        return _after_roll(accept, state, e)
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    task = state.task
    if task is None or task.step not in ("feed", "hazard"):
        refuse("KIN-FEED-1", "nothing waits for an answer now", step=None if task is None else task.step)
    if e.actor != task.owner:
        rule = "KIN-FEED-1" if task.step == "feed" else "KIN-CARD-SKUNK"
        refuse(rule, f"seat {task.owner} answers for its bunny, not seat {e.actor}",
             owner=task.owner, actor=e.actor)
    out: Effects = []
    if task.step == "feed":
        state.task = None
        assert task.bunny is not None
        discard_bunny(state, task.bunny, "KIN-FEED-1", "not fed", out, task.card)
    else:
        task.step = "roll"
    advance(state, out)
    return tuple(out)


def choose(state: KinderState, e: Choose) -> tuple[Effect, ...]:
    held = state.task
    if held is not None and held.held:  # a roll waits for the Re-Roll window (R-KIN-15)
        return _after_roll(choose, state, e)
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    task = state.task
    seat = e.actor
    if task is None or task.step not in ("bad_news", "revive", "steal", "carrot", "show", "pass",
                                         "swap"):
        refuse("KIN-TURN-1", "nothing is waiting for a choice now",
             step=None if task is None else task.step)
    assert seat is not None
    if task.step != "pass" and seat != card_rules.chooser(task):
        refuse(card_rules.rule_of(state, task.card), f"seat {card_rules.chooser(task)} makes this "
             f"choice, not seat {seat}", chooser=card_rules.chooser(task), actor=seat)
    out: Effects = []
    card_rules.choose(state, seat, e, out)
    advance(state, out)
    return tuple(out)


def roll(state: KinderState, e: Roll) -> tuple[Effect, ...]:
    held = state.task
    if held is not None and held.held:  # a roll waits for the Re-Roll window (R-KIN-15)
        return _after_roll(roll, state, e)
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    if e.actor is not None:  # _chance refuses only then
        _chance(e, "KIN-DICE-1")
    task = state.task
    if task is None or task.step not in ("roll", "reroll") or task.held:
        refuse("KIN-DICE-1", "no dice are owed now", step=None if task is None else task.step)
    want = 1 if task.step == "reroll" else task.dice
    if len(e.faces) != want:
        refuse("KIN-DICE-1", f"{want} die face(s) are owed, not {len(e.faces)}", owed=want,
             faces=list(e.faces))
    if min(e.faces) < 0 or max(e.faces) > _SIDES:
        refuse("KIN-DICE-1", "a die shows 1 to 10 (a printed 0 is 10; write 0 or 10)",
             faces=list(e.faces))
    faces = [_SIDES if f == 0 else f for f in e.faces] if 0 in e.faces else list(e.faces)
    if task.step == "reroll":
        assert task.reroll_die is not None
        task.faces[task.reroll_die] = faces[0]
        task.reroll_die = None
    else:
        task.faces = faces
    task.step = "rolled"
    task.held = True
    out: Effects = [Effect("KIN-DICE-1", "rolled", {"faces": list(task.faces)})]
    if not _may_be_rerolled(state):
        card_rules.release(state, out)  # nobody can answer with a Re-Roll: act at once
        advance(state, out)
    return tuple(out)


def _may_be_rerolled(state: KinderState) -> bool:
    """A roll waits for the Re-Roll window only where somebody may hold a Re-Roll card, as far
    as the table can see: the Yellow deck is played, a hand holds cards and not every Re-Roll
    card lies in the discard pile (R-KIN-15)."""
    if not yellow(state) or not any(state.hands):
        return False
    discard = state.discard
    for n in cards(state).rerolls:  # noqa: SIM110 - a loop, not a generator per roll
        if n not in discard:
            return True
    return False


def spin(state: KinderState, e: Spin) -> tuple[Effect, ...]:
    if state.over or state.ending:  # refuse_over refuses only then
        refuse_over(state)
    _chance(e, "KIN-CARD-SPIN")
    task = state.task
    if task is None or task.step != "spin":
        refuse("KIN-CARD-SPIN", "no spin is waiting to be judged")
    if not 0 <= e.winner < state.n:
        refuse("KIN-CARD-SPIN", f"seat {e.winner} is not at the table", winner=e.winner)
    out: Effects = [Effect("KIN-CARD-SPIN", "spin_won", {"seat": e.winner})]
    if state.carrot_pile:
        task.step = "carrot"
        task.owner = e.winner
        task.count = 1
    else:
        state.task = None
    advance(state, out)
    return tuple(out)


def reveal(state: KinderState, e: Reveal) -> tuple[Effect, ...]:
    if state.over:
        refuse("KIN-END-3", "the game is already over", winners=state.winners)
    _chance(e, "KIN-RA-1")
    if not state.ending:
        refuse("KIN-RA-1", "the Orange card is turned up only when a Really Advanced game ends",
             level=state.level)
    C = cards(state)
    bottom = state.orange[-1]
    if bottom != HIDDEN and e.card != bottom:
        refuse("KIN-RA-1", f"the bottom Orange card is {C.label(bottom)}, not {e.card}", bottom=bottom)
    if bottom == HIDDEN and (e.card not in C.orange or state.pool is None
                             or str(e.card) not in state.pool):
        refuse("KIN-RA-1", f"card {e.card} cannot be the bottom Orange card", card=e.card)
    if bottom == HIDDEN and state.pool is not None:  # the guard above refused a missing pool
        state.pool.reveal(str(e.card), "REC-UNK-2", "turned up")
        state.orange[-1] = e.card
    letter = C.orange_letter[e.card]
    carrot = C.carrot_of[letter]
    state.magic = e.card
    owner = next((s for s in range(state.n) if carrot in state.carrots[s]), None)
    state.winners = [owner] if owner is not None and has_bunny(state, owner) else []
    # Really Advanced keeps no points: the score shown is each player's carrots.
    state.scores = [len(state.carrots[s]) for s in range(state.n)]
    state.over = True
    state.ending = False
    state.phase = "over"
    state.active = None
    return (Effect("KIN-RA-1", "orange_turned_up", {"card": e.card, "carrot": letter}),
            Effect("KIN-RA-3", "winners", {"winners": list(state.winners), "carrot": letter,
                                           "owner": owner}))


# -- a roll held for the Re-Roll window ----------------------------------------------------
def _answers_roll(state: KinderState, event: Event) -> bool:
    return isinstance(event, Play) and event.card in cards(state).rerolls


def _after_roll(handler: Handler, state: KinderState, event: Event) -> tuple[Effect, ...]:
    """``event`` after the held roll is acted on, on a copy that replaces the state only if
    the event is legal (the state and everything in it stay untouched otherwise)."""
    return holds.after_held(state, event, handler, _release_roll, KinderState.take_from)


def _release_roll(trial: KinderState, out: Effects) -> None:
    card_rules.release(trial, out)
    advance(trial, out)


def after_roll(handler: Handler) -> Handler:
    """``handler``, acting first on a roll held for the Re-Roll window (R-KIN-15)."""
    def wrapped(state: KinderState, event: Any) -> tuple[Effect, ...]:
        task = state.task
        if task is None or not task.held or _answers_roll(state, event):
            return handler(state, event)
        return _after_roll(handler, state, event)

    wrapped.__name__ = getattr(handler, "__name__", "handler")
    return wrapped


def resolved(state: KinderState) -> KinderState:
    """The position as it stands once a held roll is acted on (itself if none is held)."""
    task = state.task
    if task is None or not task.held:
        return state
    trial = state.copy()
    card_rules.release(trial, [])
    advance(trial, [])
    return trial


HANDLERS: dict[type[Event], Handler] = {
    # The most frequent events act on a held roll themselves.
    Draw: draw, Play: play, Discard: discard, Accept: accept, Choose: choose, Roll: roll,
    **{kind: after_roll(fn) for kind, fn in (
        (SetAside, set_aside), (Buy, buy), (Spin, spin), (Reveal, reveal),
    )},
}
