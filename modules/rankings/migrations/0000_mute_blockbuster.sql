CREATE TABLE `rankings_period_stats` (
	`period_key` text NOT NULL,
	`player_key` text NOT NULL,
	`user_id` integer,
	`nickname` text NOT NULL,
	`games` integer NOT NULL,
	`wpm_sum` integer NOT NULL,
	`accuracy_sum` real NOT NULL,
	`wpm_centi` integer NOT NULL,
	`last_played_at` integer NOT NULL,
	PRIMARY KEY(`period_key`, `player_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `rankings_period_stats_wpm_idx` ON `rankings_period_stats` (`period_key`,"wpm_centi" desc,"games" desc,`player_key`);--> statement-breakpoint
CREATE INDEX `rankings_period_stats_games_idx` ON `rankings_period_stats` (`period_key`,"games" desc,"wpm_centi" desc,`player_key`);--> statement-breakpoint
CREATE INDEX `rankings_period_stats_user_idx` ON `rankings_period_stats` (`user_id`);