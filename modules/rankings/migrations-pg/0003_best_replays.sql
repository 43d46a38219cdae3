ALTER TABLE "rankings_period_stats" ADD COLUMN "best_replay_wpm" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rankings_period_stats" ADD COLUMN "best_replay_key" text;