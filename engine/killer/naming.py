"""A card as a person types it: by its name, read back to the number (or code) the record
writes.

At the table nobody knows a card's catalogue number: they read its name. So wherever a
person types a card (``warren record``, the dispute box, ``dispute --action``) a Killer
Bunnies game reads it by name, case-insensitively (``blue perky bunny``), by a prefix that
only one name has (``blue perky``), by its name and number as warren writes it (``Blue
Perky Bunny (5)``), or by its number or code as before (``5``, ``WB07``). A typo is refused
with the nearest names (``no card 'Blue Perky Buny': did you mean Blue Perky Bunny (5)?``,
the standard library's difflib).

Identical cards (the four 1 Bunny Buck cards) share one name: the name reads as the lowest
numbered copy, and the game then picks the copy the player can play
(:meth:`engine.ruleset.Ruleset.settle_copies`), so the record names the one used.

Pure functions of the catalogue; no game state.
"""

from __future__ import annotations

import difflib
import re
from abc import abstractmethod
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

from engine.killer.catalogue.schema import Card
from engine.killer.words import CardWords
from engine.rules import WarrenError

NEAREST = 3
"""Names offered after a typo, at most."""
CUTOFF = 0.6
"""How alike a name must be to a typo to be offered (difflib's ratio)."""
WORD_CUTOFF = 0.75
"""How like a word of a name one mistyped word must be (``violt``, Violet) to suggest it:
stricter than for a whole name, a single short word matches too much by chance."""
_NAMED_NUMBER = re.compile(r"^(?P<name>.*\S)\s*\((?P<key>[^()]+)\)$")


def plain(text: str) -> str:
    """A name as compared: lower case, its punctuation dropped, one space between words
    (``The Mad, Mad Donnelaith Bakery`` and ``the mad mad donnelaith bakery`` are one)."""
    return " ".join(re.sub(r"[^\w\s#]", " ", text.lower().replace("'", "")).split())


class UnknownCard(WarrenError):
    """A card typed that no card of the game answers to."""


