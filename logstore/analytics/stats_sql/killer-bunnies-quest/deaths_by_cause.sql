-- How bunnies die: weapons, roaming cards, hunger, misfortune, gambles
--
-- A bunny dies to a weapon's roll (KBQ-WPN-2; a Trojan Bunny counts as a weapon), to a
-- Roaming Red Run (KBQ-ROAM-2), of hunger when a feed demand falls due unpaid (KBQ-FEED-3)
-- or cannot be paid at once (KBQ-FEED-6), to a Play Immediately card drawn (KBQ-PI-1,
-- KBQ-PI-2), or to a card that gambles it (the Bakery, Russian Roulette, the Casino). One
-- row per cause and rule, over finished, legal games: how it happened in words, deaths, deaths per game and the
-- cause's share of all deaths. What-if branches are left out.
-- chart: barh x=how y=per_game color=cause
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
SELECT d.cause,
       -- the cause as the table says it (the rule ids stay in their own column)
       CASE d.rule
           WHEN 'KBQ-WPN-2' THEN 'a weapon''s roll'
           WHEN 'KBQ-CARD-TROJAN-BUNNY' THEN 'the Trojan Bunny'
           WHEN 'KBQ-ROAM-1' THEN 'a Roaming Red Run'
           WHEN 'KBQ-ROAM-2' THEN 'a Roaming Red Run, again'
           WHEN 'KBQ-FEED-3' THEN 'hunger, unfed at the turn''s end'
           WHEN 'KBQ-FEED-6' THEN 'hunger, a feed due at once'
           WHEN 'KBQ-PI-1' THEN 'a Play Immediately card, drawer''s own bunny'
           WHEN 'KBQ-PI-2' THEN 'a Play Immediately card, an opponent''s bunny'
           WHEN 'KBQ-CARD-MAD-MAD-DONNELAITH-BAKERY' THEN 'the Bakery'
           WHEN 'KBQ-CARD-RUSSIAN-ROULETTE' THEN 'Russian Roulette'
           WHEN 'KBQ-CARD-CARROT-TOP-CASINO' THEN 'the Casino'
           ELSE d.cause || ' (' || d.rule || ')'
       END AS how,
       d.rule, count(*) AS deaths,
       round(CAST(count(*) AS DOUBLE) / max(g.n), 3) AS per_game,
       round(CAST(count(*) AS DOUBLE) / max(t.n), 4) AS share
FROM deaths d
CROSS JOIN total t
CROSS JOIN games_n g
GROUP BY d.cause, d.rule
ORDER BY deaths DESC, d.cause, d.rule
