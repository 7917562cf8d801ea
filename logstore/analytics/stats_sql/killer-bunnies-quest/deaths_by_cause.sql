-- How bunnies die: weapons, roaming cards, hunger, misfortune, gambles
--
-- A bunny dies to a weapon's roll (KBQ-WPN-2; a Trojan Bunny counts as a weapon), to a
-- Roaming Red Run (KBQ-ROAM-2), of hunger when a feed demand falls due unpaid (KBQ-FEED-3)
-- or cannot be paid at once (KBQ-FEED-6), to a Play Immediately card drawn (KBQ-PI-1,
-- KBQ-PI-2), or to a card that gambles it (the Bakery, Russian Roulette, the Casino). One
-- row per cause and rule, over finished, legal games: deaths, deaths per game and the
-- cause's share of all deaths. What-if branches are left out.
-- chart: bar x=cause y=per_game color=rule
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
), deaths AS (
    SELECT json_extract_string(e.data, '$.cause') AS cause, e.rule
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'bunny_died'
), total AS (
    SELECT count(*) AS n FROM deaths
), games_n AS (
    SELECT count(*) AS n FROM finished
)
SELECT d.cause, d.rule, count(*) AS deaths,
       round(CAST(count(*) AS DOUBLE) / max(g.n), 3) AS per_game,
       round(CAST(count(*) AS DOUBLE) / max(t.n), 4) AS share
FROM deaths d
CROSS JOIN total t
CROSS JOIN games_n g
GROUP BY d.cause, d.rule
ORDER BY deaths DESC, d.cause, d.rule
