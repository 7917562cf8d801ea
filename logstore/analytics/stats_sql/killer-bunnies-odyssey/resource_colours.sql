-- Resource colours and win rate
--
-- The colour of the Resources a player saved most (ODY-RES-1), which is his starter deck's
-- colour unless he mixes decks, and how often players of each colour won, over finished,
-- legal games. Blue is Technology; the other five colour names are warren's (docs/rulings.md
-- R-ODY-3). What-if branches are left out.
-- chart: bar x=colour y=win_rate wilson=wins,players n=players
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-odyssey' AND over AND ok AND parent_game IS NULL
), saved AS (
    SELECT e.game_id, e.seat, json_extract_string(e.data, '$.colour') AS colour, count(*) AS n
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-odyssey' AND e.kind = 'saved'
      AND json_extract_string(e.data, '$.colour') IS NOT NULL
    GROUP BY e.game_id, e.seat, colour
), main AS (
    SELECT game_id, seat, colour, n,
           row_number() OVER (PARTITION BY game_id, seat ORDER BY n DESC, colour) AS rank_
    FROM saved
)
SELECT m.colour, count(*) AS players,
       sum(CASE WHEN r.won THEN 1 ELSE 0 END) AS wins,
       round(avg(CASE WHEN r.won THEN 1.0 ELSE 0.0 END), 4) AS win_rate,
       round(avg(CAST(m.n AS DOUBLE)), 2) AS avg_saved
FROM main m
JOIN seat_results r ON r.game_id = m.game_id AND r.seat = m.seat AND r.ruleset = 'killer-bunnies-odyssey'
WHERE m.rank_ = 1
GROUP BY m.colour
ORDER BY win_rate DESC, m.colour
