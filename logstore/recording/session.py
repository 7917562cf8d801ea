"""Recording a game at the table, event by event, into the store.

A :class:`TableSession` is what ``warren record`` and the dashboard's Record page share:
it knows the game being recorded (stored in the event store as it goes), says what the
rules allow now (read from the pending decisions: who acts and what they may do), reads
what the scorekeeper types in the ruleset's notation, refuses an illegal entry with its
rule before anything is written, and appends every accepted event at once, sealed, naming
the seq it expects to follow, so two devices recording one game can never fork it
silently (the second gets :class:`logstore.store.StaleSeq` and the fresh position).

A mistake already recorded is put right by a correction event (engine.corrections), never
by editing the record: :meth:`TableSession.undo` strikes the last entry, and
:meth:`TableSession.correct` replaces an earlier one.

Chance at the table: nobody saw the shuffled deck, so a deal is recorded with its cards
unknown. :meth:`TableSession.chance_template` proposes the chance event as the table saw
it, the ruleset's own outcome redacted for the table (engine.redact); what the table did
see (a die, the first mayor) differs from one draw to another and must be typed in.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from engine.corrections import Correction
from engine.dispute.notation import ActionError, format_action, propose
from engine.hidden import is_undetermined
from engine.pending import Agenda, Chance
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict
from engine.registry import get_ruleset
from engine.rules import Effect, RuleViolation, WarrenError
from engine.ruleset import GameState, Ruleset
from engine.wording import seat_label
from logstore.store import Store

TEMPLATE_DRAWS = 32
"""How many independent outcomes of owed chance are redacted to find what the table did
not see (the same in every draw) and what it must be told (different between draws). A
visible part with two outcomes (who starts, at two players) looks the same in every draw
with odds of one in 2**(draws - 1): with 4 draws, one game in 8 was wrongly told the table
had seen nothing; with 32, about one in two thousand million."""


@dataclass(frozen=True, slots=True)
class Offer:
    """An action the rules allow now, ready to be typed."""

    seat: int | None
    notation: str
    event: Event


@dataclass(frozen=True, slots=True)
class Accepted:
    """An accepted entry: the event as stored, what it caused, what stays undetermined."""

    event: Event
    effects: tuple[Effect, ...]
    undetermined: tuple[Effect, ...]
    said: str = ""
    """The event in words, told from the position it was entered at (Ruleset.describe)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """An entry the rules refuse: nothing was written."""

    rule: str
    message: str
    text: str
    """The rule's paraphrase, to tell the scorekeeper why."""


class BreaksLater(RuleViolation):
    """A correction that would make an event already recorded illegal: nothing was written.
    The recorder offers to correct (or strike) that event too, in the same batch."""

    def __init__(self, seq: int, rule: str, message: str, batch: Sequence[Correction]) -> None:
        super().__init__(rule, f"{message} (entry {seq}, once the correction is applied; "
                               "correct or strike it too)")
        self.seq: int | None = seq
        self.broken = message
        self.batch = list(batch)


DEAL = "deal"
"""The kind of chance a deal is owed as (engine.pending.Chance.kind)."""
ONE_UNSEEN = "-"
"""Typed for a chance owed: this one event, nobody saw it (at a deal, where Enter records
the whole rest of the deal unseen)."""


def dealt_unseen(owed: Chance | None, template: ChanceTemplate | None) -> bool:
    """Is the chance owed a card of a deal dealt one card at a time (to a seat each), which
    nobody saw? Such a deal is one entry (:meth:`TableSession.enter_unseen_deal`)."""
    return (owed is not None and owed.kind == DEAL and template is not None and template.complete
            and getattr(template.event, "seat", None) is not None)


@dataclass(slots=True)
class ChanceTemplate:
    """The chance event owed now, as the table saw it."""

    event: Event
    complete: bool
    """True when nothing of it was visible to the table (accept it as it is); False when
    the table saw a part of it (a die, who starts) that must be typed in."""
    fields: list[str] = field(default_factory=list)
    """The fields the table saw and must give."""


def table_header(slug: str, players: Sequence[str], options: dict[str, Any] | None = None,
                 game_id: str | None = None, now: datetime | None = None) -> Header:
    """The header of a game about to be recorded at the table (``source: "recorded"``)."""
    ruleset = get_ruleset(slug)
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    header = Header(warren=FORMAT_VERSION, kind="header", game_id=game_id or f"{slug}-table-{stamp}",
                    ruleset=slug, options=dict(options or {}),
                    players=[Player(seat=i, name=name) for i, name in enumerate(players)],
                    source="recorded", created=when)
    ruleset.check_header(header)
    return header


