CREATE TABLE `admin_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`admin_id` integer,
	`admin_username` text NOT NULL,
	`action` text NOT NULL,
	`target_user_id` integer,
	`target_username` text,
	`details` text,
	`source` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`target_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `admin_logs_created_at_idx` ON `admin_logs` (`created_at`);--> statement-breakpoint
CREATE INDEX `admin_logs_target_user_idx` ON `admin_logs` (`target_user_id`);