"""A whole game recorded at the table by names only, through the recorder's own loop, and
the keys it took: at most 5 an event for Bunnies and KinderBunnies (issue: the table's words).

The game is a simulated one as the table saw it (engine.redact: hands and draws unseen).
The scorekeeper types, for each event, what the recorder's ``?`` shows as the shortest
entry for it (logstore.recording.shorthand), Enter alone for a draw nobody saw, and what
the table saw of a chance event (the card a draw showed, the dice) by name or face. The
recorded game must be the game played, event for event, by card names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.record import Event, event_to_dict
from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.simulate import simulate_one
from logstore.cli.record import run_recorder
from logstore.recording.session import DEAL, ONE_UNSEEN, TableSession, table_header
from logstore.recording.shorthand import Entries
from logstore.store import Store

_COPY = re.compile(r" \(\d+\)")


def _by_name(ruleset: Any, event: Event) -> dict[str, Any]:
    """An event with its cards by name (copies of one card are the same card at the table)."""
    data = event_to_dict(event)
    data.pop("seq", None)
    data.pop("hash", None)
    for key, value in data.items():
        if key != "type" and ruleset.is_card_field(key) and isinstance(value, int) \
                and not isinstance(value, bool):
            token = ruleset.card_token(value)
            data[key] = _COPY.sub("", token) if token else value
        elif key != "type" and ruleset.is_card_field(key) and isinstance(value, list) and value \
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value) and key != "faces":
            tokens = [ruleset.card_token(v) for v in value]
            if all(tokens):
                data[key] = [_COPY.sub("", t) for t in tokens]
    return data


def _start(session: TableSession, tag: str, field: str, name: str) -> str:
    """The shortest start of a card's name that reads as that card (a name only one card
    has begins with it), as a scorekeeper types a card he saw."""
    ruleset = session.ruleset
    want = ruleset.read_value(tag, field, name)
    for end in range(1, len(name)):
        start = name[:end]
        if start.endswith(" "):
            continue
        try:
            got = ruleset.read_value(tag, field, start)
        except Exception:  # several cards begin so: type more
            continue
        if got == want or (isinstance(got, int) and _COPY.sub("", ruleset.card_token(got) or "") == name):
            return start
    return name


def _typed(session: TableSession, wanted: Event, ahead: Sequence[Event] = ()) -> str:
    """What the scorekeeper types for ``wanted`` at the session's position (``ahead``: the
    events from it on, for a deal typed at once)."""
    template = session.chance_template()
    want = _by_name(session.ruleset, wanted)
    if template is not None:
        shown = _by_name(session.ruleset, template.event)
        differs = [k for k in want if want[k] != shown.get(k)]
        if not differs and not template.complete:
            differs = [k for k in template.fields if k in want]  # the table saw it: typed all the same
        if not differs:
            owed = session.pending.chance
            if owed is not None and owed.kind == DEAL:
                # Enter records the rest of the deal unseen; where the table saw a card of
                # it later (a Dolla goes face up), this one card alone
                dealt = [_by_name(session.ruleset, a.event) for a in session.unseen_deal()]
                later = [_by_name(session.ruleset, e) for e in ahead[:len(dealt)]]
                return "" if dealt == later else ONE_UNSEEN
            return ""  # nothing of it seen: Enter
        assert len(differs) == 1, differs
        value = want[differs[0]]
        if differs[0] not in ("card", "faces", "cards"):  # not the one field a bare value fills
            return f"{want['type']} {differs[0]}={value}"
        if isinstance(value, list) and all(isinstance(v, str) for v in value):  # cards by name
            return ", ".join(_start(session, want["type"], differs[0], v) for v in value)
        if isinstance(value, str):
            return _start(session, want["type"], differs[0], value)
        if isinstance(value, list):  # dice, one digit each (as many as the template has)
            jotted = all(0 < v < 10 for v in value) and len(value) == len(getattr(template.event, differs[0]))
            return "".join(map(str, value)) if jotted else " ".join(map(str, value))
        return str(value)
    offers = session.offers()
    mine = [o for o in offers if o.seat == wanted.actor and _by_name(session.ruleset, o.event) == want]
    if mine:
        return Entries(session, offers).shortest(mine[0])
    # Not among the offers (a discard of a card nobody saw held): the notation, by name.
    from engine.dispute.notation import format_action

    return _COPY.sub("", format_action(session.ruleset, wanted, named=True))


def record_by_names(tmp_path: Path, slug: str, index: int, players: int = 2,
                    perspective: int | str = "spectator") -> tuple[int, int, list[str]]:
    """Record simulated game ``index`` of ``slug`` at the table as ``perspective`` saw it;
    (events, keys, lines)."""
    ruleset = get_ruleset(slug)
    game = simulate_one(ruleset, 1, index, players=players)
    header, events = redact_game(ruleset, game.header, game.events, perspective)
    store = Store(tmp_path / f"{slug}-{index}.db")
    names = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"][:players]
    session = TableSession.start(store, table_header(slug, names, header.options, game_id="g"))
    lines: list[str] = []
    asked: list[int] = []

    def ask(question: str, choices: list[str]) -> str:
        asked.append(session.seq)
        if session.seq >= len(events) or asked.count(session.seq) > 1:
            raise EOFError  # the game is in, or an entry was refused: stop and say so
        line = _typed(session, events[session.seq], events[session.seq:])
        lines.append(line)
        return line

    said: list[str] = []
    run_recorder(session, ask, said.append)
    assert not [s for s in said if s.startswith(("not recorded", "refused"))], said[-5:]
    recorded = store.record("g").events
    assert [_by_name(ruleset, e) for e in recorded] == [_by_name(ruleset, e) for e in events]
    return len(events), sum(len(line) + 1 for line in lines), lines  # + Enter each


@pytest.mark.parametrize("slug", ["bunnies", "kinderbunnies"])
def test_a_whole_game_is_recorded_by_names_in_at_most_five_keys_an_event(
        tmp_path: Path, slug: str, capsys: pytest.CaptureFixture[str]) -> None:
    events = keys = 0
    for index in range(2):
        n, k, lines = record_by_names(tmp_path, slug, index)
        events, keys = events + n, keys + k
        # by names and faces only: no card number is typed
        assert not [line for line in lines if _COPY.search(line) or re.search(r"\b[A-Z]{2}\d{2}\b", line)]
        if slug == "kinderbunnies":
            assert not [line for line in lines if re.fullmatch(r"(play|discard) \d+.*", line)]
    with capsys.disabled():
        print(f"\n{slug}: {events} events recorded in {keys} keys, {keys / events:.2f} an event")
    assert keys / events <= 5


def test_a_whole_four_player_quest_game_is_recorded_in_at_most_five_keys_an_event(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Killer Bunnies Quest at a real table (R-KBQ-40): Ann records a 4-player game as she saw
    it: Enter for each card another player drew, her own draws and every card turned up by
    name, each action by the fewest keys the recorder shows."""
    events, keys, lines = record_by_names(tmp_path, "killer-bunnies-quest", 0, players=4, perspective=0)
    assert not [line for line in lines if _COPY.search(line)]
    with capsys.disabled():
        print(f"\nkiller-bunnies-quest: {events} events in {keys} keys, {keys / events:.2f} an event")
    assert keys / events <= 5
