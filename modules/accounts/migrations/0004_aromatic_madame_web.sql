CREATE TABLE `accounts_password_reset_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_password_reset_tokens_hash_unique` ON `accounts_password_reset_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `accounts_password_reset_tokens_user_idx` ON `accounts_password_reset_tokens` (`user_id`);