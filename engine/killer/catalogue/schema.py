"""The card catalogue's types: what a deck file holds once it is validated.

A deck file (TOML, docs/catalogue.md) decodes into a :class:`DeckFile`: its ``[deck]``
header and its ``[[card]]`` entries. A set file decodes into :class:`SetFile`: named deck
sets (which decks are played together, the colours, kinds and dice they use, the market's
starting prices). The loader (``loader.py``) checks what types alone cannot say (numbers
unique across the set, dice and colours declared, a weapon's attack agreeing with its
``weapon`` table) and resolves a printing into :class:`Card` records: one per definition,
with its numbers, ready for a game.

Everything is a frozen msgspec Struct of builtins, so a catalogue encodes to the same bytes
on every machine and its content hash (``loader.content_hash``) is stable.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.killer.catalogue.effects import OneEffect, Protection

FORMAT = 1
"""The deck-file format version this warren reads (``format = 1`` at the top of a file)."""

CardType = Literal[
    "run", "special", "very_special", "play_immediately", "roaming_red_run", "money",
    "starter", "carrot", "resource", "cabbage", "water", "magic_carrot",
]
"""The card's type as printed in its top window, plus the small cards:

* ``run``, ``special``, ``very_special``, ``play_immediately``, ``roaming_red_run``: the
  large playing cards (bunnies, weapons and Bunny Modifiers are Run cards, or Very Special
  for the Containment Suit; their ``bunny``, ``weapon`` and ``modifier`` tables say so);
* ``money``: Kaballa Dolla (Quest, Odyssey) or Bunny Bucks (KinderBunnies), saved face up
  the moment they are drawn;
* ``starter``: the market card that starts in play;
* ``carrot``: a large carrot (numbered in Quest, lettered in KinderBunnies);
* ``resource``: Odyssey's Resource cards, saved on the flip;
* ``cabbage``, ``water``: the small supply cards, each worth ``units``;
* ``magic_carrot``: a small carrot card naming one large carrot (``carrot``).
"""

LARGE_TYPES: frozenset[str] = frozenset(
    {"run", "special", "very_special", "play_immediately", "roaming_red_run", "money",
     "resource"}
)
"""Types of the cards shuffled into the draw pile."""

SMALL_TYPES: frozenset[str] = frozenset({"cabbage", "water", "magic_carrot"})
"""Types of the small cards (their own decks)."""


class BunnyFace(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A bunny card's colour and kind (they make Bunny Triplets)."""

    colour: str | None = None
    """One of the set's colours; None for a wild bunny."""
    kind: str | None = None
    """One of the set's kinds; None for a wild bunny."""
    wild: bool = False
    """A wild bunny (Free Agent) counts as any colour and any kind, except ``not_colours``."""
    not_colours: list[str] = []
    """Colours a wild bunny can never be."""
    points: int | None = None
    """Civ points while it lives (Odyssey)."""
    immune_to: list[str] = []
    """Tags of the cards that cannot be played on it (KinderBunnies' Adventure Bunny:
    ``safety-hazard``)."""


class WeaponSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A weapon card's printed level and die. The attack itself is in ``effects``; when a
    card lists no effects, the loader makes a plain single-target attack from this."""

    level: int
    die: str = "black-d12"
    tags: list[str] = []
    """What the weapon is (``gas``, ``virus``, ``fire``...): modifiers and answers name tags."""
    ground: bool = True
    """Odyssey: a ground weapon (False: a city weapon)."""


class FeedSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Feed The Bunny card's amounts (units). Without effects, the loader makes the feed
    demand from this."""

    cabbage: int = 0
    water: int = 0


class ModifierSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A Bunny Modifier: what it does while it lies under a bunny."""

    clover: int = 0
    """How many levels it takes off every weapon aimed at the bunny."""
    protects: list[Protection] = []
    """What it shields the bunny from."""
    protects_tags: list[str] = []
    """Weapon tags it shields the bunny from (the Containment Suit: ``gas``, ``virus``)."""
    points: int | None = None
    """Civ points it adds (Odyssey)."""


class CreatureSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An Odyssey creature: what lives in the Bunny Circle (or inside a city) for its
    ``points``. Bunnies are creatures; so are others (robots, penguins, aliens), and only a
    bunny meets a pink box."""

    species: str = "bunny"
    """``bunny`` or the name of another kind of creature."""

    @property
    def is_bunny(self) -> bool:
        return self.species == "bunny"


class CitySpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """An Odyssey structure (a city: a horizontal card) in the Center Circle, worth its
    ``points``, housing up to ``capacity`` creatures (its occupants)."""

    capacity: int = 0


class ListEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One ``[[list]]`` entry of a personal deck: copies of a card defined in another deck
    file of the library, named by its Card Identification Number (``code``) or its ``id``."""

    card: str
    copies: int = 1


class Prices(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """What the market charges per card (money)."""

    cabbage: int
    water: int
    carrot: int


class Printing(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """How another printing of the card differs: any field given replaces the default one."""

    numbers: str | None = None
    text: str | None = None
    effects: list[OneEffect] | None = None
    bunny: BunnyFace | None = None
    source: str | None = None


class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One ``[[card]]`` entry of a deck file: a card definition and the card numbers that
    carry it."""

    id: str
    """Unique name of the definition, lower-case words joined by ``-`` (``fluorine-gas``)."""
    name: str
    """The card's title as catalogued."""
    numbers: str | None = None
    """Card numbers of this definition, e.g. ``"44"``, ``"16-20"``, ``"1001-1005,1010"``.
    Omitted in a pool deck (Odyssey), whose cards are numbered when a deck is built."""
    code: str | None = None
    """Odyssey's Card Identification Number: two letters and two numbers (``WB07``); every
    card of a personal deck has one, and it names the card in records."""
    copies: int | None = None
    """How many copies of the card a personal deck holds (personal decks only)."""
    type: CardType
    pink_box: bool = False
    """Needs a bunny in the circle to be used (KinderBunnies' pink star too)."""
    aggressive: bool | None = None
    """Aggressive card; None: the same as ``pink_box`` (Choose A Carrot says false)."""
    keep_needs_bunny: bool = False
    """A pink box with a pink circle: a bunny is needed to save the card and to keep it."""
    green_box: bool = False
    """Odyssey: needs a city in the Center Circle."""
    yellow_box: bool = False
    """Odyssey: needs three or more players in the game."""
    cost: dict[str, int] = {}
    """Odyssey's card cost: hexagons per Resource colour (``white`` = any colour)."""
    points: int | None = None
    """Civ points of a city or creature (Odyssey)."""
    resource: str | None = None
    """Odyssey: the colour a Resource card pays (one of the set's colours)."""
    creature: CreatureSpec | None = None
    """Odyssey: the card is a creature (a bunny or another one)."""
    city: CitySpec | None = None
    """Odyssey: the card is a city (a structure of the Center Circle)."""
    tags: list[str] = []
    """Free words other cards refer to (``weapon``, ``feed``, ``roaches``...)."""
    dice: list[str] = []
    """The dice printed on the card (for display; the effects name the dice they roll)."""
    bunny: BunnyFace | None = None
    weapon: WeaponSpec | None = None
    feed: FeedSpec | None = None
    modifier: ModifierSpec | None = None
    money: int | None = None
    """A money card's value."""
    units: int | None = None
    """A small supply card's units."""
    carrot: str | None = None
    """A large carrot's number or letter; on a small carrot card, the carrot it names."""
    market: Prices | None = None
    """The starter card's opening prices."""
    effects: list[OneEffect] = []
    text: str = ""
    """What the card does, in warren's own words (never the printed text)."""
    source: str = ""
    """Where the facts come from (docs/card-facts.md section and row)."""
    printings: dict[str, Printing] = {}
    """Other printings of the card and how they differ (``[card.printings.2002]``)."""


class DeckHeader(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The ``[deck]`` table of a deck file."""

    id: str
    title: str
    kind: Literal["fixed", "pool", "personal"] = "fixed"
    """``fixed``: every card is numbered and all are played (Quest, KinderBunnies);
    ``pool``: definitions players build their own decks from (Odyssey);
    ``personal``: one player's own deck (Odyssey): card definitions, each with its code and
    its ``copies``, and ``[[list]]`` entries for copies of cards defined elsewhere."""
    numbers: str | None = None
    """The card-number range this deck owns (``"1-110"``); every card must fall in it."""
    source: str = ""


class DeckFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A whole deck file."""

    format: int
    deck: DeckHeader
    card: list[CardEntry] = []
    listed: list[ListEntry] = msgspec.field(default_factory=list, name="list")
    """A personal deck's ``[[list]]``: copies of cards defined in other deck files."""


class DieSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One die of a set."""

    sides: int
    colour: str = ""
    zero_is_ten: bool = False
    """A d10 numbered 0-9 read with 0 as 10 (KinderBunnies): faces are 1..10 either way."""
    same_as: str | None = None
    """Played with another die of the set (the Red d12 with the Orange one until the Red
    deck is owned)."""


class SetEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A deck set: the decks played together and what they share."""

    title: str
    decks: list[str]
    colours: list[str] = []
    kinds: list[str] = []
    dice: dict[str, DieSpec] = {}
    source: str = ""


class SetFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A set file: ``[set.<name>]`` tables."""

    format: int
    set: dict[str, SetEntry]


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """A resolved card definition: one printing chosen, effects filled in, numbers parsed.

    What the engine reads during a game. ``aggressive`` is decided; ``effects`` always hold
    the full action (a plain weapon's attack is made from its ``weapon`` table).
    """

    id: str
    name: str
    deck: str
    numbers: tuple[int, ...]
    type: CardType
    pink_box: bool
    aggressive: bool
    keep_needs_bunny: bool
    green_box: bool
    yellow_box: bool
    cost: dict[str, int]
    points: int | None
    code: str | None
    copies: int | None
    resource: str | None
    creature: CreatureSpec | None
    city: CitySpec | None
    tags: tuple[str, ...]
    dice: tuple[str, ...]
    bunny: BunnyFace | None
    weapon: WeaponSpec | None
    feed: FeedSpec | None
    modifier: ModifierSpec | None
    money: int | None
    units: int | None
    carrot: str | None
    market: Prices | None
    effects: tuple[OneEffect, ...]
    text: str
    source: str
    printing: str
    """The printing this record follows (``current`` unless another was chosen)."""

    @property
    def is_bunny(self) -> bool:
        return self.bunny is not None

    @property
    def is_weapon(self) -> bool:
        return self.weapon is not None

    @property
    def is_modifier(self) -> bool:
        return self.modifier is not None

    @property
    def large(self) -> bool:
        """Shuffled into the draw pile."""
        return self.type in LARGE_TYPES
