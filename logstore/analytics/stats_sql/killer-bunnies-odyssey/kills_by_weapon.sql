-- Kills by weapon class
--
-- What killed creatures and destroyed cities, over legal games: Ground Weapons (ODY-WPN-1),
-- City Weapons with the occupants they took along (ODY-WPN-2, ODY-KILL-2), and Feed The
-- Bunny cards whose creature starved (ODY-FEED-1). Per class: how many, the Civ points they
-- were worth to the killer on average, and in how many games it happened at least once. A
-- player's own creature killed beside an opponent's scores nothing and is counted apart.
-- What-if branches are left out.
-- chart: bar x=weapon y=kills
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-odyssey' AND ok AND parent_game IS NULL
), deaths AS (
    SELECT e.game_id,
           json_extract_string(e.data, '$.weapon') AS weapon,
           CAST(json_extract_string(e.data, '$.points') AS BIGINT) AS points,
           CASE WHEN json_extract_string(e.data, '$.by') IS NOT NULL
                 AND CAST(json_extract_string(e.data, '$.by') AS BIGINT) <> e.seat
                THEN 1 ELSE 0 END AS scored
    FROM effects e
    JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-odyssey' AND e.kind IN ('killed', 'starved', 'destroyed')
)
SELECT weapon, count(*) AS kills,
       sum(scored) AS scored_kills,
       round(avg(CASE WHEN scored = 1 THEN CAST(points AS DOUBLE) END), 2) AS avg_points_scored,
       count(DISTINCT game_id) AS games
FROM deaths
GROUP BY weapon
ORDER BY kills DESC, weapon
