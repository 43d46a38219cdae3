CREATE TABLE `duel_daily` (
	`user_id` integer NOT NULL,
	`day` text NOT NULL,
	`games` integer DEFAULT 0 NOT NULL,
	`wins` integer DEFAULT 0 NOT NULL,
	`losses` integer DEFAULT 0 NOT NULL,
	`draws` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `duel_daily_day_idx` ON `duel_daily` (`day`);--> statement-breakpoint
CREATE TABLE `duel_games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`red_user_id` integer,
	`blue_user_id` integer,
	`winner_side` text NOT NULL,
	`reason` text NOT NULL,
	`red_lives` integer NOT NULL,
	`blue_lives` integer NOT NULL,
	`red_words_typed` integer NOT NULL,
	`blue_words_typed` integer NOT NULL,
	`duration` real NOT NULL,
	`red_rating_before` real NOT NULL,
	`red_rating_after` real NOT NULL,
	`blue_rating_before` real NOT NULL,
	`blue_rating_after` real NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	FOREIGN KEY (`red_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`blue_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `duel_games_session_id_unique` ON `duel_games` (`session_id`);--> statement-breakpoint
CREATE INDEX `duel_games_red_idx` ON `duel_games` (`red_user_id`,`ended_at`);--> statement-breakpoint
CREATE INDEX `duel_games_blue_idx` ON `duel_games` (`blue_user_id`,`ended_at`);--> statement-breakpoint
CREATE TABLE `duel_players` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`rating` real NOT NULL,
	`rating_deviation` real NOT NULL,
	`volatility` real NOT NULL,
	`wins` integer DEFAULT 0 NOT NULL,
	`losses` integer DEFAULT 0 NOT NULL,
	`draws` integer DEFAULT 0 NOT NULL,
	`current_streak` integer DEFAULT 0 NOT NULL,
	`max_win_streak` integer DEFAULT 0 NOT NULL,
	`last_played_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `duel_players_max_streak_idx` ON `duel_players` (`max_win_streak`);