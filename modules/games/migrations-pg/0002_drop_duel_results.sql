-- A duel is not a typing-speed result (product-rules "Trust rules"): the duel module stopped writing its duels here.
-- The ones it wrote before go, with what they fed in this module: the daily aggregates of the mode "duel" (their own
-- rows: the aggregates are per mode), the owner epochs and the games. Results go first (they name their game).
-- The rankings module recounts its periods from the aggregates afterwards (its own migration asks for it).
DELETE FROM "games_results" WHERE "game_id" IN (SELECT "id" FROM "games_games" WHERE "mode" = 'duel');--> statement-breakpoint
DELETE FROM "games_daily_stats" WHERE "mode" = 'duel';--> statement-breakpoint
DELETE FROM "games_owners" WHERE "mode" = 'duel';--> statement-breakpoint
DELETE FROM "games_games" WHERE "mode" = 'duel';
