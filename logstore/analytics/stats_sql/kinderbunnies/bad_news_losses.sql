-- Bad News: what each card costs its drawer
--
-- A Bad News card is played the moment it is drawn (KIN-BAD-1): Aliens discards every
-- bunny its drawer has on the table, Bears and Candy one, Tornado all but one bunny and
-- one carrot (KIN-CARD-BAD-NEWS); drawn with no bunny down it is harmless (KIN-BAD-2), and
-- No News Is Good News cancels it (KIN-CARD-NO-NEWS). Per Bad News card, over every legal
-- KinderBunnies game: times drawn, harmless draws, cancels, bunnies and carrots lost, and
-- the bunnies lost per draw that hurt (a row for each of the four cards, drawn or not).
-- chart: bar x=name y=bunnies_per_hurting_draw
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
), bad_news AS (
    -- the four Bad News cards of the catalogue (engine/kinderbunnies/cards/yellow.toml)
    SELECT * FROM (VALUES (97, 'Aliens'), (98, 'Bears'), (99, 'Candy'), (100, 'Tornado'))
        AS b(card, name)
)
SELECT b.card, b.name, coalesce(p.drawn, 0) AS drawn, coalesce(p.harmless, 0) AS harmless,
       coalesce(c.n, 0) AS cancelled,
       coalesce(l.bunnies, 0) AS bunnies_lost, coalesce(l.carrots, 0) AS carrots_lost,
       round(CAST(coalesce(l.bunnies, 0) AS DOUBLE)
             / nullif(coalesce(p.drawn, 0) - coalesce(p.harmless, 0) - coalesce(c.n, 0), 0), 3)
           AS bunnies_per_hurting_draw
FROM bad_news b
LEFT JOIN per_card p ON p.card = b.card
LEFT JOIN cancelled c ON c.card = b.card
LEFT JOIN lost l ON l.card = b.card
WHERE EXISTS (SELECT 1 FROM legal)
ORDER BY b.card
