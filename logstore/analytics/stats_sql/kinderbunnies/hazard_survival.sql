-- Safety Hazard survival beside the exact chance
--
-- A bunny under a Safety Hazard is safe when any of the five ten-sided dice shows the
-- hazard's number (KIN-HAZ-1, KIN-DICE-1): for fair dice that is 1 - (9/10)^5 = 0.40951,
-- whatever the number. Per hazard number, over every legal KinderBunnies game (all
-- levels): hazards rolled, bunnies saved, the observed survival rate and the exact chance
-- beside it (a row for each of the ten hazards once there is a game, rolled or not). Rolls
-- changed by a Re-Roll count with the faces that stood.
-- chart: bar x=hazard y=survival_rate wilson=saved,rolled ref=exact_chance n=rolled
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'kinderbunnies' AND ok AND parent_game IS NULL
), rolled AS (
    SELECT CAST(json_extract_string(e.data, '$.number') AS BIGINT) AS hazard,
           CASE WHEN json_extract_string(e.data, '$.saved') = 'true' THEN 1 ELSE 0 END AS saved
    FROM effects e JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'kinderbunnies' AND e.kind = 'hazard_rolled'
), hazards AS (
    SELECT * FROM (VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10)) AS h(hazard)
)
SELECT h.hazard, count(r.hazard) AS rolled, coalesce(sum(r.saved), 0) AS saved,
       round(CAST(sum(r.saved) AS DOUBLE) / nullif(count(r.hazard), 0), 4) AS survival_rate,
       round(1 - power(0.9, 5), 5) AS exact_chance
FROM hazards h
LEFT JOIN rolled r ON r.hazard = h.hazard
WHERE EXISTS (SELECT 1 FROM legal)
GROUP BY h.hazard
ORDER BY h.hazard
