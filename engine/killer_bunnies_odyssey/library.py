"""Where Odyssey finds its cards and its players' decks, and the card tables of one game.

warren's six starter decks live beside this module (``decks/*.toml``, warren's own cards:
docs/odyssey-decks.md). A table playing other cards (the publisher's, house cards) writes
personal deck files in the same format and puts them in a folder named by ``WARREN_DECKS``
(separated like ``PATH``) or added with :func:`use_deck_folders`. Every personal deck file of
the library is read against the ``odyssey`` set (its six colours and its dice), and every
card is known by its Card Identification Number, one meaning per code.

A game's header names each player's deck (``decks``), its list and its content hash
(``deck_lists``, ``deck_hashes``: ODY-DECK-2). :func:`table_for` builds the per-game card
tables from them: the list comes from the header when it has one (so a record carries its
decks with it), the definitions from the library; a list or a definition that changed is
refused rather than replayed under other cards. A state holds only the table's key.

Reading the deck files is the one piece of I/O the ruleset does, once per library.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.loader import Catalogue, CatalogueError, DeckLibrary
from engine.killer.catalogue.schema import Card, DeckFile, SetEntry
from engine.killer.catalogue.shelf import DeckShelf
from engine.killer_bunnies_odyssey.numbers import DECK_MAXIMUM, DECK_MINIMUM
from engine.killer_bunnies_odyssey.options import OdysseyOptions
from engine.killer_bunnies_odyssey.personal import DeckError, PersonalDeck, content_hash, read_personal_deck
from engine.rules import WarrenError

DECKS_DIR = Path(__file__).resolve().parent / "decks"
"""warren's own starter decks and the ``odyssey`` set file."""
SET_NAME = "odyssey"

SHELF: DeckShelf[Library] = DeckShelf(DECKS_DIR, lambda where: Library(where))
"""Odyssey's deck folders and their library (engine.killer.catalogue.shelf)."""
_tables: dict[str, Table] = SHELF.cache
"""The tables of decks built from the library, by key (emptied when it is read again)."""
use_deck_folders = SHELF.add
folders = SHELF.folders
library = SHELF.library


class Library:
    """Every personal deck file found, resolved as one catalogue, and each deck's list."""

    def __init__(self, where: Sequence[Path]) -> None:
        files = DeckLibrary(where)
        if SET_NAME not in files.sets:
            raise WarrenError(f"no [set.{SET_NAME}] among the deck files of {DECKS_DIR}")
        self.set_entry: SetEntry = files.sets[SET_NAME][1]
        self.problems = files.problems
        """The users' deck files left out, with why (warren's own are never left out)."""
        personal = [d for d, (_, f) in files.decks.items() if f.deck.kind == "personal"]
        self.catalogue: Catalogue = self._catalogue(files, personal)
        self.by_id: dict[str, Card] = dict(self.catalogue.by_id)
        self.by_code: dict[str, Card] = dict(self.catalogue.by_code)
        self.decks: dict[str, PersonalDeck] = {}
        for deck_id in personal:
            path, deck = files.decks[deck_id]
            try:
                self.decks[deck_id] = self._deck(deck_id, path, deck)
            except CatalogueError as exc:
                if path in files.own_files:
                    raise
                files.skip(exc)

    def _catalogue(self, files: DeckLibrary, personal: list[str]) -> Catalogue:
        """The set with every personal deck that resolves: a user's deck whose cards do not
        (a bad colour, a code defined twice) is left out, not fatal to the others."""
        while True:
            try:
                return files.catalogue(SET_NAME, extra_decks=personal)
            except CatalogueError as exc:
                culprit = next((d for d in personal if files.decks[d][0] == exc.path
                                and exc.path not in files.own_files), None)
                if culprit is None:
                    raise
                personal.remove(culprit)
                files.skip(exc)

    def _deck(self, deck_id: str, path: str, deck: DeckFile) -> PersonalDeck:
        cards: dict[str, int] = {}
        for entry in deck.card:
            if entry.code is not None:
                cards[entry.code] = cards.get(entry.code, 0) + (entry.copies or 0)
        for index, item in enumerate(deck.listed):
            card = self.find(item.card)
            if card is None or card.code is None:
                raise CatalogueError(path, None, f"[[list]] entry {index + 1}: unknown card "
                                     f"{item.card!r}")
            if item.copies < 1:
                raise CatalogueError(path, None, f"[[list]] entry {index + 1}: copies of {item.card!r} "
                                     f"must be 1 or more, not {item.copies}")
            cards[card.code] = cards.get(card.code, 0) + item.copies
        cards = dict(sorted(cards.items()))
        return PersonalDeck(id=deck_id, title=deck.deck.title, path=path, cards=cards,
                            content_hash=content_hash(cards, {c: self.by_code[c] for c in cards}))

    def find(self, name: str) -> Card | None:
        """A card by its Card Identification Number or its id."""
        return self.by_code.get(name) or self.by_id.get(name)

    def check_file(self, path: str | Path) -> PersonalDeck:
        """Read and check a personal deck file against this library (``warren deck check``)."""
        deck, own = read_personal_deck(path, SET_NAME, self.set_entry, self.find, DECK_MINIMUM,
                                       DECK_MAXIMUM)
        # Ids are unique across the library and the deck: a deck file that reuses another
        # file's deck id or card id would be left out of the library it was checked against.
        other = self.decks.get(deck.id)
        if other is not None and Path(other.path).resolve() != Path(path).resolve():
            raise DeckError(str(path), None, f"deck id {deck.id!r} is already the deck of {other.path}")
        for card in own.values():
            known = self.by_id.get(card.id)
            if known is not None and known.deck != deck.id:
                raise DeckError(str(path), None, f"card id {card.id!r} is already a card of deck "
                                f"{known.deck!r}")
        return deck

    def add_file(self, path: str | Path) -> PersonalDeck:
        """A personal deck file named by path (``--decks my-deck.toml``): checked, then its
        folder joins the library so that its cards are known from now on."""
        deck = self.check_file(path)
        if deck.id not in self.decks:
            use_deck_folders([Path(path).resolve().parent])
        return deck


