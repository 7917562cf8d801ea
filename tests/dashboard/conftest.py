"""A small store for the dashboard tests: shipped-like fixtures plus simulated games."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.registry import get_ruleset
from engine.simulate import simulate_one

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def build_store(path: Path, games: int = 6) -> Path:
    from logstore.store import Store

    rs = get_ruleset("bunnies")
    with Store(path) as store:
        for i in range(games):
            game = simulate_one(rs, 11, i)
            store.import_bytes(b"".join(game.lines()), f"<sim {i}>")
    return path


def build_demo_store(path: Path) -> Path:
    """The shipped fixtures of every ruleset plus a few simulated games of each."""
    from logstore.store import Store
    from logstore.store.reading import record_paths

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    with Store(path) as store:
        store.import_paths(list(record_paths([fixtures])))
        for slug, players in (("bunnies", [2]), ("trust-no-bunny", [5, 6, 7, 8]),
                              ("killer-bunnies-quest", [3, 4, 5])):
            rs = get_ruleset(slug)
            for i in range(8):
                game = simulate_one(rs, 2026, i, players=players[i % len(players)], bots=("greedy", "random"))
                if game.header.game_id not in store:
                    store.import_bytes(b"".join(game.lines()), f"<sim {i}>")
    return path


@pytest.fixture(scope="session")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("dash") / "warren.db")


@pytest.fixture()
def app_env(store_path: Path) -> Iterator[Path]:
    old = os.environ.get("WARREN_DB")
    os.environ["WARREN_DB"] = str(store_path)
    yield store_path
    if old is None:
        os.environ.pop("WARREN_DB", None)
    else:
        os.environ["WARREN_DB"] = old


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both rulesets: the shipped fixtures and a few simulated games of each (read only)."""
    return build_demo_store(tmp_path_factory.mktemp("demo") / "warren.db")


@pytest.fixture()
def demo_env(demo_store: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WARREN_DB", str(demo_store))
    yield demo_store


def html_text(at: object) -> str:
    """Everything the page drew as HTML (boards, text tables), joined, entities decoded."""
    from html import unescape

    return unescape("\n".join(h.proto.body for h in at.get("html")))  # type: ignore[attr-defined]


def texts(elements: object) -> str:
    return "\n".join(e.value for e in elements)  # type: ignore[attr-defined]
