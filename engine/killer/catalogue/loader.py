"""Reading deck files and set files, validating them, and resolving a catalogue.

The one place that touches files: ``read_deck_file`` and ``read_set_file`` read TOML with
the standard library's ``tomllib`` and validate it into the typed Structs of
``schema.py``; ``build_catalogue`` checks what the types cannot (numbers unique across the
set, dice, colours and kinds declared, a weapon's attack agreeing with its printed level,
die bands covering every face) and resolves one printing into :class:`Catalogue`. Every
error is a :class:`CatalogueError` naming the file, the card and the reason.

The content hash is sha256 over the canonical JSON of everything that decides play: the
set's decks, colours, kinds and dice, the printing, and every resolved card except its
prose (``text``, ``source``). Rewording a card's text does not change the hash; changing a
level, a number or an effect does, and a record that names the old hash is then reported
instead of being replayed under other cards.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from engine.codec import decode_hook
from engine.killer.catalogue import effects as fx
from engine.killer.catalogue.schema import (
    FORMAT,
    SMALL_TYPES,
    Card,
    CardEntry,
    DeckFile,
    DeckHeader,
    DieSpec,
    ListEntry,
    SetEntry,
    SetFile,
)
from engine.rules import WarrenError

ODYSSEY_FIELDS = ("code", "copies", "resource", "creature", "city")
"""Card fields Odyssey added to the catalogue (left out of the content hash when unset)."""

CURRENT = "current"
"""The default printing: the later card readings (docs/card-facts.md §1.6 item 7)."""

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
CARD_CODE = re.compile(r"^[A-Z]{2}[0-9]{2}$")
"""Odyssey's Card Identification Number: two letters, then two numbers (``WB07``)."""


class CatalogueError(WarrenError):
    """A deck or set file that cannot be used: which file (and line, where known), which
    card, and why."""

    def __init__(self, path: str, card: str | None, reason: str, line: int | None = None) -> None:
        place = path if line is None else f"{path}:{line}"
        where = f"{place}: card {card!r}" if card else place
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.card = card
        self.reason = reason
        self.line = line


# -- numbers ----------------------------------------------------------------------------------


def parse_numbers(spec: str) -> tuple[int, ...]:
    """``"16-20"`` -> (16, ..., 20); ``"44"``; ``"1001-1005,1010"``. ValueError if malformed."""
    out: list[int] = []
    for part in spec.replace(" ", "").split(","):
        if not part:
            raise ValueError(f"empty part in numbers {spec!r}")
        lo_s, sep, hi_s = part.partition("-")
        if not lo_s.isdigit() or (sep and not hi_s.isdigit()):
            raise ValueError(f"numbers {spec!r} are not N, N-M or a comma-separated list of those")
        lo = int(lo_s)
        hi = int(hi_s) if sep else lo
        if hi < lo:
            raise ValueError(f"range {part!r} runs backwards")
        out.extend(range(lo, hi + 1))
    if len(set(out)) != len(out):
        raise ValueError(f"numbers {spec!r} repeat a number")
    return tuple(out)


# -- files ------------------------------------------------------------------------------------


MAX_FILE_BYTES = 1 << 20
"""The largest deck or set file read (warren's largest is under 40 KB): a deck file is read
as warily as a record (``/dev/zero`` once read until memory ran out)."""
MAX_DEPTH = 16
"""How deeply tables and arrays may nest (the deepest a deck file needs is 5)."""
MAX_ENTRIES = 2000
"""The most ``[[card]]`` or ``[[list]]`` entries one file may hold."""
MAX_ID = 64
"""The longest deck id, card id or Card Identification Number."""