def deck_list(name: str, opts: OdysseyOptions) -> dict[str, int]:
    """The list of deck ``name``: the header's, else the library's deck file."""
    if name in opts.deck_lists:
        return dict(sorted(opts.deck_lists[name].items()))
    lib = library()
    deck = lib.decks.get(name)
    if deck is None:
        raise WarrenError(f"ODY-DECK-1: no personal deck {name!r} in the deck library (known: "
                          f"{', '.join(sorted(lib.decks))}); add its deck file to a folder named "
                          "by WARREN_DECKS")
    return dict(deck.cards)


_hashes: dict[tuple[int, str, tuple[tuple[str, int], ...]], str] = {}


def deck_hash(name: str, cards: Mapping[str, int]) -> str:
    """The content hash of a deck list with the library's definitions (ODY-DECK-2); computed
    once per list and library."""
    lib = library()
    memo = (id(lib), name, tuple(sorted(cards.items())))
    found = _hashes.get(memo)
    if found is not None:
        return found
    definitions: dict[str, Card] = {}
    for code in cards:
        card = lib.by_code.get(code)
        if card is None:
            raise WarrenError(f"ODY-DECK-1: deck {name!r} holds card {code}, which no deck file "
                              "of the library defines")
        definitions[code] = card
    _hashes[memo] = content_hash(cards, definitions)
    return _hashes[memo]


def header_fields(opts: OdysseyOptions) -> dict[str, object]:
    """What a new record's header carries: every named deck's list and content hash."""
    lists = {name: deck_list(name, opts) for name in dict.fromkeys(opts.decks)}
    hashes = {name: opts.deck_hashes.get(name) or deck_hash(name, cards) for name, cards in lists.items()}
    return {"deck_lists": lists, "deck_hashes": hashes}


