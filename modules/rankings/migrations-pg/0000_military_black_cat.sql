CREATE TABLE "rankings_period_stats" (
	"period_key" text NOT NULL,
	"player_key" text NOT NULL,
	"user_id" integer,
	"nickname" text NOT NULL,
	"games" integer NOT NULL,
	"wpm_sum" integer NOT NULL,
	"accuracy_sum" double precision NOT NULL,
	"wpm_centi" integer NOT NULL,
	"last_played_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rankings_period_stats_period_key_player_key_pk" PRIMARY KEY("period_key","player_key")
);
--> statement-breakpoint
ALTER TABLE "rankings_period_stats" ADD CONSTRAINT "rankings_period_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rankings_period_stats_wpm_idx" ON "rankings_period_stats" USING btree ("period_key","wpm_centi" desc,"games" desc,"player_key" COLLATE "C");--> statement-breakpoint
CREATE INDEX "rankings_period_stats_games_idx" ON "rankings_period_stats" USING btree ("period_key","games" desc,"wpm_centi" desc,"player_key" COLLATE "C");--> statement-breakpoint
CREATE INDEX "rankings_period_stats_user_idx" ON "rankings_period_stats" USING btree ("user_id");