"""Every page reads like the game, not like warren's internals: events and effects in words,
boards drawn as the players sit, "to act" from the pending decisions, no Python text, no
emoji, no stray string printed by Streamlit's magic. Driven through AppTest."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from streamlit.testing.v1 import AppTest

from engine.registry import get_ruleset
from engine.replay import Replay
from logstore.cli import main
from logstore.store import Store
from tests.dashboard.conftest import APP, html_text, texts

DASHBOARD = APP.parent
SCREENS = sorted((DASHBOARD / "screens").glob("*.py"))
PAGE_FILES = [APP, *SCREENS]
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u26FF\u2700-\u27BF\u2B00-\u2BFF\u23E9-\u23FA\uFE0F]")
"""Pictographs a machine without an emoji font draws as empty boxes. The card suits
(U+2660..2667) are plain text symbols every font has, and are allowed."""
SUITS = set("♠♣♥♦")


def _emoji(text: str) -> list[str]:
    return [c for c in EMOJI.findall(text) if c not in SUITS]


def page(name: str, **params: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.switch_page(f"screens/{name}.py").run()
    assert not at.exception, at.exception
    return at


def everything(at: AppTest) -> str:
    """All text the page shows: markdown, captions, messages, HTML, button labels."""
    parts = [texts(at.markdown), texts(at.caption), texts(at.info), texts(at.success), texts(at.warning),
             texts(at.error), html_text(at), texts(at.title), texts(at.subheader)]
    parts += [b.proto.label for b in at.get("button")]
    return "\n".join(parts)


def _game(store: Path, ruleset: str) -> str:
    with Store(store) as s:
        return next(g.game_id for g in s.games(ruleset) if g.ok and g.over and not g.parent_game)


# -- 2: no bare string literal reaches a page --------------------------------------------------------
@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_no_page_script_holds_a_bare_string_streamlit_would_print(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = tree.body[1:] if ast.get_docstring(tree) is not None else tree.body
    stray = [node.lineno for node in ast.walk(ast.Module(body=body, type_ignores=[]))
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
             and isinstance(node.value.value, str)
             and not _is_docstring_of_a_def(tree, node)]
    assert not stray, f"{path.name}: bare strings on lines {stray} would be drawn on the page"


def _is_docstring_of_a_def(tree: ast.Module, node: ast.Expr) -> bool:
    for parent in ast.walk(tree):
        if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and parent.body \
                and parent.body[0] is node:
            return True
    return False


def test_the_games_page_prints_no_docstring(demo_env: Path) -> None:
    at = page("games")
    shown = texts(at.markdown) + texts(at.caption)
    assert "Rows drawn in the table at most" not in shown and "filters narrow a large store" not in shown


# -- 4: events in words, the same as warren replay -----------------------------------------------------
@pytest.mark.parametrize("ruleset", ["bunnies", "trust-no-bunny", "killer-bunnies-quest"])
def test_the_timeline_words_events_as_warren_replay_does(demo_env: Path, ruleset: str) -> None:
    # Quest: a simulated game (the fixtures start with house-rule carrots, a longer first line).
    game = _game(demo_env, ruleset) if ruleset != "killer-bunnies-quest" else f"{ruleset}-2026-000001"
    at = page("replay", game=game, seq="1", **{"as": "referee"})
    drawn = html_text(at)
    for seq in range(1, 7):
        out = CliRunner().invoke(main, ["replay", game, "--to", str(seq), "--db", str(demo_env)]).output
        said = out.split(f"last event: seq {seq}: ")[1].splitlines()[0]
        assert said in drawn, (seq, said)
    assert "cards=[" not in drawn and "suspects=[" not in drawn and "type=" not in drawn
    first = CliRunner().invoke(main, ["replay", game, "--to", "1", "--db", str(demo_env)]).output
    lines = first.split("last event: seq 1: ")[1].splitlines()
    assert lines[0].startswith(("the deal", "the roles", "the set-up")) and len(lines[0]) < 120  # no dump
    assert all(line.startswith("  -> ") for line in lines[1:])  # then its effects


def test_the_outcome_names_the_winners_in_words(demo_env: Path) -> None:
    game = _game(demo_env, "bunnies")
    at = page("replay", game=game)
    at.button(key="pos_last").click().run()
    won = texts(at.success)
    assert won.startswith("Game over:") and "scores [" not in won and "went out" in won


# -- 6: the Bunnies board as the players sit -----------------------------------------------------------
def test_the_bunnies_board_seats_the_viewer_nearest_with_a_legend(demo_env: Path) -> None:
    game = _game(demo_env, "bunnies")
    for seat in (0, 1):
        at = page("replay", game=game, seq="30", **{"as": str(seat)})
        board = next(h.proto.body for h in at.get("html") if "wr-board" in h.proto.body)
        with Store(demo_env) as s:
            names = s.game(game).players
        far, near = board.index(f"<b>{names[1 - seat]}</b>"), board.index(f"<b>{names[seat]}</b>")
        middle = board.index("shared blind cards")
        assert far < middle < near, seat  # the opponent across, the middle between, the viewer nearest
        assert "wr-legend" in board and "covered: a shared card still lies on it" in board
        assert "empty place" in board and "top of the face-up pile" in board
        # No slot ids printed on tiles; where a blind card lies is said on hover.
        tiles = re.findall(r'<span class="wr-card[^"]*"[^>]*>([^<]*)</span>', board)
        assert not any(re.fullmatch(r"\d\.\d|left|right|top", t) for t in tiles), tiles
        assert re.search(r"blind card 2: face down[^\"]*; covered by the left shared card", board)


# -- 7: Trust No Bunny: to act from the pending decisions; a chart for 8 players ---------------------
def test_trust_no_bunny_says_who_is_to_act_as_the_houses_do(demo_env: Path) -> None:
    with Store(demo_env) as s:
        game = next(g for g in s.games("trust-no-bunny") if len(g.players) == 8 and g.ok)
        record = s.record(game.game_id)
    rs = get_ruleset("trust-no-bunny")
    replay = Replay(rs, record.header, record.events)
    seq = next(q for q in range(replay.last_seq) if len(rs.to_act(replay.state_at(q))) > 1)
    at = page("replay", game=game.game_id, seq=str(seq), **{"as": "spectator"})
    header = next(m.value for m in at.markdown if "to act:" in m.value)
    waiting = [game.players[s] for s in rs.to_act(replay.state_at(seq))]
    assert all(name in header for name in waiting) and "to play: -" not in header
    board = next(h.proto.body for h in at.get("html") if "wr-board" in h.proto.body)
    assert board.count(">to act</span>") == len(waiting) + 1  # each waiting house, and the legend
    chart = next(c for c in at.get("vega_lite_chart"))
    spec = json.loads(chart.proto.spec)
    assert spec["columns"] == 2 and spec["facet"]["field"] == "player"  # one panel per player, two a row
    assert spec["spec"]["encoding"]["color"]["legend"] is None
    assert spec["spec"]["encoding"]["x"]["axis"]["labelAngle"] == 0


# -- 13: no emoji anywhere --------------------------------------------------------------------------
def test_no_dashboard_source_uses_an_emoji() -> None:
    for path in DASHBOARD.rglob("*.py"):
        found = _emoji(path.read_text(encoding="utf-8"))
        assert not found, (path, found)


@pytest.mark.parametrize("name", ["overview", "games", "replay", "disputes", "record", "stats", "sql"])
def test_no_page_draws_an_emoji(demo_env: Path, name: str) -> None:
    positional = name in ("replay", "disputes")
    params = {"game": _game(demo_env, "trust-no-bunny"), "seq": "40"} if positional else {}
    if name == "record":  # a Trust No Bunny game recorded at the table, not over
        params = {"game": "tnb-recorded-undetermined"}
    at = page(name, **params)
    assert not _emoji(everything(at))
    for message in [*at.error, *at.warning, *at.info, *at.success]:
        icon = message.proto.icon
        assert not icon or icon.startswith(":material/"), icon


def _tnb_positions() -> Iterator[tuple[dict[str, Any], str]]:
    """Every position of a few simulated five-player Trust No Bunny games, as the referee's
    view and the board drawn of it."""
    from dashboard.boards.trust_no_bunny import render_html
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    rs = get_ruleset("trust-no-bunny")
    for index in range(6):
        game = simulate_one(rs, 5, index, players=5)
        names = [p.name for p in game.header.players]
        state = rs.setup(game.header)
        for event in game.events:
            rs.apply(state, event)
            view = rs.view(state, "referee")
            yield view, render_html(view, names)


def test_a_night_without_damage_to_a_defence_does_not_say_minus_zero() -> None:
    """The nights table said "Tower −0" for a night that left the Tower whole."""
    seen = 0
    for view, html in _tnb_positions():
        if any(not n["tower_damage"] or not n["wall_damage"] for n in view["nights"]):
            assert "−0" not in html  # a minus sign before a zero
            seen += 1
    assert seen, "no simulated game had a night that spared a defence"


def test_a_new_vote_does_not_show_the_last_votes_chips() -> None:
    """While a second team is voted on, the houses showed the rejected vote's chips."""
    seen = 0
    for view, html in _tnb_positions():
        earlier = [p for p in view["proposals"] if p["round"] == view["round"]]
        if view["phase"] == "voting" and earlier:
            assert "voted no" not in html and "voted yes" not in html
            seen += 1
    assert seen, "no simulated game voted twice in a round"


def test_the_quest_board_names_cards_and_bunnies_whole() -> None:
    """Tokens showed a catalogue number and a cut kind ("umberin"); card chips were cut
    with "..." even at 1440 px ("The Mad, Mad Donnelai...")."""
    import re

    from dashboard.boards.killer_bunnies_quest import render_html
    from engine.registry import get_ruleset
    from engine.simulate import simulate_one

    rs = get_ruleset("killer-bunnies-quest")
    game = simulate_one(rs, 7, 3, players=4, max_events=400)
    bound = rs.for_game(game.header)
    state = bound.setup(game.header)
    kinds: set[str] = set()
    for event in game.events:
        bound.apply(state, event)
        view = bound.view(state, "referee")
        kinds |= {b["kind"] for b in view["circle"] if b["kind"]}
        html = render_html(view, [p.name for p in game.header.players])
        assert "…" not in html
        chips = re.findall(r'<span class="kb-card[^"]*"[^>]*>([^<]*)</span>', html)
        assert not [c for c in chips if c.strip().isdigit()], chips  # a name, not a number
    assert kinds, "no bunny entered the circle"
    for bunny in view["circle"]:  # each token says its bunny's kind whole
        assert f">{bunny['kind'] or 'wild'}</div>" in html
