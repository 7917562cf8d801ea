-- Bad News: what each card costs its drawer
--
-- A Bad News card is played the moment it is drawn (KIN-BAD-1): Aliens discards every
-- bunny its drawer has on the table, Bears and Candy one, Tornado all but one bunny and
-- one carrot (KIN-CARD-BAD-NEWS); drawn with no bunny down it is harmless (KIN-BAD-2), and
-- No News Is Good News cancels it (KIN-CARD-NO-NEWS). Per Bad News card, over every legal
-- KinderBunnies game: times drawn, harmless draws, cancels, bunnies and carrots lost, and
-- the bunnies lost per draw that hurt.
-- chart: bar x=card y=bunnies_per_hurting_draw
WITH legal AS (
    SELECT game_id FROM games
    WHERE ruleset = 'kinderbunnies' AND ok AND parent_game IS NULL
), fx AS (
    SELECT e.* FROM effects e JOIN legal l ON l.game_id = e.game_id
    WHERE e.ruleset = 'kinderbunnies'
), drawn AS (
    SELECT CAST(json_extract_string(data, '$.card') AS BIGINT) AS card,
           CASE WHEN kind = 'bad_news_harmless' THEN 1 ELSE 0 END AS harmless
    FROM fx WHERE kind IN ('bad_news', 'bad_news_harmless')
), cancelled AS (
    SELECT CAST(json_extract_string(data, '$.card') AS BIGINT) AS card, count(*) AS n
    FROM fx WHERE kind = 'bad_news_cancelled' GROUP BY 1
), lost AS (
    SELECT CAST(json_extract_string(data, '$.card') AS BIGINT) AS card,
           sum(CASE WHEN kind = 'bunny_lost' THEN 1 ELSE 0 END) AS bunnies,
           sum(CASE WHEN kind = 'carrot_returned' THEN 1 ELSE 0 END) AS carrots
    FROM fx WHERE rule = 'KIN-CARD-BAD-NEWS' GROUP BY 1
), per_card AS (
    SELECT card, count(*) AS drawn, sum(harmless) AS harmless FROM drawn GROUP BY card
)
SELECT p.card, p.drawn, p.harmless, coalesce(c.n, 0) AS cancelled,
       coalesce(l.bunnies, 0) AS bunnies_lost, coalesce(l.carrots, 0) AS carrots_lost,
       round(CAST(coalesce(l.bunnies, 0) AS DOUBLE)
             / nullif(p.drawn - p.harmless - coalesce(c.n, 0), 0), 3) AS bunnies_per_hurting_draw
FROM per_card p
LEFT JOIN cancelled c ON c.card = p.card
LEFT JOIN lost l ON l.card = p.card
ORDER BY p.card
