"""KinderBunnies' cards: the deck files beside this module, read once, and the tables of
each level.

The deck files (cards/*.toml, in the family kit's format) hold the Blue, Yellow, Pink and
Orange decks. A level (R-KIN-1) plays some of them: Beginner the Blue deck and carrots A-F,
Advanced the Blue and Yellow decks and carrots A-J, Really Advanced the same and the Orange
deck set aside. :class:`Cards` is the per-level table the rules read in their hot paths.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import Catalogue, DeckLibrary
from engine.killer.catalogue.schema import Card
from engine.kinderbunnies.numbers import BEGINNER_CARROTS
from engine.rules import WarrenError

CARDS_DIR = Path(__file__).resolve().parent / "cards"
SET = "kinderbunnies"


@cache
def catalogue() -> Catalogue:
    """The one KinderBunnies catalogue (all four decks)."""
    return one_effect_each(DeckLibrary([CARDS_DIR]).catalogue(SET))


def one_effect_each(cat: Catalogue) -> Catalogue:
    """KinderBunnies plays one effect per card (a turn's card does one thing, KIN-CARD-*): a
    card given several is refused when the deck loads, never played with its first alone."""
    several = sorted((n, c) for n, c in cat.by_number.items() if len(c.effects) > 1)
    if several:
        said = "; ".join(f"{c.name} ({n}) has {len(c.effects)}" for n, c in several)
        raise WarrenError(f"KinderBunnies plays one effect per card, and its deck files give some "
                          f"several: {said}. Give each card one effect (docs/catalogue.md)")
    return cat


def check_hash(named: str | None) -> None:
    """Refuse a record played with other cards than the deck files give now (R-KIN-1)."""
    have = catalogue().content_hash
    if named is not None and named != have:
        raise WarrenError(
            f"this record was played with the cards whose content hash is {named[:12]}..., but "
            f"KinderBunnies' deck files now give {have[:12]}...: the record is not replayed "
            "under other cards")


class Cards:
    """The cards of one level and what the rules read of each."""

    __slots__ = ("bad_news", "bucks", "bunnies", "by_tag", "carrot_cards", "carrot_of", "data",
                 "deck", "draw_pile", "effects", "immune", "in_game", "level", "name", "never_turn_card",
                 "not_kept", "orange", "orange_letter", "pink", "replays", "rerolls", "supply_kinds",
                 "yellow")

    def __init__(self, level: str, bad_news_in_beginner: bool) -> None:
        cat = catalogue()
        self.level = level
        cards = cat.by_number
        yellow_on = level != "beginner"
        self.yellow = yellow_on

        def in_draw(c: Card) -> bool:
            if c.deck == "blue":
                return True
            if c.deck == "yellow":
                return yellow_on or (bad_news_in_beginner and "bad-news" in c.tags)
            return False

        self.draw_pile: tuple[int, ...] = tuple(sorted(n for n, c in cards.items() if in_draw(c)))
        self.deck: dict[int, str] = {n: c.deck for n, c in cards.items()}
        self.name: dict[int, str] = {n: c.name for n, c in cards.items()}
        self.bucks: dict[int, int] = {n: c.money for n, c in cards.items() if c.money is not None}
        self.bunnies: frozenset[int] = frozenset(n for n, c in cards.items() if c.bunny is not None)
        self.immune: dict[int, tuple[str, ...]] = {
            n: tuple(c.bunny.immune_to) for n, c in cards.items()
            if c.bunny is not None and c.bunny.immune_to}
        self.pink: frozenset[int] = frozenset(n for n, c in cards.items() if c.pink_box)
        self.data: dict[int, Card] = dict(cards)
        self.effects: dict[int, fx.AnyEffect | None] = {
            n: (c.effects[0] if c.effects else None) for n, c in cards.items()}
        self.rerolls: tuple[int, ...] = tuple(
            n for n in self.draw_pile if fx.first([self.effects[n]], fx.RerollDie))
        self.replays: frozenset[int] = frozenset(
            n for n, e in self.effects.items() if fx.first([e], fx.ReplayDiscard))
        """Buy Back: the turn's card is still to come after it."""
        self.never_turn_card: frozenset[int] = frozenset(
            n for n, c in cards.items()
            if c.type in ("special", "very_special", "play_immediately", "money"))
        """Cards that are never the turn's card: answers, Bad News, Bunny Bucks."""
        self.bad_news: frozenset[int] = frozenset(
            n for n in self.draw_pile if "bad-news" in cards[n].tags)
        self.not_kept: frozenset[int] = frozenset(self.bucks) | self.bad_news
        """Cards that do not stay in the hand they are drawn to: Bucks and Bad News."""
        self.by_tag: dict[str, frozenset[int]] = {}
        for n, c in cards.items():
            for tag in c.tags:
                self.by_tag[tag] = self.by_tag.get(tag, frozenset()) | {n}
        self.supply_kinds: dict[int, tuple[str, ...]] = {}
        for n, c in cards.items():
            for e in fx.every(c.effects, fx.SettleFeed):
                self.supply_kinds[n] = tuple(e.kinds)
        letters = sorted(c.carrot for c in cards.values() if c.type == "carrot" and c.carrot)
        if level == "beginner":
            letters = [x for x in letters if x in BEGINNER_CARROTS]
        self.carrot_of: dict[str, int] = {c.carrot: n for n, c in cards.items()
                                          if c.type == "carrot" and c.carrot in letters}
        self.carrot_cards: tuple[int, ...] = tuple(self.carrot_of[x] for x in letters)
        self.orange: tuple[int, ...] = tuple(sorted(
            n for n, c in cards.items() if c.type == "magic_carrot")) if level == "really-advanced" else ()
        self.orange_letter: dict[int, str] = {n: cards[n].carrot or "" for n in self.orange}
        self.in_game: frozenset[int] = frozenset((*self.draw_pile, *self.carrot_cards, *self.orange))
        """Every card of this level's game (KIN-SET-1)."""

    def card(self, number: int) -> Card:
        card = self.data.get(number)
        return card if card is not None else catalogue().card(number)

    def effect(self, number: int) -> fx.AnyEffect | None:
        """The card's effect (every KinderBunnies card has at most one)."""
        return self.effects.get(number)

    def letter(self, carrot: int) -> str:
        return self.data[carrot].carrot or "?"

    def label(self, number: int) -> str:
        return f"{number} ({self.name.get(number, 'no such card')})"


@cache
def cards_for(level: str, bad_news_in_beginner: bool = False) -> Cards:
    return Cards(level, bad_news_in_beginner)
