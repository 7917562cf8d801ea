"""The state of a game of Killer Bunnies Quest at one position.

Mutable for a fast fold (engine.ruleset), every slot typed for the state codec
(engine.codec): builtins, the kit's msgspec Structs and the frames below. The cards are
not in the state, only the key of the catalogue they come from (``deck``); the rules read
them through ``engine.killer_bunnies_quest.catalogue.deck_by_key``.

What a card in play is waiting for lives on ``stack``: a list of *frames*, the top one
being what the game waits on now (a roll, a choice, a bid). A played card pushes an
``Effects`` frame holding its primitives; a primitive that needs chance or somebody's
decision pushes its own frame above it and the rest wait until it is done. The agenda
(engine.pending) is read off the top frame and the turn's phase, never kept separately.
"""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec

from engine.codec import decode_hook
from engine.killer.catalogue.effects import Direction, OneEffect
from engine.killer.circle import BunnyCircle
from engine.killer.feeding import FeedDemand
from engine.killer.rolls import RollOff
from engine.killer.run import RunPositions
from engine.killer.units import IOU
from engine.killer_bunnies_quest.auction import Auction
from engine.killer_bunnies_quest.market import Market
from engine.killer_bunnies_quest.options import QuestOptions
from engine.ruleset import GameState

Origin = Literal["run", "hand", "saved", "trigger", "draw"]
"""Where a card in play came from: the flipped top run card, a hand, the saved cards, a
trigger (a roaming card's attack, a Trojan Bunny), or the draw pile (Play Immediately)."""



class Roamer(msgspec.Struct, kw_only=True):
    """A roaming card in play."""

    card: int
    launcher: int
    """The seat that launched it: it attacks at the end of this seat's turns."""
    host: int | None
    """The bunny it waits on (None once it has nowhere to go)."""
    direction: Direction
    revisit: bool
    visited: list[int] = []
    """Bunnies it has attacked (kept for cards that never revisit)."""
    launched_turn: int = 0
    """The launcher's turn number in which it was launched (no second attack that turn)."""

    def copy(self) -> Roamer:
        return Roamer(card=self.card, launcher=self.launcher, host=self.host,
                      direction=self.direction, revisit=self.revisit, visited=self.visited[:],
                      launched_turn=self.launched_turn)


class Seat(msgspec.Struct, kw_only=True):
    """One player's cards."""

    present: bool = True
    """At the table (False before a late player joins and after a player leaves)."""
    hand: list[int] = []
    run: RunPositions = msgspec.field(default_factory=RunPositions)
    saved: list[int] = []
    """Saved Special and Very Special cards, face up."""
    money: list[int] = []
    """Kaballa Dolla cards, face up."""
    cabbage: list[int] = []
    water: list[int] = []
    carrots: list[int] = []
    karma: list[int] = []
    """Bad Karma cards given to him, waiting for his next weapon."""
    lose_turns: int = 0
    """Turns he is still to lose (Baker Street)."""
    turns: int = 0
    """Turns he has begun."""
    laid: bool = False
    """He has laid his first run cards."""
    gifts: list[list[int]] = []
    """``[event seq, taker, cards...]``: carrots, Dolla, saved cards or supplies he gave for
    nothing since his last turn began; he may not leave while a taker is in (KBQ-LEAVE-2)."""

    def copy(self) -> Seat:
        return Seat(present=self.present, hand=self.hand[:], run=self.run.copy(),
                    saved=self.saved[:], money=self.money[:], cabbage=self.cabbage[:],
                    water=self.water[:], carrots=self.carrots[:], karma=self.karma[:],
                    lose_turns=self.lose_turns, turns=self.turns, laid=self.laid,
                    gifts=[g[:] for g in self.gifts])


class Ctx(msgspec.Struct, kw_only=True):
    """A card being resolved and the choices made with it."""

    card: int
    by: int
    """The player who played it."""
    origin: Origin
    host: int | None = None
    """The bunny it went on."""
    player: int | None = None
    """The player it named."""
    keep: bool = False
    """It stays in play (a bunny, a modifier, a feed, a roaming card...), not discarded."""
    at: int | None = None
    carrots: list[int] = []
    number: int | None = None
    stakes: list[int] = []
    sources: list[int] = []
    weapon: int | None = None
    roamer: bool = False
    shown: list[int] = []
    """The table form: seats whose hands were shown for this card (R-KBQ-43)."""


class Hit(msgspec.Struct, kw_only=True):
    """One bunny (or roaming card) an attack reaches."""

    bunny: int
    owner: int
    """Who rolls (the bunny's owner; a roaming card's launcher)."""
    level: int
    die: str
    roamer: int | None = None
    """The roaming card attacked, when the attack is on it rather than on the bunny."""
    face: int | None = None
    """The roll, once made (None: certain, or not yet rolled)."""
    lives: bool | None = None


class Effects(msgspec.Struct, tag="effects", kw_only=True):
    """A card's primitives still to apply, in order."""

    ctx: Ctx
    todo: list[OneEffect]


