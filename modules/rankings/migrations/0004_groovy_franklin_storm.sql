CREATE TABLE `rankings_excluded_users` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`excluded_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
