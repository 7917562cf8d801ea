-- Bunnies by kind: how many of each kind a game sees, and what they are worth
--
-- A bunny is four cards of one rank together on top of the pile (BUN-BUNNY-1); its kind
-- follows the rank: "bunny" (2 to 10), "royal" (J, Q, K) or "super" (A) (BUN-BUNNY-2).
-- Per kind, over finished, legal games: bunnies scored in all and per game, the share of
-- games with at least one, and the win rate of a seat that scored at least one of that kind.
-- What-if branches are left out.
-- chart: bar x=bunny_kind y=per_game
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'bunnies' AND over AND ok AND parent_game IS NULL
), scored AS (
    SELECT e.game_id, e.seat, json_extract_string(e.data, '$.kind') AS bunny_kind
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'bunnies' AND e.kind = 'bunny_scored'
), seat_kinds AS (
    SELECT DISTINCT s.game_id, s.seat, s.bunny_kind,
           CASE WHEN r.won THEN 1 ELSE 0 END AS won
    FROM scored s
    JOIN seat_results r ON r.game_id = s.game_id AND r.seat = s.seat AND r.ruleset = 'bunnies'
), per_kind AS (
    SELECT bunny_kind, count(*) AS bunnies, count(DISTINCT game_id) AS games_with
    FROM scored GROUP BY bunny_kind
), wins AS (
    SELECT bunny_kind, count(*) AS seats_with, sum(won) AS seat_wins
    FROM seat_kinds GROUP BY bunny_kind
), total AS (
    SELECT count(*) AS games FROM finished
)
SELECT k.bunny_kind, k.bunnies,
       round(CAST(k.bunnies AS DOUBLE) / t.games, 3) AS per_game,
       round(CAST(k.games_with AS DOUBLE) / t.games, 4) AS share_of_games,
       w.seats_with,
       round(CAST(w.seat_wins AS DOUBLE) / w.seats_with, 4) AS win_rate_with
FROM per_kind k
JOIN wins w ON w.bunny_kind = k.bunny_kind
CROSS JOIN total t
ORDER BY k.bunny_kind
