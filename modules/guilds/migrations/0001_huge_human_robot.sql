CREATE TABLE `guilds_game_reward_days` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`games` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_game_reward_days_user_day_idx` ON `guilds_game_reward_days` (`user_id`,`day`);--> statement-breakpoint
CREATE TABLE `guilds_game_rewards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`round` integer NOT NULL,
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`rewarded` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_game_rewards_game_user_idx` ON `guilds_game_rewards` (`guild_id`,`round`,`user_id`);--> statement-breakpoint
CREATE INDEX `guilds_game_rewards_day_idx` ON `guilds_game_rewards` (`day`);