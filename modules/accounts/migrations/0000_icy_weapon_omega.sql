CREATE TABLE `accounts_login_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`login_time` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`ip_address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounts_login_history_user_time_idx` ON `accounts_login_history` (`user_id`,`login_time`);--> statement-breakpoint
CREATE TABLE `accounts_refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`family_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`remember_me` integer DEFAULT false NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`rotated_at` integer,
	`revoked_at` integer,
	`revoked_reason` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_refresh_tokens_hash_unique` ON `accounts_refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `accounts_refresh_tokens_family_idx` ON `accounts_refresh_tokens` (`family_id`);--> statement-breakpoint
CREATE INDEX `accounts_refresh_tokens_user_idx` ON `accounts_refresh_tokens` (`user_id`);