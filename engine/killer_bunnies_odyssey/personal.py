"""Personal decks: a player's own deck of cards (Killer Bunnies Odyssey).

In Odyssey every player brings a deck of his own, of at least so many cards (Odyssey §Getting
Started: 60), built from any cards he owns. A deck is a deck file of ``kind = "personal"``
in the catalogue format: ``[[card]]`` definitions, each with its Card Identification Number
(``code``) and how many ``copies`` the deck holds, and ``[[list]]`` entries for copies of
cards defined in other deck files of the library (a deck built from several starters).

This module turns such a file into a deck list (code -> copies), checks it (size, cards
the library does not know, codes defined twice with different meanings) and gives its
content hash: sha256 over the list and the definitions of its cards, prose left out, so a
record that names the hash is not replayed under other cards. Every problem is a
:class:`DeckError` naming the file, the line where that can be found, and the reason.

Reading files is I/O at the boundary, like the catalogue loader; nothing here draws a
random number.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from pathlib import Path

import msgspec

from engine.killer.catalogue.loader import (
    SINCE_PERSONAL_DECKS,
    CatalogueError,
    build_catalogue,
    deck_from_data,
    parse_toml,
    read_text,
    without_defaults,
)
from engine.killer.catalogue.schema import Card, DeckFile, SetEntry
from engine.rules import WarrenError


class DeckError(WarrenError):
    """A personal deck that cannot be played: the file, the line (where known) and why."""

    def __init__(self, path: str, line: int | None, reason: str) -> None:
        place = path if line is None else f"{path}:{line}"
        super().__init__(f"{place}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class PersonalDeck(msgspec.Struct, frozen=True, kw_only=True):
    """A checked personal deck."""

    id: str
    title: str
    path: str
    cards: dict[str, int]
    """Card Identification Number -> copies in the deck."""
    content_hash: str

    @property
    def size(self) -> int:
        return sum(self.cards.values())


# -- where in the file ------------------------------------------------------------------------

_TABLE = re.compile(r"^\s*\[\[\s*(card|list)\s*\]\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
_FIELD = re.compile(r"\$\.([A-Za-z0-9_]+)")


def _blocks(text: str, table: str) -> list[tuple[int, int]]:
    """(first line, last line) of every ``[[table]]`` block, 1-based."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if (m := _TABLE.match(line)) and m.group(1) == table]
    heads = [i for i, line in enumerate(lines) if _TABLE.match(line) or line.lstrip().startswith("[")]
    out = []
    for start in starts:
        later = [h for h in heads if h > start]
        end = (later[0] - 1) if later else len(lines) - 1
        out.append((start + 1, end + 1))
    return out


def _key_line(text: str, block: tuple[int, int], key: str | None) -> int:
    """The line of ``key`` inside a block (the block's first line if it is not there)."""
    if key is None:
        return block[0]
    lines = text.splitlines()
    for number in range(block[0], block[1] + 1):
        m = _KEY.match(lines[number - 1])
        if m and m.group(1) == key:
            return number
    return block[0]


def card_line(text: str, card: str | None, reason: str = "") -> int | None:
    """The line of a ``[[card]]`` named by id (or ``#N``, its place in the file), at the
    field the reason names (msgspec's ``$.field``), else where the block starts."""
    if card is None:
        return None
    blocks = _blocks(text, "card")
    block: tuple[int, int] | None = None
    if card.startswith("#") and card[1:].isdigit():
        index = int(card[1:]) - 1
        block = blocks[index] if 0 <= index < len(blocks) else None
    else:
        lines = text.splitlines()
        wanted = re.compile(r'^\s*id\s*=\s*["\']' + re.escape(card) + r'["\']')
        for b in blocks:
            if any(wanted.match(lines[n - 1]) for n in range(b[0], b[1] + 1)):
                block = b
                break
    if block is None:
        return None
    m = _FIELD.search(reason)
    return _key_line(text, block, m.group(1) if m else _named_key(text, block, reason))


def _named_key(text: str, block: tuple[int, int], reason: str) -> str | None:
    """The first key of the block the reason names as a word (``code 'M1' is not...``)."""
    lines = text.splitlines()
    keys = [m.group(1) for n in range(block[0], block[1] + 1) if (m := _KEY.match(lines[n - 1]))]
    best: tuple[int, str] | None = None
    for key in keys:
        found = re.search(r"\b" + re.escape(key) + r"\b", reason)
        if found and (best is None or found.start() < best[0]):
            best = (found.start(), key)
    return None if best is None else best[1]


def list_line(text: str, index: int, key: str | None = None) -> int | None:
    """The line of the ``index``-th (0-based) ``[[list]]`` entry, at ``key`` if given."""
    blocks = _blocks(text, "list")
    if not 0 <= index < len(blocks):
        return None
    return _key_line(text, blocks[index], key)


def _line_of_key(text: str, key: str) -> int | None:
    """The line of a top-level key, or of a ``[key]`` table."""
    table = re.compile(r"^\s*\[\s*" + re.escape(key) + r"\s*[\].]")
    for number, line in enumerate(text.splitlines(), start=1):
        m = _KEY.match(line)
        if (m and m.group(1) == key) or table.match(line):
            return number
    return None


