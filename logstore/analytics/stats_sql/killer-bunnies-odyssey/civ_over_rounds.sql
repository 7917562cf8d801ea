-- Civ points over the rounds, by seat
--
-- Each player's d20 and total score (the d20 and the points of his creatures, cities and,
-- by default, their occupants: ODY-SCORE-1) as each round ends, averaged per round and seat
-- over legal games, finished or not; the total heads for 60 (ODY-END-1). Read from the
-- effect that begins the next round, which carries every seat's d20 and total. Seat 0 is the
-- first seat of the table, not the first player. What-if branches are left out.
-- chart: line x=round y=avg_total color=seat
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-odyssey' AND ok AND parent_game IS NULL
), ends AS (
    SELECT e.game_id, CAST(json_extract_string(e.data, '$.round') AS BIGINT) - 1 AS round, e.data
    FROM effects e
    JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-odyssey' AND e.kind = 'round_started'
), by_seat AS (
    SELECT n.round, r.seat,
           CAST(json_extract_string(n.data, concat('$.civ[', CAST(r.seat AS VARCHAR), ']')) AS BIGINT)
               AS d20,
           CAST(json_extract_string(n.data, concat('$.totals[', CAST(r.seat AS VARCHAR), ']')) AS BIGINT)
               AS total
    FROM ends n
    JOIN seat_results r ON r.game_id = n.game_id AND r.ruleset = 'killer-bunnies-odyssey'
    WHERE n.round >= 1
)
SELECT round, seat, count(*) AS games,
       round(avg(CAST(d20 AS DOUBLE)), 2) AS avg_d20,
       round(avg(CAST(total AS DOUBLE)), 2) AS avg_total,
       max(total) AS best_total
FROM by_seat
GROUP BY round, seat
ORDER BY round, seat
