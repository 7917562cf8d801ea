"""Hidden information and deck files under fuzzing: redaction, corrections and deck files of
all kinds, generated.

* Every readable record (simulated games of every game that redacts, cut short, with an
  illegal event re-sealed, with corrections) redacted as every seat and as the table either
  is refused with a clear message or gives a record that checks as the original does (legal,
  or illegal at the same seq by the same rule), holds none of the original's values the
  perspective never saw, and is its own redaction.
* Every correction is shown to every perspective as the event it corrects is shown.
* Every deck file, however mangled, is checked or refused with a message; a folder holding
  it reads the rest.

The default run is bounded (CI); ``pytest -m slow`` runs the same properties far longer.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.corrections import Correction
from engine.reader import check_events
from engine.record import event_to_dict
from engine.redact import redact_game
from engine.registry import get_ruleset
from engine.rules import RuleViolation, WarrenError
from engine.simulate import SimulatedGame, simulate_one
from tests.contract.test_rulesets import _masked, _names_of

REDACTING = ("bunnies", "trust-no-bunny", "kinderbunnies", "killer-bunnies-odyssey")
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
LONG = settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
DECKS_QUICK = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
DECKS_LONG = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))


@cache
def _game(slug: str, seed: int, players: int) -> SimulatedGame:
    rs = get_ruleset(slug)
    n = max(rs.min_players, min(players, rs.max_players))
    return simulate_one(rs, seed, n, players=n, bots=("random",), max_events=220)


@st.composite
def games(draw: Any) -> tuple[str, Any, list[Any]]:
    """A game's header and events: cut short, an event given to another seat, or corrected."""
    slug = draw(st.sampled_from(REDACTING))
    rs = get_ruleset(slug)
    game = _game(slug, draw(st.integers(0, 5)), draw(st.integers(rs.min_players, rs.max_players)))
    events = list(game.events)
    how = draw(st.sampled_from(["whole", "cut", "other-seat", "correct", "strike"]))
    if how == "cut":
        events = events[:draw(st.integers(1, len(events)))]
    elif how == "other-seat":
        at = draw(st.integers(0, len(events) - 1))
        actor = events[at].actor
        n = len(game.header.players)
        events = events[:at + 1]
        events[at] = msgspec.structs.replace(events[at], actor=None if actor is None else (actor + 1) % n)
    elif how in ("correct", "strike"):
        cut = draw(st.integers(2, len(events)))
        events = events[:cut]
        target = events[draw(st.integers(0, cut - 1))]
        fields = {k: v for k, v in event_to_dict(target).items() if k not in ("seq", "hash")}
        events.append(Correction(seq=cut + 1, actor=None, corrects=target.seq, reason="the table says so",
                                 event=None if how == "strike" else fields))
    return slug, game.header, events


def _check_redaction(case: tuple[str, Any, list[Any]]) -> None:
    slug, header, events = case
    rs = get_ruleset(slug)
    original = check_events(rs, header, events)
    effective, _ = rs.effective(events)
    for perspective in [*range(len(header.players)), "spectator"]:
        try:
            seen_header, seen = redact_game(rs, header, events, perspective)
        except WarrenError as exc:
            assert original is not None and "does not write a redacted copy" in str(exc)
            continue
        found = check_events(rs, seen_header, seen)
        if original is None or original.rule == "REC-FIX-2":
            assert found is None, (perspective, found)
        else:
            assert found is not None and found.rule == original.rule, (perspective, found, original)
        # Nothing the perspective never saw (see the contract suite's same check).
        state = rs.setup(header)
        before = _names_of(rs.view(state, perspective))
        for full, written in zip((e for e in effective if type(e).__name__ != "Struck"), seen, strict=False):
            try:
                rs.apply(state, full)
            except RuleViolation:
                after = before
            else:
                after = _names_of(rs.view(state, perspective))
            saw = before | after | _names_of(rs.event_view(full, perspective))
            told = (_names_of(msgspec.to_builtins(written)) & _names_of(msgspec.to_builtins(full))) - saw
            assert not told, (slug, perspective, full.seq, told)
            masked = list(_masked(msgspec.to_builtins(full), rs.event_view(full, perspective),
                                  msgspec.to_builtins(written)))
            assert not masked, (slug, perspective, full.seq, masked)
            before = after
        again_header, again = redact_game(rs, seen_header, seen, perspective)
        assert again_header == seen_header
        assert [msgspec.to_builtins(e) for e in again] == [msgspec.to_builtins(e) for e in seen]


