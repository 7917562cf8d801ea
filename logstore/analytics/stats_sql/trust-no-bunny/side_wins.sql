-- Townsfolk against Werebunnies: which side wins, and how, by player count
--
-- Per player count, over finished, legal games: how many the Townsfolk won and how many
-- the Werebunnies won, the Werebunnies' share with its 95% Wilson interval, and how the
-- games ended (the reason the engine gives with the rule that ended it: TNB-END-2..4,
-- TNB-ACC-4, TNB-WOLF-3).
-- What-if branches are left out.
-- The chart draws ci_low..ci_high as an error bar on each bar.
-- chart: bar x=n_players y=werebunny_share ci=ci_low,ci_high n=games
WITH ended AS (
    SELECT g.n_players, json_extract_string(e.data, '$.winner') AS side,
           json_extract_string(e.data, '$.reason') AS reason
    FROM effects e
    JOIN games g ON g.game_id = e.game_id AND g.ruleset = e.ruleset
    WHERE e.ruleset = 'trust-no-bunny' AND e.kind = 'game_over'
      AND g.over AND g.ok AND g.parent_game IS NULL
), counted AS (
    SELECT n_players, count(*) AS games,
           sum(CASE WHEN side = 'townsfolk' THEN 1 ELSE 0 END) AS townsfolk_wins,
           sum(CASE WHEN side = 'werebunnies' THEN 1 ELSE 0 END) AS werebunny_wins,
           sum(CASE WHEN reason = 'wall_held' THEN 1 ELSE 0 END) AS wall_held,
           sum(CASE WHEN reason = 'town_survived' THEN 1 ELSE 0 END) AS town_survived,
           sum(CASE WHEN reason = 'unanimous_accusation' THEN 1 ELSE 0 END) AS unanimous_accusation,
           sum(CASE WHEN reason = 'defences_down' THEN 1 ELSE 0 END) AS defences_down,
           sum(CASE WHEN reason = 'too_many_wolves' THEN 1 ELSE 0 END) AS too_many_wolves
    FROM ended
    GROUP BY n_players
), rated AS (
    SELECT *, CAST(games AS DOUBLE) AS n, CAST(werebunny_wins AS DOUBLE) / games AS rate FROM counted
)
SELECT n_players, games, townsfolk_wins, werebunny_wins,
       round(rate, 4) AS werebunny_share,
       round((rate + 1.9208 / n - 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_low,
       round((rate + 1.9208 / n + 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_high,
       wall_held, town_survived, unanimous_accusation, defences_down, too_many_wolves
FROM rated
ORDER BY n_players
