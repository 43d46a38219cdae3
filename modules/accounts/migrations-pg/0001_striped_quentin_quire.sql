CREATE TABLE "accounts_password_reset_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "accounts_password_reset_tokens" ADD CONSTRAINT "accounts_password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_password_reset_tokens_hash_unique" ON "accounts_password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "accounts_password_reset_tokens_user_idx" ON "accounts_password_reset_tokens" USING btree ("user_id");