def _check_corrections(case: tuple[str, Any, list[Any]]) -> None:
    slug, header, events = case
    rs = get_ruleset(slug)
    for event in events:
        if type(event) is not Correction or event.event is None:
            continue
        replacement = rs.decode_event({**event.event, "seq": event.corrects})
        for perspective in [*range(len(header.players)), "spectator"]:
            shown = rs.event_view(event, perspective)
            assert shown["event"] == {k: v for k, v in rs.event_view(replacement, perspective).items()
                                      if k != "seq"}


@QUICK
@given(games())
def test_redaction_hides_and_keeps_the_verdict_quick(case: tuple[str, Any, list[Any]]) -> None:
    _check_redaction(case)
    _check_corrections(case)


@pytest.mark.slow
@LONG
@given(games())
def test_redaction_hides_and_keeps_the_verdict_long(case: tuple[str, Any, list[Any]]) -> None:
    _check_redaction(case)
    _check_corrections(case)


# -- deck files -------------------------------------------------------------------------------
DECKS = Path(__file__).resolve().parents[2] / "engine" / "killer_bunnies_odyssey" / "decks"
STARTERS = sorted(DECKS.glob("*.toml"))
PIECES = ['[', ']', '{', '}', '"', "=", "\n", "[[card]]\n", "[[list]]\n", 'card = "WB01"\n', "copies = 0\n",
          "copies = 99999999999999999999\n", 'id = ""\n', 'id = "../x"\n', "\x00", "\xff", "\\u0000",
          "x = " + "[" * 2000 + "]" * 2000 + "\n", 'code = "WB01"\n', "format = 2\n", "kind = \"pool\"\n",
          "a" * 70_000]


@st.composite
def deck_files(draw: Any) -> bytes:
    text = STARTERS[draw(st.integers(0, len(STARTERS) - 1))].read_text()
    text = text.replace('id = "', 'id = "fz', 1)  # its own deck id, so it is not a copy of a starter
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(1, 6))):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.3:
            text = text[:at] + text[at + rng.randrange(1, 200):]
        else:
            text = text[:at] + rng.choice(PIECES) + text[at:]
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data = data.replace(b"\xc3\xbf", b"\xff")  # a lone byte that is not UTF-8
    return data


def _check_deck_file(data: bytes, folder: Path) -> None:
    from engine.killer.catalogue.loader import CatalogueError, DeckLibrary
    from engine.killer_bunnies_odyssey.library import DECKS_DIR, Library
    from engine.killer_bunnies_odyssey.personal import DeckError

    path = folder / "fuzzed.toml"
    path.write_bytes(data)
    library = Library((DECKS_DIR,))
    try:
        library.check_file(path)
    except (DeckError, CatalogueError, WarrenError) as exc:
        assert str(exc).startswith(str(path)) or "deck" in str(exc), exc
    # In a user's folder it is read or left out, and the starter decks are read all the same.
    files = DeckLibrary([DECKS_DIR, folder])
    assert {"blue", "violet"} <= set(files.decks)
    Library((DECKS_DIR, folder))


@DECKS_QUICK
@given(deck_files())
def test_a_mangled_deck_file_is_refused_or_read_quick(tmp_path_factory: pytest.TempPathFactory,
                                                      data: bytes) -> None:
    _check_deck_file(data, tmp_path_factory.mktemp("decks"))


@pytest.mark.slow
@DECKS_LONG
@given(deck_files())
def test_a_mangled_deck_file_is_refused_or_read_long(tmp_path_factory: pytest.TempPathFactory,
                                                     data: bytes) -> None:
    _check_deck_file(data, tmp_path_factory.mktemp("decks"))
