-- Pile pick-ups: how often each seat has to take the pile, and how much of it
--
-- A player who cannot beat the top card takes the face-up pile (BUN-PICKUP-1), and so does
-- one whose blind card turned up too low (BUN-BLIND-4). Per position in the play order
-- (1 = first to act), over finished, legal games: pick-ups per game, cards per pick-up,
-- the largest pile taken, the share that followed a failed blind card, and the win rate
-- of seats with at most and with more than the median number of pick-ups.
-- What-if branches are left out.
-- chart: bar x=play_order y=pickups_per_game
WITH finished AS (
    SELECT game_id FROM games
    WHERE ruleset = 'bunnies' AND over AND ok AND parent_game IS NULL
), pickups AS (
    -- a pick-up caused by a flip is a blind card that could not beat the top (BUN-BLIND-4)
    SELECT p.game_id, p.seat,
           CAST(json_extract_string(p.data, '$.cards') AS BIGINT) AS cards,
           CASE WHEN p.type = 'flip' THEN 1 ELSE 0 END AS after_blind
    FROM effects p
    JOIN finished f ON f.game_id = p.game_id
    WHERE p.ruleset = 'bunnies' AND p.kind = 'pile_picked_up'
), per_seat AS (
    SELECT r.game_id, r.seat, r.play_order, CASE WHEN r.won THEN 1 ELSE 0 END AS won,
           count(p.game_id) AS pickups, coalesce(sum(p.cards), 0) AS cards,
           coalesce(max(p.cards), 0) AS largest, coalesce(sum(p.after_blind), 0) AS after_blind
    FROM seat_results r
    JOIN finished f ON f.game_id = r.game_id
    LEFT JOIN pickups p ON p.game_id = r.game_id AND p.seat = r.seat
    WHERE r.ruleset = 'bunnies'
    GROUP BY r.game_id, r.seat, r.play_order, r.won
), ranked AS (
    SELECT play_order, pickups,
           row_number() OVER (PARTITION BY play_order ORDER BY pickups) AS k,
           count(*) OVER (PARTITION BY play_order) AS n
    FROM per_seat
), cut AS (
    -- the median: the count at place ceil(n / 2) in sorted order, a count that occurs
    SELECT play_order, max(CASE WHEN k = CAST(ceil(0.5 * n) AS BIGINT) THEN pickups END) AS median_pickups
    FROM ranked GROUP BY play_order
)
SELECT s.play_order, count(*) AS seats,
       round(avg(CAST(s.pickups AS DOUBLE)), 3) AS pickups_per_game,
       round(CAST(sum(s.cards) AS DOUBLE) / nullif(sum(s.pickups), 0), 3) AS cards_per_pickup,
       max(s.largest) AS largest_pile,
       round(CAST(sum(s.after_blind) AS DOUBLE) / nullif(sum(s.pickups), 0), 4) AS after_blind_share,
       c.median_pickups,
       round(avg(CASE WHEN s.pickups <= c.median_pickups THEN CAST(s.won AS DOUBLE) END), 4)
           AS win_rate_at_most_median,
       round(avg(CASE WHEN s.pickups > c.median_pickups THEN CAST(s.won AS DOUBLE) END), 4)
           AS win_rate_above_median
FROM per_seat s
JOIN cut c ON c.play_order = s.play_order
GROUP BY s.play_order, c.median_pickups
ORDER BY s.play_order
