"""The effect vocabulary: what a card does, as typed data.

A card's ``effects`` are a list of these primitives, applied in order. The many cards that
fit the vocabulary are pure data; the few that do not name a :class:`Hook`, which a game
package implements under that name (``engine.killer.hooks``). The lesson is Forge's and
XMage's: a catalogue of 150+ cards stays readable and testable only if most cards are short
data over a shared vocabulary, and the exceptions are named, not hidden.

Every primitive is a frozen msgspec Struct tagged by ``do`` (the key in a deck file), so a
deck file that names an unknown primitive or a wrong field is refused with the card and the
field (``engine.killer.catalogue.loader``). Primitives hold numbers and names only: no
callables, so a catalogue is encodable, hashable and the same on every machine.

Words used throughout:

* *target bunny*: who the player may choose. ``opponent_bunny`` is a bunny of another
  player (the rulebook puts weapons and Feed The Bunny cards on an opponent's bunny; a
  game option may widen it), ``any_bunny`` any bunny in the circle, ``own_bunny`` one of the
  player's own, ``host`` the bunny the card already sits on (inside a roll outcome or a
  trigger).
* *protection*: what a modifier can shield a bunny from: ``harm`` (weapons and other
  killing), ``hunger`` (feeding), ``misfortune`` (Terrible Misfortune), ``abduction``.
* *supply*: ``cabbage`` or ``water`` (the small unit cards).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeAlias, TypeVar, Union, get_args

import msgspec

from engine.codec import decode_hook

BunnyTarget = Literal["opponent_bunny", "any_bunny", "own_bunny", "host"]
"""Which bunny a card may be put on (see the module docstring)."""

Reaper = Literal["player", "host_owner"]
"""Who rolls a card's dice and takes the result: the card's player, or the owner of the
bunny it went on."""

PlayerTarget = Literal["opponent", "any_player", "self", "everyone", "bunny_owners"]
"""Which player a card may name."""

Protection = Literal["harm", "hunger", "misfortune", "abduction"]
"""What a Bunny Modifier may protect against."""

Supply = Literal["cabbage", "water"]
"""The two small supply decks of unit cards."""

Direction = Literal["clockwise", "counter_clockwise"]
"""Around the Bunny Circle (or around the table)."""

Reroll = Literal["none", "once", "two_rolls"]
"""What the card's player may do about his own roll in a roll-off: nothing, re-roll once if
he does not like it (the later Bunny Bits), or roll twice and keep the better (the 2002
printing)."""

Family = Literal["circle", "combat", "feeding", "carrots", "money", "rolls", "hands", "turns"]
"""Where a reader looks for a primitive, in the kit and in every game: the Bunny Circle and
what sits in it; weapons and the answers to them; hunger and supplies; carrots; money,
prices and points; dice; cards in hands, piles and the run; turns and the named hooks of
one card."""

ParamValue = Union[str, int, bool, list[str]]  # noqa: UP007
"""A hook parameter: numbers and names only."""


class Open:
    """What a field holding a primitive is at run time: the vocabulary is open (a game may
    adopt a primitive the kit does not list, engine.killer.primitive), so such a field is
    decoded by :data:`VOCABULARY` as it stands, not by a union fixed at import. mypy reads
    :data:`OneEffect` as :data:`AnyEffect`."""

    __slots__ = ()

    @classmethod
    def from_builtins(cls, raw: Any) -> CardEffect:
        """The primitive ``raw`` names (the state codec's and the loader's decode hook)."""
        return VOCABULARY.decode(raw)


class CardEffect(msgspec.Struct, Open, tag_field="do", frozen=True, forbid_unknown_fields=True,
                 kw_only=True):
    """Base of every primitive; the tag (``do = "..."`` in a deck file) names it.

    A primitive answers the questions a game asks of a card itself (what it rolls, how many
    carrots it takes, what it cancels), so a game asks the primitive and never tests its
    type; looking a card's primitive of one kind up is :func:`first`'s."""

    family: ClassVar[Family]
    """Where a reader looks for it (each primitive names its own)."""
    answered_as: ClassVar[str] = ""
    """The word an answer card's ``what`` (:class:`Cancel`) names this primitive by while it
    waits for answers, besides its tag (an :class:`Abduct` is an ``abduction``)."""
    aims_at_host: ClassVar[bool] = False
    """True: the primitive acts on the bunny its card sits on, not on a player the play
    names, so an answer for one's own (``Cancel.only_own``) reads whose that bunny is."""

    def nested(self) -> list[AnyEffect]:
        """The primitives this one applies in its outcomes (roll results, triggers)."""
        return []

    def dice_named(self) -> list[str]:
        """The dice this primitive rolls (each must be one of the set's dice)."""
        return []

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        """What is wrong with this primitive in a set whose dice have ``sides`` (die id ->
        number of faces); the loader has already checked that every named die exists."""
        return []

    def carrots_taken(self) -> int:
        """How many carrots of his choice the player takes from the market."""
        return 0

    def cancels(self, what: str) -> bool:
        """Whether this primitive stops a card named by ``what`` (an id, a tag or a kind)."""
        return False


