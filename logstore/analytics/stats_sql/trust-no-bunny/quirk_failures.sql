-- Quirk failures: Townsfolk on the winning side who still did not win
--
-- When the town survives the last round, only the Townsfolk whose Quirk is met win
-- (TNB-END-3). Per Quirk, over finished, legal games that ended that way: the Townsfolk
-- seats holding it, how many failed it (on the winning side, not among the winners), and
-- the failure share. The Quirks come from the recorded roles event (TNB-SET-1).
-- What-if branches are left out.
-- chart: bar x=quirk y=failed_share wilson=failed,townsfolk n=townsfolk
WITH town_survived AS (
    SELECT g.game_id
    FROM games g
    JOIN effects o ON o.game_id = g.game_id AND o.ruleset = g.ruleset AND o.kind = 'game_over'
    WHERE g.ruleset = 'trust-no-bunny' AND g.over AND g.ok AND g.parent_game IS NULL
      AND json_extract_string(o.data, '$.reason') = 'town_survived'
), seats AS (
    SELECT r.game_id, r.seat, CASE WHEN r.won THEN 1 ELSE 0 END AS won,
           -- a Werebunny's quirk is JSON null: NULL here, the text 'null' in some engines
           nullif(json_extract_string(e.line, '$.quirks[' || CAST(r.seat AS VARCHAR) || ']'), 'null')
               AS quirk
    FROM seat_results r
    JOIN town_survived t ON t.game_id = r.game_id
    JOIN events e ON e.game_id = r.game_id AND e.ruleset = r.ruleset AND e.type = 'roles'
    WHERE r.ruleset = 'trust-no-bunny'
)
SELECT quirk, count(*) AS townsfolk, sum(1 - won) AS failed,
       round(CAST(sum(1 - won) AS DOUBLE) / count(*), 4) AS failed_share
FROM seats
WHERE quirk IS NOT NULL
GROUP BY quirk
ORDER BY quirk
