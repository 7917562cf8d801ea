"""Analytics across every stored game, derived from the event log by replay.

- :mod:`~logstore.analytics.projections`: the projection tables as Parquet parts beside the
  store, kept up to date incrementally (refresh, rebuild, their bookkeeping);
- :mod:`~logstore.analytics.projection_rows`: the rows of those tables, from one chunk of
  stored games replayed with the ruleset's handlers;
- :mod:`~logstore.analytics.views`: DuckDB sessions with the tables as views over the parts,
  and the Parquet export for Spark;
- :mod:`~logstore.analytics.stats`: the canned statistics, documented SQL files in
  ``stats_sql/`` (``stats_sql/<slug>/`` for one ruleset's own);
- :mod:`~logstore.analytics.sandbox`: a user's SELECT in a fenced-in DuckDB.
"""
