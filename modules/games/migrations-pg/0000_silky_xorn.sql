CREATE TABLE "games_daily_stats" (
	"day" text NOT NULL,
	"mode" text NOT NULL,
	"player_key" text NOT NULL,
	"user_id" integer,
	"nickname" text NOT NULL,
	"games" integer NOT NULL,
	"wpm_sum" integer NOT NULL,
	"accuracy_sum" double precision NOT NULL,
	"best_wpm" integer NOT NULL,
	"gold_medals" integer DEFAULT 0 NOT NULL,
	"silver_medals" integer DEFAULT 0 NOT NULL,
	"bronze_medals" integer DEFAULT 0 NOT NULL,
	"last_played_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "games_daily_stats_day_mode_player_key_pk" PRIMARY KEY("day","mode","player_key")
);
--> statement-breakpoint
CREATE TABLE "games_games" (
	"id" serial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"source_id" text NOT NULL,
	"source_name" text NOT NULL,
	"round" integer NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"participants" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "games_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"game_id" integer NOT NULL,
	"user_id" integer,
	"player_key" text NOT NULL,
	"nickname" text NOT NULL,
	"wpm" integer NOT NULL,
	"accuracy" double precision NOT NULL,
	"completion_time" double precision NOT NULL,
	"position" integer,
	"medal" text,
	"error_count" integer NOT NULL,
	"implausible" boolean DEFAULT false NOT NULL,
	"item_id" integer,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games_daily_stats" ADD CONSTRAINT "games_daily_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games_results" ADD CONSTRAINT "games_results_game_id_games_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games_games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games_results" ADD CONSTRAINT "games_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "games_daily_stats_player_day_idx" ON "games_daily_stats" USING btree ("player_key","day");--> statement-breakpoint
CREATE INDEX "games_daily_stats_user_idx" ON "games_daily_stats" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "games_games_identity_unique" ON "games_games" USING btree ("mode","source_id","round");--> statement-breakpoint
CREATE INDEX "games_games_ended_at_idx" ON "games_games" USING btree ("ended_at");--> statement-breakpoint
CREATE UNIQUE INDEX "games_results_game_player_unique" ON "games_results" USING btree ("game_id","player_key");--> statement-breakpoint
CREATE INDEX "games_results_user_created_idx" ON "games_results" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "games_results_created_idx" ON "games_results" USING btree ("created_at");