CREATE TABLE `rooms_private` (
	`room_id` integer PRIMARY KEY NOT NULL,
	`owner_id` integer NOT NULL,
	`code` text NOT NULL,
	`auto_start` integer DEFAULT false NOT NULL,
	`active_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`room_id`) REFERENCES `rooms_rooms`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_private_code_unique` ON `rooms_private` (`code`);--> statement-breakpoint
CREATE INDEX `rooms_private_owner_open_idx` ON `rooms_private` (`owner_id`) WHERE closed_at IS NULL;--> statement-breakpoint
CREATE INDEX `rooms_private_idle_idx` ON `rooms_private` (`active_at`) WHERE closed_at IS NULL;--> statement-breakpoint
CREATE TABLE `rooms_private_removed` (
	`room_id` integer NOT NULL,
	`player_key` text NOT NULL,
	`removed_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`room_id`, `player_key`),
	FOREIGN KEY (`room_id`) REFERENCES `rooms_rooms`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `rooms_rooms_name_unique`;--> statement-breakpoint
ALTER TABLE `rooms_rooms` ADD `kind` text DEFAULT 'public' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_rooms_name_unique` ON `rooms_rooms` (`name`) WHERE kind = 'public';