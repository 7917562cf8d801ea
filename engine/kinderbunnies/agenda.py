"""What a position of KinderBunnies waits for (engine.pending), the actions that settle it,
and what simulators draw for chance.

Nothing here reads a hidden card to decide what is owed: whether the owner of a fed bunny
is asked, whether a Bad News card waits for its drawer, who may answer a roll, all follow
from the level and what lies on the table, so a game recorded at the table owes the same
things as the full game (R-KIN-17).
"""

from __future__ import annotations

import random

from engine.killer.catalogue import effects as fx
from engine.kinderbunnies import cards as card_rules
from engine.kinderbunnies.events import (
    Accept,
    Buy,
    Card,
    Choose,
    Discard,
    Draw,
    Play,
    Reveal,
    Roll,
    SetAside,
    Spin,
)
from engine.kinderbunnies.handlers import resolved
from engine.kinderbunnies.numbers import CARROT_PRICE
from engine.kinderbunnies.state import HIDDEN, KinderState
from engine.kinderbunnies.table import cards, money, yellow
from engine.pending import NOTHING, Agenda, Chance, Decision, Window, decisions_for
from engine.record import Event

_DECIDE = {
    "feed": ("feed", "KIN-FEED-1", True), "hazard": ("hazard", "KIN-CARD-SKUNK", True),
    "bad_news": ("bad_news", "KIN-BAD-1", False), "revive": ("choose", None, False),
    "steal": ("choose", None, False), "carrot": ("choose", "KIN-CARD-SPIN", False),
    "show": ("show", "KIN-CARD-DROUGHT", True), "swap": ("swap", "KIN-CARD-SQUID", False),
}


def pending(state: KinderState) -> Agenda:
    if state.over:
        return NOTHING
    task = state.task
    if task is not None and task.held:
        agenda = pending(resolved(state)).copy()
        if yellow(state):
            agenda.windows.append(Window(seats=tuple(range(state.n)), kinds=("re_roll",),
                                         rule="KIN-CARD-REROLL", subject=f"roll {task.faces}"))
        return agenda
    if state.level == "really-advanced" and not state.orange:
        return Agenda(chance=Chance(kind="setaside", rule="KIN-SET-2"))
    if state.ending:
        return Agenda(chance=Chance(kind="reveal", rule="KIN-RA-1"))
    if task is not None:
        step = task.step
        if step in ("roll", "reroll"):
            return Agenda(chance=Chance(kind="roll", seat=task.rollers[0] if task.rollers else task.seat,
                                        rule="KIN-DICE-1"))
        if step == "spin":
            return Agenda(chance=Chance(kind="spin", rule="KIN-CARD-SPIN"))
        if step == "pass":
            return Agenda(decisions=decisions_for(task.waiting, "pass", "KIN-CARD-PASS"))
        kind, rule, off = _DECIDE[step]
        who = card_rules.chooser(task)
        return Agenda(decisions={who: Decision(seat=who, kind=kind,
                                                rule=rule or card_rules.rule_of(state, task.card),
                                                off_turn=off and who != state.active)})
    if state.dealing:
        return Agenda(chance=Chance(kind="deal", seat=state.deal_seat, rule="KIN-DEAL-1"))
    if state.refill:
        return Agenda(chance=Chance(kind="draw", seat=state.refill[0], rule="KIN-DRAW-1"))
    seat = state.active
    assert seat is not None
    return Agenda(decisions={seat: Decision(seat=seat, kind="turn", rule="KIN-TURN-1")})


