"""warren's storage and the tools over it; it builds on :mod:`engine` and serves
:mod:`dashboard`.

- :mod:`logstore.store`: the SQLite event store (append-only), import and export, what-if
  branches and rulings, and ``warren check``;
- :mod:`logstore.analytics`: projections derived by replay, DuckDB over them, the canned
  statistics and the SQL sandbox;
- :mod:`logstore.cli`: the ``warren`` command line;
- :mod:`bench`: the benchmark scripts (``python -m bench``); nothing else
  imports them.
"""
