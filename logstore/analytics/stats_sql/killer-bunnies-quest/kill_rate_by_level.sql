-- Kill rate by weapon level, with and without Lucky Clovers, beside the exact odds
--
-- A bunny attacked with a weapon survives only by rolling higher than the level on the
-- black d12 (KBQ-WPN-2); a Lucky Clover under it lowers the level it faces (KBQ-CLOVER-1).
-- One row per level faced (after clovers) and whether clovers lowered it, over the weapon
-- rolls of finished, legal games (roaming cards and Trojan Bunny included, Bakery and
-- other gambles not: they are not weapon rolls): rolls, kills, the observed kill and
-- survival rates, and the exact ones, level / 12 and (12 - level) / 12. Attacks that need
-- no roll (a level of 12 or more, or 0) are left out. What-if branches are left out.
-- chart: bar x=level y=kill_rate color=with_clovers wilson=kills,rolls ref=exact_kill_rate n=rolls
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
), rolls AS (
    SELECT CAST(json_extract_string(e.data, '$.level') AS BIGINT) AS level,
           CAST(json_extract_string(e.data, '$.clovers') AS BIGINT) AS clovers,
           CASE WHEN json_extract_string(e.data, '$.lives') = 'false' THEN 1 ELSE 0 END AS killed
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'attack_roll'
      AND json_extract_string(e.data, '$.die') = 'black-d12'
      AND json_extract_string(e.data, '$.face') IS NOT NULL
)
SELECT level,
       CASE WHEN clovers > 0 THEN 'yes' ELSE 'no' END AS with_clovers,
       count(*) AS rolls, sum(killed) AS kills,
       round(avg(CAST(killed AS DOUBLE)), 4) AS kill_rate,
       round(CAST(level AS DOUBLE) / 12, 4) AS exact_kill_rate,
       round(1 - avg(CAST(killed AS DOUBLE)), 4) AS survival_rate,
       round(CAST(12 - level AS DOUBLE) / 12, 4) AS exact_survival_rate
FROM rolls
GROUP BY level, CASE WHEN clovers > 0 THEN 'yes' ELSE 'no' END
ORDER BY level, with_clovers
