"""What Tab offers in the recorder: the actions the rules allow now that the line typed so far
could stand for, read the way Enter reads it (logstore.recording.shorthand), so that Tab and
Enter never disagree.

A completion is a whole line: the action's notation with its cards by name (``lay Q♣`` reads
as ``lay QC``), with the seat prefix the line began with (``Ann: ``) kept. Where the line typed
starts every completion, the terminal inserts the part they share first (``la`` + Tab gives
``lay ``, not the first of the lays); the recorder's commands complete when the line starts
with ``:``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from logstore.recording.entries import seat_of
from logstore.recording.shorthand import Entries

if TYPE_CHECKING:
    from logstore.recording.session import Offer, TableSession

COMMANDS = (":undo", ":correct", ":strike", ":show", ":quit", "?")
"""The recorder's own commands (logstore.cli.record)."""


@dataclass(frozen=True, slots=True)
class Completion:
    """One line Tab may complete to: ``line`` replaces what was typed; ``said`` is the
    action in words, shown beside it."""

    line: str
    said: str


def completions(session: TableSession, offers: Sequence[Offer], typed: str) -> list[Completion]:
    """The lines ``typed`` completes to, each one Enter records as the action it says."""
    if typed.startswith(":") or typed == "?":
        return [Completion(c, "") for c in COMMANDS if c.startswith(typed)]
    text, seat = seat_of(session.names, typed)
    prefix = typed[:len(typed) - len(text)] if seat is not None else ""
    mine = [o for o in offers if seat is None or o.seat == seat]
    out: list[Completion] = []
    for offer in Entries(session, mine).started(text):
        line = offer.notation
        said = session.ruleset.describe(offer.event, session.names)
        out.append(Completion(prefix + line, said))
    return out


class EntryChoices(list[str]):
    """The recorder's choices for a prompt: the notations (a plain list, for scripted
    answers) and :meth:`complete`, which a terminal's Tab asks."""

    def __init__(self, session: TableSession, offers: Sequence[Offer]) -> None:
        super().__init__([*sorted({o.notation for o in offers}), *COMMANDS])
        self.session = session
        self.offers = list(offers)

    def complete(self, typed: str) -> list[Completion]:
        return completions(self.session, self.offers, typed)
