"""What each perspective sees of a game of Quest, of its events and of its effects.

Face down: hands, run cards and the draw pile (a seat sees its own hand and run cards), the
order of the small decks, and the small carrot deck until the end (KBQ-END-2). Face up for
everyone (KBQ-FACE-1): saved cards, Dolla, cabbage and water cards, carrots, the Bunny
Circle with everything under and on each bunny, the market, the discard piles. The referee
sees everything; a spectator what every seat sees.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from engine.hidden import UNKNOWN
from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import table
from engine.killer_bunnies_quest.events import (
    Bottom,
    Choose,
    Draw,
    Flip,
    Reshuffle,
    Reveal,
    Runs,
    Setup,
    Trade,
)
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    AuctionFrame,
    Choice,
    Hold,
    QuestState,
    RollCard,
    RollOffFrame,
)
from engine.killer_bunnies_quest.unknowns import HIDDEN, SHOWN_KINDS, shown
from engine.record import Event
from engine.rules import Effect
from engine.ruleset import Perspective
from engine.said import (
    UNITS,
    Card,
    Cards,
    Carrot,
    CountOfCards,
    Dice,
    Meaning,
    Money,
    Seat,
    Seats,
    View,
)

PRIVATE_EFFECTS = {"drew": "seat", "dealt": "seat", "run_card_seen": "seat"}
"""Effect kind -> the field naming the only seat (with the referee) that sees its card."""


def _sees(perspective: Perspective, seat: int) -> bool:
    return perspective == "referee" or perspective == seat


# Quest's own meanings: what reads its own way (engine.killer_bunnies_quest.words).
RUN_CARD = Meaning("a Quest run card")
"""A run position: a card, ``back`` (another player's, face down) or empty."""
OWED = Meaning("what the Quest bank owes")
FEEDS = Meaning("Quest feed demands")
ABDUCTED = Meaning("the bunny the Quest aliens hold")
WAITING = Meaning("what a Quest game waits for")
HITS = Meaning("the bunnies a Quest attack reaches")
ROLLS = Meaning("a Quest roll-off's faces")
KIND = Meaning("a Quest card's kind")
CHOICE = Meaning("what a Quest choice waits for")
DIRECTION = Meaning("which way a Quest roaming card moves")

Unit = Annotated[int, UNITS]
RunCard = Annotated[int | str, RUN_CARD]


class SeatSeen(msgspec.Struct, kw_only=True):
    """One player as a perspective sees him: his hand (cards, or a count), his run cards
    (``back`` when face down), and everything face up (KBQ-FACE-1)."""

    seat: Seat
    present: bool
    hand: Cards | CountOfCards
    top: RunCard | None
    bottom: RunCard | None
    saved: Cards
    money: Cards
    dolla: Money
    cabbage: Cards
    cabbage_units: Unit
    water: Cards
    water_units: Unit
    carrots: Cards
    karma: Cards
    lose_turns: int
    turns: int
    triplet: bool
    neighbours: Seats
    owed: Annotated[dict[str, int], OWED]
    """Supply the bank owes the player, by kind (cabbage, water, money)."""


class FeedSeen(msgspec.Struct, kw_only=True):
    """A feed demand on a bunny (KBQ-FEED-*)."""

    card: Card
    cabbage: Unit
    water: Unit
    due_turn: int | None


class SpaceSeen(msgspec.Struct, kw_only=True):
    """A bunny in the Bunny Circle and what is under and on it."""

    bunny: Card
    name: str
    owner: Seat | None
    colour: str | None
    kind: Annotated[str, KIND] | None
    wild: bool
    under: Cards
    feeds: Annotated[list[FeedSeen], FEEDS]
    roaming: Cards
    dormant: Cards


class MarketSeen(msgspec.Struct, kw_only=True):
    """Kaballa's Market: open or not, its prices, its carrots for sale."""

    open: bool
    cabbage: Money
    water: Money
    carrot: Money
    carrots: Cards
    half_price: Seat | None


class PilesSeen(msgspec.Struct, kw_only=True):
    """The piles: face-down ones counted (the referee also sees their order), discards
    face up."""

    draw: int
    discard: Cards
    cabbage_deck: int
    water_deck: int
    cabbage_discard: Cards
    water_discard: Cards
    magic_deck: int
    draw_order: Cards | msgspec.UnsetType = msgspec.UNSET
    magic_order: Cards | msgspec.UnsetType = msgspec.UNSET
    cabbage_order: Cards | msgspec.UnsetType = msgspec.UNSET
    water_order: Cards | msgspec.UnsetType = msgspec.UNSET


class RoamerSeen(msgspec.Struct, kw_only=True):
    """A roaming card in play: who launched it, the bunny it is on, which way it goes."""

    card: Card
    launcher: Seat
    host: Card | None
    direction: Annotated[str, DIRECTION]


class HitSeen(msgspec.Struct, kw_only=True):
    """One bunny an attack reaches: the level it faces and, once rolled, its fate."""

    bunny: Card
    roamer: Card | None
    level: int
    face: int | None
    lives: bool | None


class Waiting(msgspec.Struct, kw_only=True):
    """The card in play and what it waits for; each frame says only what is its own."""

    frame: str
    card: Card | msgspec.UnsetType | None = msgspec.UNSET
    by: Seat | msgspec.UnsetType | None = msgspec.UNSET
    on: Card | msgspec.UnsetType | None = msgspec.UNSET
    player: Seat | msgspec.UnsetType | None = msgspec.UNSET
    target: Card | msgspec.UnsetType = msgspec.UNSET
    hits: Annotated[list[HitSeen], HITS] | msgspec.UnsetType = msgspec.UNSET
    seat: Seat | msgspec.UnsetType = msgspec.UNSET
    choice: Annotated[str, CHOICE] | msgspec.UnsetType = msgspec.UNSET
    count: int | msgspec.UnsetType = msgspec.UNSET
    options: Cards | msgspec.UnsetType = msgspec.UNSET
    rolls: Annotated[dict[str, int], ROLLS] | msgspec.UnsetType = msgspec.UNSET
    players: Seats | msgspec.UnsetType = msgspec.UNSET
    high_bid: Money | msgspec.UnsetType = msgspec.UNSET
    high_bidder: Seat | msgspec.UnsetType | None = msgspec.UNSET
    dice: Dice | msgspec.UnsetType = msgspec.UNSET
    held: str | msgspec.UnsetType = msgspec.UNSET


class QuestView(View, kw_only=True):
    """What a perspective knows of a game of Quest (views.view)."""

    deck_set: str
    printing: str
    catalogue: str
    seats: list[SeatSeen]
    circle: list[SpaceSeen]
    abducted: Annotated[list[int], ABDUCTED]
    """The bunny the aliens hold and its owner (``[bunny, owner]``), or empty."""
    market: MarketSeen
    piles: PilesSeen
    flipped: Card | None
    roamers: list[RoamerSeen]
    waiting: Annotated[Waiting | None, WAITING]
    magic_carrot: Carrot | None
    winners: Seats
    unseen: int | msgspec.UnsetType = msgspec.UNSET
    """The referee's view of a record with unknowns: the cards nobody has seen yet."""


def view(state: QuestState, perspective: Perspective) -> dict[str, Any]:
    """What ``perspective`` knows of the position, as the JSON of :class:`QuestView`."""
    out: dict[str, Any] = msgspec.to_builtins(typed_view(state, perspective))
    return out


def typed_view(state: QuestState, perspective: Perspective) -> QuestView:
    """What ``perspective`` knows of the position."""
    d = table.deck(state)
    referee = perspective == "referee"
    seats = []
    for s, st in enumerate(state.seats):
        mine = _sees(perspective, s)
        seats.append(SeatSeen(
            seat=s, present=st.present,
            hand=_hand(st.hand) if mine else len(st.hand),
            top=shown(st.run.top) if mine else (None if st.run.top is None else "back"),
            bottom=shown(st.run.bottom) if mine else (None if st.run.bottom is None else "back"),
            saved=st.saved[:], money=st.money[:], dolla=table.money_of(state, s),
            cabbage=st.cabbage[:], cabbage_units=table.units_of(state, st.cabbage),
            water=st.water[:], water_units=table.units_of(state, st.water),
            carrots=sorted(st.carrots), karma=st.karma[:], lose_turns=st.lose_turns,
            turns=st.turns, triplet=table.has_triplet(state, s),
            neighbours=table.adjacent_players(state, s) if st.present else [],
            owed={i.kind: i.amount for i in state.ious if i.seat == s},
        ))
    circle = []
    for b in state.circle.order:
        space = state.circle.space(b)
        face = d.bunny.get(b)
        circle.append(SpaceSeen(
            bunny=b, name=d.card(b).name, owner=space.owner,
            colour=face.colour if face else None, kind=face.kind if face else None,
            wild=bool(face and face.wild), under=space.under[:],
            feeds=[FeedSeen(card=x.card, cabbage=x.cabbage, water=x.water, due_turn=x.due_turn)
                   for x in state.demands if x.bunny == b],
            roaming=[r.card for r in state.roamers if r.host == b],
            dormant=[x.card for x in state.dormant if x.host == b],
        ))
    m = state.market
    piles = PilesSeen(draw=len(state.draw), discard=[shown(c) for c in state.discard],
                      cabbage_deck=len(state.cabbage_deck), water_deck=len(state.water_deck),
                      cabbage_discard=state.cabbage_discard[:],
                      water_discard=state.water_discard[:],
                      magic_deck=len(state.magic_deck))
    if referee:
        piles.draw_order = [shown(c) for c in reversed(state.draw)]
        piles.magic_order = [shown(c) for c in state.magic_deck]
        piles.cabbage_order = [shown(c) for c in reversed(state.cabbage_deck)]
        piles.water_order = [shown(c) for c in reversed(state.water_deck)]
    return QuestView(
        **state.position_view(perspective),
        deck_set=d.catalogue.set_name, printing=d.catalogue.printing,
        catalogue=d.catalogue.content_hash,
        seats=seats, circle=circle,
        abducted=state.abducted[:],
        market=MarketSeen(open=m.open, cabbage=m.prices.cabbage, water=m.prices.water,
                          carrot=m.prices.carrot, carrots=m.carrots[:],
                          half_price=state.coupon[0] if state.coupon else None),
        piles=piles,
        flipped=state.flipped,
        roamers=[RoamerSeen(card=r.card, launcher=r.launcher, host=r.host, direction=r.direction)
                 for r in state.roamers],
        waiting=waiting_view(state, perspective),
        magic_carrot=state.magic if state.over else None,
        winners=state.winners[:],
        unseen=len(state.pool) if referee and state.partial else msgspec.UNSET,
    )


def _hand(hand: list[int]) -> list[int | str | None]:
    """A hand as its holder sees it: the cards, then ``"?"`` for each the record never named."""
    if HIDDEN not in hand:
        return sorted(hand)  # type: ignore[return-value]  # cards
    return [*sorted(c for c in hand if c != HIDDEN), *[UNKNOWN] * hand.count(HIDDEN)]


def waiting_view(state: QuestState, perspective: Perspective) -> Waiting | None:
    """The card in play and what it waits for (public: the cards were played face up)."""
    if not state.stack:
        return None
    top = state.stack[-1]
    tag = type(top).__struct_config__.tag
    info = Waiting(frame=str(tag))
    ctx = getattr(top, "ctx", None)
    if ctx is not None:
        info.card, info.by, info.on, info.player = ctx.card, ctx.by, ctx.host, ctx.player
    if isinstance(top, AttackFrame):
        info.target = top.target
        info.hits = [HitSeen(bunny=h.bunny, roamer=h.roamer, level=h.level, face=h.face,
                             lives=h.lives) for h in top.hits]
    elif isinstance(top, (Choice,)):
        info.seat = top.seat
        info.choice = top.kind
        info.count = top.count
        if top.kind != "exchange" or _sees(perspective, top.seat):
            info.options = list(top.options)
    elif isinstance(top, RollOffFrame):
        info.rolls = {str(k): v for k, v in top.off.rolls.items()}
        info.players = top.off.contenders[:]
    elif isinstance(top, AuctionFrame):
        info.high_bid = top.auction.high_bid
        info.high_bidder = top.auction.high_bidder
    elif isinstance(top, RollCard):
        info.dice = top.dice[:]
    elif isinstance(top, Hold):
        info.held = fx.tag_of(top.effect)
    return info


def event_view(event: Event, perspective: Perspective) -> dict[str, Any]:
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if perspective == "referee":
        return record
    kind = record["type"]
    if kind == "setup":
        return {k: record[k] for k in ("seq", "type", "actor", "first", "gifts", "removed")
                if k in record}
    if kind == "reshuffle":
        return {"seq": record["seq"], "type": kind, "actor": None,
                **({"cards": len(record["order"])} if "order" in record else {})}
    if kind == "draw" and perspective != record["seat"] and not public_draw(record["card"]):
        return {**record, "card": UNKNOWN}
    if kind in ("runs", "bottom") and perspective != event.actor:
        return {k: record[k] for k in ("seq", "type", "actor")}
    if kind == "trade" and perspective not in (event.actor, record.get("partner")):
        for name in ("give_hand", "get_hand"):
            if name in record:
                record[name] = len(record[name])
    if kind == "reveal" and record.get("look") and perspective != record.get("seat"):
        record.pop("cards", None)  # a look: the card is its seat's alone (R-KBQ-45)
    if kind == "choose" and ("give" in record or "take" in record) \
            and (not isinstance(perspective, int) or perspective != event.actor):
        # a Weapons Exchange: only the player who chose sees the weapons swapped
        record.pop("give", None)
        record.pop("take", None)
    return record


def public_draw(card: object) -> bool:
    """A card drawn that the whole table sees: a Dolla, a Play Immediately or a small card
    (the Blue Starter box's numbers; a user's deck file keeps the same kinds)."""
    if not isinstance(card, int):
        return False
    from engine.killer_bunnies_quest.catalogue import DECKS

    for d in DECKS.values():
        kind = d.type.get(card)
        if kind is not None:
            return kind in SHOWN_KINDS or kind in ("cabbage", "water", "magic_carrot")
    return False


def effect_view(effect: Effect, perspective: Perspective) -> Effect | None:
    if perspective == "referee":
        return effect
    field = PRIVATE_EFFECTS.get(effect.kind)
    if field is not None and perspective != effect.data.get(field):
        data = {k: v for k, v in effect.data.items() if k != "card"}
        return Effect(effect.rule, effect.kind, data)
    if effect.kind == "weapons_shown" and perspective not in (effect.data.get("seat"),
                                                              effect.data.get("to")):
        return Effect(effect.rule, effect.kind, {k: v for k, v in effect.data.items()
                                                 if k != "cards"})
    if effect.kind == "weapons_exchanged" and perspective not in (effect.data.get("seat"),
                                                                  effect.data.get("with")):
        return Effect(effect.rule, effect.kind, {"seat": effect.data.get("seat"),
                                                 "with": effect.data.get("with")})
    return effect



# -- the game as a seat or the table saw it (engine.redact) ----------------------------------------


def redact(event: Event, perspective: Perspective, before: QuestState) -> Event:
    """The event as ``perspective`` would have written it in a table-form record (R-KBQ-40):
    no pile's order; the run and bottom cards, hand cards traded or exchanged and cards
    drawn that it did not see are ``"?"``; a flip names the card turned up."""
    if perspective == "referee":
        return event
    mine = perspective == event.actor
    if isinstance(event, Setup):
        return msgspec.structs.replace(event, draw=None, cabbage=None, water=None, carrots=None)
    if isinstance(event, Reshuffle):
        return msgspec.structs.replace(event, order=None)
    if isinstance(event, Runs):
        return event if mine else msgspec.structs.replace(event, top=UNKNOWN, bottom=UNKNOWN)
    if isinstance(event, Bottom):
        return event if mine else msgspec.structs.replace(event, card=UNKNOWN)
    if isinstance(event, Flip) and event.card is None and event.actor is not None:
        top = before.seats[event.actor].run.top
        return event if top is None or top == HIDDEN else msgspec.structs.replace(event, card=top)
    if isinstance(event, Reveal) and event.look and perspective != event.seat:
        return msgspec.structs.replace(event, cards=[])  # he looked; what he saw is his
    if isinstance(event, Trade) and perspective not in (event.actor, event.partner):
        return msgspec.structs.replace(event, give_hand=[UNKNOWN] * len(event.give_hand),
                                       get_hand=[UNKNOWN] * len(event.get_hand))
    if isinstance(event, Draw) and perspective != event.seat and not public_draw(event.card):
        return msgspec.structs.replace(event, card=UNKNOWN)
    if isinstance(event, Choose) and (event.give is not None or event.take is not None):
        waiting_on = before.stack[-1] if before.stack else None
        other = waiting_on.ctx.player if isinstance(waiting_on, Choice) else None
        if perspective not in (event.actor, other):
            return msgspec.structs.replace(
                event, give=None if event.give is None else UNKNOWN,
                take=None if event.take is None else UNKNOWN)
    return event


_OFF_THE_PILE = frozenset({"dealt", "dolla_drawn", "drew", "misfortune_drawn"})
"""Effects of a card taken off the draw pile by the full form's engine."""


def table_draws(effects: tuple[Effect, ...], perspective: Perspective, after: QuestState) -> list[Event]:
    """What the table form records as chance events for the cards the full form's engine
    drew by itself in one event (``effects``, in order): a ``draw`` for each card off the
    draw pile or a small deck, a ``reveal`` for the Magic Carrot and for weapons a card
    made a hand with cards ``perspective`` never saw show (seqs set by engine.redact)."""
    seq = 0
    out: list[Event] = []
    looked: list[Event] = []
    for effect in effects:
        kind, data = effect.kind, effect.data
        if kind in _OFF_THE_PILE or (kind == "misfortune_unused" and effect.rule in ("KBQ-SET-2",
                                                                                    "KBQ-JOIN-1")):
            seat, card = data["seat"], data["card"]
            seen = perspective == seat or (kind != "drew" and kind != "dealt")
            out.append(Draw(seq=seq, actor=None, seat=seat, card=card if seen else "?"))
        elif kind == "supply_taken":
            out.extend(Draw(seq=seq, actor=None, seat=data["seat"], card=c) for c in data["cards"])
        elif kind == "magic_carrot":
            out.append(Reveal(seq=seq, actor=None, cards=[data["card"]]))
        elif kind == "weapons_shown" and not _exchange_waits(after, data) \
                and _table_exchange(after, data, perspective):
            # the table form waits for the exchange where the full form knew there was
            # nothing to swap: the card's player says so (R-KBQ-43)
            out.append(Choose(seq=seq, actor=data["to"]))
        elif kind == "top_runs_rotated" and isinstance(perspective, int) \
                and perspective in data["seats"]:
            passed = after.seats[perspective].run.top
            if passed is not None:  # the seat looks at the top run card passed to it,
                # once the draws owed are in (the recorder takes no other entry before them)
                looked.append(Reveal(seq=seq, actor=None, seat=perspective, cards=[passed], look=True))
        elif kind == "weapons_given_up" and perspective != data["seat"] \
                and after.seats[data["seat"]].hand:
            out.append(Reveal(seq=seq, actor=None, seat=data["seat"], cards=list(data["cards"])))
    return [*out, *looked]


def _exchange_waits(after: QuestState, data: dict[str, Any]) -> bool:
    top = after.stack[-1] if after.stack else None
    return isinstance(top, Choice) and top.kind == "exchange"


def _table_exchange(after: QuestState, data: dict[str, Any], perspective: Perspective) -> bool:
    """The table form of the game as ``perspective`` saw it holds unknown cards in one of
    the two hands of a Weapons Exchange (so it waits for the choice)."""
    return any(after.seats[s].hand and perspective != s for s in (data["to"], data["seat"]))
