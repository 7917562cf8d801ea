-- Card impact: win rate of a seat that played X beside one that did not
--
-- For every card a seat's events name (in the seat_items table, a field called card or
-- cards: a card laid, stolen, played, discarded, saved or put at the bottom of the run;
-- in Trust No Bunny a card played to defend, to weaken or to gnaw; places such as a
-- blind-card slot, the bunny a card goes on, and Items or Quirks are not cards played and
-- are left out, and so is a card nobody saw, "?"), the seats of finished, legal games split
-- in two: those that named it at least once in the game in that use, and those that never
-- did. Each side's sample size, wins and win rate, and the difference (the chart draws its
-- 95% interval). Small samples swing: read the sizes first.
-- What-if branches are left out.
-- chart: barh x=value y=difference color=use names=1 newcombe=wins_with,seats_with,wins_without,seats_without n=seats_with,seats_without top=12
WITH seats AS (
    SELECT r.ruleset, r.game_id, r.seat, CASE WHEN r.won THEN 1 ELSE 0 END AS won
    FROM seat_results r
    JOIN games g ON g.game_id = r.game_id AND g.ruleset = r.ruleset
    WHERE g.over AND g.ok AND g.parent_game IS NULL
), totals AS (
    SELECT ruleset, count(*) AS seats, sum(won) AS wins FROM seats GROUP BY ruleset
), used AS (
    -- one row per seat, use and card: a card a seat played twice in one use counts once
    SELECT DISTINCT ruleset, game_id, seat, value,
           CASE WHEN field IN ('card', 'cards') THEN type ELSE field END AS use
    FROM seat_items
    WHERE (field IN ('card', 'cards') OR (ruleset = 'trust-no-bunny' AND field IN ('defend', 'weaken', 'gnaw')))
      AND value <> '?'
), with_it AS (
    SELECT u.ruleset, u.use, u.value, count(*) AS seats, sum(s.won) AS wins
    FROM used u
    JOIN seats s ON s.ruleset = u.ruleset AND s.game_id = u.game_id AND s.seat = u.seat
    GROUP BY u.ruleset, u.use, u.value
)
SELECT w.ruleset, w.use, w.value,
       w.seats AS seats_with, w.wins AS wins_with,
       round(CAST(w.wins AS DOUBLE) / w.seats, 4) AS win_rate_with,
       t.seats - w.seats AS seats_without, t.wins - w.wins AS wins_without,
       round(CAST(t.wins - w.wins AS DOUBLE) / nullif(t.seats - w.seats, 0), 4) AS win_rate_without,
       round(CAST(w.wins AS DOUBLE) / w.seats
             - CAST(t.wins - w.wins AS DOUBLE) / nullif(t.seats - w.seats, 0), 4) AS difference
FROM with_it w
JOIN totals t ON t.ruleset = w.ruleset
ORDER BY w.ruleset, w.use, w.value
