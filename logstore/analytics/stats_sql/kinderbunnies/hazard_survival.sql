-- Safety Hazard survival beside the exact chance
--
-- A bunny under a Safety Hazard is safe when any of the five ten-sided dice shows the
-- hazard's number (KIN-HAZ-1, KIN-DICE-1): for fair dice that is 1 - (9/10)^5 = 0.40951,
-- whatever the number. Per hazard number, over every legal KinderBunnies game (all
-- levels): hazards rolled, bunnies saved, the observed survival rate and the exact chance
-- beside it. Rolls changed by a Re-Roll count with the faces that stood.
-- chart: bar x=hazard y=survival_rate
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'kinderbunnies' AND ok AND parent_game IS NULL
), rolled AS (
    SELECT CAST(json_extract_string(e.data, '$.number') AS BIGINT) AS hazard,
           CASE WHEN json_extract_string(e.data, '$.saved') = 'true' THEN 1 ELSE 0 END AS saved
    FROM effects e JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'kinderbunnies' AND e.kind = 'hazard_rolled'
)
SELECT hazard, count(*) AS rolled, sum(saved) AS saved,
       round(CAST(sum(saved) AS DOUBLE) / count(*), 4) AS survival_rate,
       round(1 - power(0.9, 5), 5) AS exact_chance
FROM rolled
GROUP BY hazard
ORDER BY hazard
