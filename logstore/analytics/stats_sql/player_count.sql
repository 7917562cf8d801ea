-- Results by player count
--
-- For each ruleset and number of players: the games stored, how many finished legally,
-- how many stopped at an illegal event or are still in play, the share of finished games
-- with more than one winner (ties, teams), and how often the seat that acted first won,
-- with its 95% Wilson interval.
-- What-if branches are left out.
-- The chart draws ci_low..ci_high as an error bar on each bar.
-- chart: bar x=n_players y=first_seat_win_rate ci=ci_low,ci_high n=finished
WITH per_game AS (
    SELECT g.ruleset, g.n_players, g.game_id, g.over, g.ok, g.n_winners,
           CASE WHEN r.won THEN 1 ELSE 0 END AS first_won
    FROM games g
    LEFT JOIN seat_results r
           ON r.game_id = g.game_id AND r.ruleset = g.ruleset AND r.play_order = 1
    WHERE g.parent_game IS NULL
), counted AS (
    SELECT ruleset, n_players,
           count(*) AS games,
           sum(CASE WHEN over AND ok THEN 1 ELSE 0 END) AS finished,
           sum(CASE WHEN NOT ok THEN 1 ELSE 0 END) AS illegal,
           sum(CASE WHEN ok AND NOT over THEN 1 ELSE 0 END) AS in_play,
           sum(CASE WHEN over AND ok AND n_winners > 1 THEN 1 ELSE 0 END) AS shared_wins,
           sum(CASE WHEN over AND ok THEN first_won ELSE 0 END) AS first_seat_wins
    FROM per_game
    GROUP BY ruleset, n_players
), rated AS (
    -- n as a double keeps every step in floating point, in DuckDB and in Spark alike
    SELECT *, CAST(nullif(finished, 0) AS DOUBLE) AS n,
           CAST(first_seat_wins AS DOUBLE) / nullif(finished, 0) AS rate
    FROM counted
)
SELECT ruleset, n_players, games, finished, illegal, in_play,
       round(CAST(shared_wins AS DOUBLE) / nullif(finished, 0), 4) AS shared_win_share,
       round(rate, 4) AS first_seat_win_rate,
       round((rate + 1.9208 / n - 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_low,
       round((rate + 1.9208 / n + 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_high
FROM rated
ORDER BY ruleset, n_players
