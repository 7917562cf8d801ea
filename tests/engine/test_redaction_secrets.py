"""Hidden information in redaction and corrections: the repros of the third hardening
round, each a test that fails on the code before it (engine.redact, engine.ruleset)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from engine.corrections import Correction
from engine.reader import check_events, read_record
from engine.record import event_to_dict
from engine.redact import redact_game
from engine.registry import get_ruleset, known_slugs
from engine.rules import WarrenError
from engine.simulate import simulate_one
from logstore.cli import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result


def test_a_quest_game_redacted_as_a_seat_holds_no_card_it_did_not_see(tmp_path: Path) -> None:
    """Quest declares redaction (R-KBQ-40): the copy as seat 1 saw it has no pile's order,
    every other seat's draws and run cards are "?", and it checks legal with the same
    winners as the full game."""
    out = tmp_path / "q"
    assert run("simulate", "killer-bunnies-quest", "--games", "1", "--players", "3", "--seed", "5",
               "--out", str(out)).exit_code == 0
    target = tmp_path / "r.jsonl"
    source = str(out / "killer-bunnies-quest-5-000000.jsonl")
    result = run("redact", source, "--as", "1", "--out", str(target))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    setup = next(x for x in lines if x.get("type") == "setup")
    assert "draw" not in setup and "carrots" not in setup
    draws = [x for x in lines if x.get("type") == "draw"]
    assert any(x["card"] == "?" for x in draws if x["seat"] != 1)
    assert all(x["card"] != "?" for x in draws if x["seat"] == 1)
    assert all(x["top"] == "?" for x in lines if x.get("type") == "runs" and x["actor"] != 1)
    full = json.loads(run("check", source, "--json").stdout)
    seen = json.loads(run("check", str(target), "--json").stdout)
    assert full["ok"] and seen["ok"] and seen["violation"] is None and seen["events"] > full["events"]


def test_a_correction_is_filtered_as_the_event_it_corrects() -> None:
    """The Odyssey fixture's correction at seq 19 puts a card at the bottom of seat 0's run:
    seat 1 saw the event it corrects with the card as "?", and sees the correction so too."""
    source = str(FIXTURES / "killer-bunnies-odyssey" / "recorded-with-a-correction.jsonl")
    corrected = json.loads(run("replay", source, "--to", "16", "--as", "1", "--json").stdout)["event"]
    correction = json.loads(run("replay", source, "--to", "19", "--as", "1", "--json").stdout)["event"]
    assert corrected["card"] == "?"
    assert correction["type"] == "correct" and correction["event"]["card"] == "?"
    assert "WB01" not in json.dumps(correction)
    referee = json.loads(run("replay", source, "--to", "19", "--json").stdout)["event"]
    assert referee["event"]["card"] == "WB01"


@pytest.mark.parametrize("slug", known_slugs())
def test_every_game_filters_a_correction_by_the_view_of_its_event(slug: str) -> None:
    """A correction that puts each early event back as it was: every perspective sees in it
    exactly what it saw of that event (roles, Quirks, Items, deals, set-up orders, draws)."""
    rs = get_ruleset(slug)
    n = rs.min_players
    game = simulate_one(rs, 3, n, players=n, bots=("random",), max_events=40)
    last = game.events[-1].seq
    leaked = 0
    for event in game.events[:30]:
        fields = {k: v for k, v in event_to_dict(event).items() if k not in ("seq", "hash")}
        correction = Correction(seq=last + 1, actor=None, corrects=event.seq, reason="as it was",
                                event=fields)
        for perspective in [*range(n), "spectator"]:
            shown = rs.event_view(correction, perspective)
            seen = {k: v for k, v in rs.event_view(event, perspective).items() if k != "seq"}
            assert shown["event"] == seen, f"{slug}: correction of {event.seq} as {perspective}"
            leaked += seen != {k: v for k, v in rs.event_view(event, "referee").items() if k != "seq"}
        assert rs.event_view(correction, "referee")["event"] == fields
    assert leaked > 0 or slug not in ("bunnies", "trust-no-bunny", "killer-bunnies-quest", "kinderbunnies",
                                      "killer-bunnies-odyssey"), "the test saw no hidden field at all"


def test_redacting_a_redacted_record_changes_nothing(tmp_path: Path) -> None:
    """Bunnies' Flip took the card from the position, "?" in a recorded game, instead of the
    card the record names: redacting twice made the game illegal by REC-UNK-2."""
    simulated = run("simulate", "bunnies", "--games", "1", "--seed", "11", "--out", str(tmp_path / "s"))
    assert simulated.exit_code == 0
    once, twice = tmp_path / "r1.jsonl", tmp_path / "r2.jsonl"
    assert run("redact", str(tmp_path / "s" / "bunnies-11-000000.jsonl"), "--out", str(once)).exit_code == 0
    assert run("redact", str(once), "--out", str(twice)).exit_code == 0
    assert once.read_bytes() == twice.read_bytes()
    assert run("check", str(twice)).exit_code == 0


def test_an_illegal_game_keeps_its_illegal_event_when_redacted(tmp_path: Path) -> None:
    """The nine on a queen stays in the copy, so the copy is illegal where the game was."""
    source = FIXTURES / "bunnies" / "illegal-BUN-LAY-2-nine-on-a-queen.jsonl"
    record = read_record(source.read_bytes(), str(source))
    rs = get_ruleset("bunnies")
    original = check_events(rs, record.header, record.events)
    assert original is not None
    for perspective in (0, 1, "spectator"):
        header, events = redact_game(rs, record.header, record.events, perspective)
        found = check_events(rs, header, events)
        assert found is not None and (found.seq, found.rule) == (original.seq, original.rule)
    out = tmp_path / "r.jsonl"
    assert run("redact", str(source), "--out", str(out)).exit_code == 0
    result = run("check", str(out))
    assert result.exit_code == 1 and "BUN-LAY-2" in result.output


def test_an_illegal_game_the_seat_cannot_judge_is_refused_not_shortened() -> None:
    """A lay of a card the opponent holds is illegal (BUN-LAY-1) to the referee, but to the
    table the hand was never seen: the copy could not say so, and is refused."""
    rs = get_ruleset("bunnies")
    game = simulate_one(rs, 4, 0)
    from engine.replay import Replay

    replay = Replay(rs, game.header, game.events)
    for i, event in enumerate(game.events):
        if event.__struct_config__.tag == "lay":
            before = replay.state_at(i)
            assert event.actor is not None
            stolen = sorted(before.hands[1 - event.actor])[0]
            bad = msgspec.structs.replace(event, cards=[stolen])
            events = [*game.events[:i], bad]
            break
    assert check_events(rs, game.header, events) is not None
    with pytest.raises(WarrenError, match="does not write a redacted copy"):
        redact_game(rs, game.header, events, "spectator")
