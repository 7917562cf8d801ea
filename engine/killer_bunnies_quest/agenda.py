"""The agenda (engine.pending) and the legal actions of a position of Killer Bunnies Quest.

Everything is read from ``waiting.awaited``: chance owed, the decisions owed, and the
Very Special window that is open whenever the game is in play (KBQ-VSP-1; the window lists
every seat that owes nothing else, so it says nothing about who holds which card).

The lists are exact for every choice warren can enumerate (each candidate is checked with
the handlers' own guards). Three kinds of event are accepted but not listed, because their
number explodes and a player spells them out himself (docs/rulings.md R-KBQ-26, R-KBQ-39):
trades, payments that name their cards (warren's own smallest payment is listed), and
Poverty Poker stakes above 10 Dolla, 2 carrots or 1 bunny.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from typing import Any

from engine.killer import feeding
from engine.killer.catalogue import effects as fx
from engine.killer.rolls import may_reroll  # noqa: F401 - documents the re-roll right
from engine.killer_bunnies_quest import table, unknowns, waiting
from engine.killer_bunnies_quest.catalogue import QUEST
from engine.killer_bunnies_quest.events import (
    Bid,
    Bottom,
    Buy,
    Choose,
    Discard,
    EndTurn,
    Feed,
    Flip,
    Join,
    Leave,
    Pass,
    Play,
    Runs,
    Save,
    Stake,
    Starve,
    Unseen,
)
from engine.killer_bunnies_quest.handlers import check_choices, check_source, clovers_own_only
from engine.killer_bunnies_quest.state import AuctionFrame, Choice, QuestState, RollOffFrame
from engine.killer_bunnies_quest.unknowns import HIDDEN
from engine.pending import NOTHING, Agenda, Chance, Decision, Window
from engine.record import Event
from engine.rules import RuleViolation

DECISION_RULES = {
    "runs": "KBQ-SET-2", "turn": "KBQ-TURN-1", "flipped": "KBQ-TURN-1", "bottom": "KBQ-TURN-3",
    "bid": "KBQ-BID-1", "stake": "KBQ-DICE-2", "carrot": "KBQ-CARROT-1", "revive": "KBQ-REV-1",
    "clovers": "KBQ-CARD-BLACK-CAT", "misfortune": "KBQ-PI-1", "return": "KBQ-POS-1",
    "exchange": "KBQ-CARD-ROONEYS-WEAPONS-EXCHANGE", "upkeep": "KBQ-CARD-WEILS-FRESHNESS-CENTER",
    "feed_now": "KBQ-FEED-6",
}
CHANCE_RULES = {"setup": "KBQ-SET-1", "shuffle": "KBQ-SHUF-1", "roll": "KBQ-DICE-1",
                "draw": "KBQ-TURN-3", "deal": "KBQ-SET-2", "reveal": "KBQ-END-2"}
OWN_TURN = ("turn", "flipped", "bottom")
STAKE_CAPS = (10, 2, 1)
"""Poverty Poker stakes listed (Dolla, carrots, bunnies); larger ones are accepted too."""


def pending(state: QuestState) -> Agenda:
    if state.over:
        return NOTHING
    now = waiting.released(state)
    owed = waiting.awaited(now)
    if owed.chance is not None:
        chance = Chance(kind=owed.chance, seat=owed.chance_seat, rule=CHANCE_RULES[owed.chance])
        return Agenda(decisions={}, chance=chance, windows=_windows(state, now, {}))
    active = now.active
    decisions = {seat: Decision(seat=seat, kind=kind, rule=DECISION_RULES.get(kind),
                                off_turn=seat != active)
                 for seat, kind in owed.decisions.items()}
    return Agenda(decisions=decisions, chance=None, windows=_windows(state, now, decisions))


def _windows(state: QuestState, now: QuestState, decisions: dict[int, Decision]) -> list[Window]:
    """Off-turn answers (Very Special cards), joining and leaving (KBQ-VSP-1, KBQ-JOIN-1,
    KBQ-LEAVE-1)."""
    windows: list[Window] = []
    if now.phase in ("setup", "runs", "reveal"):
        return windows
    present = []
    for s, st in enumerate(now.seats):
        if st.present:
            if not st.laid:
                return windows
            present.append(s)
    answering = tuple(s for s in present if s not in decisions)
    if answering:
        windows.append(Window(seats=answering, kinds=("very_special",), rule="KBQ-VSP-1"))
    if not state.stack and state.phase == "turn" and state.cards_played == 0:
        if state.opts.late:
            late = tuple(s for s in state.opts.late if not state.seats[s].present
                         and state.seats[s].turns == 0)
            if late:
                windows.append(Window(seats=late, kinds=("join",), rule="KBQ-JOIN-1"))
        if len(present) > 2:
            leaving = tuple(s for s in present if s != state.active)
            windows.append(Window(seats=leaving, kinds=("leave",), rule="KBQ-LEAVE-1"))
    return windows


def _ok(state: QuestState, event: Event, guard: Callable[[QuestState, Any], Any]) -> bool:
    try:
        guard(state, event)
    except RuleViolation:
        return False
    return True


def decision_actions(state: QuestState, decision: Decision) -> list[Event]:
    seq = state.seq + 1
    if not waiting.holding(state):
        return LISTS[decision.kind](state, decision.seat, seq)
    # A card waits for answers: an answer (a Very Special card, a saved answer) is played to
    # it as it waits; anything else lets it happen first (R-KBQ-32).

    now = waiting.released(state)
    actions = [a for a in LISTS[decision.kind](now, decision.seat, seq) if not waiting.is_answer(state, a)]
    actions += _special_plays(state, decision.seat, seq, very_special_only=True)
    return actions


def window_actions(state: QuestState, seat: int, window: Window) -> list[Event]:
    seq = state.seq + 1
    if window.kinds == ("join",):
        return [Join(seq=seq, actor=seat)]
    if window.kinds == ("leave",):
        return [Leave(seq=seq, actor=seat)]
    now = state  # answers are made to the card as it waits, before it happens
    return _special_plays(now, seat, seq, very_special_only=True)


# -- the turn --------------------------------------------------------------------------------------


def _runs(state: QuestState, seat: int, seq: int) -> list[Event]:
    hand = state.seats[seat].hand
    if HIDDEN not in hand:
        return [Runs(seq=seq, actor=seat, top=a, bottom=b) for a, b in permutations(hand, 2)]
    # the table form: face down, so "?" for a card the recorder did not see (R-KBQ-42)
    unseen: Unseen = "?"
    values: list[int | Unseen] = [*(c for c in hand if c != HIDDEN), *[unseen] * min(hand.count(HIDDEN), 2)]
    pairs = sorted(set(permutations(values, 2)), key=str)
    return [Runs(seq=seq, actor=seat, top=a, bottom=b) for a, b in pairs]


def _turn(state: QuestState, seat: int, seq: int) -> list[Event]:
    out: list[Event] = []
    top = state.seats[seat].run.top
    if top == HIDDEN:  # the table form names the card turned up: any it may be (REC-UNK-3)
        out.extend(Flip(seq=seq, actor=seat, card=c) for c in sorted(state.pool)
                   if unknowns.hand_card(state, c))
    elif top is not None:
        out.append(Flip(seq=seq, actor=seat, card=top) if state.partial else Flip(seq=seq, actor=seat))
    if state.second:
        out.append(EndTurn(seq=seq, actor=seat))
    d = table.deck(state)
    hand = state.seats[seat].hand
    for card in hand if HIDDEN not in hand else unknowns.hand_candidates(state, seat):
        if d.type[card] == "special":
            out.append(Discard(seq=seq, actor=seat, card=card))
    out.extend(_special_plays(state, seat, seq, very_special_only=False))
    out.extend(_own_turn_extras(state, seat, seq))
    return out


def _flipped(state: QuestState, seat: int, seq: int) -> list[Event]:
    card = state.flipped
    assert card is not None
    out: list[Event] = []
    discard = Discard(seq=seq, actor=seat, card=card)
    if _ok(state, discard, _discard_guard):
        out.append(discard)
    save = Save(seq=seq, actor=seat, card=card)
    if _ok(state, save, _save_guard):
        out.append(save)
    out.extend(_plays_of(state, seat, seq, card))
    out.extend(_special_plays(state, seat, seq, very_special_only=False, hand_specials=False))
    out.extend(_own_turn_extras(state, seat, seq))
    return out


def _discard_guard(state: QuestState, e: Discard) -> None:
    from engine.killer_bunnies_quest.handlers import _check_forced_play

    _check_forced_play(state, e.actor or 0, e.card)


def _save_guard(state: QuestState, e: Save) -> None:
    from engine.killer_bunnies_quest.handlers import save

    save(state.copy(), e)


def _bottom(state: QuestState, seat: int, seq: int) -> list[Event]:
    hand = state.seats[seat].hand
    out: list[Event] = [Bottom(seq=seq, actor=seat, card=c) for c in hand if c != HIDDEN]
    if state.partial and hand:
        out.append(Bottom(seq=seq, actor=seat, card="?"))  # face down (R-KBQ-42)
    out.extend(_special_plays(state, seat, seq, very_special_only=False, hand_specials=False))
    out.extend(_own_turn_extras(state, seat, seq))
    return out


def _own_turn_extras(state: QuestState, seat: int, seq: int) -> list[Event]:
    """Purchases, feeding, giving up a saved Minilith (KBQ-ORDER-1, KBQ-FEED-2)."""
    out: list[Event] = []
    if not waiting.own_turn_stage(state, seat):
        return out
    d = table.deck(state)
    money = table.money_of(state, seat)
    market = state.market
    if market.open and money:
        for goods, small, used in (("cabbage", state.cabbage_deck, state.cabbage_discard),
                                   ("water", state.water_deck, state.water_discard)):
            if (small or (state.opts.reshuffle_supplies and used)) \
                    and money >= _charge(state, seat, goods):
                out.append(Buy(seq=seq, actor=seat, goods=goods))  # type: ignore[arg-type]  # goods named above
        if money >= _charge(state, seat, "carrot"):
            out.extend(Buy(seq=seq, actor=seat, goods="carrot", carrot=c) for c in market.carrots)
    bunnies = state.circle.order if state.opts.feed_others else state.circle.owned_by(seat)
    for bunny in bunnies:
        if feeding.on_bunny([x for x in state.demands if x.due_turn is not None], bunny):
            feed = Feed(seq=seq, actor=seat, bunny=bunny)
            if _ok(state, feed, _feed_guard):
                out.append(feed)
    for card in state.seats[seat].saved:
        if d.card(card).keep_needs_bunny:
            out.append(Discard(seq=seq, actor=seat, card=card))
    return out


def _charge(state: QuestState, seat: int, goods: str) -> int:
    price = state.market.price_of(goods)  # type: ignore[arg-type]  # the market's three goods
    if state.coupon and state.coupon[0] == seat:
        return (state.coupon[1] + price + 1) // 2 - state.coupon[2]
    return price


def _feed_guard(state: QuestState, e: Feed) -> None:
    from engine.killer_bunnies_quest.handlers import feed

    feed(state.copy(), e)


# -- card plays ------------------------------------------------------------------------------------


def _special_plays(state: QuestState, seat: int, seq: int, very_special_only: bool,
                   hand_specials: bool = True) -> list[Event]:
    d = table.deck(state)
    st = state.seats[seat]
    out: list[Event] = []
    held = st.hand if HIDDEN not in st.hand else unknowns.hand_candidates(state, seat)
    cards = [c for c in held if d.type[c] == "very_special"
             or (hand_specials and not very_special_only and d.type[c] == "special")]
    cards += [c for c in st.saved
              if d.type[c] == "very_special" or not very_special_only or _answers(d, c)]
    for card in cards:
        out.extend(_plays_of(state, seat, seq, card))
    return out


def _answers(d: Any, card: int) -> bool:
    return any(e.only_own for e in fx.every(d.effects(card), fx.Cancel))


def _plays_of(state: QuestState, seat: int, seq: int, card: int) -> list[Event]:
    """Every accepted play of ``card``: its primitives' choices, each candidate checked."""
    out: list[Event] = []
    try:
        origin = check_source(state, Play(seq=seq, actor=seat, card=card))
    except RuleViolation:
        return out
    for fields in _candidates(state, seat, card):
        event = Play(seq=seq, actor=seat, card=card, **fields)
        try:
            check_choices(state, event, origin)
        except RuleViolation:
            continue
        out.append(event)
    return out


