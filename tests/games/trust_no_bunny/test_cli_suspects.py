"""`warren suspects`: the "who could it be?" answer from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.reader import read_record
from logstore.cli import main


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("tnb")
    code, _, err = run("simulate", "trust-no-bunny", "--games", "4", "--players", "5..8",
                       "--seed", "5", "--bots", "heuristic,random", "--out", str(out))
    assert code == 0, err
    return sorted(out.glob("*.jsonl"))


def _werebunnies(path: Path) -> list[int]:
    from engine.registry import get_ruleset
    from engine.replay import Replay

    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("trust-no-bunny")
    view = rs.view(Replay(rs, record.header, record.events).final, "referee")
    return sorted(s["seat"] for s in view["seats"] if s["role"] == "werebunny")


def test_spectator_answer_contains_the_true_pair(games: list[Path]) -> None:
    for path in games:
        code, out, _ = run("suspects", str(path), "--to", "20", "--json", "--rounds")
        answer = json.loads(out)
        assert code == 0
        assert answer["model"] == "uniform over consistent pairs"
        probs = {int(k): v for k, v in answer["probabilities"].items()}
        assert sum(probs.values()) == pytest.approx(2.0)
        assert _werebunnies(path) in [sorted(p) for p in answer["pairs"]]
        assert all(r["seq"] <= 20 for r in answer["rounds"])


def test_a_werebunny_knows_its_partner(games: list[Path]) -> None:
    path = games[0]
    pair = _werebunnies(path)
    code, out, _ = run("suspects", str(path), "--as", str(pair[0]), "--json")
    answer = json.loads(out)
    assert code == 0 and answer["pairs"] == [pair]


def test_bad_input_is_exit_2(games: list[Path], tmp_path: Path) -> None:
    code, _, err = run("suspects", str(games[0]), "--as", "42")
    assert code == 2 and "seats 0.." in err
    bunnies = tmp_path / "b"
    run("simulate", "bunnies", "--games", "1", "--out", str(bunnies))
    code, _, err = run("suspects", str(next(bunnies.glob("*.jsonl"))))
    assert code == 2 and "no secret teams" in err
