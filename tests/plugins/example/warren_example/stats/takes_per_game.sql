-- Carrot Nim: how many takes a game lasts, by the carrots in the pile at the start
--
-- Over finished, legal games (what-if branches left out): how many games started with each
-- pile, and the takes they lasted (every event but the coin toss), shortest, mean and longest.
-- chart: bar x=carrots y=takes_mean n=games min=1
SELECT coalesce(CAST(json_extract_string(options, '$.carrots') AS BIGINT), 15) AS carrots,
       count(*) AS games,
       min(n_events - 1) AS takes_min,
       round(avg(CAST(n_events - 1 AS DOUBLE)), 2) AS takes_mean,
       max(n_events - 1) AS takes_max
FROM games
WHERE ruleset = 'carrot-nim' AND over AND ok AND parent_game IS NULL
GROUP BY 1
ORDER BY 1
