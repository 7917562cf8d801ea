"""What each seat may see of a ruleset's events, violations and effects, and a record as
one seat saw it (redaction). One part of :class:`engine.ruleset.Ruleset`: secrets stay
secret in every output a seat can see, corrections included."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import msgspec

from engine.capabilities import Capabilities, Perspective
from engine.corrections import Correction
from engine.record import Event
from engine.rules import Effect, Rulebook, Violation, WarrenError

S = TypeVar("S")


class RulesetViews(Generic[S]):
    """What a perspective sees (a part of :class:`engine.ruleset.Ruleset`)."""

    title: ClassVar[str]
    rulebook: Rulebook
    capabilities: Capabilities[Any]
    if TYPE_CHECKING:  # given by the other parts of Ruleset
        def decode_event(self, fields: dict[str, Any]) -> Event: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A correction carries the event it puts right; whatever view a game gives of its
        # events must filter that event too, or a correction would show every seat the
        # hidden fields of the event it corrects. Wrapped here, once for every ruleset
        # (plugins included), so no game can forget it.
        super().__init_subclass__(**kwargs)
        own: Callable[[RulesetViews[Any], Event, Perspective], dict[str, Any]] | None = \
            cls.__dict__.get("event_view")
        if own is not None and not getattr(own, "sees_corrections", False):
            def event_view(self: RulesetViews[Any], event: Event, perspective: Perspective) -> dict[str, Any]:
                if type(event) is Correction:
                    return correction_view(self, event, perspective, lambda e, p: own(self, e, p))
                return own(self, event, perspective)

            event_view.__dict__["sees_corrections"] = True
            event_view.__doc__ = own.__doc__
            cls.event_view = event_view  # type: ignore[method-assign]  # wrapping it is the point

    def event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        """An event as ``perspective`` saw it happen.

        Default: the referee sees everything; a chance event (actor null: a deal, a shuffle)
        shows only its type to everyone else; a player's action is seen whole. Rulesets
        with private actions override this.
        """
        if type(event) is Correction:
            return correction_view(self, event, perspective, self._plain_event_view)
        return self._plain_event_view(event, perspective)

    event_view.__dict__["sees_corrections"] = True

    def _plain_event_view(self, event: Event, perspective: Perspective) -> dict[str, Any]:
        record: dict[str, Any] = msgspec.to_builtins(event)
        record.pop("hash", None)
        if perspective == "referee" or event.actor is not None:
            return record
        return {k: record[k] for k in ("seq", "type", "actor") if k in record}

    def redact(self, event: Event, perspective: Perspective, before: S) -> Event:
        """``event`` as ``perspective`` saw it happen, written as a record of a game played at
        the table writes it: every card the perspective did not see is ``"?"``
        (engine.hidden), every card it saw is named. ``before`` is the full position before
        the event. Folding the redacted events gives ``perspective`` the same view at every
        position as the full game does (the contract suite checks it). Default: the event
        as it is, for a game that declares :attr:`Capabilities.redacts` and has no hidden
        information; a game that does not declare it is refused here, so that no game hands
        out its whole record as a redacted one."""
        if self.capabilities.redacts:
            return event
        raise WarrenError(f"warren cannot write a {self.title} record as one seat saw it: "
                          "this game does not declare redaction")

    def redact_chance(self, event: Event, effects: tuple[Effect, ...], perspective: Perspective,
                      before: S, after: S) -> tuple[list[Event], list[Event]]:
        """The chance events a table records, around ``event``, for what the engine did by
        itself while it applied the event in a full record (``effects``, in order; empty
        when the event was refused): a game whose full record needs no event for a card
        drawn from a known order writes one in its table form (Killer Bunnies Quest's
        ``draw``). Returns those that come before the event (what a held card's release
        drew, for instance) and those that follow it; their seqs are set by the caller.
        Default: none."""
        return [], []

    def violation_view(self, violation: Violation, perspective: Perspective, actor: int | None) -> Violation:
        """A violation as ``perspective`` may learn of it, like a view: the rule id (that the
        event breaks it is what the record shows) unless the id alone tells a secret
        (:attr:`secret_violations`), the message and the facts only
        where they hold nothing the perspective could not see. ``actor`` is the seat of the
        illegal event (None for chance). The referee sees everything; a rule in
        :attr:`public_violations` is shown whole to everybody, one in
        :attr:`actor_violations` to its actor too; anything else is told as the rule's own
        words, the facts withheld (a Townsfolk's illegal Sabotage must not tell the table
        who is Townsfolk, nor a lay of a card not in hand show that hand to the opponent)."""
        rule = violation.rule
        if perspective == "referee" or rule in self.public_violations:
            return violation
        own = rule in self.actor_violations or rule in self.secret_violations
        if actor is not None and perspective == actor and own:
            return violation
        if rule in self.secret_violations:
            return Violation(violation.seq, HIDDEN_RULE, HIDDEN_VIOLATION, {})
        who = "a spectator" if perspective == "spectator" else f"seat {perspective}"
        known = self.rulebook.get(rule)
        said = known.text if known is not None else "the rules forbid it"
        return Violation(violation.seq, rule,
                         f"{said} (what decided it is not shown: it involves what {who} could not see)",
                         {})

    def effect_view(self, effect: Effect, perspective: Perspective) -> Effect | None:
        """An effect as ``perspective`` learnt of it (None: it learnt nothing). Default: all."""
        return effect

    view_type: ClassVar[type[msgspec.Struct] | None] = None
    """The Struct whose JSON :meth:`view` returns, its fields saying what they hold
    (engine.said): the words read those types, and the contract suite holds every view
    to them. None: a game whose views are plain dicts, worded by its key tables."""

    public_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose violations tell nothing that any seat could not see: their message and
    facts are shown to every perspective (:meth:`violation_view`)."""

    actor_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose violations tell the acting seat only what it knew itself (its own hand,
    role or Item): shown whole to that seat too."""

    secret_violations: ClassVar[frozenset[str]] = frozenset()
    """Rules whose very id tells a secret ("only Werebunnies may Sabotage" names the actor a
    Townsfolk): every perspective but the referee and the actor is told only that a hidden
    action was illegal (:data:`HIDDEN_RULE`), not which rule it broke."""


HIDDEN_RULE = "?"
"""The rule id a perspective is shown of a violation whose id would tell it a secret
(:attr:`Ruleset.secret_violations`)."""

HIDDEN_VIOLATION = "an illegal hidden action: which rule it broke would tell a secret"

def correction_view(ruleset: RulesetViews[Any], event: Correction, perspective: Perspective,
                    view: Callable[[Event, Perspective], dict[str, Any]]) -> dict[str, Any]:
    """A correction as ``perspective`` saw it: the event it puts in place is shown as the
    game's ``view`` of that event shows it, never more (REC-FIX-1). A replacement that does
    not read as an event of the game (a malformed correction, REC-FIX-2) is shown to the
    referee only."""
    record: dict[str, Any] = msgspec.to_builtins(event)
    record.pop("hash", None)
    if event.event is None or perspective == "referee":
        return record
    fields = {k: v for k, v in event.event.items() if k not in ("seq", "hash")}
    try:
        replacement = ruleset.decode_event({**fields, "seq": event.corrects})
    except (msgspec.ValidationError, TypeError, WarrenError):
        record["event"] = None
        return record
    seen = view(replacement, perspective)
    record["event"] = {k: v for k, v in seen.items() if k != "seq"}
    return record