# -- area shapes ------------------------------------------------------------------------------


class AreaShape(msgspec.Struct, tag_field="shape", frozen=True, forbid_unknown_fields=True,
                kw_only=True):
    """Which bunnies around the target an attack also reaches (``engine.killer.attack``)."""

    def levels(self, level: int, circle_size: int) -> list[int]:
        """The level faced at each distance from the target (index 0: the target itself)."""
        return [level]


class Single(AreaShape, tag="single", frozen=True, kw_only=True):
    """The target bunny only."""


class Adjacent(AreaShape, tag="adjacent", frozen=True, kw_only=True):
    """The target and the bunny directly left and right of it in the circle."""

    level: int | None = None
    """The level the adjacent bunnies face; None: the attack's own level."""

    def levels(self, level: int, circle_size: int) -> list[int]:
        return [level, level if self.level is None else self.level]


class EitherSide(AreaShape, tag="either_side", frozen=True, kw_only=True):
    """The target and every bunny up to ``spaces`` positions away on either side."""

    spaces: int

    def levels(self, level: int, circle_size: int) -> list[int]:
        return [level] * (self.spaces + 1)


class Rings(AreaShape, tag="rings", frozen=True, kw_only=True):
    """The target at the attack's level, each ring further out ``fade`` levels lower, out to
    the whole circle (every bunny faces the attack)."""

    fade: int = 1

    def levels(self, level: int, circle_size: int) -> list[int]:
        reach = max(circle_size // 2, 0)
        return [max(0, level - d * self.fade) for d in range(reach + 1)]


Area = Union[Single, Adjacent, EitherSide, Rings]  # noqa: UP007


# -- bunnies in the circle -------------------------------------------------------------------


class EnterCircle(CardEffect, tag="enter_circle", frozen=True, kw_only=True):
    """The bunny card joins the Bunny Circle wherever its owner places it."""

    family: ClassVar[Family] = "circle"


class Attach(CardEffect, tag="attach", frozen=True, kw_only=True):
    """A Bunny Modifier goes under a bunny, for good (its ``modifier`` table says what it does)."""

    family: ClassVar[Family] = "circle"

    target: BunnyTarget = "own_bunny"
    fallback: Literal["none", "opponent_bunny_or_discard"] = "opponent_bunny_or_discard"
    """With no own bunny: put it under an opponent's bunny or discard it."""


class Attack(CardEffect, tag="attack", frozen=True, kw_only=True):
    """A weapon's attack: each bunny reached survives only by rolling above its level."""

    family: ClassVar[Family] = "combat"

    target: BunnyTarget = "opponent_bunny"
    level: int
    die: str = "black-d12"
    area: Area = Single()
    clovers: bool = True
    """Lucky Clovers lower the level (False for attacks that are not weapons)."""
    category: Protection = "harm"

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return [*_level_problems(self.level), *_area_problems(self.area)]


class Kill(CardEffect, tag="kill", frozen=True, kw_only=True):
    """Bunnies die without a roll."""

    family: ClassVar[Family] = "combat"

    target: BunnyTarget | Literal["own_bunnies_all"]
    area: Area = Single()
    fallback: Literal["none", "opponent_bunny"] = "none"
    """When the player has no own bunny that can be hit: ``opponent_bunny`` moves it to an
    opponent's bunny (Terrible Misfortune), ``none`` lets it pass."""
    category: Protection = "harm"

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return _area_problems(self.area)


class Abduct(CardEffect, tag="abduct", frozen=True, kw_only=True):
    """The target leaves the circle into a holding place; the bunny held before comes back."""

    family: ClassVar[Family] = "circle"

    target: BunnyTarget = "any_bunny"
    hold: str = "aliens"

    answered_as: ClassVar[str] = "abduction"
    aims_at_host: ClassVar[bool] = True


class Revive(CardEffect, tag="revive", frozen=True, kw_only=True):
    """Bunnies come back from the discard pile straight into the circle."""

    family: ClassVar[Family] = "circle"

    count: int = 1


# -- feeding ----------------------------------------------------------------------------------


class Feed(CardEffect, tag="feed", frozen=True, kw_only=True):
    """A feed demand on a bunny: its owner pays the units by the deadline or the bunny dies."""

    family: ClassVar[Family] = "feeding"

    target: BunnyTarget = "opponent_bunny"
    cabbage: int = 0
    water: int = 0
    due: Literal["owner_next_turn_end", "now"] = "owner_next_turn_end"


class SettleFeed(CardEffect, tag="settle_feed", frozen=True, kw_only=True):
    """Feeds a bunny without paying units."""

    family: ClassVar[Family] = "feeding"

    demands: Literal["all_on_bunny", "one"] = "all_on_bunny"
    kinds: tuple[Supply, ...] = ("cabbage", "water")
    """The supplies it stands in for (``one`` with both: either one)."""


# -- carrots ----------------------------------------------------------------------------------


class TakeCarrot(CardEffect, tag="take_carrot", frozen=True, kw_only=True):
    """Take carrots of the player's choice from the market."""

    family: ClassVar[Family] = "carrots"

    count: int = 1
    while_closed: bool = True
    """True: works even when the market is closed (Choose A Carrot)."""

    def carrots_taken(self) -> int:
        return self.count


class StealCarrot(CardEffect, tag="steal_carrot", frozen=True, kw_only=True):
    """Take one particular carrot from the market or from an opponent."""

    family: ClassVar[Family] = "carrots"

    pick: Literal["by_roll", "choose"] = "by_roll"
    die: str | None = None
    """With ``by_roll``: the die whose face names the carrot."""
    from_market: bool = True
    from_opponents: bool = True
    while_closed: bool = True

    def dice_named(self) -> list[str]:
        return [] if self.die is None else [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        if self.pick == "by_roll" and self.die is None:
            return ["a steal by roll names its die"]
        if not (self.from_market or self.from_opponents):
            return ["a steal takes from the market, from opponents or both"]
        return []


class ReturnCarrot(CardEffect, tag="return_carrot", frozen=True, kw_only=True):
    """A player gives carrots back to the market."""

    family: ClassVar[Family] = "carrots"

    target: PlayerTarget = "opponent"
    count: int = 1


class CarrotUpkeep(CardEffect, tag="carrot_upkeep", frozen=True, kw_only=True):
    """A player pays ``price`` per carrot to keep it; each unpaid carrot goes back to the
    market, open or closed."""

    family: ClassVar[Family] = "carrots"

    target: PlayerTarget = "opponent"
    price: int


# -- the market -------------------------------------------------------------------------------


class SetPrices(CardEffect, tag="set_prices", frozen=True, kw_only=True):
    """New market prices (per card); opens the market if it was closed."""

    family: ClassVar[Family] = "money"

    cabbage: int
    water: int
    carrot: int
    opens: bool = True


class CloseMarket(CardEffect, tag="close_market", frozen=True, kw_only=True):
    """The market closes: nothing can be bought or taken from it until a price card."""

    family: ClassVar[Family] = "money"


class HalfPrice(CardEffect, tag="half_price", frozen=True, kw_only=True):
    """For the rest of the player's turn every purchase costs half, rounded up."""

    family: ClassVar[Family] = "money"


# -- supplies and money -----------------------------------------------------------------------


class GainSupply(CardEffect, tag="gain_supply", frozen=True, kw_only=True):
    """Take small supply cards (not units) from the market's deck; only while it is open."""

    family: ClassVar[Family] = "feeding"

    kind: Supply
    cards: int


class LoseSupply(CardEffect, tag="lose_supply", frozen=True, kw_only=True):
    """A player loses every unit of a supply to its discard pile."""

    family: ClassVar[Family] = "feeding"

    target: PlayerTarget = "any_player"
    kind: Supply


class TakeHalfSupply(CardEffect, tag="take_half_supply", frozen=True, kw_only=True):
    """A player who holds none of a supply takes half (rounded down) of the units of the
    opponent who holds the most of it; for each supply separately."""

    family: ClassVar[Family] = "feeding"

    kinds: tuple[Supply, ...] = ("cabbage", "water")


class GainMoney(CardEffect, tag="gain_money", frozen=True, kw_only=True):
    """Money from the discard pile: a fixed amount, or as much as the player already has."""

    family: ClassVar[Family] = "money"

    amount: int | Literal["equal_to_saved"]
    iou: bool = False
    """True: what the discard pile cannot pay now is owed to the player (an IOU)."""


# -- dice -------------------------------------------------------------------------------------


class Band(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One range of faces of a single die and what it brings."""

    faces: str
    """``"10-12"``, ``"1"`` or ``"2,3"``."""
    then: list[OneEffect]

    def face_values(self) -> tuple[int, ...]:
        return parse_faces(self.faces)


class RollBands(CardEffect, tag="roll_bands", frozen=True, kw_only=True):
    """Roll one die; the band its face falls in decides."""

    family: ClassVar[Family] = "rolls"

    target: BunnyTarget | None = None
    """The bunny the card is put on (``host`` in the outcomes); None: no bunny."""
    die: str
    bands: list[Band]
    reaps: Reaper = "player"
    """Who rolls and takes the result, good or bad: the card's player, or the owner of the
    bunny the card went on (``host_owner``: the Mad, Mad Donnelaith Bakery)."""

    def nested(self) -> list[AnyEffect]:
        return [e for band in self.bands for e in band.then]

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        covered: list[int] = []
        for band in self.bands:
            try:
                covered.extend(band.face_values())
            except ValueError as exc:
                return [f"band {band.faces!r}: {exc}"]
        n = sides[self.die]
        if sorted(covered) != list(range(1, n + 1)):
            return [f"the bands of {self.die} must cover faces 1-{n} exactly once"]
        return []

    def band_for(self, face: int) -> Band:
        """The band a face falls in (the loader has checked that exactly one does)."""
        for band in self.bands:
            if face in band.face_values():
                return band
        raise ValueError(f"face {face} is in no band")


class PatternOutcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    pattern: Literal["all_different", "pair", "three_of_a_kind"]
    """``pair``: some two dice equal and no three; ``three_of_a_kind``: three or more equal."""
    then: list[OneEffect]


class RollPattern(CardEffect, tag="roll_pattern", frozen=True, kw_only=True):
    """Roll several dice; how many show the same face decides."""

    family: ClassVar[Family] = "rolls"

    target: BunnyTarget | None = None
    """The bunny the card is put on (``host`` in the outcomes); None: no bunny."""
    dice: list[str]
    outcomes: list[PatternOutcome]
    reaps: Reaper = "player"
    """Who rolls and takes the result, good or bad (``host_owner``: Carrot Top Casino)."""

    def nested(self) -> list[AnyEffect]:
        return [e for outcome in self.outcomes for e in outcome.then]

    def dice_named(self) -> list[str]:
        return list(self.dice)

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        patterns = [o.pattern for o in self.outcomes]
        if len(set(patterns)) != len(patterns):
            return ["a pattern is listed twice"]
        return []


class RollLowest(CardEffect, tag="roll_lowest", frozen=True, kw_only=True):
    """Roll several dice of different colours; the die (or dice, on a tie) with the lowest
    face wins its prize."""

    family: ClassVar[Family] = "rolls"

    dice: list[str]
    prizes: dict[str, list[OneEffect]]
    """Prize per die id."""

    def nested(self) -> list[AnyEffect]:
        return [e for prize in self.prizes.values() for e in prize]

    def dice_named(self) -> list[str]:
        return list(self.dice)

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        extra = sorted(set(self.prizes) - set(self.dice))
        return [f"prizes for dice not rolled: {extra}"] if extra else []


class RollMatches(CardEffect, tag="roll_matches", frozen=True, kw_only=True):
    """Roll several dice against a number (fixed, or chosen by the player first).

    The optional fields serve KinderBunnies' dice cards: ``target`` puts the card on a
    bunny first (a Safety Hazard: ``host`` in the outcomes); ``any_of`` counts a die as
    matching when it shows any of several numbers (the primes of Prime Time); ``need`` and
    ``then`` apply ``then`` once when at least ``need`` dice match; ``tries`` lets the
    player roll again, up to that many rolls in all, until ``need`` dice match in one roll
    (Fake Phone Number)."""

    family: ClassVar[Family] = "rolls"

    dice: list[str]
    number: int | Literal["chosen"]
    lowest: int = 1
    highest: int = 12
    """The numbers a player may choose."""
    per_match: list[OneEffect] = []
    """Applied once per die showing the number."""
    if_none: list[OneEffect] = []
    """Applied when no die shows it."""
    target: BunnyTarget | None = None
    """The bunny the card is put on (``host`` in the outcomes); None: no bunny."""
    any_of: list[int] = []
    """When given, a die matches if it shows any of these (``number`` is then ignored)."""
    need: int = 1
    """How many dice must match in one roll for ``then``."""
    then: list[OneEffect] = []
    """Applied once when at least ``need`` dice match."""
    tries: int = 1
    """Rolls allowed to reach ``need`` matches (each roll counted on its own)."""

    def nested(self) -> list[AnyEffect]:
        return [*self.per_match, *self.if_none, *self.then]

    def dice_named(self) -> list[str]:
        return list(self.dice)

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        top = min(sides[d] for d in self.dice)
        if any(not 1 <= n <= top for n in self.any_of):
            return [f"any_of {self.any_of} names numbers not on the dice (1-{top})"]
        if not 1 <= self.need <= len(self.dice) or self.tries < 1:
            return [f"need {self.need} must be 1-{len(self.dice)} and tries at least 1"]
        if self.any_of:
            return []
        if self.number != "chosen" and not 1 <= self.number <= top:
            return [f"number {self.number} is not on the dice (1-{top})"]
        if not 1 <= self.lowest <= self.highest <= top:
            return [f"the numbers to choose from ({self.lowest}-{self.highest}) are not on "
                    f"the dice (1-{top})"]
        return []


class RollOff(CardEffect, tag="roll_off", frozen=True, kw_only=True):
    """Several players roll; the highest (or lowest) roller wins or loses; ties roll again
    among the tied until one is left."""

    family: ClassVar[Family] = "rolls"

    who: Literal["everyone", "bunny_owners"]
    winner: Literal["high", "low"]
    die: str = "any-d12"
    card_player_reroll: Reroll = "once"
    prize: Literal["take_target", "lose_a_bunny"]
    """``take_target``: the winner takes the target bunny; ``lose_a_bunny``: the loser (the
    single lowest or highest) loses the bunny he put up."""
    target: BunnyTarget | None = None
    skip_halo_only: bool = False
    """Players whose only bunny is protected from harm sit out."""

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        if self.prize == "take_target" and self.target is None:
            return ["a roll-off for the target bunny names its target"]
        return []


class Gamble(CardEffect, tag="gamble", frozen=True, kw_only=True):
    """The card's player names stakes; everyone able to put them up must join; the highest
    roller takes every stake (ties roll again)."""

    family: ClassVar[Family] = "money"

    die: str = "any-d12"
    card_player_reroll: Reroll = "once"
    halo_must_risk: bool = True
    """A player whose only bunny is haloed must still risk it when the stakes name a bunny."""

    def dice_named(self) -> list[str]:
        return [self.die]


class Auction(CardEffect, tag="auction", frozen=True, kw_only=True):
    """A bunny is auctioned; bids go round from the card's player in turn order; the highest
    bidder pays the bank (the discard pile) and takes the bunny."""

    family: ClassVar[Family] = "money"

    target: BunnyTarget = "any_bunny"


# -- players, hands and run cards -------------------------------------------------------------


class SkipTurn(CardEffect, tag="skip_turn", frozen=True, kw_only=True):
    """A player loses his next turn(s)."""

    family: ClassVar[Family] = "turns"

    target: PlayerTarget = "any_player"
    turns: int = 1


class CurseWeapon(CardEffect, tag="curse_weapon", frozen=True, kw_only=True):
    """A player's next weapon must go on one of his own bunnies; the card stays with him
    until then."""

    family: ClassVar[Family] = "combat"

    target: PlayerTarget = "any_player"


class DiscardHand(CardEffect, tag="discard_hand", frozen=True, kw_only=True):
    """A player gives up every card of a kind from his hand (run positions untouched) and
    draws back to a full hand."""

    family: ClassVar[Family] = "hands"

    target: PlayerTarget = "any_player"
    what: Literal["weapon"] = "weapon"
    to: Literal["discard", "draw_pile"] = "discard"
    """Where they go: the discard pile, or back into the draw pile (shuffled in)."""


class ExchangeHandWeapon(CardEffect, tag="exchange_hand_weapon", frozen=True, kw_only=True):
    """The player swaps one weapon in his hand for one in an opponent's hand."""

    family: ClassVar[Family] = "combat"


class RotateTopRun(CardEffect, tag="rotate_top_run", frozen=True, kw_only=True):
    """Every player's top run card passes to the next player in ``direction``."""

    family: ClassVar[Family] = "hands"

    direction: Direction = "counter_clockwise"


# -- answers to other cards -------------------------------------------------------------------


class Cancel(CardEffect, tag="cancel", frozen=True, kw_only=True):
    """Stops another card as it is played, before its dice are rolled.

    ``what`` names card ids (``roaches``), tags (``weapon``, ``roaming``, ``abduction``) or
    the effect kinds it stops."""

    family: ClassVar[Family] = "combat"

    what: list[str]
    only_own: bool = False
    """True: only when the card is aimed at the canceller himself or his bunnies."""

    def cancels(self, what: str) -> bool:
        return what in self.what


class Clear(CardEffect, tag="clear", frozen=True, kw_only=True):
    """Removes every pending card of the kinds named (Feed The Bunny demands, a roaming card)."""

    family: ClassVar[Family] = "combat"

    what: list[str]


class Redirect(CardEffect, tag="redirect", frozen=True, kw_only=True):
    """A weapon just launched at a bunny goes to another bunny of the player's choice."""

    family: ClassVar[Family] = "combat"


class ReuseWeapon(CardEffect, tag="reuse_weapon", frozen=True, kw_only=True):
    """One of the player's weapons is used a second time before it is discarded."""

    family: ClassVar[Family] = "combat"


class BoostWeapons(CardEffect, tag="boost_weapons", frozen=True, kw_only=True):
    """While the card is saved, the holder's weapons up to ``max_level`` have their level
    multiplied by ``level_factor`` and reach ``extra_spaces`` more positions either side."""

    family: ClassVar[Family] = "combat"

    max_level: int
    level_factor: int = 2
    extra_spaces: int = 1


# -- cards that stay in play ------------------------------------------------------------------


class Roam(CardEffect, tag="roam", frozen=True, kw_only=True):
    """A Roaming Red Run: attacks its first bunny when played, then moves on to the next
    viable bunny in ``direction`` and attacks again at the end of each of its launcher's
    turns, until it is eliminated or no viable bunny is left."""

    family: ClassVar[Family] = "circle"

    target: BunnyTarget = "opponent_bunny"
    direction: Direction
    level: int
    die: str
    clovers: bool
    """False when the roaming card is not a weapon (clovers do not help)."""
    revisit: bool
    """False: each bunny is attacked at most once (a survivor is immune for good)."""
    weapon: bool
    """True when the roaming card is itself a weapon (it counts for Rooney's Reusables...)."""
    carrier_death_ends: bool
    """True: if the bunny it waits on dies of anything else, the roaming card is discarded;
    False: it moves on to the next viable bunny."""
    targetable: bool = False
    """True: the roaming card itself can be attacked by a weapon (its launcher rolls)."""

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return _level_problems(self.level)


class Dormant(CardEffect, tag="dormant", frozen=True, kw_only=True):
    """The card goes under a bunny and waits; when its trigger happens, ``then`` is applied
    around that bunny and the card is discarded; it is discarded with the bunny otherwise."""

    family: ClassVar[Family] = "circle"

    target: BunnyTarget = "opponent_bunny"
    trigger: Literal["host_owner_launches_weapon"]
    then: list[OneEffect]

    def nested(self) -> list[AnyEffect]:
        return list(self.then)


# -- Odyssey: Civ points, cities, hands and piles --------------------------------------------

CivTarget = Literal["self", "opponent", "each_opponent", "adjacent_players"]
"""Whose Civ points a card changes: the player's own, one opponent of his choice, every
opponent, or the players sitting either side of him (one player in a two-player game)."""


class GainCiv(CardEffect, tag="civ", frozen=True, kw_only=True):
    """Civ points gained (or lost, when ``amount`` is below 0) on the d20 (Odyssey)."""

    family: ClassVar[Family] = "money"

    amount: int
    target: CivTarget = "self"
    per: Literal["once", "own_creature_in_play"] = "once"
    """``own_creature_in_play``: ``amount`` for each creature the player has in play (in the
    Bunny Circle or inside his cities)."""


class Build(CardEffect, tag="build", frozen=True, kw_only=True):
    """The city card enters the Center Circle wherever its owner places it."""

    family: ClassVar[Family] = "circle"


class Raze(CardEffect, tag="raze", frozen=True, kw_only=True):
    """A City Weapon's attack on an opponent's city: the city stands only if its owner rolls
    above ``level``; a city that falls takes its occupants with it."""

    family: ClassVar[Family] = "combat"

    level: int
    die: str = "d12"

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return _level_problems(self.level)


class Steal(CardEffect, tag="steal", frozen=True, kw_only=True):
    """An opponent's creature in play (or city, with its occupants) becomes the player's;
    he places it as he acquires it."""

    family: ClassVar[Family] = "circle"

    what: Literal["creature", "city"] = "creature"


class PickFromHand(CardEffect, tag="pick_from_hand", frozen=True, kw_only=True):
    """A card picked at random from an opponent's hand (back fanning) is discarded."""

    family: ClassVar[Family] = "hands"


class Inspect(CardEffect, tag="inspect", frozen=True, kw_only=True):
    """The player looks at an opponent's hand; the opponent discards one card of
    ``discard_type`` from it (the player's choice) if it holds one."""

    family: ClassVar[Family] = "hands"

    discard_type: Literal["special", "very_special", "resource", "run"] = "very_special"


class Recycle(CardEffect, tag="recycle", frozen=True, kw_only=True):
    """Up to ``count`` cards of the player's discard pile (his choice, the most recent when
    a record names none) go back into his draw pile, which is shuffled and cut."""

    family: ClassVar[Family] = "hands"

    count: int

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return [] if self.count >= 1 else ["recycle moves at least one card"]


# -- KinderBunnies' family cards ----------------------------------------------------------------


class KeepOnly(CardEffect, tag="keep_only", frozen=True, kw_only=True):
    """A player keeps only ``bunnies`` of his bunnies in play and ``carrots`` of his carrots,
    his choice; the other bunnies are discarded and the other carrots go back to the pile."""

    family: ClassVar[Family] = "combat"

    target: PlayerTarget = "self"
    bunnies: int = 1
    carrots: int = 1


class RerollDie(CardEffect, tag="reroll_die", frozen=True, kw_only=True):
    """Answers a roll just made: one die of it, the player's pick, is rolled again and the
    new face stands."""

    family: ClassVar[Family] = "rolls"


class ReplayDiscard(CardEffect, tag="replay_discard", frozen=True, kw_only=True):
    """Pay ``price`` money to the discard pile, take one card of the discard pile and play it
    at once as the same turn's card."""

    family: ClassVar[Family] = "money"

    price: int


class ExchangeCarrots(CardEffect, tag="exchange_carrots", frozen=True, kw_only=True):
    """Give ``give`` of the player's carrots back to the pile and take ``take`` others."""

    family: ClassVar[Family] = "carrots"

    give: int = 1
    take: int = 2


class EveryoneRolls(CardEffect, tag="everyone_rolls", frozen=True, kw_only=True):
    """Every player rolls one die; ``then`` applies to each player whose face is in
    ``faces`` (``self`` in ``then`` is that player)."""

    family: ClassVar[Family] = "rolls"

    die: str
    faces: str
    """``"9"``, ``"1-3"``: the faces that bring ``then``."""
    then: list[OneEffect]

    def nested(self) -> list[AnyEffect]:
        return list(self.then)

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        try:
            faces = parse_faces(self.faces)
        except ValueError as exc:
            return [str(exc)]
        if any(not 1 <= f <= sides[self.die] for f in faces):
            return [f"faces {self.faces} are not on {self.die}"]
        return []


class RollSpread(CardEffect, tag="roll_spread", frozen=True, kw_only=True):
    """Roll several dice; the player gains money equal to the highest face less the lowest,
    paid from the discard pile as far as it holds money (never owed)."""

    family: ClassVar[Family] = "rolls"

    dice: list[str]

    def dice_named(self) -> list[str]:
        return list(self.dice)


class RaceToRoll(CardEffect, tag="race_to_roll", frozen=True, kw_only=True):
    """Every player rolls one die a round, from the card's player round the table, until a
    round shows ``face``; the first in that order who rolled it wins and every other player
    pays him ``each`` money (what he can)."""

    family: ClassVar[Family] = "rolls"

    die: str
    face: int = 1
    each: int = 1

    def dice_named(self) -> list[str]:
        return [self.die]

    def problems(self, sides: Mapping[str, int]) -> list[str]:
        return [] if 1 <= self.face <= sides[self.die] else [f"face {self.face} is not on {self.die}"]


class PassHands(CardEffect, tag="pass_hands", frozen=True, kw_only=True):
    """Every player with cards in hand passes ``cards`` of them, his choice, to the next
    player in ``direction``; the choices are made at once and then passed."""

    family: ClassVar[Family] = "hands"

    cards: int = 1
    direction: Direction = "clockwise"


class SwapWithHand(CardEffect, tag="swap_with_hand", frozen=True, kw_only=True):
    """The player looks at another player's hand and swaps one of his own hand cards for one
    of it."""

    family: ClassVar[Family] = "hands"

    target: PlayerTarget = "opponent"


class Contest(CardEffect, tag="contest", frozen=True, kw_only=True):
    """A contest of skill the table judges (the longest-spinning die): everyone takes part,
    the table records the winner, and ``then`` applies to him."""

    family: ClassVar[Family] = "rolls"

    then: list[OneEffect]

    def nested(self) -> list[AnyEffect]:
        return list(self.then)


class SwitchPlaces(CardEffect, tag="switch_places", frozen=True, kw_only=True):
    """Every player rolls one die; players who rolled the same face change places round the
    table, each taking what lay in front of the next of them clockwise (two of them swap)."""

    family: ClassVar[Family] = "circle"

    die: str

    def dice_named(self) -> list[str]:
        return [self.die]


class Hook(CardEffect, tag="hook", frozen=True, kw_only=True):
    """A card that fits no primitive: the game package implements ``name``."""

    family: ClassVar[Family] = "turns"

    name: str
    params: dict[str, ParamValue] = {}


def parse_faces(spec: str) -> tuple[int, ...]:
    """``"10-12"`` -> (10, 11, 12); ``"2,3"``; ``"1"``. ValueError if malformed."""
    out: list[int] = []
    for part in spec.replace(" ", "").split(","):
        lo_s, sep, hi_s = part.partition("-")
        if not lo_s.isdigit() or (sep and not hi_s.isdigit()):
            raise ValueError(f"faces {spec!r} are not N, N-M or a comma-separated list of those")
        lo, hi = int(lo_s), int(hi_s) if sep else int(lo_s)
        if hi < lo:
            raise ValueError(f"range {part!r} runs backwards")
        out.extend(range(lo, hi + 1))
    return tuple(out)


def _level_problems(level: int) -> list[str]:
    return [] if 0 <= level <= 100 else [f"level {level} is out of range"]


def _area_problems(area: Area) -> list[str]:
    if isinstance(area, EitherSide) and area.spaces < 1:
        return ["either_side needs spaces of 1 or more"]
    if isinstance(area, Rings) and area.fade < 0:
        return ["rings cannot grow stronger outwards (fade below 0)"]
    return []


AnyEffect = Union[  # noqa: UP007
    EnterCircle, Attach, Attack, Kill, Abduct, Revive, Feed, SettleFeed, TakeCarrot,
    StealCarrot, ReturnCarrot, CarrotUpkeep, SetPrices, CloseMarket, HalfPrice, GainSupply,
    LoseSupply, TakeHalfSupply, GainMoney, RollBands, RollPattern, RollLowest, RollMatches,
    RollOff, Gamble, Auction, SkipTurn, CurseWeapon, DiscardHand, ExchangeHandWeapon,
    RotateTopRun, Cancel, Clear, Redirect, ReuseWeapon, BoostWeapons, Roam, Dormant, GainCiv,
    Build, Raze, Steal, PickFromHand, Inspect, Recycle,
    KeepOnly, RerollDie, ReplayDiscard, ExchangeCarrots, EveryoneRolls, RollSpread, RaceToRoll,
    PassHands, SwapWithHand, Contest, SwitchPlaces, Hook,
]
"""Every primitive; a deck file's ``effects`` decode into a list of these."""

EFFECT_TYPES: tuple[type[CardEffect], ...] = get_args(AnyEffect)
"""The kit's own primitives, for the format reference and the completeness tests."""

if TYPE_CHECKING:
    OneEffect: TypeAlias = AnyEffect
else:
    OneEffect = Open
"""How a field holding one primitive is declared (see :class:`Open`)."""


def tag_of(effect: CardEffect) -> str:
    """The ``do`` name of a primitive."""
    return tag_of_type(type(effect))


def tag_of_type(kind: type[CardEffect]) -> str:
    """The ``do`` name of a primitive's type."""
    return str(kind.__struct_config__.tag)


def merge_revives(then: list[AnyEffect]) -> list[AnyEffect]:
    """What one roll brings, its "revive one"s made one choice of that many bunnies (a
    player picks them together), after the rest."""
    count = sum(e.count for e in then if isinstance(e, Revive))
    rest: list[AnyEffect] = [e for e in then if not isinstance(e, Revive)]
    return [*rest, Revive(count=count)] if count else rest


def walk(effects: list[AnyEffect]) -> list[AnyEffect]:
    """Every primitive in ``effects``, nested outcomes included, depth first."""
    out: list[AnyEffect] = []
    for effect in effects:
        out.append(effect)
        out.extend(walk(effect.nested()))
    return out


K = TypeVar("K", bound=CardEffect)


def first(effects: Iterable[CardEffect | None], kind: type[K]) -> K | None:
    """The first primitive of ``kind`` among ``effects`` (top level only), or None: how a
    game looks up what a card does of one kind (a Trojan Bunny's dormant part, a saved
    weapon booster) without testing types itself."""
    for effect in effects:
        if isinstance(effect, kind):
            return effect
    return None


def every(effects: Iterable[CardEffect | None], kind: type[K]) -> list[K]:
    """Every primitive of ``kind`` among ``effects`` (top level only), in order."""
    return [e for e in effects if isinstance(e, kind)]


def expect(effect: CardEffect | None, kind: type[K]) -> K:
    """``effect``, which a game knows by construction is a ``kind`` (the card a waiting
    frame holds was put there by that primitive); anything else is a broken state."""
    if not isinstance(effect, kind):
        raise TypeError(f"expected a {kind.__name__} effect here, not {effect!r}")
    return effect


class Vocabulary:
    """The primitives a deck file may name: the kit's own (:data:`AnyEffect`) and those a game
    adopts from a file of their own (engine.killer.primitive). A tag is one primitive's
    only."""

    def __init__(self) -> None:
        self.kinds: dict[str, type[CardEffect]] = {tag_of_type(k): k for k in EFFECT_TYPES}
        self._rebuild()

    def _rebuild(self) -> None:
        # msgspec keeps what it learnt of a Struct's field types with the class, not of a bare
        # union: a Struct holding the union decodes many times faster after the first time.
        union: Any = Union[tuple(self.kinds.values())]  # noqa: UP007 - built from a tuple
        self._holder: type[msgspec.Struct] = msgspec.defstruct("OneOf", [("effect", union)])

    def add(self, kind: type[CardEffect]) -> None:
        """Let deck files name ``kind`` (adopting it twice is the same as once)."""
        tag = tag_of_type(kind)
        held = self.kinds.get(tag)
        if held is kind:
            return
        if held is not None:
            raise ValueError(f"the effect tag {tag!r} is already {held.__qualname__}'s")
        self.kinds[tag] = kind
        self._rebuild()

    def remove(self, kind: type[CardEffect]) -> None:
        """Forget an adopted primitive (the kit's own stay)."""
        if kind not in EFFECT_TYPES and self.kinds.get(tag_of_type(kind)) is kind:
            del self.kinds[tag_of_type(kind)]
            self._rebuild()

    def decode(self, raw: Any) -> CardEffect:
        """The primitive of ``raw`` (a deck file's table or a state's stored one); a
        ValidationError names what is wrong."""
        if isinstance(raw, CardEffect):  # msgspec.convert of objects hands a primitive as is
            return raw
        try:
            held = msgspec.convert({"effect": raw}, self._holder, dec_hook=decode_hook)
        except msgspec.ValidationError as exc:
            # A ValueError from a decode hook is reported by msgspec with the path to this
            # field before it; its own text ends with the path inside the primitive.
            text, _, inner = str(exc).rpartition(" - at `$.effect")
            raise ValueError(f"{text} - in `{inner}" if text else str(exc)) from None
        effect: CardEffect = held.effect  # type: ignore[attr-defined]
        return effect


def said_at(error: Exception) -> str:
    """A decoding error of a deck file's effects with its path whole: msgspec reports the
    path to a field declared :data:`OneEffect` and, in front, the path inside the primitive
    (``... - in `.count` - at `$.effects[0]```); this joins them (``$.effects[0].count``)."""
    text = str(error)
    head, sep, outer = text.rpartition(" - at `$")
    if not sep:
        return text
    inner: list[str] = []
    while " - in `" in head:
        head, _, part = head.rpartition(" - in `")
        inner.append(part.rstrip("`"))
    return f"{head} - at `${outer.rstrip('`')}{''.join(inner)}`"


VOCABULARY = Vocabulary()
"""The primitives deck files and stored states may name."""
