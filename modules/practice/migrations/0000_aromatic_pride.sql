CREATE TABLE `practice_days` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`practice_ms` integer NOT NULL,
	`paid_ms` integer NOT NULL,
	`experience` integer NOT NULL,
	`results` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `practice_days_recent_idx` ON `practice_days` (`user_id`,"day" desc);--> statement-breakpoint
CREATE TABLE `practice_jamo_days` (
	`user_id` integer NOT NULL,
	`layout` text NOT NULL,
	`day` text NOT NULL,
	`unit` text NOT NULL,
	`hits` integer NOT NULL,
	`errors` integer NOT NULL,
	`time_ms` integer NOT NULL,
	`timed` integer NOT NULL,
	PRIMARY KEY(`user_id`, `layout`, `day`, `unit`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `practice_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`kind` text NOT NULL,
	`text_id` text NOT NULL,
	`layout` text NOT NULL,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`keystrokes` integer NOT NULL,
	`error_count` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`day` text NOT NULL,
	`merged` integer NOT NULL,
	`experience` integer NOT NULL,
	`paid_at` integer,
	`finished_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `practice_results_client_idx` ON `practice_results` (`user_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `practice_results_day_idx` ON `practice_results` (`user_id`,`day`);