CREATE TABLE `guilds_activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer,
	`actor_id` integer,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guilds_activity_guild_idx` ON `guilds_activity` (`guild_id`,`id`);--> statement-breakpoint
CREATE TABLE `guilds_applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`post_id` integer,
	`user_id` integer NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`post_id`) REFERENCES `guilds_recruitment_posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_applications_pending_unique` ON `guilds_applications` (`guild_id`,`user_id`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `guilds_applications_guild_idx` ON `guilds_applications` (`guild_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `guilds_applications_post_idx` ON `guilds_applications` (`post_id`);--> statement-breakpoint
CREATE TABLE `guilds_board_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`content` text NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	`deleted_by` integer,
	FOREIGN KEY (`post_id`) REFERENCES `guilds_board_posts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`deleted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guilds_board_comments_post_idx` ON `guilds_board_comments` (`post_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `guilds_board_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`comment_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	`deleted_by` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`deleted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guilds_board_posts_guild_idx` ON `guilds_board_posts` (`guild_id`,`deleted_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `guilds_invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`email` text NOT NULL,
	`username` text DEFAULT '' NOT NULL,
	`invited_by` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	`responded_at` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invited_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_invitations_pending_unique` ON `guilds_invitations` (`guild_id`,`email`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `guilds_invitations_email_idx` ON `guilds_invitations` (`email`,`status`);--> statement-breakpoint
CREATE TABLE `guilds_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`joined_at` integer NOT NULL,
	`left_at` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_members_user_live_unique` ON `guilds_members` (`user_id`) WHERE left_at IS NULL;--> statement-breakpoint
CREATE INDEX `guilds_members_guild_idx` ON `guilds_members` (`guild_id`,`left_at`);--> statement-breakpoint
CREATE TABLE `guilds_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guilds_messages_guild_idx` ON `guilds_messages` (`guild_id`,`id`);--> statement-breakpoint
CREATE TABLE `guilds_recruitment_posts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`guild_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`view_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`guild_id`) REFERENCES `guilds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guilds_recruitment_posts_live_idx` ON `guilds_recruitment_posts` (`deleted_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `guilds_recruitment_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`post_id` integer NOT NULL,
	`viewer_key` text NOT NULL,
	`counted_at` integer NOT NULL,
	FOREIGN KEY (`post_id`) REFERENCES `guilds_recruitment_posts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_recruitment_views_post_viewer_unique` ON `guilds_recruitment_views` (`post_id`,`viewer_key`);--> statement-breakpoint
CREATE TABLE `guilds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`owner_id` integer NOT NULL,
	`max_members` integer DEFAULT 30 NOT NULL,
	`countdown_seconds` integer DEFAULT 5 NOT NULL,
	`end_countdown_seconds` integer DEFAULT 60 NOT NULL,
	`problems` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	`deleted_by` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`deleted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `guilds_name_key_live_unique` ON `guilds` (`name_key`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `guilds_live_created_idx` ON `guilds` (`deleted_at`,`created_at`);