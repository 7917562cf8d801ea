-- How often each rule's effects fire
--
-- Every effect the engine derived on replay names the rule that caused it. Per ruleset,
-- rule and kind of effect: how many fired in all, in how many games, the share of games
-- where it fired at least once, and the average per game over every projected game of the
-- ruleset (illegal and unfinished games included: their effects up to where they stop).
-- chart: barh x=kind y=per_game rules=rule xtitle=effect_and_its_rule
WITH totals AS (
    SELECT ruleset, count(*) AS all_games FROM games GROUP BY ruleset
), fired AS (
    SELECT ruleset, rule, kind, count(*) AS effects, count(DISTINCT game_id) AS games
    FROM effects
    GROUP BY ruleset, rule, kind
)
SELECT f.ruleset, f.rule, f.kind, f.effects, f.games,
       round(CAST(f.games AS DOUBLE) / t.all_games, 4) AS share_of_games,
       round(CAST(f.effects AS DOUBLE) / t.all_games, 3) AS per_game
FROM fired f
JOIN totals t ON t.ruleset = f.ruleset
ORDER BY f.ruleset, f.rule, f.kind
