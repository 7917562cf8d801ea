"""Short entries: the fewest keys that say which of the actions the rules allow now is meant.

A scorekeeper at the table types while the game goes on, so the recorder reads more than
the full notation (``lay 9C 9H 9S``, ``play Violet Perky Bunny``): it also reads the start
of an action that only one of the actions the rules allow now has.

Each offer is spelled a few ways, all in the table's words, and all compared with the
line typed after :func:`plain` (case, card suits as letters, punctuation and extra spaces
dropped):

* its notation with cards by name: ``play violet perky bunny``, ``lay 9c 9h 9s``;
* the same without the action's name, when the cards say what is done: ``violet perky
  bunny``, ``9c 9h 9s``;
* the initials of a card's name: ``vpb``;
* the ruleset's own short spellings (:meth:`engine.ruleset.Ruleset.short_spellings`): a
  set of one rank in Bunnies is the rank then its suits, ``9chs``, and a blind card is its
  place as the words name it, ``steal blind 4``.

A line that is one spelling of one action exactly is that action; otherwise a line that
starts one action's spelling and no other action's is that action (``vio``, ``p`` for
``pickup``). Two actions or more that fit are named back, in words, so nothing is guessed.
:meth:`Entries.shortest` gives the shortest line that picks an offer: the recorder shows it, and
the keystroke count of a scripted game is measured with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.dispute.notation import event_tag, read_action
from engine.rules import WarrenError

if TYPE_CHECKING:
    from logstore.recording.session import Offer, TableSession

_SUITS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s"})
_DROPPED = re.compile(r"[^\w.=\s?]")


RESERVED = frozenset({"?"})
"""Lines the recorder reads as its own commands (as is every line starting ``:``): never
offered as a short entry."""


def plain(text: str) -> str:
    """A spelling as compared: lower case, suits as letters, no punctuation, one space."""
    return " ".join(_DROPPED.sub("", text.translate(_SUITS).lower().replace("-", "_")).split())


class AmbiguousEntry(WarrenError):
    """A short entry that starts more than one of the actions the rules allow now."""


_COPY = re.compile(r"\s*\(\d+\)")
"""The number after a name several identical cards share (``Feed The Bunny - Cabbage
(23)``): the table does not know which copy a player holds, so the copies are one choice."""


def spoken(offer: Offer) -> str:
    """An offer as the table says it: its notation with cards by name, no copy numbers."""
    return plain(_COPY.sub("", offer.notation))


def spellings(session: TableSession, offer: Offer) -> list[str]:
    """The ways :class:`Entries` reads ``offer`` (module docstring), plain: the game's own
    short spellings first, so that of two equally short entries its own is shown."""
    full = spoken(offer)
    rest = full.partition(" ")[2]
    out = [plain(s) for s in session.ruleset.short_spellings(offer.event)]  # first: the game's own
    out.append(full)
    if rest:
        out.append(rest)
        unnamed = re.sub(r"\b\w+=", "", rest)  # ``on=`` left out: the card, then its target
        out.append(unnamed)
        words = unnamed.split()
        if len(words) > 1 and all(len(w) > 2 and w.isalpha() for w in words):
            out.append("".join(w[0] for w in words))  # initials of a name: ``vpb``
    return list(dict.fromkeys(out))


def _key(offer: Offer) -> str:
    """Two seats' offers of one action are two choices; copies of one card are one."""
    return spoken(offer) if offer.seat is None else f"{offer.seat}:{spoken(offer)}"


def _starts_words(typed: list[str], words: list[str]) -> bool:
    """Is each typed word the start of one of ``words``, in order (``c b s`` for
    ``cabbage blue sleepy bunny``)?"""
    i = 0
    for word in words:
        if i < len(typed) and word.startswith(typed[i]):
            i += 1
    return i == len(typed)


