-- rooms' results moved to the games module: the sentence race writes every result and game through the games
-- module's API (recordResult when a result is accepted, finishGame at the end), so rooms' own tables go.
-- First the copy of migration 0001 once more, for the rows rooms' code wrote between 0001 and this release
-- (re-runnable: rows copied before are skipped by the games' unique keys, the aggregates are rebuilt), then the
-- tables are dropped. Rounds of rows written after 0001 continue each room's numbering by start time.
CREATE TEMP TABLE `rooms_games_rounds` AS
SELECT `id`, `room_id`, `room_name`, `participants`, `started_at`, `finished_at`,
  ROW_NUMBER() OVER (PARTITION BY `room_id` ORDER BY `started_at`, `id`) AS `round`
FROM `rooms_games`;
--> statement-breakpoint
-- `WHERE true`: SQLite needs it to read ON CONFLICT after INSERT … SELECT as the upsert clause.
INSERT INTO `games_games` (`mode`, `source_id`, `source_name`, `round`, `started_at`, `ended_at`, `participants`)
SELECT 'sentence_race', CAST(`room_id` AS TEXT), `room_name`, `round`, `started_at`, `finished_at`, `participants`
FROM `rooms_games_rounds` WHERE true
ON CONFLICT (`mode`, `source_id`, `round`) DO NOTHING;
--> statement-breakpoint
INSERT INTO `games_results` (`game_id`, `user_id`, `player_key`, `nickname`, `wpm`, `accuracy`, `completion_time`,
  `position`, `medal`, `error_count`, `implausible`, `item_id`, `created_at`)
SELECT `g`.`id`, `r`.`user_id`, `r`.`player_key`, `r`.`nickname`, `r`.`wpm`, `r`.`accuracy`, `r`.`completion_time`,
  `r`.`position`,
  CASE WHEN `r`.`participants` < 2 THEN NULL
    WHEN `r`.`position` = 1 THEN 'gold' WHEN `r`.`position` = 2 THEN 'silver' WHEN `r`.`position` = 3 THEN 'bronze'
    ELSE NULL END,
  `r`.`error_count`, 0, `r`.`sentence_id`, `r`.`created_at`
FROM `rooms_game_results` `r`
JOIN `rooms_games_rounds` `o` ON `o`.`id` = `r`.`game_id`
JOIN `games_games` `g` ON `g`.`mode` = 'sentence_race' AND `g`.`source_id` = CAST(`o`.`room_id` AS TEXT)
  AND `g`.`round` = `o`.`round`
WHERE true
ON CONFLICT (`game_id`, `player_key`) DO NOTHING;
--> statement-breakpoint
DROP TABLE `rooms_games_rounds`;
--> statement-breakpoint
DELETE FROM `games_daily_stats`;
--> statement-breakpoint
-- The same figures the games module keeps incrementally: per Asia/Seoul day (UTC+9), mode and player, counted
-- results only; the nickname of the latest result; a member's id when any of the day's results still has it.
INSERT INTO `games_daily_stats` (`day`, `mode`, `player_key`, `user_id`, `nickname`, `games`, `wpm_sum`,
  `accuracy_sum`, `best_wpm`, `gold_medals`, `silver_medals`, `bronze_medals`, `last_played_at`)
WITH `counted` AS (
  SELECT strftime('%Y-%m-%d', (`r`.`created_at` + 32400000) / 1000, 'unixepoch') AS `day`, `g`.`mode`, `r`.`id`,
    `r`.`player_key`, `r`.`user_id`, `r`.`nickname`, `r`.`wpm`, `r`.`accuracy`, `r`.`medal`, `r`.`created_at`
  FROM `games_results` `r` JOIN `games_games` `g` ON `g`.`id` = `r`.`game_id`
  WHERE `r`.`implausible` = 0
), `ranked` AS (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY `day`, `mode`, `player_key` ORDER BY `created_at` DESC, `id` DESC)
    AS `recency`
  FROM `counted`
)
SELECT `day`, `mode`, `player_key`, MAX(`user_id`), MAX(CASE WHEN `recency` = 1 THEN `nickname` END), COUNT(*),
  SUM(`wpm`), SUM(`accuracy`), MAX(`wpm`),
  SUM(CASE WHEN `medal` = 'gold' THEN 1 ELSE 0 END), SUM(CASE WHEN `medal` = 'silver' THEN 1 ELSE 0 END),
  SUM(CASE WHEN `medal` = 'bronze' THEN 1 ELSE 0 END), MAX(`created_at`)
FROM `ranked`
GROUP BY `day`, `mode`, `player_key`;
--> statement-breakpoint
DROP TABLE `rooms_game_results`;--> statement-breakpoint
DROP TABLE `rooms_games`;
