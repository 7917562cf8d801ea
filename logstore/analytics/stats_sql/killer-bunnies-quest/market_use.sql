-- Kaballa's Market: what is bought, at what price, and how often it is closed
--
-- A player buys during his own turn from the open market (KBQ-MKT-1); price cards change
-- the prices (KBQ-MKT-3) and a Closed card shuts it until a price card opens it again
-- (KBQ-MKT-4). Per player count, over finished, legal games: purchases per game of
-- cabbage, water and carrots, the mean price paid for a carrot, the carrots taken by
-- Choose A Carrot cards, how often a Closed card shut the market, and how often a card's
-- supplies or carrot prize came to nothing because it was closed.
-- What-if branches are left out.
-- chart: bar x=n_players y=carrots_bought_per_game
WITH finished AS (
    SELECT game_id, n_players FROM games
    WHERE ruleset = 'killer-bunnies-quest' AND over AND ok AND parent_game IS NULL
), bought AS (
    SELECT e.game_id, json_extract_string(e.data, '$.goods') AS goods,
           CAST(json_extract_string(e.data, '$.price') AS BIGINT) AS price
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'bought'
), taken AS (
    SELECT e.game_id, count(*) AS by_card
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest' AND e.kind = 'carrot_taken' AND e.rule = 'KBQ-CARROT-1'
    GROUP BY e.game_id
), closed AS (
    SELECT e.game_id,
           sum(CASE WHEN e.kind = 'market_closed' THEN 1 ELSE 0 END) AS closings,
           sum(CASE WHEN e.kind = 'closed_market_nothing' THEN 1 ELSE 0 END) AS wasted
    FROM effects e
    JOIN finished f ON f.game_id = e.game_id
    WHERE e.ruleset = 'killer-bunnies-quest'
      AND e.kind IN ('market_closed', 'closed_market_nothing')
    GROUP BY e.game_id
), bought_per_game AS (
    SELECT game_id,
           sum(CASE WHEN goods = 'cabbage' THEN 1 ELSE 0 END) AS cabbage,
           sum(CASE WHEN goods = 'water' THEN 1 ELSE 0 END) AS water,
           sum(CASE WHEN goods = 'carrot' THEN 1 ELSE 0 END) AS carrots,
           sum(CASE WHEN goods = 'carrot' THEN price ELSE 0 END) AS carrot_dolla
    FROM bought GROUP BY game_id
), per_game AS (
    SELECT f.game_id, f.n_players, coalesce(b.cabbage, 0) AS cabbage,
           coalesce(b.water, 0) AS water, coalesce(b.carrots, 0) AS carrots,
           coalesce(b.carrot_dolla, 0) AS carrot_dolla,
           coalesce(t.by_card, 0) AS by_card,
           coalesce(c.closings, 0) AS closings, coalesce(c.wasted, 0) AS wasted
    FROM finished f
    LEFT JOIN bought_per_game b ON b.game_id = f.game_id
    LEFT JOIN taken t ON t.game_id = f.game_id
    LEFT JOIN closed c ON c.game_id = f.game_id
)
SELECT n_players, count(*) AS games,
       round(avg(CAST(cabbage AS DOUBLE)), 3) AS cabbage_bought_per_game,
       round(avg(CAST(water AS DOUBLE)), 3) AS water_bought_per_game,
       round(avg(CAST(carrots AS DOUBLE)), 3) AS carrots_bought_per_game,
       round(CAST(sum(carrot_dolla) AS DOUBLE) / nullif(sum(carrots), 0), 3) AS mean_carrot_price,
       round(avg(CAST(by_card AS DOUBLE)), 3) AS carrots_chosen_per_game,
       round(avg(CAST(closings AS DOUBLE)), 3) AS closings_per_game,
       round(avg(CAST(wasted AS DOUBLE)), 3) AS prizes_lost_to_closing_per_game
FROM per_game
GROUP BY n_players
ORDER BY n_players
