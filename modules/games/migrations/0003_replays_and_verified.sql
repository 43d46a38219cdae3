CREATE TABLE `games_personal_bests` (
	`user_id` integer NOT NULL,
	`mode` text NOT NULL,
	`wpm` integer NOT NULL,
	PRIMARY KEY(`user_id`, `mode`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `games_replays` (
	`key` text PRIMARY KEY NOT NULL,
	`result_id` integer NOT NULL,
	`sentence` text NOT NULL,
	`steps` text NOT NULL,
	`kept` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`result_id`) REFERENCES `games_results`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `games_replays_result_unique` ON `games_replays` (`result_id`);--> statement-breakpoint
CREATE INDEX `games_replays_created_idx` ON `games_replays` (`created_at`);--> statement-breakpoint
ALTER TABLE `games_daily_stats` ADD `best_replay_wpm` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `games_daily_stats` ADD `best_replay_key` text;--> statement-breakpoint
ALTER TABLE `games_results` ADD `verified` integer DEFAULT true NOT NULL;