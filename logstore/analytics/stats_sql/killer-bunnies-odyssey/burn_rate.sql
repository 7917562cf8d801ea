-- Burned cards early in the game
--
-- A flipped card whose conditions cannot be met (no Resources for its cost yet, no bunny for
-- a pink box, no city for a green box) is burned (ODY-BURN-1); the rulebook says this is
-- common at the start. Per round over legal games: cards flipped, cards burned, the burn
-- rate, and the share of flips discarded by choice (ODY-TURN-6). What-if branches are left
-- out.
-- chart: bar x=round y=burn_rate wilson=burned,flipped n=flipped
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'killer-bunnies-odyssey' AND ok AND parent_game IS NULL
), flips AS (
    SELECT t.round, e.kind
    FROM effects e
    JOIN turns t ON t.game_id = e.game_id AND t.turn = e.turn AND t.ruleset = e.ruleset
    JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-odyssey' AND e.type = 'flip'
      AND e.kind IN ('flipped', 'burned', 'discarded')
)
SELECT round,
       count(*) FILTER (WHERE kind = 'flipped') AS flipped,
       count(*) FILTER (WHERE kind = 'burned') AS burned,
       round(CAST(count(*) FILTER (WHERE kind = 'burned') AS DOUBLE)
             / greatest(count(*) FILTER (WHERE kind = 'flipped'), 1), 4) AS burn_rate,
       round(CAST(count(*) FILTER (WHERE kind = 'discarded') AS DOUBLE)
             / greatest(count(*) FILTER (WHERE kind = 'flipped'), 1), 4) AS discard_rate
FROM flips
GROUP BY round
ORDER BY round