def table_for(opts: OdysseyOptions) -> Table:
    """The card tables of a game with these options (cached by the decks' hashes)."""
    if not opts.decks:
        raise WarrenError("ODY-DECK-1: a game names at least one deck (option decks)")
    lists: dict[str, dict[str, int]] = {}
    hashes: dict[str, str] = {}
    for name in dict.fromkeys(opts.decks):
        cards = deck_list(name, opts)
        size = sum(cards.values())
        if size < DECK_MINIMUM:
            raise WarrenError(f"ODY-DECK-1: deck {name!r} holds {size} cards; a deck holds at "
                              f"least {DECK_MINIMUM}")
        if size > DECK_MAXIMUM:
            raise WarrenError(f"ODY-DECK-1: deck {name!r} holds {size} cards; warren reads a deck "
                              f"of at most {DECK_MAXIMUM} (R-ODY-4)")
        if any(n < 1 for n in cards.values()):
            raise WarrenError(f"ODY-DECK-1: deck {name!r} lists a card with fewer than one copy")
        found = deck_hash(name, cards)
        named = opts.deck_hashes.get(name)
        if named is not None and named != found:
            raise WarrenError(
                f"ODY-DECK-2: this record was played with deck {name!r} of content hash "
                f"{named[:12]}..., but its list and the deck files now give {found[:12]}...: the "
                "cards changed, so the record is not replayed under other cards (restore the deck "
                "files it was played with)")
        lists[name], hashes[name] = cards, found
    key = "|".join(f"{name}:{hashes[name]}" for name in opts.decks)
    table = _tables.get(key)
    if table is None:
        table = _tables[key] = Table(key, list(opts.decks), lists, hashes, library())
    return table


def table_by_key(key: str, opts: OdysseyOptions) -> Table:
    """The table of a state's key (built again in a fresh process, e.g. after a snapshot)."""
    table = _tables.get(key)
    return table if table is not None else table_for(opts)


class Table:
    """The cards at one table, by *kind*: kind k (1, 2, ...) is the k-th Card Identification
    Number in sorted order; kind 0 is a card nobody saw (engine.hidden). Hot paths read these
    lists instead of the catalogue."""

    def __init__(self, key: str, seat_decks: list[str], lists: Mapping[str, Mapping[str, int]],
                 hashes: Mapping[str, str], lib: Library) -> None:
        self.key = key
        self.hashes = dict(hashes)
        """Deck name -> the content hash of its list and cards (ODY-DECK-2)."""
        self.seat_decks = seat_decks
        """Deck name per deck slot; seat s plays ``seat_decks[s % len(seat_decks)]``."""
        self.lists = {name: dict(cards) for name, cards in lists.items()}
        codes = sorted({code for cards in lists.values() for code in cards})
        self.codes: tuple[str, ...] = ("?", *codes)
        self.kind: dict[str, int] = {code: i for i, code in enumerate(self.codes) if i}
        cards = [lib.by_code[c] for c in codes]
        self.cards: list[Card | None] = [None, *cards]
        self.type: list[str] = ["", *(c.type for c in cards)]
        self.name: list[str] = ["a card nobody saw", *(c.name for c in cards)]
        self.cost: list[dict[str, int]] = [{}, *(dict(c.cost) for c in cards)]
        self.pink: list[bool] = [False, *(c.pink_box for c in cards)]
        self.green: list[bool] = [False, *(c.green_box for c in cards)]
        self.aggressive: list[bool] = [False, *(c.aggressive for c in cards)]
        self.points: list[int] = [0, *((c.points or 0) for c in cards)]
        self.creature: list[bool] = [False, *(c.creature is not None for c in cards)]
        self.bunny: list[bool] = [False, *(c.creature is not None and c.creature.is_bunny for c in cards)]
        self.capacity: list[int | None] = [None, *((c.city.capacity if c.city else None) for c in cards)]
        self.resource: list[str | None] = [None, *(c.resource for c in cards)]
        self.effects: list[tuple[fx.AnyEffect, ...]] = [(), *(c.effects for c in cards)]
        self.modifier_points: list[int] = [
            0, *(((c.modifier.points or 0) if c.modifier else 0) for c in cards)]
        self.clover: list[int] = [0, *((c.modifier.clover if c.modifier else 0) for c in cards)]

    def deck_of(self, seat: int) -> str:
        return self.seat_decks[seat % len(self.seat_decks)]

    def seat_cards(self, seat: int) -> list[int]:
        """The kinds of every card of the seat's deck (a multiset, in code order)."""
        return [self.kind[code] for code, n in self.lists[self.deck_of(seat)].items() for _ in range(n)]

    def code(self, kind: int) -> str:
        return self.codes[kind]

    def label(self, kind: int) -> str:
        return f"{self.codes[kind]} {self.name[kind]}" if kind else "?"

    def is_city(self, kind: int) -> bool:
        return self.capacity[kind] is not None

    def of_type(self, kind: int, wanted: str) -> bool:
        """Card kinds by type word: ``special``, ``very_special``, ``resource`` or ``run``."""
        return self.type[kind] == wanted
