-- First-seat advantage by player skill
--
-- Does the first seat win more because of the seat, or because of who sits in it? For the
-- finished, legal games (what-if branches left out), people's and bots' apart (`who`: a
-- simulated game seats bots only), each game's first seat (play order 1) is put in one of
-- two groups: its player's rating in the ruleset (players.mu, as rated after every game so
-- far) is above the mean of the table's players, or not. Each group's games, the first
-- seat's wins and win rate with its 95% Wilson interval, beside the fair share
-- (1 / players). If the first seat wins more only when it holds the stronger player, the
-- seat is not the advantage. Few games swing: read n first.
-- chart: bar x=first_seat y=win_rate color=who ci=ci_low,ci_high ref=fair_share n=games
WITH seats AS (
    SELECT r.ruleset, r.game_id, r.play_order, r.won, r.n_players, p.mu,
           CASE WHEN s.bot THEN 'bots' ELSE 'people' END AS who
    FROM seat_results r
    JOIN games g ON g.game_id = r.game_id AND g.ruleset = r.ruleset
    JOIN player_seats s ON s.game_id = r.game_id AND s.ruleset = r.ruleset AND s.seat = r.seat
    JOIN players p ON p.player = s.player AND p.ruleset = s.ruleset
    WHERE g.over AND g.ok AND g.parent_game IS NULL AND p.mu IS NOT NULL
), tables AS (
    SELECT ruleset, game_id, avg(mu) AS table_mu FROM seats GROUP BY ruleset, game_id
), firsts AS (
    SELECT s.ruleset, s.who, s.n_players,
           CASE WHEN s.mu > t.table_mu THEN 'stronger than the table' ELSE 'not stronger' END AS first_seat,
           CASE WHEN s.won THEN 1 ELSE 0 END AS won
    FROM seats s JOIN tables t ON t.ruleset = s.ruleset AND t.game_id = s.game_id
    WHERE s.play_order = 1
), counted AS (
    SELECT ruleset, who, first_seat, count(*) AS games, sum(won) AS wins,
           avg(CAST(1 AS DOUBLE) / n_players) AS fair
    FROM firsts GROUP BY ruleset, who, first_seat
), rated AS (
    SELECT *, CAST(games AS DOUBLE) AS n, CAST(wins AS DOUBLE) / games AS rate FROM counted
)
SELECT ruleset, who, first_seat, games, wins,
       round(rate, 4) AS win_rate,
       round((rate + 1.9208 / n - 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_low,
       round((rate + 1.9208 / n + 1.96 * sqrt(rate * (1 - rate) / n + 0.9604 / (n * n)))
             / (1 + 3.8416 / n), 4) AS ci_high,
       round(fair, 4) AS fair_share
FROM rated
ORDER BY ruleset, who, first_seat
