ALTER TABLE `accounts_session_closures` ADD `kind` text DEFAULT 'sessions_closed' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts_session_closures` ADD `origin` text;--> statement-breakpoint
CREATE INDEX `accounts_session_closures_user_at_idx` ON `accounts_session_closures` (`user_id`,`at`);