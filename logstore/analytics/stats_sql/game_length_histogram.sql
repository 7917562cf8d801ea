-- Game length histogram: how many finished games lasted how many rounds
--
-- Finished, legal games counted in bins of 10 rounds (bin 30 holds games of 30 to 39
-- rounds), per ruleset and player count, with each bin's share of the games and the
-- running share up to and including it.
-- What-if branches are left out.
-- chart: bar x=rounds_from y=share color=n_players n=games min=1
WITH binned AS (
    SELECT ruleset, n_players, CAST(floor(rounds / 10.0) AS BIGINT) * 10 AS rounds_from,
           count(*) AS games
    FROM games
    WHERE over AND ok AND parent_game IS NULL
    GROUP BY ruleset, n_players, CAST(floor(rounds / 10.0) AS BIGINT) * 10
)
SELECT ruleset, n_players, rounds_from, rounds_from + 9 AS rounds_to, games,
       round(CAST(games AS DOUBLE) / sum(games) OVER (PARTITION BY ruleset, n_players), 4) AS share,
       round(CAST(sum(games) OVER (PARTITION BY ruleset, n_players ORDER BY rounds_from
                                   ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE)
             / sum(games) OVER (PARTITION BY ruleset, n_players), 4) AS cumulative_share
FROM binned
ORDER BY ruleset, n_players, rounds_from
