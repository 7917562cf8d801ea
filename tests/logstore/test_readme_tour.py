"""The README's tour, run line by line as it is written, in an empty folder, and what its
prose says each line shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from logstore.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def tour_lines() -> list[list[str]]:
    """The commands of the README's "A short tour" block, comments dropped."""
    text = README.read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.startswith("warren ")]


HELP_EXAMPLES = ("dispute", "dispute branch")
"""Commands whose help example names a game of the tour: each must show what it is there for."""


def _help_examples() -> list[list[str]]:
    import click

    out = []
    for name in HELP_EXAMPLES:
        command: click.Command = main
        for word in name.split():
            assert isinstance(command, click.Group)
            command = command.commands[word]
        example = (command.help or "").split("Example:", 1)[1].strip().splitlines()[0]
        out.append(["help:", *shlex.split(example)[1:]])
    return out


@pytest.fixture(scope="module")
def toured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Result]:
    folder = tmp_path_factory.mktemp("anywhere")
    mp = pytest.MonkeyPatch()
    mp.chdir(folder)
    mp.delenv("WARREN_DB", raising=False)
    results = {}
    try:
        for words in tour_lines():
            if words[1] == "dashboard":
                continue  # serves until stopped; its port handling is tested on its own
            result = CliRunner().invoke(main, words[1:])
            failed = result.exception is not None and not isinstance(result.exception, SystemExit)
            assert not failed, (words, result.output)
            assert result.exit_code in (0, 1), (words, result.output)
            results[" ".join(words[1:3])] = result
        for extra in (*_help_examples(),
                      ["dispute", "verdict", "bunnies-7-000003", "--turn", "14", "--action", "lay 9C"],
                      ["dispute", "branch", "bunnies-7-000003", "--at", "40", "--action", "lay AH"],
                      ["suspects", "trust-no-bunny-7-000002", "--as", "1", "--turn", "1"]):
            results[" ".join(extra)] = CliRunner().invoke(main, [w for w in extra if w != "help:"])
    finally:
        mp.undo()
    return results


def test_the_tour_runs_in_an_empty_folder(toured: dict[str, Result]) -> None:
    assert {"examples examples/", "simulate bunnies", "import games/", "dispute verdict", "dispute branch",
            "suspects trust-no-bunny-7-000002", "stats --ruleset",
            "query SELECT n_players, avg(n_events) FROM games GROUP BY 1"} <= set(toured)


def test_the_help_examples_show_what_they_are_there_for(toured: dict[str, Result]) -> None:
    """`dispute --help`'s example once always answered BUN-DRAW-1 (a position at the start
    of a turn, before its draw: the trap the README warns of)."""
    examples = {k: v for k, v in toured.items() if k.startswith("help:")}
    assert len(examples) == len(HELP_EXAMPLES)
    for said, result in examples.items():
        assert result.exit_code in (0, 1), (said, result.output)
        assert "BUN-DRAW-1" not in result.output, said
    verdicts = [r.output for k, r in examples.items() if " verdict " in k]
    assert verdicts and all("ILLEGAL by BUN-LAY-2" in out for out in verdicts)


def test_the_players_lines_show_the_league(toured: dict[str, Result]) -> None:
    assert "Ann" in toured["players"].output and "also written 'ann'" in toured["players"].output
    assert "Bob and Bo are one player now, Bo" in toured["players merge"].output
    assert "Trust No Bunny: ratings" in toured["ratings --ruleset"].output


def test_the_verdict_line_teaches_bun_lay_2(toured: dict[str, Result]) -> None:
    out = toured["dispute verdict"].output
    assert "ILLEGAL by BUN-LAY-2" in out and "top card: A♥" in out and "laid: 9♣" in out
    at_turn = toured["dispute verdict bunnies-7-000003 --turn 14 --action lay 9C"].output
    assert "BUN-DRAW-1" in at_turn  # what the prose says a --turn position gives


def test_the_branch_line_diverges_and_a_copy_of_the_record_is_refused(toured: dict[str, Result]) -> None:
    out = toured["dispute branch"].output
    assert re.search(r"divergence: the parent's event 33 \(random-bot-1 lays J♦\).*BUN-LAY-2", out), out
    same = toured["dispute branch bunnies-7-000003 --at 40 --action lay AH"]
    assert same.exit_code == 2 and "the same game as its parent" in same.output


def test_the_suspects_line_shows_a_townsfolk_s_doubt(toured: dict[str, Result]) -> None:
    out = toured["suspects trust-no-bunny-7-000002"].output
    # Both Werebunnies have the rulebook's Gnaw (R-TNB-5): the points gnawed from home and
    # the guards' totals leave 8 pairs.
    assert "seen by random-bot-2" in out and "is Townsfolk" in out and "points gnawed from home" in out
    # The README's prose quotes this output: its figures and names are what warren prints.
    prose = " ".join(README.read_text(encoding="utf-8").split())
    said = re.search(r"so (\d+) of the (\d+) pairs remain and (\S+) and (\S+) are the likelier "
                     r"Werebunnies \((\d+)% each\)", prose)
    assert said, "the README no longer quotes the suspects figures"
    pairs, of, first, second, share = said.groups()
    assert f"{pairs} consistent pair(s)" in out
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert f", {of} pairs)" in rounds[0]
    for name in (first, second):
        assert re.search(rf"^  {re.escape(name)} +{share}\.0% ", out, re.M), (name, out)
    assert not re.search(r"\bseats? \d", out.split("\n", 1)[1])  # past the heading: players by name
    werebunny = toured["suspects trust-no-bunny-7-000002 --as 1 --turn 1"].output
    assert "1 consistent pair(s)" in werebunny  # a Werebunny knows its partner from the start


def test_ls_and_replay_speak_in_names_and_words(toured: dict[str, Result]) -> None:
    assert "greedy-bot" in toured["ls --ruleset"].output
    replay = toured["replay bunnies-7-000003"].output
    assert "seen by seat 0" not in replay and "seen by " in replay
    assert "last event: seq" in replay and "=[" not in replay