class CardReader:
    """Reads the cards of one catalogue (card number or code -> :class:`Card`) by name."""

    __slots__ = ("by_key", "by_name", "names")

    def __init__(self, cards: Mapping[Any, Card]) -> None:
        self.by_key = cards
        self.by_name: dict[str, list[Any]] = {}
        """A name as compared (:func:`plain`) -> every key (number or code) of a card of that
        name, lowest first."""
        for key in sorted(cards, key=lambda k: (str(type(k)), k)):
            self.by_name.setdefault(plain(cards[key].name), []).append(key)
        self.names: dict[str, str] = {plain(cards[keys[0]].name): cards[keys[0]].name
                                      for keys in self.by_name.values()}
        """A name as compared (:func:`plain`) -> the name as printed."""

    def said(self, key: Any) -> str:
        """``Blue Perky Bunny (5)``."""
        return f"{self.by_key[key].name} ({key})"

    def copies(self, key: Any) -> list[Any]:
        """Every key of a card with the same name as ``key`` (itself included)."""
        card = self.by_key.get(key)
        return [key] if card is None else list(self.by_name[plain(card.name)])

    def read(self, text: str) -> Any:
        """The key of the card ``text`` names (see the module docstring), or :class:`UnknownCard`."""
        typed = text.strip()
        key = self._key(typed)
        if key is not None:
            return key
        if plain(typed) in self.by_name:  # a name with brackets of its own: (Bunny Modifier)
            return self.by_name[plain(typed)][0]
        named = _NAMED_NUMBER.match(typed)
        if named is not None:
            key = self._key(named["key"].strip())
            if key is not None and plain(self.by_key[key].name) == plain(named["name"]):
                return key
            if key is not None:
                raise UnknownCard(f"card {named['key'].strip()} is {self.said(key)}, not {named['name']!r}")
            typed = named["name"]
        low = plain(typed)
        if low in self.by_name:
            return self.by_name[low][0]
        starting = [name for name in self.by_name if name.startswith(low)] if low else []
        if not starting and low:  # the words of the name that tell it apart: Aliens
            starting = [name for name in self.by_name if f" {low} " in f" {name} "]
        if len(starting) == 1:
            return self.by_name[starting[0]][0]
        if len(starting) > 1:
            shown = sorted(self.names[n] for n in starting)
            more = f" and {len(shown) - 6} more" if len(shown) > 6 else ""
            raise UnknownCard(f"{typed!r} begins the names of {', '.join(shown[:6])}{more}: type more of it")
        near = difflib.get_close_matches(low, list(self.by_name), n=NEAREST, cutoff=CUTOFF)
        if not near and " " not in low:  # one word mistyped: the names with a word like it
            like = difflib.get_close_matches(low, sorted({w for n in self.by_name for w in n.split()}),
                                             n=2, cutoff=WORD_CUTOFF)
            near = [n for n in self.by_name if set(n.split()) & set(like)][:NEAREST]
        offered = " or ".join(self.said(self.by_name[n][0]) for n in near)
        raise UnknownCard(f"no card {typed!r}" + (f": did you mean {offered}?" if near else ""))

    def _key(self, typed: str) -> Any:
        """The key itself: a number (``5``) or a code (``WB07``, any case), if it is a card's."""
        if typed.isdigit() and int(typed) in self.by_key:
            return int(typed)
        if typed.upper() in self.by_key:
            return typed.upper()
        return None

    def token(self, key: Any) -> str | None:
        """The card as a person types it, which :meth:`read` reads back to this very card:
        its name, with its number after where copies share the name (``Choose A Carrot
        (18)``); its apostrophes left out, which the notation would take for quotes."""
        card = self.by_key.get(key)
        if card is None:
            return None
        name = card.name.replace("'", "")
        return name if len(self.copies(key)) == 1 else f"{name} ({key})"

    def is_a_name(self, phrase: str) -> bool:
        """Is a phrase of several words a card's whole name (``Blue Sinister Bunny``, or
        ``Choose A Carrot (17)``)? The notation joins such words into one value."""
        low = plain(phrase)
        if low in self.by_name:
            return True
        if " " in low:  # the first words of one card's name alone: ``blue perky``
            begun = [name for name in self.by_name if name.startswith(low + " ")]
            if len(begun) == 1:
                return True
        named = _NAMED_NUMBER.match(phrase)
        if named is not None:
            key = self._key(named["key"].strip())
            return key is not None and plain(self.by_key[key].name) == plain(named["name"])
        return False


def read_card_fields(reader: CardReader, fields: frozenset[str], field: str, value: Any) -> Any:
    """A typed value of an action's field with its cards read by name (module docstring):
    a field that holds cards, given as words, becomes their numbers or codes; a number the
    catalogue lacks is left for the rules to refuse; any other field is left as typed."""
    if field not in fields:
        return value
    if isinstance(value, str):
        return _one(reader, value)
    if isinstance(value, list):
        return [_one(reader, v) if isinstance(v, str) else v for v in value]
    return value


_LIKE_A_KEY = re.compile(r"-?[A-Za-z]{0,3}\d+")
"""A number (17) or something written like a code (WB01, W1): never a name."""


def _one(reader: CardReader, typed: str) -> Any:
    if _LIKE_A_KEY.fullmatch(typed.strip()) or typed in ("?", "null"):
        key = reader._key(typed.strip())
        return typed if key is None else key  # a number or code no card has: the rules say why
    return reader.read(typed)


def settle(reader: CardReader, wanted: list[Any], held: list[Any]) -> list[Any]:
    """The cards ``wanted`` with each replaced, where it is not among ``held`` but another
    copy of it is, by that copy (each held copy used once): the copy the player has."""
    free = list(held)
    out = []
    for key in wanted:
        if key in free:
            free.remove(key)
            out.append(key)
            continue
        twin = next((c for c in reader.copies(key) if c in free), None)
        if twin is None:
            out.append(key)  # no copy of it is held: the rules say why
        else:
            free.remove(twin)
            out.append(twin)
    return out


@lru_cache(maxsize=64)
def reader_for(words: CardWords) -> CardReader:
    """The reader of one game's cards, built once per catalogue's words (a game's deck set)."""
    return CardReader(words.by_number)


