"""Where Killer Bunnies Quest finds its cards, and the per-game card tables it plays with.

The Blue Starter box's deck files live beside this module (``cards/*.toml``). A user's own
deck files (boosters, house cards) are found in the folders named by the environment
variable ``WARREN_DECKS`` (separated like ``PATH``) and in folders added with
:func:`use_deck_folders`; a record names them in its ``extra_decks`` option. Reading those
files is the one piece of I/O the ruleset does, at set-up, once per catalogue.

A state holds only the catalogue's key (a string), so it stays codec-friendly; the
:class:`Deck` for a key is kept here, built on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import Catalogue, DeckLibrary
from engine.killer.catalogue.schema import BunnyFace, Card
from engine.killer.catalogue.shelf import DeckShelf
from engine.killer.hooks import HookRegistry
from engine.killer.interpreter import Interpreter
from engine.killer_bunnies_quest.options import QuestOptions
from engine.rules import WarrenError

if TYPE_CHECKING:
    from engine.killer_bunnies_quest.events import Play
    from engine.killer_bunnies_quest.state import Ctx, QuestState

CARDS_DIR = Path(__file__).resolve().parent / "cards"
"""The Blue Starter box's deck files."""

HOOKS: HookRegistry[Callable[..., None]] = HookRegistry("killer-bunnies-quest")
"""The named hooks Quest's cards may use, filled by the card interpreter (cards.py) when
the ruleset is imported: a deck set naming a hook nobody registered is refused."""
QUEST: Interpreter[QuestState, Ctx, Play] = Interpreter("killer-bunnies-quest")
"""What each primitive does in Quest (engine.killer.interpreter): registered by cards.py."""

SHELF: DeckShelf[DeckLibrary] = DeckShelf(CARDS_DIR, DeckLibrary)
"""Quest's deck folders and their library (engine.killer.catalogue.shelf)."""
DECKS: dict[str, Deck] = SHELF.cache
"""The decks built from the library, by key (emptied when the library is read again)."""
use_deck_folders = SHELF.add
folders = SHELF.folders
library = SHELF.library


def key_of(opts: QuestOptions) -> str:
    return "|".join([opts.deck_set, opts.printing, "+".join(opts.extra_decks)])


def deck_for(opts: QuestOptions) -> Deck:
    """The cards a game with these options plays with (refused if the record names another
    content hash than the deck files give now)."""
    key = key_of(opts)
    deck = DECKS.get(key)
    if deck is None:
        catalogue = library().catalogue(opts.deck_set, opts.printing, opts.extra_decks)
        unplayed = QUEST.unplayed(e for c in catalogue.by_id.values() for e in c.effects)
        if unplayed:
            users = sorted(c.id for c in catalogue.by_id.values() for e in fx.walk(list(c.effects))
                           if fx.tag_of(e) in unplayed)
            raise WarrenError(f"deck set {opts.deck_set!r} uses effects Killer Bunnies Quest does "
                              f"not play: {', '.join(unplayed)} (cards: {', '.join(users)})")
        missing = HOOKS.missing(catalogue.hooks())
        if missing:
            users = sorted(c.id for c in catalogue.by_id.values()
                           for e in fx.every(fx.walk(list(c.effects)), fx.Hook) if e.name in missing)
            raise WarrenError(f"deck set {opts.deck_set!r} uses hooks Killer Bunnies Quest does not "
                              f"implement: {', '.join(missing)} (cards: {', '.join(users)})")
        deck = DECKS[key] = Deck(key, catalogue)
    if opts.catalogue is not None and opts.catalogue != deck.catalogue.content_hash \
            and opts.catalogue not in deck.catalogue.earlier_hashes:  # read corrected (R-KBQ-29)
        raise WarrenError(
            f"this record was played with the cards whose content hash is {opts.catalogue[:12]}..., "
            f"but deck set {opts.deck_set!r} ({opts.printing} printing) now gives "
            f"{deck.catalogue.content_hash[:12]}...: the deck files changed, so the record is "
            "not replayed under other cards (restore the deck files it was played with)")
    return deck


def deck_by_key(key: str) -> Deck:
    """The deck of a state's key (built again in a fresh process, e.g. after a snapshot)."""
    try:
        return DECKS[key]
    except KeyError:
        deck_set, printing, extra = key.split("|")
        return deck_for(msgspec.convert({"deck_set": deck_set, "printing": printing,
                                         "extra_decks": [d for d in extra.split("+") if d]},
                                        QuestOptions))


class Deck:
    """A catalogue and the per-card tables the rules read in their hot paths."""

    __slots__ = ("aggressive", "bunny", "catalogue", "key", "kind", "large", "modifier_cards",
                 "piles", "pink", "rules", "saved_types", "takes", "triplets", "type",
                 "value", "weapon_level")

    def __init__(self, key: str, catalogue: Catalogue) -> None:
        self.key = key
        self.catalogue = catalogue
        cards = catalogue.by_number
        self.type: dict[int, str] = {n: c.type for n, c in cards.items()}
        self.pink: dict[int, bool] = {n: c.pink_box for n, c in cards.items()}
        self.aggressive: dict[int, bool] = {n: c.aggressive for n, c in cards.items()}
        self.bunny: dict[int, BunnyFace] = {n: c.bunny for n, c in cards.items() if c.bunny}
        self.weapon_level: dict[int, int] = {n: c.weapon.level for n, c in cards.items()
                                             if c.weapon is not None}
        self.value: dict[int, int] = {n: (c.units or c.money or 0) for n, c in cards.items()
                                      if c.units is not None or c.money is not None}
        self.large: frozenset[int] = frozenset(n for n, c in cards.items() if c.large)
        self.modifier_cards: frozenset[int] = frozenset(n for n, c in cards.items() if c.modifier)
        self.kind: dict[int, str] = {n: kind_of(c) for n, c in cards.items()}
        self.rules: dict[int, str] = {}
        """Card number -> its card rule id (filled as the rules ask: engine.killer_bunnies_quest.cards)."""
        self.piles: dict[str, list[int]] = {}
        """The set-up's piles, ascending (filled at the first set-up:
        engine.killer_bunnies_quest.handlers.setup)."""
        self.takes: dict[int, frozenset[str]] = {}
        """Card number -> the choices a play of it may name (filled as the rules ask:
        engine.killer_bunnies_quest.cards.check_card_play)."""
        self.triplets: dict[tuple[int, ...], bool] = {}
        """A player's bunnies in the circle -> whether they make a triplet (filled as the
        rules ask: engine.killer_bunnies_quest.table.has_triplet)."""

    def card(self, number: int) -> Card:
        return self.catalogue.by_number.get(number) or self.catalogue.card(number)

    def effects(self, number: int) -> tuple[fx.AnyEffect, ...]:
        return (self.catalogue.by_number.get(number) or self.catalogue.card(number)).effects

    def is_weapon(self, number: int) -> bool:
        return number in self.weapon_level

    def carrot_label(self, number: int) -> str:
        label = self.catalogue.card(number).carrot
        assert label is not None, f"card {number} is not a carrot"
        return label


def kind_of(card: Card) -> str:
    """What a card is, in one word, for views and statistics."""
    if card.bunny is not None:
        return "bunny"
    if card.weapon is not None:
        return "weapon"
    if card.modifier is not None:
        return "modifier"
    if card.feed is not None:
        return "feed"
    return card.type


def deck(state: QuestState) -> Deck:
    """The cards of the game ``state`` is a position of."""
    try:
        return DECKS[state.deck]
    except KeyError:
        return deck_by_key(state.deck)
