CREATE TABLE "games_personal_bests" (
	"user_id" integer NOT NULL,
	"mode" text NOT NULL,
	"wpm" integer NOT NULL,
	CONSTRAINT "games_personal_bests_user_id_mode_pk" PRIMARY KEY("user_id","mode")
);
--> statement-breakpoint
CREATE TABLE "games_replays" (
	"key" text PRIMARY KEY NOT NULL,
	"result_id" integer NOT NULL,
	"sentence" text NOT NULL,
	"steps" text NOT NULL,
	"kept" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games_daily_stats" ADD COLUMN "best_replay_wpm" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "games_daily_stats" ADD COLUMN "best_replay_key" text;--> statement-breakpoint
ALTER TABLE "games_results" ADD COLUMN "verified" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "games_personal_bests" ADD CONSTRAINT "games_personal_bests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games_replays" ADD CONSTRAINT "games_replays_result_id_games_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."games_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "games_replays_result_unique" ON "games_replays" USING btree ("result_id");--> statement-breakpoint
CREATE INDEX "games_replays_created_idx" ON "games_replays" USING btree ("created_at");