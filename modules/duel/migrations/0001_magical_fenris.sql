ALTER TABLE `duel_games` ADD `rated` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `duel_games_pair_idx` ON `duel_games` (`red_user_id`,`blue_user_id`,`ended_at`);