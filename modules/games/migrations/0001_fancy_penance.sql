CREATE TABLE `games_owners` (
	`mode` text NOT NULL,
	`source_id` text NOT NULL,
	`epoch` integer NOT NULL,
	PRIMARY KEY(`mode`, `source_id`)
);