def _toml_line(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


# -- reading ----------------------------------------------------------------------------------


def read_deck_text(path: str | Path) -> tuple[str, DeckFile]:
    """A personal deck file's text and its validated contents (DeckError on any problem)."""
    p = Path(path)
    try:
        # Read as warily as a record: a regular file, bounded in size, UTF-8 (loader.read_text).
        text = read_text(p)
    except CatalogueError as exc:
        raise DeckError(str(p), None, exc.reason) from None
    try:
        data = parse_toml(p, text)
        if "set" in data and "deck" not in data:
            raise DeckError(str(p), _line_of_key(text, "set") or 1,
                            "this is a set file, not a player's deck file ([deck] with kind = "
                            "\"personal\")")
        deck = deck_from_data(str(p), data)
    except CatalogueError as exc:
        line = _toml_line(exc.reason) if "TOML" in exc.reason else card_line(text, exc.card, exc.reason)
        if line is None and exc.reason.startswith("[deck]"):
            line = _line_of_key(text, "deck") or 1
        if line is None and "[[list]] entry" in exc.reason:
            m = re.search(r"\[\[list\]\] entry (\d+)", exc.reason)
            field = _FIELD.search(exc.reason)
            line = list_line(text, int(m.group(1)) - 1, field.group(1) if field else None) if m else None
        reason = exc.reason if exc.card is None else f"card {exc.card!r}: {exc.reason}"
        raise DeckError(str(p), line, reason) from None
    if deck.deck.kind != "personal":
        raise DeckError(str(p), _line_of_key(text, "kind") or _line_of_key(text, "deck"),
                        f"a player's deck file has kind = \"personal\" in its [deck] table, not "
                        f"{deck.deck.kind!r}")
    return text, deck


def resolve_own_cards(path: str, text: str, deck: DeckFile, set_name: str,
                      entry: SetEntry) -> dict[str, Card]:
    """The deck file's own definitions, resolved against the set (its colours and dice),
    by code."""
    single = msgspec.structs.replace(entry, decks=[deck.deck.id])
    try:
        catalogue = build_catalogue(f"{set_name}:{deck.deck.id}", single, {deck.deck.id: (path, deck)})
    except CatalogueError as exc:
        raise DeckError(path, card_line(text, exc.card, exc.reason),
                        exc.reason if exc.card is None else f"card {exc.card!r}: {exc.reason}") from None
    return dict(catalogue.by_code)


def _comparable(card: Card) -> bytes:
    record = without_defaults(msgspec.to_builtins(card), SINCE_PERSONAL_DECKS)
    for prose in ("text", "source", "copies", "deck"):
        record.pop(prose, None)
    return msgspec.json.encode(record, order="sorted")


def same_card(a: Card, b: Card) -> bool:
    """Two definitions that play the same (wording, source and copies aside)."""
    return _comparable(a) == _comparable(b)


def deck_list(path: str, text: str, deck: DeckFile, own: Mapping[str, Card],
              known: Callable[[str], Card | None]) -> dict[str, int]:
    """Code -> copies: the deck's own cards and its ``[[list]]`` entries, each of which must
    name a card the library knows (by code or by id)."""
    cards: dict[str, int] = {}
    for code, card in own.items():
        cards[code] = cards.get(code, 0) + (card.copies or 0)
    for index, item in enumerate(deck.listed):
        found = own.get(item.card) or known(item.card)
        if found is None or found.code is None:
            raise DeckError(path, list_line(text, index, "card"),
                            f"unknown card {item.card!r}: no deck file of the library defines it")
        if item.copies < 1:
            raise DeckError(path, list_line(text, index, "copies"),
                            f"copies of {item.card!r} must be 1 or more, not {item.copies}")
        cards[found.code] = cards.get(found.code, 0) + item.copies
    return dict(sorted(cards.items()))


def content_hash(cards: Mapping[str, int], definitions: Mapping[str, Card]) -> str:
    """sha256 over the deck list and the definitions of its cards (prose left out)."""
    body = {"cards": dict(sorted(cards.items())),
            "definitions": {code: msgspec.json.decode(_comparable(definitions[code]))
                            for code in sorted(cards)}}
    return hashlib.sha256(msgspec.json.encode(body, order="sorted")).hexdigest()


def check_size(path: str, text: str, cards: Mapping[str, int], minimum: int,
               maximum: int | None = None) -> None:
    """A deck's size within the game's minimum and, where the game reads no larger deck, its
    maximum."""
    total = sum(cards.values())
    if total < minimum:
        raise DeckError(path, _line_of_key(text, "deck"),
                        f"the deck holds {total} cards; a deck holds at least {minimum}")
    if maximum is not None and total > maximum:
        raise DeckError(path, _line_of_key(text, "deck"),
                        f"the deck holds {total} cards; warren reads a deck of at most {maximum}")


def read_personal_deck(path: str | Path, set_name: str, entry: SetEntry,
                       known: Callable[[str], Card | None],
                       minimum: int, maximum: int | None = None) -> tuple[PersonalDeck, dict[str, Card]]:
    """Read, resolve and check one personal deck file (its size within ``minimum`` and
    ``maximum``).

    ``known`` finds a card of the library by code or id (for ``[[list]]`` entries and to
    refuse a code the file defines differently from the library). Returns the deck and its
    own definitions by code."""
    p = str(path)
    text, deck = read_deck_text(path)
    own = resolve_own_cards(p, text, deck, set_name, entry)
    for code, card in own.items():
        other = known(code)
        if other is not None and other.deck != deck.deck.id and not same_card(card, other):
            raise DeckError(p, card_line(text, card.id), f"card {card.id!r}: code {code} is already "
                            f"card {other.id!r} of deck {other.deck!r}, which plays differently")
    cards = deck_list(p, text, deck, own, known)
    check_size(p, text, cards, minimum, maximum)

    def definition(code: str) -> Card:
        found = own.get(code) or known(code)
        assert found is not None  # deck_list has checked every code
        return found

    definitions = {code: definition(code) for code in cards}
    return (PersonalDeck(id=deck.deck.id, title=deck.deck.title, path=p, cards=cards,
                         content_hash=content_hash(cards, definitions)), own)