def settle_event(reader: CardReader, event: Any, holding: Mapping[str, list[Any]]) -> Any:
    """``event`` with the cards of each field in ``holding`` settled on the copies held there
    (:func:`settle`): field -> the cards the actor holds for it."""
    import msgspec

    changes: dict[str, Any] = {}
    for field, held in holding.items():
        value = getattr(event, field, None)
        if isinstance(value, int) and not isinstance(value, bool):
            changes[field] = settle(reader, [value], list(held))[0]
        elif isinstance(value, list) and value:
            changes[field] = settle(reader, value, list(held))
    changes = {k: v for k, v in changes.items() if v != getattr(event, k)}
    return msgspec.structs.replace(event, **changes) if changes else event


_CARD_NAMED = re.compile(r"\bcard (\d+) \(([^()]+)\)")
_CARD_NUMBER = re.compile(r"\b(card|bunny) (\d+)\b")
_CODE_BARE = re.compile(r"(?<![(\w])([A-Z]{2}\d{2})\b(?!\))")
_CODE_NAMED = re.compile(r"\b([A-Z]{2}\d{2}) ([A-Z][\w'!,.-]*(?: [A-Z0-9][\w'!,./-]*)*)")


def cards_named(message: str, reader: CardReader) -> str:
    """A rule's message with its cards as the table names them, name first: ``card 24
    (Feed The Bunny 1/1)`` and ``card 24`` read ``Feed The Bunny 1/1 (24)``, ``bunny 6``
    reads ``Green Congenial Bunny (6)``, ``WG14 Thorn Sling`` reads ``Thorn Sling (WG14)``.
    A number no card has is left as it is."""
    message = _CARD_NAMED.sub(lambda m: f"{m[2]} ({m[1]})", message)

    def numbered(m: re.Match[str]) -> str:
        key = int(m[2])
        return reader.said(key) if key in reader.by_key else m[0]

    message = _CARD_NUMBER.sub(numbered, message)

    def coded(m: re.Match[str]) -> str:
        card = reader.by_key.get(m[1])
        if card is None or not m[2].startswith(card.name):
            return m[0]
        return f"{card.name} ({m[1]})" + m[2][len(card.name):]

    message = _CODE_NAMED.sub(coded, message)

    def bare(m: re.Match[str]) -> str:
        return reader.said(m[1]) if m[1] in reader.by_key else m[0]

    # a code on its own (not already after its name, in brackets): its name first
    return _CODE_BARE.sub(bare, message)


class CardsByName:
    """A Killer Bunnies game's cards read and written by name: mixed into its ruleset ahead
    of :class:`engine.ruleset.Ruleset`, given the fields of its actions that name cards
    (:attr:`card_fields`) and its cards' words (``card_words``). One implementation for the
    three games; a game adds only where its copies lie (``settle_copies``)."""

    card_fields: ClassVar[frozenset[str]] = frozenset()
    """The fields of the game's actions that name cards, which a person may type by name."""

    @abstractmethod
    def card_words(self) -> CardWords:
        """The words of this game's cards (its deck set, its decks)."""

    def card_reader(self) -> CardReader:
        """This game's cards read by name."""
        return reader_for(self.card_words())

    def copies(self, card: Any) -> list[Any]:
        return self.card_reader().copies(card)

    def read_value(self, tag: str, field: str, value: Any) -> Any:
        return read_card_fields(self.card_reader(), self.card_fields, field, value)

    def is_card_phrase(self, phrase: str) -> bool:
        return self.card_reader().is_a_name(phrase)

    def is_card_field(self, field: str) -> bool:
        return field in self.card_fields

    def card_token(self, card: object) -> str | None:
        return self.card_reader().token(card)

    def name_cards(self, message: str) -> str:
        return cards_named(message, self.card_reader())

    def card_text(self, card: object) -> str:
        """``Choose A Carrot (17)``, ``Technology (WB01)``: the name, its number or code after."""
        text = str(card)
        return self.card_words().card(int(text) if text.isdigit() else text)
