-- Game length: events, turns and rounds per finished game
--
-- For each ruleset and player count: the number of finished, legal games and the spread of
-- their length counted three ways: events recorded, turns played and rounds (every seat
-- having had its turn). Quartiles are lengths that occur in the data: the q-quartile is the
-- length of the game at place ceil(q x games) when they are sorted by that length.
-- What-if branches are left out.
-- chart: bar x=n_players y=events_median
WITH finished AS (
    SELECT ruleset, n_players, n_events, turns, rounds,
           count(*) OVER (PARTITION BY ruleset, n_players) AS n,
           row_number() OVER (PARTITION BY ruleset, n_players ORDER BY n_events) AS by_events,
           row_number() OVER (PARTITION BY ruleset, n_players ORDER BY turns) AS by_turns,
           row_number() OVER (PARTITION BY ruleset, n_players ORDER BY rounds) AS by_rounds
    FROM games
    WHERE over AND ok AND parent_game IS NULL
)
SELECT ruleset, n_players, count(*) AS games,
       min(n_events) AS events_min,
       max(CASE WHEN by_events = CAST(ceil(0.25 * n) AS BIGINT) THEN n_events END) AS events_q1,
       max(CASE WHEN by_events = CAST(ceil(0.5 * n) AS BIGINT) THEN n_events END) AS events_median,
       max(CASE WHEN by_events = CAST(ceil(0.75 * n) AS BIGINT) THEN n_events END) AS events_q3,
       max(n_events) AS events_max,
       round(avg(CAST(n_events AS DOUBLE)), 2) AS events_mean,
       min(turns) AS turns_min,
       max(CASE WHEN by_turns = CAST(ceil(0.5 * n) AS BIGINT) THEN turns END) AS turns_median,
       max(turns) AS turns_max,
       round(avg(CAST(turns AS DOUBLE)), 2) AS turns_mean,
       max(CASE WHEN by_rounds = CAST(ceil(0.5 * n) AS BIGINT) THEN rounds END) AS rounds_median,
       round(avg(CAST(rounds AS DOUBLE)), 2) AS rounds_mean
FROM finished
GROUP BY ruleset, n_players
ORDER BY ruleset, n_players
