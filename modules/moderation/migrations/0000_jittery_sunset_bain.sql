CREATE TABLE `moderation_blocks` (
	`user_id` integer NOT NULL,
	`blocked_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `blocked_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `moderation_blocks_blocked_idx` ON `moderation_blocks` (`blocked_id`);--> statement-breakpoint
CREATE TABLE `moderation_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`message` text NOT NULL,
	`report_id` integer,
	`created_at` integer NOT NULL,
	`seen_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `moderation_reports`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `moderation_notices_user_idx` ON `moderation_notices` (`user_id`,`seen_at`);--> statement-breakpoint
CREATE TABLE `moderation_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reporter_id` integer,
	`reporter_name` text NOT NULL,
	`target_key` text NOT NULL,
	`target_kind` text NOT NULL,
	`offender_id` integer,
	`offender_name` text NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`evidence` text NOT NULL,
	`status` text NOT NULL,
	`resolution` text,
	`resolved_with` integer,
	`resolved_by_id` integer,
	`resolved_by_name` text,
	`resolved_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`offender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`resolved_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_reports_open_idx` ON `moderation_reports` (`reporter_id`,`target_key`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `moderation_reports_target_idx` ON `moderation_reports` (`target_key`,`status`);--> statement-breakpoint
CREATE INDEX `moderation_reports_status_idx` ON `moderation_reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `moderation_reports_offender_idx` ON `moderation_reports` (`offender_id`);--> statement-breakpoint
CREATE TABLE `moderation_restrictions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer,
	`lifted_at` integer,
	`lifted_by_name` text,
	`report_id` integer,
	`created_by_name` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`report_id`) REFERENCES `moderation_reports`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `moderation_restrictions_user_idx` ON `moderation_restrictions` (`user_id`,`kind`);--> statement-breakpoint
CREATE INDEX `moderation_restrictions_kind_idx` ON `moderation_restrictions` (`kind`,`lifted_at`,`ends_at`);