-- Rejected votes and accusations
--
-- Per player count, over finished, legal games: teams proposed per game and the share the
-- table rejected (TNB-VOTE-3); accusations per game (TNB-ACC-1), the share that named
-- exactly the two Werebunnies, that share for accusers who were Townsfolk, and the pairs the
-- table refuted (TNB-ACC-4). Roles come from the recorded roles event (TNB-SET-1).
-- What-if branches are left out.
-- chart: bar x=n_players y=rejected_share n=games
WITH finished AS (
    SELECT game_id, n_players FROM games
    WHERE ruleset = 'trust-no-bunny' AND over AND ok AND parent_game IS NULL
), roles AS (
    SELECT game_id,
           ',' || replace(replace(replace(json_extract_string(line, '$.werebunnies'), '[', ''), ']', ''),
                          ' ', '') || ',' AS werebunnies,
           replace(json_extract_string(line, '$.werebunnies'), ' ', '') AS pair
    FROM events
    WHERE ruleset = 'trust-no-bunny' AND type = 'roles'
), counted AS (
    SELECT f.game_id, f.n_players,
           sum(CASE WHEN e.kind = 'team_proposed' THEN 1 ELSE 0 END) AS proposals,
           sum(CASE WHEN e.kind = 'team_rejected' THEN 1 ELSE 0 END) AS rejected,
           sum(CASE WHEN e.kind = 'accused' THEN 1 ELSE 0 END) AS accusations,
           sum(CASE WHEN e.kind = 'accused'
                     AND replace(json_extract_string(e.data, '$.suspects'), ' ', '') = r.pair
                    THEN 1 ELSE 0 END) AS correct,
           sum(CASE WHEN e.kind = 'accused'
                     AND instr(r.werebunnies, ',' || CAST(e.seat AS VARCHAR) || ',') = 0
                    THEN 1 ELSE 0 END) AS by_townsfolk,
           sum(CASE WHEN e.kind = 'accused'
                     AND instr(r.werebunnies, ',' || CAST(e.seat AS VARCHAR) || ',') = 0
                     AND replace(json_extract_string(e.data, '$.suspects'), ' ', '') = r.pair
                    THEN 1 ELSE 0 END) AS correct_by_townsfolk,
           sum(CASE WHEN e.kind = 'pair_refuted' THEN 1 ELSE 0 END) AS refuted
    FROM finished f
    JOIN roles r ON r.game_id = f.game_id
    LEFT JOIN effects e ON e.game_id = f.game_id AND e.ruleset = 'trust-no-bunny'
    GROUP BY f.game_id, f.n_players
)
SELECT n_players, count(*) AS games,
       round(avg(CAST(proposals AS DOUBLE)), 3) AS proposals_per_game,
       round(CAST(sum(rejected) AS DOUBLE) / nullif(sum(proposals), 0), 4) AS rejected_share,
       round(avg(CAST(accusations AS DOUBLE)), 3) AS accusations_per_game,
       round(CAST(sum(correct) AS DOUBLE) / nullif(sum(accusations), 0), 4) AS correct_share,
       round(CAST(sum(correct_by_townsfolk) AS DOUBLE) / nullif(sum(by_townsfolk), 0), 4)
           AS townsfolk_correct_share,
       sum(refuted) AS pairs_refuted
FROM counted
GROUP BY n_players
ORDER BY n_players
