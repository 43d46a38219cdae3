-- The medal and level rankings read the core users table in these orders (store.ts medalsTop, levelsTop): with
-- these indexes a top-N read is one index range, whatever the number of members.
CREATE INDEX IF NOT EXISTS "rankings_users_medals_idx" ON "users" (("gold_medals" * 3 + "silver_medals" * 2 + "bronze_medals") DESC, "gold_medals" DESC, "silver_medals" DESC, "id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rankings_users_levels_idx" ON "users" ("level" DESC, "experience" DESC, "id");
