CREATE TABLE `duel_preferences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`accepts_challenges` integer DEFAULT true NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
