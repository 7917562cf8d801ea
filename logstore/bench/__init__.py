"""warren's benchmark scripts; scripts, not tests: nothing here asserts a time.

    python -m logstore.bench             # replay beside its floors, seeks, verdicts, import
    python -m logstore.bench.store       # import in detail (helper processes, CPU per line)
    python -m logstore.bench.scale       # projections and canned stats over 100,000 games
    python -m logstore.bench.verdicts    # dispute verdicts on a game read from a store

Figures and how they were taken are in docs/benchmarks.md and docs/disputes.md. Nothing in
warren imports this package.
"""