class AttackFrame(msgspec.Struct, tag="attack", kw_only=True):
    """An attack under way: the bunnies reached and their rolls."""

    ctx: Ctx
    cause: Literal["weapon", "roaming", "trojan"]
    weapon: bool
    """The attacking card is a weapon (Spatula, Reversal, Bad Karma, Trojan, Rooney apply)."""
    target: int
    levels: list[int]
    """The level at each distance from the target (before clovers)."""
    die: str
    clovers: bool
    tags: list[str]
    category: str
    hits: list[Hit] = []
    shielded: list[int] = []
    """Bunnies reached but protected by a modifier (KBQ-MOD-5)."""
    on_roamer: int | None = None
    """The roaming card attacked (a weapon aimed at Cyber Bunny rather than its bunny)."""
    rolled: int = 0
    """Rolls recorded so far (before the first, other seats may answer: KBQ-VSP-1)."""
    released: bool = False
    """No roll was needed and the next event that is not an answer has come (R-KBQ-32)."""
    roaming: int | None = None
    """The roaming card whose attack this is."""


class Hold(msgspec.Struct, tag="hold", kw_only=True):
    """A launched card that needs no die (an abduction, a Drought), waiting for answers until
    the next event that is not one (R-KBQ-32)."""

    ctx: Ctx
    effect: OneEffect
    released: bool = False


class RollCard(msgspec.Struct, tag="roll_card", kw_only=True):
    """A primitive waiting for its dice (a roll table, a steal by roll, a hook)."""

    ctx: Ctx
    effect: OneEffect
    dice: list[str]
    roller: int


class Choice(msgspec.Struct, tag="choice", kw_only=True):
    """A decision the game waits for from one seat."""

    ctx: Ctx
    seat: int
    kind: Literal["carrot", "revive", "clovers", "misfortune", "return", "exchange", "upkeep",
                  "stake", "feed_now"]
    count: int = 0
    options: list[int] = []
    """What may be chosen (bunnies, carrots, cards), where the kind has a fixed list."""
    bunny: int | None = None
    """The bunny concerned (a feed due at once, a returning abductee)."""


class RollOffFrame(msgspec.Struct, tag="roll_off", kw_only=True):
    """Players rolling off for a card (Defector Detector, Russian Roulette, Poverty Poker)."""

    ctx: Ctx
    purpose: Literal["defector", "roulette", "poker"]
    off: RollOff
    staked: dict[int, list[int]] = {}
    """Seat -> the carrots and bunnies it put up."""


class AuctionFrame(msgspec.Struct, tag="auction", kw_only=True):
    ctx: Ctx
    auction: Auction


class Draws(msgspec.Struct, tag="draws", kw_only=True):
    """Cards a seat is still to draw, and what comes after."""

    seat: int
    count: int
    then: Literal["bottom", "card_done", "none", "runs"]
    unused_misfortune: bool = False
    """Play Immediately cards drawn are discarded unused (a late joiner: KBQ-JOIN-1)."""
    rule: str = "KBQ-TURN-3"
    """The rule the draws answer to (a replacement, a Very Special's, a late joiner's...)."""


class TurnEnd(msgspec.Struct, tag="turn_end", kw_only=True):
    """The end of a turn under way (deadlines, then roaming cards, then the next turn)."""

    seat: int
    turn: int
    """The seat's turn number that is ending."""
    roamers: list[int] = []
    """Roaming cards still to attack."""
    deadlines_done: bool = False


class Deal(msgspec.Struct, tag="deal", kw_only=True):
    """The table form's deal, one ``draw`` event a card: seven cards each, one at a time
    clockwise from the first player (KBQ-SET-2, R-KBQ-5); a Dolla or Play Immediately card
    dealt is replaced (engine.killer_bunnies_quest.unknowns)."""

    order: list[int]
    """The seats in dealing order."""
    dealt: int = 0
    """Hand cards dealt so far (the next goes to ``order[dealt % len(order)]``)."""


class Supplies(msgspec.Struct, tag="supplies", kw_only=True):
    """The table form: small cards a seat takes off its unknown small deck, one ``draw``
    event each, named as the table saw them (KBQ-SMALL-1)."""

    seat: int
    kind: Literal["cabbage", "water"]
    count: int
    rule: str
    got: list[int] = []


class MagicReveal(msgspec.Struct, tag="magic", kw_only=True):
    """The table form: the game is over and waits for the small carrot deck's bottom card
    (KBQ-END-1, KBQ-END-2)."""


class Shown(msgspec.Struct, tag="shown", kw_only=True):
    """The table form: a card makes a player show which of his unknown hand cards are
    weapons (Geneva Convention, Rooney's Weapons Exchange); the game waits for a ``reveal``
    of them (ruling R-KBQ-43)."""

    ctx: Ctx
    seat: int
    effect: OneEffect


