CREATE TABLE `accounts_reward_grants` (
	`game_key` text NOT NULL,
	`user_id` integer NOT NULL,
	`granted_at` integer NOT NULL,
	PRIMARY KEY(`game_key`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounts_reward_grants_granted_at_idx` ON `accounts_reward_grants` (`granted_at`);--> statement-breakpoint
CREATE INDEX `accounts_reward_grants_user_idx` ON `accounts_reward_grants` (`user_id`);