def _candidates(state: QuestState, seat: int, card: int) -> Iterator[dict[str, Any]]:
    d = table.deck(state)
    options: list[list[dict[str, Any]]] = []
    for effect in d.effects(card):
        make = QUEST.options_of(effect)
        options.append(make(state, seat, effect) if make is not None else [{}])
    combos: list[dict[str, Any]] = [{}]
    for opts in options:
        combos = [{**a, **b} for a in combos for b in opts]
    yield from combos


def _on(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    return [{"on": b} for b in state.circle.order]


def _on_or_roamer(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    out = _on(state, seat, effect)
    out += [{"on": r.host, "roamer": True} for r in state.roamers if r.host is not None]
    return out


def _at(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    return [{"at": i} for i in range(len(state.circle) + 1)]


def _player(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    return [{"player": s} for s in table.present(state)]


def _carrots(state: QuestState, seat: int, effect: fx.TakeCarrot) -> list[dict[str, Any]]:
    carrots = state.market.carrots
    k = min(effect.count, len(carrots))
    return [{"carrots": list(c)} for c in combinations(carrots, k)]


def _number(state: QuestState, seat: int, effect: fx.RollMatches) -> list[dict[str, Any]]:
    numbers = [{}] if effect.number != "chosen" else [
        {"number": n} for n in range(effect.lowest, effect.highest + 1)]
    targets = _when_target(state, seat, effect)  # put on a bunny first (a hazard), or not
    return [{**t, **n} for t in targets for n in numbers]


def _stakes(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    money = table.money_of(state, seat)
    carrots = len(state.seats[seat].carrots)
    bunnies = state.circle.count(seat)
    return [{"stakes": [m, c, b]}
            for m in range(min(money, STAKE_CAPS[0]) + 1)
            for c in range(min(carrots, STAKE_CAPS[1]) + 1)
            for b in range(min(bunnies, STAKE_CAPS[2]) + 1) if m or c or b]


def _when_target(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    return _on(state, seat, effect) if getattr(effect, "target", None) is not None else [{}]


def _roll_off(state: QuestState, seat: int, effect: fx.RollOff) -> list[dict[str, Any]]:
    return _on(state, seat, effect) if effect.prize == "take_target" else [{}]


def _reuse(state: QuestState, seat: int, effect: Any) -> list[dict[str, Any]]:
    return [{"weapon": w, "on": b} for w in state.used_weapons for b in state.circle.order]


def _cancel(state: QuestState, seat: int, effect: fx.Cancel) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{}]
    if "roaming" in effect.what:
        out += [{"weapon": r.card} for r in state.roamers]
    return out


# Each primitive's choices in the interpreter's options table (engine.killer.interpreter), as
# KinderBunnies and Odyssey keep theirs: each candidate is then checked by the card's checks.
_OPTIONS: dict[type[fx.CardEffect], Callable[[QuestState, int, Any], list[dict[str, Any]]]] = {
    fx.EnterCircle: _at, fx.Attach: _on, fx.Attack: _on_or_roamer, fx.Abduct: _on,
    fx.Feed: _on, fx.SettleFeed: _on, fx.TakeCarrot: _carrots, fx.CarrotUpkeep: _player,
    fx.LoseSupply: _player, fx.RollBands: _when_target, fx.RollPattern: _when_target,
    fx.RollMatches: _number, fx.RollOff: _roll_off, fx.Gamble: _stakes, fx.Auction: _on,
    fx.SkipTurn: _player, fx.CurseWeapon: _player, fx.DiscardHand: _player,
    fx.ExchangeHandWeapon: _player, fx.Cancel: _cancel, fx.Redirect: _on,
    fx.ReuseWeapon: _reuse, fx.Roam: _on, fx.Dormant: _on, fx.Hook: _on,
}
for _kind, _choices in _OPTIONS.items():
    QUEST.options(_kind)(_choices)


# -- what a card waits for -------------------------------------------------------------------------


def _choice(state: QuestState) -> Choice:
    top = state.stack[-1]
    assert isinstance(top, Choice)
    return top


def _choose_carrot(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    return [Choose(seq=seq, actor=seat, carrots=list(x))
            for x in combinations(state.market.carrots, c.count)]


def _choose_revive(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    out: list[Event] = [Choose(seq=seq, actor=seat)]
    size = len(state.circle)
    for k in range(1, c.count + 1):
        for bunnies in combinations(c.options, k):
            # each new bunny at any place of the circle as it then stands
            for at in _places(size, k):
                out.append(Choose(seq=seq, actor=seat, bunnies=list(bunnies), at=at))
    return out


def _places(size: int, k: int) -> list[list[int]]:
    places: list[list[int]] = [[]]
    for i in range(k):
        places = [[*p, pos] for p in places for pos in range(size + i + 1)]
    return places


def _choose_clovers(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    bunnies = state.circle.owned_by(seat) if clovers_own_only(state, c) else state.circle.order
    places: list[list[int]] = [[]]
    for _ in range(c.count):
        places = [[*p, b] for p in places for b in bunnies]
    return [Choose(seq=seq, actor=seat, under=p) for p in places]


def _choose_misfortune(state: QuestState, seat: int, seq: int) -> list[Event]:
    return [Choose(seq=seq, actor=seat, bunnies=[b]) for b in _choice(state).options]


def _choose_return(state: QuestState, seat: int, seq: int) -> list[Event]:
    return [Choose(seq=seq, actor=seat, at=[i]) for i in range(len(state.circle) + 1)]


def _choose_exchange(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    d = table.deck(state)
    mine = [x for x in state.seats[seat].hand if d.is_weapon(x)]
    return [Choose(seq=seq, actor=seat, give=g, take=t) for g in mine for t in c.options]


def _choose_upkeep(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    money = table.money_of(state, seat)
    out: list[Event] = []
    for k in range(len(c.options) + 1):
        if c.count * k > money:
            break
        out.extend(Choose(seq=seq, actor=seat, carrots=list(x)) for x in combinations(c.options, k))
    return out


def _stake(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    frame = next(f for f in reversed(state.stack) if isinstance(f, RollOffFrame))
    if frame.purpose == "roulette":
        return [Stake(seq=seq, actor=seat, bunnies=[b]) for b in c.options]
    _, n_carrots, n_bunnies = c.ctx.stakes
    carrots = [x for x in c.options if x in state.seats[seat].carrots]
    bunnies = [x for x in c.options if x not in carrots]
    return [Stake(seq=seq, actor=seat, carrots=list(a), bunnies=list(b))
            for a in combinations(carrots, n_carrots) for b in combinations(bunnies, n_bunnies)]


def _feed_now(state: QuestState, seat: int, seq: int) -> list[Event]:
    c = _choice(state)
    assert c.bunny is not None
    out: list[Event] = [Starve(seq=seq, actor=seat, bunny=c.bunny)]
    feed = Feed(seq=seq, actor=seat, bunny=c.bunny)
    if _ok(state, feed, _feed_guard):
        out.append(feed)
    return out


def _bid(state: QuestState, seat: int, seq: int) -> list[Event]:
    top = state.stack[-1]
    assert isinstance(top, AuctionFrame)
    money = table.money_of(state, seat)
    out: list[Event] = [Pass(seq=seq, actor=seat)]
    out.extend(Bid(seq=seq, actor=seat, amount=a) for a in range(top.auction.high_bid + 1, money + 1))
    return out


LISTS: dict[str, Callable[[QuestState, int, int], list[Event]]] = {
    "runs": _runs, "turn": _turn, "flipped": _flipped, "bottom": _bottom,
    "carrot": _choose_carrot, "revive": _choose_revive, "clovers": _choose_clovers,
    "misfortune": _choose_misfortune, "return": _choose_return, "exchange": _choose_exchange,
    "upkeep": _choose_upkeep, "stake": _stake, "feed_now": _feed_now, "bid": _bid,
}
"""Decision kind -> every event that settles it."""
