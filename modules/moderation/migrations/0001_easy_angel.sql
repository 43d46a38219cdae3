CREATE TABLE `moderation_words` (
	`word` text PRIMARY KEY NOT NULL,
	`action` text NOT NULL,
	`by_id` integer,
	`by_name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
