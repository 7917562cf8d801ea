-- Bunny Triplets: how often they give a second card, and what that is worth
--
-- Three of a player's bunnies alike in colour or kind let him play a second card in his
-- turn (KBQ-TRIP-1, KBQ-TRIP-2), never a third (KBQ-TRIP-3). Per player count, over
-- finished, legal games: turns, turns with a second card, their share, the share of games
-- in which somebody had one, and the win rate of seats that had a second card at least
-- once beside seats that never did. What-if branches are left out.
-- chart: bar x=n_players y=second_card_share wilson=second_cards,turns n=turns
WITH finished AS (
    SELECT game_id, n_players, turns FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
), seconds AS (
    SELECT e.game_id, e.seat, count(*) AS n
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'second_card'
    GROUP BY e.game_id, e.seat
), per_game AS (
    SELECT f.game_id, f.n_players, f.turns, coalesce(sum(s.n), 0) AS seconds
    FROM finished f
    LEFT JOIN seconds s ON s.game_id = f.game_id
    GROUP BY f.game_id, f.n_players, f.turns
), per_seat AS (
    SELECT r.n_players, CASE WHEN r.won THEN 1 ELSE 0 END AS won,
           CASE WHEN s.n IS NULL THEN 0 ELSE 1 END AS had
    FROM seat_results r
    JOIN finished f ON f.game_id = r.game_id
    LEFT JOIN seconds s ON s.game_id = r.game_id AND s.seat = r.seat
    WHERE r.ruleset = 'killer-bunnies-quest'
), seat_rates AS (
    SELECT n_players,
           avg(CASE WHEN had = 1 THEN CAST(won AS DOUBLE) END) AS win_if_had,
           avg(CASE WHEN had = 0 THEN CAST(won AS DOUBLE) END) AS win_if_never,
           sum(had) AS seats_with
    FROM per_seat GROUP BY n_players
)
SELECT p.n_players, count(*) AS games, sum(p.turns) AS turns, sum(p.seconds) AS second_cards,
       round(CAST(sum(p.seconds) AS DOUBLE) / nullif(sum(p.turns), 0), 4) AS second_card_share,
       round(avg(CASE WHEN p.seconds > 0 THEN 1.0 ELSE 0.0 END), 4) AS games_with_one,
       max(r.seats_with) AS seats_with_one,
       round(max(r.win_if_had), 4) AS win_rate_with,
       round(max(r.win_if_never), 4) AS win_rate_without
FROM per_game p
JOIN seat_rates r ON r.n_players = p.n_players
GROUP BY p.n_players
ORDER BY p.n_players
