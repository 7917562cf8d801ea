-- The going-out bonus: how large it is, and whether going out wins
--
-- The player who goes out scores 3 for each own blind card the opponent still has, and at
-- least 4 (BUN-END-2). Per bonus value, over finished, legal games: how many games ended
-- with it, their share, the opponent's blind cards left, and how often the seat that went
-- out also won (the opponent can still win on bunnies).
-- What-if branches are left out.
-- chart: bar x=bonus y=share n=games min=1
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'bunnies' AND over AND ok AND parent_game IS NULL
), ending AS (
    SELECT s.game_id,
           CAST(json_extract_string(s.data, '$.bonus') AS BIGINT) AS bonus,
           CAST(json_extract_string(s.data, '$.opponent_blinds_left') AS BIGINT) AS blinds_left,
           o.seat AS out_seat
    FROM effects s
    JOIN effects o ON o.game_id = s.game_id AND o.seq = s.seq AND o.kind = 'went_out'
                  AND o.ruleset = 'bunnies'
    JOIN finished f ON f.game_id = s.game_id
    WHERE s.ruleset = 'bunnies' AND s.kind = 'scored'
), judged AS (
    SELECT e.bonus, e.blinds_left, CASE WHEN r.won THEN 1 ELSE 0 END AS out_won
    FROM ending e
    JOIN seat_results r ON r.game_id = e.game_id AND r.seat = e.out_seat AND r.ruleset = 'bunnies'
)
SELECT bonus, blinds_left AS opponent_blinds_left, count(*) AS games,
       round(CAST(count(*) AS DOUBLE) / sum(count(*)) OVER (), 4) AS share,
       round(avg(CAST(out_won AS DOUBLE)), 4) AS going_out_seat_won
FROM judged
GROUP BY bonus, blinds_left
ORDER BY bonus, blinds_left