def decision_actions(state: KinderState, decision: Decision) -> list[Event]:
    live = resolved(state)
    seq = state.seq + 1
    seat = decision.seat
    C = cards(live)
    task = live.task
    kind = decision.kind
    hand = sorted(set(live.hands[seat]) - {HIDDEN})
    if HIDDEN in live.hands[seat] and live.pool is not None:
        # A game recorded at the table: an unknown card of the hand may be any card not yet
        # seen (REC-UNK-2), so the recorder offers those too (as Bunnies does).
        hand = sorted(set(hand) | {int(c) for c in live.pool.unseen})
    if kind == "turn":
        out: list[Event] = []
        if not live.played and live.forced is None and money(live, seat) >= CARROT_PRICE:
            pile = live.carrot_pile[:1] if live.opts_key[2] == "top" else live.carrot_pile
            out.extend(Buy(seq=seq, actor=seat, carrot=c) for c in pile)
        if live.forced is not None:
            return [*out, *card_rules.plays_for(live, seat, live.forced)] or \
                [Discard(seq=seq, actor=seat, card=live.forced)]
        plays: list[Event] = [p for card in hand for p in card_rules.plays_for(live, seat, card)]
        if not plays:
            plays = [Discard(seq=seq, actor=seat, card=c) for c in hand]
        return [*out, *plays]
    assert task is not None
    if kind == "feed":
        feed = C.card(task.card).feed
        asked = "water" if feed and feed.water else "cabbage"
        answers: list[Event] = [Play(seq=seq, actor=seat, card=c) for c in hand
                                if asked in C.supply_kinds.get(c, ())]
        return [*answers, Accept(seq=seq, actor=seat)]
    if kind == "hazard":
        skunks: list[Event] = [Play(seq=seq, actor=seat, card=c) for c in hand
                               if _cancels(live, c, "safety-hazard")]
        return [*skunks, Accept(seq=seq, actor=seat)]
    if kind == "bad_news":
        out = [Choose(seq=seq, actor=seat, bunnies=b, carrots=c)
               for b, c in card_rules.bad_news_choices(live, task.card, seat)]
        out.extend(Play(seq=seq, actor=seat, card=c) for c in hand if _cancels(live, c, "bad-news"))
        return out
    if kind == "show":
        effect = fx.expect(C.effect(task.card), fx.LoseSupply)
        shown = [c for c in live.hands[seat] if card_rules.supply_of(live, c) == (effect.kind,)]
        return [Choose(seq=seq, actor=seat, cards=list(sorted(shown)))]
    if kind == "pass":
        return [Choose(seq=seq, actor=seat, give=c) for c in hand]
    if kind == "swap":
        target = task.owner
        assert target is not None
        theirs = sorted(set(live.hands[target]) - {HIDDEN})
        return [Choose(seq=seq, actor=seat, give=g, take=t) for g in hand for t in theirs]
    if task.step == "revive":
        bunnies = sorted(c for c in live.discard if c in C.bunnies)
        return [Choose(seq=seq, actor=seat, bunnies=pick) for pick in _picks(bunnies, task.count)]
    if task.step == "steal":
        return [Choose(seq=seq, actor=seat, carrots=[c]) for s in range(live.n) if s != seat
                for c in live.carrots[s]]
    if task.step == "carrot":
        pile = live.carrot_pile[:1] if live.opts_key[2] == "top" else live.carrot_pile
        return [Choose(seq=seq, actor=seat, carrots=[c]) for c in pile]
    return []


def _picks(items: list[int], count: int) -> list[list[int]]:
    if count <= 0:
        return [[]]
    if count == 1:
        return [[i] for i in items]
    out: list[list[int]] = []
    for i, first in enumerate(items):
        out.extend([first, *rest] for rest in _picks(items[i + 1:], count - 1))
    return out[:60]


def _cancels(state: KinderState, card: int, what: str) -> bool:
    effect = cards(state).effect(card)
    return effect is not None and effect.cancels(what)


def window_actions(state: KinderState, seat: int, window: Window) -> list[Event]:
    task = state.task
    if task is None or not task.held:
        return []
    C = cards(state)
    seq = state.seq + 1
    return [Play(seq=seq, actor=seat, card=c, die=i)
            for c in sorted(set(state.hands[seat]) - {HIDDEN})
            if c in C.rerolls for i in range(len(task.faces))]


def sample_chance(state: KinderState, owed: Chance, rng: random.Random) -> Event | None:
    live = resolved(state)
    seq = state.seq + 1
    C = cards(live)
    if owed.kind == "setaside":
        order = list(C.orange)
        rng.shuffle(order)
        return SetAside(seq=seq, actor=None, orange=order)  # type: ignore[arg-type]  # card numbers
    if owed.kind in ("deal", "draw"):
        assert owed.seat is not None
        # A game recorded at the table knows nothing of the pile's unknown cards: a draw may
        # be any known card or one of them, written "?" (R-KIN-17).
        known = sorted(live.pile)
        pick = rng.randrange(len(known) + live.pile_hidden)
        card: Card = known[pick] if pick < len(known) else "?"
        return Draw(seq=seq, actor=None, seat=owed.seat, card=card)
    if owed.kind == "roll":
        task = live.task
        assert task is not None
        n = 1 if task.step == "reroll" else task.dice
        return Roll(seq=seq, actor=None, faces=[rng.randint(1, 10) for _ in range(n)])
    if owed.kind == "spin":
        return Spin(seq=seq, actor=None, winner=rng.randrange(live.n))
    if owed.kind == "reveal":
        return Reveal(seq=seq, actor=None, card=live.orange[-1])
    return None
