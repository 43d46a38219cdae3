CREATE TABLE "duel_daily" (
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"games" integer DEFAULT 0 NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"losses" integer DEFAULT 0 NOT NULL,
	"draws" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "duel_daily_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "duel_games" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"red_user_id" integer,
	"blue_user_id" integer,
	"winner_side" text NOT NULL,
	"reason" text NOT NULL,
	"red_lives" integer NOT NULL,
	"blue_lives" integer NOT NULL,
	"red_words_typed" integer NOT NULL,
	"blue_words_typed" integer NOT NULL,
	"duration" double precision NOT NULL,
	"red_rating_before" double precision NOT NULL,
	"red_rating_after" double precision NOT NULL,
	"blue_rating_before" double precision NOT NULL,
	"blue_rating_after" double precision NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "duel_games_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
CREATE TABLE "duel_players" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"rating" double precision NOT NULL,
	"rating_deviation" double precision NOT NULL,
	"volatility" double precision NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"losses" integer DEFAULT 0 NOT NULL,
	"draws" integer DEFAULT 0 NOT NULL,
	"current_streak" integer DEFAULT 0 NOT NULL,
	"max_win_streak" integer DEFAULT 0 NOT NULL,
	"last_played_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "duel_daily" ADD CONSTRAINT "duel_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duel_games" ADD CONSTRAINT "duel_games_red_user_id_users_id_fk" FOREIGN KEY ("red_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duel_games" ADD CONSTRAINT "duel_games_blue_user_id_users_id_fk" FOREIGN KEY ("blue_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duel_players" ADD CONSTRAINT "duel_players_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "duel_daily_day_idx" ON "duel_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "duel_games_red_idx" ON "duel_games" USING btree ("red_user_id","ended_at");--> statement-breakpoint
CREATE INDEX "duel_games_blue_idx" ON "duel_games" USING btree ("blue_user_id","ended_at");--> statement-breakpoint
CREATE INDEX "duel_players_max_streak_idx" ON "duel_players" USING btree ("max_win_streak");