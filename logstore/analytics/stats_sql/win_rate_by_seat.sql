-- Win rate by seat position, with a 95% confidence interval
--
-- Does going first win more often? For each ruleset and player count, every position in
-- the play order (1 = the seat that acted first, 2 = the next one...) with its games, wins
-- and win rate, beside the fair share (1 / players) and the Wilson score interval at 95%
-- (z = 1.96), which stays within 0..1 even for a handful of games. When fair_share lies
-- outside ci_low..ci_high, the position's advantage is unlikely to be chance.
-- A shared win (a tie, a team) counts as a win for every winner.
-- Counts finished, legal games; what-if branches are left out.
-- The chart draws ci_low..ci_high as an error bar on each bar.
-- chart: bar x=play_order y=win_rate color=n_players ci=ci_low,ci_high ref=fair_share n=games
WITH counted AS (
    SELECT r.ruleset, r.n_players, r.play_order,
           count(*) AS games,
           sum(CASE WHEN r.won THEN 1 ELSE 0 END) AS wins
    FROM seat_results r
    JOIN games g ON g.game_id = r.game_id AND g.ruleset = r.ruleset
    WHERE g.over AND g.ok AND g.parent_game IS NULL
    GROUP BY r.ruleset, r.n_players, r.play_order
), rated AS (
    -- n as a double keeps every step in floating point, in DuckDB and in Spark alike
    SELECT *, CAST(games AS DOUBLE) AS n, CAST(wins AS DOUBLE) / games AS rate FROM counted
)
SELECT ruleset, n_players, play_order, games, wins,
       round(rate, 4) AS win_rate,
       round((rate + 1.9208 / n - 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_low,
       round((rate + 1.9208 / n + 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_high,
       round(CAST(1 AS DOUBLE) / n_players, 4) AS fair_share
FROM rated
ORDER BY ruleset, n_players, play_order
