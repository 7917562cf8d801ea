"""warren's words for a game: events, what changed between two views, facts and outcomes,
with players called by name and values written as the table writes them (a card as A♠).

Every ruleset answers in words through four methods of :class:`engine.ruleset.Ruleset`:
``describe`` (an event as one perspective saw it), ``describe_changes`` (what changed
between two views), ``describe_fact`` (one named value of a verdict, an effect or a
position) and ``describe_outcome`` (how a game ended). Their defaults, here, word any game
from its views and records and the :class:`Vocabulary` the ruleset declares: which keys
name a seat, which lists hold one entry per seat, what a key is called and how a value
reads. A game that says more overrides the methods (Bunnies and Trust No Bunny word their
own events); a new game starts from these defaults and reads reasonably without a line of
its own.

A game whose views and facts are typed (engine.said) gives its Structs as the vocabulary's
``types``: a key then reads as its type says (a ``Seat`` by name, a ``Card`` by the game's
writer for cards); the key tables and the ``value`` and ``entry`` hooks are for a game
that types nothing (the generic vocabulary, a plugin).

Pure functions of plain data (views are JSON-ready dicts): no I/O, no ruleset imported.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from engine.said import (
    PER_SEAT,
    SEAT,
    SEATS,
    SUBJECT,
    Meaning,
    arms,
    checker,
    fields,
    hints_of,
    item_hint,
    meaning_of,
    struct_of,
)

if TYPE_CHECKING:
    from engine.ruleset import Outcome

Names = Sequence[str]
"""The players' names, by seat."""

ARROW = "→"
MINUS = "−"

ValueWords = Callable[[str, Any, Names], "str | None"]
"""A ruleset's own words for one scalar value under a key (a card code as its face), or
None to leave it to the generic wording: for a game that types nothing (a typed game gives
writers)."""

EntryWords = Callable[[str, "dict[str, Any]", Names], "str | None"]
"""A ruleset's own words for one entry of a list of records under a key (a night's
result, a proposal), or None to leave it to the generic wording: for a game that types
nothing (a typed game gives its records a meaning and a writer)."""

Writer = Callable[[Any, "Names"], str]
"""A game's words for a value of one :class:`Meaning` (a card number as its name)."""