class TableSession:
    """One game being recorded (see the module docstring)."""

    def __init__(self, store: Store, game_id: str, out: Path | None = None, *,
                 at_seq: int | None = None) -> None:
        self.store = store
        self.game_id = game_id
        self.out = out
        """A record file kept up to date after every entry (written whole, atomically);
        remembered in the store so that resuming goes on writing it."""
        row = store.game(game_id)
        if out is not None:
            from logstore.store.recordings import remember

            remember(store, game_id, out)
        self.header = store.record(game_id).header
        self.ruleset: Ruleset[Any, Any] = get_ruleset(row.ruleset).for_game(self.header)
        self.names = list(row.players)
        self._state: GameState | None = None
        if at_seq is not None and not 0 <= at_seq <= row.n_events:
            raise WarrenError(f"game {game_id!r} has {row.n_events} events; it has no position {at_seq}")
        self._seq = row.n_events if at_seq is None else at_seq
        """The last seq this session has seen. ``at_seq`` reopens a session where a device
        left it (a page showing that position): its next append expects that seq, so if
        another device has recorded since, the append is refused (StaleSeq), never forked."""

    # -- starting and resuming ---------------------------------------------------------
    @classmethod
    def start(cls, store: Store, header: Header, out: Path | None = None) -> TableSession:
        """Create the game in the store (sealed) and record into it."""
        store.create_game(header, sealed=True)
        session = cls(store, header.game_id, out)
        session._write_file()
        return session

    # -- where the game stands ---------------------------------------------------------
    @property
    def seq(self) -> int:
        """The last seq recorded."""
        return self._seq

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = self.store.state_at(self.game_id, self._seq)
        return self._state

    def refresh(self) -> None:
        """Re-read the game from the store (another device may have recorded meanwhile)."""
        self._seq = self.store.game(self.game_id).n_events
        self._state = None

    def catch_up(self) -> list[Event]:
        """The events another device recorded since this session last looked, now taken in
        (the session goes on from the game's last event; its record file is rewritten)."""
        last = self.store.game(self.game_id).n_events
        if last <= self._seq:
            return []
        missed = self.store.record(self.game_id).events[self._seq:last]
        self._seq, self._state = last, None
        self._write_file()
        return list(missed)

    @property
    def pending(self) -> Agenda:
        return self.ruleset.pending(self.state)

    def who(self, seat: int | None) -> str:
        return seat_label(seat, self.names)

    def waiting_for(self) -> str:
        """What the game waits for, in words."""
        state = self.state
        if state.over:
            outcome = self.ruleset.outcome(state)
            winners = ", ".join(self.names[w] for w in outcome.winners) if outcome else "nobody"
            return f"the game is over: {winners} won"
        agenda = self.pending
        if agenda.chance is not None:
            return f"chance: {agenda.chance.kind} (recorded by the table)"
        parts = [f"{self.who(d.seat)}: {d.kind}" for d in agenda.decisions.values()]
        if agenda.windows:
            parts.append("off-turn answers from " + ", ".join(self.who(s) for s in agenda.responders()))
        return "; ".join(parts) or "nothing"

    def offers(self) -> list[Offer]:
        """Every action the rules allow now, for every seat that may act."""
        state = self.state
        out: list[Offer] = []
        for seat in self.ruleset.may_act(state):
            for event in self.ruleset.legal_actions(state, seat):
                # Cards by name, as the table types them (``play Sword on=Blue Sinister Bunny``).
                out.append(Offer(seat, format_action(self.ruleset, event, named=True), event))
        return out

    def chance_template(self) -> ChanceTemplate | None:
        """The chance owed now as the table saw it (module docstring), or None."""
        return self._template_at(self.state)

    def _template_at(self, state: GameState) -> ChanceTemplate | None:
        owed = self.ruleset.pending(state).chance
        if owed is None:
            return None
        seen: list[dict[str, Any]] = []
        for draw in range(TEMPLATE_DRAWS):
            event = self.ruleset.sample_chance(self.ruleset.copy_state(state), owed,
                                               random.Random(f"template:{self.game_id}:{state.seq}:{draw}"))
            if event is None:
                return None
            # A game that cannot leave a card unknown (no redaction) has the table name all.
            if self.ruleset.capabilities.redacts:
                event = self.ruleset.redact(event, "spectator", state)
            seen.append(event_to_dict(event))
        first = seen[0]
        differing = sorted({k for s in seen[1:] for k in set(s) | set(first) if s.get(k) != first.get(k)})
        event = self.ruleset.decode_event(first)
        return ChanceTemplate(event, complete=not differing, fields=differing)

    # -- entering events -----------------------------------------------------------------
    def read(self, text: str | dict[str, Any], seat: int | None = None) -> Event:
        """The event an action stands for, in notation or as a record-style dict
        (:class:`ActionError` when it does not read)."""
        return propose(self.ruleset, self.state, text, n_seats=len(self.names), seat=seat)

    def judge(self, event: Event) -> Accepted | Refusal:
        """What the rules say of ``event`` at the current position (nothing is written)."""
        trial = self.ruleset.copy_state(self.state)
        try:
            effects = self.ruleset.apply(trial, event)
        except RuleViolation as exc:
            rule = self.ruleset.rulebook.get(exc.rule)
            # the players by name, the cards as the table names them (Ruleset.say)
            return Refusal(exc.rule, self.ruleset.say(exc.message, self.names), rule.text if rule else "")
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ActionError(f"{format_action(self.ruleset, event)!r} names something this game does not "
                              f"have ({type(exc).__name__}: {exc})") from None
        return Accepted(event, effects, tuple(e for e in effects if is_undetermined(e)))

    def settle_copies(self, event: Event) -> Event:
        """An entry as typed, with a card several identical copies share (a drawn 1 Bunny
        Buck, a Take A Carrot played from a hand nobody saw) settled on a copy the rules
        allow here (one still in the pile, not one already on the table): the table
        cannot tell the copies apart, the record must. A refused entry stays as typed."""
        data = event_to_dict(event)
        for name, value in data.items():
            if not self.ruleset.is_card_field(name) or not isinstance(value, int) or isinstance(value, bool):
                continue
            twins = self.ruleset.copies(value)
            if len(twins) < 2 or isinstance(self.judge(event), Accepted):
                continue
            for twin in twins:
                tried = msgspec.structs.replace(event, **{name: twin})
                if isinstance(self.judge(tried), Accepted):
                    event = tried
                    break
        return event

    def enter(self, entry: str | Event, seat: int | None = None) -> Accepted | Refusal:
        """Judge an entry and, if the rules allow it, append it to the game at once."""
        event = self.read(entry, seat) if isinstance(entry, str) else \
            msgspec.structs.replace(entry, seq=self._seq + 1, hash=None)
        verdict = self.judge(event)
        if isinstance(verdict, Refusal):
            return verdict
        said = self.ruleset.describe(event, self.names, before=self.state)
        self._append([event])
        return dataclasses.replace(verdict, said=said)

    def enter_unseen_deal(self) -> list[Accepted]:
        """The whole deal nobody at the table saw, in one entry: every card the deal owes
        now (KinderBunnies and a Quest game at the table deal one card at a time), each
        recorded unknown, written together or not at all. Stops where the deal ends or
        where the game cannot deal a card unseen; a card the table saw (a Bunny Buck goes
        face up) is typed on its own before, the cards before it entered one by one."""
        out = self.unseen_deal()
        if not out:
            raise WarrenError("no deal nobody saw is owed now")
        self._append([a.event for a in out])
        return out

    def unseen_deal(self) -> list[Accepted]:
        """What :meth:`enter_unseen_deal` would record now (nothing is written)."""
        state = self.ruleset.copy_state(self.state)
        events: list[Event] = []
        out: list[Accepted] = []
        while True:
            owed = self.ruleset.pending(state).chance
            template = self._template_at(state) if owed is not None and owed.kind == DEAL else None
            if not dealt_unseen(owed, template):
                break  # not a card of a deal dealt one at a time, or one the table saw
            assert template is not None
            event = msgspec.structs.replace(template.event, seq=self._seq + len(events) + 1, hash=None)
            said = self.ruleset.describe(event, self.names, before=state)
            try:
                effects = self.ruleset.apply(state, event)
            except RuleViolation:
                break
            events.append(event)
            out.append(Accepted(event, effects, tuple(e for e in effects if is_undetermined(e)), said=said))
        return out

    def undo(self, reason: str = "undone at the table") -> Accepted:
        """Strike the last entry (a correction: the record keeps both)."""
        if self._seq == 0:
            raise WarrenError("there is nothing to undo: no event has been recorded yet")
        target = self._last_real_seq()
        return self._append_correction(Correction(seq=self._seq + 1, actor=None, corrects=target,
                                                  reason=reason))

    def correct(self, seq: int, text: str | None, reason: str,
                also: Sequence[Correction] = ()) -> Accepted:
        """Replace event ``seq`` by ``text`` (notation or JSON), or strike it (``text`` None).

        ``also``: corrections of later events made in the same batch (the ones this
        correction would make illegal, :class:`BreaksLater`). Raises :class:`BreaksLater`
        when the corrected game is illegal at an event already recorded."""
        correction = self.correction(seq, text, reason, before=also)
        batch = [correction, *also]
        batch = [msgspec.structs.replace(c, seq=self._seq + 1 + i) for i, c in enumerate(batch)]
        try:
            self._append(list(batch))
        except RuleViolation as exc:
            if exc.seq is None or exc.seq > self._seq:
                raise
            said = self.ruleset.say(exc.message.split(" (event ")[0], self.names)
            raise BreaksLater(exc.seq, exc.rule, said, batch) from None
        return Accepted(batch[-1], (), ())

    def correction(self, seq: int, text: str | None, reason: str,
                   before: Sequence[Correction] = ()) -> Correction:
        """The correction of entry ``seq`` (its replacement read at the position before it,
        with the corrections ``before`` of the same batch applied), not yet appended."""
        if not 1 <= seq <= self._seq:
            # The entries a person sees are numbered from 1 ("recorded 3: ..."); position
            # seq - 1 is the one before it, which the store's message counted from.
            raise WarrenError(f"there is no entry {seq}: this game has entries 1 to {self._seq}")
        replacement: dict[str, Any] | None = None
        if text is not None:
            stored = self.store.record(self.game_id).events[seq - 1]
            event = propose(self.ruleset, self._corrected_before(seq, before), text,
                            n_seats=len(self.names), seat=stored.actor)
            replacement = {k: v for k, v in event_to_dict(event).items() if k not in ("seq", "hash")}
        return Correction(seq=self._seq + 1, actor=None, corrects=seq, reason=reason, event=replacement)

    def _corrected_before(self, seq: int, pending: Sequence[Correction]) -> GameState:
        """The position before event ``seq`` with the ``pending`` corrections applied."""
        if not pending:
            return self.store.state_at(self.game_id, seq - 1)
        events = [*self.store.record(self.game_id).events,
                  *(msgspec.structs.replace(c, seq=self._seq + 1 + i) for i, c in enumerate(pending))]
        effective, _ = self.ruleset.effective(events)
        state: GameState = self.ruleset.setup(self.header)
        try:
            self.ruleset.fold(state, [e for e in effective if e.seq < seq])
        except RuleViolation:
            return self.store.state_at(self.game_id, seq - 1)
        return state

    def _last_real_seq(self) -> int:
        events = self.store.record(self.game_id).events
        effective, _ = self.ruleset.effective(events)
        for event in reversed(effective):
            if type(event).__name__ not in ("Correction", "Struck"):
                return event.seq
        raise WarrenError("there is nothing left to undo")

    def _append_correction(self, correction: Correction) -> Accepted:
        self._append([correction])
        return Accepted(correction, (), ())

    def _append(self, events: list[Event]) -> None:
        self._seq = self.store.append(self.game_id, events, expect_seq=self._seq)
        self._state = None
        self._write_file()

    def _write_file(self) -> None:
        if self.out is None:
            return
        write_atomically(self.out, self.store.export(self.game_id))


def deal_said(session: TableSession, dealt: Sequence[Accepted]) -> str:
    """A deal entered at once, in words: ``the deal, 8 cards nobody saw (4 to Ann, 4 to Bo)``."""
    count = Counter(getattr(a.event, "seat", None) for a in dealt)
    each = ", ".join(f"{n} to {session.who(seat)}" for seat, n in count.items())
    return f"the deal, {len(dealt)} cards nobody saw ({each})"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (logstore.store.files: a regular file
    is replaced atomically, a FIFO or a device is written to as a stream)."""
    from logstore.store.files import write_file

    write_file(path, data)


Prompt = Callable[[str], str]
"""Asks the scorekeeper one question, returns the answer (prompt_toolkit's in the CLI)."""
