CREATE TABLE `practice_goals` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
