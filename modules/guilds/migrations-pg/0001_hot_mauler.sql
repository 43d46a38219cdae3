CREATE TABLE "guilds_game_reward_days" (
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"games" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guilds_game_rewards" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" integer NOT NULL,
	"round" integer NOT NULL,
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"rewarded" boolean NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guilds_game_reward_days" ADD CONSTRAINT "guilds_game_reward_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_game_rewards" ADD CONSTRAINT "guilds_game_rewards_guild_id_guilds_id_fk" FOREIGN KEY ("guild_id") REFERENCES "public"."guilds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "guilds_game_rewards" ADD CONSTRAINT "guilds_game_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_game_reward_days_user_day_idx" ON "guilds_game_reward_days" USING btree ("user_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "guilds_game_rewards_game_user_idx" ON "guilds_game_rewards" USING btree ("guild_id","round","user_id");--> statement-breakpoint
CREATE INDEX "guilds_game_rewards_day_idx" ON "guilds_game_rewards" USING btree ("day");