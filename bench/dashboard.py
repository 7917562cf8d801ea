"""Dashboard timings, measured through Streamlit's AppTest (a script, not a test).

    python -m bench.dashboard --db warren.db                    # step time on the longest game
    python -m bench.dashboard --db big.db --stats               # also the Stats page

Prints the median time of one "Next" step on the Replay page, from the middle of the longest
game of each ruleset in the store (target: under 50 ms), and with --stats the time to render
the Stats page warm (target: under 2 s on 100,000 games). Targets: docs/performance.md.

AppTest reruns the whole page on every click (it does not run a fragment alone), so the
step time here is an upper bound: in the browser a step reruns only the position's
fragment (controls, board, timeline, suspicion chart), not the game picker and header.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "dashboard" / "app.py"


def step_times(game_id: str, steps: int, start: int) -> list[float]:
    """Seconds per "Next" click from seq ``start`` on (the whole page rerun: see above)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["game"] = game_id
    at.query_params["seq"] = str(start)
    at.switch_page("screens/replay.py").run()
    times = []
    for _ in range(steps):
        began = time.perf_counter()
        at.button(key="pos_next").click().run()
        times.append(time.perf_counter() - began)
    if at.exception:
        raise SystemExit(f"the replay page failed: {at.exception}")
    if at.session_state["pos_seq"] != start + steps:
        raise SystemExit(f"the steps did not move the position ({at.session_state['pos_seq']})")
    return times


def stats_times(repeats: int) -> list[float]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=600)
    at.switch_page("screens/stats.py").run()  # cold: refreshes projections, fills the cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
    if at.exception:
        raise SystemExit(f"the stats page failed: {at.exception}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--stats", action="store_true", help="also time the Stats page")
    args = parser.parse_args()
    os.environ["WARREN_DB"] = str(args.db.resolve())
    from logstore.store import GameRow, Store

    with Store(args.db, create=False) as store:
        rows = store.games()
    longest: dict[str, GameRow] = {}
    for row in rows:
        best = longest.get(row.ruleset)
        if best is None or row.n_events > best.n_events:
            longest[row.ruleset] = row
    print(f"store {args.db}: {len(rows):,} games")
    for ruleset, row in sorted(longest.items()):
        start = max(0, min(row.n_events // 2, row.n_events - args.steps))
        times = step_times(row.game_id, args.steps, start)
        print(f"  replay step, longest {ruleset} game ({row.n_events:,} events, from seq {start}): "
              f"median {statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms "
              "(target: median under 50 ms)")
    if args.stats:
        times = stats_times(3)
        print(f"  stats page, warm: median {statistics.median(times):.2f} s (target: under 2 s)")


if __name__ == "__main__":
    main()
