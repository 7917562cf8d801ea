"""engine.wording and the rulesets' own words: events, changes, facts and outcomes read as
the table would say them, players by name, cards by their faces, secrets kept."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from engine.bunnies.events import Deal, Flip, Lay, Steal
from engine.bunnies.words import card_face, read_card
from engine.record import Event
from engine.registry import get_ruleset, known_slugs
from engine.replay import Replay
from engine.rules import WarrenError
from engine.ruleset import Outcome
from engine.simulate import simulate_one
from engine.trust_no_bunny.events import Guard, HomeAction, Vote
from engine.wording import GENERIC, Vocabulary, and_list, change_lines, event_text, outcome_text, seat_label

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
PYTHON = re.compile(r"\w=|\[|\]|\{|\}|\bNone\b|\bTrue\b|\bFalse\b")
"""What a Python repr leaks into text: ``cards=['AS']``, ``None``."""


@cache
def _replay(slug: str) -> tuple[Replay, list[str]]:  # type: ignore[type-arg]
    rs = get_ruleset(slug)
    players = rs.min_players if rs.max_players < 6 else 6
    game = simulate_one(rs, 2026, 1, players=players, bots=("greedy", "random"))
    return Replay(rs, game.header, game.events), NAMES[:players]


def _perspectives(n: int) -> list[int | str]:
    return ["referee", "spectator", *range(n)]


@pytest.mark.parametrize("slug", known_slugs())
def test_every_event_reads_as_words_for_every_perspective(slug: str) -> None:
    replay, names = _replay(slug)
    rs = replay.ruleset
    for seq in range(1, replay.last_seq + 1):
        event = replay.events[seq - 1]
        for seen in _perspectives(len(names)):
            text = rs.describe(event, names, seen)  # type: ignore[arg-type]
            assert text and not PYTHON.search(text), (seq, seen, text)
            assert "seat " not in text, (seq, seen, text)  # players are called by name


@pytest.mark.parametrize("slug", known_slugs())
def test_what_changed_reads_as_words_with_names(slug: str) -> None:
    replay, names = _replay(slug)
    rs = replay.ruleset
    for seq in range(1, replay.last_seq + 1, 7):
        step = replay.step(seq)
        for seen in ("referee", "spectator", 0):
            lines = rs.describe_changes(rs.view(step.before, seen), rs.view(step.after, seen), names)
            for line in lines:
                assert not PYTHON.search(line), (seq, seen, line)
                assert not re.search(r"\bseats?\[|\bhands\[", line), line


@pytest.mark.parametrize("slug", known_slugs())
def test_the_outcome_names_the_winners(slug: str) -> None:
    replay, names = _replay(slug)
    outcome = replay.ruleset.outcome(replay.final)
    assert outcome is not None
    text = replay.ruleset.describe_outcome(outcome, names)
    assert text.startswith("Game over") and outcome.rule in text
    assert all(names[w] in text for w in outcome.winners)
    assert not PYTHON.search(text)


# -- the generic fallback: a game that declares no words ---------------------------------------------
def test_the_generic_words_serve_a_game_that_declares_none() -> None:
    assert event_text(GENERIC, {"seq": 3, "type": "take", "actor": 1, "n": 2}, NAMES) == "Bo: take (n 2)"
    assert event_text(GENERIC, {"seq": 1, "type": "toss", "actor": None, "first": 0}, NAMES) == \
        "the table: toss (first 0)"
    vocab = Vocabulary(seat_keys=frozenset({"winner", "active"}), per_seat_keys=frozenset({"taken"}))
    before = {"seq": 3, "turn": 2, "active": 1, "pile": 9, "taken": [3, 3], "winner": None}
    after = {"seq": 4, "turn": 3, "active": 0, "pile": 7, "taken": [3, 5], "winner": 1}
    lines = change_lines(vocab, before, after, NAMES[:2])
    assert lines == ["turn 2 → 3 · active Bo → Ann", "pile: 9 → 7", "Bo's taken: 3 → 5", "winner: none → Bo"]
    outcome = Outcome(winners=[1], scores=[4, 11], reason="last_carrot", rule="NIM-END-1")
    assert outcome_text(GENERIC, outcome, NAMES[:2]) == (
        "Game over: Bo wins (last carrot, NIM-END-1). Scores: Ann 4, Bo 11.")
    assert and_list(["Ann", "Bo", "Cy"]) == "Ann, Bo and Cy" and seat_label(0, NAMES) == "Ann"


# -- Bunnies ---------------------------------------------------------------------------------------------
BUN = get_ruleset("bunnies")


def test_cards_are_written_as_their_faces() -> None:
    assert card_face("TC") == "10♣" and card_face("AS") == "A♠" and card_face("?") == "a face-down card"
    assert BUN.describe(Lay(seq=5, actor=0, cards=["AS"]), NAMES) == "Ann lays A♠"
    assert BUN.describe(Lay(seq=5, actor=1, cards=["5C", "5D"]), NAMES) == "Bo lays 5♣ 5♦"
    assert BUN.describe(Flip(seq=9, actor=0, slot="0.2"), NAMES) == "Ann turns up their blind card 3"
    assert BUN.describe(Flip(seq=9, actor=1, slot="left"), NAMES) == "Bo turns up the left shared blind card"


def test_the_deal_is_one_line_and_a_steal_keeps_its_card_from_onlookers() -> None:
    deal = Deal(seq=1, actor=None, hands=[["2C"] * 7, ["3C"] * 7], blinds=[["4C"] * 4, ["5C"] * 4],
                shared=["6C"] * 3, stock=["7C"] * 31)
    assert BUN.describe(deal, NAMES) == ("the deal: 7 cards each, 4 blind cards each, 3 shared blind "
                                         "cards, 31 in the stock")
    steal = Steal(seq=20, actor=0, card="7H")
    assert BUN.describe(steal, NAMES, 1) == "Ann steals 7♥ from Bo"
    assert BUN.describe(steal, NAMES, "spectator") == "Ann steals a card from Bo"


def test_bunnies_changes_name_players_and_places() -> None:
    replay, names = _replay("bunnies")
    step = replay.step(1)
    lines = BUN.describe_changes(BUN.view(step.before, 0), BUN.view(step.after, 0), names)
    assert "blind cards dealt: 4 each and 3 shared" in lines
    assert any(line.startswith("Ann's hand: +") for line in lines)
    assert "Bo's hand: 0 → 7" in lines  # seat 0 sees only how many Bo holds
    flips = [s for s in range(1, replay.last_seq + 1) if isinstance(replay.events[s - 1], Flip)]
    step = replay.step(flips[0])
    lines = BUN.describe_changes(BUN.view(step.before, "referee"), BUN.view(step.after, "referee"), names)
    assert any("blind card" in line and "left the table" in line for line in lines), lines


def test_a_violation_s_facts_read_in_words() -> None:
    assert BUN.describe_fact("top", "QH", NAMES) == "top card: Q♥"
    assert BUN.describe_fact("laid", ["9C"], NAMES) == "laid: 9♣"
    assert BUN.describe_fact("bunny_of", 1, NAMES) == "in the bunny of: Bo"
    assert BUN.describe_fact("hands", [8, 7], NAMES[:2]) == "hand: Ann 8, Bo 7"


def test_cards_are_read_in_either_spelling_and_a_wrong_one_is_named() -> None:
    assert read_card("10C") == read_card("tc") == read_card("TC") == "TC"
    assert read_card("?") == "?"
    with pytest.raises(WarrenError, match="'9X' is not a card"):
        read_card("9X")
    assert BUN.read_value("lay", "cards", ["10h", "QS"]) == ["TH", "QS"]
    assert BUN.read_value("flip", "slot", "0.1") == "0.1"  # a place is not a card


# -- Trust No Bunny ------------------------------------------------------------------------------------
TNB = get_ruleset("trust-no-bunny")


def test_trust_no_bunny_events_read_as_the_table_says_them() -> None:
    replay, names = _replay("trust-no-bunny")
    said = {type(e).__name__: TNB.describe(e, names) for e in replay.events}
    accuse = next(e for e in replay.events if type(e).__name__ == "Accuse")
    assert TNB.describe(accuse, names, "spectator") == (
        f"{names[accuse.actor]} accuses {names[accuse.suspects[0]]} and {names[accuse.suspects[1]]}")
    assert said["Propose"].endswith("as guards")


def _secret_events(replay: Replay) -> list[Event]:  # type: ignore[type-arg]
    return [e for e in replay.events if isinstance(e, Guard | HomeAction | Vote)]


def test_a_secret_choice_stays_with_its_player_and_the_referee() -> None:
    replay, names = _replay("trust-no-bunny")
    for event in _secret_events(replay):
        actor = event.actor
        assert actor is not None
        other = (actor + 1) % len(names)
        hidden = TNB.describe(event, names, other)
        assert hidden == TNB.describe(event, names, "spectator")
        assert hidden.endswith(("in secret", "votes")), hidden
        assert TNB.describe(event, names, actor) == TNB.describe(event, names, "referee") != hidden


def test_a_seat_is_told_its_own_deal_and_nobody_else_s() -> None:
    replay, names = _replay("trust-no-bunny")
    deal = next(e for e in replay.events if type(e).__name__ == "Deal")
    mine = TNB.describe(deal, names, 2)
    hand = " ".join(str(v) for v in deal.hands[2])  # type: ignore[attr-defined]
    assert mine == f"the deal: 3 cards each ({names[2]}: {hand})"
    assert TNB.describe(deal, names, "spectator") == "the deal: 3 cards each"


def test_a_description_without_names_calls_seats_by_number() -> None:
    assert BUN.describe(Lay(seq=5, actor=0, cards=["AS"])) == "seat 0 lays A♠"


@pytest.mark.parametrize("slug", known_slugs())
@pytest.mark.parametrize("seen", [0, "spectator"])
def test_a_game_recorded_at_the_table_reads_in_words_too(slug: str, seen: int | str) -> None:
    """A record with unknowns (``"?"``: what a seat or the table did not see) and the events
    only such records hold (a night action nobody saw, the stage, the reveal)."""
    from engine.redact import redact_game

    replay, names = _replay(slug)
    if not replay.ruleset.capabilities.redacts:
        pytest.skip(f"{slug} does not declare redaction: it has no record with unknowns to word")
    header, events = redact_game(replay.ruleset, replay.header, list(replay.events), seen)  # type: ignore[arg-type]
    partial = Replay(replay.ruleset, header, events)
    assert partial.violation is None
    for event in events:
        for looking in (seen, "referee"):
            text = replay.ruleset.describe(event, names, looking)  # type: ignore[arg-type]
            assert text and not PYTHON.search(text), (event.seq, looking, text)


@pytest.mark.parametrize("name", ["recorded-table", "recorded-undetermined"])
def test_the_shipped_recorded_trust_no_bunny_games_read_in_words(name: str) -> None:
    from engine.reader import read_record

    path = Path(__file__).resolve().parents[2] / "fixtures" / "trust-no-bunny" / f"{name}.jsonl"
    record = read_record(path.read_bytes(), str(path))
    names = [p.name for p in record.header.players]
    for event in record.events:
        for looking in ("referee", "spectator", 0):
            text = TNB.describe(event, names, looking)
            assert text and not PYTHON.search(text), (event.seq, looking, text)
