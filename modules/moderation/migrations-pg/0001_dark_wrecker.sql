CREATE TABLE "moderation_words" (
	"word" text PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"by_id" integer,
	"by_name" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "moderation_words" ADD CONSTRAINT "moderation_words_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;