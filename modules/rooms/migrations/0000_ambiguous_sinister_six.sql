CREATE TABLE `rooms_game_results` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`game_id` integer NOT NULL,
	`room_id` integer NOT NULL,
	`room_name` text NOT NULL,
	`user_id` integer,
	`nickname` text NOT NULL,
	`player_key` text NOT NULL,
	`sentence_id` integer,
	`wpm` integer NOT NULL,
	`accuracy` real NOT NULL,
	`error_count` integer NOT NULL,
	`completion_time` real NOT NULL,
	`position` integer,
	`participants` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `rooms_games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `rooms_game_results_user_created_idx` ON `rooms_game_results` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `rooms_game_results_created_idx` ON `rooms_game_results` (`created_at`);--> statement-breakpoint
CREATE INDEX `rooms_game_results_game_idx` ON `rooms_game_results` (`game_id`);--> statement-breakpoint
CREATE TABLE `rooms_games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`room_id` integer NOT NULL,
	`room_name` text NOT NULL,
	`sentence_id` integer,
	`participants` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rooms_games_finished_at_idx` ON `rooms_games` (`finished_at`);--> statement-breakpoint
CREATE TABLE `rooms_rooms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`max_users` integer DEFAULT 20 NOT NULL,
	`theme` text NOT NULL,
	`language` text DEFAULT 'ko' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_rooms_name_unique` ON `rooms_rooms` (`name`);--> statement-breakpoint
CREATE TABLE `rooms_sentences` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`theme` text NOT NULL,
	`text` text NOT NULL,
	`source` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rooms_sentences_theme_text_unique` ON `rooms_sentences` (`theme`,`text`);