-- Rank impact: how many cards of each rank winners laid beside losers
--
-- Per rank (2 to 9, T, J, Q, K, A; the first letter of a card), over finished, legal games:
-- how many cards of that rank each seat laid from hand in the game (none counts as 0), the
-- mean of the seats that won and of the seats that lost, and the difference, with its 95%
-- interval (the normal approximation: the difference +- 1.96 standard errors). Every seat
-- stands on every rank, so no rank is ever too small to draw once a few games are stored.
-- A card laid again after a pick-up counts again. A positive difference: winners laid more
-- of that rank. What-if branches are left out.
-- chart: bar x=face xtitle=rank y=difference ci=ci_low,ci_high n=seats_won,seats_lost min=5
WITH seats AS (
    SELECT r.game_id, r.seat, r.won
    FROM seat_results r
    JOIN games g ON g.game_id = r.game_id AND g.ruleset = r.ruleset
    WHERE r.ruleset = 'bunnies' AND g.over AND g.ok AND g.parent_game IS NULL
), ranks AS (
    SELECT unnest(['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A']) AS rank
), laid AS (
    SELECT game_id, seat, substr(value, 1, 1) AS rank, sum(uses) AS cards
    FROM seat_items
    WHERE ruleset = 'bunnies' AND type = 'lay' AND field = 'cards' AND value <> '?'
    GROUP BY game_id, seat, substr(value, 1, 1)
), counted AS (
    SELECT k.rank, s.won, coalesce(l.cards, 0) AS cards
    FROM seats s
    CROSS JOIN ranks k
    LEFT JOIN laid l ON l.game_id = s.game_id AND l.seat = s.seat AND l.rank = k.rank
), sides AS (
    SELECT rank,
           count(*) FILTER (WHERE won) AS seats_won,
           avg(cards) FILTER (WHERE won) AS mean_won,
           var_samp(cards) FILTER (WHERE won) AS var_won,
           count(*) FILTER (WHERE NOT won) AS seats_lost,
           avg(cards) FILTER (WHERE NOT won) AS mean_lost,
           var_samp(cards) FILTER (WHERE NOT won) AS var_lost
    FROM counted
    GROUP BY rank
), differences AS (
    SELECT *, mean_won - mean_lost AS diff,
           sqrt(var_won / seats_won + var_lost / seats_lost) AS se
    FROM sides
)
SELECT rank, replace(rank, 'T', '10') AS face,
       seats_won, round(mean_won, 3) AS mean_won,
       seats_lost, round(mean_lost, 3) AS mean_lost,
       round(diff, 3) AS difference,
       round(diff - 1.96 * se, 3) AS ci_low,
       round(diff + 1.96 * se, 3) AS ci_high
FROM differences
WHERE seats_won > 0 AND seats_lost > 0
ORDER BY instr('23456789TJQKA', rank)
