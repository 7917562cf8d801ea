-- Games recorded at the table, and what they leave unknown
--
-- Per ruleset and source (simulated, recorded at the table, imported): the games stored,
-- how many of them are partly unknown (the record leaves at least one card, role or Item
-- unknown, as "?", or a check could not be decided because it needs one), their share,
-- the unknown values and the undetermined checks in all. A game recorded at the table
-- that names everything counts as recorded but not as partly unknown; a deal nobody saw
-- counts, whether or not a later check needed it. What-if branches are left out.
-- chart: bar x=source y=partly_unknown_share wilson=partly_unknown,games n=games min=1
WITH doubts AS (
    SELECT ruleset, game_id, count(*) AS n
    FROM effects
    WHERE kind = 'undetermined'
    GROUP BY ruleset, game_id
)
SELECT g.ruleset, g.source,
       count(*) AS games,
       count(*) FILTER (WHERE g.unknown_values > 0 OR d.game_id IS NOT NULL) AS partly_unknown,
       round(CAST(count(*) FILTER (WHERE g.unknown_values > 0 OR d.game_id IS NOT NULL) AS DOUBLE)
             / count(*), 4) AS partly_unknown_share,
       coalesce(sum(g.unknown_values), 0) AS unknown_values,
       coalesce(sum(d.n), 0) AS undetermined_checks
FROM games g
LEFT JOIN doubts d ON d.game_id = g.game_id AND d.ruleset = g.ruleset
WHERE g.parent_game IS NULL
GROUP BY g.ruleset, g.source
ORDER BY g.ruleset, g.source