POSITION_KEYS = ("round", "turn", "phase", "active", "over")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """How a game's views, facts and records read in words (all optional)."""

    labels: Mapping[str, str] = field(default_factory=dict)
    """Key -> its name in words (``waiting_on`` -> ``to act``); otherwise the key with
    spaces for underscores."""
    seat_keys: frozenset[str] = frozenset()
    """Keys whose value is one seat (written as the player's name), for a game that does not
    type its keys (:attr:`types`)."""
    seat_list_keys: frozenset[str] = frozenset()
    """Keys whose value is a list of seats (likewise)."""
    per_seat_keys: frozenset[str] = frozenset()
    """Keys whose value is a list with one entry per seat, seat 0 first (likewise)."""
    subject_keys: frozenset[str] = frozenset()
    """Keys whose value is one seat's own record (with a ``seat`` field): what changes in it
    is that player's (``me`` in a seat's view)."""
    quiet_keys: frozenset[str] = frozenset({"perspective", "seq"})
    """Keys left out of what changed (bookkeeping nobody at the table would mention)."""
    value: ValueWords | None = None
    entry: EntryWords | None = None
    types: tuple[type[msgspec.Struct], ...] = ()
    """The Structs that say what the game's keys hold (its view, its facts), the first
    one's word standing where two name one key (engine.said)."""
    writers: Mapping[Meaning, Writer] = field(default_factory=dict)
    """The game's words for each meaning it writes its own way (a card, a sum of money)."""
    hints: Mapping[str, Any] = field(init=False, repr=False, compare=False)
    """Every key of :attr:`types` with its type hint."""
    _plans: dict[int, tuple[Any, tuple[Plan, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hints", hints_of(self.types))
        object.__setattr__(self, "_plans", {})

    def plans(self, hint: Any) -> tuple[Plan, ...]:
        """How each arm of ``hint`` is said, in the order a value is tried against them;
        made once per hint (by identity: hints live as long as their Structs)."""
        found = self._plans.get(id(hint))
        if found is not None and found[0] is hint:
            return found[1]
        made = []
        for arm in arms(hint):
            if arm is type(None):
                continue
            meaning = meaning_of(arm)[0]
            struct = struct_of(arm)
            made.append(Plan(arm=arm, check=checker(arm), meaning=meaning,
                             writer=None if meaning is None else self.writers.get(meaning),
                             item=item_hint(arm), fields=None if struct is None else fields(struct)))
        plans = tuple(made)
        self._plans[id(hint)] = (hint, plans)
        return plans

    def plan_for(self, hint: Any, value: object) -> Plan | None:
        """How ``value`` is said under ``hint``: the plan of the first arm of the type it is
        an instance of (a hidden hand is a count where a seen one is its cards); None if it
        fits none (a value the types do not foresee is worded plainly, never by a writer
        meant for another type)."""
        for plan in self.plans(hint):
            if plan.check(value):
                return plan
        return None

    def label(self, key: str) -> str:
        return self.labels.get(key, key.replace("_", " "))

    def says(self, key: str, meaning: Meaning) -> bool:
        """Does ``key`` hold a value of ``meaning`` (its type says so, where it is typed)?"""
        return any(meaning_of(arm)[0] is meaning for arm in arms(self.hints.get(key)))

    def names_seat(self, key: str) -> bool:
        """Does ``key`` hold one seat (written as the player's name)? A typed key as its
        type says, any other as :attr:`seat_keys` does."""
        return self.says(key, SEAT) if key in self.hints else key in self.seat_keys

    def names_seats(self, key: str) -> bool:
        """Does ``key`` hold a list of seats?"""
        return self.says(key, SEATS) if key in self.hints else key in self.seat_list_keys

    def is_subject(self, key: str) -> bool:
        """Does ``key`` hold one seat's own record (``me`` in a seat's view)?"""
        return self.says(key, SUBJECT) if key in self.hints else key in self.subject_keys

    def per_seat(self, key: str) -> bool:
        """Does ``key`` hold a list with one entry per seat, seat 0 first?"""
        return self.says(key, PER_SEAT) if key in self.hints else key in self.per_seat_keys


GENERIC = Vocabulary(
    seat_keys=frozenset({"seat", "actor", "active", "target", "winner_seat"}),
    seat_list_keys=frozenset({"winners", "seats_to_act", "to_act"}),
    per_seat_keys=frozenset({"scores", "hands"}),
)
"""The vocabulary of a game that declares none: the keys most games use for seats."""


# -- seats ---------------------------------------------------------------------------------
def seat_name(seat: int | None, names: Names | None) -> str:
    """A seat as the table calls it: the player's name (``seat 3`` without names)."""
    if seat is None:
        return "the table"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def seat_label(seat: int | None, names: Names | None) -> str:
    """A seat as a person reads it: its player's name (``Ann``), ``seat 0`` only where the
    record names nobody; the number itself belongs to ``--json``."""
    if seat is None:
        return "the table"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def and_list(words: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bo``, ``Ann, Bo and Cy``; ``nobody`` for none."""
    words = list(words)
    if not words:
        return "nobody"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def or_list(words: Sequence[str]) -> str:
    """``Ann``, ``Ann or Bo``, ``Ann, Bo or Cy``; ``none`` for none."""
    words = list(words)
    if not words:
        return "none"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def cards_said(cards: Sequence[object], join: str = "and", most: int = 6) -> str:
    """Cards as a rule's message writes them, for :meth:`Ruleset.say` to name: ``card 2 and
    card 11`` (a numbered card), a code as it is (``WG04``); ``no card`` for none, and the
    first ``most`` of a long list with how many more."""
    said = [f"card {c}" if isinstance(c, int) else str(c) for c in cards]
    if not said:
        return "no card"
    if len(said) > most:
        said = [*said[:most], f"{len(cards) - most} more"]
    return or_list(said) if join == "or" else and_list(said)


def seats_said(seats: Sequence[int], join: str = "and") -> str:
    """Seats as a rule's message writes them (``seat 0 and seat 2``), named by ``say``."""
    said = [f"seat {s}" for s in seats]
    if not said:
        return "nobody"
    return or_list(said) if join == "or" else and_list(said)


def seats_text(seats: Sequence[int], names: Names | None) -> str:
    return and_list([seat_name(s, names) for s in seats])


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- values and facts ---------------------------------------------------------------------------
def _plain(values: Sequence[Any]) -> bool:
    return all(not isinstance(v, list | dict) for v in values)


def value_text(vocab: Vocabulary, key: str, value: Any, names: Names) -> str:
    """One value under ``key`` in words, as the type of ``key`` says where the game's
    Structs type it (:attr:`Vocabulary.types`), else as its key tables say."""
    return typed_text(vocab, key, vocab.hints.get(key), value, names)


def typed_text(vocab: Vocabulary, key: str, hint: Any, value: Any, names: Names) -> str:
    """A value in words: the game's writer for the meaning its type carries (engine.said), a
    seat by name, one entry per seat player by player, a list item by item, a record field
    by field (each as its own type says); ``nobody`` for no seat. A value its type does not
    foresee (a count where cards were meant) is worded plainly. ``hint`` None: the key
    tables decide."""
    if value is None:
        return "nobody" if hint is not None and _means(hint, SEAT) else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    plan = None if hint is None else vocab.plan_for(hint, value)
    if plan is None:
        return _untyped_text(vocab, key, value, names)
    meaning = plan.meaning
    if isinstance(value, list):
        if not value:
            return "none"
        if meaning is SEATS and all(map(_is_seat, value)):
            return seats_text(value, names)
        if meaning is PER_SEAT and len(value) == len(names):
            return ", ".join(f"{seat_name(s, names)} {typed_text(vocab, key, plan.item, v, names)}"
                             for s, v in enumerate(value))
    if plan.writer is not None:
        return plan.writer(value, names)
    if isinstance(value, list):
        return _list_text([typed_text(vocab, key, plan.item, v, names) for v in value], value)
    if isinstance(value, dict):
        return entry_text(vocab, key, value, names, plan.fields)
    if meaning is SEAT and _is_seat(value):
        return seat_name(value, names)
    if isinstance(value, str) and vocab.types:
        return value.replace("_", " ")  # a word of the game's own (all_different)
    return str(value)


def _untyped_text(vocab: Vocabulary, key: str, value: Any, names: Names) -> str:
    """A value no type speaks for, as the key tables and the game's hooks say."""
    if isinstance(value, list):
        if not value:
            return "none"
        if key in vocab.seat_list_keys and all(map(_is_seat, value)):
            return seats_text(value, names)
        if key in vocab.per_seat_keys and len(value) == len(names):
            return ", ".join(f"{seat_name(s, names)} {_untyped_text(vocab, key, v, names)}"
                             for s, v in enumerate(value))
        return _list_text([typed_text(vocab, key, None, v, names) for v in value], value)
    if isinstance(value, dict):
        return entry_text(vocab, key, value, names)
    if vocab.value is not None:
        said = vocab.value(key, value, names)
        if said is not None:
            return said
    if key in vocab.seat_keys and _is_seat(value):
        return seat_name(value, names)
    if isinstance(value, str) and vocab.types:
        return value.replace("_", " ")  # a word of the game's own (all_different)
    return str(value)


def _list_text(words: list[str], value: list[Any]) -> str:
    if all(isinstance(v, dict) for v in value):
        return "; ".join(words)
    return " ".join(words) if all(len(w) <= 4 for w in words) else ", ".join(words)


class Plan(NamedTuple):
    """How the words say a value of one arm of a type (made once per type and vocabulary)."""

    arm: Any
    """The arm of the type (``Cards`` of ``Cards | CountOfCards``)."""
    check: Callable[[object], bool]
    meaning: Meaning | None
    writer: Writer | None
    item: Any
    fields: Mapping[str, Any] | None


def _field_text(vocab: Vocabulary, key: str, hint: Any, value: Any, names: Names) -> str:
    if hint is None:
        return value_text(vocab, key, value, names)
    return typed_text(vocab, key, hint, value, names)


def _means(hint: Any, meaning: Meaning) -> bool:
    return any(meaning_of(arm)[0] is meaning for arm in arms(hint))


def entry_text(vocab: Vocabulary, key: str, entry: dict[str, Any], names: Names,
               hints: Mapping[str, Any] | None = None) -> str:
    """One record (a dict) in words: the ruleset's own wording, else its head (``kind`` or
    ``type``) and its fields, each as ``hints`` (the record's Struct) says where given."""
    if vocab.entry is not None:
        own = vocab.entry(key, entry, names)
        if own is not None:
            return own
    head = entry.get("kind", entry.get("type"))
    hints = hints or {}
    parts = [f"{vocab.label(k)} {_field_text(vocab, k, hints.get(k), v, names)}" for k, v in entry.items()
             if k not in ("kind", "type", "seq", "hash") and v is not None]
    text = ", ".join(parts)
    if isinstance(head, str):
        return head.replace("_", " ") + (f" ({text})" if text else "")
    return text


def fact_text(vocab: Vocabulary, key: str, value: Any, names: Names) -> str:
    """A named fact (of a verdict, an effect or a position) as ``what: value`` in words."""
    return f"{vocab.label(key)}: {value_text(vocab, key, value, names)}"


# -- events ------------------------------------------------------------------------------------
EVENT_SKIP = frozenset({"seq", "type", "actor", "claims", "hash"})


def event_text(vocab: Vocabulary, record: Mapping[str, Any], names: Names) -> str:
    """An event (as a perspective saw it: a dict of its fields) in generic words:
    ``Ann: take (n 2)``; ``the table: toss (first 1)``."""
    who = seat_name(record.get("actor"), names)
    kind = str(record.get("type", "event")).replace("_", " ")
    fields = [f"{vocab.label(k)} {value_text(vocab, k, v, names)}" for k, v in record.items()
              if k not in EVENT_SKIP and v is not None]
    return f"{who}: {kind}" + (f" ({', '.join(fields)})" if fields else "")


# -- outcomes ----------------------------------------------------------------------------------
def outcome_text(vocab: Vocabulary, outcome: Outcome, names: Names) -> str:
    """``Game over: Bo wins (went out, BUN-END-2). Scores: Ann 2, Bo 18.``"""
    winners = [seat_name(w, names) for w in outcome.winners]
    verb = "wins" if len(winners) == 1 else "win"
    text = f"Game over: {and_list(winners)} {verb} ({outcome.reason.replace('_', ' ')}, {outcome.rule})."
    if outcome.scores:
        text += " Scores: " + ", ".join(f"{seat_name(s, names)} {score}"
                                        for s, score in enumerate(outcome.scores)) + "."
    return text


# -- what changed --------------------------------------------------------------------------------
_MISSING: Any = object()
MOVES_SHOWN = 8
"""A list that gained or lost more values than this is summarised by counts."""


def change_lines(vocab: Vocabulary, before: Mapping[str, Any], after: Mapping[str, Any],
                 names: Names) -> list[str]:
    """What changed from one view to another, one line per change, in words. Where the
    game stands (round, turn, phase, who plays, over) comes first, on one line. Each value
    reads as its type says, the type followed down into records and lists (a card of one
    player's hand reads as a card)."""
    out: list[str] = []
    moved = [f"{vocab.label(k)} {value_text(vocab, k, before[k], names)} {ARROW} "
             f"{value_text(vocab, k, after[k], names)}"
             for k in POSITION_KEYS if k in before and k in after and before[k] != after[k]]
    if moved:
        out.append(" · ".join(moved))
    for key in [*before, *(k for k in after if k not in before)]:
        if key in vocab.quiet_keys or (key in POSITION_KEYS and key in before and key in after):
            continue
        b, a = before.get(key, _MISSING), after.get(key, _MISSING)
        if b != a:
            _walk(vocab, key, vocab.hints.get(key), vocab.label(key), b, a, names, out)
    return out


def _walk(vocab: Vocabulary, key: str, hint: Any, where: str, before: Any, after: Any,
          names: Names, out: list[str], owner: str | None = None) -> None:
    """Describe one changed value at ``where`` (its words), recursing into records and
    lists with the type each holds (``hint``; None: the key tables decide); ``owner`` is
    the player whose record it is, if any."""
    def said(value: Any) -> str:
        return typed_text(vocab, key, hint, value, names)

    if before is _MISSING:
        out.append(f"{where}: {said(after)}")
        return
    if after is _MISSING:
        out.append(f"{where}: gone (was {said(before)})")
        return
    plan = None if hint is None else vocab.plan_for(hint, after)
    meaning = None if plan is None else plan.meaning
    typed = hint is not None
    if isinstance(before, dict) and isinstance(after, dict):
        subject = meaning is SUBJECT or (not typed and key in vocab.subject_keys)
        if subject and _is_seat(after.get("seat")):
            owner = seat_name(after["seat"], names)
        _walk_record(vocab, where, before, after, names, out, owner, None if plan is None else plan.fields)
        return
    if isinstance(before, list) and isinstance(after, list):
        item = None if plan is None else plan.item
        per_seat = meaning is PER_SEAT or (not typed and key in vocab.per_seat_keys)
        if per_seat and len(before) == len(after) == len(names):
            for seat, (b, a) in enumerate(zip(before, after, strict=True)):
                name = seat_name(seat, names)
                if b == a:
                    continue
                if isinstance(b, dict) and isinstance(a, dict):
                    inner = None if item is None else vocab.plan_for(item, a)
                    _walk_record(vocab, where, b, a, names, out, name,
                                 None if inner is None else inner.fields)
                else:
                    _walk(vocab, key, item, f"{possessive(name)} {vocab.label(key)}", b, a, names, out)
            return
        seats = meaning is SEATS or (not typed and key in vocab.seat_list_keys)
        if seats and all(map(_is_seat, before + after)):
            gone = [s for s in before if s not in after]
            came = [s for s in after if s not in before]
            parts = [f"+{seat_name(s, names)}" for s in came]
            parts += [f"{MINUS}{seat_name(s, names)}" for s in gone]
            out.append(f"{where}: {seats_text(after, names)}" + (f" ({' '.join(parts)})" if parts else ""))
            return
        if all(isinstance(v, dict) for v in before + after) and after[:len(before)] == before:
            for entry in after[len(before):]:
                out.append(f"{where}: + {said([entry])}")
            return
        if _plain(before) and _plain(after):
            out.append(_moves(vocab, key, item, where, before, after, names))
            return
        if len(before) == len(after):
            for i, (b, a) in enumerate(zip(before, after, strict=True)):
                if b != a:
                    _walk(vocab, key, item, f"{where} {i + 1}", b, a, names, out, owner)
            return
    out.append(f"{where}: {said(before)} {ARROW} {said(after)}")


def _walk_record(vocab: Vocabulary, where: str, before: dict[str, Any], after: dict[str, Any],
                 names: Names, out: list[str], owner: str | None,
                 hints: Mapping[str, Any] | None = None) -> None:
    """The fields that changed in one record: a player's (``Bo's hand``) or a thing's
    (``outcome › winner``), each as its record's type (``hints``) or the vocabulary says."""
    for k in [*before, *(k for k in after if k not in before)]:
        b, a = before.get(k, _MISSING), after.get(k, _MISSING)
        if b == a or k == "seat" or k in vocab.quiet_keys:
            continue
        label = vocab.label(k)
        inner = f"{possessive(owner)} {label}" if owner is not None else f"{where} › {label}"
        hint = hints[k] if hints is not None and k in hints else vocab.hints.get(k)
        _walk(vocab, k, hint, inner, b, a, names, out, owner)


def _moves(vocab: Vocabulary, key: str, item: Any, where: str, before: list[Any], after: list[Any],
           names: Names) -> str:
    """A list of plain values that gained and lost some: ``+A♠ −3♣ (7 → 7)``; each value
    as the list's items read (``item``)."""
    came = list((Counter(map(repr, after)) - Counter(map(repr, before))).elements())
    gone = list((Counter(map(repr, before)) - Counter(map(repr, after))).elements())
    by_repr = {repr(v): v for v in [*before, *after]}
    size = f"({len(before)} {ARROW} {len(after)})"
    if not came and not gone:
        return f"{where}: reordered {size}"
    if len(came) + len(gone) > MOVES_SHOWN:
        parts = []
        if came:
            parts.append(f"{len(came)} added")
        if gone:
            parts.append(f"{len(gone)} taken")
        return f"{where}: {', '.join(parts)} {size}"
    moved = [f"+{typed_text(vocab, key, item, by_repr[r], names)}" for r in came]
    moved += [f"{MINUS}{typed_text(vocab, key, item, by_repr[r], names)}" for r in gone]
    return f"{where}: {' '.join(moved)} {size}"


# -- messages in the table's words -------------------------------------------------------------
_SEATS = re.compile(r"\bseats (\d+(?:, \d+)*(?:,? (?:and|or) \d+)?)\b")
_SEAT_S = re.compile(r"\bseat (\d+)'s\b")
_SEAT = re.compile(r"\bseat (\d+)\b")


def seats_named(message: str, names: Names | None) -> str:
    """A refusal, a note or a fact with its seats named by their players: ``it is seat 1's
    go, not seat 0's`` reads ``it is Bo's go, not Ann's``. Rules write seats by number (a
    rule is pure and knows no names); every sentence a person reads passes through here.
    A seat number the game does not have is left as it is."""
    if not names:
        return message

    def one(number: str) -> str | None:
        seat = int(number)
        return names[seat] if 0 <= seat < len(names) else None

    def many(found: re.Match[str]) -> str:
        numbers = re.findall(r"\d+", found[1])
        said = [one(n) for n in numbers]
        if None in said:
            return found[0]
        words = [w for w in said if w is not None]
        joiner = " or " if " or " in found[1] else " and "
        return ", ".join(words[:-1]) + joiner + words[-1] if len(words) > 1 else words[0]

    message = _SEATS.sub(many, message)
    message = _SEAT_S.sub(lambda m: possessive(one(m[1]) or f"seat {m[1]}"), message)
    return _SEAT.sub(lambda m: one(m[1]) or m[0], message)


# -- who a refusal is for ------------------------------------------------------------------------
REFUSED_DOINGS: Mapping[str, str] = {
    "accept": "accept", "accuse": "accuse", "act": "act", "bid": "bid", "bless": "bless",
    "bottom": "put a card at the bottom of the run", "brew": "brew", "buy": "buy",
    "choose": "choose", "choose_item": "choose an Item", "correct": "correct the record",
    "cut": "cut the pile", "discard": "discard", "draw": "draw", "end_turn": "end the turn",
    "feed": "feed", "flip": "flip", "gaze": "gaze", "guard": "guard",
    "hexascrewup": "call a Hexascrewup", "join": "join", "lay": "lay", "leave": "leave",
    "mulligan": "take a mulligan", "overdraw": "draw an extra card", "pass": "pass",
    "peek": "look at a blind card", "pickup": "pick up the pile", "place": "place a card",
    "play": "play", "predict": "predict", "propose": "propose a team", "ready": "say ready",
    "rest": "rest", "reveal": "reveal", "roll": "roll", "runs": "lay the run cards",
    "sabotage": "sabotage", "save": "save", "setaside": "set a card aside",
    "shuffle": "shuffle", "spin": "spin", "stake": "stake", "starve": "let a bunny starve",
    "steal": "steal", "timeout": "call time", "trade": "trade", "use": "use", "vote": "vote",
}
"""What each kind of event is, as ``Bo may not <it>`` says it: the lead of a refusal that
does not name the player it refuses (the kinds of all five games; a game may add its own)."""


def mentions_seat(message: str, seat: int) -> bool:
    """Does a rule's message (seats by number) name ``seat``, alone or in a list?"""
    if any(int(m[1]) == seat for m in _SEAT.finditer(message)):
        return True
    return any(str(seat) in re.findall(r"\d+", m[1]) for m in _SEATS.finditer(message))


def refusal_for(message: str, actor: int | None, kind: str, doings: Mapping[str, str]) -> str:
    """A refusal that names the player refused: ``seat 1 may not pick up the pile: ...`` where
    the rule's own message does not name him already (it names seats by number, as every
    rule's message does; :func:`seats_named` puts the names in). Chance and the table's own
    events (no actor) are left as they are: nobody acted."""
    if actor is None or mentions_seat(message, actor):
        return message
    doing = doings.get(kind, kind.replace("_", " "))
    return f"seat {actor} may not {doing}: {message}"
