CREATE TABLE `rankings_recounts` (
	`reason` text PRIMARY KEY NOT NULL,
	`done_at` integer
);
--> statement-breakpoint
-- Duels are no longer typing results (product-rules "Trust rules"; games' migration 0002_drop_duel_results removed
-- them from games' records and daily aggregates). The periods here still hold what they added: the next server boot
-- recounts them from games' aggregates (index.ts `recountPending`). A database with no period rows has nothing to fix.
INSERT INTO `rankings_recounts` (`reason`) SELECT 'duels_are_not_typing_results' WHERE EXISTS (SELECT 1 FROM `rankings_period_stats`);
