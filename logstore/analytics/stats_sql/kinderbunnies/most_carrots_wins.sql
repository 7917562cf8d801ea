-- Really Advanced: how often the player with the most carrots wins
--
-- A Really Advanced game ends when the last carrot leaves the pile; the winner is whoever
-- has a bunny on the table and owns the carrot the bottom Orange card names (KIN-RA-1,
-- KIN-RA-3), so more carrots mean better odds but no certainty. Per number of players,
-- over finished, legal Really Advanced games: how often the game had a winner, and how
-- often the winner was among the players holding the most carrots at the end (a Really
-- Advanced game's score is each seat's carrots). A row for each table of 2 to 6 players.
-- What-if branches are left out.
-- chart: bar x=n_players y=most_carrots_win_share wilson=won_by_most_carrots,games_with_a_winner n=games_with_a_winner
WITH finished AS (
    SELECT game_id, n_players, winners FROM games
    WHERE ruleset = 'kinderbunnies' AND over AND ok AND parent_game IS NULL
      AND json_extract_string(options, '$.level') = 'really-advanced'
), final AS (
    -- a Really Advanced game's score per seat is its carrots at the end
    SELECT r.game_id, r.seat, r.score AS carrots, r.won
    FROM seat_results r JOIN finished f ON f.game_id = r.game_id
    WHERE r.ruleset = 'kinderbunnies'
), most AS (
    SELECT game_id, max(carrots) AS top FROM final GROUP BY game_id
), per_game AS (
    SELECT f.game_id, f.n_players,
           CASE WHEN json_array_length(f.winners) > 0 THEN 1 ELSE 0 END AS has_winner,
           max(CASE WHEN fi.won AND fi.carrots = m.top THEN 1 ELSE 0 END) AS most_won
    FROM finished f
    JOIN most m ON m.game_id = f.game_id
    JOIN final fi ON fi.game_id = f.game_id
    GROUP BY f.game_id, f.n_players, f.winners
), tables AS (
    SELECT * FROM (VALUES (2), (3), (4), (5), (6)) AS t(n_players)
)
SELECT t.n_players, count(p.game_id) AS games, coalesce(sum(p.has_winner), 0) AS games_with_a_winner,
       coalesce(sum(p.most_won), 0) AS won_by_most_carrots,
       round(CAST(sum(p.most_won) AS DOUBLE) / nullif(sum(p.has_winner), 0), 4) AS most_carrots_win_share
FROM tables t
LEFT JOIN per_game p ON p.n_players = t.n_players
WHERE EXISTS (SELECT 1 FROM games WHERE ruleset = 'kinderbunnies')
GROUP BY t.n_players
ORDER BY t.n_players
