-- Seat advantage by player count: the first player and the others
--
-- The first player is the one the set-up draws (R-KBQ-5); turns then go clockwise
-- (KBQ-TURN-2). Per player count and position in the play order (1 = first), over
-- finished, legal games: games, wins, the win rate beside the fair share 1 / n and its
-- difference, and the mean number of carrots held at the end (which the Magic Carrot
-- turns into a win with probability carrots / 12). What-if branches are left out.
-- chart: bar x=play_order y=win_rate color=n_players wilson=wins,games ref=fair_share n=games
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
)
SELECT r.n_players, r.play_order, count(*) AS games,
       sum(CASE WHEN r.won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN r.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(1.0 / r.n_players, 4) AS fair_share,
       round(avg(CASE WHEN r.won THEN 1.0 ELSE 0.0 END) - 1.0 / r.n_players, 4) AS advantage,
       round(avg(CAST(r.score AS DOUBLE)), 3) AS mean_carrots
FROM seat_results r
JOIN finished f ON f.game_id = r.game_id
WHERE r.ruleset = 'killer-bunnies-quest'
GROUP BY r.n_players, r.play_order
ORDER BY r.n_players, r.play_order
