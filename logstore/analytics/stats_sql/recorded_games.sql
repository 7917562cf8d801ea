-- Games recorded at the table, and what they leave unknown
--
-- Per ruleset and source (simulated, recorded at the table, imported): the games stored,
-- how many of them are partly unknown (at least one check the rules could not decide
-- because it needs a card nobody saw), their share, and those undetermined checks in all.
-- A game recorded at the table whose every check was decided counts as recorded but not
-- as partly unknown. What-if branches are left out.
-- chart: bar x=source y=partly_unknown color=ruleset
WITH doubts AS (
    SELECT ruleset, game_id, count(*) AS n
    FROM effects
    WHERE kind = 'undetermined'
    GROUP BY ruleset, game_id
)
SELECT g.ruleset, g.source,
       count(*) AS games,
       count(d.game_id) AS partly_unknown,
       round(CAST(count(d.game_id) AS DOUBLE) / count(*), 4) AS partly_unknown_share,
       coalesce(sum(d.n), 0) AS undetermined_checks
FROM games g
LEFT JOIN doubts d ON d.game_id = g.game_id AND d.ruleset = g.ruleset
WHERE g.parent_game IS NULL
GROUP BY g.ruleset, g.source
ORDER BY g.ruleset, g.source
