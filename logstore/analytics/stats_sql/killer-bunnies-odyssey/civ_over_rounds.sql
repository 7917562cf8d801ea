-- Civ points over the rounds, by seat
--
-- Each player's d20 and total score (the d20 and the points of his creatures, cities and,
-- by default, their occupants: ODY-SCORE-1) at the end of every turn, averaged per round and
-- seat over legal games, finished or not; the total heads for 60 (ODY-END-1). Seat 0 is the
-- first seat of the table, not the first player. What-if branches are left out.
-- chart: line x=round y=avg_total color=seat
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-odyssey' AND ok AND parent_game IS NULL
)
SELECT t.round, s.seat, count(*) AS turns,
       round(avg(CAST(s.civ AS DOUBLE)), 2) AS avg_d20,
       round(avg(CAST(s.total AS DOUBLE)), 2) AS avg_total,
       max(s.total) AS best_total
FROM turn_seats s
JOIN turns t ON t.game_id = s.game_id AND t.turn = s.turn AND t.ruleset = s.ruleset
JOIN legal l ON l.game_id = s.game_id
WHERE s.ruleset = 'killer-bunnies-odyssey' AND t.round > 0
GROUP BY t.round, s.seat
ORDER BY t.round, s.seat