class Entries:
    """The actions the rules allow now, with their spellings, to read short entries by."""

    def __init__(self, session: TableSession, offers: Sequence[Offer]) -> None:
        self.session = session
        self.choices: dict[str, Offer] = {}
        for offer in offers:
            self.choices.setdefault(_key(offer), offer)
        self.spelled = {key: spellings(session, offer) for key, offer in self.choices.items()}
        self.words = {key: [s.split() for s in spells] for key, spells in self.spelled.items()}

    def pick(self, line: str) -> Offer | None:
        """The one offer ``line`` stands for (module docstring), or None when it starts
        none. Raises :class:`AmbiguousEntry`, naming the actions in words, when it starts
        several."""
        started = self._started(plain(line))
        if not started:
            return None
        if len(started) == 1:
            return self.choices[started[0]]
        session = self.session
        shown = [session.ruleset.describe(self.choices[k].event, session.names) for k in started[:5]]
        more = f" and {len(started) - 5} more" if len(started) > 5 else ""
        raise AmbiguousEntry(f"{line.strip()!r} could be " + "; ".join(shown) + more
                             + ": type more of the one you mean (? lists them)")

    def started(self, line: str) -> list[Offer]:
        """The offers ``line`` fits as :meth:`pick` reads it (every offer for an empty line):
        what Tab completes it to, so that Tab offers nothing Enter would not take."""
        typed = plain(line)
        keys = self._started(typed) if typed else list(self.choices)
        return [self.choices[k] for k in keys]

    def _started(self, typed: str) -> list[str]:
        """The choices ``typed`` fits: those it spells exactly, else those it starts, else
        those whose words it starts one by one."""
        if not typed:
            return []
        exact = [key for key, spells in self.spelled.items() if typed in spells]
        if exact:
            return exact
        begun = [key for key, spells in self.spelled.items() if any(s.startswith(typed) for s in spells)]
        if begun:
            return begun
        parts = typed.split()
        return [key for key, spells in self.words.items() if any(_starts_words(parts, w) for w in spells)]

    def shortest(self, offer: Offer) -> str:
        """The shortest line :meth:`pick` reads as ``offer`` (its full notation when no
        shorter line does)."""
        key = _key(offer)
        best = offer.notation
        for spelling in self.spelled.get(key, []):
            for end in range(1, min(len(spelling), len(best) - 1) + 1):
                start = spelling[:end]
                if not start.endswith(" ") and start not in RESERVED and self._started(start) == [key]:
                    best = start
                    break
        for line in _word_starts(self.words.get(key, []), len(best) - 1):
            if line not in RESERVED and self._started(line) == [key]:
                best = line
                break
        if best == offer.notation and offer.seat is not None:
            # Several seats may do the same now (every player lays his first run cards):
            # the player's name first, then the fewest keys among that player's own actions.
            mine = [o for o in self.choices.values() if o.seat == offer.seat]
            if len(mine) < len(self.choices) and 0 <= offer.seat < len(self.session.names):
                prefixed = f"{self.session.names[offer.seat]}: {Entries(self.session, mine).shortest(offer)}"
                if len(prefixed) < len(best):
                    best = prefixed
        return best


def _word_starts(spellings: list[list[str]], longest: int) -> list[str]:
    """Lines of word starts (one or two letters of up to three words, in order) no longer
    than ``longest``, shortest first: the candidates :meth:`Entries.shortest` tries."""
    from itertools import combinations, product

    lines: set[str] = set()
    for words in spellings:
        for size in (1, 2, 3):
            for chosen in combinations(words[:10], size):
                for cut in product((1, 2), repeat=size):
                    line = " ".join(w[:n] for w, n in zip(chosen, cut, strict=True))
                    if len(line) <= longest:
                        lines.add(line)
    return sorted(lines, key=lambda x: (len(x), x))


def action_named(session: TableSession, offers: Sequence[Offer], line: str) -> str | None:
    """``line`` with the action it leaves out or shortens put in, where only one fits: the
    start of an action's name (``pi 3`` for ``pickup``; the actions allowed now first), or
    the values of the one action allowed now that reads them (``5c``: ``lay 5c``, which
    the rules then judge, and refuse with their rule). None when none or several fit."""
    tags = list(session.ruleset.events_by_type)
    offered = list(dict.fromkeys(event_tag(type(o.event)) for o in offers))
    first, _, rest = line.strip().partition(" ")
    word = first.lower().replace("-", "_")
    if word and word not in tags:
        for pool in (offered, tags):
            starts = [t for t in pool if t.startswith(word)]
            if len(starts) == 1:
                return " ".join([starts[0], rest]).strip()
    reads: list[str] = []
    for tag in [] if word in tags else offered:
        try:
            read_action(session.ruleset, f"{tag} {line}")
        except WarrenError:
            continue
        reads.append(tag)
    return f"{reads[0]} {line}" if len(reads) == 1 else None

