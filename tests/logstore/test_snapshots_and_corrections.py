"""Stored snapshots of every ruleset's states load through the typed codec and are used;
corrections appended to a stored game are honoured by the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.corrections import Correction
from engine.record import event_to_dict, header_to_dict, seal
from engine.registry import get_ruleset, known_slugs
from engine.rules import RuleViolation
from engine.ruleset import Ruleset
from engine.simulate import SimulatedGame, simulate_one
from logstore.store import Store, importing

EVERY = 16
"""A small snapshot interval, so every ruleset's games hold several snapshots."""


def _long_game(rs: Ruleset[Any, Any]) -> SimulatedGame:
    for index in range(20):
        game = simulate_one(rs, 3, index, players=rs.min_players)
        # The test reads 3 events past the newest snapshot, so the game runs that far.
        if len(game.events) > 4 * EVERY and len(game.events) % EVERY >= 3:
            return game
    raise AssertionError(f"no {rs.slug} game of more than {4 * EVERY} events")


def _bytes(game: SimulatedGame) -> bytes:
    return b"".join(seal(header_to_dict(game.header), [event_to_dict(e) for e in game.events]))


@pytest.mark.parametrize("slug", known_slugs())
def test_a_stored_snapshot_of_every_ruleset_loads_and_is_used(
        slug: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = get_ruleset(slug)
    game = _long_game(rs)
    monkeypatch.setattr(importing._Judge, "every", EVERY)
    with Store(tmp_path / "w.db") as store:
        store.import_bytes(_bytes(game), "long.jsonl")
        game_id = game.header.game_id
        stored = [r[0] for r in store.conn.execute("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))]
        assert len(stored) >= 3, "the snapshots were written"
        at = max(s for s in stored if s + 3 <= len(game.events))
        target = at + 3
        snapshot = store.load_snapshot(game_id, target)
        assert snapshot is not None and snapshot.seq == at, "the newest snapshot loads"
        folded: list[int] = []
        real_fold = rs.fold

        def counting_fold(state: Any, events: Any) -> None:
            folded.append(len(events))
            real_fold(state, events)

        monkeypatch.setattr(rs, "fold", counting_fold)
        resumed = store.state_at(game_id, target)
        assert sum(folded) == 3, f"resumed from the snapshot, not from event 1 ({folded})"
        monkeypatch.setattr(rs, "fold", real_fold)
        full = rs.setup(game.header)
        rs.fold(full, game.events[:target])
        assert rs.codec.equal(resumed, full), "the resumed state is the full fold's"


def test_a_correction_appended_to_a_stored_game_is_honoured(tmp_path: Path) -> None:
    rs = get_ruleset("bunnies")
    game = simulate_one(rs, 7, 1)
    with Store(tmp_path / "w.db") as store:
        head = game.events[:10]
        store.import_bytes(b"".join(seal(header_to_dict(game.header), [event_to_dict(e) for e in head])), "g")
        gid = game.header.game_id
        wrong = head[-1]
        # Strike the last event (the recorder's undo), then record it again.
        last = store.append(gid, [Correction(seq=11, actor=None, corrects=10, reason="undo")], expect_seq=10)
        assert last == 11
        state = store.state_at(gid)
        before = rs.setup(game.header)
        rs.fold(before, head[:9])
        assert state.phase == before.phase and state.active == before.active
        store.append(gid, [{**event_to_dict(wrong), "seq": 12}], expect_seq=11)
        again = rs.setup(game.header)
        rs.fold(again, head)
        assert rs.view(store.state_at(gid), "referee")["hands"] == rs.view(again, "referee")["hands"]
        # A correction that makes the stored past illegal is refused, and nothing is stored.
        first_lay = next(i for i, e in enumerate(head) if type(e).__name__ == "Lay") + 1
        bad = Correction(seq=13, actor=None, corrects=first_lay, reason="typo",
                         event={"type": "end_turn", "actor": head[first_lay - 1].actor})
        with pytest.raises(RuleViolation):
            store.append(gid, [bad], expect_seq=12)
        assert store.game(gid).n_events == 12
