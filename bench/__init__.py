"""warren's benchmarks and the refactor checks that go with them; scripts, not tests:
nothing here asserts a time.

    python -m bench                # replay beside its floors, seeks, verdicts, import
    python -m bench.store          # import in detail (helper processes, CPU per line)
    python -m bench.scale          # projections and canned stats over 100,000 games
    python -m bench.verdicts       # dispute verdicts on a game read from a store
    python -m bench.dispute        # verdicts at random positions of one long game
    python -m bench.dashboard      # the dashboard's pages, timed
    python -m bench.sameness ...   # the digest a refactor must leave unchanged

The rule-free floors the replay is compared with live in :mod:`bench.floors`. Figures and
their targets are in docs/performance.md. Nothing in engine, logstore or dashboard
imports this package; it runs from a checkout (the folder that holds it on the path).
"""
