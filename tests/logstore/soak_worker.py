"""One writer of the soak test (tests/logstore/test_soak.py), run as its own process:

    python -m tests.logstore.soak_worker STORE SEED COUNTS_FILE

It writes to the store for ever, at random: imports a simulated game, appends to one of
the live games (retrying when another writer got there first), refreshes the projections,
or saves a what-if branch. The parent kills it with SIGKILL at random moments. After each write it has seen
committed it appends a line to COUNTS_FILE, so the parent knows what must be in the store.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from engine.bunnies import RULESET as BUNNIES
from engine.record import event_to_dict
from engine.simulate import simulate_one
from logstore.store import StaleSeq, Store
from logstore.store.branches import create_branch
from logstore.store.errors import DuplicateGame, StoreError

LIVE = [f"soak-live-{i}" for i in range(4)]
"""Games recorded live by every writer at once (created by the parent)."""


def main(db: str, seed: int, counts: str) -> None:
    rng = random.Random(seed)
    log = open(counts, "a", buffering=1)  # noqa: SIM115 - kept open until killed
    made = 0
    with Store(db) as store:
        while True:
            roll = rng.random()
            if roll < 0.35:
                game = simulate_one(BUNNIES, seed, made)
                made += 1
                try:
                    store.import_bytes(b"".join(game.lines()), f"<soak {seed}>")
                except DuplicateGame:
                    continue
                log.write(f"import {game.header.game_id}\n")
            elif roll < 0.85:
                live = rng.choice(LIVE)
                for _ in range(20):
                    state = store.state_at(live)
                    seats = BUNNIES.to_act(state)
                    actions = BUNNIES.legal_actions(state, seats[0]) if seats else []
                    chance = BUNNIES.chance(state, rng)
                    if chance is None and not actions:
                        break  # this live game is over
                    event = chance or BUNNIES.randomize(state, rng.choice(actions), rng)
                    try:
                        seq = store.append(live, [event_to_dict(event)], expect_seq=state.seq)
                    except StaleSeq:
                        continue
                    log.write(f"append {live} {seq}\n")
                    break
            elif roll < 0.9:
                from logstore.analytics.projections import refresh

                report = refresh(store)  # Parquet parts and their bookkeeping, killed or not
                log.write(f"refresh {report.games}\n")
            else:
                games = [g for g in store.games() if g.parent_game is None and g.n_events > 5
                         and not g.game_id.startswith("soak-live")]
                if not games:
                    continue
                parent = rng.choice(games)
                at = rng.randrange(1, parent.n_events)
                state = store.state_at(parent.game_id, at)
                seats = BUNNIES.to_act(state)
                if not seats:
                    continue
                action = rng.choice(BUNNIES.legal_actions(state, seats[0]))
                action = BUNNIES.randomize(state, action, rng)
                try:
                    info, _ = create_branch(store, parent.game_id, at, [event_to_dict(action)])
                except StoreError:
                    continue
                log.write(f"branch {info.game_id}\n")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), str(Path(sys.argv[3])))