def read_text(path: Path) -> str:
    """A deck or set file's text: a regular file (never a FIFO, a device or a folder), at most
    :data:`MAX_FILE_BYTES`, UTF-8; anything else a :class:`CatalogueError` saying why."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CatalogueError(str(path), None, f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CatalogueError(str(path), None, "not a regular file (a deck file is a TOML file)")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise CatalogueError(str(path), None, f"larger than {MAX_FILE_BYTES // 1024} KiB: not a deck file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogueError(str(path), None, f"not UTF-8 text (byte {exc.start})") from None


def parse_toml(path: Path, text: str) -> dict[str, Any]:
    """The TOML of a deck or set file, nesting bounded (:data:`MAX_DEPTH`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError(str(path), None, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise CatalogueError(str(path), None, f"tables or arrays nested deeper than {MAX_DEPTH}") from None
    _check_depth(str(path), data)
    return data


def _check_depth(path: str, data: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    todo: list[tuple[Any, int]] = [(data, 0)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise CatalogueError(path, None, f"tables or arrays nested deeper than {MAX_DEPTH}")
        if isinstance(value, dict):
            todo.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            todo.extend((v, depth + 1) for v in value)


def _load_toml(path: Path) -> dict[str, Any]:
    return parse_toml(path, read_text(path))


def check_id(path: str, what: str, value: str, card: str | None = None) -> None:
    """Ids and codes name files, cards and decks in records and messages: lower-case words
    joined by ``-`` (codes: two letters and two numbers), at most :data:`MAX_ID` long."""
    if len(value) > MAX_ID:
        raise CatalogueError(path, card, f"{what} is {len(value)} characters long; at most {MAX_ID}")
    if not (_SLUG.match(value) or CARD_CODE.match(value)):
        raise CatalogueError(path, card, f"{what} {value!r} must be lower-case words joined by '-' "
                             "(letters a-z and digits)")


def _check_format(path: str, data: Mapping[str, Any]) -> None:
    version = data.get("format")
    if version != FORMAT:
        raise CatalogueError(path, None, f"format must be {FORMAT} (found {version!r})")


def deck_from_data(path: str, data: Mapping[str, Any]) -> DeckFile:
    """Validate a decoded deck file; each card is checked on its own so the error names it."""
    _check_format(path, data)
    unknown = sorted(set(data) - {"format", "deck", "card", "list"})
    if unknown:
        raise CatalogueError(path, None, f"unknown top-level key(s) {unknown}")
    try:
        header = msgspec.convert(data.get("deck"), DeckHeader)
    except msgspec.ValidationError as exc:
        raise CatalogueError(path, None, f"[deck]: {exc}") from None
    if not _SLUG.match(header.id) or len(header.id) > MAX_ID:
        raise CatalogueError(path, None, f"[deck]: the deck id {header.id[:MAX_ID]!r} must be lower-case "
                             f"words joined by '-' (letters a-z and digits), at most {MAX_ID} long")
    raw_cards = data.get("card", [])
    if not isinstance(raw_cards, list):
        raise CatalogueError(path, None, "card must be an array of tables ([[card]])")
    for key in ("card", "list"):
        count = len(data.get(key) or [])
        if count > MAX_ENTRIES:
            raise CatalogueError(path, None, f"{count} [[{key}]] entries; a deck file holds at most "
                                 f"{MAX_ENTRIES}")
    cards: list[CardEntry] = []
    for index, raw in enumerate(raw_cards):
        name = raw.get("id") if isinstance(raw, dict) else None
        label = str(name) if name else f"#{index + 1}"
        try:
            entry = msgspec.convert(raw, CardEntry, dec_hook=decode_hook)
        except msgspec.ValidationError as exc:
            raise CatalogueError(path, label[:MAX_ID], fx.said_at(exc)) from None
        check_id(path, "the card id", entry.id, label[:MAX_ID])
        cards.append(entry)
    raw_list = data.get("list", [])
    if not isinstance(raw_list, list):
        raise CatalogueError(path, None, "list must be an array of tables ([[list]])")
    if raw_list and header.kind != "personal":
        raise CatalogueError(path, None, "only a personal deck has a [[list]] of cards")
    listed: list[ListEntry] = []
    for index, raw in enumerate(raw_list):
        try:
            item = msgspec.convert(raw, ListEntry)
        except msgspec.ValidationError as exc:
            raise CatalogueError(path, None, f"[[list]] entry {index + 1}: {exc}") from None
        check_id(path, f"[[list]] entry {index + 1}: the card", item.card)
        listed.append(item)
    return DeckFile(format=FORMAT, deck=header, card=cards, listed=listed)


def read_deck_file(path: str | Path) -> DeckFile:
    """Read and validate one deck file."""
    p = Path(path)
    return deck_from_data(str(p), _load_toml(p))


def set_from_data(path: str, data: Mapping[str, Any]) -> SetFile:
    _check_format(path, data)
    try:
        return msgspec.convert(data, SetFile)
    except msgspec.ValidationError as exc:
        raise CatalogueError(path, None, str(exc)) from None


def read_set_file(path: str | Path) -> SetFile:
    """Read and validate one set file."""
    p = Path(path)
    return set_from_data(str(p), _load_toml(p))


# -- the resolved catalogue -------------------------------------------------------------------


class Catalogue:
    """Every card of one deck set in one printing, by number and by id; the set's dice,
    colours and kinds; and the content hash a record names."""

    __slots__ = ("base_set", "by_code", "by_id", "by_number", "colours", "content_hash", "decks",
                 "dice", "earlier_hashes", "kinds", "printing", "set_name", "title")

    def __init__(self, set_name: str, title: str, printing: str, decks: tuple[str, ...],
                 colours: tuple[str, ...], kinds: tuple[str, ...], dice: dict[str, DieSpec],
                 cards: list[Card], base_set: str | None = None) -> None:
        self.set_name = set_name
        self.base_set = base_set or set_name
        """The set file's name (``set_name`` adds the extra decks: ``blue-starter+house``)."""
        self.title = title
        self.printing = printing
        self.decks = decks
        self.colours = colours
        self.kinds = kinds
        self.dice = dice
        self.by_id: dict[str, Card] = {card.id: card for card in cards}
        self.by_number: dict[int, Card] = {n: card for card in cards for n in card.numbers}
        self.by_code: dict[str, Card] = {card.code: card for card in cards if card.code}
        """Odyssey: cards by their Card Identification Number."""
        self.content_hash = _content_hash(self)
        corrected: dict[str, frozenset[str]] = {}
        earlier: list[str] = []
        for fields in CORRECTIONS.values():  # the hash before each correction, latest first
            for tag, names in fields.items():
                corrected[tag] = corrected.get(tag, frozenset()) | names
            before = _content_hash(self, corrected)
            if before != self.content_hash and before not in earlier:
                earlier.append(before)
        self.earlier_hashes: tuple[str, ...] = tuple(earlier)
        """The hashes records played before a correction of warren's reading name for these
        same cards (:data:`CORRECTIONS`): read under the corrected cards."""

    def card(self, number: int) -> Card:
        """The definition of card ``number``; a WarrenError names an unknown number."""
        card = self.by_number.get(number)
        if card is None:
            raise WarrenError(f"no card number {number} in deck set {self.set_name!r}")
        return card

    def numbers(self, *types: str) -> list[int]:
        """Card numbers of the given types (every card if none given), ascending."""
        wanted = set(types)
        return sorted(n for n, c in self.by_number.items() if not wanted or c.type in wanted)

    def draw_pile(self) -> list[int]:
        """The large playing cards shuffled into the draw pile, ascending."""
        return sorted(n for n, c in self.by_number.items() if c.large)

    def hooks(self) -> set[str]:
        """Every hook name the cards use (a game package must implement each)."""
        return {e.name for c in self.by_id.values() for e in fx.walk(list(c.effects))
                if isinstance(e, fx.Hook)}

    def header_fields(self) -> dict[str, str]:
        """What a record's header names so that it replays under these cards."""
        return {"deck_set": self.base_set, "printing": self.printing,
                "catalogue": self.content_hash}


SINCE_PERSONAL_DECKS: dict[str, dict[str, Any]] = {
    "roll_bands": {"reaps": "player"},
    "roll_pattern": {"reaps": "player"},
}
"""Fields the format gained after Odyssey's personal decks were first hashed
(engine.killer_bunnies_odyssey.personal), with their defaults: left out there too."""

LATER_FIELDS: dict[str, dict[str, Any]] = {
    "roll_matches": {"target": None, "any_of": [], "need": 1, "then": [], "tries": 1},
    "bunny": {"immune_to": []},
    **SINCE_PERSONAL_DECKS,
}
"""Fields the format gained after catalogues were first hashed (for KinderBunnies), by the
primitive's ``do`` name (or ``bunny`` for a card's bunny table), with their defaults. At its
default such a field is left out of the content hash, so a catalogue that does not use it
keeps the hash its records name; a card that uses one hashes differently, as it must."""


def _without_later_defaults(value: Any, key: str | None = None,
                            fields: dict[str, dict[str, Any]] | None = None) -> Any:
    fields = LATER_FIELDS if fields is None else fields
    if isinstance(value, list | tuple):
        return [_without_later_defaults(v, None, fields) for v in value]
    if not isinstance(value, dict):
        return value
    later = fields.get(value.get("do", "") if "do" in value else (key or ""), {})
    return {k: _without_later_defaults(v, k, fields) for k, v in value.items()
            if not (k in later and v == later[k])}


def without_defaults(record: Any, fields: dict[str, dict[str, Any]]) -> Any:
    """``record`` (a card as builtins) without the ``fields`` left at their defaults: a
    format's later fields do not change the hash of cards that do not use them."""
    return _without_later_defaults(record, None, fields)


CORRECTIONS: dict[str, dict[str, frozenset[str]]] = {
    "R-KBQ-29": {"roll_bands": frozenset({"reaps"}), "roll_pattern": frozenset({"reaps"})},
}
"""Corrections of how warren reads a card (a ruling found a card read wrong), by the ruling
that says so: the fields of each primitive that the correction added to the card data. A
record names the content hash of the cards it was played with; one played before a
correction names the hash of the cards without these fields (:attr:`Catalogue.earlier_hashes`)
and is read under the corrected cards, not refused as if its deck files had changed."""


def _without(value: Any, fields: dict[str, frozenset[str]]) -> Any:
    if isinstance(value, list | tuple):
        return [_without(v, fields) for v in value]
    if not isinstance(value, dict):
        return value
    dropped = fields.get(value.get("do", ""), frozenset())
    return {k: _without(v, fields) for k, v in value.items() if k not in dropped}


def _content_hash(catalogue: Catalogue, before: dict[str, frozenset[str]] | None = None) -> str:
    """The cards' content hash; ``before``: as warren read them before the corrections that
    added these fields (:data:`CORRECTIONS`)."""
    cards = []
    for card in sorted(catalogue.by_id.values(), key=lambda c: c.id):
        record = _without_later_defaults(msgspec.to_builtins(card))
        if before:
            record = _without(record, before)
        record.pop("text", None)
        record.pop("source", None)
        for later in ODYSSEY_FIELDS:
            # fields added for Odyssey count only where a card has them, so that the hash of
            # a catalogue without them is what it was before they existed
            if record.get(later) is None:
                record.pop(later, None)
        cards.append(record)
    body = {
        "set": catalogue.set_name,
        "printing": catalogue.printing,
        "decks": list(catalogue.decks),
        "colours": list(catalogue.colours),
        "kinds": list(catalogue.kinds),
        "dice": msgspec.to_builtins(catalogue.dice),
        "cards": cards,
    }
    return hashlib.sha256(msgspec.json.encode(body, order="sorted")).hexdigest()


def build_catalogue(set_name: str, entry: SetEntry, decks: Mapping[str, tuple[str, DeckFile]],
                    printing: str = CURRENT, base_set: str | None = None) -> Catalogue:
    """Resolve deck set ``set_name`` (its decks taken from ``decks``: id -> (path, file)) in
    ``printing`` and validate it as a whole."""
    resolved: list[Card] = []
    owner: dict[int, tuple[str, str]] = {}
    seen_ids: dict[str, str] = {}
    seen_codes: dict[str, tuple[str, str]] = {}
    for deck_id in entry.decks:
        if deck_id not in decks:
            raise CatalogueError(f"set {set_name!r}", None,
                                 f"deck {deck_id!r} is not among the deck files read "
                                 f"(known: {', '.join(sorted(decks)) or 'none'})")
        path, deck = decks[deck_id]
        deck_range = set(parse_numbers(deck.deck.numbers)) if deck.deck.numbers else None
        for raw in deck.card:
            card = _resolve(path, deck.deck, raw, entry, printing)
            if card.id in seen_ids:
                raise CatalogueError(path, card.id, f"id already used in {seen_ids[card.id]}")
            seen_ids[card.id] = path
            if card.code is not None:
                if card.code in seen_codes:
                    raise CatalogueError(path, card.id, f"code {card.code} is already card "
                                         f"{seen_codes[card.code][1]!r} ({seen_codes[card.code][0]})")
                seen_codes[card.code] = (path, card.id)
            for n in card.numbers:
                if deck_range is not None and n not in deck_range:
                    raise CatalogueError(path, card.id,
                                         f"number {n} is outside deck {deck_id!r}'s range "
                                         f"{deck.deck.numbers}")
                if n in owner:
                    raise CatalogueError(path, card.id,
                                         f"number {n} is already card {owner[n][1]!r} "
                                         f"({owner[n][0]})")
                owner[n] = (path, card.id)
            resolved.append(card)
    return Catalogue(set_name, entry.title, printing, tuple(entry.decks), tuple(entry.colours),
                     tuple(entry.kinds), dict(entry.dice), resolved, base_set)


def _resolve(path: str, header: DeckHeader, raw: CardEntry, entry: SetEntry,
             printing: str) -> Card:
    def fail(reason: str) -> CatalogueError:
        return CatalogueError(path, raw.id, reason)

    if not _SLUG.match(raw.id):
        raise fail("id must be lower-case words joined by '-'")
    variant = raw.printings.get(printing) if printing != CURRENT else None
    numbers_spec = variant.numbers if variant and variant.numbers is not None else raw.numbers
    bunny = variant.bunny if variant and variant.bunny is not None else raw.bunny
    effects = list(variant.effects if variant and variant.effects is not None else raw.effects)
    text = variant.text if variant and variant.text is not None else raw.text
    source = variant.source if variant and variant.source is not None else raw.source

    if header.kind == "fixed":
        if numbers_spec is None:
            raise fail("every card of a fixed deck needs numbers")
        try:
            numbers = parse_numbers(numbers_spec)
        except ValueError as exc:
            raise fail(str(exc)) from None
    else:
        if numbers_spec is not None:
            raise fail(f"cards of a {header.kind} deck are numbered when a deck is built; "
                       "drop numbers")
        numbers = ()
    _check_odyssey(header, raw, entry, fail)

    _check_tables(raw, bunny, fail)
    if bunny is not None:
        if bunny.colour is not None and bunny.colour not in entry.colours:
            raise fail(f"colour {bunny.colour!r} is not one of the set's colours {entry.colours}")
        if bunny.kind is not None and bunny.kind not in entry.kinds:
            raise fail(f"kind {bunny.kind!r} is not one of the set's kinds {entry.kinds}")
        if not bunny.wild and (bunny.colour is None or bunny.kind is None) and entry.kinds:
            raise fail("a bunny that is not wild needs a colour and a kind")

    if not effects:
        effects = _default_effects(raw)
    if raw.weapon is not None:
        _check_weapon(raw, effects, fail)
    for effect in fx.walk(effects):
        _check_effect(effect, entry, fail)
    for die in raw.dice:
        if die not in entry.dice:
            raise fail(f"die {die!r} is not one of the set's dice {sorted(entry.dice)}")
    if raw.weapon is not None and raw.weapon.die not in entry.dice:
        raise fail(f"die {raw.weapon.die!r} is not one of the set's dice {sorted(entry.dice)}")

    return Card(
        id=raw.id, name=raw.name, deck=header.id, numbers=numbers, type=raw.type,
        pink_box=raw.pink_box,
        aggressive=raw.pink_box if raw.aggressive is None else raw.aggressive,
        keep_needs_bunny=raw.keep_needs_bunny, green_box=raw.green_box,
        yellow_box=raw.yellow_box, cost=dict(raw.cost), points=raw.points, code=raw.code,
        copies=raw.copies, resource=resource_colour(raw), creature=raw.creature, city=raw.city,
        tags=tuple(raw.tags), dice=tuple(raw.dice), bunny=bunny, weapon=raw.weapon,
        feed=raw.feed, modifier=raw.modifier, money=raw.money, units=raw.units,
        carrot=raw.carrot, market=raw.market, effects=tuple(effects), text=text,
        source=source, printing=printing if variant else CURRENT,
    )


def resource_colour(raw: CardEntry) -> str | None:
    """The colour a Resource card pays: its ``resource`` field, or a ``resource-<colour>``
    tag (the form of the first Odyssey samples)."""
    if raw.resource is not None:
        return raw.resource
    if raw.type != "resource":
        return None
    for tag in raw.tags:
        if tag.startswith("resource-"):
            return tag.removeprefix("resource-")
    return None


def _check_odyssey(header: DeckHeader, raw: CardEntry, entry: SetEntry, fail: Any) -> None:
    """Odyssey's fields: codes and copies, Resource colours, costs, creatures and cities."""
    if raw.code is not None and not CARD_CODE.match(raw.code):
        raise fail(f"code {raw.code!r} is not a Card Identification Number (two letters and "
                   "two numbers, e.g. WB07)")
    if header.kind == "personal":
        if raw.code is None:
            raise fail("every card of a personal deck has a code (its Card Identification Number)")
        if raw.copies is None or raw.copies < 1:
            raise fail("every card of a personal deck says how many copies the deck holds "
                       "(copies = 1 or more)")
    elif raw.copies is not None:
        raise fail("only a card of a personal deck has copies")
    colour = resource_colour(raw)
    if raw.type == "resource":
        if colour is None:
            raise fail("a resource card names the colour it pays (resource = \"blue\"...)")
    elif raw.resource is not None:
        raise fail("only a resource card has a resource colour")
    if colour is not None and entry.colours and colour not in entry.colours:
        raise fail(f"resource colour {colour!r} is not one of the set's colours "
                   f"{entry.colours}")
    if raw.cost and entry.colours:
        for colour in raw.cost:
            if colour != "white" and colour not in entry.colours:
                raise fail(f"cost colour {colour!r} is neither white nor one of the set's "
                           f"colours {entry.colours}")
    tables = [n for n, v in (("creature", raw.creature), ("city", raw.city), ("weapon", raw.weapon),
                             ("feed", raw.feed), ("modifier", raw.modifier), ("bunny", raw.bunny))
              if v is not None]
    if (raw.creature is not None or raw.city is not None) and len(tables) > 1:
        raise fail(f"a card is one thing: it has the tables {tables}")
    if (raw.creature is not None or raw.city is not None) and raw.points is None:
        raise fail("a creature or a city has points")
    if raw.city is not None and raw.city.capacity < 0:
        raise fail("a city's capacity is 0 or more")
    if raw.points is not None and raw.points < 0:
        raise fail("points are 0 or more")


def _check_tables(raw: CardEntry, bunny: object, fail: Any) -> None:
    """The type and the tables must agree (a money card has a value, a supply card units...)."""
    needs = {"money": ("money", raw.money), "cabbage": ("units", raw.units),
             "water": ("units", raw.units), "carrot": ("carrot", raw.carrot),
             "magic_carrot": ("carrot", raw.carrot), "starter": ("market", raw.market)}
    if raw.type in needs and needs[raw.type][1] is None:
        raise fail(f"a {raw.type} card needs {needs[raw.type][0]}")
    if raw.money is not None and raw.type != "money":
        raise fail("only a money card has a money value")
    if raw.units is not None and raw.type not in ("cabbage", "water"):
        raise fail("only a cabbage or water card has units")
    if raw.type in SMALL_TYPES and (bunny is not None or raw.weapon or raw.effects):
        raise fail("a small card has no bunny, weapon or effects")
    playable = ("run", "special", "very_special", "roaming_red_run", "resource")
    for table, value in (("bunny", bunny), ("weapon", raw.weapon), ("modifier", raw.modifier),
                         ("feed", raw.feed), ("creature", raw.creature), ("city", raw.city)):
        if value is not None and raw.type not in playable:
            raise fail(f"a {raw.type} card cannot have a {table} table")
    if bunny is not None and (raw.weapon is not None or raw.modifier is not None):
        raise fail("a bunny card is not also a weapon or a modifier")
    for word in raw.cost:
        if raw.cost[word] < 0:
            raise fail(f"cost {word} is negative")


def _default_effects(raw: CardEntry) -> list[fx.AnyEffect]:
    """What a card without ``effects`` does, from its tables."""
    if raw.bunny is not None or raw.creature is not None:
        return [fx.EnterCircle()]
    if raw.city is not None:
        return [fx.Build()]
    if raw.weapon is not None and not raw.weapon.ground:
        return [fx.Raze(level=raw.weapon.level, die=raw.weapon.die)]
    if raw.weapon is not None:
        return [fx.Attack(level=raw.weapon.level, die=raw.weapon.die)]
    if raw.feed is not None:
        return [fx.Feed(cabbage=raw.feed.cabbage, water=raw.feed.water)]
    if raw.modifier is not None:
        return [fx.Attach()]
    return []


def _check_weapon(raw: CardEntry, effects: list[fx.AnyEffect], fail: Any) -> None:
    assert raw.weapon is not None
    first = next((e for e in fx.walk(effects) if isinstance(e, fx.Attack | fx.Roam | fx.Raze)),
                 None)
    if first is None and not any(isinstance(e, fx.Dormant) for e in effects):
        raise fail("a weapon card needs an attack, roam or dormant effect")
    if first is not None and first.level != raw.weapon.level and not isinstance(
            effects[0], fx.Dormant):
        raise fail(f"its attack is level {first.level} but the weapon table says "
                   f"{raw.weapon.level}")


def _check_effect(effect: fx.AnyEffect, entry: SetEntry, fail: Any) -> None:
    for name in effect.dice_named():
        if name not in entry.dice:
            raise fail(f"die {name!r} is not one of the set's dice {sorted(entry.dice)}")
    problems = effect.problems({d: spec.sides for d, spec in entry.dice.items()})
    if problems:
        raise fail(f"{fx.tag_of(effect)}: {problems[0]}")


# -- a library of deck files ------------------------------------------------------------------


_PROBLEMS: dict[str, None] = {}


def deck_problems() -> list[str]:
    """Every user's deck file left out so far in this process, with why (in the order found):
    a command names them once, after its work."""
    return list(_PROBLEMS)


class DeckLibrary:
    """Deck files and set files found in folders: the game's own and the user's.

    A user adds a booster deck or a house card by writing a deck file into a folder given
    to the library and, if it is played in a new combination, a set file naming it.
    """

    def __init__(self, folders: Iterable[str | Path], *, own: int = 1) -> None:
        """The first ``own`` folders are warren's: any problem in them is an error. A file of
        a user's folder that cannot be used (unreadable, invalid, or reusing an id the
        library already has) is skipped and named in :attr:`problems` and in
        :func:`deck_problems`: one bad file never makes the others, or the records played
        with them, unreadable."""
        self.decks: dict[str, tuple[str, DeckFile]] = {}
        self.sets: dict[str, tuple[str, SetEntry]] = {}
        self.problems: list[str] = []
        self.own_files: set[str] = set()
        for index, folder in enumerate(folders):
            base = Path(folder)
            mine = index < own
            if not base.is_dir():
                if mine:
                    raise CatalogueError(str(base), None, "not a folder of deck files")
                self.skip(CatalogueError(str(base), None, "not a folder of deck files; left out"))
                continue
            for path in sorted(base.glob("*.toml")):
                if mine:
                    self.add_file(path)
                    self.own_files.add(str(path))
                    continue
                try:
                    self.add_file(path)
                except CatalogueError as exc:
                    self.skip(exc)

    def skip(self, problem: CatalogueError) -> None:
        """Leave a user's file out, and say so once."""
        message = f"deck file left out: {problem}"
        if message not in self.problems:
            self.problems.append(message)
        _PROBLEMS.setdefault(message, None)

    def add_file(self, path: str | Path) -> None:
        """Read one deck or set file into the library."""
        p = Path(path)
        data = _load_toml(p)
        if "set" in data:
            for name, entry in set_from_data(str(p), data).set.items():
                if name in self.sets:
                    raise CatalogueError(str(p), None,
                                         f"set {name!r} is already defined in {self.sets[name][0]}")
                self.sets[name] = (str(p), entry)
            return
        deck = deck_from_data(str(p), data)
        if deck.deck.id in self.decks:
            raise CatalogueError(str(p), None, f"deck {deck.deck.id!r} is already defined in "
                                 f"{self.decks[deck.deck.id][0]}")
        self.decks[deck.deck.id] = (str(p), deck)

    def catalogue(self, set_name: str, printing: str = CURRENT,
                  extra_decks: Iterable[str] = ()) -> Catalogue:
        """The resolved catalogue of ``set_name`` (plus ``extra_decks``) in ``printing``."""
        if set_name not in self.sets:
            raise CatalogueError("deck library", None,
                                 f"unknown deck set {set_name!r} (known: "
                                 f"{', '.join(sorted(self.sets)) or 'none'})")
        _, entry = self.sets[set_name]
        missing = [d for d in [*entry.decks, *extra_decks] if d not in self.decks]
        if missing and self.problems:
            # A deck asked for by name that was left out: say why, not only that it is missing.
            raise CatalogueError("deck library", None, f"deck {missing[0]!r} is not in the library; "
                                 + "; ".join(self.problems))
        base = set_name
        extra = [d for d in extra_decks if d not in entry.decks]
        if extra:
            entry = msgspec.structs.replace(entry, decks=[*entry.decks, *extra])
            set_name = f"{set_name}+{'+'.join(extra)}"
        return build_catalogue(set_name, entry, self.decks, printing, base)
