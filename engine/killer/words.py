"""Killer Bunnies in words: what every game of the family names the same way, from the
catalogue it is played with.

A card is its catalogue name and its number (``Choose A Carrot (17)``): the name is what a
player reads on the card, the number is what the record, the dispute box and the checklist
use, and two copies of one card differ only by it. A bunny in the circle is also whose it is
(``Bo's Green Congenial Bunny (6)``); a die is its colour and sides (``the black d12``); money
is counted in the game's own unit (Quest and Odyssey: Dolla; KinderBunnies: Bunny Bucks, one
Bunny Buck); a die that reads 0 as 10 says so (``a 0, which counts as 10``);
supplies in units (``3 cabbage units``); the run positions are the top and the bottom run
card. A large carrot reads as its card; the Magic Carrot, which names a carrot by its
number or letter, reads as that carrot, and several carrots named by their labels read as
the table says them (``carrots A-F``, ``carrots B, D and G``).

Everything comes from the catalogue data, which holds facts (names, numbers, dice) and
warren's own words for what a card does; nothing here prints more of a card than its name.
The words take the catalogue (or any card number -> :class:`Card` mapping) as input, so each
game of the family words its cards with its own catalogue: Quest with its deck set and
printing, KinderBunnies with its, Odyssey with the cards of each game's decks.

Pure functions of plain data: no I/O, no game state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import said
from engine.hidden import UNKNOWN
from engine.killer.catalogue.loader import Catalogue
from engine.killer.catalogue.schema import Card, DieSpec
from engine.said import Meaning
from engine.wording import ARROW, MINUS, Names, Writer, and_list, possessive, seat_name


class FamilyFacts(said.Facts, kw_only=True):
    """The facts the three Killer Bunnies games name alike: the player a card names, whose a
    bunny is, the card itself."""

    player: said.Seat
    """The player a card names."""
    owner: said.Seat
    card: said.Card


FACE_DOWN = "back"
"""How a view shows a card the perspective may not see (another player's run card)."""

MOVES_SHOWN = 8
"""A pile that gained or lost more cards than this at once is told by counts."""

CHOICE_WORDS: Mapping[str, str] = {
    "on": "a bunny", "at": "a place in the Bunny Circle", "player": "a player",
    "carrots": "carrots", "number": "a number", "weapon": "a weapon", "roamer": "a roaming card",
    "stakes": "stakes", "sources": "opponents to take from", "take": "a card to take",
    "give": "a card to give", "bunnies": "bunnies", "card": "a card", "carrot": "a carrot",
    "die": "a die", "pay": "a payment",
}
"""A choice a card's play names (a field of the play), as a refusal says it is asked for
or not: ``Sword (41) asks for no number``. Shared by the three games of the family."""


def choices_said(fields: Sequence[str]) -> str:
    """Choices in words: ``a bunny and a roaming card``; ``nothing`` for none."""
    return and_list([CHOICE_WORDS.get(f, f) for f in fields]) if fields else "nothing"


TIMES = {2: "twice", 3: "three times"}


Phrase = Callable[[Any], str]
"""How one field of a play reads (``naming Bo``)."""


def named_in_play(record: Mapping[str, Any], phrases: Sequence[tuple[str, Phrase]]) -> list[str]:
    """What a card's play names, a phrase for each field in the order given; a field the
    play leaves out, or names nothing in (None, an empty list), is passed over. Each game
    lists its own fields; the phrases the family shares are :func:`shared_phrases`."""
    return [say(record[field]) for field, say in phrases if record.get(field) not in (None, [], {})]


def shared_phrases(names: Names, w: CardWords) -> dict[str, Phrase]:
    """The phrases the three games' plays share: the player a card names, the carrots it
    takes, the number it names."""
    return {"player": lambda v: f"naming {seat_name(v, names)}",
            "carrots": lambda v: f"taking {w.cards(v)}",
            "number": lambda v: f"naming the number {v}"}


def _times(count: int) -> str:
    return "" if count == 1 else " " + TIMES.get(count, f"{count} times")


def an(number: int) -> str:
    """The article of a number said aloud: ``a 7``, ``an 8``, ``an 11``, ``an 18``."""
    said = str(number)
    return "an" if said.startswith("8") or said in ("11", "18") else "a"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def place(at: int) -> str:
    """Where a bunny goes as it enters the circle, counted clockwise from 1 (the record
    writes the index it is inserted at, from 0: engine.killer.circle)."""
    return f"space {at + 1}"


class CardWords:
    """The words for the cards of one catalogue (see the module docstring)."""

    __slots__ = ("by_number", "carrots", "dice", "money", "money_one")

    def __init__(self, cards: Mapping[Any, Card], dice: Mapping[str, DieSpec] | None = None,
                 money: str = "Dolla", money_one: str | None = None) -> None:
        self.by_number = cards
        """Card number -> its definition; or, for a game that knows its cards by a code
        rather than a number (Odyssey's Card Identification Number, ``WB07``), code -> it."""
        self.dice: Mapping[str, DieSpec] = dice or {}
        """Die id -> the die (its colour and sides), as the deck set declares it."""
        self.money = money
        """The game's money (``Dolla``; ``Bunny Bucks``), always written after the amount."""
        self.money_one = money_one or money
        """The money after an amount of 1 (``Bunny Buck``; Dolla is the same for one)."""
        self.carrots: dict[str, int] = {}
        """A carrot's number or letter -> its large carrot card (the lowest number)."""
        for number in sorted(cards):
            card = cards[number]
            if card.type == "carrot" and card.carrot is not None:
                self.carrots.setdefault(card.carrot, number)

    @classmethod
    def of(cls, catalogue: Catalogue, money: str = "Dolla", money_one: str | None = None) -> CardWords:
        """The words for every card of ``catalogue``, with the dice of its deck set."""
        return cls(catalogue.by_number, catalogue.dice, money, money_one)

    # -- one card ------------------------------------------------------------------------------
    def name(self, number: int | str) -> str | None:
        card = self.by_number.get(number)
        return None if card is None else card.name

    def is_a(self, number: object, *types: str) -> bool:
        """Whether ``number`` is a card of the catalogue of one of ``types`` (any if none)."""
        if not isinstance(number, int) or isinstance(number, bool):
            return False
        card = self.by_number.get(number)
        return card is not None and (not types or card.type in types)

    def card(self, number: int | str | None) -> str:
        """A card as the table names it: ``Choose A Carrot (17)``; a face-down card as ``a
        face-down card``; one nobody saw (``"?"``) as ``a card nobody saw``; a number the
        catalogue lacks as ``card 999``. A card known by its code reads the same way
        (``Technology (WB01)``), and a code the cards lack as itself."""
        if number is None:
            return "none"
        if number == FACE_DOWN:
            return "a face-down card"
        if number == UNKNOWN:
            return "a card nobody saw"
        name = self.name(number)
        if isinstance(number, str):
            return number if name is None else f"{name} ({number})"
        return f"card {number}" if name is None else f"{name} ({number})"

    def cards(self, numbers: Sequence[int | str]) -> str:
        """Several cards: ``Sword (44) and Ice Pick (27)``; ``no card``; ``3 face-down cards``."""
        if not numbers:
            return "no card"
        if all(n in (FACE_DOWN, UNKNOWN) for n in numbers):
            return plural(len(numbers), "face-down card")
        # A card named more than once (clovers under one bunny, a bunny chosen twice).
        times = Counter(numbers)
        return and_list([self.card(n) + _times(times[n]) for n in dict.fromkeys(numbers)])

    def bunny(self, number: int, owner: int | None = None, names: Names | None = None) -> str:
        """A bunny in the circle by its card and, when known, its owner: ``Bo's Green
        Congenial Bunny (6)``."""
        said = self.card(number)
        if owner is None:
            return said
        return f"{possessive(seat_name(owner, names))} {said}"

    @staticmethod
    def carrot_label(label: str) -> str:
        """A carrot by the number or letter printed on it: ``carrot 7``."""
        return f"carrot {label}"

    def carrot(self, label: str) -> str:
        """The carrot a small carrot card names (by its number or letter): its large card,
        ``Carrot #07 - Presto (109)``; ``carrot 7`` if the catalogue has no such card."""
        number = self.carrots.get(label)
        return self.carrot_label(label) if number is None else self.card(number)

    def carrot_labels(self, labels: Sequence[str]) -> str:
        """Several carrots by the labels printed on them, as the table reads a row of them:
        ``carrot C``, ``carrots A-F``, ``carrots A, C and E-G``, ``no carrot``. Labels that
        follow each other in the catalogue's order (A, B, C...; 1, 2, 3...) run together."""
        if not labels:
            return "no carrot"
        order = {label: i for i, label in enumerate(sorted(self.carrots, key=self.carrots.__getitem__))}
        runs: list[list[str]] = []
        for label in labels:
            last = runs[-1][-1] if runs else None
            if last is not None and label in order and last in order and order[label] == order[last] + 1:
                runs[-1].append(label)
            else:
                runs.append([label])
        said = [run[0] if len(run) == 1 else
                (f"{run[0]}, {run[1]}" if len(run) == 2 else f"{run[0]}-{run[-1]}") for run in runs]
        return ("carrot " if len(labels) == 1 else "carrots ") + and_list(said)

    # -- dice ------------------------------------------------------------------------------------
    def die(self, die: str) -> str:
        """A die of the deck set: ``the black d12``; a die of the roller's choosing (no
        colour) as ``a d12``; a die the set does not declare by its id."""
        spec = self.dice.get(die)
        if spec is None:
            return "the " + die.replace("-", " ")
        if spec.same_as is not None and spec.same_as in self.dice:
            stand_in = self.dice[spec.same_as]
            return f"the {spec.colour} d{spec.sides} (the {stand_in.colour} one stands in)"
        if not spec.colour:
            return f"a d{spec.sides}"
        return f"the {spec.colour} d{spec.sides}"

    def zero_is_ten(self, die: str | None = None) -> bool:
        """Whether a 0 on ``die`` counts as 10; for a die not named, whether it does on every
        die of the set (KinderBunnies' five d10)."""
        if die is not None:
            spec = self.dice.get(die)
            return spec is not None and spec.zero_is_ten
        return bool(self.dice) and all(d.zero_is_ten for d in self.dice.values())

    def face(self, face: int, die: str | None = None, article: bool = True) -> str:
        """One face as said aloud: ``a 7``; ``a 0, which counts as 10`` on a die that reads 0
        as 10 (``0 (as 10)`` in a list of faces, ``article`` False)."""
        if face == 0 and self.zero_is_ten(die):
            return "a 0, which counts as 10" if article else "0 (as 10)"
        return f"{an(face)} {face}" if article else str(face)

    def roll(self, faces: Sequence[int], dice: Sequence[str] = ()) -> str:
        """What the dice showed: ``a 7 on the black d12``; several dice each with its face;
        faces alone when the dice are not known (``4, 4 and 9``)."""
        if not faces:
            return "no die"
        if len(dice) == len(faces):
            return and_list([f"{self.face(f, d)} on {self.die(d)}" if f or not self.zero_is_ten(d)
                             else f"a 0 on {self.die(d)}, which counts as 10"
                             for f, d in zip(faces, dice, strict=True)])
        if len(dice) == 1 and len(faces) > 1:
            return and_list([self.face(f, dice[0], False) for f in faces]) + f" on {self.die(dice[0])}"
        if len(faces) == 1:
            return self.face(faces[0])
        return and_list([self.face(f, None, False) for f in faces])

    # -- money and supplies --------------------------------------------------------------------
    def dolla(self, amount: int) -> str:
        """An amount of money: ``12 Dolla``, ``1 Bunny Buck``."""
        return f"{amount} {self.money_one if amount == 1 else self.money}"

    @staticmethod
    def units(kind: str, amount: int) -> str:
        """An amount of a supply: ``3 cabbage units``, ``1 water unit``; money in its unit."""
        return plural(amount, f"{kind} unit")

    def amount(self, kind: str, amount: int) -> str:
        """``amount`` of ``kind`` (cabbage, water or money) in words."""
        return self.dolla(amount) if kind == "money" else self.units(kind, amount)

    def value(self, numbers: Sequence[int]) -> int:
        """What supply or money cards are worth together (units or money)."""
        total = 0
        for n in numbers:
            card = self.by_number.get(n)
            if card is not None:
                total += card.units or card.money or 0
        return total

    # -- the run ---------------------------------------------------------------------------------
    def run_card(self, number: int | str | None) -> str:
        """A run position as a view shows it: a card, ``face down``, or ``empty``."""
        if number is None:
            return "empty"
        if number == FACE_DOWN:
            return "face down"
        return self.card(number)

    def run(self, top: int | str | None, bottom: int | str | None) -> str:
        """Both run positions: ``top Sword (44), bottom face down``."""
        return f"top {self.run_card(top)}, bottom {self.run_card(bottom)}"

    # -- typed values -----------------------------------------------------------------------------
    def writers(self) -> dict[Meaning, Writer]:
        """How the family writes each meaning of engine.said: cards by name and number,
        money in the game's unit, faces with a 0 as 10 where the dice read it so, dice by
        colour, carrots by letter, places of the circle by ordinal."""
        return {
            said.CARD: lambda v, _n: self.card(v),
            said.CARDS: lambda v, _n: self.cards(v),
            said.MONEY: lambda v, _n: self.dolla(int(v)),
            said.FACE: lambda v, _n: self.face(int(v)),
            said.ROLL: lambda v, _n: self.roll(v),
            said.DIE: lambda v, _n: self.die(str(v)),
            said.DICE: lambda v, _n: and_list([self.die(str(d)) for d in v]),
            said.CARROT: lambda v, _n: self.carrot(str(v)),
            said.CARROTS: lambda v, _n: and_list([self.carrot(str(c)) for c in v]),
            said.PLACE: lambda v, _n: place(int(v)),
            said.PLACES: lambda v, _n: and_list([place(a) for a in v if isinstance(a, int)]),
            said.UNITS: lambda v, _n: plural(int(v), "unit"),
            said.COUNT_OF_CARDS: lambda v, _n: plural(int(v), "card"),
        }

    # -- what changed -----------------------------------------------------------------------------
    def moves(self, before: Sequence[int | str], after: Sequence[int | str]) -> str:
        """Cards that came and went between two lists: ``+Sword (44) −Ice Pick (27) (5 → 5)``;
        by counts when many moved at once; ``reordered`` when none did."""
        came = list((Counter(after) - Counter(before)).elements())
        gone = list((Counter(before) - Counter(after)).elements())
        size = f"({len(before)} {ARROW} {len(after)})"
        if not came and not gone:
            return f"reordered {size}"
        if len(came) + len(gone) > MOVES_SHOWN:
            parts = ([f"{len(came)} added"] if came else []) + ([f"{len(gone)} taken"] if gone else [])
            return f"{', '.join(parts)} {size}"
        shown = [f"+{self.card(c)}" for c in came] + [f"{MINUS}{self.card(c)}" for c in gone]
        return f"{' '.join(shown)} {size}"