Frame = Union[Effects, AttackFrame, Hold, RollCard, Choice, RollOffFrame, AuctionFrame, Draws,  # noqa: UP007
              TurnEnd, Deal, Supplies, MagicReveal, Shown]


class Dormant(msgspec.Struct, kw_only=True):
    """A dormant card under a bunny (the Trojan Bunny), waiting for its trigger."""

    card: int
    host: int
    placed_by: int


class QuestState(GameState):
    __slots__ = (
        "abducted",
        "cabbage_deck",
        "cabbage_discard",
        "cards_played",
        "circle",
        "coupon",
        "deck",
        "demands",
        "discard",
        "dormant",
        "doubts",
        "draw",
        "end_reason",
        "end_rule",
        "ended",
        "first",
        "flipped",
        "ious",
        "magic",
        "magic_deck",
        "market",
        "n",
        "opts",
        "partial",
        "pool",
        "roamers",
        "seats",
        "second",
        "stack",
        "traded",
        "triplet_at_start",
        "used_weapons",
        "water_deck",
        "water_discard",
        "winners",
    )

    deck: str
    """The catalogue key (engine.killer_bunnies_quest.catalogue)."""
    opts: QuestOptions
    n: int
    seats: list[Seat]
    circle: BunnyCircle
    market: Market
    draw: list[int]
    """The draw pile, top card last."""
    discard: list[int]
    cabbage_deck: list[int]
    """The small Cabbage deck, top card last."""
    water_deck: list[int]
    cabbage_discard: list[int]
    water_discard: list[int]
    magic_deck: list[int]
    """The small carrot deck, top first: the last card names the Magic Carrot."""
    ious: list[IOU]
    demands: list[FeedDemand]
    roamers: list[Roamer]
    dormant: list[Dormant]
    abducted: list[int]
    """[bunny, owner] held by the aliens, or empty."""
    traded: set[int]
    """Cards traded once already (KBQ-TRADE-5)."""
    stack: list[Frame]
    first: int
    flipped: int | None
    """The top run card turned up and waiting to be played, discarded or saved."""
    cards_played: int
    second: bool
    """A second card may be played this turn (KBQ-TRIP-1)."""
    triplet_at_start: bool
    """The active player had a triplet when his turn began (KBQ-TRIP-2)."""
    used_weapons: list[int]
    """Weapons the active player used this turn (Rooney's Reusables)."""
    coupon: list[int]
    """[seat, full price so far, charged so far] while a Half Price Coupon runs; else []."""
    magic: str | None
    partial: bool
    """A table-form record (engine.killer_bunnies_quest.unknowns): piles of unknown cards."""
    pool: set[int]
    """The table form: every card not yet seen anywhere (empty in the full form)."""
    doubts: list[list[Any]]
    """The table form: undetermined checks still to settle (unknowns.doubt)."""
    winners: list[int]
    end_reason: str | None
    end_rule: str | None
    ended: list[Any]
    """``[seat, rule]``: who played the last finished turn and the rule that ended his cards
    (KBQ-TRIP-1 one card without a triplet or a second declined, KBQ-TRIP-4 a triplet
    broken, KBQ-TRIP-3 two cards, KBQ-TURN-5 a lost turn); [] before any. It names the rule
    that refuses him another card (handlers._why_not) instead of the turn order's."""

    def copy(self) -> QuestState:
        new = QuestState.__new__(QuestState)
        for name in ("seq", "round", "turn", "phase", "active", "over", "deck", "opts", "n",
                     "first", "flipped", "cards_played", "second", "magic", "end_reason",
                     "end_rule", "triplet_at_start", "partial"):
            setattr(new, name, getattr(self, name))
        for name in ("draw", "discard", "cabbage_deck", "water_deck", "cabbage_discard",
                     "water_discard", "magic_deck", "abducted", "used_weapons", "coupon",
                     "winners", "ended"):
            setattr(new, name, getattr(self, name)[:])
        new.seats = [s.copy() for s in self.seats]
        new.circle = self.circle.copy()
        new.market = self.market.copy()
        new.ious = [IOU(seat=i.seat, kind=i.kind, amount=i.amount) for i in self.ious]
        new.demands = [FeedDemand(card=d.card, bunny=d.bunny, owner=d.owner, cabbage=d.cabbage,
                                  water=d.water, due_turn=d.due_turn, placed_by=d.placed_by)
                       for d in self.demands]
        new.roamers = [r.copy() for r in self.roamers]
        new.dormant = [Dormant(card=d.card, host=d.host, placed_by=d.placed_by)
                       for d in self.dormant]
        new.traded = set(self.traded)
        new.pool = set(self.pool) if self.pool else set()
        new.doubts = [d[:] for d in self.doubts] if self.doubts else []
        new.stack = [copy_frame(f) for f in self.stack]
        return new


def copy_frame(frame: Frame) -> Frame:
    """An independent copy of a frame (effects and dice names are frozen or strings)."""
    copied: Frame = msgspec.convert(msgspec.to_builtins(frame), Frame, dec_hook=decode_hook)
    return copied
