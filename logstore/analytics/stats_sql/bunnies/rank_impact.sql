-- Rank impact: win rate of a seat that laid a rank beside one that did not
--
-- Per rank (2 to 9, T, J, Q, K, A; the first letter of a card), over finished, legal games:
-- the seats that laid at least one card of that rank from hand during the game and the
-- seats that never did, each with its sample size, wins and win rate, and the difference (the chart draws its 95% interval).
-- What-if branches are left out.
-- chart: bar x=face xtitle=rank y=difference newcombe=wins_with,seats_with,wins_without,seats_without n=seats_with,seats_without
WITH seats AS (
    SELECT r.game_id, r.seat, CASE WHEN r.won THEN 1 ELSE 0 END AS won
    FROM seat_results r
    JOIN games g ON g.game_id = r.game_id AND g.ruleset = r.ruleset
    WHERE r.ruleset = 'bunnies' AND g.over AND g.ok AND g.parent_game IS NULL
), totals AS (
    SELECT count(*) AS seats, sum(won) AS wins FROM seats
), laid AS (
    SELECT DISTINCT game_id, seat, substr(value, 1, 1) AS rank
    FROM seat_items
    WHERE ruleset = 'bunnies' AND type = 'lay' AND field = 'cards'
), with_rank AS (
    SELECT l.rank, count(*) AS seats, sum(s.won) AS wins
    FROM laid l
    JOIN seats s ON s.game_id = l.game_id AND s.seat = l.seat
    GROUP BY l.rank
)
SELECT w.rank, replace(w.rank, 'T', '10') AS face,
       w.seats AS seats_with, w.wins AS wins_with,
       round(CAST(w.wins AS DOUBLE) / w.seats, 4) AS win_rate_with,
       t.seats - w.seats AS seats_without, t.wins - w.wins AS wins_without,
       round(CAST(t.wins - w.wins AS DOUBLE) / nullif(t.seats - w.seats, 0), 4) AS win_rate_without,
       round(CAST(w.wins AS DOUBLE) / w.seats
             - CAST(t.wins - w.wins AS DOUBLE) / nullif(t.seats - w.seats, 0), 4) AS difference
FROM with_rank w
CROSS JOIN totals t
ORDER BY instr('23456789TJQKA', w.rank)
