CREATE TABLE "accounts_session_closures" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'sessions_closed' NOT NULL,
	"reason" text NOT NULL,
	"origin" text,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts_login_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"login_time" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "accounts_refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"remember_me" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"rotated_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "accounts_reward_grants" (
	"game_key" text NOT NULL,
	"user_id" integer NOT NULL,
	"granted_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "accounts_reward_grants_game_key_user_id_pk" PRIMARY KEY("game_key","user_id")
);
--> statement-breakpoint
ALTER TABLE "accounts_session_closures" ADD CONSTRAINT "accounts_session_closures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts_login_history" ADD CONSTRAINT "accounts_login_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts_refresh_tokens" ADD CONSTRAINT "accounts_refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts_reward_grants" ADD CONSTRAINT "accounts_reward_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_session_closures_at_idx" ON "accounts_session_closures" USING btree ("at");--> statement-breakpoint
CREATE INDEX "accounts_session_closures_user_at_idx" ON "accounts_session_closures" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "accounts_login_history_user_time_idx" ON "accounts_login_history" USING btree ("user_id","login_time");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_refresh_tokens_hash_unique" ON "accounts_refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "accounts_refresh_tokens_family_idx" ON "accounts_refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "accounts_refresh_tokens_user_idx" ON "accounts_refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "accounts_reward_grants_granted_at_idx" ON "accounts_reward_grants" USING btree ("granted_at");--> statement-breakpoint
CREATE INDEX "accounts_reward_grants_user_idx" ON "accounts_reward_grants" USING btree ("user_id");