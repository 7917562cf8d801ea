"""The Killer Bunnies Odyssey board: the two circles, saved Resources by colour with those used
this round set aside, the Civ bar towards 60, and hands as the perspective knows them; and the
replay page drawing it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from html import escape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.boards.killer_bunnies_odyssey import render_html
from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.library import library
from logstore.store import Store
from tests.dashboard.conftest import APP
from tests.scenarios.killer_bunnies_odyssey_games import board, race


def test_the_board_draws_both_circles_and_every_seat() -> None:
    g = board()
    state = RULESET.setup(g.sc.header)
    RULESET.fold(state, g.sc.events[:g.marks["bands"]])  # Ada has paid for her EMP Bomb this round
    view = RULESET.view(state, 0)
    html = render_html(view, ["Ada", "Bo"])
    assert "The Bunny Circle (" in html and "The Center Circle (" in html
    for item in view["circle"] + view["center"]:
        assert f"piece {item['piece']} · " in html and f"#{item['piece']} · " not in html
    assert "(3 used this round)" in html
    assert html.count('class="wo-card back"') >= view["seats"][1]["hand"]
    for code in view["seats"][0]["hand"]:
        assert code in html
    assert "total " in html and "/ 60" in html


def test_a_tile_names_the_card_the_view_shows_and_no_other() -> None:
    g = board()
    state = g.sc.state
    hand = g.hand(0)
    names = library().by_code
    mine = render_html(RULESET.view(state, 0), ["Ada", "Bo"])
    for code in hand:
        name = names[code].name
        short = name if len(name) <= 16 else name[:15] + "…"
        assert f'title="{escape(name)} ({code})"><b>{escape(short)}</b>{code}</span>' in mine
    theirs_view = RULESET.view(state, 1)
    theirs = render_html(theirs_view, ["Ada", "Bo"])
    shown = {c["card"] for c in theirs_view["circle"] + theirs_view["center"]}
    shown |= {c["card"] for s in theirs_view["seats"] for c in s["saved"]}
    shown |= {o["card"] for c in theirs_view["center"] for o in c["occupants"]}
    shown |= set(theirs_view["seats"][1]["hand"])
    unseen = [code for code in hand if code not in shown]
    assert unseen and theirs_view["seats"][0]["hand"] == len(hand)
    seen_names = {names[c].name for c in shown}
    for code in unseen:
        assert code not in theirs
        if names[code].name not in seen_names:
            assert escape(names[code].name) not in theirs


def test_the_civ_bar_is_full_at_the_end() -> None:
    g = race()
    view = RULESET.view(g.sc.state, "spectator")
    html = render_html(view, ["Ada", "Bo"])
    assert html.count(">wins</span>") == len(view["winners"]) >= 1 and "total 60 / 60" in html
    assert 'style="width:' in html


@pytest.fixture()
def odyssey_store(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "warren.db"
    with Store(path) as store:
        store.import_bytes(race(source="simulated").sc.record(), "<race>")
    old = os.environ.get("WARREN_DB")
    os.environ["WARREN_DB"] = str(path)
    yield path
    if old is None:
        os.environ.pop("WARREN_DB", None)
    else:
        os.environ["WARREN_DB"] = old


def test_the_replay_page_draws_an_odyssey_game(odyssey_store: Path) -> None:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.query_params["game"] = "odyssey-race"
    at.query_params["seq"] = "60"
    at.query_params["as"] = "1"
    at.switch_page("screens/replay.py").run()
    assert not at.exception, at.exception
    html = "".join(h.proto.body for h in at.get("html"))
    assert "The Center Circle" in html and "wo-civ" in html
