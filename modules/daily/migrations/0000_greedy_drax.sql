CREATE TABLE `daily_attempts` (
	`day` text NOT NULL,
	`player_key` text NOT NULL,
	`round` integer NOT NULL,
	`user_id` integer,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`verified` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`day`, `player_key`, `round`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `daily_attempts_user_idx` ON `daily_attempts` (`user_id`);--> statement-breakpoint
CREATE TABLE `daily_best` (
	`day` text NOT NULL,
	`player_key` text NOT NULL,
	`user_id` integer,
	`nickname` text NOT NULL,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`completion_time` real NOT NULL,
	`round` integer NOT NULL,
	`replay_key` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`day`, `player_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `daily_best_board_idx` ON `daily_best` (`day`,"wpm" desc,"accuracy" desc,`created_at`,`player_key`);--> statement-breakpoint
CREATE INDEX `daily_best_user_idx` ON `daily_best` (`user_id`);--> statement-breakpoint
CREATE TABLE `daily_days` (
	`day` text PRIMARY KEY NOT NULL,
	`sentence_id` integer NOT NULL,
	`sentence_text` text NOT NULL,
	`chosen_at` integer NOT NULL,
	`medals_at` integer
);
