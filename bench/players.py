"""The players' side of the statistics beside the projections it is built with.

    python -m bench.players [--games 2000] [--people 400] [--seed 3]

A store of ``--games`` simulated Bunnies games (bots) and ``--people`` of them again as a
group recorded them (six names over the seats); the baseline is the projection refresh of
that store (every game replayed into the seven per-game tables), timed in the same run.
Then the players' tables written at every refresh (logstore.players.tables) and every
player's figures and ratings (what ``warren players`` and the Players page compute). A
script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

import msgspec

from engine.record import Player
from engine.registry import get_ruleset
from engine.simulate import SimulatedGame, simulate_one
from logstore.store.event_store import Store

NAMES = ("Ann", "Bo", "Cy", "Dee", "Eli", "Fay")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--people", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    from logstore.analytics.projections import Projections
    from logstore.analytics.views import connect
    from logstore.players.figures import league
    from logstore.players.tables import player_tables

    rs = get_ruleset("bunnies")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        with Store(db) as store:
            for i in range(args.games):
                game = simulate_one(rs, args.seed, i)
                store.import_bytes(b"".join(game.lines()), f"<sim {i}>")
                if i < args.people:
                    names = rng.sample(NAMES, 2)
                    header = msgspec.structs.replace(
                        game.header, game_id=f"table-{i}", source="recorded", hash=None,
                        players=[Player(seat=s, name=n) for s, n in enumerate(names)])
                    store.import_bytes(b"".join(SimulatedGame(header, game.events).lines()),
                                       f"<table {i}>")
            started = time.perf_counter()
            Projections(store, jobs=1).refresh()
            refresh = time.perf_counter() - started
            started = time.perf_counter()
            player_tables(store)
            tables = time.perf_counter() - started
        con, _ = connect(db)
        try:
            with Store(db) as store:
                started = time.perf_counter()
                found = league(store, con)
                figures = time.perf_counter() - started
        finally:
            con.close()
    total = args.games + args.people
    print(f"{total:,} games ({args.people:,} of them recorded by {len(found.figures)} people)")
    print(f"  projection refresh (baseline)   {refresh:7.2f} s")
    print(f"  players' tables                 {tables:7.2f} s   {tables / refresh:5.1%} of the refresh")
    print(f"  every player's figures          {figures:7.2f} s   {figures / refresh:5.1%} of the refresh")


if __name__ == "__main__":
    main()
