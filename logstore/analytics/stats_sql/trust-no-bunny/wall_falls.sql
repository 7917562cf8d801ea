-- When the Wall falls
--
-- The Wall falls when a night's damage takes it to nothing (TNB-RES-2); after that the
-- Tower takes the damage. Per player count, over finished, legal games: the share of games
-- in which the Wall fell, the earliest, median and latest round it fell in, and the
-- Werebunnies' win rate in games where it fell and where it held.
-- What-if branches are left out.
-- chart: bar x=n_players y=fell_share wilson=wall_fell,games n=games
WITH finished AS (
    SELECT g.game_id, g.n_players,
           CASE WHEN json_extract_string(o.data, '$.winner') = 'werebunnies' THEN 1 ELSE 0 END AS wb_won
    FROM games g
    JOIN effects o ON o.game_id = g.game_id AND o.ruleset = g.ruleset AND o.kind = 'game_over'
    WHERE g.ruleset = 'trust-no-bunny' AND g.over AND g.ok AND g.parent_game IS NULL
), fell_at AS (
    SELECT e.game_id, min(t.round) AS fell_round
    FROM effects e
    JOIN turns t ON t.game_id = e.game_id AND t.turn = e.turn AND t.ruleset = e.ruleset
    WHERE e.ruleset = 'trust-no-bunny' AND e.kind = 'wall_fell'
    GROUP BY e.game_id
), fell AS (
    -- k and n place each fall among its player count's, for the median (a round that occurs)
    SELECT w.game_id, w.fell_round,
           row_number() OVER (PARTITION BY f.n_players ORDER BY w.fell_round, w.game_id) AS k,
           count(*) OVER (PARTITION BY f.n_players) AS n
    FROM fell_at w
    JOIN finished f ON f.game_id = w.game_id
)
SELECT f.n_players, count(*) AS games,
       count(w.game_id) AS wall_fell,
       round(CAST(count(w.game_id) AS DOUBLE) / count(*), 4) AS fell_share,
       min(w.fell_round) AS first_round,
       max(CASE WHEN w.k = CAST(ceil(0.5 * w.n) AS BIGINT) THEN w.fell_round END) AS median_round,
       max(w.fell_round) AS last_round,
       round(avg(CASE WHEN w.game_id IS NOT NULL THEN CAST(f.wb_won AS DOUBLE) END), 4)
           AS werebunny_win_rate_if_fell,
       round(avg(CASE WHEN w.game_id IS NULL THEN CAST(f.wb_won AS DOUBLE) END), 4)
           AS werebunny_win_rate_if_held
FROM finished f
LEFT JOIN fell w ON w.game_id = f.game_id
GROUP BY f.n_players
ORDER BY f.n_players
