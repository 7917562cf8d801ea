-- Carrots held at the end and winning
--
-- The winner is the holder of the Magic Carrot, the bottom card of the small carrot deck
-- (KBQ-END-2); a player with no bunny left passes his carrots on first (KBQ-END-3). Each
-- of the 12 carrots is equally likely to be the Magic one, so a seat holding k carrots at
-- the end wins with probability k / 12. One row per number of carrots held (after the
-- passing on), over the seats of finished, legal games: seats, wins, the observed win rate
-- beside k / 12, and how many of those seats had passed carrots on for want of a bunny.
-- What-if branches are left out.
-- chart: bar x=carrots y=win_rate wilson=wins,seats ref=exact_win_rate n=seats
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
), passed AS (
    SELECT e.game_id, CAST(json_extract_string(e.data, '$.from') AS BIGINT) AS seat
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'carrot_passed'
    GROUP BY e.game_id, CAST(json_extract_string(e.data, '$.from') AS BIGINT)
), seats AS (
    SELECT r.game_id, r.seat, r.score AS carrots, CASE WHEN r.won THEN 1 ELSE 0 END AS won,
           CASE WHEN p.seat IS NULL THEN 0 ELSE 1 END AS passed_on
    FROM seat_results r
    JOIN finished f ON f.game_id = r.game_id
    LEFT JOIN passed p ON p.game_id = r.game_id AND p.seat = r.seat
    WHERE r.ruleset = 'killer-bunnies-quest'
)
SELECT carrots, count(*) AS seats, sum(won) AS wins,
       round(avg(CAST(won AS DOUBLE)), 4) AS win_rate,
       round(CAST(carrots AS DOUBLE) / 12, 4) AS exact_win_rate,
       sum(passed_on) AS passed_carrots_on
FROM seats
GROUP BY carrots
ORDER BY carrots
