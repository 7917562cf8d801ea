"""Violations, like views, are filtered by perspective: the rule id always, the message and
the facts only where they hold nothing the perspective could not see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.bunnies import RULESET as BUNNIES
from engine.reader import read_record
from engine.record import event_to_dict, header_to_dict, unsealed
from engine.registry import get_ruleset, known_slugs
from engine.replay import Replay
from engine.rules import Violation
from engine.simulate import simulate_one
from logstore.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SABOTAGE = FIXTURES / "trust-no-bunny" / "illegal-TNB-SAB-1-seq-39-townsfolk-sabotage.jsonl"


def replay_json(source: str, seen: str) -> dict[str, object]:
    result = CliRunner().invoke(main, ["replay", source, "--as", seen, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_townsfolks_illegal_sabotage_tells_the_other_seats_no_role() -> None:
    record = read_record(SABOTAGE.read_bytes(), str(SABOTAGE))
    actor = record.events[38].actor
    assert actor is not None
    referee = replay_json(str(SABOTAGE), "referee")["violation"]
    assert referee["rule"] == "TNB-SAB-1" and "Townsfolk" in referee["message"]  # type: ignore[index]
    for seat in range(len(record.header.players)):
        seen = replay_json(str(SABOTAGE), str(seat))["violation"]
        assert seen["seq"] == 39  # type: ignore[index]
        if seat == actor:
            assert seen == referee  # its own role: it knows
        else:
            # "Only Werebunnies Sabotage": the rule's id alone would name the actor a Townsfolk.
            assert seen["rule"] == "?" and "hidden action" in seen["message"]  # type: ignore[index]
            assert "Townsfolk" not in seen["message"] and seen["facts"] == {}  # type: ignore[index]
            assert f"seat {actor}" not in seen["message"]  # type: ignore[index]
    spectator = replay_json(str(SABOTAGE), "spectator")["violation"]
    assert spectator["rule"] == "?" and spectator["facts"] == {}  # type: ignore[index]
    assert "Townsfolk" not in spectator["message"]  # type: ignore[index]


def test_a_seat_learns_of_a_violation_only_when_the_game_reaches_it() -> None:
    """At seq 0 the illegal Sabotage of seq 39 is the future: no seat is told of it (the
    referee is); at seq 38, the position before it, every seat is told what it may know."""
    def at(seq: int, seen: str) -> object:
        result = CliRunner().invoke(main, ["replay", str(SABOTAGE), "--to", str(seq), "--as", seen, "--json"],
                                    catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["violation"]

    assert at(0, "referee") is not None
    for seen in ("0", "1", "spectator"):
        assert at(0, seen) is None and at(20, seen) is None
        assert at(38, seen) is not None


def _lay_not_in_hand(tmp_path: Path) -> tuple[Path, int, list[str]]:
    """A record where a player lays a card the opponent holds: its hand is the secret."""
    game = simulate_one(BUNNIES, 4, 0)
    replay = Replay(BUNNIES, game.header, game.events)
    for i, event in enumerate(game.events):
        if event.__struct_config__.tag == "lay":
            before = replay.state_at(i)
            actor = event.actor
            assert actor is not None
            stolen = sorted(before.hands[1 - actor])[0]
            bad = {**event_to_dict(event), "cards": [stolen]}
            events = [event_to_dict(e) for e in game.events[:i]] + [bad]
            path = tmp_path / "lay.jsonl"
            path.write_bytes(b"".join(unsealed(header_to_dict(game.header), events)))
            return path, actor, sorted(before.hands[actor])
    raise AssertionError("no lay in the game")


def test_a_lay_of_a_card_not_in_hand_shows_the_hand_to_its_owner_only(tmp_path: Path) -> None:
    path, actor, hand = _lay_not_in_hand(tmp_path)
    referee = replay_json(str(path), "referee")["violation"]
    assert referee["rule"] == "BUN-LAY-1" and referee["facts"]["hand"] == hand  # type: ignore[index]
    assert replay_json(str(path), str(actor))["violation"] == referee
    other = replay_json(str(path), str(1 - actor))["violation"]
    assert other["rule"] == "BUN-LAY-1" and other["facts"] == {}  # type: ignore[index]
    assert not any(card in other["message"] for card in hand)  # type: ignore[index]
    result = CliRunner().invoke(main, ["replay", str(path), "--as", str(1 - actor)], catch_exceptions=False)
    assert "BUN-LAY-1" in result.output and not any(f"'{card}'" in result.output for card in hand)


def test_a_public_violation_is_shown_whole_to_every_seat() -> None:
    path = FIXTURES / "bunnies" / "illegal-BUN-LAY-2-nine-on-a-queen.jsonl"
    referee = replay_json(str(path), "referee")["violation"]
    assert referee["rule"] == "BUN-LAY-2"
    for seen in ("0", "1", "spectator"):
        assert replay_json(str(path), seen)["violation"] == referee


@pytest.mark.parametrize("slug", known_slugs())
def test_every_ruleset_withholds_what_it_does_not_declare_public(slug: str) -> None:
    ruleset = get_ruleset(slug)
    secret = Violation(7, "NO-SUCH-RULE", "seat 1 holds the ace of spades", {"hand": ["AS"]})
    assert ruleset.violation_view(secret, "referee", 1) == secret
    for perspective in (0, 1, "spectator"):
        seen = ruleset.violation_view(secret, perspective, 1)
        assert (seen.seq, seen.rule, seen.facts) == (7, "NO-SUCH-RULE", {})
        assert "ace" not in seen.message
    assert ruleset.public_violations <= set(ruleset.rulebook)
    assert ruleset.actor_violations <= set(ruleset.rulebook)
