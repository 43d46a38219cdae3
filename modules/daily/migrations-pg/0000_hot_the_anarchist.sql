CREATE TABLE "daily_attempts" (
	"day" text NOT NULL,
	"player_key" text NOT NULL,
	"round" integer NOT NULL,
	"user_id" integer,
	"wpm" integer NOT NULL,
	"accuracy" double precision NOT NULL,
	"verified" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "daily_attempts_day_player_key_round_pk" PRIMARY KEY("day","player_key","round")
);
--> statement-breakpoint
CREATE TABLE "daily_best" (
	"day" text NOT NULL,
	"player_key" text NOT NULL,
	"user_id" integer,
	"nickname" text NOT NULL,
	"wpm" integer NOT NULL,
	"accuracy" double precision NOT NULL,
	"completion_time" double precision NOT NULL,
	"round" integer NOT NULL,
	"replay_key" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "daily_best_day_player_key_pk" PRIMARY KEY("day","player_key")
);
--> statement-breakpoint
CREATE TABLE "daily_days" (
	"day" text PRIMARY KEY NOT NULL,
	"sentence_id" integer NOT NULL,
	"sentence_text" text NOT NULL,
	"chosen_at" timestamp (3) with time zone NOT NULL,
	"medals_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "daily_attempts" ADD CONSTRAINT "daily_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_best" ADD CONSTRAINT "daily_best_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "daily_attempts_user_idx" ON "daily_attempts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "daily_best_board_idx" ON "daily_best" USING btree ("day","wpm" desc,"accuracy" desc,"created_at","player_key" COLLATE "C");--> statement-breakpoint
CREATE INDEX "daily_best_user_idx" ON "daily_best" USING btree ("user_id");