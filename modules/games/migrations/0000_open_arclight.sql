CREATE TABLE `games_daily_stats` (
	`day` text NOT NULL,
	`mode` text NOT NULL,
	`player_key` text NOT NULL,
	`user_id` integer,
	`nickname` text NOT NULL,
	`games` integer NOT NULL,
	`wpm_sum` integer NOT NULL,
	`accuracy_sum` real NOT NULL,
	`best_wpm` integer NOT NULL,
	`gold_medals` integer DEFAULT 0 NOT NULL,
	`silver_medals` integer DEFAULT 0 NOT NULL,
	`bronze_medals` integer DEFAULT 0 NOT NULL,
	`last_played_at` integer NOT NULL,
	PRIMARY KEY(`day`, `mode`, `player_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `games_daily_stats_player_day_idx` ON `games_daily_stats` (`player_key`,`day`);--> statement-breakpoint
CREATE INDEX `games_daily_stats_user_idx` ON `games_daily_stats` (`user_id`);--> statement-breakpoint
CREATE TABLE `games_games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mode` text NOT NULL,
	`source_id` text NOT NULL,
	`source_name` text NOT NULL,
	`round` integer NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`participants` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `games_games_identity_unique` ON `games_games` (`mode`,`source_id`,`round`);--> statement-breakpoint
CREATE INDEX `games_games_ended_at_idx` ON `games_games` (`ended_at`);--> statement-breakpoint
CREATE TABLE `games_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`user_id` integer,
	`player_key` text NOT NULL,
	`nickname` text NOT NULL,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`completion_time` real NOT NULL,
	`position` integer,
	`medal` text,
	`error_count` integer NOT NULL,
	`implausible` integer DEFAULT false NOT NULL,
	`item_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games_games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `games_results_game_player_unique` ON `games_results` (`game_id`,`player_key`);--> statement-breakpoint
CREATE INDEX `games_results_user_created_idx` ON `games_results` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `games_results_created_idx` ON `games_results` (`created_at`);