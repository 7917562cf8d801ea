"""The KinderBunnies board draws every position of every level, as each perspective sees it."""

from __future__ import annotations

from dashboard.boards import board_for
from dashboard.boards.kinderbunnies import render_html
from engine.kinderbunnies import RULESET
from engine.simulate import simulate_one


def test_the_board_is_registered_and_draws_every_level() -> None:
    board = board_for("kinderbunnies")
    assert board is render_html
    for level in ("beginner", "advanced", "really-advanced"):
        game = simulate_one(RULESET, 4, 0, players=3, options={"level": level})
        names = [p.name for p in game.header.players]
        state = RULESET.setup(game.header)
        waiting = False
        for event in game.events:
            RULESET.apply(state, event)
            for perspective in (0, "spectator", "referee"):
                html = board(RULESET.view(state, perspective), names)
                assert "wr-board" in html and "carrot pile" in html
                if perspective == "spectator":
                    assert "hidden" in html or not any(state.hands)
            task = state.task
            if task is not None and task.step == "roll":
                waiting = waiting or "waiting for its roll" in board(RULESET.view(state, 0), names)
        assert state.over and waiting, "a card waiting for its roll is shown"
        final = board(RULESET.view(state, "spectator"), names)
        assert "score" in final
        if level == "really-advanced":
            assert "winning carrot" in final
