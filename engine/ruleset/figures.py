"""A ruleset's key figures: a few numbers per position for per-turn statistics and charts,
as a dict or, faster, as a flat row (the projections take it column-wise). One part of
:class:`engine.ruleset.Ruleset`."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

S = TypeVar("S")


class RulesetFigures(Generic[S]):
    """The figures of a ruleset's positions (a part of :class:`engine.ruleset.Ruleset`)."""

    slug: ClassVar[str]

    def key_figures(self, state: S) -> dict[str, Any]:
        """A few numbers per position for per-turn statistics and charts."""
        if not self.figure_names:
            return {}
        row = self.figure_row(state)
        if not self.seat_figures:
            return dict(zip(self.figure_names, row, strict=True))
        seats = (len(row) - len(self.figure_names)) // len(self.seat_figures) + 1
        if len(row) != self.figure_width(seats):
            raise ValueError(f"{self.slug}: figure_row gave {len(row)} values, not a row of {seats} seats")
        out: dict[str, Any] = {}
        at = 0
        for name in self.figure_names:
            if name in self.seat_figures:
                out[name] = list(row[at:at + seats])
                at += seats
            else:
                out[name] = row[at]
                at += 1
        return out

    figure_names: ClassVar[tuple[str, ...]] = ()
    """The names of :meth:`key_figures`, in order, for a ruleset that gives them as a row
    (:meth:`figure_row`): the projections then take them column-wise, one tuple per turn
    instead of a dict, which is most of what a projection costs beyond the replay."""

    figure_docs: ClassVar[dict[str, str]] = {}
    """What each of :attr:`figure_names` means, in a few words: the analytics document's
    column tables are written from it (``python -m logstore.analytics.schema``), and a test
    holds every figure a game projects to a meaning."""

    seat_figures: ClassVar[frozenset[str]] = frozenset()
    """Those of :attr:`figure_names` that have a value per seat. :meth:`figure_row` gives each
    of them inline, as one value per seat in seat order (so a row has
    :meth:`figure_width` values), and :meth:`key_figures` shows it as a list. Without
    them a per-seat figure is a list inside the row, which costs a list per turn to build
    and to take apart."""

    def figure_width(self, seats: int) -> int:
        """The length of :meth:`figure_row`'s rows in a game of ``seats`` seats."""
        return len(self.figure_names) + len(self.seat_figures) * (seats - 1)

    def figure_row(self, state: S) -> tuple[Any, ...]:
        """The key figures of a position as a tuple in the order of :attr:`figure_names`,
        each of :attr:`seat_figures` as a value per seat (only asked of rulesets that name
        them)."""
        raise NotImplementedError(f"{self.slug} gives its key figures as a dict only")
