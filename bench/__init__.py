"""warren's benchmarks and the refactor checks that go with them (``python -m bench``).

Nothing here is part of the product: ``engine``, ``logstore`` and ``dashboard`` never import
it. The rule-free floors the benchmarks compare against live in :mod:`bench.floors`.
"""
