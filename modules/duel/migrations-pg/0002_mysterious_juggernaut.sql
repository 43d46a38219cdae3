CREATE TABLE "duel_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"accepts_challenges" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "duel_preferences" ADD CONSTRAINT "duel_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;